"""Finding Chinese, Japanese and Korean text by any substring, beside the unicode61 index.

FTS5's unicode61 tokenizer splits on spaces and punctuation, so a run of Han characters — a whole Chinese clause —
is ONE token: `负数` cannot find "修复购物车数量可以变成负数的 bug". Each FTS index therefore has one more column,
`cjk`, filled by the SQL function `skillbox_cjk(...)` (registered on every connection the Store opens, used by the
triggers): every CJK run of the row's text becomes its overlapping bigrams plus its last character
(`负数的` -> `负数 数的 的`). A query's CJK run becomes the phrase of its bigrams in that column (`购物车` ->
`cjk:"购物 物车"`, adjacent, so only the real substring matches); a single character matches as a prefix of a
bigram. Rows without CJK text have an empty `cjk` column, so English ranking is unchanged.

Why bigrams and not FTS5's trigram tokenizer: trigrams cannot match a query shorter than three characters, and
two-character words are the commonest in Chinese and Japanese.
"""

from __future__ import annotations

import re

# Han (with extensions and compatibility ideographs), kana, Hangul, and the iteration / prolonged-sound marks.
_RUN = (
    "[\u3005\u3006\u3007\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u3400-\u4dbf\u4e00-\u9fff"
    "\uac00-\ud7a3\uf900-\ufaff\U00020000-\U0003134f]+"
)
_run_re: re.Pattern | None = None


def _runs(text: str) -> list[str]:
    global _run_re
    if _run_re is None:
        _run_re = re.compile(_RUN)
    return _run_re.findall(text)


def _has_cjk(text: str) -> bool:
    # Every CJK code point is above U+3000; ASCII-only text (most of memory) skips the regex.
    return not text.isascii() and bool(_runs(text))


def run_terms(run: str) -> list[str]:
    """The tokens one CJK run is indexed as: overlapping bigrams, then its last character."""
    return [run[i : i + 2] for i in range(len(run) - 1)] + [run[-1]]


def index_terms(*values) -> str:
    """`skillbox_cjk(col, ...)`: the `cjk` column's text for a row (empty when the row has no CJK text)."""
    terms: list[str] = []
    for value in values:
        if isinstance(value, str) and value and not value.isascii():
            for run in _runs(value):
                terms += run_terms(run)
    return " ".join(terms)


def term_expression(term: str, *, prefix: bool) -> str:
    """One query term as an FTS5 expression: the quoted term as before, or for a term with CJK runs, the term OR
    every run as a bigram phrase in the `cjk` column (with the term's other letters as plain terms)."""
    plain = f'"{term}"*' if prefix else f'"{term}"'
    if not _has_cjk(term):
        return plain
    parts: list[str] = []
    rest = term
    for run in _runs(term):
        before, _, rest = rest.partition(run)
        if before:
            parts.append(f'"{before}"')
        if len(run) == 1:
            parts.append(f'cjk : "{run}"*')
        else:
            parts.append(f'cjk : "{" ".join(run[i : i + 2] for i in range(len(run) - 1))}"')
    if rest:
        parts.append(f'"{rest}"*' if prefix else f'"{rest}"')
    return f"({plain} OR ({' AND '.join(parts)}))"


def register(conn) -> None:
    """Make `skillbox_cjk` available on a connection (the FTS triggers and the `*_fts_src` views call it)."""
    conn.create_function("skillbox_cjk", -1, index_terms, deterministic=True)
