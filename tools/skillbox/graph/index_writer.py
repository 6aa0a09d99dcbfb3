"""The writer of the query index (see `index` for what it holds): a full write, or an in-place update from the
files whose part of graph.json changed. Used by `build` and by `GraphIndex.open` when an index is missing; never
imported by the reader module itself.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from collections.abc import Callable
from itertools import islice
from pathlib import Path
from typing import NamedTuple

import orjson

from skillbox.atomic import atomic_path
from skillbox.graph.code_graph import CodeGraph
from skillbox.graph.index import (
    CORE_FIELDS,
    INDEX_VERSION,
    chunks,
    communities_stamp,
    graph_stamp,
    index_path_for,
    search_terms,
    split_words,
)

SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE nodes(rid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, kind TEXT, name TEXT, lname TEXT,
                   file TEXT, line INTEGER, degree INTEGER, extra TEXT, community INTEGER);
CREATE TABLE edges(source INTEGER, target INTEGER, relation TEXT, confidence TEXT, file TEXT, line INTEGER,
                   score REAL, reason TEXT);  -- file: NULL when written in its source node's file ('' for none)
CREATE VIRTUAL TABLE node_text USING fts5(name, path, doc, content='', tokenize='unicode61');
CREATE TABLE communities(id INTEGER PRIMARY KEY, label TEXT, size INTEGER, cohesion REAL, members TEXT);
"""


INDEXES = """
CREATE INDEX nodes_lname ON nodes(lname);
CREATE INDEX nodes_file ON nodes(file);
CREATE INDEX nodes_community ON nodes(community);
"""


class NodeRow(NamedTuple):
    """One row of the `nodes` table, in column order (`_node_rows` builds the same order as plain tuples: the full
    write makes one per node and keeps to tuples there)."""

    rid: int
    id: str
    kind: str
    name: str
    lname: str
    file: str | None
    line: int | None
    degree: int
    extra: str | None  # JSON of the node's non-core fields
    community: int | None


class StoredNode(NamedTuple):
    """The columns of an indexed node that an in-place update compares with the new graph."""

    rid: int
    id: str
    kind: str
    name: str
    file: str | None
    line: int | None
    extra: str | None

    def search_text(self) -> tuple[str, str, str]:
        """The FTS words this node was indexed under (what a contentless FTS table needs to delete it)."""
        return search_terms(self.name, self.file, json.loads(self.extra) if self.extra else {})


def _node_row(rid: int, node_id: str, node: dict, degree: int) -> tuple[NodeRow, tuple]:
    """The `nodes` row and the `node_text` row of one node. The FTS words are derived from the stored columns
    only, so an update can recompute exactly what was indexed (a contentless FTS table deletes by value)."""
    extra = {k: v for k, v in node.items() if k not in CORE_FIELDS}
    name = str(node.get("name") or node_id)
    line = node.get("line")
    file = node.get("file")
    row = NodeRow(
        rid,
        node_id,
        node.get("kind", ""),
        name,
        name.lower(),
        file,
        line if isinstance(line, int) else None,
        degree,
        orjson.dumps(extra).decode() if extra else None,
        None,  # community: set from communities.json afterwards
    )
    return row, (rid, *search_terms(name, file, extra))


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


class NodeRows(NamedTuple):
    """What the `nodes` and `node_text` tables get, made from the graph alone (`node_rows`)."""

    rows: list  # `nodes` rows in graph order, community column empty: of all nodes or of the first ones
    text_rows: list  # `node_text` rows of the same nodes
    degree_p99: int


def node_rows(graph: CodeGraph, share: float = 1.0) -> NodeRows:
    """The node rows of `write_index`, of the first `share` of the nodes (`write_index` makes the rest).

    The build makes some or all of them in its own process and hands them to the index writer it forked
    (`write_index(node_rows_made=...)`, `outputs.rows_share`): that writer was the last output to finish, by
    ~0.25 s on Django, and these rows are ~0.2 CPU-s of Python work that a second thread of the writer cannot
    overlap with SQLite's (each inserted row takes the GIL back)."""
    degrees = _degrees(graph)
    stop = len(graph.nodes) if share >= 1 else int(len(graph.nodes) * share)
    rows, text_rows = _node_rows(graph, degrees, 0, stop)
    return NodeRows(rows, text_rows, _p99(sorted(degrees.values())))


def write_index(
    graph: CodeGraph,
    graph_path: Path,
    target: Path | None = None,
    *,
    communities_ready: Callable[[], bool] | None = None,
    node_rows_made: Callable[[], NodeRows | None] | None = None,
) -> Path:
    """(Re)build the index for `graph` (already loaded from `graph_path`); returns the index path.

    The edges go in first, then the nodes with their search words.

    `communities_ready`: for a writer started before graph.json and communities.json are on disk (the build
    forks it as soon as the graph is in memory). It is called once everything that does not depend on those
    files is done, blocks until they are written, and returns False if they never will be (nothing is written).
    `node_rows_made`, called after that: the `node_rows` of this graph made by whoever wrote those files, or
    None (then they are made here).
    """
    target = target or index_path_for(graph_path)
    with atomic_path(target) as tmp:
        db = sqlite3.connect(tmp)
        db.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;" + SCHEMA)
        rid_of = {node_id: rid for rid, node_id in enumerate(graph.nodes, start=1)}
        edges = graph.edges
        file_of = {node_id: node.get("file") for node_id, node in graph.nodes.items()}
        # an edge's file is stored only when it is not its source node's file ('' for none)
        edge_rows = [
            (
                rid_of[e.source],
                rid_of[e.target],
                e.relation,
                e.confidence,
                None if e.file == file_of[e.source] else (e.file or ""),
                e.line,
                e.score,
                e.reason,
            )
            for e in edges
        ]
        follow = all(row[4] is None for row in edge_rows)
        db.executemany("INSERT INTO edges VALUES (?,?,?,?,?,?,?,?)", edge_rows)
        del edge_rows
        # indexes after the bulk insert: one sort each instead of a b-tree update per row
        db.execute("CREATE INDEX edges_source ON edges(source)")
        db.execute("CREATE INDEX edges_target ON edges(target)")
        if communities_ready is not None and not communities_ready():
            raise IndexAbandoned("graph.json or communities.json was not written")
        made = (node_rows_made() if node_rows_made is not None else None) or node_rows(graph)
        rows, text_rows = made.rows, made.text_rows
        if len(rows) < len(graph.nodes):  # the rows of the nodes after those made elsewhere
            more, more_text = _node_rows(graph, _degrees(graph), len(rows))
            rows, text_rows = rows + more, text_rows + more_text
        db.executemany("INSERT INTO node_text(rowid, name, path, doc) VALUES (?,?,?,?)", text_rows)
        communities = _read_communities(graph_path) or []
        if communities:
            member_of = _membership(communities)
            rows = [(*row[:-1], member_of.get(row[1])) for row in rows]
        db.executemany("INSERT INTO nodes VALUES (?,?,?,?,?,?,?,?,?,?)", rows)
        db.executescript(INDEXES)
        _store_communities(db, communities)
        meta = {
            "degree_p99": str(made.degree_p99),
            "stamp": graph_stamp(graph_path),
            "communities": communities_stamp(graph_path),
            "communities_digest": _communities_digest(graph_path),
            "graph": json.dumps(graph.meta),
            "nodes": str(len(rows)),
            "edges": str(len(edges)),
            "edges_follow_sources": "1" if follow else "0",
        }
        db.executemany("INSERT INTO meta VALUES (?,?)", meta.items())
        db.commit()
        db.close()
    return target


def _node_rows(graph: CodeGraph, degrees: dict[str, int], start: int = 0, stop: int | None = None) -> tuple[list, list]:
    """`_node_row` for every node from position `start` to `stop` (all by default), in graph order (rid start + 1,
    ...), with the per-node work kept inline; the community column is left empty (communities.json may not exist
    yet)."""
    rows = []
    text_rows = []
    core = CORE_FIELDS
    dumps = orjson.dumps
    words = split_words
    path_text: dict[str | None, str] = {}  # nodes of one file share its path words
    for rid, (node_id, node) in enumerate(islice(graph.nodes.items(), start, stop), start=start + 1):
        extra = {k: v for k, v in node.items() if k not in core}
        name = str(node.get("name") or node_id)
        line = node.get("line")
        file = node.get("file")
        lname = name.lower()
        rows.append(
            (
                rid,
                node_id,
                node.get("kind", ""),
                name,
                lname,
                file,
                line if isinstance(line, int) else None,
                degrees[node_id],
                dumps(extra).decode() if extra else None,
                None,
            )
        )
        if "qualname" in extra or "docstring" in extra or "notes" in extra or "doc" in extra:
            text_rows.append((rid, *search_terms(name, file, extra)))
        else:  # the common case of `_terms`, without its lookups
            path = path_text.get(file)
            if path is None:
                path = path_text[file] = " ".join(words(str(file or "")))
            text_rows.append((rid, " ".join((lname, *words(name))), path, ""))
    return rows, text_rows


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


def _pack_members(members: list) -> str:
    return "\n".join(map(str, members))


def _unpack_members(packed: str | None) -> list[str]:
    return packed.split("\n") if packed else []


def _membership(communities: list[dict]) -> dict[str, int]:
    """Community by node id (a node listed twice belongs to the last community naming it)."""
    return {str(m): c["id"] for c in communities for m in c.get("members", [])}


def _store_communities(db: sqlite3.Connection, communities: list[dict]) -> dict[int, str]:
    """Rewrite the `communities` table (a few hundred rows, each with its member list); returns the member
    lists it replaced."""
    stored = dict(db.execute("SELECT id, members FROM communities"))
    db.execute("DELETE FROM communities")
    db.executemany(
        "INSERT INTO communities VALUES (?,?,?,?,?)",
        (
            (c["id"], c.get("label"), c.get("size"), c.get("cohesion"), _pack_members(c.get("members", [])))
            for c in communities
        ),
    )
    return stored


def _update_communities(db: sqlite3.Connection, graph_path: Path, added: tuple[str, ...]) -> None:
    """Bring `communities` and each node's community up to date with communities.json, writing only the nodes
    that joined or left a community (a rebuild seeded from the last partition moves few) and the `added` ones."""
    communities = _read_communities(graph_path) or []
    stored = _store_communities(db, communities)
    packed = {c["id"]: _pack_members(c.get("members", [])) for c in communities}
    joined = set(added)
    left: list[tuple[str, int]] = []
    for cid in sorted(stored.keys() | packed.keys()):
        if stored.get(cid) != packed.get(cid):
            before = set(_unpack_members(stored.get(cid)))
            after = set(_unpack_members(packed.get(cid)))
            left.extend((m, cid) for m in sorted(before - after))
            joined |= after - before
    db.executemany("UPDATE nodes SET community=NULL WHERE id=? AND community=?", left)
    member_of = _membership(communities)
    db.executemany(
        "UPDATE nodes SET community=? WHERE id=?", ((member_of[m], m) for m in sorted(joined) if m in member_of)
    )


class IndexAbandoned(Exception):
    """A writer started ahead of graph.json and communities.json learnt they will not be written."""


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
    if not target.is_file():
        return write_index(graph, graph_path, target)
    try:
        db = sqlite3.connect(target, isolation_level=None)
    except sqlite3.Error:
        return write_index(graph, graph_path, target)
    try:
        # a rollback journal (the default) makes the update all-or-nothing if this process dies; no fsync: the
        # index is a cache of graph.json, and one damaged by a power cut is rebuilt when it fails to open
        db.execute("PRAGMA synchronous=OFF")
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
    """The in-place update, step by step; each step raises StaleIndexError when the index turns out not to
    describe the previous graph (the caller then rolls back and writes a fresh index)."""
    meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
    if not meta.get("stamp", "").startswith(f"{INDEX_VERSION}:") or meta.get("edges_follow_sources") != "1":
        raise StaleIndexError("index of another version, or edges not written in their source files")
    update = _Update(db, graph)
    update.find_nodes(changed)
    update.drop_old_edges()
    update.drop_removed_nodes()
    update.write_nodes()
    update.insert_new_edges()
    update.write_degrees()

    node_count = (
        int(meta["nodes"]) - len(update.removed) + (len(update.new_ids) - (len(update.old) - len(update.removed)))
    )
    edge_count = int(meta["edges"]) - update.old_edges + len(update.new_edges)
    if node_count != len(graph.nodes) or edge_count != len(graph.edges):
        raise StaleIndexError("the index does not describe the previous graph")

    digest = _communities_digest(graph_path)
    added = tuple(n for n in update.new_ids if n not in update.old)
    if digest != meta.get("communities_digest") or added:
        _update_communities(db, graph_path, added)
    # the p99 of all degrees, counted from the top (a short sort) — the same value `write_index` records
    descending = db.execute(
        "SELECT degree FROM nodes ORDER BY degree DESC LIMIT 1 OFFSET ?", (node_count - 1 - _p99_offset(node_count),)
    )
    p99 = (descending.fetchone() or (0,))[0]
    db.executemany(
        "INSERT OR REPLACE INTO meta VALUES (?,?)",
        {
            "degree_p99": str(p99),
            "stamp": graph_stamp(graph_path),
            "communities": communities_stamp(graph_path),
            "communities_digest": digest,
            "graph": json.dumps(graph.meta),
            "nodes": str(node_count),
            "edges": str(edge_count),
        }.items(),
    )


class _Update:
    """The state of one in-place update: the changed files' nodes before (rows of the index) and after (ids of
    the graph), the rows removed, the edges replaced, and every row whose degree an old or new edge touched."""

    def __init__(self, db: sqlite3.Connection, graph: CodeGraph):
        self.db, self.graph = db, graph
        self.old: dict[str, StoredNode] = {}  # the indexed nodes of the changed files, by id
        self.new_ids: list[str] = []
        self.removed: list[StoredNode] = []
        self.removed_rids: list[int] = []
        self.rid_of: dict[str, int] = {}
        self.touched: set[int] = set()
        self.old_edges = 0
        self.new_edges: list = []

    def find_nodes(self, changed: set[str]) -> None:
        nodes = self.graph.nodes
        where, params = _file_filter(changed)
        rows = self.db.execute(f"SELECT {', '.join(StoredNode._fields)} FROM nodes WHERE {where}", params)
        self.old = {row.id: row for row in map(StoredNode._make, rows)}
        if "" in changed:
            self.new_ids = [n for n, d in nodes.items() if (d.get("file") or "") in changed]
        else:
            # symbol ids start with their file's path: look at those and at the ids the files had; a node of a
            # changed file with any other id is missed, which the node count check turns into a full write
            prefixes = tuple(changed)
            candidates = {n for n in nodes if n.startswith(prefixes)} | {n for n in self.old if n in nodes}
            self.new_ids = sorted(n for n in candidates if nodes[n].get("file") in changed)
        new_set = set(self.new_ids)
        self.removed = [row for node_id, row in self.old.items() if node_id not in new_set]
        self.removed_rids = [row.rid for row in self.removed]

    def drop_old_edges(self) -> None:
        """The edges of the changed files: out of their old nodes."""
        db = self.db
        for chunk in chunks([row.rid for row in self.old.values()]):
            marks = ",".join("?" * len(chunk))
            for source, target in db.execute(f"SELECT source, target FROM edges WHERE source IN ({marks})", chunk):
                self.touched.add(source)
                self.touched.add(target)
                self.old_edges += 1
            db.execute(f"DELETE FROM edges WHERE source IN ({marks})", chunk)

    def drop_removed_nodes(self) -> None:
        db = self.db
        for node in self.removed:
            db.execute(
                "INSERT INTO node_text(node_text, rowid, name, path, doc) VALUES ('delete',?,?,?,?)",
                (node.rid, *node.search_text()),
            )
        for chunk in chunks(self.removed_rids):
            marks = ",".join("?" * len(chunk))
            db.execute(f"DELETE FROM nodes WHERE rid IN ({marks})", chunk)
            if db.execute(f"SELECT 1 FROM edges WHERE target IN ({marks}) LIMIT 1", chunk).fetchone():
                raise StaleIndexError("an unchanged file still has edges to a removed node")

    def write_nodes(self) -> None:
        """Insert the new nodes under fresh row ids; rewrite the kept ones (same row id) whose columns changed."""
        db, nodes = self.db, self.graph.nodes
        degrees = _degrees_of(self.graph, self.new_ids)
        next_rid = (db.execute("SELECT max(rid) FROM nodes").fetchone()[0] or 0) + 1
        for node_id in self.new_ids:
            previous = self.old.get(node_id)
            if previous is None:
                rid = self.rid_of[node_id] = next_rid
                next_rid += 1
                row, text = _node_row(rid, node_id, nodes[node_id], degrees[node_id])
                db.execute("INSERT INTO nodes VALUES (?,?,?,?,?,?,?,?,?,?)", row)
                db.execute("INSERT INTO node_text(rowid, name, path, doc) VALUES (?,?,?,?)", text)
                continue
            rid = self.rid_of[node_id] = previous.rid
            row, text = _node_row(rid, node_id, nodes[node_id], degrees[node_id])
            if (row.kind, row.name, row.file, row.line, row.extra) == (
                previous.kind,
                previous.name,
                previous.file,
                previous.line,
                previous.extra,
            ):
                continue
            db.execute(
                "UPDATE nodes SET kind=?, name=?, lname=?, file=?, line=?, extra=? WHERE rid=?",
                (row.kind, row.name, row.lname, row.file, row.line, row.extra, rid),
            )
            old_text = previous.search_text()
            if old_text != text[1:]:
                db.execute(
                    "INSERT INTO node_text(node_text, rowid, name, path, doc) VALUES ('delete',?,?,?,?)",
                    (rid, *old_text),
                )
                db.execute("INSERT INTO node_text(rowid, name, path, doc) VALUES (?,?,?,?)", text)

    def insert_new_edges(self) -> None:
        """The changed files' new edges; their far ends outside those files keep their row ids."""
        graph, rid_of = self.graph, self.rid_of
        self.new_edges = [e for n in self.new_ids for e in graph.out_edges.get(n, ())]
        if not _edges_follow_sources(graph, self.new_edges):
            raise StaleIndexError("an edge is not written in its source node's file")
        far = sorted({e.target for e in self.new_edges if e.target not in rid_of})
        for chunk in chunks(far):
            rows = self.db.execute(f"SELECT id, rid FROM nodes WHERE id IN ({','.join('?' * len(chunk))})", chunk)
            rid_of.update(rows)
        self.db.executemany(
            "INSERT INTO edges VALUES (?,?,?,?,?,?,?,?)",
            (
                (rid_of[e.source], rid_of[e.target], e.relation, e.confidence, None, e.line, e.score, e.reason)
                for e in self.new_edges
            ),
        )
        self.touched.update(rid_of[e.target] for e in self.new_edges)
        self.touched.difference_update(self.removed_rids)

    def write_degrees(self) -> None:
        """The degree of every node an old or new edge touched."""
        by_rid = {rid: node_id for node_id, rid in self.rid_of.items()}
        unknown = sorted(self.touched - by_rid.keys())
        for chunk in chunks(unknown):
            rows = self.db.execute(f"SELECT rid, id FROM nodes WHERE rid IN ({','.join('?' * len(chunk))})", chunk)
            by_rid.update(rows)
        out_edges, in_edges = self.graph.out_edges, self.graph.in_edges
        self.db.executemany(
            "UPDATE nodes SET degree=? WHERE rid=?",
            (
                (len(out_edges.get(by_rid[rid], ())) + len(in_edges.get(by_rid[rid], ())), rid)
                for rid in sorted(self.touched)
            ),
        )


def _p99_offset(count: int) -> int:
    return max(0, min(count - 1, int(count * 0.99)))


def _degrees_of(graph: CodeGraph, node_ids) -> dict[str, int]:
    out_edges, in_edges = graph.out_edges, graph.in_edges
    return {n: len(out_edges.get(n, ())) + len(in_edges.get(n, ())) for n in node_ids}


def describes(graph_path: Path, target: Path | None = None) -> bool:
    """True when the index was written for graph.json as it is now. `build` asks before rewriting graph.json:
    only then may the index be updated in place from the files that changed."""
    target = target or index_path_for(graph_path)
    if not target.is_file():
        return False
    try:
        db = sqlite3.connect(f"file:{target}?mode=ro", uri=True)
        try:
            row = db.execute("SELECT value FROM meta WHERE key = 'stamp'").fetchone()
        finally:
            db.close()
        return bool(row) and row[0] == graph_stamp(graph_path)
    except (sqlite3.Error, OSError):
        return False
