"""README.md's generated sections match the code, and the generator itself renders what it promises."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from skillbox import docs
from skillbox.cli import readme_sync, reference
from skillbox.cli.tree import check_cli_command as check_command_line
from skillbox.errors import InvalidInputError
from skillbox.skills import find_command_mentions

REPO = Path(__file__).resolve().parents[2]
HOW_TO_FIX = (
    "README.md is out of date. Regenerate it from the repository root with:\n"
    "    PYTHONPATH=tools python -m skillbox.docs --write"
)


def test_readme_generated_sections_are_in_sync():
    current = (REPO / "README.md").read_text(encoding="utf-8")
    if docs.sync_text(current, REPO, reference.render_cli_reference()) != current:
        pytest.fail(HOW_TO_FIX, pytrace=False)


def test_readme_example_commands_are_real():
    """Fenced examples are what readers copy and run; inline prose may name a group before it lands."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    broken = [
        f"README.md:{mention.line}: {message}"
        for mention in find_command_mentions(text)
        if mention.fenced
        for _code, message in check_command_line(mention.argv)
    ]
    assert broken == []


def test_every_visible_command_is_in_the_cli_reference():
    from skillbox.cli.root import cli

    rendered = reference.render_cli_reference()
    for path, _command, _ctx in reference.iter_commands(cli, ("skillbox",)):
        assert f"- `{' '.join(path)}" in rendered


def test_usage_lines_show_arguments_and_options():
    @click.group()
    def tool():
        """Tool root.

        Second paragraph is not shown."""

    @tool.command()
    @click.argument("paths", nargs=-1, required=True)
    @click.option("--format", type=click.Choice(["text", "json"]))
    @click.option("--select", multiple=True, metavar="CODES")
    @click.option("--fix", is_flag=True)
    @click.option("--secret", hidden=True)
    def lint(paths, format, select, fix, secret):
        """Lint | files."""

    assert reference.render_cli_reference(tool).splitlines() == [
        "- `skillbox COMMAND ...` — Tool root.",
        "- `skillbox lint PATHS ... [--format text|json] [--select CODES ...] [--fix]` — Lint \\| files.",
    ]


def test_skills_table_reads_frontmatter(plugin_root: Path):
    table = docs.render_skills_table(plugin_root)
    assert table.splitlines() == [
        "| Kind | Name | What it does |",
        "| --- | --- | --- |",
        "| skill | `cite-check` | Checks a reference list. |",
        "| command | `/demo:check [path]` | Validate the skills of this plugin |",
    ]


def test_sync_replaces_only_between_markers(plugin_root: Path):
    readme = "# Title\n\nkeep me\n\n<!-- BEGIN GENERATED skills-table -->\nSTALE-LINE\n"
    readme += "<!-- END GENERATED skills-table -->\nafter\n"
    readme += "<!-- BEGIN GENERATED cli-reference -->\n<!-- END GENERATED cli-reference -->\n"
    readme += "<!-- BEGIN GENERATED platforms-table -->\n<!-- END GENERATED platforms-table -->\n"
    synced = docs.sync_text(readme, plugin_root, "- `skillbox` — the reference")
    assert synced.startswith("# Title\n\nkeep me\n\n<!-- BEGIN GENERATED skills-table: ")
    assert "STALE-LINE" not in synced and "| skill | `cite-check` |" in synced and "\nafter\n" in synced
    assert "- `skillbox` — the reference\n" in synced
    assert docs.sync_text(synced, plugin_root, "- `skillbox` — the reference") == synced
    assert docs.sync_text(synced, plugin_root) == synced  # no reference handed in: that section is kept


def test_missing_markers_are_a_clear_error(plugin_root: Path):
    with pytest.raises(InvalidInputError, match="no generated 'cli-reference' section"):
        docs.sync_text("# nothing generated here\n", plugin_root)


def test_main_check_and_write(plugin_root: Path, capsys):
    readme = plugin_root / "README.md"
    readme.write_text("<!-- BEGIN GENERATED cli-reference -->\n<!-- END GENERATED cli-reference -->\n" * 1)
    readme.write_text(
        readme.read_text()
        + "<!-- BEGIN GENERATED skills-table -->\n<!-- END GENERATED skills-table -->\n"
        + "<!-- BEGIN GENERATED platforms-table -->\n<!-- END GENERATED platforms-table -->\n"
    )
    assert readme_sync.main(["--root", str(plugin_root), "--check"]) == 1
    assert "run: python -m skillbox.docs --write" in capsys.readouterr().err
    assert readme_sync.main(["--root", str(plugin_root), "--write"]) == 0
    assert readme_sync.main(["--root", str(plugin_root), "--check"]) == 0
    assert "/demo:check" in readme.read_text()
