"""The README table of skills and commands comes from frontmatter, so it cannot drift from the bundle."""

from __future__ import annotations

from conftest import COMMANDS, REPO, SKILLS

from skillbox.skills.catalog import BEGIN, END, lead_clause, render_table, table_in_readme, update_readme


def test_table_lists_every_skill_and_command_on_one_line_each():
    table = render_table(REPO)
    rows = table.splitlines()[2:]
    assert len(rows) == len(list(SKILLS.glob("*/SKILL.md"))) + len(list(COMMANDS.glob("*.md")))
    for skill in SKILLS.glob("*/SKILL.md"):
        assert f"| skill | `{skill.parent.name}` | " in table
    for command in COMMANDS.glob("*.md"):
        assert f"| command | `/skillbox:{command.stem}` | " in table
    assert all(row.count(" | ") == 2 and len(row) < 260 for row in rows)


def test_lead_clause_stops_outside_parentheses():
    assert lead_clause("Builds graphs (fast: really). Use when x.") == "Builds graphs (fast: really)"
    assert lead_clause("Handles media in videos: video, audio") == "Handles media in videos"


def test_readme_table_is_current_when_the_readme_has_the_markers(tmp_path):
    readme = REPO / "README.md"
    current = table_in_readme(readme.read_text(encoding="utf-8"))
    if current is not None:
        assert current == render_table(REPO), "README table is stale: run skillbox.skills.catalog.update_readme"
    copy = tmp_path / "README.md"
    copy.write_text(f"# x\n\n{BEGIN}\nold\n{END}\n\nrest\n")
    assert update_readme(copy, REPO) is True
    text = copy.read_text()
    assert table_in_readme(text) == render_table(REPO)
    assert text.endswith("\n\nrest\n")
    assert update_readme(copy, REPO) is False
