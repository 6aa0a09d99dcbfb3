"""A SQLite index of graph.json, so one-shot queries don't pay for parsing the whole graph.

Parsing Django's graph.json alone takes ~0.5 s, more than a query may cost as a process. The index holds the same
nodes and edges with lookups by id, name, file, source and target, plus an FTS5 table over node text (name words,
path parts, docstring) for free-text questions. It lives in `<graph dir>/cache/query-index.sqlite`, is keyed on
graph.json's size and mtime, and is rebuilt (atomically) whenever graph.json changes; `build` creates it up front.
Community membership from communities.json, when present, is copied in so `explain` can name a node's community.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import orjson

from skillbox.errors import NotFoundError
from skillbox.graph.graphfile import CodeGraph, Edge, is_test_path, note_text, resolve_graph_path

INDEX_VERSION = 5
# Kinds that are not code symbols: left out of "god nodes" (the most connected symbols).
NON_SYMBOL_KINDS = ("file", "module", "external", "heading", "concept")
_CORE_FIELDS = ("id", "kind", "name", "file", "line")
_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


@functools.lru_cache(maxsize=200_000)
def split_words(text: str) -> tuple[str, ...]:
    """Identifier and path text as lower-case words: `getHTTPResponse_v2` -> get, http, response, v, 2."""
    return tuple(w.lower() for w in _WORDS.findall(text))


def node_terms(node: dict) -> tuple[str, str, str]:
    """FTS columns for a node: name words (+ the whole name), path words, docstring/notes."""
    return _terms(str(node.get("name") or node.get("id") or ""), node.get("file"), node)


def _terms(name: str, file: str | None, extra: dict) -> tuple[str, str, str]:
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


@dataclass(frozen=True)
class NodeRow:
    """One node as the index stores it. Rows are cached for the life of a GraphIndex, so what the query code
    derives from a row (its label, location, search words) is worked out once per process, not once per call."""

    id: str
    kind: str
    name: str
    file: str | None
    line: int | None
    degree: int
    extra: dict

    def as_dict(self) -> dict:
        data = {"id": self.id, "kind": self.kind, "name": self.name, "file": self.file, "line": self.line}
        data.update(self.extra)
        return data

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

    @functools.cached_property
    def search_words(self) -> tuple[str, frozenset[str], str, frozenset[str], str]:
        """(lower-case name, name words, the name words each after a space — so `" " + prefix in it` tells whether
        a word starts with prefix —, path words, lower-case docstring/notes) for re-ranking search hits."""
        lname = self.name.lower()
        words = frozenset(split_words(self.name)) | {lname}
        doc = " ".join(note_text(self.extra.get(k)) for k in ("docstring", "notes")).lower()
        spaced = "".join(" " + w for w in sorted(words))
        return lname, words, spaced, frozenset(split_words(self.file or "")), doc


def index_path_for(graph_path: Path) -> Path:
    return graph_path.parent / "cache" / "query-index.sqlite"


def _stamp(graph_path: Path) -> str:
    st = graph_path.stat()
    return f"{INDEX_VERSION}:{st.st_size}:{st.st_mtime_ns}"


def _communities_stamp(graph_path: Path) -> str:
    path = graph_path.parent / "communities.json"
    try:
        st = path.stat()
    except OSError:
        return "none"
    return f"{st.st_size}:{st.st_mtime_ns}"


SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE nodes(rid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, kind TEXT, name TEXT, lname TEXT,
                   file TEXT, line INTEGER, degree INTEGER, extra TEXT);
CREATE TABLE edges(source INTEGER, target INTEGER, relation TEXT, confidence TEXT, file TEXT, line INTEGER,
                   score REAL);
CREATE VIRTUAL TABLE node_text USING fts5(name, path, doc, content='', tokenize='unicode61');
CREATE TABLE communities(id INTEGER PRIMARY KEY, label TEXT, size INTEGER, cohesion REAL, members TEXT);
CREATE TABLE membership(rid INTEGER PRIMARY KEY, community INTEGER);
"""


INDEXES = """
CREATE INDEX nodes_lname ON nodes(lname);
CREATE INDEX nodes_file ON nodes(file);
CREATE INDEX edges_source ON edges(source);
CREATE INDEX edges_target ON edges(target);
CREATE INDEX membership_community ON membership(community);
"""


def _node_row(rid: int, node_id: str, node: dict, degree: int) -> tuple[tuple, tuple]:
    """The `nodes` row and the `node_text` row of one node. The FTS words are derived from the stored columns
    only, so an update can recompute exactly what was indexed (a contentless FTS table deletes by value)."""
    extra = {k: v for k, v in node.items() if k not in _CORE_FIELDS}
    name = str(node.get("name") or node_id)
    line = node.get("line")
    file = node.get("file")
    row = (
        rid,
        node_id,
        node.get("kind", ""),
        name,
        name.lower(),
        file,
        line if isinstance(line, int) else None,
        degree,
        orjson.dumps(extra).decode() if extra else None,
    )
    return row, (rid, *_terms(name, file, extra))


def _degrees(graph: CodeGraph) -> dict[str, int]:
    out_edges, in_edges = graph.out_edges, graph.in_edges
    return {n: len(out_edges.get(n, ())) + len(in_edges.get(n, ())) for n in graph.nodes}


def _p99(ascending: list[int]) -> int:
    return ascending[min(len(ascending) - 1, int(len(ascending) * 0.99))] if ascending else 0


def _edges_follow_sources(graph: CodeGraph, edges) -> bool:
    """Whether every edge is written in its source node's file: then a file's edges are the out-edges of its
    nodes, which is how `update_index` finds them."""
    nodes = graph.nodes
    return all(e.file == nodes[e.source].get("file") for e in edges)


def write_index(graph: CodeGraph, graph_path: Path, target: Path | None = None) -> Path:
    """(Re)build the index for `graph` (already loaded from `graph_path`); returns the index path."""
    target = target or index_path_for(graph_path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=".query-index-", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        db = sqlite3.connect(tmp)
        db.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;" + SCHEMA)
        degrees = _degrees(graph)
        rid_of: dict[str, int] = {}
        rows = []
        text_rows = []
        for rid, (node_id, node) in enumerate(graph.nodes.items(), start=1):
            rid_of[node_id] = rid
            row, text = _node_row(rid, node_id, node, degrees[node_id])
            rows.append(row)
            text_rows.append(text)
        db.executemany("INSERT INTO nodes VALUES (?,?,?,?,?,?,?,?,?)", rows)
        db.executemany("INSERT INTO node_text(rowid, name, path, doc) VALUES (?,?,?,?)", text_rows)
        db.executemany(
            "INSERT INTO edges VALUES (?,?,?,?,?,?,?)",
            (
                (rid_of[e.source], rid_of[e.target], e.relation, e.confidence, e.file, e.line, e.score)
                for e in graph.edges
            ),
        )
        # indexes after the bulk insert: one sort each instead of a b-tree update per row
        db.executescript(INDEXES)
        _write_communities(db, graph_path, lambda _ids: rid_of, fresh=True)
        meta = {
            "degree_p99": str(_p99(sorted(degrees.values()))),
            "stamp": _stamp(graph_path),
            "communities": _communities_stamp(graph_path),
            "communities_digest": _communities_digest(graph_path),
            "graph": json.dumps(graph.meta),
            "nodes": str(len(rows)),
            "edges": str(len(graph.edges)),
            "edges_follow_sources": "1" if _edges_follow_sources(graph, graph.edges) else "0",
        }
        db.executemany("INSERT INTO meta VALUES (?,?)", meta.items())
        db.commit()
        db.close()
        os.replace(tmp, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    return target


def _read_communities(graph_path: Path) -> list[dict] | None:
    path = graph_path.parent / "communities.json"
    if not path.is_file():
        return None
    try:
        communities = orjson.loads(path.read_bytes())["communities"]
        return [dict(c, id=int(c["id"])) for c in communities]
    except (OSError, ValueError, KeyError, TypeError):
        return None  # a damaged communities.json only costs the community names in answers


def _communities_digest(graph_path: Path) -> str:
    try:
        return hashlib.sha256((graph_path.parent / "communities.json").read_bytes()).hexdigest()
    except OSError:
        return "none"


def _members_digest(members: list) -> str:
    return hashlib.blake2b("\n".join(map(str, members)).encode(), digest_size=16).hexdigest()


def _write_communities(db: sqlite3.Connection, graph_path: Path, rid_of, fresh: bool) -> None:
    """Copy communities.json into `communities` (rewritten: a few hundred rows) and `membership`: filled when
    `fresh`, else only the members of communities whose member list changed are rewritten (a rebuild seeded
    from the last partition moves few nodes). `rid_of(ids)` gives the row id of each listed node in the graph."""
    communities = _read_communities(graph_path) or []
    stored = {} if fresh else dict(db.execute("SELECT id, members FROM communities"))
    digests = {c["id"]: _members_digest(c.get("members", [])) for c in communities}
    db.execute("DELETE FROM communities")
    db.executemany(
        "INSERT INTO communities VALUES (?,?,?,?,?)",
        ((c["id"], c.get("label"), c.get("size"), c.get("cohesion"), digests[c["id"]]) for c in communities),
    )
    redo = [c for c in communities if stored.get(c["id"]) != digests[c["id"]]]
    for cid in sorted(set(stored) - set(digests) | {c["id"] for c in redo}) if not fresh else ():
        db.execute("DELETE FROM membership WHERE community=?", (cid,))
    rids = rid_of([m for c in redo for m in c.get("members", [])])
    membership: dict[int, int] = {}
    for community in redo:  # a node listed twice belongs to the last community naming it
        for member in community.get("members", []):
            rid = rids.get(member)
            if rid is not None:
                membership[rid] = community["id"]
    db.executemany("INSERT OR REPLACE INTO membership VALUES (?,?)", sorted(membership.items()))


class StaleIndexError(Exception):
    """The index on disk does not describe the previous graph; `update_index` rebuilds it instead."""


def update_index(graph: CodeGraph, graph_path: Path, changed_files: set[str], target: Path | None = None) -> Path:
    """Bring the index up to date with `graph` in place, when only the nodes and edges of `changed_files`
    changed since the index was written (a node's file is `node["file"]`; an edge's is the file it is written
    in; nodes outside any file — external modules — count as the file ""). One transaction: a crash leaves the
    previous index. Node rows of ids that persist keep their row ids, so the edges of untouched files stay valid.
    Falls back to `write_index` when the index is missing, of another version, or doesn't fit the previous graph.
    """
    target = target or index_path_for(graph_path)
    try:
        db = sqlite3.connect(target, isolation_level=None)
    except sqlite3.Error:
        return write_index(graph, graph_path, target)
    try:
        db.execute("BEGIN IMMEDIATE")
        _apply_update(db, graph, graph_path, {f or "" for f in changed_files})
        db.execute("COMMIT")
    except (sqlite3.Error, StaleIndexError, KeyError):
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        db.close()
        return write_index(graph, graph_path, target)
    db.close()
    return target


def _file_filter(files: set[str]) -> tuple[str, list]:
    """SQL condition on `file` matching `files`, where "" stands for nodes without a file."""
    named = sorted(f for f in files if f)
    parts = []
    if named:
        parts.append(f"file IN ({','.join('?' * len(named))})")
    if "" in files:
        parts.append("file IS NULL")
    return " OR ".join(parts) or "0", named


def _apply_update(db: sqlite3.Connection, graph: CodeGraph, graph_path: Path, changed: set[str]) -> None:
    meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
    if not meta.get("stamp", "").startswith(f"{INDEX_VERSION}:") or meta.get("edges_follow_sources") != "1":
        raise StaleIndexError("index of another version, or edges not written in their source files")
    nodes = graph.nodes
    where, params = _file_filter(changed)
    old = {
        row[1]: row
        for row in db.execute(f"SELECT rid, id, kind, name, file, line, extra FROM nodes WHERE {where}", params)
    }
    if "" in changed:
        new_ids = [n for n, d in nodes.items() if (d.get("file") or "") in changed]
    else:
        new_ids = [n for n, d in nodes.items() if d.get("file") in changed]
    new_set = set(new_ids)
    removed = [row for node_id, row in old.items() if node_id not in new_set]
    removed_rids = [row[0] for row in removed]

    # edges of the changed files: out of their old nodes (old index) / their new nodes (new graph)
    old_rids = [row[0] for row in old.values()]
    touched: set[int] = set()
    old_edges = 0
    for chunk in _chunks(old_rids):
        marks = ",".join("?" * len(chunk))
        for source, target in db.execute(f"SELECT source, target FROM edges WHERE source IN ({marks})", chunk):
            touched.add(source)
            touched.add(target)
            old_edges += 1
        db.execute(f"DELETE FROM edges WHERE source IN ({marks})", chunk)

    for rid, _id, _kind, name, file, _line, extra in removed:
        db.execute(
            "INSERT INTO node_text(node_text, rowid, name, path, doc) VALUES ('delete',?,?,?,?)",
            (rid, *_terms(name, file, json.loads(extra) if extra else {})),
        )
    for chunk in _chunks(removed_rids):
        marks = ",".join("?" * len(chunk))
        db.execute(f"DELETE FROM nodes WHERE rid IN ({marks})", chunk)
        if db.execute(f"SELECT 1 FROM edges WHERE target IN ({marks}) LIMIT 1", chunk).fetchone():
            raise StaleIndexError("an unchanged file still has edges to a removed node")

    degrees = _degrees_of(graph, new_ids)
    next_rid = (db.execute("SELECT max(rid) FROM nodes").fetchone()[0] or 0) + 1
    rid_of: dict[str, int] = {}
    for node_id in new_ids:
        previous = old.get(node_id)
        if previous is None:
            rid = rid_of[node_id] = next_rid
            next_rid += 1
            row, text = _node_row(rid, node_id, nodes[node_id], degrees[node_id])
            db.execute("INSERT INTO nodes VALUES (?,?,?,?,?,?,?,?,?)", row)
            db.execute("INSERT INTO node_text(rowid, name, path, doc) VALUES (?,?,?,?)", text)
            continue
        rid = rid_of[node_id] = previous[0]
        row, text = _node_row(rid, node_id, nodes[node_id], degrees[node_id])
        if (row[2], row[3], row[5], row[6], row[8]) != previous[2:]:
            db.execute(
                "UPDATE nodes SET kind=?, name=?, lname=?, file=?, line=?, extra=? WHERE rid=?",
                (row[2], row[3], row[4], row[5], row[6], row[8], rid),
            )
            old_text = _terms(previous[3], previous[4], json.loads(previous[6]) if previous[6] else {})
            if old_text != text[1:]:
                db.execute(
                    "INSERT INTO node_text(node_text, rowid, name, path, doc) VALUES ('delete',?,?,?,?)",
                    (rid, *old_text),
                )
                db.execute("INSERT INTO node_text(rowid, name, path, doc) VALUES (?,?,?,?)", text)

    # new edges of the changed files; their far ends outside those files keep their row ids
    new_edges = [e for n in new_ids for e in graph.out_edges.get(n, ())]
    if not _edges_follow_sources(graph, new_edges):
        raise StaleIndexError("an edge is not written in its source node's file")
    far = sorted({e.target for e in new_edges if e.target not in rid_of})
    for chunk in _chunks(far):
        rows = db.execute(f"SELECT id, rid FROM nodes WHERE id IN ({','.join('?' * len(chunk))})", chunk)
        rid_of.update(rows)
    db.executemany(
        "INSERT INTO edges VALUES (?,?,?,?,?,?,?)",
        ((rid_of[e.source], rid_of[e.target], e.relation, e.confidence, e.file, e.line, e.score) for e in new_edges),
    )
    touched.update(rid_of[e.target] for e in new_edges)
    touched.difference_update(removed_rids)

    # degrees of every node an old or new edge touched
    by_rid = {rid: node_id for node_id, rid in rid_of.items()}
    unknown = sorted(touched - by_rid.keys())
    for chunk in _chunks(unknown):
        by_rid.update(db.execute(f"SELECT rid, id FROM nodes WHERE rid IN ({','.join('?' * len(chunk))})", chunk))
    out_edges, in_edges = graph.out_edges, graph.in_edges
    db.executemany(
        "UPDATE nodes SET degree=? WHERE rid=?",
        ((len(out_edges.get(by_rid[rid], ())) + len(in_edges.get(by_rid[rid], ())), rid) for rid in sorted(touched)),
    )

    node_count = int(meta["nodes"]) - len(removed) + (len(new_ids) - (len(old) - len(removed)))
    edge_count = int(meta["edges"]) - old_edges + len(new_edges)
    if node_count != len(nodes) or edge_count != len(graph.edges):
        raise StaleIndexError("the index does not describe the previous graph")

    for chunk in _chunks(removed_rids):
        db.execute(f"DELETE FROM membership WHERE rid IN ({','.join('?' * len(chunk))})", chunk)
    digest = _communities_digest(graph_path)
    if digest != meta.get("communities_digest"):
        _write_communities(db, graph_path, lambda ids: _rids_of(db, ids), fresh=False)
    # the p99 of all degrees, counted from the top (a short sort) — the same value `write_index` records
    descending = db.execute(
        "SELECT degree FROM nodes ORDER BY degree DESC LIMIT 1 OFFSET ?", (node_count - 1 - _p99_offset(node_count),)
    )
    p99 = (descending.fetchone() or (0,))[0]
    db.executemany(
        "INSERT OR REPLACE INTO meta VALUES (?,?)",
        {
            "degree_p99": str(p99),
            "stamp": _stamp(graph_path),
            "communities": _communities_stamp(graph_path),
            "communities_digest": digest,
            "graph": json.dumps(graph.meta),
            "nodes": str(node_count),
            "edges": str(edge_count),
        }.items(),
    )


def _p99_offset(count: int) -> int:
    return max(0, min(count - 1, int(count * 0.99)))


def _degrees_of(graph: CodeGraph, node_ids) -> dict[str, int]:
    out_edges, in_edges = graph.out_edges, graph.in_edges
    return {n: len(out_edges.get(n, ())) + len(in_edges.get(n, ())) for n in node_ids}


def _rids_of(db: sqlite3.Connection, ids: list[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for chunk in _chunks(sorted(set(ids))):
        found.update(db.execute(f"SELECT id, rid FROM nodes WHERE id IN ({','.join('?' * len(chunk))})", chunk))
    return found


def _chunks(items: list, size: int = 500):
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
            return self._opened == (_stamp(self.graph_path), _communities_stamp(self.graph_path))
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
            cached = NodeRow(row[1], row[2], row[3], row[4], row[5], row[6], json.loads(row[7]) if row[7] else {})
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

    def search(self, words: list[str], limit: int = 60) -> list[tuple[NodeRow, float]]:
        """Nodes whose text matches any word (prefix match), best first by BM25 (name weighted over path, doc)."""
        if not words:
            return []
        match = " OR ".join(f'"{w}"*' for w in words)
        rows = self.db.execute(
            f"SELECT {', '.join('n.' + c.strip() for c in self._NODE_COLS.split(','))}, "
            "bm25(node_text, 10.0, 2.0, 1.0) AS rank FROM node_text JOIN nodes n ON n.rid = node_text.rowid "
            "WHERE node_text MATCH ? ORDER BY rank, n.id LIMIT ?",
            (match, limit),
        ).fetchall()
        return [(self._row(r[:8]), -r[8]) for r in rows]

    def node_text(self, node: NodeRow) -> str:
        """The words a node is found by (name, path, docstring), for re-scoring search hits."""
        return " ".join(node_terms(node.as_dict()))

    # -- edges ---------------------------------------------------------------------------------------------------
    _PEER = "p.rid, p.id, p.kind, p.name, p.file, p.line, p.degree, p.extra"

    def adjacent(self, rid: int) -> tuple[Adjacent, ...]:
        """Every edge touching node `rid`, outgoing ones first, each with its peer's row; kept for later calls."""
        cached = self._adjacency.get(rid)
        if cached is not None:
            return cached
        result = []
        for outgoing, mine, theirs in ((True, "source", "target"), (False, "target", "source")):
            rows = self.db.execute(
                f"SELECT e.rowid, e.relation, e.confidence, e.file, e.line, e.score, {self._PEER} FROM edges e "
                f"JOIN nodes p ON p.rid = e.{theirs} WHERE e.{mine} = ?",
                (rid,),
            )
            for rowid, relation, confidence, file, line, score, *peer in rows:
                result.append(
                    Adjacent(rowid, peer[0], outgoing, relation, confidence, file, line, score, self._row(peer))
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
                Edge(node_id, other, adj.relation, adj.confidence, adj.file, adj.line, adj.score)
                if adj.outgoing
                else Edge(other, node_id, adj.relation, adj.confidence, adj.file, adj.line, adj.score)
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
            "SELECT s.id, t.id, e.relation, e.confidence, e.file, e.line, e.score FROM edges e "
            "JOIN nodes s ON s.rid = e.source JOIN nodes t ON t.rid = e.target WHERE e.rowid = ?",
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
            "SELECT c.id, c.label, c.size, c.cohesion FROM membership m JOIN communities c ON c.id = m.community "
            "WHERE m.rid = (SELECT rid FROM nodes WHERE id = ?)",
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
            f"SELECT {', '.join('n.' + c.strip() for c in self._NODE_COLS.split(','))} FROM membership m "
            "JOIN nodes n ON n.rid = m.rid WHERE m.community = ? ORDER BY n.degree DESC, n.id",
            (community_id,),
        ).fetchall()
        info = {"id": row[0], "label": row[1], "size": row[2], "cohesion": row[3]}
        return info, [self._row(r) for r in members]

    def communities(self) -> list[dict]:
        rows = self.db.execute("SELECT id, label, size, cohesion FROM communities ORDER BY size DESC, id").fetchall()
        return [{"id": r[0], "label": r[1], "size": r[2], "cohesion": r[3]} for r in rows]


def _load(graph_path: Path) -> CodeGraph:
    from skillbox.graph.graphfile import load_graph

    return load_graph(graph_path)


def _connect_if_fresh(index: Path, graph_path: Path, check_same_thread: bool = True) -> sqlite3.Connection | None:
    if not index.is_file():
        return None
    try:
        db = sqlite3.connect(f"file:{index}?mode=ro", uri=True, check_same_thread=check_same_thread)
        rows = dict(db.execute("SELECT key, value FROM meta WHERE key IN ('stamp', 'communities')").fetchall())
    except sqlite3.Error:
        return None
    if rows.get("stamp") == _stamp(graph_path) and rows.get("communities") == _communities_stamp(graph_path):
        return db
    db.close()
    return None


def _private_index_path(graph_path: Path) -> Path:
    key = hashlib.sha256(str(graph_path.resolve()).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"skillbox-index-{key}" / "query-index.sqlite"
