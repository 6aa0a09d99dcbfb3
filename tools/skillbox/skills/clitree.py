"""Check a `skillbox ...` command line against the real click tree, without running anything.

Skills and slash commands tell the agent which commands to run; a renamed flag silently breaks them. Walking the
click tree (loading lazy groups as needed) resolves each word of the line to a group, command, option or value,
so a typo is found at validation time rather than by the agent at run time. Positional arguments are not
counted: prose examples often elide or template them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import click

from skillbox.skills.rules import Finding

_PLACEHOLDER = re.compile(r"^(<.*>?|\$.*|.*\.\.\.|[A-Z][A-Z0-9_-]*|\{.*\}?)$")


def is_placeholder(token: str) -> bool:
    """Usage words that stand for a value: `<name>`, `$ARGUMENTS`, `$0`, `QUESTION`, `ID...`, `{x}`."""
    return bool(_PLACEHOLDER.match(token))


def root_command() -> click.Group:
    from skillbox.cli.root import cli

    return cli


def _option_names(command: click.Command, ctx: click.Context) -> dict[str, click.Parameter]:
    names: dict[str, click.Parameter] = {}
    for param in command.get_params(ctx):
        if isinstance(param, click.Option):
            for name in (*param.opts, *param.secondary_opts):
                names[name] = param
    return names


def _takes_value(param: click.Parameter) -> bool:
    return isinstance(param, click.Option) and not param.is_flag and not param.count


def _check_choice(param: click.Parameter, value: str, where: str) -> list[Finding]:
    if not isinstance(param.type, click.Choice) or is_placeholder(value):
        return []
    bad = [part for part in value.split("|") if part and part not in param.type.choices]
    if not bad:
        return []
    allowed = ", ".join(map(str, param.type.choices))
    return [("command_bad_choice", f"`{where} {param.opts[0]}` does not accept '{bad[0]}' (choices: {allowed})")]


def check_command_line(
    argv: Sequence[str], root: click.Group | None = None, program: str = "skillbox"
) -> list[Finding]:
    """Findings for one command line (`argv` without the program name); empty when it resolves."""
    command: click.Command = root if root is not None else root_command()
    ctx = click.Context(command, info_name=program, **command.context_settings)
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
            if name in ctx.help_option_names:
                break
            params = _option_names(command, ctx)
            param = params.get(name)
            if param is None:
                return [("command_unknown_option", f"`{where}` has no option {name}")]
            if _takes_value(param):
                if has_inline_value:
                    value = inline_value
                elif index < len(tokens):
                    value = tokens[index]
                    index += 1
                else:
                    continue
                found = _check_choice(param, value, where)
                if found:
                    return found
            continue
        if isinstance(command, click.Group):
            if is_placeholder(token):
                break
            sub = command.get_command(ctx, token)
            default = getattr(command, "default_command", None)
            if sub is None and default is not None:
                # a group that routes non-command arguments to a default command (`skillbox lint PATH ...`)
                sub, token, index = command.get_command(ctx, default), default, index - 1
            if sub is None:
                known = ", ".join(command.list_commands(ctx)) or "none yet"
                return [("command_unknown", f"`{where}` has no command '{token}' (commands: {known})")]
            command = sub
            ctx = click.Context(sub, info_name=token, parent=ctx)
            path.append(token)
    return []
