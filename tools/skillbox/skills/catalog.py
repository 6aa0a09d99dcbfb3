"""The README's table of skills and slash commands, generated from their frontmatter so it cannot drift.

Each row is the name and the lead clause of the description (up to its first ':', ';' or '.' outside
parentheses): the "what" part, short enough to scan; the "when" part stays in the description for the agent.
The table sits in README.md between `<!-- skills-table -->` and `<!-- /skills-table -->`; a test compares it
with `render_table()`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from skillbox.skills.triggers import read_frontmatter

BEGIN, END = "<!-- skills-table -->", "<!-- /skills-table -->"


@dataclass(frozen=True)
class Entry:
    kind: str  # "skill" | "command"
    name: str
    summary: str


def lead_clause(text: str) -> str:
    """`text` up to its first ':', ';' or '.' that ends a clause outside parentheses; whitespace collapsed."""
    text = " ".join(text.split())
    depth = 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if ch in ".:;" and depth == 0 and (i + 1 == len(text) or text[i + 1] == " "):
            return text[:i].rstrip()
    return text.rstrip(".")


def entries(root: Path) -> list[Entry]:
    """Every skill (skills/*/SKILL.md) and slash command (commands/*.md) under the plugin root, sorted."""
    found = []
    for skill_md in sorted((root / "skills").glob("*/SKILL.md")):
        meta = read_frontmatter(skill_md)
        found.append(Entry("skill", str(meta.get("name", skill_md.parent.name)), lead_clause(meta["description"])))
    for command in sorted((root / "commands").glob("*.md")):
        meta = read_frontmatter(command)
        found.append(Entry("command", f"/skillbox:{command.stem}", lead_clause(str(meta.get("description", "")))))
    return found


def render_table(root: Path) -> str:
    """Markdown table of skills then commands, one line each, pipes escaped."""
    lines = ["| | name | what it does |", "|---|---|---|"]
    for entry in entries(root):
        summary = re.sub(r"\|", r"\\|", entry.summary)
        lines.append(f"| {entry.kind} | `{entry.name}` | {summary} |")
    return "\n".join(lines) + "\n"


def table_in_readme(readme_text: str) -> str | None:
    """The table currently between the markers, or None when the README has no markers yet."""
    if BEGIN not in readme_text or END not in readme_text:
        return None
    return readme_text.split(BEGIN, 1)[1].split(END, 1)[0].strip("\n") + "\n"


def update_readme(readme: Path, root: Path) -> bool:
    """Rewrite the table between the markers; returns True when the file changed."""
    text = readme.read_text(encoding="utf-8")
    if table_in_readme(text) is None:
        return False
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    new = f"{head}{BEGIN}\n{render_table(root)}{END}{tail}"
    if new != text:
        readme.write_text(new, encoding="utf-8")
    return new != text
