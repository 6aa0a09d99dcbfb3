"""Session evidence: a hit's session counts toward its rank, so the records of the session that is about the
question rise even when they share few words with it.

A session is one sitting at one task (in a coding memory: "fix the login lockout"). Its records each carry a few
of the task's words — the prompt names the feature, one observation the file, another the error, the summary the
decision — and a question about the task shares some words with each. Ranking records alone puts first whichever
single record repeats the question's words, often from another session; asking also which session covers the
question's words, taken together, finds the task and then its records.

Computed at search time from the candidate page only (no extra index): search ranks a pool of SESSION_POOL
candidates; each session scores the IDF-weighted share of the query's terms its candidate records contain
(a term counts f / (f + 1) for f records holding it, so one record repeating a word is not a whole session about
it; IDF is taken within the pool, which needs no count over the whole memory). Each candidate then scores its
bm25 relative to the pool's best + SESSION_WEIGHT * its session's evidence + COVERAGE_WEIGHT * its coverage (the
IDF-weighted share of the query's terms it holds itself), and the pool is ordered by that. A record outside any
session is a session of its own.

Scores, not ranks (session 10; sessions 6-9 fused the two ranks): a rank says nothing about how far apart two
records are. Ranked, the second of two near-equal matches lost as much as a much weaker one, so a session's
evidence decided little between near-equal records and a great deal against a record far ahead; with scores,
near-equal records are ordered by what their sessions cover and a clearly better match keeps its lead.
Coverage: a record holding the question's rarest word is worth more than one holding a word its session already
covers ("lockout" in a note of its own vs "auth" in a second note of the auth-docs session) — in a coding memory the
one record about the odd word of the question is often the one asked for.
The constants were chosen on LoCoMo conversations 0-4 and checked on 5-9 (bench/README.md, "mem recall on LoCoMo,
session 6" and "session 10").
"""

from __future__ import annotations

import math
import re

# How many candidates search ranks before the session evidence reorders them; the page is cut from these.
SESSION_POOL = 20
# The fused score of a candidate: its bm25 relative to the pool's best + SESSION_WEIGHT * its session's evidence
# + COVERAGE_WEIGHT * its own coverage of the query (all three in [0, 1]).
SESSION_WEIGHT = 1.0
COVERAGE_WEIGHT = 0.3
_WORD = re.compile(r"\w+", re.UNICODE)
_TEXT = {  # the searchable text of each kind, as its FTS index holds it
    "observation": (
        "observations",
        "title || ' ' || subtitle || ' ' || facts || ' ' || narrative || ' ' || concepts "
        "|| ' ' || files_read || ' ' || files_modified",
    ),
    "summary": (
        "summaries",
        "COALESCE(request, '') || ' ' || investigated || ' ' || learned || ' ' || completed || ' ' || next_steps",
    ),
    "prompt": ("prompts", "prompt_text"),
}


def _matcher(term):
    """A test `words, text -> bool` for one query term: any of its exact forms, or a prefix form, among the words.

    Forms that are not a quoted word (a CJK substring expression) fall back to the term as a substring."""
    exact, prefixes, other = set(), [], False
    for form in term.forms:
        if form.startswith('"') and form.endswith('"*'):
            prefixes.append(form[1:-2])
        elif form.startswith('"') and form.endswith('"') and '"' not in form[1:-1]:
            exact.add(form[1:-1])
        else:
            other = True
    word = term.word

    def holds(words: set[str], text: str) -> bool:
        if exact & words:
            return True
        if prefixes and any(w.startswith(p) for p in prefixes for w in words):
            return True
        return other and word in text

    return holds


def _texts(store, hits) -> dict[tuple[str, int], tuple[str | None, str]]:
    """(kind, id) -> (session id, lower-cased searchable text) for the hits, one query per kind."""
    out: dict[tuple[str, int], tuple[str | None, str]] = {}
    for kind, (table, text) in _TEXT.items():
        ids = [hit.id for hit in hits if hit.kind == kind]
        if not ids:
            continue
        sql = f"SELECT id, session_id, {text} FROM {table} WHERE id IN ({','.join('?' * len(ids))})"
        for ident, session, body in store.conn.execute(sql, ids):
            out[(kind, ident)] = (session, (body or "").lower())
    return out


def evidence(store, hits: list, terms: list) -> tuple[list[float], list[float]]:
    """For each hit: its session's evidence and its own coverage of the query, both in [0, 1] (module docstring).

    A term's weight is its IDF within the pool; a session's evidence sums, over the terms, weight * f / (f + 1)
    for f of its records holding the term; a record's coverage sums the weights of the terms it holds itself.
    Both are divided by the sum of the weights."""
    texts = _texts(store, hits)
    tests = [_matcher(term) for term in terms]
    holding: list[list[bool]] = []
    sessions: list[str] = []
    for hit in hits:
        session, body = texts.get((hit.kind, hit.id), (None, ""))
        words = set(_WORD.findall(body))
        holding.append([test(words, body) for test in tests])
        sessions.append(session if session is not None else f"{hit.kind}:{hit.id}")
    pool = len(hits)
    counts = [sum(row[t] for row in holding) for t in range(len(terms))]
    weights = [math.log(1 + pool / n) if n else 0.0 for n in counts]
    total = sum(weights) or 1.0
    per_session: dict[str, list[int]] = {}
    for session, row in zip(sessions, holding, strict=True):
        tally = per_session.setdefault(session, [0] * len(terms))
        for t, held in enumerate(row):
            tally[t] += held
    by_session = {
        session: sum(w * f / (f + 1) for w, f in zip(weights, tally, strict=True)) / total
        for session, tally in per_session.items()
    }
    coverage = [sum(w for w, held in zip(weights, row, strict=True) if held) / total for row in holding]
    return [by_session[session] for session in sessions], coverage


def by_session(store, hits: list, terms: list) -> list:
    """The hits reordered by their own score fused with their session's evidence and their coverage of the query
    (see the module docstring)."""
    if len(hits) < 2 or len(terms) < 2:
        return hits  # one term: a session's share of it is its records' share; nothing to add
    sessions, coverage = evidence(store, hits, terms)
    # bm25 as FTS5 gives it: negative, better when lower. Relative to the pool's best it lies in (0, 1].
    best = min((hit.score for hit in hits if hit.score is not None), default=0.0)

    def fused(index: int) -> tuple[float, int]:
        score = hits[index].score
        own = score / best if best < 0 and score is not None else 0.0
        return (-(own + SESSION_WEIGHT * sessions[index] + COVERAGE_WEIGHT * coverage[index]), index)

    return [hits[i] for i in sorted(range(len(hits)), key=fused)]
