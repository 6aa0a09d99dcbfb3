"""Which nodes a free-text question is about: the seed ranking behind `query`.

A question's words rarely equal identifiers: "routed" is `route`/`routing`, "configuration" is `Config`,
"environment variable" is `envvar`. So each question word is reduced to a light stem, and a node word matches a
term when it equals the word or stem, starts with the stem (`routing` for "routed"), or is an abbreviation the
stem starts with (`config`, `env` for "configuration", "environment"). Candidates come from the index's FTS5
table (stem prefixes and abbreviations OR-ed), then are scored in Python, BM25F-style:

- per field weights: the node's own name words count most, the enclosing class (qualname) next, then the
  docstring, then the path; a field adds `weight x match quality`, the best field fully and the others a little;
- each term weighs its inverse document frequency (FTS5 counts of the nodes it matches), so "request" in a web
  framework, matching hundreds of nodes, counts for less than "redirect";
- priors: code before docs, examples and tests (unless the question asks for them), files and external modules
  after symbols, and a small bonus for graph centrality (log of the degree): of two equally good matches, the
  one more of the code leans on is the better entry point.
"""

from __future__ import annotations

import functools
import math
import re
from bisect import bisect_left

from skillbox.graph.code_graph import note_text

_STOPWORD_TEXT = (
    "a an and are as at be by can do does for from get gets has have how i if in into is it its me my of on or our "
    "show so that the their them then there these this to us use used uses using via was we what when where which "
    "who why will with work works you your code function functions method methods class classes file files call "
    "calls called happen happens happened way ways thing things after before each every all any some one"
)
STOPWORDS = frozenset(_STOPWORD_TEXT.split())
_SUFFIXES = (
    "ational", "ization", "isation", "ations", "ation", "ments", "ment", "ings", "ing", "ness", "ible", "able",
    "ies", "ied", "ers", "er", "ed", "es", "ly", "s",
)  # fmt: skip
# irregular forms a question uses for the verbs code is named after
_IRREGULAR = {
    "sent": "send", "built": "build", "made": "make", "found": "find", "ran": "run", "written": "write",
    "wrote": "write", "got": "get", "thrown": "throw", "threw": "throw", "held": "hold", "bound": "bind",
    "kept": "keep", "taken": "take", "took": "take", "given": "give", "gave": "give", "begun": "begin",
    "began": "begin", "chosen": "choose", "chose": "choose", "done": "do", "left": "leave", "lost": "lose",
    "met": "meet", "paid": "pay", "said": "say", "seen": "see", "saw": "see", "sold": "sell", "shown": "show",
    "spent": "spend", "split": "split", "told": "tell", "understood": "understand", "won": "win", "fed": "feed",
    "led": "lead", "read": "read", "set": "set", "put": "put", "hidden": "hide", "hid": "hide", "broken": "break",
    "broke": "break", "fallen": "fall", "fell": "fall", "drawn": "draw", "drew": "draw", "driven": "drive",
    "drove": "drive", "caught": "catch", "brought": "bring", "thought": "think", "sought": "seek",
    "children": "child", "indices": "index", "indexes": "index", "data": "data", "matrices": "matrix",
}  # fmt: skip
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+")
_IDENT_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_DOC_WORD = re.compile(r"[a-z][a-z0-9]+")

# field weights (name > enclosing class > docstring > path)
NAME, OWNER, DOC, PATH = 3.0, 1.6, 1.0, 0.7
WHOLE_NAME_BONUS = 1.0  # the question names the symbol outright
DOC_WORDS = frozenset({"doc", "docs", "documentation", "documented", "guide", "tutorial", "readme", "example"})
TEST_WORDS = frozenset({"test", "tests", "testing", "tested", "fixture", "fixtures", "pytest"})
NOT_CODE_DIRS = frozenset({"docs", "doc", "examples", "example", "samples", "sample", "tutorial"})
DOC_KINDS = frozenset({"heading", "concept"})
KIND_PRIOR = {"file": 0.6, "module": 0.6, "external": 0.3}
NOT_ASKED_PRIOR = 0.35  # docs, examples or tests the question does not ask about
ASKED_PRIOR = 0.7  # ... and ones it asks about: still after the code they are about
CENTRALITY = 0.08
COVERAGE = 0.25  # per matched term beyond the first


@functools.lru_cache(maxsize=50_000)
def stem(word: str) -> str:
    """A light English stem: `routed` -> `rout`, `configuration` -> `configur`, `parsed` -> `pars`; at least
    three letters are kept, and short words stay whole."""
    irregular = _IRREGULAR.get(word)
    if irregular is not None:
        return irregular
    if len(word) <= 4:
        return word[:-1] if len(word) == 4 and word.endswith("s") and not word.endswith("ss") else word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            if suffix in ("ies", "ied"):
                base += "y"
            return base
    return word


class Term:
    """One question word: itself, its stem, and its weight (IDF, set once the index has been asked)."""

    __slots__ = ("abbreviations", "stem", "weight", "word")

    def __init__(self, word: str):
        self.word = word
        self.stem = s = stem(word)
        self.weight = 1.0
        # the words that abbreviate this one: `config` for "configuration", `env` for "environment"
        self.abbreviations = frozenset(s[:n] for n in range(3, len(s)))

    def quality(self, field: Field) -> float:
        """How well the best word of one field of a node matches this term: 1 the word or its stem, 0.8 a word
        starting with the stem (`routing` for "routed"), 0.6 an abbreviation, 0 none. Set and bisect lookups
        only: a query scores thousands of nodes."""
        words = field.words
        if self.word in words or self.stem in words:
            return 1.0
        s = self.stem
        if len(s) >= 3:
            ordered = field.ordered
            i = bisect_left(ordered, s)
            if i < len(ordered) and ordered[i].startswith(s):
                return 0.8
        if not self.abbreviations.isdisjoint(words):
            return 0.6
        return 0.0

    def fts(self) -> str:
        """FTS5 expression for the nodes this term can match."""
        parts = [f'"{self.stem}"*']
        if self.word != self.stem and not self.word.startswith(self.stem):
            parts.append(f'"{self.word}"*')
        parts += [f'"{a}"' for a in sorted(self.abbreviations)]
        return " OR ".join(parts)


class Field:
    """One field's words: as a set (exact lookups) and sorted (prefix lookups by bisection)."""

    __slots__ = ("ordered", "words")

    def __init__(self, words):
        self.words = frozenset(words)
        self.ordered = tuple(sorted(self.words))

    def __bool__(self) -> bool:
        return bool(self.words)


def question_terms(question: str) -> list[Term]:
    """The words of a question worth searching for: identifiers split (camelCase, snake_case), stop words out."""
    seen: dict[str, Term] = {}
    for raw in _WORD.findall(question):
        for word in (raw.lower(), *(w.lower() for w in _IDENT_WORDS.findall(raw))):
            if len(word) >= 2 and word not in STOPWORDS and word not in seen:
                seen[word] = Term(word)
    return list(seen.values())


def asks_for(terms: list[Term], words: frozenset[str]) -> bool:
    return any(t.word in words or t.stem in words for t in terms)


@functools.lru_cache(maxsize=100_000)
def _name_field(name: str) -> Field:
    """A name's words and the whole name, lower-case (names repeat: `__init__`, `save`, `get`...)."""
    lname = name.lower()
    return Field((lname, *(w.lower() for w in _IDENT_WORDS.findall(name))))


@functools.lru_cache(maxsize=100_000)
def _owner_field(owner_text: str, name: str) -> Field:
    """The enclosing class's words and its whole name (shared by the methods of a class)."""
    owner_words = {w.lower() for w in _IDENT_WORDS.findall(owner_text)}
    if owner_words:
        owner_words.add(owner_text.strip(".").lower())
    return Field(owner_words - _name_field(name).words)


class Features:
    """What a node is found by, worked out once per node row: name words, owner (enclosing class) words, path
    words (shared by the nodes of a file), docstring words (read on first use)."""

    __slots__ = ("_any", "_doc", "docs_like", "lname", "name", "node", "owner", "path", "tests")

    def __init__(self, node, path: Field, docs_like: bool):
        self.node = node
        name = node.name
        self.lname = name.lower()
        self.name = _name_field(name)
        label = node.label
        self.owner = _owner_field(label[: -len(name)] if label.endswith(name) else label, name)
        self.path = path
        self.docs_like = docs_like or node.kind in DOC_KINDS
        self.tests = node.in_tests
        self._doc = self._any = None

    @property
    def doc(self) -> Field:
        if self._doc is None:
            doc = note_text(self.node.docstring) or note_text(self.node.extra.get("notes"))
            self._doc = Field(_DOC_WORD.findall(doc[:600].lower()) if doc else ())
        return self._doc

    @property
    def any(self) -> Field:
        """Every word of every field: most (node, term) pairs match nothing, and one lookup here says so."""
        if self._any is None:
            self._any = Field(self.name.words | self.owner.words | self.doc.words | self.path.words)
        return self._any


def features(index, node) -> Features:
    memo = index.memo("rank-features")
    found = memo.get(node.id)
    if found is None:
        files = index.memo("rank-files")
        file = node.file or ""
        per_file = files.get(file)
        if per_file is None:
            parts = file.split("/")
            per_file = files[file] = (
                Field(w.lower() for w in _IDENT_WORDS.findall(file)),
                any(p in NOT_CODE_DIRS for p in parts[:-1]),
            )
        found = memo[node.id] = Features(node, *per_file)
    return found


class Scorer:
    """Scores nodes against one question's terms (the seeds and every node the expansion reaches)."""

    def __init__(self, index, terms: list[Term]):
        self.index = index
        self.terms = terms
        self.docs_asked = asks_for(terms, DOC_WORDS)
        self.tests_asked = asks_for(terms, TEST_WORDS)
        self._memo: dict[str, float] = {}
        self._placement: dict[str, float] = {}

    def text_score(self, node) -> float:
        """How well the node's own text matches the question (no priors)."""
        f = features(self.index, node)
        total = 0.0
        matched = 0
        for term in self.terms:
            if not term.quality(f.any):
                continue
            fields = (
                NAME * term.quality(f.name),
                OWNER * term.quality(f.owner) if f.owner else 0.0,
                DOC * term.quality(f.doc) if f.doc else 0.0,
                PATH * term.quality(f.path) if f.path else 0.0,
            )
            best = max(fields)
            if best:
                matched += 1
                total += term.weight * (best + 0.2 * (sum(fields) - best))
            if f.lname == term.word:
                total += term.weight * WHOLE_NAME_BONUS
        # a node that matches several of the question's words is about the question, not about one word of it
        return total * (1.0 + COVERAGE * max(0, matched - 1))

    def placement(self, node) -> float:
        """Code first: files, docs, examples and tests count for less (tests and docs less still when the
        question does not ask about them)."""
        known = self._placement.get(node.id)
        if known is None:
            known = self._placement[node.id] = self._place(node)
        return known

    def _place(self, node) -> float:
        f = features(self.index, node)
        factor = KIND_PRIOR.get(node.kind, 1.0)
        if f.docs_like:
            factor *= ASKED_PRIOR if self.docs_asked else NOT_ASKED_PRIOR
        if f.tests:
            factor *= ASKED_PRIOR if self.tests_asked else NOT_ASKED_PRIOR
        return factor

    def prior(self, node) -> float:
        return self.placement(node) * (1.0 + CENTRALITY * math.log1p(node.degree))

    def score(self, node) -> float:
        cached = self._memo.get(node.id)
        if cached is None:
            cached = self._memo[node.id] = self.text_score(node) * self.prior(node)
        return cached


def weigh_terms(index, terms: list[Term]) -> None:
    """Set each term's weight to its BM25 inverse document frequency over the index's nodes (counts are kept
    for the index's life: a warm server asks FTS5 once per distinct term)."""
    memo = index.memo("rank-df")
    total = memo.get("")
    if total is None:
        total = memo[""] = max(1, index.node_count())
    for term in terms:
        expr = term.fts()
        df = memo.get(expr)
        if df is None:
            df = memo[expr] = index.fts_count(expr)
        term.weight = math.log(1.0 + (total - df + 0.5) / (df + 0.5))


def candidates(index, terms: list[Term], limit: int) -> list:
    """The FTS5 hits for any term, the best `limit` by FTS5's own bm25, as node rows: the pool the scorer
    re-ranks."""
    if not terms:
        return []
    return index.fts_hits(" OR ".join(f"({t.fts()})" for t in terms), limit)
