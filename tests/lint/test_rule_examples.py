"""Every rule's own documentation is its test: the bad example fires the rule (and only it), the good example lints
clean, and for fixable rules the autofix applied to the bad example converges to a clean file."""

from __future__ import annotations

import pytest

from skillbox.lint.engine import Selection, lint_paths
from skillbox.lint.fix import fix_paths
from skillbox.lint.registry import GROUPS, all_rules, rule_docs

RULES = all_rules()
CODES = sorted(RULES)
FIXABLE = sorted(c for c, r in RULES.items() if r.fixable)


def codes_of(path, code: str | None = None) -> list[str]:
    selection = None
    if code is not None and RULES[code].opt_in:
        selection = Selection(select={r.code for r in RULES.values() if not r.opt_in} | {code})
    return [f.code for f in lint_paths([path], selection).findings]


def test_at_least_seventy_rules_over_every_group():
    assert len(RULES) >= 70
    assert {r.group for r in RULES.values()} == {
        "core",
        "media",
        "composition",
        "gsap",
        "captions",
        "fonts",
        "adapters",
        "project",
    }


@pytest.mark.parametrize("code", CODES)
def test_bad_example_fires_only_its_rule(code, sample_path):
    found = codes_of(sample_path(RULES[code].bad), code)
    assert code in found, f"{code}: bad example does not fire (got {found})"
    allowed = {code, *RULES[code].bad_also}
    assert set(found) <= allowed, f"{code}: bad example also fires {sorted(set(found) - allowed)}"


@pytest.mark.parametrize("code", CODES)
def test_good_example_is_clean(code, sample_path):
    assert codes_of(sample_path(RULES[code].good), code) == []


def test_every_rule_has_docs_and_every_doc_entry_a_rule_of_its_group():
    """The docs live in lint/rules/docs/<group>.py, apart from the checks (start-up cost): neither side may name a
    rule the other lacks, and each group's docs follow its rules' order (so a reader finds them side by side)."""
    for group in GROUPS:
        codes = [c for c, r in RULES.items() if r.group == group]
        docs = rule_docs(group)
        assert list(docs) == codes, group
        for code, entry in docs.items():
            assert set(entry) == {"summary", "explanation", "bad", "good"}, code


@pytest.mark.parametrize("code", CODES)
def test_documentation_is_complete(code):
    r = RULES[code]
    assert r.summary and r.explanation and r.fix_hint and r.bad.snippet and r.good.snippet
    assert r.code.islower() and " " not in r.code


@pytest.mark.parametrize("code", FIXABLE)
def test_autofix_of_bad_example_converges_to_clean(code, sample_path):
    path = sample_path(RULES[code].bad)
    report = fix_paths([path])
    assert report.changed, f"{code}: autofix changed nothing"
    assert codes_of(path) == [], f"{code}: after --fix the example still has findings"


@pytest.mark.parametrize("code", CODES)
def test_good_example_differs_from_bad(code):
    assert RULES[code].good.files != RULES[code].bad.files
