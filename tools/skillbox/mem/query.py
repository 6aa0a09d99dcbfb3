"""From the words a person types to an FTS5 expression: which words count, and which forms of them match.

A question like "When did Calvin first travel to Tokyo?" carries three words that say what to find (calvin,
travel, tokyo) and four that only make it a sentence. Requiring the filler words lets almost nothing match every
word; OR-ing them lets every record match. So English function words are dropped, unless the query has nothing
else. The index stores words as written (unicode61, no stemmer: the schema is shared with every install), so
stemming happens on the query side: each kept word becomes itself plus the inflections of its root, OR-ed —
`hiking` finds hike, hikes, hiked, hiking; `studies` finds study, studied — so a question and a record that word a
thing differently still meet. Root finding is deliberately light (Porter's step 1). bm25 still weighs each form by
how rare it is, so the remaining common words (a speaker's name, "file") count for little.
Standard library only; no query syntax reaches FTS5 unquoted.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"\w+", re.UNICODE)

# Function words and question words of English: they carry no topic. Negations ("not", "no") and words that
# often carry meaning in this domain ("test", "file", "error", "first", "last") are deliberately kept.
STOP_WORDS = frozenset(
    """
    a about above after again against all am an and any are as at be because been before being below between both
    but by can could did do does doing down during each few for from further had has have having he her here hers
    herself him himself his how i if in into is it its itself just me more most my myself of off on once only or
    other our ours ourselves out over own same she should so some such than that the their theirs them themselves
    then there these they this those through to too under until up very was we were what when where which while
    who whom why will with would you your yours yourself yourselves s t d ll m re ve also ever
    """.split()  # noqa: SIM905 - reads better as one paragraph
)


class Term:
    """One word of the query and the FTS5 strings that stand for it: quoted forms, `*` marking a prefix."""

    __slots__ = ("forms", "word")

    def __init__(self, word: str, forms: tuple[str, ...]):
        self.word = word
        self.forms = forms

    def expression(self) -> str:
        return self.forms[0] if len(self.forms) == 1 else "(" + " OR ".join(self.forms) + ")"

    def __repr__(self) -> str:
        return f"Term({self.word!r}, {self.expression()})"


def words_of(text: str) -> list[str]:
    """Lower-cased words in order, each once."""
    return list(dict.fromkeys(w.lower() for w in _WORD.findall(text or "")))


def _root(word: str) -> tuple[str, bool]:
    """The word without its inflection (Porter's step 1, lightly), and whether a verb ending was removed."""
    if len(word) > 4 and word.endswith(("ies", "ied")):
        return word[:-3] + "y", word.endswith("d")
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            root = word[: -len(suffix)]
            if root[-1] == root[-2] and root[-1] not in "lsz":
                root = root[:-1]  # stopped -> stop, running -> run (but not fall, miss, buzz)
            return root, True
    if word.endswith("es") and word[:-2].endswith(_SIBILANT):
        return word[:-2], False
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1], False
    return word, False


_SIBILANT = ("s", "x", "z", "ch", "sh")
_VOWELS = "aeiou"


def inflections(word: str) -> tuple[str, ...]:
    """The word and the English inflections of its root: what a stemmer would fold together, spelled out.

    Exact forms, not a stem prefix: FTS5 streams an exact term's rows newest first, while a prefix term makes it
    merge every matching term's full row list before the first row comes out (several times slower on a large
    memory). Forms that no record uses cost one index lookup each.
    """
    if not (word.isalpha() and word.isascii() and len(word) >= 3):
        return (word,)
    root, verb = _root(word)
    bases = {root} | ({root + "e"} if verb and not root.endswith("e") else set())
    forms = {word}
    for base in bases:
        forms |= {base, base + "s"}
        if base.endswith("e"):
            forms |= {base + "d", base[:-1] + "ing"}
        else:
            forms |= {base + "ed", base + "ing"}
        if base.endswith("y") and len(base) > 3:
            forms |= {base[:-1] + "ies", base[:-1] + "ied"}
        if base.endswith(_SIBILANT):
            forms.add(base + "es")
        if len(base) >= 3 and base[-1] not in _VOWELS + "wxy" and base[-2] in _VOWELS and base[-3] not in _VOWELS:
            forms |= {base + base[-1] + "ed", base + base[-1] + "ing"}  # stop -> stopped, stopping
    return (word, *sorted(forms - {word}))


def term_of(word: str, *, last: bool) -> Term:
    if not word.isascii():
        cjk = _cjk_expression()
        if cjk is not None:  # Chinese, Japanese, Korean: substring matching is cjk.py's (the CJK index)
            return Term(word, (cjk(word, prefix=last),))
    forms = [f'"{form}"' for form in inflections(word)]
    if last:  # typed left to right, the last word may be unfinished; the prefix covers the forms it starts
        forms = [f'"{word}"*'] + [f'"{form}"' for form in inflections(word) if not form.startswith(word)]
    return Term(word, tuple(forms))


def _cjk_expression():
    """cjk.term_expression where the CJK index exists (the memory-reach work), else None: quoted words as before."""
    try:
        from skillbox.mem.cjk import term_expression
    except ImportError:
        return None
    return term_expression


def query_terms(text: str) -> list[Term]:
    """The terms to search for: content words with their stems; all words when every one is a stop word."""
    words = words_of(text)
    content = [w for w in words if w not in STOP_WORDS] or words
    return [term_of(word, last=i == len(content) - 1) for i, word in enumerate(content)]


def expression(terms: list[Term], operator: str) -> str:
    """FTS5 query joining the terms with AND or OR; every form is quoted, so no syntax error is possible."""
    return f" {operator} ".join(term.expression() for term in terms)


# -- dates ------------------------------------------------------------------------------------------------------

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october")
_MONTHS += ("november", "december")
_MONTH = r"(" + "|".join([*_MONTHS] + [m[:3] for m in _MONTHS if m != "may"]) + r")\.?"  # full names first
_YEAR = r"(?:19|20)\d{2}"  # four digits that read as a year of this era, not any number
_DATE_PATTERNS = None
# A stated date seldom matches a record's time to the day: the work happened the day before, the note was written
# the day after. Records within this many days of the date's span count as "from then".
DATE_PAD_DAYS = 3


def _date_patterns():
    global _DATE_PATTERNS
    if _DATE_PATTERNS is None:
        _DATE_PATTERNS = [
            ("ymd", re.compile(rf"\b({_YEAR})-(\d{{2}})-(\d{{2}})\b")),
            ("dmy", re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)? {_MONTH},? ({_YEAR})\b", re.I)),
            ("mdy", re.compile(rf"\b{_MONTH} (\d{{1,2}})(?:st|nd|rd|th)?,? ({_YEAR})\b", re.I)),
            ("ym", re.compile(rf"\b({_YEAR})-(\d{{2}})\b(?!-)")),
            ("my", re.compile(rf"\b{_MONTH},? ({_YEAR})\b", re.I)),
        ]
    return _DATE_PATTERNS


def _month(name: str) -> int:
    name = name.lower().rstrip(".")
    return next(i for i, m in enumerate(_MONTHS, 1) if m.startswith(name))


def dated(text: str) -> tuple[str, str | None, str | None]:
    """The query without its first calendar date, and that date's span widened by DATE_PAD_DAYS, as ISO bounds.

    "What did we change in auth on 3 November 2026?" -> ("What did we change in auth on ?", "2026-10-31",
    "2026-11-06T23:59:59.999Z"). Understood: 2026-11-03, 3 November 2026, November 3, 2026, Nov 3 2026, 2026-11,
    November 2026. A date is when something happened, not a word to find: no record says "November 2026", and its
    digits would match unrelated numbers; search uses the span to favour records from then (see search.py). A bare
    year or month name is left as a word: "may" is mostly a verb, and "2026" may well be written in a record.
    No date, or one that is not a real day: (text, None, None).
    """
    for shape, pattern in _date_patterns():
        match = pattern.search(text or "")
        if not match:
            continue
        import datetime as dt  # only now: its import costs a `skillbox mem search` process several ms

        groups = match.groups()
        try:
            if shape == "ymd":
                first = last = dt.date(int(groups[0]), int(groups[1]), int(groups[2]))
            elif shape == "dmy":
                first = last = dt.date(int(groups[2]), _month(groups[1]), int(groups[0]))
            elif shape == "mdy":
                first = last = dt.date(int(groups[2]), _month(groups[0]), int(groups[1]))
            else:  # a whole month
                year, month = (int(groups[0]), int(groups[1])) if shape == "ym" else (int(groups[1]), _month(groups[0]))
                first = dt.date(year, month, 1)
                last = dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)
            pad = dt.timedelta(days=DATE_PAD_DAYS)
            since, until = (first - pad).isoformat(), (last + pad).isoformat()
        except (ValueError, OverflowError):
            continue  # 2026-13-45, 31 February: not a date
        return text[: match.start()] + text[match.end() :], since, f"{until}T23:59:59.999Z"
    return text, None, None
