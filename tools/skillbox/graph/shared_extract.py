"""Extraction of many files shared by this process and forked children, each taking batches from one pipe.

Why not a `ProcessPoolExecutor`: on two cores its two workers leave the build process to feed them, and its
threads pickle every batch out and every result back (~0.1-0.2 CPU-s of the parent's on Django besides its
imports, taken from the workers' cores), while the parent's own core time goes to waiting. Here the parent is
one of the workers: it forks `jobs - 1` children once the parsers and queries are made (they inherit them), and
every process takes the next batch index from a pipe filled before the fork. Every read takes one whole 4-byte
token (a pipe read is atomic among readers on Linux), so each batch is taken exactly once, biggest first, by
whichever process is free. A child hands its results back through an unlinked temporary file when the pipe is
empty.

The parent's results are sealed entries like the child's, unsealed afterwards with them: keeping each file's
plain record alive instead (to skip its unseal) made the parent's extraction ~5% slower per MB than the child's
(its heap grows with scattered live objects), and cost more than the unseal saves (bench/README.md, session 7).
"""

from __future__ import annotations

import contextlib
import marshal
import os
import struct
import tempfile

from skillbox.graph.forking import fork_task, joined, stopped
from skillbox.graph.worker import extract_batch

TOKEN = struct.Struct("<I")


def extract_shared(
    root: str, known, batches: list[list[tuple[str, str]]], jobs: int, report, meanwhile=None, own_done=None
):
    """[(rel, key, sealed entry or None)] in the order of `batches`, or None when no child can be forked (no
    fork, `SKILLBOX_NO_FORK`, other threads, more batches than the pipe holds): then the caller uses a pool.

    `meanwhile()` is other work of this process (imports for the next stages): it runs right after the fork,
    while the children take the first batches, so that it is never left for the end, when the other cores
    may have nothing to do. `own_done({batch index: results})` gets this process's own results as soon as the
    pipe is empty, before it waits for the children: they are still on their last batches, so what the caller
    does with them then (unsealing) is not left for the serial end."""
    if jobs < 2 or len(batches) < 2:
        return None
    tokens = b"".join(TOKEN.pack(i) for i in range(len(batches)))
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)  # no reader runs yet: a pipe too small for the tokens must not block
    try:
        written = os.write(write_end, tokens)
    except BlockingIOError:
        written = 0
    finally:
        os.close(write_end)  # before the fork: a reader sees the end of the pipe once every token is taken
    if written != len(tokens):  # more batches than the pipe holds (64 KiB on Linux: 16,384 batches)
        os.close(read_end)
        return None
    with contextlib.ExitStack() as stack:
        children: list[tuple[int, object]] = []
        try:
            for _ in range(min(jobs, len(batches)) - 1):
                try:
                    handback = stack.enter_context(tempfile.TemporaryFile())
                except OSError:  # no writable temporary folder: fewer children, or the caller's pool
                    break
                pid = fork_task(lambda handback=handback: _child(root, known, batches, read_end, handback))
                if pid is None:
                    break
                children.append((pid, handback))
            if not children:
                return None
            if meanwhile is not None:
                meanwhile()
            by_batch = _take_batches(root, known, batches, read_end, report)
            if own_done is not None:
                own_done(by_batch)
        except BaseException:
            for pid, _handback in children:  # no child outlives a failed build, none is left a zombie
                stopped(pid)
            raise
        finally:
            os.close(read_end)
        for pid, handback in children:
            if joined(pid):
                handback.seek(0)
                with contextlib.suppress(EOFError, ValueError, TypeError):  # truncated: done again below
                    by_batch.update(marshal.load(handback))
    out = []
    for index, batch in enumerate(batches):
        done = by_batch.get(index)
        if done is None:  # a child that failed or was killed: its batches are extracted here
            done = extract_batch(root, known, batch)
        out.extend(done)
    report("extract", len(out), len(out))
    return out


def _take_batches(root: str, known, batches: list, read_end: int, report) -> dict[int, list]:
    """This process's share: batches taken from the pipe until it is empty."""
    files_before = [0]  # files_before[n]: the files of the first n batches
    for batch in batches:
        files_before.append(files_before[-1] + len(batch))
    done: dict[int, list] = {}
    while token := os.read(read_end, TOKEN.size):
        index = TOKEN.unpack(token)[0]
        done[index] = extract_batch(root, known, batches[index])
        left = _bytes_left(read_end)
        if left is not None:  # files in the batches taken so far, by any process (those in flight included)
            report("extract", files_before[len(batches) - left // TOKEN.size], files_before[-1])
    return done


def _child(root: str, known, batches: list, read_end: int, handback) -> None:
    """A forked child's share: batches taken from the pipe until it is empty, then the results written to
    `handback`."""
    done = {}
    while token := os.read(read_end, TOKEN.size):
        index = TOKEN.unpack(token)[0]
        done[index] = extract_batch(root, known, batches[index])
    marshal.dump(done, handback)
    handback.flush()


def _bytes_left(fd: int) -> int | None:
    """Bytes still in the pipe (FIONREAD), for progress only."""
    try:
        import fcntl
        import termios

        return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]
    except OSError:
        return None
