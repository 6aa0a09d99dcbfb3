"""The CLI reference section of README.md, rendered from the click tree (lazy groups loaded): every command, its
arguments and options, one line each. It lives under cli/ because it reads click; `skillbox.docs` (the library
that syncs README's generated sections) takes the rendered text."""

from __future__ import annotations

from collections.abc import Iterator

import click

from skillbox.docs import first_paragraph


def _param_usage(param: click.Parameter) -> str | None:
    if isinstance(param, click.Argument):
        word = param.name.upper()
        if param.nargs == -1:
            word += " ..."
        return word if param.required else f"[{word}]"
    if not isinstance(param, click.Option) or param.hidden:
        return None
    name = max(param.opts, key=len)
    if param.is_flag or param.count:
        word = name
    else:
        metavar = param.metavar
        if metavar is None and isinstance(param.type, click.Choice):
            metavar = "|".join(map(str, param.type.choices))
        word = f"{name} {metavar or param.name.upper()}"
        if param.multiple:
            word += " ..."
    return word if param.required else f"[{word}]"


def iter_commands(command: click.Command, path: tuple[str, ...], parent: click.Context | None = None) -> Iterator:
    """(path, command, context) for a command and everything under it, in list order; hidden ones skipped."""
    ctx = click.Context(
        command, info_name=path[-1], parent=parent, **(command.context_settings if parent is None else {})
    )
    yield path, command, ctx
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                yield from iter_commands(sub, (*path, name), ctx)


def usage_line(path: tuple[str, ...], command: click.Command, ctx: click.Context) -> str:
    words = [" ".join(path)]
    help_names = set(ctx.help_option_names)
    for param in command.get_params(ctx):
        if isinstance(param, click.Option) and set(param.opts) & help_names:
            continue
        word = _param_usage(param)
        if word:
            words.append(word)
    if isinstance(command, click.Group):
        words.append("COMMAND ...")
    return " ".join(words)


def render_cli_reference(root: click.Group | None = None) -> str:
    if root is None:
        from skillbox.cli.root import cli as root
    lines = []
    for path, command, ctx in iter_commands(root, ("skillbox",)):
        summary = first_paragraph(command.help)
        lines.append(
            f"- `{usage_line(path, command, ctx)}` — {summary}" if summary else f"- `{usage_line(path, command, ctx)}`"
        )
    return "\n".join(lines)
