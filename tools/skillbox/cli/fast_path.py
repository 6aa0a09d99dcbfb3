"""What the click-free twins of hot commands (`FAST_PATHS` in `cli/__init__.py`) share: printing the way
`click.echo` and the root group's error handling do. Reading their arguments is `option_table`'s.
"""

from __future__ import annotations

import os
import sys

_ANSI = None  # compiled on first use: click strips ANSI styles when stdout is not a terminal, so must we
# Set by a twin that has written all it will and holds nothing the interpreter's shutdown must close: see
# `nothing_left_to_finalize`.
finished = False
_held: tuple = ()  # what `nothing_left_to_finalize` was given: alive until the process ends


def debugging() -> bool:
    """`SKILLBOX_DEBUG` asks for click's tracebacks: twins then step aside."""
    return os.environ.get("SKILLBOX_DEBUG", "").strip() not in ("", "0", "false", "no")


def failed(err) -> int:
    """A `SkillboxError` as the root group reports it: `Error: <one line>` on stderr, its exit code."""
    from skillbox.errors import error_line

    sys.stderr.write(error_line(err) + "\n")
    return err.exit_code


def terminal_text(text: str) -> str:
    """`text` as `click.echo` would write it to stdout: ANSI styles stripped unless stdout is a terminal."""
    global _ANSI
    if sys.stdout.isatty() or "\033" not in text:  # nothing to strip: no pattern compiled
        return text
    if _ANSI is None:
        import re

        _ANSI = re.compile(r"\033\[[;?0-9]*[a-zA-Z]")
    return _ANSI.sub("", text)


def nothing_left_to_finalize(*held) -> None:
    """Say that this process has printed everything and holds nothing that needs the interpreter's shutdown (no
    file open for writing, no child process, no database connection). The launcher's start script
    (skillbox/fast_start.py) and `python -m skillbox` may then end the process with `os._exit` once stdout and
    stderr are flushed (`end_process`): finalizing the interpreter (tearing down every module and object, a last
    garbage collection) is ~3.7 M instructions, 3.5% of a per-project `skillbox lint` process, ~0.1 s after a
    Django-size graph build, and changes nothing a user sees.

    `held`: values the command would otherwise free on its way out (a graph build's records, tables and graph:
    ~0.15 s on Django); kept here so that ending the process is what releases them. Replaces what an earlier
    call held."""
    global finished, _held
    finished = True
    _held = held


def end_process(stop: SystemExit) -> None:
    """End the process now, skipping the interpreter's shutdown, when the command said it may
    (`nothing_left_to_finalize`), no atexit handler waits and the exit value is a plain code; otherwise return
    and let the caller re-raise `stop` (a failed flush also returns)."""
    import atexit

    code = stop.code
    if not finished or atexit._ncallbacks() or type(code) not in (int, type(None)):
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        return
    os._exit(code or 0)


def echo(text: str, *, ready: bool = False) -> int:
    """Print like `click.echo` (styles stripped off a terminal); 1 when the reader closed the pipe. `ready`: the
    text already went through `terminal_text` (a cached lint result), so no pattern needs compiling."""
    try:
        if not ready:
            text = terminal_text(text)
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        # `skillbox ... | head` closed the pipe: exit like the click path does, without a traceback.
        sys.stderr.close()
        return 1
    return 0
