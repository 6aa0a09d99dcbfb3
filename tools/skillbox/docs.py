"""Keep README.md's reference sections generated from the code: `python -m skillbox.docs --write` (or `--check`).

Two sections are rendered between marker comments, so hand-written prose around them stays untouched:
- `cli-reference`: every command of the click tree (lazy groups loaded), its arguments and options, one line each;
- `skills-table`: every skill (`skills/*/SKILL.md`) and slash command (`commands/*.md`) with one line from its
  description, read from the frontmatter.
A test fails when README.md is stale, so a renamed flag or a new skill cannot ship with outdated docs. This module
reads the click tree, which is why it imports click although it is not a command itself; it prints nothing (the
command line around it is `skillbox.cli.readme_sync`).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import click

from skillbox.errors import InvalidInputError

SECTIONS = ("cli-reference", "skills-table")
REGENERATE = "python -m skillbox.docs --write"


def _begin(name: str) -> str:
    return f"<!-- BEGIN GENERATED {name}: `{REGENERATE}` rewrites this section; do not edit by hand -->"


def _end(name: str) -> str:
    return f"<!-- END GENERATED {name} -->"


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split())


def _first_paragraph(text: str | None) -> str:
    paragraph = _one_line(re.split(r"\n\s*\n", (text or "").strip(), maxsplit=1)[0])
    return paragraph.replace("|", "\\|")


def _summary(text: str | None) -> str:
    """A skill's description is its trigger text, often several clauses long; the table wants what it does in one
    short line: the part before the first colon, semicolon or sentence end."""
    paragraph = _first_paragraph(text)
    head = re.split(r":\s|;\s|\.\s+(?=[A-Z])", paragraph, maxsplit=1)[0].rstrip(".")
    return head + "."


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
        summary = _first_paragraph(command.help)
        lines.append(
            f"- `{usage_line(path, command, ctx)}` — {summary}" if summary else f"- `{usage_line(path, command, ctx)}`"
        )
    return "\n".join(lines)


def _frontmatter(path: Path) -> dict:
    from skillbox.skills.frontmatter import BOM, FrontmatterError, parse_document

    try:
        return parse_document(path.read_text(encoding="utf-8").removeprefix(BOM)).data
    except FrontmatterError as err:
        raise InvalidInputError(f"{path}: {err}", hint="run `skillbox skills validate`") from None


def render_skills_table(plugin_root: Path) -> str:
    try:
        plugin = json.loads((plugin_root / ".claude-plugin" / "plugin.json").read_text())["name"]
    except (OSError, ValueError, KeyError):
        plugin = "skillbox"
    rows = []
    for skill_md in sorted((plugin_root / "skills").glob("*/SKILL.md")):
        data = _frontmatter(skill_md)
        rows.append(f"| skill | `{data.get('name', skill_md.parent.name)}` | {_summary(data.get('description'))} |")
    for command_md in sorted((plugin_root / "commands").glob("*.md")):
        data = _frontmatter(command_md)
        hint = data.get("argument-hint")
        invocation = f"/{plugin}:{command_md.stem}" + (f" {hint}" if hint else "")
        rows.append(f"| command | `{invocation}` | {_first_paragraph(data.get('description'))} |")
    if not rows:
        return "No skills or slash commands yet."
    return "\n".join(["| Kind | Name | What it does |", "| --- | --- | --- |", *rows])


def render_section(name: str, plugin_root: Path) -> str:
    if name == "cli-reference":
        return render_cli_reference()
    if name == "skills-table":
        return render_skills_table(plugin_root)
    raise ValueError(name)


def sync_text(readme: str, plugin_root: Path) -> str:
    """README text with every generated section re-rendered; raises if a section's markers are missing."""
    for name in SECTIONS:
        pattern = re.compile(
            rf"^<!-- BEGIN GENERATED {re.escape(name)}\b[^\n]*-->\n.*?^{re.escape(_end(name))}$",
            re.DOTALL | re.MULTILINE,
        )
        if not pattern.search(readme):
            raise InvalidInputError(
                f"README.md has no generated '{name}' section",
                hint=f"add a line '{_begin(name)}' and a line '{_end(name)}'",
            )
        block = f"{_begin(name)}\n{render_section(name, plugin_root)}\n{_end(name)}"
        readme = pattern.sub(lambda _match, block=block: block, readme, count=1)
    return readme


class ReadmeSync(NamedTuple):
    """What `sync_readme` found: the README, and whether it was (or, when checking, would be) rewritten."""

    readme: Path
    stale: bool
    written: bool


def sync_readme(plugin_root: Path, write: bool) -> ReadmeSync:
    """Compare README.md's generated sections with the code; with `write`, rewrite them (atomically) if stale.
    Raises OSError or InvalidInputError when README.md cannot be read or has no generated sections."""
    readme = plugin_root / "README.md"
    current = readme.read_text(encoding="utf-8")
    wanted = sync_text(current, plugin_root)
    stale = current != wanted
    if stale and write:
        from skillbox.atomic import atomic_write

        atomic_write(readme, wanted)
    return ReadmeSync(readme, stale, stale and write)


if __name__ == "__main__":
    from skillbox.cli.readme_sync import main

    sys.exit(main())
