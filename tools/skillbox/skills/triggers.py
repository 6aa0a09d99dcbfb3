"""Offline trigger check: which skill of the bundle would a request pick, judged only by the descriptions.

Claude Code decides whether to load a skill from its description alone, so a description that shares its key words
with a sibling's gets the sibling's requests. This scorer is a cheap, deterministic stand-in for that choice: Okapi
BM25 over every skill's name and description. It is not a model of Claude's judgement; it catches the confusions a
reader would also make (two skills owning the same words), which is what descriptions can be tuned against.

Tokens: English words are lower-cased, stop words dropped and Snowball-stemmed ("citations" and "cite" stay apart,
"citation" and "citations" meet). Chinese has no spaces, so each run of CJK characters becomes its overlapping
character bigrams ("润色论文" -> 润色, 色论, 论文), the usual dictionary-free way to index Chinese. A request word that
no description has but that extends one of at least four letters counts as that word ("scrubber" -> scrub, "linter"
-> lint, "staggered" is already "stagger"): a reader sees the word inside it; the stemmer only knows inflections.

The "Use when ..." sentence (with its Chinese gloss) is the description's own statement of when to load the skill, the
part a reader matches a request against first: its terms count twice (BM25F-style, one field weighted 2).

A description may end a sentence with "Not for ...": the kinds of request a reader would keep away from it (job
applications for a manuscript-writing skill). Those words are not indexed as the skill's own, and a request that uses
one of them that the rest of the description does not ("customer" in "Not for customer reviews", not "review") is
passed on to the next-best skill, as a reader who has read the exclusion would.

Each skill folder may hold `evals/triggers.json`: {"should_trigger": [...], "should_not_trigger": [...]}. A
should-trigger request must pick its own skill; a near miss must not pick it (another skill or none is fine).
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import snowballstemmer
import yaml

from skillbox.errors import InvalidInputError, NotFoundError

# BM25 constants: the textbook values. Descriptions are short and similar in length, so b matters little.
K1 = 1.2
B = 0.75
# A pick needs both: a score of at least MIN_SCORE and at least MIN_TERMS distinct request terms found in the
# description. One shared word ("plugin", "review") is not evidence that a request is about a skill.
MIN_SCORE = 3.0
MIN_TERMS = 2
# A request term no description has is read as the longest description term it starts with, if that one has at least
# this many letters (English only; a CJK bigram has no inner word).
MIN_STEM_PREFIX = 4
# The per-skill evals/triggers.json were written next to the descriptions and name narrow API words (DrawSVG,
# quickTo, accession numbers) that a description budgeted for Claude Code's skill listing cannot all carry. They
# are development material: the bundle must keep at least this share right. The figure that counts is the
# held-out sealed set (tests/skills/heldout/), scored against TARGET_RIGHT_SKILL / TARGET_LEFT_ALONE below.
EVALS_FLOOR = 0.85

_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# "Not for posters (海报)." up to the end of its sentence: a full stop followed by a space or the end, so a name
# such as Next.js inside the clause does not cut it short.
_NOT_FOR = re.compile(r"\bNot for\b.*?(?=\.(?:\s|$)|$)")
# "Use when adding citations, checking a .bib (加引用、…)." up to the end of its sentence, as for "Not for".
_USE_WHEN = re.compile(r"\bUse when\b.*?(?=\.(?:\s|$)|$)")
USE_WHEN_WEIGHT = 2
_TOKEN = re.compile(rf"[{_CJK}]+|[a-z0-9]+(?:'[a-z0-9]+)*")
_STEMMER = snowballstemmer.stemmer("english")
STOP_WORDS = frozenset(
    """a about an and any are as at be been but by can could do does for from has have how i if in into is it its
    me my of on or our please should so than that the their them then there these this those to us use used using
    want was we what when where which while who will with would you your i'd i'm it's let let's need""".split()  # noqa: SIM905
)


def tokenize(text: str) -> list[str]:
    """Index terms of `text`: stemmed English words and Chinese character bigrams."""
    return [term for term, _word in _terms_and_words(text)]


def _terms_and_words(text: str) -> list[tuple[str, str]]:
    """(index term, the word it came from, a final plural "s" dropped) for each term of `text`: the stemmer makes
    one term of words a reader keeps apart ("customer" and "custom"), so a "Not for" clause is matched by word."""
    pairs: list[tuple[str, str]] = []
    for match in _TOKEN.finditer(text.lower()):
        word = match.group()
        if re.match(rf"[{_CJK}]", word):
            if len(word) == 1:
                pairs.append((word, word))
            else:
                pairs.extend((word[i : i + 2], word[i : i + 2]) for i in range(len(word) - 1))
        elif word not in STOP_WORDS:
            word = word.replace("'", "")
            plain = word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word
            pairs.append((_STEMMER.stemWord(word), plain))
    return pairs


@dataclass(frozen=True)
class SkillDoc:
    name: str
    description: str
    path: Path | None = None


def read_frontmatter(skill_md: Path) -> dict:
    """The YAML mapping between the leading `---` fences of a SKILL.md (or a command .md)."""
    text = skill_md.read_text(encoding="utf-8")
    parts = text.split("---", 2)
    if not text.startswith("---") or len(parts) < 3:
        raise InvalidInputError(f"{skill_md}: no YAML frontmatter between '---' lines")
    data = yaml.safe_load(parts[1])
    if not isinstance(data, dict):
        raise InvalidInputError(f"{skill_md}: frontmatter is not a mapping")
    return data


def load_skill_docs(skills_dir: Path) -> list[SkillDoc]:
    """Every `<skills_dir>/<name>/SKILL.md`, sorted by name."""
    if not skills_dir.is_dir():
        raise NotFoundError(f"no skills folder at {skills_dir}")
    docs = []
    for skill_md in sorted(skills_dir.glob("*/SKILL.md")):
        meta = read_frontmatter(skill_md)
        docs.append(SkillDoc(str(meta.get("name", skill_md.parent.name)), str(meta.get("description", "")), skill_md))
    return docs


def split_exclusions(name: str, description: str) -> tuple[list[str], frozenset[str]]:
    """(the terms a skill owns, the terms only its "Not for ..." clauses name) for one description."""
    own, excluded = _own_and_excluded(name, description)
    return own, frozenset(term for term, _word in excluded)


def _own_and_excluded(name: str, description: str) -> tuple[list[str], frozenset[tuple[str, str]]]:
    """(the terms a skill owns, (term, word) of each word only its "Not for ..." clauses name)."""
    text = _NOT_FOR.sub(" ", description)
    own = tokenize(f"{name.replace('-', ' ')} {text}")
    own += tokenize(" ".join(_USE_WHEN.findall(text))) * (USE_WHEN_WEIGHT - 1)
    owned = set(own)
    excluded = {
        pair
        for clause in _NOT_FOR.findall(description)
        for pair in _terms_and_words(clause[len("Not for") :])
        if pair[0] not in owned
    }
    return own, frozenset(excluded)


class TriggerIndex:
    """BM25 over skill documents (name + description); ranks skills for a request."""

    def __init__(self, docs: list[SkillDoc]):
        if not docs:
            raise InvalidInputError("no skills to index")
        self.docs = docs
        split = [_own_and_excluded(d.name, d.description) for d in docs]
        self._tf = [Counter(own) for own, _ in split]
        self._excluded = {d.name: excluded for d, (_, excluded) in zip(docs, split, strict=True)}
        self._len = [sum(tf.values()) for tf in self._tf]
        self._avg = sum(self._len) / len(self._len)
        df = Counter(term for tf in self._tf for term in tf)
        n = len(docs)
        self._idf = {term: math.log(1 + (n - f + 0.5) / (f + 0.5)) for term, f in df.items()}
        # Longest first, so "scrubber" reads as "scrub" rather than a shorter term it also starts with.
        self._prefixes = sorted(
            (t for t in df if len(t) >= MIN_STEM_PREFIX and not re.match(rf"[{_CJK}]", t)), key=len, reverse=True
        )

    def _as_indexed(self, term: str) -> str:
        """`term` itself if some description has it, else the longest description term it extends, else `term`."""
        if term in self._idf or re.match(rf"[{_CJK}]", term):
            return term
        return next((t for t in self._prefixes if term.startswith(t)), term)

    def score(self, request: str) -> list[tuple[str, float, int]]:
        """(skill, BM25 score, distinct request terms matched) for every skill, best first; ties by name."""
        query = [self._as_indexed(term) for term in tokenize(request)]
        scores = []
        for doc, tf, length in zip(self.docs, self._tf, self._len, strict=True):
            score, matched = 0.0, set()
            for term in query:
                f = tf.get(term, 0)
                if f:
                    matched.add(term)
                    norm = K1 * (1 - B + B * length / self._avg)
                    score += self._idf[term] * f * (K1 + 1) / (f + norm)
            scores.append((doc.name, round(score, 4), len(matched)))
        return sorted(scores, key=lambda item: (-item[1], item[0]))

    def rank(self, request: str) -> list[tuple[str, float]]:
        """All skills with their score for `request`, best first (ties by name, so the order is stable)."""
        return [(name, score) for name, score, _ in self.score(request)]

    def pick(self, request: str, min_score: float = MIN_SCORE, min_terms: int = MIN_TERMS) -> str | None:
        """The skill this request would load, or None when the best match is too weak (see MIN_SCORE).

        A skill whose "Not for" words the request uses is skipped for the next-best one, under the same rule: the
        same word, not one the stemmer merges with it ("custom loss" is not "customer complaints")."""
        terms = set(_terms_and_words(request))
        for name, score, matched in self.score(request):
            if score < min_score or matched < min_terms:
                return None
            if not terms & self._excluded[name]:
                return name
        return None


@dataclass(frozen=True)
class TriggerCase:
    skill: str
    request: str
    should_trigger: bool


@dataclass(frozen=True)
class TriggerResult:
    case: TriggerCase
    picked: str | None
    runner_up: str | None

    @property
    def ok(self) -> bool:
        if self.case.should_trigger:
            return self.picked == self.case.skill
        return self.picked != self.case.skill


@dataclass
class TriggerReport:
    results: list[TriggerResult] = field(default_factory=list)

    @property
    def failures(self) -> list[TriggerResult]:
        return [r for r in self.results if not r.ok]

    @property
    def right_share(self) -> float:
        return (len(self.results) - len(self.failures)) / len(self.results) if self.results else 1.0

    @property
    def meets_floor(self) -> bool:
        return self.right_share >= EVALS_FLOOR

    @property
    def confusions(self) -> list[TriggerResult]:
        """Failures where a request went to (or was taken by) another skill of the bundle, not to nothing."""
        return [r for r in self.failures if r.picked is not None]

    def to_json(self) -> dict:
        return {
            "cases": len(self.results),
            "right_share": round(self.right_share, 4),
            "floor": EVALS_FLOOR,
            "failures": [
                {
                    "skill": r.case.skill,
                    "request": r.case.request,
                    "should_trigger": r.case.should_trigger,
                    "picked": r.picked,
                }
                for r in self.failures
            ],
        }


def load_trigger_cases(skill_dir: Path) -> list[TriggerCase]:
    """The cases in `<skill_dir>/evals/triggers.json`."""
    path = skill_dir / "evals" / "triggers.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise NotFoundError(f"{path} does not exist") from None
    except json.JSONDecodeError as err:
        raise InvalidInputError(f"{path}: invalid JSON ({err})") from None
    cases = []
    for key, expected in (("should_trigger", True), ("should_not_trigger", False)):
        requests = data.get(key)
        if not isinstance(requests, list) or not all(isinstance(r, str) and r.strip() for r in requests):
            raise InvalidInputError(f"{path}: '{key}' must be a list of non-empty strings")
        cases.extend(TriggerCase(skill_dir.name, request, expected) for request in requests)
    return cases


def evaluate(skills_dir: Path, min_score: float = MIN_SCORE) -> TriggerReport:
    """Score every trigger case of every skill under `skills_dir` against all the bundle's descriptions."""
    docs = load_skill_docs(skills_dir)
    index = TriggerIndex(docs)
    report = TriggerReport()
    for doc in docs:
        skill_dir = doc.path.parent
        if not (skill_dir / "evals" / "triggers.json").exists():
            continue
        for case in load_trigger_cases(skill_dir):
            ranking = index.rank(case.request)
            picked = index.pick(case.request, min_score)
            runner_up = ranking[1][0] if len(ranking) > 1 else None
            report.results.append(TriggerResult(case, picked, runner_up))
    return report


# ---- held-out sets ---------------------------------------------------------------------------------------------
# A held-out set is requests written apart from the descriptions (tests/skills/heldout/): positives name the skill
# they belong to, near-misses (`expect: null`) belong to no skill. A sealed set is only ever reported as rates, so
# nobody tunes a description to one of its requests.

TARGET_RIGHT_SKILL = 0.95  # positives that pick their own skill
TARGET_LEFT_ALONE = 0.80  # near-misses that pick no skill


@dataclass(frozen=True)
class HeldOutCase:
    request: str
    expect: str | None
    source: str = ""


@dataclass(frozen=True)
class HeldOutSet:
    name: str
    sealed: bool
    cases: tuple[HeldOutCase, ...]


def load_heldout_set(path: Path) -> HeldOutSet:
    """A held-out set file: {"name", "sealed", "cases": [{"request", "expect", "source"}, ...]}."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise NotFoundError(f"{path} does not exist") from None
    except json.JSONDecodeError as err:
        raise InvalidInputError(f"{path}: invalid JSON ({err})") from None
    rows = data.get("cases") if isinstance(data, dict) else None
    if not isinstance(rows, list) or not rows:
        raise InvalidInputError(f"{path}: needs a non-empty 'cases' list")
    cases = []
    for i, row in enumerate(rows):
        request = row.get("request") if isinstance(row, dict) else None
        expect = row.get("expect") if isinstance(row, dict) else None
        if not isinstance(request, str) or not request.strip() or not (expect is None or isinstance(expect, str)):
            raise InvalidInputError(f"{path}: case {i} needs a 'request' string and an 'expect' skill or null")
        cases.append(HeldOutCase(request, expect, str(row.get("source", ""))))
    return HeldOutSet(str(data.get("name", Path(path).stem)), bool(data.get("sealed", False)), tuple(cases))


@dataclass
class HeldOutScore:
    set: HeldOutSet
    picks: list[tuple[HeldOutCase, str | None]]
    unknown_skills: list[str]

    @property
    def positives(self) -> list[tuple[HeldOutCase, str | None]]:
        return [(c, p) for c, p in self.picks if c.expect is not None]

    @property
    def near_misses(self) -> list[tuple[HeldOutCase, str | None]]:
        return [(c, p) for c, p in self.picks if c.expect is None]

    @property
    def right_skill(self) -> float:
        pos = self.positives
        return sum(c.expect == p for c, p in pos) / len(pos) if pos else 1.0

    @property
    def left_alone(self) -> float:
        near = self.near_misses
        return sum(p is None for _, p in near) / len(near) if near else 1.0

    @property
    def meets_targets(self) -> bool:
        return self.right_skill >= TARGET_RIGHT_SKILL and self.left_alone >= TARGET_LEFT_ALONE

    @property
    def misses(self) -> list[tuple[HeldOutCase, str | None]]:
        """The cases scored wrong; empty for a sealed set, whose items are never shown."""
        if self.set.sealed:
            return []
        return [(c, p) for c, p in self.picks if (p != c.expect if c.expect else p is not None)]

    def to_json(self) -> dict:
        out = {
            "set": self.set.name,
            "sealed": self.set.sealed,
            "positives": len(self.positives),
            "near_misses": len(self.near_misses),
            "right_skill": round(self.right_skill, 4),
            "left_alone": round(self.left_alone, 4),
            "targets": {"right_skill": TARGET_RIGHT_SKILL, "left_alone": TARGET_LEFT_ALONE},
            "meets_targets": self.meets_targets,
            "unknown_skills": self.unknown_skills,
        }
        if not self.set.sealed:
            out["misses"] = [{"request": c.request, "expect": c.expect, "picked": p} for c, p in self.misses]
        return out


def score_heldout(skills_dir: Path, heldout: HeldOutSet, min_score: float = MIN_SCORE) -> HeldOutScore:
    """Pick a skill for every case of `heldout` over the bundle in `skills_dir`.

    Skills a case expects but the bundle lacks are listed in `unknown_skills` (those cases can only fail), so a
    renamed skill shows up as a named problem instead of a silent drop in the rate.
    """
    index = TriggerIndex(load_skill_docs(skills_dir))
    names = {d.name for d in index.docs}
    unknown = sorted({c.expect for c in heldout.cases if c.expect and c.expect not in names})
    picks = [(case, index.pick(case.request, min_score)) for case in heldout.cases]
    return HeldOutScore(heldout, picks, unknown)
