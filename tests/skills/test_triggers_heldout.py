"""Held-out trigger sets: requests written apart from the descriptions, scored by the BM25 proxy.

The sealed half is only ever reported as rates; these tests also make sure the command never prints its items.
"""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from click.testing import CliRunner

from skillbox.cli.root import cli
from skillbox.errors import InvalidInputError, NotFoundError
from skillbox.skills.triggers import TARGET_LEFT_ALONE, TARGET_RIGHT_SKILL, load_heldout_set, score_heldout
from tests.skills.conftest import REPO, SKILLS

HELDOUT = REPO / "tests" / "skills" / "heldout"
SEALED, DEV, DEV2, DEV3, DEV4, DEV5, DEV6 = (
    HELDOUT / f"{name}.json" for name in ("sealed", "dev", "dev2", "dev3", "dev4", "dev5", "dev6")
)


def invoke(*args):
    return CliRunner().invoke(cli, ["skills", "triggers", str(REPO), *args])


def requests_of(path):
    return [c.request for c in load_heldout_set(path).cases]


# The sealed half as committed in c029ce3, before any description was changed. Editing it (to drop a request the
# bundle gets wrong, say) would turn it into a tuning set; a new sealed set needs a new file and a new history.
SEALED_SHA256 = "b528d3a766a3e4ba2f141c62408cd644c7bb7c4b49078d4e4f0572fb718972c9"


def test_the_sealed_half_is_the_one_committed_before_tuning():
    assert hashlib.sha256(SEALED.read_bytes()).hexdigest() == SEALED_SHA256


def normalised(request: str) -> str:
    """A request with case, spacing and punctuation folded: a near-copy counts as an overlap too."""
    return re.sub(r"[\W_]+", " ", request.casefold()).strip()


def test_the_sets_are_disjoint_from_each_other_and_from_the_per_skill_evals():
    sealed, dev = set(requests_of(SEALED)), set(requests_of(DEV))
    evals = set()
    for path in SKILLS.glob("*/evals/triggers.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        evals |= set(data["should_trigger"]) | set(data["should_not_trigger"])
    assert not sealed & dev
    assert not (sealed | dev) & evals
    # dev2, dev3 (session 5), dev4 (session 6) and dev5 (session 7) are held to the stricter, folded comparison
    # against everything before them. The older sets keep the exact one: folded, one sealed request equals a
    # per-skill eval request, and finding which would mean reading the sealed set (README.md, "Overlap").
    dev2, dev3, dev4, dev5 = ({normalised(r) for r in requests_of(p)} for p in (DEV2, DEV3, DEV4, DEV5))
    assert not dev2 & {normalised(r) for r in sealed | dev | evals}
    assert not dev3 & ({normalised(r) for r in sealed | dev | evals} | dev2)
    assert not dev4 & ({normalised(r) for r in sealed | dev | evals} | dev2 | dev3)
    assert not dev5 & ({normalised(r) for r in sealed | dev | evals} | dev2 | dev3 | dev4)
    # dev6 (session 11) is compared by count only, so a failure names how many requests overlap and never shows
    # one (a sealed request must not reach the screen of whoever tunes on the other sets).
    dev6 = {normalised(r) for r in requests_of(DEV6)}
    overlapping = len(dev6 & ({normalised(r) for r in sealed | dev | evals} | dev2 | dev3 | dev4 | dev5))
    assert overlapping == 0, f"{overlapping} dev6 requests repeat an earlier set's or an eval's"


@pytest.mark.parametrize(
    ("path", "per_skill", "near"),
    [(DEV2, 6, 20), (DEV3, 4, 10), (DEV4, 4, 12), (DEV5, 4, 12), (DEV6, 4, 12)],
    ids=["dev2", "dev3", "dev4", "dev5", "dev6"],
)
def test_the_later_sets_cover_every_skill_in_both_languages_and_name_their_sources(path, per_skill, near):
    cases = load_heldout_set(path).cases
    skills = {p.parent.name for p in SKILLS.glob("*/SKILL.md")}
    assert all(sum(c.expect == s for c in cases) >= per_skill for s in skills)
    assert sum(c.expect is None for c in cases) >= near
    assert all(c.source for c in cases)
    for group in [[c for c in cases if c.expect == s] for s in skills] + [[c for c in cases if c.expect is None]]:
        chinese = sum(bool(re.search(r"[\u4e00-\u9fff]", c.request)) for c in group)
        assert 0 < chinese < len(group), "each skill's requests and the near-misses come in English and Chinese"


@pytest.mark.parametrize("path", [SEALED, DEV], ids=["sealed", "dev"])
def test_each_half_has_ten_positives_per_skill_across_both_and_twenty_near_misses(path):
    cases = load_heldout_set(path).cases
    assert sum(c.expect is None for c in cases) >= 20
    both = load_heldout_set(SEALED).cases + load_heldout_set(DEV).cases
    skills = {c.expect for c in both if c.expect}
    assert all(sum(c.expect == s for c in both) >= 10 for s in skills)


def test_a_sealed_set_prints_rates_and_never_its_requests():
    result = invoke("--set", str(SEALED))
    for request in requests_of(SEALED):
        assert request not in result.output
    assert result.output.splitlines()[-1].startswith("sealed (sealed: rates only): right skill 84 requests ")
    data = json.loads(invoke("--set", str(SEALED), "--json").output)
    assert "misses" not in data and data["sealed"] is True
    assert data["positives"] == 84 and data["near_misses"] == 24


def test_a_dev_set_lists_each_miss_with_what_it_picked(tmp_path):
    path = tmp_path / "mini.json"
    path.write_text(
        json.dumps(
            {
                "name": "mini",
                "cases": [
                    {"request": "帮我把这篇论文做成组会PPT", "expect": "paper-to-slides"},
                    {"request": "make journal club slides from this paper", "expect": "paper-citations"},
                    {"request": "book a table for two", "expect": None},
                ],
            }
        )
    )
    result = invoke("--set", str(path))
    assert result.exit_code == 1  # one positive in three is wrong: under the 95% target
    assert result.output.splitlines() == [
        "paper-citations <- 'make journal club slides from this paper' picked paper-to-slides",
        "mini: right skill 2 requests 50.0%, near-misses left alone 1 requests 100.0%",
    ]


def test_a_set_naming_a_skill_the_bundle_lacks_says_so(tmp_path):
    path = tmp_path / "renamed.json"
    path.write_text(json.dumps({"name": "r", "cases": [{"request": "x y z", "expect": "no-such-skill"}]}))
    score = score_heldout(SKILLS, load_heldout_set(path))
    assert score.unknown_skills == ["no-such-skill"] and not score.meets_targets


def test_bad_set_files_are_one_line_errors(tmp_path):
    with pytest.raises(NotFoundError):
        load_heldout_set(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"cases": [{"request": "", "expect": null}]}')
    with pytest.raises(InvalidInputError, match="case 0"):
        load_heldout_set(bad)
    bad.write_text('{"cases": []}')
    with pytest.raises(InvalidInputError, match="non-empty 'cases'"):
        load_heldout_set(bad)
    result = invoke("--set", str(tmp_path / "missing.json"))
    assert result.exit_code == 1 and "does not exist" in result.output


@pytest.mark.xfail(
    strict=True,
    reason="sealed half measured at 89.3% right skill (target 95%) and 95.8% near-misses left alone (target 80%) "
    "in session 6 after tuning on dev..dev4 only (86.9% in session 5, 88.1% in session 4); remove this mark when "
    "the bundle meets both",
)
def test_the_sealed_half_meets_its_targets():
    score = score_heldout(SKILLS, load_heldout_set(SEALED))
    assert score.unknown_skills == []
    assert score.right_skill >= TARGET_RIGHT_SKILL and score.left_alone >= TARGET_LEFT_ALONE


def test_the_dev_half_meets_the_targets_it_was_tuned_on():
    score = score_heldout(SKILLS, load_heldout_set(DEV))
    assert score.unknown_skills == []
    assert score.meets_targets, score.misses


# What the tuning sets scored after session 11's two scorer changes (776ee92: dev2 108, dev3 54, dev4 68 positives),
# less one positive each: an edit that loses more than one positive, or any near-miss, of a set fails here, so a fix
# for one set cannot silently cost another. dev5 and dev6 are not here: they are held out of every decision
# (README.md, "Results").
TUNED_FLOORS = {DEV2: (107, 25), DEV3: (53, 12), DEV4: (67, 12)}


@pytest.mark.parametrize(("path", "floors"), TUNED_FLOORS.items(), ids=["dev2", "dev3", "dev4"])
def test_the_later_tuning_sets_keep_what_session_7_reached(path, floors):
    score = score_heldout(SKILLS, load_heldout_set(path))
    right = sum(c.expect == p for c, p in score.positives)
    alone = sum(p is None for _, p in score.near_misses)
    assert score.unknown_skills == []
    assert right >= floors[0] and alone >= floors[1], score.misses
