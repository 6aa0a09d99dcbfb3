"""One option table per hot command, from which both its click command and its click-free twin are made.

A hot command (`mem search`, `graph build`) runs as a process per call, and importing click and the root group
costs 45-60 ms of it (measured under load, see bench/README.md). Its twin (`FAST_PATHS` in `cli/__init__.py`)
reads the plain forms of the same arguments without click. The table below is the one description of those
arguments: `click_params` turns it into the click decorators, `parse_plain` reads argv with it. `parse_plain`
accepts only what click would accept with the same meaning; anything else (help, an unknown option, a value out
of range, `--`) returns None and the arguments go to click, which reports errors its usual way. So errors, exit
codes and help text come from click alone, and `run_twin` matches click on Ctrl-C and a closed pipe.

Integers carry bounds: a value click would refuse is refused by the twin too (by handing it to click), and no
out-of-range number reaches SQLite (`--limit 99999999999999999999` used to end in an OverflowError traceback).
This module imports no click at the top: the twins import it.
"""

from __future__ import annotations

import os
import sys

if False:  # annotations only: collections.abc at run time would cost the twins its import
    from collections.abc import Callable


# Plain classes, not NamedTuple or dataclass: importing `typing` alone would cost the twins ~3 ms.
class Argument:
    """A positional argument: `many` collects every positional as a tuple (click nargs=-1); `path` is a
    click.Path of any kind that need not exist."""

    __slots__ = ("default", "dest", "many", "path")

    def __init__(self, dest: str, *, many: bool = False, default: str | None = None, path: bool = False):
        self.dest, self.many, self.default, self.path = dest, many, default, path


class Option:
    """An option with one spelling (`flag`, e.g. "--limit"). `kind`: "text", "int" (bounded by `min`/`max`),
    "flag", "folder" (click.Path(file_okay=False): must not be an existing file) or "choice" (one of `choices`)."""

    __slots__ = (
        "choices",
        "default",
        "dest",
        "flag",
        "help",
        "kind",
        "max",
        "metavar",
        "min",
        "multiple",
        "show_default",
    )

    def __init__(
        self,
        flag: str,
        dest: str,
        help: str,
        *,
        kind: str = "text",
        multiple: bool = False,
        default: object = None,
        show_default: bool = False,
        metavar: str | None = None,
        min: int | None = None,
        max: int | None = None,
        choices: tuple[str, ...] = (),
    ):
        self.flag, self.dest, self.help, self.kind, self.multiple = flag, dest, help, kind, multiple
        self.choices = choices
        self.default, self.show_default, self.metavar, self.min, self.max = default, show_default, metavar, min, max


class OptionTable:
    """A hot command's arguments and options, in the order click shows them."""

    __slots__ = ("arguments", "options")

    def __init__(self, arguments: tuple[Argument, ...], options: tuple[Option, ...]):
        self.arguments, self.options = arguments, options

    def defaults(self) -> dict:
        """The parameters click passes when nothing is given."""
        params: dict = {}
        for arg in self.arguments:
            params[arg.dest] = () if arg.many else arg.default
        for opt in self.options:
            params[opt.dest] = () if opt.multiple else (False if opt.kind == "flag" else opt.default)
        return params


def parse_plain(table: OptionTable, args: list[str]) -> dict | None:
    """The parameters click would pass for `args`, or None when click should read them itself."""
    by_flag = {opt.flag: opt for opt in table.options}
    params = table.defaults()
    collected: dict[str, list] = {opt.dest: [] for opt in table.options if opt.multiple}
    positionals: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if not arg.startswith("-"):
            positionals.append(arg)
            continue
        name, has_value, value = arg.partition("=")
        opt = by_flag.get(name)
        if opt is None:
            return None  # help, short options, "-", "--", an unknown option
        if opt.kind == "flag":
            if has_value:
                return None
            params[opt.dest] = True
            continue
        if not has_value:
            if i >= len(args) or args[i].startswith("-"):
                return None
            value = args[i]
            i += 1
        converted = _convert(opt, value)
        if converted is None:
            return None
        if opt.multiple:
            collected[opt.dest].append(converted)
        else:
            params[opt.dest] = converted
    for dest, values in collected.items():
        params[dest] = tuple(values)
    return params if _place_positionals(table, positionals, params) else None


def _convert(opt: Option, value: str):
    if opt.kind == "int":
        if not (value.isascii() and value.isdigit()):
            return None  # signs, spaces, underscores: click's int() decides
        number = int(value)
        low = opt.min if opt.min is not None else -(2**63)
        high = opt.max if opt.max is not None else 2**63 - 1
        return number if low <= number <= high else None
    if opt.kind == "folder" and (not value or os.path.isfile(value)):
        return None  # click explains that it must be a folder
    if opt.kind == "choice" and value not in opt.choices:
        return None  # click lists the choices
    return value


def _place_positionals(table: OptionTable, positionals: list[str], params: dict) -> bool:
    rest = list(positionals)
    for arg in table.arguments:
        if arg.many:
            params[arg.dest], rest = tuple(rest), []
        elif rest:
            value = rest.pop(0)
            if arg.path and not value:
                return False
            params[arg.dest] = value
    return not rest


def click_params(table: OptionTable) -> Callable:
    """A decorator adding the table's arguments and options to a click command, in table order."""
    import click

    def apply(fn: Callable) -> Callable:
        for opt in reversed(table.options):
            fn = click.option(opt.flag, opt.dest, **_click_option_kwargs(click, opt))(fn)
        for arg in reversed(table.arguments):
            kwargs: dict = {"nargs": -1} if arg.many else {"default": arg.default}
            if arg.path:
                kwargs["type"] = click.Path(file_okay=True, dir_okay=True, path_type=str)
            fn = click.argument(arg.dest, **kwargs)(fn)
        return fn

    return apply


def _click_option_kwargs(click, opt: Option) -> dict:
    kwargs: dict = {"help": opt.help}
    if opt.kind == "flag":
        kwargs["is_flag"] = True
        return kwargs
    if opt.multiple:
        kwargs["multiple"] = True
    if opt.default is not None:
        kwargs["default"] = opt.default
    if opt.show_default:
        kwargs["show_default"] = True
    if opt.metavar:
        kwargs["metavar"] = opt.metavar
    if opt.kind == "int":
        kwargs["type"] = click.IntRange(min=opt.min, max=opt.max)
    elif opt.kind == "folder":
        kwargs["type"] = click.Path(file_okay=False, path_type=str)
    elif opt.kind == "choice":
        kwargs["type"] = click.Choice(opt.choices)
    return kwargs


def run_twin(run: Callable[[], str]) -> int:
    """Run a twin's command body and print its output the way click's standalone mode would: a SkillboxError
    as the root group's `Error: ...` line and its exit code; Ctrl-C as a blank line and `Aborted!`, exit 1; a
    reader that closed the pipe, exit 1 without a traceback."""
    from skillbox.cli.fast_path import echo, failed
    from skillbox.errors import SkillboxError

    try:
        text = run()
    except SkillboxError as err:
        return failed(err)
    except (KeyboardInterrupt, EOFError):
        sys.stderr.write("\nAborted!\n")
        sys.stderr.flush()
        return 1
    return echo(text)
