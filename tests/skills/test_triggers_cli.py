"""`skillbox skills triggers`: the trigger evals and ad-hoc requests from the command line."""

from __future__ import annotations

import json
import shutil

from click.testing import CliRunner

from skillbox.cli.root import cli
from tests.skills.conftest import REPO, SKILLS


def invoke(*args):
    return CliRunner().invoke(cli, ["skills", "triggers", *args])


def count_cases(skills) -> int:
    files = (json.loads(p.read_text()) for p in skills.glob("*/evals/triggers.json"))
    return sum(len(data["should_trigger"]) + len(data["should_not_trigger"]) for data in files)


def test_bundle_evals_pass_and_are_counted():
    result = invoke(str(REPO))
    assert result.exit_code == 0, result.output
    assert result.output == f"{count_cases(SKILLS)} requests, 0 picked the wrong skill\n"


def test_a_request_shows_the_pick_and_the_runners_up():
    result = invoke(str(REPO), "--request", "帮我把这篇论文做成组会PPT", "--request", "book a table for two", "--json")
    assert result.exit_code == 0
    first, second = json.loads(result.output)
    assert first["picked"] == "paper-to-slides"
    assert len(first["ranking"]) == 3 and first["ranking"][0][0] == "paper-to-slides"
    assert second["picked"] is None


def test_a_confused_eval_fails_with_the_request_named(tmp_path):
    skills = tmp_path / "skills"
    shutil.copytree(SKILLS, skills)
    evals = skills / "paper-writing" / "evals" / "triggers.json"
    data = json.loads(evals.read_text())
    data["should_trigger"].append("Polish the English of my abstract")
    evals.write_text(json.dumps(data))
    result = invoke(str(tmp_path))
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "paper-writing: should pick it: 'Polish the English of my abstract' -> paper-polishing",
        f"{count_cases(skills)} requests, 1 picked the wrong skill",
    ]
