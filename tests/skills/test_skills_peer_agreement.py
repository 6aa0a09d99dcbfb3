"""Our verdict on every fixture the reference validator covers equals `agentskills validate`'s (skills-ref 0.1.1)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from skills_ref.validator import validate as peer_validate

from skillbox.cli.tree import command_checker
from skillbox.skills import validate_path as _validate_path

validate_path = partial(_validate_path, check_command=command_checker())  # as `skillbox skills validate` does

PEER_CASES = Path(__file__).resolve().parents[1] / "fixtures" / "skills" / "peer"
CASES = sorted(PEER_CASES.iterdir(), key=lambda path: path.name)

# What we must say about each failing case: the code that names the actual mistake.
EXPECTED_CODES = {
    "mismatch": "name_folder_mismatch",
    "Upper-Skill": "name_not_lowercase",
    "double--hyphen": "name_double_hyphen",
    "trailing-hyphen-": "name_hyphen_edge",
    "under_score": "name_invalid_chars",
    "with.dot": "name_invalid_chars",
    "b" * 65: "frontmatter_too_long",
    "bad-long-description": "frontmatter_too_long",
    "bad-long-compatibility": "frontmatter_too_long",
    "bad-compatibility-map": "frontmatter_type",
    "bad-missing-description": "frontmatter_missing_key",
    "bad-missing-name": "frontmatter_missing_key",
    "bad-empty-description": "frontmatter_empty_value",
    "bad-blank-description": "frontmatter_empty_value",
    "bad-empty-name": "frontmatter_empty_value",
    "bad-description-list": "frontmatter_type",
    "bad-no-frontmatter": "frontmatter_missing",
    "bad-unclosed": "frontmatter_unclosed",
    "bad-claude-keys": "frontmatter_unknown_key",
    "bad-flow-list": "yaml_invalid",
    "bad-flow-mapping": "yaml_invalid",
    "bad-unquoted-colon": "yaml_invalid",
    "bad-duplicate-key": "yaml_invalid",
    "bad-anchor": "yaml_invalid",
    "bad-not-mapping": "frontmatter_not_mapping",
    "bad-bom": "bom",
    "bad-no-skill-md": "skill_md_missing",
}


def test_fixture_set_covers_both_verdicts():
    verdicts = [not peer_validate(case) for case in CASES]
    assert verdicts.count(True) >= 8 and verdicts.count(False) >= 20


@pytest.mark.parametrize("case", CASES, ids=[case.name[:40] for case in CASES])
def test_same_verdict_as_agentskills(case: Path):
    peer_problems = peer_validate(case)
    report = validate_path(case)
    assert report.ok == (not peer_problems), (peer_problems, [problem.render() for problem in report.problems])
    if not report.ok:
        assert EXPECTED_CODES[case.name] in {problem.code for problem in report.problems}
    else:
        assert case.name not in EXPECTED_CODES


# Names mix the characters each name rule is about: case, hyphens, underscores, dots, digits, non-ASCII letters,
# compatibility forms NFKC folds (ﬁ, fullwidth), and spaces the reference validator strips.
NAME_CHARS = "abz09-_.AZéßﬁＡ "
TEXT_CHARS = "abc xyz:#é'\""


def _yaml_quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    name=st.text(NAME_CHARS, min_size=0, max_size=70),
    folder_is_name=st.booleans(),
    description=st.one_of(st.text(TEXT_CHARS, max_size=20), st.integers(1015, 1030).map(lambda n: "d" * n)),
    compatibility=st.one_of(st.none(), st.integers(495, 505).map(lambda n: "c" * n)),
    extra_key=st.sampled_from([None, "license", "allowed-tools", "argument-hint", "model"]),
)
def test_same_verdict_on_generated_frontmatter(
    tmp_path_factory, name, folder_is_name, description, compatibility, extra_key
):
    folder_name = name.strip() if folder_is_name and name.strip() not in ("", ".", "..") else "some-skill"
    folder = tmp_path_factory.mktemp("gen") / folder_name
    folder.mkdir()
    lines = ["---", f"name: {_yaml_quote(name)}", f"description: {_yaml_quote(description)}"]
    if compatibility is not None:
        lines.append(f"compatibility: {compatibility}")
    if extra_key is not None:
        lines.append(f"{extra_key}: Read")
    (folder / "SKILL.md").write_text("\n".join([*lines, "---", "", "# Body", ""]), encoding="utf-8")
    peer_problems = peer_validate(folder)
    report = validate_path(folder)
    assert report.ok == (not peer_problems), (peer_problems, [problem.render() for problem in report.problems])
