"""Titles compared the way a reader compares them, in every script.

Why not ASCII folding: it turns a Chinese, Japanese, Arabic or Devanagari title into an empty string, and two empty
strings are "equal", so any wrong title passed. Why not a plain similarity ratio alone: "…mortality in men" and
"…in women", "part I" and "part II", "Phase 2" and "Phase 3" are 0.97 alike and are different papers. So a title is
split into words (for scripts written without spaces, Chinese, Japanese, Thai: into characters), and two titles
match only when they are alike overall AND every word that differs is a near-spelling of a word on the other side
(a typo), never a different number, numeral or word.
"""

from __future__ import annotations

import difflib
import html
import re
import unicodedata

# Scripts written without spaces between words: each character is a word of its own.
_UNSPACED = re.compile(
    "[\u3040-\u30ff\u3100-\u312f\u31a0-\u31bf\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f\u0e00-\u0e7f]"
)
STOP_WORDS = frozenset(
    ["a", "an", "the", "of", "and", "or", "in", "on", "for", "to", "with", "by", "at", "from", "as", "its", "their"]
)
ROMAN = re.compile(r"^(?=[ivxlcdm]+$)m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
TYPO_SIMILARITY = 0.8  # a claimed word this close to a real one is a misspelling of it
MATCH = 0.9  # overall similarity of two titles of the same work


def clean_text(text: str | None) -> str:
    """What a reader sees: JATS/HTML tags dropped (`<i>`), entities decoded (`&amp;`), white space folded."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", text or "")).split())


def _fold(char: str) -> str:
    """Latin letters lose their accents (Müller = Muller); every other script is kept as written."""
    base = unicodedata.normalize("NFKD", char)
    return base[0] if base[0].isascii() and base[0].isalpha() else char


def words(text: str) -> list[str]:
    """The words of a title: NFKC, case-folded, Latin accents dropped; combining marks (Devanagari vowel signs,
    Arabic harakat) stay inside their word; characters of unspaced scripts are words of their own."""
    folded = "".join(_fold(c) for c in unicodedata.normalize("NFKC", clean_text(text)).casefold())
    out: list[str] = []
    current: list[str] = []
    for char in folded:
        if _UNSPACED.match(char):
            if current:
                out.append("".join(current))
                current = []
            out.append(char)
        elif char.isalnum() or (current and unicodedata.category(char).startswith("M")):
            current.append(char)
        elif current:
            out.append("".join(current))
            current = []
    if current:
        out.append("".join(current))
    return out


def key(text: str) -> str:
    """A comparable form of a title: its words, unspaced-script characters joined without spaces."""
    out: list[str] = []
    for word in words(text):
        if out and not (_UNSPACED.match(word) and _UNSPACED.match(out[-1][-1])):
            out.append(" ")
        out.append(word)
    return "".join(out)


def similarity(a: str, b: str) -> float:
    """0..1 likeness of two titles; 0 when either has nothing comparable (never "equal because both empty")."""
    left, right = key(a), key(b)
    if not left or not right:
        return 0.0
    return difflib.SequenceMatcher(None, left, right, autojunk=False).ratio()


def _numeric(word: str) -> bool:
    return word.isdigit() or bool(ROMAN.match(word)) or any(c.isdigit() for c in word)


def differing_words(claimed: str, actual: str) -> list[tuple[str, str]]:
    """Words of one title with no counterpart in the other that a typo explains: (word, side). Numbers and numerals
    must match exactly; unspaced-script characters too (a different character is a different word)."""
    left, right = words(claimed), words(actual)
    left_set, right_set = set(left), set(right)
    out = []
    for mine, theirs, side in ((left, right_set, "claimed"), (right, left_set, "actual")):
        for word in mine:
            if word in theirs or word in STOP_WORDS:
                continue
            typo = (
                not _numeric(word)
                and not _UNSPACED.match(word)
                and len(word) > 3
                and any(
                    not _numeric(other) and difflib.SequenceMatcher(None, word, other).ratio() >= TYPO_SIMILARITY
                    for other in theirs
                )
            )
            if not typo:
                out.append((word, side))
    return out


def same_title(claimed: str, actual: str) -> tuple[bool, float, list[tuple[str, str]]]:
    """Whether `claimed` names the work titled `actual`: (verdict, similarity, the words that differ)."""
    ratio = similarity(claimed, actual)
    differ = differing_words(claimed, actual)
    return ratio >= MATCH and not differ, ratio, differ
