"""The root `skillbox` click group.

Subcommands are loaded lazily from `COMMANDS`: a hook process runs `skillbox mem hook ...` once per tool call, so
the root must not import graph, lint or tree-sitter code it will not use. `skillbox --version` imports nothing
beyond click.

Errors: library code raises `SkillboxError`; the root group turns it into `Error: <one line>` on stderr with the
error's exit code (1 by default). Click's own usage errors exit 2. `--debug` or `SKILLBOX_DEBUG=1` re-raises
instead, so the traceback is visible.
"""

from __future__ import annotations

import importlib
import os

import click

from skillbox import __version__
from skillbox.errors import SkillboxError, error_line

# name -> "module:attribute". Add a line here to add a command group; nothing is imported until it is used.
COMMANDS: dict[str, str] = {
    "doctor": "skillbox.cli.doctor:doctor",
    "graph": "skillbox.cli.graph:graph",
    "lint": "skillbox.cli.lint:lint",
    "mem": "skillbox.cli.mem:mem",
    "skills": "skillbox.cli.skills:skills",
    "tour": "skillbox.cli.tour:tour",
}


def debug_enabled(ctx: click.Context | None = None) -> bool:
    if os.environ.get("SKILLBOX_DEBUG", "").strip() not in ("", "0", "false", "no"):
        return True
    root = ctx.find_root() if ctx is not None else None
    return bool(root is not None and root.meta.get("skillbox.debug"))


class SkillboxClickError(click.ClickException):
    """A `SkillboxError` dressed for click: printed as `Error: <one line>`, exit code kept."""

    def __init__(self, err: SkillboxError):
        super().__init__(err.one_line())
        self.exit_code = err.exit_code
        self.error = err

    def show(self, file=None) -> None:
        click.echo(error_line(self.error), file=file, err=True, color=self.show_color)


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use.

    The root instance is also the single place where `SkillboxError` becomes a one-line message: every subcommand
    runs inside the root's `invoke`, so errors from any depth pass through it.
    """

    def __init__(self, *args, lazy_commands: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy_commands = dict(lazy_commands or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | self.lazy_commands.keys())

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None or cmd_name not in self.lazy_commands:
            return command
        module_name, attribute = self.lazy_commands[cmd_name].split(":")
        command = getattr(importlib.import_module(module_name), attribute)
        self.add_command(command, cmd_name)
        return command

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except SkillboxError as err:
            if debug_enabled(ctx):
                raise
            raise SkillboxClickError(err) from None


def _set_debug(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
    if value:
        ctx.meta["skillbox.debug"] = True
    return value


@click.group(
    cls=LazyGroup,
    lazy_commands=COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, "-V", "--version", prog_name="skillbox", message="%(prog)s %(version)s")
@click.option(
    "--debug",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_set_debug,
    help="Show full tracebacks instead of one-line errors (same as SKILLBOX_DEBUG=1).",
)
def cli() -> None:
    """skillbox: code knowledge graphs, persistent memory and a HyperFrames linter for Claude Code.

    Start with `skillbox tour` to see every helper run on built-in samples.
    """
