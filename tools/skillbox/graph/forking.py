"""Running one task of the build in a forked child, so the machine's second core works while this one does too.

A forked child sees the parent's memory (records, resolver tables, the graph) without copying or pickling it. The
child never returns into the caller's code: it runs its task and exits, and its exit code says whether the task
finished, so the parent can do the task itself when it did not. Where fork is missing, unwanted
(`SKILLBOX_NO_FORK`) or unsafe (other threads running), nothing is forked and the caller does the work in process.
"""

from __future__ import annotations

import os


def computed_beside(task, meanwhile):
    """`task()`, computed in a forked child while this process runs `meanwhile()`; `task()` must return what
    marshal can carry (plain tuples, lists, dicts, strings, numbers).

    For two pieces of serial work that need each other only afterwards (a cold build's walk and the imports its
    later stages need): on two cores the shorter one costs no wall time. The child hands its result back through
    an unlinked temporary file. Where nothing can be forked, or the child fails, both run here, `task()` last."""
    import contextlib
    import marshal
    import tempfile

    with contextlib.ExitStack() as stack:
        try:
            handback = stack.enter_context(tempfile.TemporaryFile())
        except OSError:  # no writable temporary folder
            handback = None

        def child() -> None:
            marshal.dump(task(), handback)
            handback.flush()

        pid = fork_task(child) if handback is not None else None
        if pid is not None:
            try:
                meanwhile()
            except BaseException:
                stopped(pid)
                raise
            if joined(pid):
                handback.seek(0)
                with contextlib.suppress(EOFError, ValueError, TypeError):  # truncated: computed again below
                    return marshal.load(handback)
            return task()
    meanwhile()
    return task()


def fork_task(task) -> int | None:
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
    try:  # the child: do the task and exit, never return into the caller's code
        task()
        os._exit(0)
    except BaseException:
        os._exit(1)  # the parent sees the exit code and does the task itself


def joined(pid: int) -> bool:
    """Wait for a child; True when it finished its task."""
    try:
        _pid, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return False
    return os.waitstatus_to_exitcode(status) == 0


def stopped(pid: int) -> None:
    """End a child whose result will not be read, and wait for it (no zombie left behind)."""
    import contextlib
    import signal

    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
    joined(pid)
