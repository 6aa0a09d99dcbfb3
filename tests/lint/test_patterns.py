"""`lazy_compile` answers exactly as `re.compile` does (the oracle), and compiles nothing until first used."""

from __future__ import annotations

import re

from skillbox.lint.patterns import lazy_compile

CASES = [(r"\b([A-Za-z_$][\w$]*)\s*\(", 0, "a(1); b (2); 3c(4)"), (r"caption", re.I, "x Caption y CAPTION"),
         (rb"[^\s>]*", 0, b"value>rest")]  # fmt: skip


def span(match):
    return match.span() if match else None


def test_every_method_matches_re():
    for pattern, flags, text in CASES:
        lazy, real = lazy_compile(pattern, flags), re.compile(pattern, flags)
        assert lazy._compiled is None  # nothing compiled at definition
        assert span(lazy.search(text)) == span(real.search(text))
        assert span(lazy.match(text)) == span(real.match(text))
        assert span(lazy.match(text, 1)) == span(real.match(text, 1))
        assert span(lazy.fullmatch(text)) == span(real.fullmatch(text))
        assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in real.finditer(text)]
        assert lazy.findall(text) == real.findall(text)
        assert lazy.split(text) == real.split(text)
        assert lazy.pattern == real.pattern and lazy.flags == real.flags
