"""`skillbox tour`: runs every registered step for real, reports outputs, fails loudly, hides nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from skillbox import tour as tour_module
from skillbox.cli.root import cli
from skillbox.tour import TourReport


def failing_step(workdir: Path) -> TourReport:
    raise RuntimeError("sample missing\nsecond line")


def failed_report_step(workdir: Path) -> TourReport:
    return TourReport("reports failure", ["something off"], ok=False)


def test_skills_step_runs_on_the_bundled_sample(tmp_path: Path):
    result = CliRunner().invoke(cli, ["tour", "--out", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["ok"] is True and data["workdir"] == str(tmp_path)
    (step,) = [step for step in data["steps"] if step["name"] == "skills"]
    assert step["lines"][0] == "sample skill cite-check: valid"
    assert any("path_missing" in line for line in step["lines"])
    for output in step["outputs"]:
        assert Path(output).is_file()
    broken = json.loads((tmp_path / "skills" / "broken-report.json").read_text())
    assert {problem["code"] for problem in broken["problems"]} == {
        "frontmatter_unknown_key",
        "path_missing",
        "command_unknown_option",
    }


def test_text_output_says_where_to_look(tmp_path: Path):
    result = CliRunner().invoke(cli, ["tour", "--out", str(tmp_path)])
    assert result.exit_code == 0
    assert f"look at: {tmp_path / 'skills' / 'good' / 'cite-check' / 'SKILL.md'}" in result.output
    assert result.output.rstrip().endswith("all steps ok")


def test_default_workdir_is_a_fresh_temporary_folder():
    result = CliRunner().invoke(cli, ["tour", "--json"])
    workdir = Path(json.loads(result.output)["workdir"])
    assert workdir.name.startswith("skillbox-tour-") and (workdir / "skills").is_dir()
    shutil.rmtree(workdir)


def test_helpers_without_a_step_are_named(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(tour_module, "TOUR_STEPS", {})
    result = CliRunner().invoke(cli, ["tour", "--out", str(tmp_path), "--json"])
    data = json.loads(result.output)
    assert data["steps"] == [] and "skills" in data["notInTourYet"] and "tour" not in data["notInTourYet"]


@pytest.mark.parametrize("step", ["failing_step", "failed_report_step"])
def test_failing_step_exits_1_and_the_others_still_run(tmp_path: Path, monkeypatch, step: str):
    steps = {"broken": f"{__name__}:{step}", "skills": "skillbox.skills.tour:run"}
    monkeypatch.setattr(tour_module, "TOUR_STEPS", steps)
    result = CliRunner().invoke(cli, ["tour", "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert "== broken:" in result.output and "[FAILED" in result.output
    assert "== skills:" in result.output and "some steps FAILED" in result.output
    if step == "failing_step":
        assert "RuntimeError: sample missing" in result.output


def test_debug_lets_a_step_error_propagate(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(tour_module, "TOUR_STEPS", {"broken": f"{__name__}:failing_step"})
    result = CliRunner().invoke(cli, ["--debug", "tour", "--out", str(tmp_path)])
    assert isinstance(result.exception, RuntimeError)


def missing_module_step(workdir: Path) -> TourReport:
    import skillbox_tour_no_such_module  # noqa: F401  (a module no environment has)

    return TourReport("unreachable")


def test_a_step_missing_a_module_names_it_in_one_line(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(tour_module, "TOUR_STEPS", {"broken": f"{__name__}:missing_module_step"})
    result = CliRunner().invoke(cli, ["tour", "--out", str(tmp_path), "--json"])
    assert result.exit_code == 1
    (step,) = json.loads(result.output)["steps"]
    assert step["ok"] is False and len(step["lines"]) == 1
    assert "'skillbox_tour_no_such_module' is not installed" in step["lines"][0]


def test_paper_step_without_its_extra_says_what_to_install(tmp_path: Path, monkeypatch):
    """What a plain `pip install .` gives: the paper scripts' imports are missing, so the step says which and how
    to install them, instead of a JSONDecodeError from the figure checker's empty output."""
    from skillbox.skills import paper_tour

    monkeypatch.setattr(paper_tour, "PAPER_MODULES", {**paper_tour.PAPER_MODULES, "skillbox_no_such_dep": "nodep"})
    monkeypatch.setattr(tour_module, "TOUR_STEPS", {"paper": "skillbox.skills.paper_tour:run"})
    result = CliRunner().invoke(cli, ["tour", "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert "nodep not installed: pip install 'skillbox[paper]'" in result.output
    assert "Error" not in result.output and "JSONDecode" not in result.output


def test_the_paper_extra_lists_every_module_the_paper_step_checks():
    import tomllib

    from skillbox.skills import paper_tour

    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())["project"]
    extra = {req.split(">")[0].split("=")[0].strip() for req in project["optional-dependencies"]["paper"]}
    assert set(paper_tour.PAPER_MODULES.values()) <= extra
