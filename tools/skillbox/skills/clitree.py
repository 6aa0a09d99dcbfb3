"""Check a `skillbox ...` command line against the real command tree, without running anything.

Skills and slash commands tell the agent which commands to run; a renamed flag silently breaks them. Walking the
command tree resolves each word of the line to a group, command, option or value, so a typo is found at
validation time rather than by the agent at run time. Positional arguments are not counted: prose examples often
elide or template them.

This module knows no CLI framework: the tree comes in as a `CommandTree` (the CLI passes its click tree wrapped
by `skillbox.cli.tree`, which loads lazy groups as the walk reaches them).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple, Protocol

from skillbox.skills.rules import Finding

_PLACEHOLDER = re.compile(r"^(<.*>?|\$.*|.*\.\.\.|[A-Z][A-Z0-9_-]*|\{.*\}?)$")


class OptionSpec(NamedTuple):
    """What the check needs of one option: its first name (for messages), whether it takes a value, choices."""

    name: str
    takes_value: bool
    choices: tuple[str, ...] | None = None


class CommandTree(Protocol):
    """One command or group of a CLI, as the check walks it."""

    is_group: bool
    default_command: str | None  # a group's command for arguments that name no command (`skillbox lint PATH`)
    help_names: tuple[str, ...]

    def options(self) -> dict[str, OptionSpec]:
        """Every spelling of every option (`--json`, `-j`, `--no-color`) -> its spec."""
        ...

    def subcommand(self, name: str) -> CommandTree | None: ...

    def subcommand_names(self) -> list[str]: ...


def is_placeholder(token: str) -> bool:
    """Usage words that stand for a value: `<name>`, `$ARGUMENTS`, `$0`, `QUESTION`, `ID...`, `{x}`."""
    return bool(_PLACEHOLDER.match(token))


def _check_choice(spec: OptionSpec, value: str, where: str) -> list[Finding]:
    if spec.choices is None or is_placeholder(value):
        return []
    bad = [part for part in value.split("|") if part and part not in spec.choices]
    if not bad:
        return []
    allowed = ", ".join(spec.choices)
    return [("command_bad_choice", f"`{where} {spec.name}` does not accept '{bad[0]}' (choices: {allowed})")]


def check_command_line(argv: Sequence[str], root: CommandTree, program: str = "skillbox") -> list[Finding]:
    """Findings for one command line (`argv` without the program name); empty when it resolves."""
    command = root
    path = [program]
    tokens = list(argv)
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        where = " ".join(path)
        if token == "--":
            break
        if token.startswith("-") and len(token) > 1 and not re.fullmatch(r"-\d+(\.\d+)?", token):
            name, has_inline_value, inline_value = token.partition("=")
            if name in command.help_names:
                break
            spec = command.options().get(name)
            if spec is None:
                return [("command_unknown_option", f"`{where}` has no option {name}")]
            if spec.takes_value:
                if has_inline_value:
                    value = inline_value
                elif index < len(tokens):
                    value = tokens[index]
                    index += 1
                else:
                    continue
                found = _check_choice(spec, value, where)
                if found:
                    return found
            continue
        if command.is_group:
            if is_placeholder(token):
                break
            sub = command.subcommand(token)
            default = command.default_command
            if sub is None and default is not None:
                # a group that routes non-command arguments to a default command (`skillbox lint PATH ...`)
                sub, token, index = command.subcommand(default), default, index - 1
            if sub is None:
                known = ", ".join(command.subcommand_names()) or "none yet"
                return [("command_unknown", f"`{where}` has no command '{token}' (commands: {known})")]
            command = sub
            path.append(token)
    return []
