"""Finding past work: `search` (compact index), `timeline` (neighbours of an anchor), `get` (full records).

These mirror claude-mem's three MCP tools so its progressive-disclosure workflow carries over: scan a cheap index
(~15 tokens a line), look around the interesting hit, then fetch only the records worth reading.

Search fixes claude-mem's multi-word failure (the whole query was matched as one phrase): the query is split into
terms (query.py: function words dropped, each word OR-ed with its inflections); rows holding every term, in any
order, rank first by bm25 with column weights (title > subtitle > facts > narrative); when those run out, rows
holding any term fill the rest of the page. The last term is also matched as a prefix (`auth` finds
"authentication"). Broad terms would make bm25 score tens of thousands of rows, so only the newest matches are
ranked (RANK_WINDOW) — plus every row of a rare term, however old, because a rare word (a name, an error code)
is usually the point of the question. Then the records' sessions weigh in (sessions_rank.py): a pool of
candidates is reordered by each record's bm25 relative to the best, plus how much of the query its session covers
and how much it covers itself, so the records of the task the question is about come before a stray match from
another session.
An observation's index also holds, at a low weight, the titles of the two records before it and the one after it
in its session (store.context_sql), so a reply or a tool call is found by the topic words of the turn that led to
it, and a question by the words of its answer.
Observations, turn summaries and prompts are searched alike and told apart by their reference: `#12`, `S3`, `P7`.
"""

from __future__ import annotations

import json
import re
import time
from contextlib import suppress
from dataclasses import dataclass, field

from skillbox.errors import NotFoundError, UsageError
from skillbox.mem.query import Term, dated, query_terms
from skillbox.mem.query import expression as query_expression
from skillbox.mem.sessions_rank import SESSION_POOL
from skillbox.mem.sessions_rank import by_session as _by_session
from skillbox.mem.store import Store, now_iso

KIND_PREFIX = {"observation": "#", "summary": "S", "prompt": "P"}
_KIND_TABLE = {"observation": "observations", "summary": "summaries", "prompt": "prompts"}
KIND_ALIASES = {
    "observation": "observation",
    "observations": "observation",
    "obs": "observation",
    "summary": "summary",
    "summaries": "summary",
    "session": "summary",
    "sessions": "summary",
    "prompt": "prompt",
    "prompts": "prompt",
}
# Broad queries match tens of thousands of rows, and bm25 costs a B-tree lookup per match. Only the newest
# RANK_WINDOW matches of each kind that pass the filters are ranked (memory favours recent work), so the cost stays
# flat as memory grows; a selective filter walks further back until it has that many.
RANK_WINDOW = 300
# Ids already shown are excluded inside SQL up to this many (SQLite caps bound parameters); beyond it, in Python.
MAX_SQL_EXCLUDE = 500
MAX_COUNT = 1_000_000  # most hits or neighbours a caller (CLI, MCP tool) may ask for; the CLI bounds alike
MAX_ID = 2**63 - 1  # SQLite's largest integer: a bigger id cannot be in memory (and cannot be bound to a query)
# A query term matching at most this many rows of a kind is rare: all of its rows are ranked, not only the newest.
RARE_TERM_MATCHES = 200
# A query naming a date ("on 3 November 2026") ranks records from about then this many times higher (bm25 scores
# are multiplied); other records still come, after them unless they match much better. See query.dated.
DATE_BOOST = 2.0
_TERM = re.compile(r"\w+", re.UNICODE)
_REF = re.compile(r"^\s*(#|S|P)?(\d+)\s*$", re.I)
_RELATIVE = re.compile(r"^(\d+)\s*([hdwm])$", re.I)


@dataclass
class Hit:
    kind: str
    id: int
    created_at: str
    type: str
    title: str
    project: str
    tokens: int
    score: float | None = None
    match: str = ""  # "all" terms, "any" term, "reply" (follows a hit that asks, see _with_replies), "" (no query)

    @property
    def ref(self) -> str:
        return f"{KIND_PREFIX[self.kind]}{self.id}"

    def to_dict(self) -> dict:
        return {
            "ref": self.ref,
            "kind": self.kind,
            "id": self.id,
            "created_at": self.created_at,
            "type": self.type,
            "title": self.title,
            "project": self.project,
            "tokens": self.tokens,
            "match": self.match,
        }


@dataclass
class Filters:
    kinds: tuple[str, ...] = ("observation", "summary", "prompt")
    obs_types: tuple[str, ...] = ()
    project: str | None = None
    since: str | None = None
    until: str | None = None
    file: str | None = None
    concept: str | None = None


@dataclass
class SearchResult:
    query: str
    hits: list[Hit] = field(default_factory=list)
    language: str = "en"  # of the messages format_search prints (i18n.py)

    def to_dict(self) -> dict:
        return {"query": self.query, "count": len(self.hits), "results": [h.to_dict() for h in self.hits]}


def build_filters(
    kinds: tuple[str, ...] | list[str] = (),
    obs_types: tuple[str, ...] | list[str] = (),
    project: str | None = None,
    since: str | None = None,
    until: str | None = None,
    file: str | None = None,
    concept: str | None = None,
) -> Filters:
    """Filters from user words. Like claude-mem, a `type` that is not a record kind is an observation type."""
    kind_set: list[str] = []
    type_set: list[str] = list(obs_types)
    for value in kinds:
        for part in value.split(","):
            part = part.strip().lower()
            if part in KIND_ALIASES:
                kind_set.append(KIND_ALIASES[part])
            elif part:
                type_set.append(part)
    if type_set and not kind_set:
        kind_set = ["observation"]
    if type_set and "observation" not in kind_set:
        raise UsageError("observation types only apply to observations", hint="drop --type summaries/prompts")
    return Filters(
        kinds=tuple(dict.fromkeys(kind_set)) or ("observation", "summary", "prompt"),
        obs_types=tuple(dict.fromkeys(type_set)),
        project=project,
        since=parse_when(since),
        until=parse_when(until, end=True),
        file=file,
        concept=concept,
    )


def parse_ref(text: str) -> tuple[str, int]:
    """`12`, `#12` -> observation 12; `S3` -> summary 3; `P7` -> prompt 7."""
    match = _REF.match(str(text))
    if not match:
        raise UsageError(f"not a memory id: {text!r}", hint="use 12 or #12 (observation), S3 (summary), P7 (prompt)")
    prefix = (match.group(1) or "#").upper()
    kind = {"#": "observation", "S": "summary", "P": "prompt"}[prefix]
    return kind, int(match.group(2))


def parse_when(text: str | None, *, end: bool = False) -> str | None:
    """A date filter as an ISO prefix: `2026-11-29`, `2026-11-29T14:00`, or relative `3d`, `12h`, `2w`, `1m`.

    With `end`, a bare date means the end of that day, so `--until 2026-11-29` includes the 29th.
    """
    if text is None or not str(text).strip():
        return None
    value = str(text).strip()
    relative = _RELATIVE.match(value)
    if relative:
        amount, unit = int(relative.group(1)), relative.group(2).lower()
        seconds = amount * {"h": 3600, "d": 86400, "w": 7 * 86400, "m": 30 * 86400}[unit]
        if seconds > time.time():
            raise UsageError(f"{value!r} reaches back before 1970", hint="use a smaller amount or a date")
        return now_iso(time.time() - seconds)
    if value in ("today", "yesterday"):
        day = time.strftime("%Y-%m-%d", time.gmtime(time.time() - (86400 if value == "yesterday" else 0)))
        return f"{day}T23:59:59.999Z" if end else day
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return f"{value}T23:59:59.999Z" if end else value
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z?", value):
        return value.replace(" ", "T").rstrip("Z")
    raise UsageError(f"not a date: {value!r}", hint="use YYYY-MM-DD, YYYY-MM-DDTHH:MM, or a relative 3d / 12h / 2w")


def terms_of(query: str) -> list[str]:
    return list(dict.fromkeys(t.lower() for t in _TERM.findall(query or "")))


def match_expression(terms: list[str], operator: str) -> str:
    """FTS5 query with each term quoted (no syntax errors possible); the last term matches as a prefix.

    A term with Chinese/Japanese/Korean text also matches as a substring (cjk.py owns that expression)."""
    from skillbox.mem.cjk import term_expression

    last = len(terms) - 1
    return f" {operator} ".join(term_expression(t, prefix=i == last) for i, t in enumerate(terms))


def _tokens(*parts: str | None) -> int:
    return (sum(len(p or "") for p in parts) + 3) // 4


class _KindQuery:
    """The SQL pieces for one record kind under some filters; `None` from `_kind_query` when filters exclude it.

    A plain class, not a dataclass: each dataclass adds ~1 ms to every `skillbox mem search` process start.
    """

    __slots__ = ("alias", "joins", "params", "select", "table", "where")

    def __init__(self, table: str, alias: str, select: str, joins: str, where: list[str], params: list):
        self.table = table  # base table, also the stem of its FTS5 index `<table>_fts`
        self.alias = alias
        self.select = select  # the compact-index columns: kind, id, created_at, type, title, project, chars
        self.joins = joins  # tables the select or the filters need besides the base table
        self.where = where
        self.params = params

    @property
    def source(self) -> str:
        return f"{self.table} {self.alias}{self.joins}"


def _kind_query(kind: str, filters: Filters) -> _KindQuery | None:
    where: list[str] = []
    params: list = []
    if kind == "observation":
        select = (
            "SELECT 'observation' AS kind, o.id, o.created_at, o.type, o.title, o.project, "
            "length(o.title) + length(o.subtitle) + length(o.narrative) + length(o.facts) AS chars"
        )
        table, alias, joins = "observations", "o", ""
        if filters.obs_types:
            where.append(f"o.type IN ({','.join('?' * len(filters.obs_types))})")
            params += list(filters.obs_types)
        if filters.concept:
            where.append("o.concepts LIKE ?")
            params.append(f'%"{filters.concept}"%')
        if filters.file:
            where.append("(o.files_read LIKE ? OR o.files_modified LIKE ?)")
            params += [f"%{filters.file}%"] * 2
        project_col = "o.project"
    elif kind == "summary":
        if filters.obs_types or filters.concept:
            return None
        select = (
            "SELECT 'summary' AS kind, s.id, s.created_at, 'summary' AS type, "
            "COALESCE(NULLIF(s.request, ''), NULLIF(p.prompt_text, ''), NULLIF(s.completed, ''), s.learned) AS title, "
            "s.project, length(COALESCE(s.request, '')) + length(s.investigated) + length(s.learned) "
            "+ length(s.completed) + length(s.next_steps) AS chars"
        )
        table, alias = "summaries", "s"
        joins = " LEFT JOIN prompts p ON p.session_id = s.session_id AND p.prompt_number = s.prompt_number"
        if filters.file:
            where.append("(s.files_read LIKE ? OR s.files_edited LIKE ?)")
            params += [f"%{filters.file}%"] * 2
        project_col = "s.project"
    else:
        if filters.obs_types or filters.concept or filters.file:
            return None
        select = (
            "SELECT 'prompt' AS kind, p.id, p.created_at, 'prompt' AS type, p.prompt_text AS title, "
            "ss.project AS project, length(p.prompt_text) AS chars"
        )
        table, alias = "prompts", "p"
        joins = " JOIN sessions ss ON ss.session_id = p.session_id"
        where.append("p.private = 0")
        project_col = "ss.project"
    if filters.project:
        where.append(f"{project_col} = ?")
        params.append(filters.project)
    if filters.since:
        where.append(f"{alias}.created_at >= ?")
        params.append(filters.since)
    if filters.until:
        where.append(f"{alias}.created_at <= ?")
        params.append(filters.until)
    return _KindQuery(table, alias, select, joins, where, params)


def _present_forms(store: Store, table: str, terms: list) -> list:
    """The terms with only the word forms that occur in `table` (one index lookup each); absent terms dropped.

    A query word expands to a dozen inflections, most of which no record uses; bm25 would still visit each of them
    for every candidate row. Prefix forms are kept unchecked: probing one costs as much as using it.
    """
    fts = f"{table}_fts"
    kept = []
    for term in terms:
        forms = tuple(
            form
            for form in term.forms
            if form.endswith("*")
            or store.conn.execute(f"SELECT 1 FROM {fts} WHERE {fts} MATCH ? LIMIT 1", (form,)).fetchone()
        )
        if forms:
            kept.append(Term(term.word, forms))
    return kept


def _rare_forms(store: Store, table: str, terms: list) -> str:
    """An OR of the terms that match at most RARE_TERM_MATCHES rows of `table` (all kinds of filter aside), or "".

    These are the words that say most about what is wanted (a name, a place, an error code); the newest-first
    window alone would drop their older rows whenever a common word of the same query matches thousands.
    """
    fts = f"{table}_fts"
    rare = []
    for term in terms:
        found = store.conn.execute(
            f"SELECT count(*) FROM (SELECT 1 FROM {fts} WHERE {fts} MATCH ? LIMIT ?)",
            (term.expression(), RARE_TERM_MATCHES + 1),
        ).fetchone()[0]
        if 0 < found <= RARE_TERM_MATCHES:
            rare.append(term.expression())
    return " OR ".join(rare)


def _ranked(
    store: Store,
    kind: str,
    filters: Filters,
    expression: str,
    limit: int,
    exclude: list[int] | tuple = (),
    rare: list | tuple = (),
) -> list:
    """The best `limit` rows of one kind for an FTS expression, ranked by weighted bm25 (see RANK_WINDOW).

    One statement, so FTS5 expands the prefix terms and counts each term's documents (bm25's IDF) once: the inner
    query walks the matches newest first, keeps the first RANK_WINDOW that pass the filters and are not in
    `exclude` (ids already shown), and scores only those; the outer one orders them and reads the display columns
    of the best `limit`. The window is never smaller than `limit`, so a large page still gets its full share.
    With `rare` (the query's terms), every row of those that are rare (see `_rare_forms`) is scored too, however
    old — looked up only when the window is full, i.e. when it may have missed some.
    """
    q = _kind_query(kind, filters)
    if q is None:
        return []
    fts = f"{q.table}_fts"
    where = [f"{fts} MATCH ?", *q.where]
    params: list = [expression, *q.params]
    wanted = limit
    if len(exclude) > MAX_SQL_EXCLUDE:
        wanted = limit + len(exclude)
    elif exclude:
        where.append(f"{fts}.rowid NOT IN ({','.join('?' * len(exclude))})")
        params += list(exclude)
        exclude = ()
    # The filters need the base table (and its joins); an unfiltered window is read from the FTS index alone.
    # CROSS JOIN pins the FTS index as the outer loop, so matches stream newest first and the LIMIT stops early.
    source = f"{fts} CROSS JOIN {q.table} {q.alias} ON {q.alias}.id = {fts}.rowid{q.joins}" if q.where else fts
    window = (
        f"SELECT {fts}.rowid AS id, {fts}.rank AS score FROM {source} WHERE {' AND '.join(where)} "
        f"ORDER BY {fts}.rowid DESC LIMIT ?"
    )
    if rare:
        rows = _with_rare_rows(store, q, source, where, params, window, rare, max(RANK_WINDOW, wanted), wanted)
    else:
        sql = (
            f"{q.select}, w.score AS score FROM ({window}) w JOIN {q.table} {q.alias} ON {q.alias}.id = w.id"
            f"{q.joins} ORDER BY w.score, w.id DESC LIMIT ?"
        )
        rows = store.conn.execute(sql, [*params, max(RANK_WINDOW, wanted), wanted]).fetchall()
    if exclude:
        skip = set(exclude)
        rows = [row for row in rows if row["id"] not in skip][:limit]
    return rows


def _with_rare_rows(store: Store, q, source: str, where: list, params: list, window: str, rare, size, wanted):
    """The window's scores plus those of every row holding a rare term, all under the same bm25.

    FTS5 cannot score an arbitrary id list cheaply, but two MATCH constraints on one index are ANDed and scored as
    one query whose bm25 is the sum of both parts; the rare part's own score, subtracted, leaves the row's score
    under the full expression, identical to what the window computes.
    """
    fts = f"{q.table}_fts"
    conn = store.conn
    scores = dict(conn.execute(window, [*params, size]).fetchall())
    rare = _rare_forms(store, q.table, rare) if len(scores) >= size else ""
    if not rare:
        both = []  # the window already holds every match, or no term is rare
    else:
        # Only rows older than the window's oldest are missing from it.
        where = [*where, f"{fts}.rowid < ?"]
        params = [*params, min(scores)]
        cap = RARE_TERM_MATCHES * (rare.count(" OR ") + 1)
        both = conn.execute(
            f"SELECT {fts}.rowid, {fts}.rank FROM {source} WHERE {' AND '.join([f'{fts} MATCH ?', *where])} LIMIT ?",
            [rare, *params, cap],
        ).fetchall()
    if both:
        rest, rest_params = where[1:], params[1:]
        alone = dict(
            conn.execute(
                f"SELECT {fts}.rowid, {fts}.rank FROM {source} WHERE {' AND '.join([f'{fts} MATCH ?', *rest])} LIMIT ?",
                [rare, *rest_params, cap],
            ).fetchall()
        )
        for ident, score in both:
            if ident not in scores and ident in alone:
                scores[ident] = score - alone[ident]
    best = sorted(scores.items(), key=lambda item: (item[1], -item[0]))[:wanted]
    if not best:
        return []
    found = {
        row["id"]: row
        for row in conn.execute(
            f"{q.select} FROM {q.table} {q.alias}{q.joins} WHERE {q.alias}.id IN ({','.join('?' * len(best))})",
            [ident for ident, _ in best],
        )
    }
    return [dict(found[ident], score=score) for ident, score in best if ident in found]


def _within(filters: Filters, since: str | None, until: str | None) -> Filters | None:
    """`filters` narrowed to the query's date span, or None without a date or when the two do not overlap."""
    if since is None or until is None:
        return None
    since = max(since, filters.since or since)
    until = min(until, filters.until or until)
    if since > until:
        return None
    return Filters(filters.kinds, filters.obs_types, filters.project, since, until, filters.file, filters.concept)


def _favour_dated(rows: list, dated_rows: list) -> list:
    """All rows by score, the dated ones (also ranked within the date span) with theirs multiplied by DATE_BOOST.

    The span gets its own ranking so that its rows are not lost beyond the newest-first window of a broad query.
    """
    merged = {row["id"]: row for row in rows}
    for row in dated_rows:
        merged[row["id"]] = dict(row, score=row["score"] * DATE_BOOST)
    return sorted(merged.values(), key=lambda row: (row["score"], -row["id"]))


def _with_replies(store: Store, hits: list[Hit], filters: Filters, limit: int) -> list[Hit]:
    """Each observation hit that asks a question ("…?") followed by the next observation of its session.

    The words of a question are in the question, the answer is what came next ("How long have you been doing
    yoga?" - "Three years now."): ranking finds the first and not the second. The reply takes a place on the page
    (the last hits drop off) unless it is already on it; it must pass the same filters. A record that only mentions
    a question mark (a URL with a query string) does not ask one: only a title ending in "?" counts.
    """
    ids = [hit.id for hit in hits if hit.kind == "observation"]
    asking = {  # the full title: a hit's own is cut to 100 characters
        row[0]
        for row in store.conn.execute(
            f"SELECT id FROM observations WHERE id IN ({','.join('?' * len(ids))}) AND rtrim(title) LIKE '%?'", ids
        )
    }
    if not asking:
        return hits
    q = _kind_query("observation", filters)
    if q is None:
        return hits
    where = " AND ".join(["o.session_id = (SELECT session_id FROM observations WHERE id = ?)", "o.id > ?", *q.where])
    sql = f"{q.select} FROM {q.source} WHERE {where} ORDER BY o.id LIMIT 1"
    later = {hit.id: hit for hit in hits if hit.kind == "observation"}
    shown: set[tuple[str, int]] = set()
    out: list[Hit] = []
    for hit in hits:
        if (hit.kind, hit.id) in shown:
            continue  # a reply moved up already
        out.append(hit)
        shown.add((hit.kind, hit.id))
        if hit.kind == "observation" and hit.id in asking:
            row = store.conn.execute(sql, [hit.id, hit.id, *q.params]).fetchone()
            if row is not None and ("observation", row["id"]) not in shown:
                shown.add(("observation", row["id"]))
                out.append(later.get(row["id"]) or _row_hit(row, "reply"))  # on the page further down: moved up
    return out[:limit]


def _row_hit(row, match: str) -> Hit:
    title = " ".join((row["title"] or "").split())
    return Hit(
        kind=row["kind"],
        id=row["id"],
        created_at=row["created_at"],
        type=row["type"],
        title=title if len(title) <= 100 else title[:99] + "…",
        project=row["project"],
        tokens=(row["chars"] + 3) // 4,
        score=row["score"] if "score" in row.keys() else None,  # noqa: SIM118 - sqlite3.Row `in` tests values
        match=match,
    )


def search(store: Store, query: str = "", filters: Filters | None = None, *, limit: int = 20) -> SearchResult:
    """Ranked hits for `query` under `filters`; with no query, the newest records matching the filters."""
    filters = filters or Filters()
    if limit < 1:
        raise UsageError("--limit must be at least 1")
    if limit > MAX_COUNT:
        raise UsageError(f"--limit must be at most {MAX_COUNT:,}")
    result = SearchResult(query=query)
    terms = terms_of(query)
    if not terms:
        if query.strip():
            raise UsageError(f"nothing to search for in {query!r}", hint="use words or numbers")
        rows = []
        for kind in filters.kinds:
            q = _kind_query(kind, filters)
            if q is None:
                continue
            where = f" WHERE {' AND '.join(q.where)}" if q.where else ""
            rows += store.conn.execute(
                f"{q.select} FROM {q.source}{where} ORDER BY {q.alias}.created_at DESC LIMIT ?", [*q.params, limit]
            ).fetchall()
        rows.sort(key=lambda r: (r["created_at"], r["id"]), reverse=True)
        result.hits = [_row_hit(r, "") for r in rows[:limit]]
        if not result.hits:
            result.language = _language(store, filters.project)
        return result

    # Rows with every term first; only if they leave the page short, rows with some term fill the missing slots.
    # A row's bm25 is the same under AND and OR (it sums over the query's terms), so the two groups rank alike.
    shown: dict[str, list[int]] = {}
    undated, since, until = dated(query)
    wanted = query_terms(undated) or query_terms(query)
    then = _within(filters, since, until)
    present = {kind: _present_forms(store, _KIND_TABLE[kind], wanted) for kind in filters.kinds}
    modes = [("all", "AND")] + ([("any", "OR")] if len(wanted) > 1 else [])
    pool = max(limit, SESSION_POOL) if len(wanted) > 1 else limit  # candidates for the session evidence
    for mode, operator in modes:
        missing = pool - len(result.hits)
        rows = []
        for kind in filters.kinds:
            terms = present[kind]
            if not terms or (operator == "AND" and len(terms) < len(wanted)):
                continue  # no record of this kind has some word (AND) or any word (OR)
            expression = query_expression(terms, operator)
            rare = terms if operator == "OR" else ()
            found = _ranked(store, kind, filters, expression, missing, shown.get(kind, ()), rare)
            if then is not None:
                found = _favour_dated(found, _ranked(store, kind, then, expression, missing, shown.get(kind, ()), rare))
            rows += found
        rows.sort(key=lambda r: r["score"])
        for row in rows[:missing]:
            shown.setdefault(row["kind"], []).append(row["id"])
            result.hits.append(_row_hit(row, mode))
        if len(result.hits) >= pool:
            break  # the pool is full of rows with every term: it need not reach into rows with some
    result.hits = _by_session(store, result.hits, wanted)[:limit]
    if any(hit.kind == "observation" for hit in result.hits):
        result.hits = _with_replies(store, result.hits, filters, limit)
    if not result.hits or any(hit.match == "any" for hit in result.hits):
        result.language = _language(store, filters.project)  # only then does format_search print a message
    return result


# -- timeline ---------------------------------------------------------------------------------------------------

_ITEMS = """
SELECT 'observation' AS kind, o.id, o.created_at, o.type, o.title, o.project, o.session_id,
       length(o.title) + length(o.subtitle) + length(o.narrative) + length(o.facts) AS chars
FROM observations o
UNION ALL
SELECT 'summary', s.id, s.created_at, 'summary',
       COALESCE(NULLIF(s.request, ''), NULLIF(p.prompt_text, ''), NULLIF(s.completed, ''), s.learned),
       s.project, s.session_id,
       length(s.investigated) + length(s.learned) + length(s.completed) + length(s.next_steps)
FROM summaries s LEFT JOIN prompts p ON p.session_id = s.session_id AND p.prompt_number = s.prompt_number
UNION ALL
SELECT 'prompt', p.id, p.created_at, 'prompt', p.prompt_text, ss.project, p.session_id, length(p.prompt_text)
FROM prompts p JOIN sessions ss ON ss.session_id = p.session_id WHERE p.private = 0
"""
_KIND_ORDER = "CASE kind WHEN 'prompt' THEN 0 WHEN 'observation' THEN 1 ELSE 2 END"


@dataclass
class Timeline:
    anchor: str
    items: list[Hit]
    anchor_index: int | None

    def to_dict(self) -> dict:
        return {
            "anchor": self.anchor,
            "anchor_index": self.anchor_index,
            "items": [dict(h.to_dict(), anchor=i == self.anchor_index) for i, h in enumerate(self.items)],
        }


def _anchor_point(store: Store, anchor: str) -> tuple[str, int, int, str | None, str | None]:
    """(created_at, kind order, id, project, session) the timeline is centred on."""
    text = str(anchor).strip()
    if _REF.match(text):
        kind, ident = parse_ref(text)
        row = (
            None
            if ident > MAX_ID
            else store.conn.execute(
                f"SELECT created_at, project, session_id FROM ({_ITEMS}) WHERE kind = ? AND id = ?", (kind, ident)
            ).fetchone()
        )
        if row is None:
            raise NotFoundError(f"no {kind} {KIND_PREFIX[kind]}{ident} in memory")
        order = {"prompt": 0, "observation": 1, "summary": 2}[kind]
        return row["created_at"], order, ident, row["project"], row["session_id"]
    session = store.conn.execute("SELECT started_at, project FROM sessions WHERE session_id = ?", (text,)).fetchone()
    if session is not None:
        return session["started_at"], -1, 0, session["project"], text
    try:
        when = parse_when(text)
    except UsageError:
        raise UsageError(
            f"timeline anchor {text!r} is not an id, a session id or a date",
            hint="use 12, S3, P7, a session id, or YYYY-MM-DD[THH:MM]",
        ) from None
    return when or now_iso(), -1, 0, None, None


def timeline(store: Store, anchor: str, *, before: int = 5, after: int = 5, project: str | None = None) -> Timeline:
    """Records around `anchor` in time order (prompt, then its observations, then its summary)."""
    if before < 0 or after < 0:
        raise UsageError("--before and --after must not be negative")
    if before > MAX_COUNT or after > MAX_COUNT:
        raise UsageError(f"--before and --after must be at most {MAX_COUNT:,}")
    at, order, ident, anchor_project, _session = _anchor_point(store, anchor)
    project = project or anchor_project
    where, params = "", []
    if project:
        where, params = " AND project = ?", [project]
    key = f"(created_at, {_KIND_ORDER}, id)"
    earlier = store.conn.execute(
        f"SELECT * FROM ({_ITEMS}) WHERE {key} < (?, ?, ?){where} ORDER BY created_at DESC, {_KIND_ORDER} DESC, "
        "id DESC LIMIT ?",
        [at, order, ident, *params, before],
    ).fetchall()
    later_limit = after + (1 if order >= 0 else 0)
    later = store.conn.execute(
        f"SELECT * FROM ({_ITEMS}) WHERE {key} >= (?, ?, ?){where} ORDER BY created_at, {_KIND_ORDER}, id LIMIT ?",
        [at, order, ident, *params, later_limit],
    ).fetchall()
    items = [_row_hit(r, "") for r in reversed(earlier)] + [_row_hit(r, "") for r in later]
    anchor_index = len(earlier) if order >= 0 and later else None
    return Timeline(anchor=str(anchor), items=items, anchor_index=anchor_index)


# -- get --------------------------------------------------------------------------------------------------------


def _decode(row, json_columns: tuple[str, ...]) -> dict:
    record = dict(row)
    for column in json_columns:
        if column in record and isinstance(record[column], str):
            with suppress(ValueError):
                record[column] = json.loads(record[column])
    return record


def get_records(store: Store, refs: list[str]) -> tuple[list[dict], list[str]]:
    """Full records for `refs` in the order asked; the second list names refs that do not exist."""
    found: list[dict] = []
    missing: list[str] = []
    for ref in refs:
        kind, ident = parse_ref(ref)
        if ident > MAX_ID:
            record = None
        elif kind == "observation":
            row = store.conn.execute("SELECT * FROM observations WHERE id = ?", (ident,)).fetchone()
            record = _decode(row, ("facts", "concepts", "files_read", "files_modified")) if row else None
            if record is not None:
                record.pop("context", None)  # other records' titles, kept for the index only (store.context_sql)
        elif kind == "summary":
            row = store.conn.execute(
                "SELECT s.*, p.prompt_text AS prompt FROM summaries s LEFT JOIN prompts p "
                "ON p.session_id = s.session_id AND p.prompt_number = s.prompt_number WHERE s.id = ?",
                (ident,),
            ).fetchone()
            record = _decode(row, ("files_read", "files_edited")) if row else None
            if record is not None:
                record["request"] = record.get("request") or record.pop("prompt", None)
                record.pop("prompt", None)
        else:
            row = store.conn.execute(
                "SELECT p.id, p.session_id, ss.project, p.prompt_number, p.prompt_text, p.created_at "
                "FROM prompts p JOIN sessions ss ON ss.session_id = p.session_id WHERE p.id = ? AND p.private = 0",
                (ident,),
            ).fetchone()
            record = dict(row) if row else None
        if record is None:
            missing.append(f"{KIND_PREFIX[kind]}{ident}")
            continue
        record = {"ref": f"{KIND_PREFIX[kind]}{ident}", "kind": kind, **record}
        found.append(record)
    return found, missing


# -- formatting -------------------------------------------------------------------------------------------------


def index_line(hit: Hit, *, marker: str = "") -> str:
    """`#12  2026-11-29 14:12  change  Edited auth.py  ~45` — one line per hit, cheap to scan."""
    when = hit.created_at[:16].replace("T", " ")
    return f"{hit.ref:<7} {when}  {hit.type:<9} {hit.title}  ~{hit.tokens}{marker}"


def _language(store: Store, project: str | None) -> str:
    """The messages' language: the `language` setting, or what the project's recent prompts are written in."""
    from skillbox.errors import ConfigError
    from skillbox.mem.i18n import detect_language
    from skillbox.mem.settings import load_settings

    try:
        return detect_language(store, project, load_settings(create=False))
    except (ConfigError, OSError):
        return "en"


def format_search(result: SearchResult) -> str:
    from skillbox.mem.i18n import message

    say = result.language
    if not result.hits:
        return message(say, "search.none", query=result.query) if result.query else message(say, "search.empty")
    partial = sum(1 for h in result.hits if h.match == "any")
    # Session evidence reorders the page, so rows with some words can come before rows with every word: each is
    # marked where it stands, and the count line says what the marks mean.
    mixed = 0 < partial < len(result.hits)
    some = f"  {message(say, 'search.some')}" if mixed else ""
    lines = [index_line(h, marker=some if h.match == "any" else "") for h in result.hits]
    if mixed:
        lines.append(message(say, "search.partial", full=len(result.hits) - partial, partial=partial))
    elif partial:
        lines.append(message(say, "search.only_partial"))
    return "\n".join(lines)


def format_timeline(tl: Timeline) -> str:
    if not tl.items:
        return f"Nothing in memory around {tl.anchor!r}."
    return "\n".join(
        index_line(h, marker="  <- anchor" if i == tl.anchor_index else "") for i, h in enumerate(tl.items)
    )


def format_record(record: dict) -> str:
    """A full record as readable text: scalar fields as `key: value`, lists as bullets."""
    lines = [f"== {record['ref']} ({record['kind']})"]
    for key, value in record.items():
        if key in ("ref", "kind") or value in (None, "", [], {}):
            continue
        if isinstance(value, list):
            lines.append(f"{key}:")
            lines += [f"  - {item}" for item in value]
        else:
            text = str(value)
            lines.append(f"{key}: {text}" if "\n" not in text else f"{key}:\n  " + text.replace("\n", "\n  "))
    return "\n".join(lines)
