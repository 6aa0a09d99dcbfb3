"""Running one task of the build in a forked child, so the machine's second core works while this one does too.

A forked child sees the parent's memory (records, resolver tables, the graph) without copying or pickling it. The
child never returns into the caller's code: it runs its task and exits, and its exit code says whether the task
finished, so the parent can do the task itself when it did not. Where fork is missing, unwanted
(`SKILLBOX_NO_FORK`) or unsafe (other threads running), nothing is forked and the caller does the work in process.
"""

from __future__ import annotations

import os


def computed_beside(task, meanwhile):
    """`task()`, computed in a forked child while this process runs the steps of `meanwhile` (callables) until
    the child is done; `task()` must return what marshal can carry (plain tuples, lists, dicts, strings, numbers).
    Steps left when the child finishes are not run: the caller does them later, where they fit.

    For two pieces of serial work that need each other only afterwards (a cold build's walk and the imports its
    later stages need): on two cores the shorter one costs no wall time. The child hands its result back through
    an unlinked temporary file. Where nothing can be forked, or the child fails, `task()` runs here (and none of
    the steps: they are left to the caller)."""
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
            code = None
            try:
                for step in meanwhile:
                    step()
                    code = _exit_code_if_done(pid)
                    if code is not None:
                        break
            except BaseException:
                stopped(pid)
                raise
            if (code if code is not None else _exit_code(pid)) == 0:
                handback.seek(0)
                with contextlib.suppress(EOFError, ValueError, TypeError):  # truncated: computed again below
                    return marshal.load(handback)
    return task()


def _exit_code_if_done(pid: int) -> int | None:
    """The child's exit code once it has exited (it is then reaped), else None; -1 when it cannot be waited for."""
    try:
        done, status = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return -1
    return os.waitstatus_to_exitcode(status) if done else None


def _exit_code(pid: int) -> int:
    """Wait for the child; its exit code (-1 when it cannot be waited for)."""
    try:
        _pid, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return -1
    return os.waitstatus_to_exitcode(status)


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
    return _exit_code(pid) == 0


def stopped(pid: int) -> None:
    """End a child whose result will not be read, and wait for it (no zombie left behind)."""
    import contextlib
    import signal

    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
    joined(pid)
