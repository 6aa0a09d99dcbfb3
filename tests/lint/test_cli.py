"""The `skillbox lint` command line: path-or-subcommand dispatch, formats, exit codes, selection, config,
ignore comments."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from skillbox.cli.root import cli
from skillbox.lint.samples import composition

TITLE = '<h1 id="title" class="clip" data-start="0" data-duration="2" data-track-index="1">Hi</h1>'
CLEAN = composition(TITLE, js='tl.from("#title", { opacity: 0 }, 0);')
# self_closing_media_tag (error, autofixable): `<video/>` is not self-closing in HTML, so what follows it is
# swallowed into the <video> and never painted.
VIDEO = '<video id="v" src="https://media.hyperframes.dev/v.mp4" muted data-start="0" data-track-index="2"/>'
BROKEN = CLEAN.replace(TITLE, TITLE + "\n" + VIDEO)
WARNING_ONLY = composition(TITLE.replace(' class="clip"', ""), js='tl.from("#title", { opacity: 0 }, 0);')


def run(*args: str, cwd: Path | None = None):
    runner = CliRunner()
    if cwd is None:
        return runner.invoke(cli, ["lint", *args])
    old = Path.cwd()
    os.chdir(cwd)
    try:
        return runner.invoke(cli, ["lint", *args])
    finally:
        os.chdir(old)


def write(folder: Path, content: str, name: str = "index.html") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(content, encoding="utf-8")
    return path


def test_clean_project_exits_zero(tmp_path):
    write(tmp_path / "p", CLEAN)
    result = run(str(tmp_path / "p"))
    assert result.exit_code == 0, result.output
    assert "0 error(s), 0 warning(s)" in result.output


def test_error_finding_exits_one_with_compiler_style_line(tmp_path):
    path = write(tmp_path / "p", BROKEN)
    result = run(str(path))
    assert result.exit_code == 1
    line = next(ln for ln in result.output.splitlines() if "self_closing_media_tag" in ln)
    location, rest = line.split(": ", 1)
    file, lineno, col = location.rsplit(":", 2)
    assert file.endswith("index.html") and int(lineno) == BROKEN[: BROKEN.index("<video")].count("\n") + 1
    assert int(col) == 1
    assert rest.startswith("error self_closing_media_tag ")
    assert "    fix: Write an explicit closing tag" in result.output


def test_warnings_alone_exit_zero(tmp_path):
    write(tmp_path / "p", WARNING_ONLY)
    result = run(str(tmp_path / "p"))
    assert result.exit_code == 0
    assert "warning timed_element_missing_clip_class" in result.output


def test_json_shape_matches_the_contract(tmp_path):
    write(tmp_path / "p", BROKEN)
    result = run(str(tmp_path / "p"), "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert set(data) >= {"ok", "errorCount", "warningCount", "infoCount", "filesScanned", "findings"}
    assert data["ok"] is False and data["errorCount"] == 1 and data["filesScanned"] == 1
    finding = data["findings"][0]
    assert {"code", "severity", "message", "file", "line", "column", "fixHint"} <= set(finding)
    assert finding["code"] == "self_closing_media_tag" and finding["fixable"] is True
    assert json.loads(run(str(tmp_path / "p"), "--json").stdout) == data


def test_sarif_is_2_1_0_with_rule_metadata(tmp_path):
    write(tmp_path / "p", BROKEN)
    data = json.loads(run(str(tmp_path / "p"), "--format", "sarif").stdout)
    assert data["version"] == "2.1.0"
    run_ = data["runs"][0]
    assert run_["tool"]["driver"]["rules"][0]["id"] == "self_closing_media_tag"
    result = run_["results"][0]
    assert result["level"] == "error"
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] > 1


def test_rules_subcommand_and_a_folder_named_rules(tmp_path):
    listing = run("rules", cwd=tmp_path)
    assert listing.exit_code == 0 and "self_closing_media_tag" in listing.output
    write(tmp_path / "rules", BROKEN)  # a project folder literally called "rules"
    again = run("rules", cwd=tmp_path)
    assert again.exit_code == 0 and "rules (* = autofix" in again.output
    as_path = run("./rules", cwd=tmp_path)
    assert as_path.exit_code == 1 and "self_closing_media_tag" in as_path.output
    trailing = run("rules/", cwd=tmp_path)
    assert trailing.exit_code == 1


def test_rules_json_lists_every_rule():
    data = json.loads(run("rules", "--json").stdout)
    assert len(data) >= 70
    assert {"code", "severity", "group", "summary"} <= set(data[0])


def test_explain_prints_examples_and_ignore_syntax():
    result = run("explain", "video_missing_muted")
    assert result.exit_code == 0
    assert "Bad:" in result.output and "Good:" in result.output and "muted" in result.output
    assert "skillbox-lint: ignore[video_missing_muted]" in result.output


def test_explain_unknown_code_is_a_one_line_error():
    result = run("explain", "no_such_rule")
    assert result.exit_code == 2
    assert result.stderr.strip().startswith("Error: unknown rule code: no_such_rule")
    assert len(result.stderr.strip().splitlines()) == 1


def test_select_and_ignore(tmp_path):
    write(tmp_path / "p", BROKEN.replace(' class="clip"', ""))
    both = json.loads(run(str(tmp_path / "p"), "--json").stdout)
    assert {f["code"] for f in both["findings"]} == {"self_closing_media_tag", "timed_element_missing_clip_class"}
    selected = json.loads(run(str(tmp_path / "p"), "--json", "--select", "self_closing_media_tag").stdout)
    assert {f["code"] for f in selected["findings"]} == {"self_closing_media_tag"}
    ignored = run(str(tmp_path / "p"), "--json", "--ignore", "media")
    assert {f["code"] for f in json.loads(ignored.stdout)["findings"]} == {"timed_element_missing_clip_class"}
    assert ignored.exit_code == 0


def test_unknown_code_in_select_is_a_usage_error(tmp_path):
    write(tmp_path / "p", CLEAN)
    result = run(str(tmp_path / "p"), "--select", "nope")
    assert result.exit_code == 2 and "unknown rule code(s): nope" in result.stderr


def test_missing_path_is_a_one_line_usage_error(tmp_path):
    result = run(str(tmp_path / "absent"))
    assert result.exit_code == 2 and result.stderr.startswith("Error: no such file or directory")
    assert len(result.stderr.strip().splitlines()) == 1


def test_folder_without_a_composition_says_so_and_exits_one(tmp_path):
    (tmp_path / "empty" / "notes").mkdir(parents=True)
    (tmp_path / "empty" / "notes" / "readme.txt").write_text("no html here")
    result = run(str(tmp_path / "empty"))
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: no composition found in") and "0 error(s)" not in result.output


def test_fix_diff_headers_are_relative_to_the_working_directory(tmp_path):
    write(tmp_path / "proj", BROKEN)
    result = run("proj", "--fix", "--diff", cwd=tmp_path)
    assert result.exit_code == 1
    headers = [ln for ln in result.output.splitlines() if ln.startswith(("--- ", "+++ "))]
    assert headers == ["--- a/proj/index.html", "+++ b/proj/index.html"]


def test_config_in_pyproject_ignores_and_overrides_severity(tmp_path):
    write(tmp_path / "p", BROKEN.replace(' class="clip"', ""))
    (tmp_path / "pyproject.toml").write_text(
        '[tool.skillbox.lint]\nignore = ["self_closing_media_tag"]\n'
        'severity = { timed_element_missing_clip_class = "error" }\n'
    )
    data = json.loads(run(str(tmp_path / "p"), "--json").stdout)
    assert [(f["code"], f["severity"]) for f in data["findings"]] == [("timed_element_missing_clip_class", "error")]
    assert json.loads(run(str(tmp_path / "p"), "--json", "--no-config").stdout)["errorCount"] == 1


def test_config_in_skillbox_toml_and_bad_config(tmp_path):
    write(tmp_path / "p", BROKEN)
    (tmp_path / "skillbox.toml").write_text('[lint]\nselect = ["core"]\n')
    assert run(str(tmp_path / "p")).exit_code == 0
    (tmp_path / "skillbox.toml").write_text("[lint]\nselect = 3\n")
    bad = run(str(tmp_path / "p"))
    assert bad.exit_code == 1 and "lint.select must be a list" in bad.stderr


def test_ignore_comment_silences_one_element_only(tmp_path):
    two = composition(
        "<!-- skillbox-lint: ignore[timed_element_missing_clip_class] -->\n"
        '<h1 id="a" data-start="0" data-duration="2" data-track-index="1">A</h1>\n'
        '<h2 id="b" data-start="0" data-duration="2" data-track-index="2">B</h2>',
        js='tl.from("#a", { opacity: 0 }, 0);\ntl.from("#b", { opacity: 0 }, 0);',
    )
    write(tmp_path / "p", two)
    data = json.loads(run(str(tmp_path / "p"), "--json").stdout)
    assert [f.get("elementId") for f in data["findings"]] == ["b"]


def test_ignore_file_comment(tmp_path):
    write(tmp_path / "p", "<!-- skillbox-lint: ignore-file[self_closing_media_tag] -->\n" + BROKEN)
    assert run(str(tmp_path / "p")).exit_code == 0


def test_folder_of_projects_and_loose_files(tmp_path):
    write(tmp_path / "corpus" / "a", CLEAN)
    write(tmp_path / "corpus" / "b", BROKEN)
    write(tmp_path / "corpus" / "loose", CLEAN, name="scene.html")
    data = json.loads(run(str(tmp_path / "corpus"), "--json").stdout)
    assert data["filesScanned"] == 3 and data["errorCount"] == 1


def test_python_dash_m_subprocess(tmp_path):
    path = write(tmp_path / "p", BROKEN)
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2] / "tools"))
    proc = subprocess.run(
        [sys.executable, "-m", "skillbox", "lint", str(path), "--json"], capture_output=True, text=True, env=env
    )
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["findings"][0]["code"] == "self_closing_media_tag"


@pytest.mark.parametrize("args", [["--diff"], ["--format", "xml"]])
def test_usage_errors_exit_two(tmp_path, args):
    write(tmp_path / "p", CLEAN)
    assert run(str(tmp_path / "p"), *args).exit_code == 2


def test_no_explain_page_shows_the_same_text_as_bad_and_good():
    from skillbox.lint.formats import explain
    from skillbox.lint.registry import all_rules

    for code, r in all_rules().items():
        page = explain(r)
        bad = page.split("Bad:\n", 1)[1].split("\nGood:\n", 1)[0].strip()
        good = page.split("\nGood:\n", 1)[1].split("\nFix:", 1)[0].strip()
        assert bad != good, code
