"""Command-line layer: click only, no domain logic.

`main` is the console-script entry point. It lives here, apart from the click tree in `root.py`, so that a hot
path (a hook process run once per tool call) can be dispatched before click and the subcommand modules are
imported at all; see `FAST_PATHS`.
"""

from __future__ import annotations

import sys

# argv prefix -> "module:function(argv_rest) -> int | None". Checked before click is imported; a function that
# returns None leaves the arguments to click (help text, unusual forms, error reporting).
FAST_PATHS: dict[tuple[str, ...], str] = {
    ("mem", "hook"): "skillbox.mem.hook:main",
    ("mem", "search"): "skillbox.cli.mem_search_fast:main",
    ("graph", "build"): "skillbox.cli.graph_build_fast:main",
    ("lint",): "skillbox.cli.lint_fast:main",
}


def main(argv: list[str] | None = None) -> None:
    """Run the CLI on `argv` (default: the process's arguments), leaving the process to the caller: tests call
    it in-process; a process's entry points (console script, `-m`, the launcher) call `run`."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        _dispatch(args)
    except FileNotFoundError:
        if _working_folder_exists():
            raise
        # The shell's folder was deleted under it (a removed worktree, a cleaned tmp dir): every relative path
        # is meaningless, so say so in one line instead of a traceback from deep inside os.path.
        sys.stderr.write("Error: the current folder no longer exists (cd to an existing folder and run again)\n")
        sys.exit(1)


def run() -> None:
    """Run the CLI as the whole of a process (the `skillbox` console script, `python -m skillbox`, the launcher's
    `fast_start.py`).

    A command whose click-free twin printed everything and holds nothing to close
    (`fast_path.nothing_left_to_finalize`) ends here without the interpreter's shutdown (`fast_path.end_process`);
    anything else (atexit handlers, other exit values) exits as usual. `fast_path` is looked up, not imported: a
    command that never loaded it has nothing to end early."""
    try:
        main()
    except SystemExit as stop:
        fast_path = sys.modules.get("skillbox.cli.fast_path")
        if fast_path is not None:
            fast_path.end_process(stop)
        raise


def _working_folder_exists() -> bool:
    import os

    try:
        os.getcwd()
    except FileNotFoundError:
        return False
    return True


def _import_paused(module_name: str, function: str):
    """Import a twin's module with the cyclic garbage collector paused, then freeze what it made and resume.

    A twin's imports (its option table, `collections`, `os.path`, ...) allocate long-lived objects and no
    garbage, yet cross the collector's thresholds about three times in a per-project lint (~0.8 M of its ~98 M
    instructions); the frozen objects are skipped by every later collection. `__import__`, not
    `importlib.import_module`: the importlib package imports `warnings` (~1.5 M instructions of every hook or
    lint process); with a fromlist it returns the module itself. Only for a module's first import in a process
    (in-process callers such as tests call `main` many times)."""
    if module_name in sys.modules:
        return __import__(module_name, fromlist=(function,))
    import gc

    enabled = gc.isenabled()
    gc.disable()
    try:
        return __import__(module_name, fromlist=(function,))
    finally:
        if enabled:
            gc.freeze()
            gc.enable()


def _dispatch(args: list[str]) -> None:
    for prefix, target in FAST_PATHS.items():
        if tuple(args[: len(prefix)]) == prefix:
            module_name, function = target.split(":")
            module = _import_paused(module_name, function)
            code = getattr(module, function)(args[len(prefix) :])
            if code is not None:
                sys.exit(code)
            break

    from skillbox.cli.root import cli

    try:
        cli.main(args=args, prog_name="skillbox")
    except BrokenPipeError:
        # `skillbox ... | head` closed the pipe: not an error worth a traceback.
        sys.stderr.close()
        sys.exit(1)
