"""`skillbox skills triggers`: the trigger evals and ad-hoc requests from the command line."""

from __future__ import annotations

import json
import shutil

from click.testing import CliRunner

from skillbox.cli.root import cli
from skillbox.skills.triggers import evaluate
from tests.skills.conftest import REPO, SKILLS


def invoke(*args):
    return CliRunner().invoke(cli, ["skills", "triggers", *args])


def count_cases(skills) -> int:
    files = (json.loads(p.read_text()) for p in skills.glob("*/evals/triggers.json"))
    return sum(len(data["should_trigger"]) + len(data["should_not_trigger"]) for data in files)


def test_bundle_evals_are_counted_and_stay_above_the_floor():
    result = invoke(str(REPO))
    assert result.exit_code == 0, result.output
    report = evaluate(SKILLS)
    assert result.output.splitlines()[-1] == (
        f"{count_cases(SKILLS)} requests, {len(report.failures)} picked the wrong skill "
        f"({report.right_share:.1%} right, floor 85%)"
    )


def test_a_request_shows_the_pick_and_the_runners_up():
    result = invoke(str(REPO), "--request", "帮我把这篇论文做成组会PPT", "--request", "book a table for two", "--json")
    assert result.exit_code == 0
    first, second = json.loads(result.output)
    assert first["picked"] == "paper-to-slides"
    assert len(first["ranking"]) == 3 and first["ranking"][0][0] == "paper-to-slides"
    assert second["picked"] is None


def test_a_confused_bundle_fails_with_each_request_named(tmp_path):
    skills = tmp_path / "skills"
    shutil.copytree(SKILLS, skills)
    for evals in skills.glob("*/evals/triggers.json"):
        evals.unlink()
    evals = {
        "should_trigger": ["Draft the Discussion from my notes", "帮我把这篇论文做成组会PPT"],
        "should_not_trigger": [],
    }
    (skills / "paper-writing" / "evals" / "triggers.json").write_text(json.dumps(evals, ensure_ascii=False))
    result = invoke(str(tmp_path))
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "paper-writing: should pick it: '帮我把这篇论文做成组会PPT' -> paper-to-slides",
        "2 requests, 1 picked the wrong skill (50.0% right, floor 85%)",
    ]
