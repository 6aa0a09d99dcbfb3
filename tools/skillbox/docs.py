"""Keep README.md's reference sections generated from the code: `python -m skillbox.docs --write` (or `--check`).

Two sections are rendered between marker comments, so hand-written prose around them stays untouched:
- `cli-reference`: every command of the click tree (lazy groups loaded), its arguments and options, one line each;
- `skills-table`: every skill (`skills/*/SKILL.md`) and slash command (`commands/*.md`) with one line from its
  description, read from the frontmatter;
- `platforms-table`: the agents `skillbox install --platform` supports, from the installer's own platform table
  (`skillbox.install.platforms`), with where each puts skills, MCP servers and hooks and what it lacks.
A test fails when README.md is stale, so a renamed flag or a new skill cannot ship with outdated docs. This module
is a library: it imports no click and prints nothing. The CLI reference is rendered from the click tree by
`skillbox.cli.reference` and handed in as text; the command line around it is `skillbox.cli.readme_sync`.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import NamedTuple

from skillbox.errors import InvalidInputError

SECTIONS = ("cli-reference", "skills-table", "platforms-table")
REGENERATE = "python -m skillbox.docs --write"


def _begin(name: str) -> str:
    return f"<!-- BEGIN GENERATED {name}: `{REGENERATE}` rewrites this section; do not edit by hand -->"


def _end(name: str) -> str:
    return f"<!-- END GENERATED {name} -->"


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split())


def first_paragraph(text: str | None) -> str:
    paragraph = _one_line(re.split(r"\n\s*\n", (text or "").strip(), maxsplit=1)[0])
    return paragraph.replace("|", "\\|")


def _summary(text: str | None) -> str:
    """A skill's description is its trigger text, often several clauses long; the table wants what it does in one
    short line: the part before the first colon, semicolon or sentence end."""
    paragraph = first_paragraph(text)
    head = re.split(r":\s|;\s|\.\s+(?=[A-Z])", paragraph, maxsplit=1)[0].rstrip(".")
    return head + "."


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
        rows.append(f"| command | `{invocation}` | {first_paragraph(data.get('description'))} |")
    if not rows:
        return "No skills or slash commands yet."
    return "\n".join(["| Kind | Name | What it does |", "| --- | --- | --- |", *rows])


def _where(location) -> str:
    """`~/user/path` / `project/path` for a platform location; "—" where the agent has none at that scope."""
    user = f"`~/{location.user}`" if location.user else "—"
    project = f"`{location.project}`" if location.project else "—"
    if location.env and location.user:
        user += f" (or under `${location.env}`)"
    return f"{user} / {project}"


def render_platforms_table() -> str:
    from skillbox.install.platforms import PLATFORMS

    rows = ["| Agent | `--platform` | Skills (user / project) | MCP servers (user / project) | Memory hooks |",
            "| --- | --- | --- | --- | --- |"]  # fmt: skip
    notes = []
    for platform in PLATFORMS.values():
        mcp = _where(platform.mcp.file) if platform.mcp else "—"
        if platform.hooks:
            events = ", ".join(platform.hooks.events.values())
            hooks = f"{events} in {_where(platform.hooks.file)}"
        else:
            hooks = "none (see below)"
        rows.append(f"| {platform.label} | `{platform.name}` | {_where(platform.skills)} | {mcp} | {hooks} |")
        notes += [f"- {platform.label}: {gap}" for gap in platform.gaps]
    return "\n".join([*rows, "", *notes])


def render_section(name: str, plugin_root: Path, cli_reference: str | None = None) -> str | None:
    """A section's text; None for the CLI reference when none was handed in (the section is then kept as is)."""
    if name == "cli-reference":
        return cli_reference
    if name == "skills-table":
        return render_skills_table(plugin_root)
    if name == "platforms-table":
        return render_platforms_table()
    raise ValueError(name)


def sync_text(readme: str, plugin_root: Path, cli_reference: str | None = None) -> str:
    """README text with every generated section re-rendered; raises if a section's markers are missing.

    `cli_reference`: the rendered CLI reference (`skillbox.cli.reference.render_cli_reference()`); without it that
    section keeps its current text and only the other sections are compared."""
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
        text = render_section(name, plugin_root, cli_reference)
        if text is None:
            continue
        block = f"{_begin(name)}\n{text}\n{_end(name)}"
        readme = pattern.sub(lambda _match, block=block: block, readme, count=1)
    return readme


class ReadmeSync(NamedTuple):
    """What `sync_readme` found: the README, and whether it was (or, when checking, would be) rewritten."""

    readme: Path
    stale: bool
    written: bool


def sync_readme(plugin_root: Path, write: bool, cli_reference: str | None = None) -> ReadmeSync:
    """Compare README.md's generated sections with the code; with `write`, rewrite them (atomically) if stale.
    Raises OSError or InvalidInputError when README.md cannot be read or has no generated sections."""
    readme = plugin_root / "README.md"
    current = readme.read_text(encoding="utf-8")
    wanted = sync_text(current, plugin_root, cli_reference)
    stale = current != wanted
    if stale and write:
        from skillbox.atomic import atomic_write

        atomic_write(readme, wanted)
    return ReadmeSync(readme, stale, stale and write)


if __name__ == "__main__":  # `python -m skillbox.docs`, the command README's markers name; run as a script only
    from skillbox.cli.readme_sync import main

    sys.exit(main())
