"""Module-level regular expressions compiled on first use, not at import.

Compiling the lint's two dozen module-level patterns cost about a tenth of a per-project `skillbox lint` process,
and a given project uses only some of them (no captions, no three.js, no `ignore` comments...). `lazy_compile`
takes the arguments of `re.compile` and returns an object with the `re.Pattern` methods the lint calls, which
compiles the pattern the first time one of them is used.
"""

from __future__ import annotations

import re


class LazyPattern:
    __slots__ = ("_args", "_compiled")

    def __init__(self, pattern: str | bytes, flags: int = 0) -> None:
        self._args = (pattern, flags)
        self._compiled: re.Pattern | None = None

    def compiled(self) -> re.Pattern:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(*self._args)
        return compiled

    @property
    def pattern(self):
        return self._args[0]

    @property
    def flags(self) -> int:
        return self.compiled().flags

    def search(self, *args):
        return self.compiled().search(*args)

    def match(self, *args):
        return self.compiled().match(*args)

    def fullmatch(self, *args):
        return self.compiled().fullmatch(*args)

    def finditer(self, *args):
        return self.compiled().finditer(*args)

    def findall(self, *args):
        return self.compiled().findall(*args)

    def sub(self, *args):
        return self.compiled().sub(*args)

    def split(self, *args):
        return self.compiled().split(*args)

    def __repr__(self) -> str:
        return f"lazy_compile({self._args[0]!r}, {self._args[1]!r})"


def lazy_compile(pattern: str | bytes, flags: int = 0) -> LazyPattern:
    """`re.compile(pattern, flags)`, deferred to the first search / match / finditer / findall / sub / split."""
    return LazyPattern(pattern, flags)
