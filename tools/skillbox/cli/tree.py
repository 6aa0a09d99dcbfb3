"""The click tree as the `CommandTree` that `skillbox.skills.clitree` walks (the skills library knows no click).

Lazy groups are loaded only as far as a checked command line reaches into them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import click

from skillbox.skills.clitree import CommandTree, OptionSpec, check_command_line
from skillbox.skills.rules import Finding


class ClickTree:
    """One click command or group (with the context click needs to resolve its subcommands)."""

    def __init__(self, command: click.Command, ctx: click.Context):
        self.command, self.ctx = command, ctx
        self.is_group = isinstance(command, click.Group)
        self.default_command = getattr(command, "default_command", None)
        self.help_names = tuple(ctx.help_option_names)

    @classmethod
    def of(cls, root: click.Command, program: str = "skillbox") -> ClickTree:
        return cls(root, click.Context(root, info_name=program, **root.context_settings))

    def options(self) -> dict[str, OptionSpec]:
        names: dict[str, OptionSpec] = {}
        for param in self.command.get_params(self.ctx):
            if isinstance(param, click.Option):
                choices = tuple(map(str, param.type.choices)) if isinstance(param.type, click.Choice) else None
                spec = OptionSpec(param.opts[0], not param.is_flag and not param.count, choices)
                for name in (*param.opts, *param.secondary_opts):
                    names[name] = spec
        return names

    def subcommand(self, name: str) -> ClickTree | None:
        if not self.is_group:
            return None
        sub = self.command.get_command(self.ctx, name)
        return None if sub is None else ClickTree(sub, click.Context(sub, info_name=name, parent=self.ctx))

    def subcommand_names(self) -> list[str]:
        return list(self.command.list_commands(self.ctx)) if self.is_group else []


def cli_tree(root: click.Command | None = None) -> CommandTree:
    """skillbox's own command tree (or `root`'s)."""
    if root is None:
        from skillbox.cli.root import cli as root
    return ClickTree.of(root)


def command_checker(root: click.Command | None = None):
    """The checker `validate_path`, `run_doctor` and the tour take: argv -> findings against the click tree."""
    return partial(check_command_line, root=cli_tree(root))


def check_cli_command(argv: Sequence[str], root: click.Command | None = None) -> list[Finding]:
    """One command line checked against skillbox's click tree (or `root`)."""
    return check_command_line(argv, cli_tree(root))
