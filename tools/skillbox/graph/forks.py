"""Work handed to a forked child: the second core takes part of a build without copying what the parent holds.

A forked child sees the parent's memory as it was at the fork (copy-on-write), so it can work on a resolver's
tables or an in-memory graph that would cost more to send than to use. It runs one task and exits through
`os._exit`, never returning into the caller's code; when it fails, its exit code says so and the parent does
the task itself. Where fork is unavailable (or `SKILLBOX_NO_FORK` is set) everything runs in the parent.
"""

from __future__ import annotations

import os


def fork(task) -> int | None:
    """Run `task` in a forked child; the child's pid, or None where fork is unavailable (then the caller runs it)."""
    import threading

    # Forking a process that runs other threads can leave the child holding a lock nobody will release.
    if not hasattr(os, "fork") or os.environ.get("SKILLBOX_NO_FORK") or threading.active_count() > 1:
        return None
    try:
        pid = os.fork()
    except OSError:
        return None
    if pid:
        return pid
    try:  # the child: do the task and exit
        task()
        os._exit(0)
    except BaseException:
        os._exit(1)


def joined(pid: int) -> bool:
    """Wait for a child; True when it finished its task."""
    try:
        _pid, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return False
    return os.waitstatus_to_exitcode(status) == 0


def read_all(fd: int) -> bytes:
    """Everything a child writes to the read end `fd` of a pipe, until it closes its end (then `fd` is closed)."""
    chunks = []
    with os.fdopen(fd, "rb", buffering=0) as pipe:
        while chunk := pipe.read(1 << 20):
            chunks.append(chunk)
    return b"".join(chunks)
