"""`skillbox skills validate`: compiler-style text, JSON, and exit codes 0 / 1 / 2."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from skillbox.cli.root import cli


def run(*args: str):
    return CliRunner().invoke(cli, ["skills", "validate", *args])


def test_clean_plugin_exits_0(plugin_root: Path):
    result = run(str(plugin_root))
    assert result.exit_code == 0
    assert result.output == f"ok: 4 items checked in {plugin_root}, no problems\n"


def test_problems_print_like_a_compiler_and_exit_1(plugin_root: Path):
    (plugin_root / "skills" / "cite-check" / "references" / "rules.md").unlink()
    result = run(str(plugin_root))
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "skills/cite-check/SKILL.md:9: path_missing: 'references/rules.md' does not exist",
        f"1 problem in 4 items checked in {plugin_root}",
    ]


def test_json_output(plugin_root: Path):
    skill = plugin_root / "skills" / "cite-check" / "SKILL.md"
    skill.write_text(skill.read_text().replace("name: cite-check", "name: Cite-Check"))
    result = run(str(plugin_root), "--json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["ok"] is False and data["kind"] == "plugin"
    assert {problem["code"] for problem in data["problems"]} == {"name_not_lowercase", "name_folder_mismatch"}
    assert all(problem["line"] == 2 for problem in data["problems"])


def test_missing_path_is_a_one_line_error(tmp_path: Path):
    result = run(str(tmp_path / "nope"))
    assert result.exit_code == 1
    assert result.stderr == f"Error: {tmp_path / 'nope'} does not exist\n"


def test_unknown_option_is_a_usage_error():
    result = run("--strict")
    assert result.exit_code == 2
    assert "No such option '--strict'" in result.stderr


def test_skills_group_lists_validate():
    result = CliRunner().invoke(cli, ["skills", "--help"])
    assert result.exit_code == 0
    assert "validate" in result.output
