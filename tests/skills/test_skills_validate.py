"""`validate_path` on plugin roots, single skills and command files: what is found, and on which line."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest

from skillbox.cli.tree import command_checker
from skillbox.errors import InvalidInputError, NotFoundError
from skillbox.skills import validate_path as _validate_path

validate_path = partial(_validate_path, check_command=command_checker())  # as `skillbox skills validate` does

REPO = Path(__file__).resolve().parents[2]
EXTRA = REPO / "tests" / "fixtures" / "skills" / "extra"


def codes(report) -> list[str]:
    return [problem.code for problem in report.problems]


def test_shipped_bundle_is_valid():
    report = validate_path(REPO)
    assert report.kind == "plugin"
    assert report.ok, "\n".join(problem.render() for problem in report.problems)


def test_complete_plugin_root_is_valid(plugin_root: Path):
    report = validate_path(plugin_root)
    assert report.ok, [problem.render() for problem in report.problems]
    assert report.checked == [
        ".claude-plugin/plugin.json",
        ".claude-plugin/marketplace.json",
        "skills/cite-check",
        "commands/check.md",
    ]


@pytest.mark.parametrize(
    ("case", "code", "line"),
    [
        ("bad-body-too-long", "body_too_long", 5),
        ("bad-missing-path", "path_missing", 6),
        ("bad-outside-path", "path_outside", 6),
        ("bad-unknown-command", "command_unknown", 7),
        ("bad-unknown-option", "command_unknown_option", 6),
        ("bad-metadata-type", "frontmatter_type", 4),
        ("bad-allowed-tools-list", "frontmatter_type", 4),
    ],
)
def test_checks_beyond_the_spec_frontmatter(case: str, code: str, line: int):
    report = validate_path(EXTRA / case)
    assert [(problem.code, problem.line) for problem in report.problems] == [(code, line)]
    assert report.problems[0].file == f"{case}/SKILL.md"


def test_paths_and_commands_that_exist_pass():
    assert validate_path(EXTRA / "good-references").ok


def test_skill_md_file_path_is_accepted():
    assert validate_path(EXTRA / "good-references" / "SKILL.md").ok


def test_frontmatter_problem_points_at_the_key_line(plugin_root: Path):
    skill = plugin_root / "skills" / "cite-check" / "SKILL.md"
    skill.write_text(skill.read_text().replace("license: MIT", "license: MIT\nmodel: opus"))
    (problem,) = validate_path(plugin_root).problems
    assert problem.render() == (
        "skills/cite-check/SKILL.md:5: frontmatter_unknown_key: unexpected key 'model' "
        "(allowed: name, description, license, compatibility, metadata, allowed-tools)"
    )


def test_yaml_error_line(plugin_root: Path):
    skill = plugin_root / "skills" / "cite-check" / "SKILL.md"
    skill.write_text(skill.read_text().replace("license: MIT", "allowed-tools: [Read]"))
    (problem,) = validate_path(plugin_root).problems
    assert (problem.code, problem.line) == ("yaml_invalid", 4)


def test_command_files_allow_claude_keys_but_not_unknown_ones(plugin_root: Path):
    command = plugin_root / "commands" / "check.md"
    command.write_text(command.read_text().replace("argument-hint", "disable-model-invocation: true\nargument-hint"))
    assert validate_path(plugin_root).ok
    command.write_text(command.read_text().replace("argument-hint", "context: fork\nargument-hint"))
    assert codes(validate_path(plugin_root)) == ["frontmatter_unknown_key"]


def test_command_file_checks_plugin_root_paths_and_commands(plugin_root: Path):
    (plugin_root / "bin" / "skillbox").unlink()
    command = plugin_root / "commands" / "check.md"
    command.write_text(command.read_text().replace("skills validate", "skills validate --strict"))
    report = validate_path(command)
    assert report.kind == "command"
    assert [(p.code, p.line) for p in report.problems] == [("command_unknown_option", 7), ("path_missing", 7)]


def test_plugin_root_path_escaping_the_root_is_reported(plugin_root: Path):
    skill = plugin_root / "skills" / "cite-check" / "SKILL.md"
    skill.write_text(skill.read_text() + "\nRun ${CLAUDE_PLUGIN_ROOT}/../elsewhere/tool.py\n")
    assert codes(validate_path(plugin_root)) == ["path_outside"]


def test_skill_folder_without_skill_md(plugin_root: Path):
    (plugin_root / "skills" / "empty").mkdir()
    report = validate_path(plugin_root)
    assert [(p.file, p.code) for p in report.problems] == [("skills/empty", "skill_md_missing")]


def test_missing_manifests_are_reported(plugin_root: Path):
    (plugin_root / ".claude-plugin" / "marketplace.json").unlink()
    assert codes(validate_path(plugin_root)) == ["manifest_missing"]


def test_manifest_file_path_validates_its_plugin_root(plugin_root: Path):
    manifest = plugin_root / ".claude-plugin" / "plugin.json"
    manifest.write_text(json.dumps({**json.loads(manifest.read_text()), "hooks": "./hooks/hooks.json"}))
    report = validate_path(plugin_root / ".claude-plugin" / "plugin.json")
    assert report.kind == "plugin"
    assert codes(report) == ["manifest_hooks_key"]


def test_bad_paths_raise_clear_errors(tmp_path: Path):
    with pytest.raises(NotFoundError):
        validate_path(tmp_path / "nope")
    other = tmp_path / "data.txt"
    other.write_text("x")
    with pytest.raises(InvalidInputError):
        validate_path(other)


def test_default_path_is_the_plugin_root_around_the_working_folder(plugin_root: Path, monkeypatch):
    monkeypatch.chdir(plugin_root / "skills" / "cite-check")
    report = validate_path()
    assert Path(report.target) == plugin_root.resolve()


def test_report_json_shape(plugin_root: Path):
    (plugin_root / "skills" / "cite-check" / "references" / "rules.md").unlink()
    data = json.loads(json.dumps(validate_path(plugin_root).as_dict()))
    assert data["ok"] is False and data["problemCount"] == 1
    assert data["problems"][0] == {
        "file": "skills/cite-check/SKILL.md",
        "line": 9,
        "code": "path_missing",
        "message": "'references/rules.md' does not exist",
        "fix": None,
    }


def test_relative_target_and_links_up_to_the_plugin_root(plugin_root: Path, monkeypatch):
    (plugin_root / "README.md").write_text("# Demo\n")
    command = plugin_root / "commands" / "check.md"
    command.write_text(command.read_text() + "\nSee [the README](../README.md).\n")
    monkeypatch.chdir(plugin_root)
    assert validate_path(Path(".")).ok
    command.write_text(command.read_text() + "\nAnd [outside](../../elsewhere.md).\n")
    assert codes(validate_path(Path("."))) == ["path_outside"]


def shouting_check(body: str, first_line: int) -> list[tuple[int, str, str]]:
    """A body check as a later area would register one: flags lines written in capitals."""
    return [
        (first_line + offset, "shouting", f"line is all capitals: {line!r}")
        for offset, line in enumerate(body.splitlines())
        if line.isupper()
    ]


def test_registered_body_checks_run_on_skills_and_commands(plugin_root: Path, monkeypatch):
    from skillbox.skills import validate

    monkeypatch.setitem(validate.BODY_CHECKS, "shouting", f"{__name__}:shouting_check")
    command = plugin_root / "commands" / "check.md"
    command.write_text(command.read_text() + "\nSTOP HERE\n")
    (problem,) = validate_path(plugin_root).problems
    assert (problem.file, problem.line, problem.code) == ("commands/check.md", 9, "shouting")
