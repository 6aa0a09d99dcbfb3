"""Module-level regular expressions compiled on first use, not at import.

Compiling the lint's two dozen module-level patterns cost about a tenth of a per-project `skillbox lint` process
(`re` compiles in Python, 50-450 us a pattern), and a given project uses only some of them (no captions, no
three.js, no `ignore` comments...). `lazy_compile`
takes the arguments of `re.compile` and returns an object with the `re.Pattern` methods the lint calls, which
compiles the pattern the first time one of them is used.
"""

from __future__ import annotations

from skillbox.lint import regex_cache
from skillbox.lint.regex_cache import DOTALL, IGNORECASE, MULTILINE, escape  # noqa: F401 - re-exported: `rx.escape`


class LazyPattern:
    __slots__ = ("_args", "_compiled", "_folded", "needs")

    def __init__(self, pattern: str | bytes, flags: int = 0, needs: tuple = ()) -> None:
        self._args = (pattern, flags)
        self._compiled = None
        self.needs = needs
        self._folded = bool(flags & IGNORECASE)
        if needs:
            CONDITIONAL.append(self)

    def _absent(self, string) -> bool:
        """True when no match is possible: the pattern declares substrings one of which every match contains, and
        the subject has none of them (then nothing is compiled). A re.IGNORECASE pattern declares them in lower
        case and is decided here only for ASCII subjects (in Unicode mode `k` also matches the Kelvin sign, `s`
        the long s, `i` the dotless i)."""
        needs = self.needs
        if not needs:
            return False
        if self._folded:
            if not string.isascii():
                return False
            string = string.lower()
        return all(need not in string for need in needs)

    def compiled(self):
        """The `re.Pattern`."""
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = regex_cache.compile(*self._args)
        return compiled

    @property
    def pattern(self):
        return self._args[0]

    @property
    def flags(self) -> int:
        return self.compiled().flags

    def search(self, string, *args):
        if self._absent(string):
            return None
        return self.compiled().search(string, *args)

    def match(self, string, *args):
        if self._absent(string):
            return None
        return self.compiled().match(string, *args)

    def fullmatch(self, string, *args):
        if self._absent(string):
            return None
        return self.compiled().fullmatch(string, *args)

    def finditer(self, string, *args):
        if self._absent(string):
            return iter(())
        return self.compiled().finditer(string, *args)

    def findall(self, string, *args):
        if self._absent(string):
            return []
        return self.compiled().findall(string, *args)

    def sub(self, repl, string, *args):
        if self._absent(string):
            return string
        return self.compiled().sub(repl, string, *args)

    def split(self, string, *args):
        if self._absent(string):
            return [string]
        return self.compiled().split(string, *args)

    def __repr__(self) -> str:
        return f"lazy_compile({self._args[0]!r}, {self._args[1]!r})"


def has_word(text: str, word: str) -> bool:
    """`re.search(rf"\\b{re.escape(word)}\\b", text) is not None` without compiling a pattern per word: an
    occurrence with a word boundary (one side a word character, `str.isalnum()` or `_`, the other not) at each end."""
    size = len(word)
    start = text.find(word)
    while start >= 0:
        end = start + size
        if _boundary(text, start) and _boundary(text, end):
            return True
        start = text.find(word, start + 1)
    return False


def _boundary(text: str, at: int) -> bool:
    before = at > 0 and (text[at - 1].isalnum() or text[at - 1] == "_")
    after = at < len(text) and (text[at].isalnum() or text[at] == "_")
    return before != after


CONDITIONAL: list[LazyPattern] = []  # the patterns with `needs` (tests/lint/test_patterns.py checks each claim)


def lazy_compile(pattern: str | bytes, flags: int = 0, *, needs: tuple = ()) -> LazyPattern:
    """`re.compile(pattern, flags)`, deferred to the first search / match / finditer / findall / sub / split.

    `needs`: substrings of which every match contains at least one (lower case for re.IGNORECASE); a subject
    without any of them gives the no-match answer (None, [], an empty iterator, the string unchanged, [string]) without
    compiling. A typical project then compiles only the patterns whose trigger text it has. Only for patterns
    that cannot match the empty string."""
    return LazyPattern(pattern, flags, needs)


# `re`'s module-level functions for patterns written where they are used, compiled once per process through the
# regex cache (as `re`'s own cache would), so that no lint module needs `re` itself. A pattern built from the
# document's own text (a parameter or timeline name) passes `keep=False`: it is compiled by `re` and never written
# to the cache file, which holds only the linter's own patterns (a bounded set, like bytecode).
_COMPILED: dict = {}


def compiled(pattern: str | bytes, flags: int = 0, *, keep: bool = True):
    """`re.compile(pattern, flags)`, once per process; `keep=False` for a pattern made from user text (left to
    `re`'s own bounded cache, so a whole-corpus run does not keep one per name it met)."""
    if not keep:
        return regex_cache.compile(pattern, flags, keep=False)
    key = (pattern, flags)
    found = _COMPILED.get(key)
    if found is None:
        found = _COMPILED[key] = regex_cache.compile(pattern, flags)
    return found


def search(pattern, string, flags: int = 0, *, keep: bool = True):
    return compiled(pattern, flags, keep=keep).search(string)


def match(pattern, string, flags: int = 0):
    return compiled(pattern, flags).match(string)


def fullmatch(pattern, string, flags: int = 0):
    return compiled(pattern, flags).fullmatch(string)


def findall(pattern, string, flags: int = 0):
    return compiled(pattern, flags).findall(string)


def finditer(pattern, string, flags: int = 0):
    return compiled(pattern, flags).finditer(string)


def split(pattern, string, flags: int = 0):
    return compiled(pattern, flags).split(string)


def sub(pattern, repl, string, flags: int = 0):
    return compiled(pattern, flags).sub(repl, string)
