"""What the click-free twins of hot commands (`FAST_PATHS` in `cli/__init__.py`) share: reading plain arguments
the way click would, and printing the way `click.echo` and the root group's error handling do.

A twin handles only the plain forms of its command. Anything else makes these helpers return None, and the
twin hands the arguments to click, which parses them and reports errors as usual.
"""

from __future__ import annotations

import os
import sys

_ANSI = None  # compiled on first use: click strips ANSI styles when stdout is not a terminal, so must we


def debugging() -> bool:
    """`SKILLBOX_DEBUG` asks for click's tracebacks: twins then step aside."""
    return os.environ.get("SKILLBOX_DEBUG", "").strip() not in ("", "0", "false", "no")


def scan(args: list[str], value_options: dict, flag_options: dict) -> tuple[list[str], list[tuple]] | None:
    """(positional arguments, [(option, value)] in order; True for a flag), or None for anything click should
    read itself: help, an unknown option, "-" or "--", a flag given a value, an option missing its value."""
    positionals: list[str] = []
    pairs: list[tuple] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if not arg.startswith("-"):
            positionals.append(arg)
            continue
        name, has_value, value = arg.partition("=")
        if name in flag_options and not has_value:
            pairs.append((name, True))
            continue
        if name not in value_options:
            return None
        if not has_value:
            if i >= len(args) or args[i].startswith("-"):
                return None
            value = args[i]
            i += 1
        pairs.append((name, value))
    return positionals, pairs


def failed(err) -> int:
    """A `SkillboxError` as the root group reports it: `Error: <one line>` on stderr, its exit code."""
    from skillbox.errors import error_line

    sys.stderr.write(error_line(err) + "\n")
    return err.exit_code


def echo(text: str) -> int:
    """Print like `click.echo` (styles stripped off a terminal); 1 when the reader closed the pipe."""
    global _ANSI
    try:
        if not sys.stdout.isatty():
            if _ANSI is None:
                import re

                _ANSI = re.compile(r"\033\[[;?0-9]*[a-zA-Z]")
            text = _ANSI.sub("", text)
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        # `skillbox ... | head` closed the pipe: exit like the click path does, without a traceback.
        sys.stderr.close()
        return 1
    return 0
