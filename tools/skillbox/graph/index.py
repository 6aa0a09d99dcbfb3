"""The reader of the query index: `GraphIndex`, what `query`, `path`, `explain`, `affected` and MCP read.

Parsing Django's graph.json alone takes ~0.5 s, more than a query may cost as a process. The index holds the same
nodes and edges with lookups by id, name, file, source and target, plus an FTS5 table over node text (name words,
path parts, docstring) for free-text questions. It lives in `<graph dir>/cache/query-index.sqlite`, is keyed on
graph.json's size and mtime (`graph_stamp`), and is written by `index_writer` (build writes it up front). This
module never imports the writer: a reader meets it only when the index is missing or stale and must be written
first (`GraphIndex.open`), and then imports it on the spot.
Each node's community from communities.json, when present, is copied in so `explain` can name it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import orjson

from skillbox.errors import NotFoundError
from skillbox.graph.code_graph import CodeGraph, Edge, is_test_path, note_text, resolve_graph_path

INDEX_VERSION = 7
# Kinds that are not code symbols: left out of "god nodes" (the most connected symbols).
NON_SYMBOL_KINDS = ("file", "module", "external", "heading", "concept")
CORE_FIELDS = ("id", "kind", "name", "file", "line")
_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


@functools.lru_cache(maxsize=200_000)
def split_words(text: str) -> tuple[str, ...]:
    """Identifier and path text as lower-case words: `getHTTPResponse_v2` -> get, http, response, v, 2."""
    return tuple(w.lower() for w in _WORDS.findall(text))


def search_terms(name: str, file: str | None, extra: dict) -> tuple[str, str, str]:
    """The FTS columns (name words, path words, doc text) of a node given by its stored columns."""
    qual = str(extra.get("qualname") or "")
    name_words = [name.lower(), *split_words(name), *split_words(qual)]
    path_words = split_words(str(file or ""))
    doc = " ".join(note_text(extra.get(k)) for k in ("docstring", "notes", "doc") if extra.get(k))
    return " ".join(name_words), " ".join(path_words), doc[:2000]


def _adjacent_order(a: Adjacent) -> tuple:
    return (not a.outgoing, a.peer.id, a.relation, a.line or 0, a.file or "", a.confidence, a.score or 0.0)


class Adjacent(NamedTuple):
    """One edge seen from one of its ends: the edge's row, the node at the other end, and which way it points."""

    rowid: int
    peer_rid: int
    outgoing: bool
    relation: str
    confidence: str
    file: str | None
    line: int | None
    score: float | None
    peer: NodeRow
    reason: str | None = None  # the resolver's reason for a guess, when graph.json records one


@dataclass(eq=False)
class NodeRow:
    """One node as the index stores it. Rows are cached for the life of a GraphIndex, so what the query code
    derives from a row (its label, location, search words) is worked out once per process, not once per call."""

    id: str
    kind: str
    name: str
    file: str | None
    line: int | None
    degree: int
    extra_json: str | None = field(default=None, repr=False)

    @functools.cached_property
    def extra(self) -> dict:
        """Every attribute besides the core ones; decoded on first use (a path search reads thousands of rows
        and looks at the attributes of a handful)."""
        return orjson.loads(self.extra_json) if self.extra_json else {}

    def as_dict(self) -> dict:
        data = {"id": self.id, "kind": self.kind, "name": self.name, "file": self.file, "line": self.line}
        data.update(self.extra)
        return data

    @property
    def docstring(self):
        """The build records a docstring as `doc`; hand-made and older graphs say `docstring`."""
        return self.extra.get("docstring") or self.extra.get("doc")

    @functools.cached_property
    def label(self) -> str:
        """`Class.method` where the graph knows it (qualname, or the part of a `path::Class.method` id)."""
        qualname = self.extra.get("qualname")
        if qualname:
            return qualname
        if self.file and self.id.startswith(self.file + "::"):
            return self.id[len(self.file) + 2 :]
        return self.name

    @functools.cached_property
    def location(self) -> str:
        if not self.file:
            return "?"
        return f"{self.file}:{self.line}" if self.line else self.file

    @functools.cached_property
    def in_tests(self) -> bool:
        return is_test_path(self.file)


def index_path_for(graph_path: Path) -> Path:
    return graph_path.parent / "cache" / "query-index.sqlite"


def graph_stamp(graph_path: Path) -> str:
    st = graph_path.stat()
    return f"{INDEX_VERSION}:{st.st_size}:{st.st_mtime_ns}"


def communities_stamp(graph_path: Path) -> str:
    path = graph_path.parent / "communities.json"
    try:
        st = path.stat()
    except OSError:
        return "none"
    return f"{st.st_size}:{st.st_mtime_ns}"


def chunks(items: list, size: int = 500):
    """`items` in slices small enough for one SQL `IN (...)` list."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


class GraphIndex:
    """Read access to one graph.json through its SQLite index."""

    # A warm process (the MCP server) keeps what it read: node rows, each node's incident edges and whatever
    # derived per-node facts the query code memoises. Bounded, and thrown away with the index when graph.json
    # changes (the server then opens a new GraphIndex).
    MAX_CACHED_EDGES = 400_000

    def __init__(self, graph_path: Path, db: sqlite3.Connection):
        self.graph_path = graph_path
        self.db = db
        self.meta = json.loads(self._meta("graph") or "{}")
        # what the index described when opened: an in-place update rewrites these, and must not go unnoticed
        self._opened = (self._meta("stamp"), self._meta("communities"))
        self._node_cache: dict[int, NodeRow] = {}
        self._by_id: dict[str, NodeRow] = {}
        self._rid_of: dict[str, int] = {}
        self._file_cache: dict[int, str | None] = {}
        self._percentiles: dict[float, int] = {}
        self._adjacency: dict[int, tuple[Adjacent, ...]] = {}
        self._adjacency_edges = 0
        self._memos: dict[str, dict] = {}

    # -- opening -------------------------------------------------------------------------------------------------
    @classmethod
    def open(cls, graph: str | Path | None = None, *, check_same_thread: bool = True) -> GraphIndex:
        graph_path = resolve_graph_path(graph)
        if not graph_path.is_file():
            raise NotFoundError(f"no graph at {graph_path}: run `skillbox graph build` first (or pass --graph FILE)")
        for index in (index_path_for(graph_path), _private_index_path(graph_path)):
            db = _connect_if_fresh(index, graph_path, check_same_thread)
            if db is not None:
                return cls(graph_path, db)
        from skillbox.graph.index_writer import write_index  # the index is missing or stale: write it first

        graph_data = _load(graph_path)
        try:
            index = write_index(graph_data, graph_path)
        except OSError:
            # read-only output folder: keep the index in a private temp folder instead
            index = write_index(graph_data, graph_path, _private_index_path(graph_path))
        return cls(graph_path, sqlite3.connect(f"file:{index}?mode=ro", uri=True, check_same_thread=check_same_thread))

    def is_current(self) -> bool:
        """False once graph.json (or communities.json) changed after this index was opened."""
        try:
            return self._opened == (graph_stamp(self.graph_path), communities_stamp(self.graph_path))
        except OSError:
            return False

    def close(self) -> None:
        self.db.close()

    def _meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    # -- nodes ---------------------------------------------------------------------------------------------------
    def _row(self, row: tuple) -> NodeRow:
        rid = row[0]
        cached = self._node_cache.get(rid)
        if cached is None:
            cached = NodeRow(row[1], row[2], row[3], row[4], row[5], row[6], row[7])
            self._node_cache[rid] = cached
            self._by_id[cached.id] = cached
            self._rid_of[cached.id] = rid
            self._file_cache[rid] = cached.file
        return cached

    def memo(self, name: str) -> dict:
        """A dict living as long as this index, for facts derived from its nodes (labels, search features...)."""
        table = self._memos.get(name)
        if table is None:
            table = self._memos[name] = {}
        elif len(table) > 200_000:
            table.clear()
        return table

    _NODE_COLS = "rid, id, kind, name, file, line, degree, extra"

    def rid(self, node_id: str) -> int | None:
        known = self._rid_of.get(node_id)
        if known is not None:
            return known
        row = self.db.execute("SELECT rid FROM nodes WHERE id=?", (node_id,)).fetchone()
        return row[0] if row else None

    def node(self, node_id: str) -> NodeRow | None:
        cached = self._by_id.get(node_id)
        if cached is not None:
            return cached
        row = self.db.execute(f"SELECT {self._NODE_COLS} FROM nodes WHERE id=?", (node_id,)).fetchone()
        return self._row(row) if row else None

    def node_by_rid(self, rid: int) -> NodeRow:
        cached = self._node_cache.get(rid)
        if cached is not None:
            return cached
        return self._row(self.db.execute(f"SELECT {self._NODE_COLS} FROM nodes WHERE rid=?", (rid,)).fetchone())

    def nodes_named(self, name: str) -> list[NodeRow]:
        rows = self.db.execute(
            f"SELECT {self._NODE_COLS} FROM nodes WHERE lname=? ORDER BY id", (name.lower(),)
        ).fetchall()
        return [self._row(r) for r in rows]

    def nodes_in_file(self, file: str) -> list[NodeRow]:
        rows = self.db.execute(
            f"SELECT {self._NODE_COLS} FROM nodes WHERE file=? ORDER BY line, id", (file,)
        ).fetchall()
        return [self._row(r) for r in rows]

    def files_ending_with(self, suffix: str) -> list[str]:
        rows = self.db.execute(
            "SELECT DISTINCT file FROM nodes WHERE file = ? OR file LIKE ? ESCAPE '\\' ORDER BY file",
            (suffix, "%/" + suffix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")),
        ).fetchall()
        return [r[0] for r in rows]

    def all_names(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT DISTINCT name FROM nodes ORDER BY name")]

    def all_files(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT DISTINCT file FROM nodes WHERE file IS NOT NULL ORDER BY file")]

    def top_by_degree(self, limit: int, exclude_kinds: tuple[str, ...] = NON_SYMBOL_KINDS) -> list[NodeRow]:
        marks = ",".join("?" * len(exclude_kinds))
        rows = self.db.execute(
            f"SELECT {self._NODE_COLS} FROM nodes WHERE kind NOT IN ({marks}) ORDER BY degree DESC, id LIMIT ?",
            (*exclude_kinds, limit),
        ).fetchall()
        return [self._row(r) for r in rows]

    def symbol_rids(self, exclude_kinds: tuple[str, ...] = NON_SYMBOL_KINDS) -> list[int]:
        """Row ids of the code symbols (files, modules, externals, headings left out)."""
        marks = ",".join("?" * len(exclude_kinds))
        return [r[0] for r in self.db.execute(f"SELECT rid FROM nodes WHERE kind NOT IN ({marks})", exclude_kinds)]

    def dependency_degrees(self, structure: frozenset[str], include_ambiguous: bool = False) -> dict[int, int]:
        """rid -> edges at the node other than `structure` relations, counting only edges whose source lies
        outside test files, AMBIGUOUS ones only when asked (the report's definition of a god node's degree)."""
        marks = ",".join("?" * len(structure))
        where = f"e.relation NOT IN ({marks})" + ("" if include_ambiguous else " AND e.confidence != 'AMBIGUOUS'")
        degree: dict[int, int] = {}
        test_file: dict[str | None, bool] = {}
        rows = self.db.execute(
            f"SELECT e.source, e.target, s.file FROM edges e JOIN nodes s ON s.rid = e.source WHERE {where}",
            tuple(sorted(structure)),
        )
        for source, target, file in rows:
            in_tests = test_file.get(file)
            if in_tests is None:
                in_tests = test_file[file] = is_test_path(file)
            if in_tests:
                continue
            degree[source] = degree.get(source, 0) + 1
            degree[target] = degree.get(target, 0) + 1
        return degree

    def fts_hits(self, match: str, limit: int) -> list[NodeRow]:
        """Nodes whose text (name words, path words, docstring) matches the FTS5 expression `match`, the best
        `limit` by bm25 (name weighted over path, doc), equal scores by node id so the hits never depend on row
        ids. Ranks the FTS rows alone, with some to spare for a tie at the cut; only a tie longer than the spare
        (rare) takes the slower query that joins the nodes to order by id."""
        spare = limit + max(20, limit // 2)
        ranked = self.db.execute(
            "SELECT rowid, bm25(node_text, 10.0, 2.0, 1.0) AS score FROM node_text WHERE node_text MATCH ? "
            "ORDER BY score LIMIT ?",
            (match, spare),
        ).fetchall()
        if len(ranked) > limit:
            cut = ranked[limit - 1][1]
            if len(ranked) == spare and ranked[-1][1] == cut:
                ranked = self.db.execute(
                    "SELECT n.rid, bm25(node_text, 10.0, 2.0, 1.0) AS score FROM node_text "
                    "JOIN nodes n ON n.rid = node_text.rowid WHERE node_text MATCH ? ORDER BY score, n.id LIMIT ?",
                    (match, limit),
                ).fetchall()
            else:
                ranked = [r for r in ranked if r[1] <= cut]
        self._load_rows([rid for rid, _score in ranked])
        ranked.sort(key=lambda r: (r[1], self.node_by_rid(r[0]).id))
        return [self.node_by_rid(rid) for rid, _score in ranked[:limit]]

    def fts_count(self, match: str) -> int:
        """How many nodes the FTS5 expression matches (a term's document frequency)."""
        return self.db.execute("SELECT count(*) FROM node_text WHERE node_text MATCH ?", (match,)).fetchone()[0]

    def node_count(self) -> int:
        return self.db.execute("SELECT count(*) FROM nodes").fetchone()[0]

    def _load_rows(self, rids: list[int]) -> None:
        """Read the rows of `rids` not cached yet, in one query."""
        missing = [rid for rid in rids if rid not in self._node_cache]
        for chunk in chunks(missing):
            marks = ",".join("?" * len(chunk))
            for row in self.db.execute(f"SELECT {self._NODE_COLS} FROM nodes WHERE rid IN ({marks})", chunk):
                self._row(row)

    # -- edges ---------------------------------------------------------------------------------------------------
    _PEER = "p.rid, p.id, p.kind, p.name, p.file, p.line, p.degree, p.extra"

    def adjacent(self, rid: int) -> tuple[Adjacent, ...]:
        """Every edge touching node `rid`, outgoing ones first, each with its peer's row; kept for later calls."""
        cached = self._adjacency.get(rid)
        if cached is not None:
            return cached
        result = []
        my_file = self.node_by_rid(rid).file
        for outgoing, mine, theirs, source_file in (
            (True, "source", "target", "?"),
            (False, "target", "source", "p.file"),
        ):
            rows = self.db.execute(
                f"SELECT e.rowid, e.relation, e.confidence, NULLIF(COALESCE(e.file, {source_file}), ''), e.line, "
                f"e.score, e.reason, {self._PEER} FROM edges e JOIN nodes p ON p.rid = e.{theirs} WHERE e.{mine} = ?",
                (my_file, rid) if outgoing else (rid,),
            )
            for rowid, relation, confidence, file, line, score, reason, *peer in rows:
                result.append(
                    Adjacent(rowid, peer[0], outgoing, relation, confidence, file, line, score, self._row(peer), reason)
                )
        # in an order of ids, not row ids: an index updated in place answers exactly like a fresh one
        result.sort(key=_adjacent_order)
        cached = tuple(result)
        if self._adjacency_edges + len(cached) > self.MAX_CACHED_EDGES:
            self._adjacency.clear()
            self._adjacency_edges = 0
        self._adjacency[rid] = cached
        self._adjacency_edges += len(cached)
        return cached

    def edge_ends(self, rid: int) -> list[tuple[int, int, bool, str, str, str | None]]:
        """(edge rowid, peer rid, outgoing?, relation, confidence, peer's file) for every edge touching node
        `rid`, in the same id order as `adjacent` but without reading whole peer rows: what a path search needs
        from the many nodes it only passes through."""
        cached = self._adjacency.get(rid)
        if cached is not None:
            return [(a.rowid, a.peer_rid, a.outgoing, a.relation, a.confidence, a.peer.file) for a in cached]
        ends = []
        my_file = self.node_by_rid(rid).file
        for outgoing, mine, theirs in ((True, "source", "target"), (False, "target", "source")):
            for rowid, peer, peer_id, peer_file, relation, confidence, line, file, score in self.db.execute(
                "SELECT e.rowid, p.rid, p.id, p.file, e.relation, e.confidence, e.line, e.file, e.score FROM edges e "
                f"JOIN nodes p ON p.rid = e.{theirs} WHERE e.{mine} = ?",
                (rid,),
            ):
                self._file_cache[peer] = peer_file
                if file is None:  # written in its source node's file, as `adjacent` reads it back
                    file = my_file if outgoing else peer_file
                key = (not outgoing, peer_id, relation, line or 0, file or "", confidence, score or 0.0)
                ends.append((key, (rowid, peer, outgoing, relation, confidence, peer_file)))
        ends.sort(key=lambda pair: pair[0])
        return [end for _key, end in ends]

    def neighbours(self, node_id: str) -> list[tuple[Edge, str, bool]]:
        """(edge, other node id, outgoing?) for every edge touching `node_id`; peers land in the node cache, so
        looking them up afterwards costs no query."""
        me = self.node(node_id)
        if me is None:
            return []
        result = []
        for adj in self.adjacent(self.rid(node_id)):
            other = adj.peer.id
            edge = (
                Edge(node_id, other, adj.relation, adj.confidence, adj.file, adj.line, adj.score, adj.reason)
                if adj.outgoing
                else Edge(other, node_id, adj.relation, adj.confidence, adj.file, adj.line, adj.score, adj.reason)
            )
            result.append((edge, other, adj.outgoing))
        return result

    def out_edges(self, node_id: str) -> list[Edge]:
        return [e for e, _other, outgoing in self.neighbours(node_id) if outgoing]

    def in_edges(self, node_id: str) -> list[Edge]:
        return [e for e, _other, outgoing in self.neighbours(node_id) if not outgoing]

    def incident(self, rid: int) -> list[tuple[int, int, int, str, str]]:
        """(edge rowid, source rid, target rid, relation, confidence) for edges touching node `rid`: the cheap
        form graph searches use; `edge()` turns the few edges that end up in an answer into `Edge`s."""
        return [
            (a.rowid, rid, a.peer_rid, a.relation, a.confidence)
            if a.outgoing
            else (a.rowid, a.peer_rid, rid, a.relation, a.confidence)
            for a in self.adjacent(rid)
        ]

    def rid_file(self, rid: int) -> str | None:
        cached = self._file_cache.get(rid)
        if cached is None and rid not in self._file_cache:
            row = self.db.execute("SELECT file FROM nodes WHERE rid=?", (rid,)).fetchone()
            cached = self._file_cache[rid] = row[0] if row else None
        return cached

    def edge(self, rowid: int) -> Edge:
        row = self.db.execute(
            "SELECT s.id, t.id, e.relation, e.confidence, NULLIF(COALESCE(e.file, s.file), ''), e.line, e.score, "
            "e.reason "
            "FROM edges e JOIN nodes s ON s.rid = e.source JOIN nodes t ON t.rid = e.target WHERE e.rowid = ?",
            (rowid,),
        ).fetchone()
        return Edge(*row)

    # -- whole-graph facts ---------------------------------------------------------------------------------------
    def counts(self) -> dict:
        db = self.db
        return {
            "nodes": db.execute("SELECT count(*) FROM nodes").fetchone()[0],
            "edges": db.execute("SELECT count(*) FROM edges").fetchone()[0],
            "files": db.execute("SELECT count(DISTINCT file) FROM nodes WHERE file IS NOT NULL").fetchone()[0],
            "kinds": dict(db.execute("SELECT kind, count(*) FROM nodes GROUP BY kind ORDER BY 2 DESC, 1").fetchall()),
            "relations": dict(
                db.execute("SELECT relation, count(*) FROM edges GROUP BY relation ORDER BY 2 DESC, 1").fetchall()
            ),
            "confidence": dict(
                db.execute("SELECT confidence, count(*) FROM edges GROUP BY confidence ORDER BY 2 DESC, 1").fetchall()
            ),
            "communities": db.execute("SELECT count(*) FROM communities").fetchone()[0],
        }

    def degree_percentile(self, fraction: float) -> int:
        if fraction not in self._percentiles:
            self._percentiles[fraction] = self._degree_percentile(fraction)
        return self._percentiles[fraction]

    def _degree_percentile(self, fraction: float) -> int:
        recorded = self._meta(f"degree_p{round(fraction * 100)}")
        if recorded is not None:
            return int(recorded)
        total = self.db.execute("SELECT count(*) FROM nodes").fetchone()[0]
        if not total:
            return 0
        offset = min(total - 1, int(total * (1 - fraction)))
        row = self.db.execute("SELECT degree FROM nodes ORDER BY degree DESC LIMIT 1 OFFSET ?", (offset,)).fetchone()
        return row[0] if row else 0

    def community_of(self, node_id: str) -> dict | None:
        row = self.db.execute(
            "SELECT c.id, c.label, c.size, c.cohesion FROM nodes n JOIN communities c ON c.id = n.community "
            "WHERE n.id = ?",
            (node_id,),
        ).fetchone()
        return {"id": row[0], "label": row[1], "size": row[2], "cohesion": row[3]} if row else None

    def community(self, community_id: int) -> tuple[dict, list[NodeRow]] | None:
        row = self.db.execute(
            "SELECT id, label, size, cohesion FROM communities WHERE id=?", (community_id,)
        ).fetchone()
        if row is None:
            return None
        members = self.db.execute(
            f"SELECT {self._NODE_COLS} FROM nodes WHERE community = ? ORDER BY degree DESC, id",
            (community_id,),
        ).fetchall()
        info = {"id": row[0], "label": row[1], "size": row[2], "cohesion": row[3]}
        return info, [self._row(r) for r in members]

    def communities(self) -> list[dict]:
        rows = self.db.execute("SELECT id, label, size, cohesion FROM communities ORDER BY size DESC, id").fetchall()
        return [{"id": r[0], "label": r[1], "size": r[2], "cohesion": r[3]} for r in rows]


def _load(graph_path: Path) -> CodeGraph:
    from skillbox.graph.code_graph import load_graph

    return load_graph(graph_path)


def _connect_if_fresh(index: Path, graph_path: Path, check_same_thread: bool = True) -> sqlite3.Connection | None:
    if not index.is_file():
        return None
    try:
        db = sqlite3.connect(f"file:{index}?mode=ro", uri=True, check_same_thread=check_same_thread)
        rows = dict(db.execute("SELECT key, value FROM meta WHERE key IN ('stamp', 'communities')").fetchall())
    except sqlite3.Error:
        return None
    if rows.get("stamp") == graph_stamp(graph_path) and rows.get("communities") == communities_stamp(graph_path):
        return db
    db.close()
    return None


def _private_index_path(graph_path: Path) -> Path:
    key = hashlib.sha256(str(graph_path.resolve()).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"skillbox-index-{key}" / "query-index.sqlite"
