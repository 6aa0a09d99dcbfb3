"""Skills and slash commands that talk about HyperFrames or GSAP quote lint codes; every code they quote must
exist, or agents chase a rule the linter does not have (the upstream skills did exactly that)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from skillbox.lint.registry import all_rules

REPO = Path(__file__).resolve().parents[2]
CODE = re.compile(r"`([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`")
IGNORE_SYNTAX = re.compile(r"skillbox-lint:\s*ignore(?:-file)?\[([^\]]*)\]")
SELECT_FLAG = re.compile(r"--(?:select|ignore)[ =]([a-z0-9_,]+)")


def documents() -> list[Path]:
    found = []
    for folder in ("skills", "commands"):
        root = REPO / folder
        if root.is_dir():
            found.extend(p for p in root.rglob("*.md") if re.search(r"hyperframes|gsap|lint", str(p), re.I))
    return sorted(found)


def quoted_codes(text: str) -> set[str]:
    codes = set()
    if re.search(r"hyperframes|skillbox lint", text, re.I):
        codes |= set(CODE.findall(text))
    for match in IGNORE_SYNTAX.finditer(text):
        codes |= {c.strip() for c in match.group(1).split(",") if c.strip()}
    for match in SELECT_FLAG.finditer(text):
        codes |= {c for c in match.group(1).split(",") if c}
    return codes


def test_quoted_codes_are_recognised_by_the_extractor():
    text = "Run `skillbox lint` — fix `video_missing_muted`; <!-- skillbox-lint: ignore[duplicate_id] --> --select gsap"
    assert quoted_codes(text) == {"video_missing_muted", "duplicate_id", "gsap"}


@pytest.mark.parametrize("path", documents() or [None], ids=lambda p: str(p.relative_to(REPO)) if p else "none")
def test_every_lint_code_a_skill_quotes_exists(path):
    if path is None:
        pytest.skip("no HyperFrames/GSAP skill or lint command in this checkout yet")
    rules = all_rules()
    known = set(rules) | {r.group for r in rules.values()}
    text = path.read_text(encoding="utf-8")
    # Only judge snake_case words that look like our codes: they name a rule group's vocabulary.
    candidates = {c for c in quoted_codes(text) if c in known or _looks_like_lint_code(c)}
    unknown = sorted(candidates - known)
    assert not unknown, f"{path.relative_to(REPO)} quotes lint codes that do not exist: {unknown}"


LINT_WORDS = ("missing", "timeline", "gsap", "media", "video", "audio", "caption", "font", "root", "clip", "track",
              "composition", "duplicate", "invalid", "deprecated", "css")  # fmt: skip


def _looks_like_lint_code(word: str) -> bool:
    return any(part in LINT_WORDS for part in word.split("_"))
