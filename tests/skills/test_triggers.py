"""Trigger evals: every skill's requests pick that skill, its near misses do not, judged over the whole bundle."""

from __future__ import annotations

import functools
import json
import re

import pytest

from skillbox.errors import InvalidInputError, NotFoundError
from skillbox.skills.triggers import (
    EVALS_FLOOR,
    SkillDoc,
    TriggerIndex,
    evaluate,
    load_skill_docs,
    load_trigger_cases,
    split_exclusions,
    tokenize,
)
from tests.skills.conftest import SKILLS
from tests.skills.test_skill_bundle import ALL_SKILLS, PAPER

CJK = re.compile(r"[\u4e00-\u9fff]")


def test_tokenize_stems_english_and_bigrams_chinese():
    assert tokenize("Polishing the citations") == ["polish", "citat"]
    assert tokenize("帮我润色论文") == ["帮我", "我润", "润色", "色论", "论文"]
    assert tokenize("润 tl.play()") == ["润", "tl", "play"]


def test_index_prefers_the_description_that_owns_the_words():
    index = TriggerIndex(
        [
            SkillDoc("polish", "Polishes English prose of manuscripts. Use when editing wording (润色, 英文润色)."),
            SkillDoc("slides", "Builds PowerPoint slides from papers. Use when making a deck (幻灯片, 组会)."),
            SkillDoc("plots", "Makes matplotlib figures. Use when plotting data for a paper (作图)."),
        ]
    )
    # MIN_SCORE is set for the whole bundle; idf (and so every score) is smaller over three toy skills
    pick = functools.partial(index.pick, min_score=2.0)
    assert pick("please polish the wording of my manuscript") == "polish"
    assert pick("帮我把论文做成组会幻灯片") == "slides"
    assert pick("plot this data as a matplotlib figure") == "plots"
    assert pick("book a flight to Lisbon") is None
    assert pick("paper") is None  # one shared word is not a match


def test_a_request_word_reads_as_the_description_word_it_extends():
    index = TriggerIndex(
        [
            SkillDoc("anim", "Stagger tweens on a timeline. Use when animating lists."),
            SkillDoc("lint", "Lint and fix compositions. Use when checking a video project."),
        ]
    )
    pick = functools.partial(index.pick, min_score=1.0)
    # "staggerTo" and "linter" are in no description; a reader sees stagger and lint inside them
    assert pick("staggerTo on my timeline does nothing") == "anim"
    assert pick("run the linter on this video project") == "lint"
    # only description words of four letters or more are read inside a longer one: "fix" is not in "fixture"
    assert [matched for _, _, matched in index.score("fixture")] == [0, 0]


def test_the_use_when_sentence_counts_twice():
    own, _ = split_exclusions("x", "Formats tables. Use when asked for charts (图表).")
    assert own.count("chart") == 2 and own.count("tabl") == 1
    assert own.count("图表") == 2  # the Chinese gloss belongs to the sentence
    own, _ = split_exclusions("x", "Formats graphs. Use when asked for charts. Not for pie charts.")
    assert own.count("chart") == 2 and "pie" not in own


def test_a_not_for_clause_keeps_its_kind_of_request_away_and_only_its_own_words():
    index = TriggerIndex(
        [
            SkillDoc("replies", "Replies to reviewers of a manuscript. Not for customer reviews (客户投诉)."),
            SkillDoc("letters", "Writes letters to customers about a complaint or review."),
            SkillDoc("plots", "Makes matplotlib figures for a paper."),
        ]
    )
    pick = functools.partial(index.pick, min_score=1.0)
    assert pick("reply to the reviewers of my manuscript") == "replies"
    # "review" is the skill's own word elsewhere, so only "customer" (and 客户, 投诉) keep the request away; the
    # excluded words are not indexed as the skill's, so the request goes on to the skill that does own them
    assert pick("reply to this customer review") == "letters"
    assert pick("回复客户投诉 reviewers manuscript") != "replies"
    assert "custom" not in index._tf[0] and "review" in index._tf[0]
    # the clause runs to the end of its sentence, past a dotted name inside it
    own, excluded = split_exclusions("web", "Scroll animation on web pages. Not for Next.js routing or Vue stores.")
    assert {"rout", "store", "vue", "js"} <= excluded and "scroll" in own and "rout" not in own


def test_a_not_for_clause_excludes_its_own_words_not_the_words_its_stems_merge_with():
    """The stemmer makes "custom" of "customer": a rebuttal about a custom loss is not a customer complaint."""
    index = TriggerIndex(load_skill_docs(SKILLS))
    assert index.pick("Write a rebuttal to reviewer 2 who questions our custom loss function") == "paper-rebuttal"
    assert index.pick("Respond to the reviewers about our customized benchmark in the rebuttal") == "paper-rebuttal"
    assert index.pick("Reply to these angry customers' reviews on our app store page") is None  # plural, same word


def test_the_bundles_not_for_clauses_keep_their_near_misses_away():
    index = TriggerIndex(load_skill_docs(SKILLS))
    assert index.pick("Reply to the reviewers' comments on our manuscript point by point") == "paper-rebuttal"
    assert index.pick("Reply to this angry customer review on our app store page") is None
    assert index.pick("Polish the Discussion of my manuscript") == "paper-writing"
    assert index.pick("Write a cover letter for a software engineering job") is None


def test_ranking_is_deterministic_with_ties_broken_by_name():
    index = TriggerIndex([SkillDoc("b", "alpha beta"), SkillDoc("a", "alpha beta")])
    assert index.rank("alpha beta") == index.rank("alpha beta")
    assert [name for name, _ in index.rank("alpha beta")] == ["a", "b"]


def test_bad_trigger_files_are_clear_errors(tmp_path):
    (tmp_path / "evals").mkdir()
    with pytest.raises(NotFoundError):
        load_trigger_cases(tmp_path)
    (tmp_path / "evals" / "triggers.json").write_text('{"should_trigger": "one string"}')
    with pytest.raises(InvalidInputError, match="'should_trigger' must be a list"):
        load_trigger_cases(tmp_path)
    (tmp_path / "evals" / "triggers.json").write_text("{not json")
    with pytest.raises(InvalidInputError, match="invalid JSON"):
        load_trigger_cases(tmp_path)


@pytest.mark.parametrize("skill", ALL_SKILLS)
def test_each_skill_has_enough_trigger_requests_and_near_misses(skill):
    data = json.loads((SKILLS / skill / "evals" / "triggers.json").read_text(encoding="utf-8"))
    positives, negatives = data["should_trigger"], data["should_not_trigger"]
    assert len(positives) >= 8 and len(negatives) >= 8
    assert len(set(positives + negatives)) == len(positives) + len(negatives), "duplicate requests"
    if skill in PAPER:  # the paper family serves Chinese-speaking authors too
        assert sum(bool(CJK.search(r)) for r in positives) >= 2
        assert sum(not CJK.search(r) for r in positives) >= 2


def test_the_bundle_keeps_its_own_evals_above_the_floor():
    """The per-skill evals are development material (see EVALS_FLOOR); the held-out sealed set is the real
    measure (test_triggers_heldout.py)."""
    report = evaluate(SKILLS)
    assert len(report.results) >= 16 * len(ALL_SKILLS)
    failures = [
        f"{'should' if r.case.should_trigger else 'should NOT'} trigger {r.case.skill}: {r.case.request!r} "
        f"-> picked {r.picked}"
        for r in report.failures
    ]
    assert report.right_share >= EVALS_FLOOR, "\n".join(failures)
