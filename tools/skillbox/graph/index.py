"""A SQLite index of graph.json, so one-shot queries don't pay for parsing the whole graph.

Parsing Django's graph.json alone takes ~0.5 s, more than a query may cost as a process. The index holds the same
nodes and edges with lookups by id, name, file, source and target, plus an FTS5 table over node text (name words,
path parts, docstring) for free-text questions. It lives in `<graph dir>/cache/query-index.sqlite`, is keyed on
graph.json's size and mtime, and is rebuilt (atomically) whenever graph.json changes; `build` creates it up front.
Each node's community from communities.json, when present, is copied in so `explain` can name it.
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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import orjson

from skillbox.errors import NotFoundError
from skillbox.graph.graphfile import CodeGraph, Edge, is_test_path, note_text, resolve_graph_path

INDEX_VERSION = 6
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

    @functools.cached_property
    def search_words(self) -> tuple[str, frozenset[str], str, frozenset[str], str]:
        """(lower-case name, name words, the name words each after a space — so `" " + prefix in it` tells whether
        a word starts with prefix —, path words, lower-case docstring/notes) for re-ranking search hits."""
        lname = self.name.lower()
        words = frozenset(split_words(self.name)) | {lname}
        doc = " ".join(note_text(self.extra.get(k)) for k in ("docstring", "doc", "notes")).lower()
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
                   file TEXT, line INTEGER, degree INTEGER, extra TEXT, community INTEGER);
CREATE TABLE edges(source INTEGER, target INTEGER, relation TEXT, confidence TEXT, file TEXT, line INTEGER,
                   score REAL);  -- file: NULL when the edge is written in its source node's file ('' for none)
CREATE VIRTUAL TABLE node_text USING fts5(name, path, doc, content='', tokenize='unicode61');
CREATE TABLE communities(id INTEGER PRIMARY KEY, label TEXT, size INTEGER, cohesion REAL, members TEXT);
"""


INDEXES = """
CREATE INDEX nodes_lname ON nodes(lname);
CREATE INDEX nodes_file ON nodes(file);
CREATE INDEX nodes_community ON nodes(community);
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
        None,  # community: set from communities.json afterwards
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


def write_index(
    graph: CodeGraph,
    graph_path: Path,
    target: Path | None = None,
    *,
    communities_ready: Callable[[], bool] | None = None,
) -> Path:
    """(Re)build the index for `graph` (already loaded from `graph_path`); returns the index path.

    SQLite inserts the edges on a second thread (it lets go of the GIL while it works) while this one prepares
    the node rows and their search words; then the nodes go in.

    `communities_ready`: for a writer started before graph.json and communities.json are on disk (the build
    forks it as soon as the graph is in memory). It is called once everything that does not depend on those
    files is done, blocks until they are written, and returns False if they never will be (nothing is written).
    """
    target = target or index_path_for(graph_path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=".query-index-", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        db = sqlite3.connect(tmp, check_same_thread=False)
        db.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;" + SCHEMA)
        rid_of = {node_id: rid for rid, node_id in enumerate(graph.nodes, start=1)}
        edges = graph.edges
        file_of = {node_id: node.get("file") for node_id, node in graph.nodes.items()}
        follow = [True]

        def insert_edges() -> None:
            # an edge's file is stored only when it is not its source node's file ('' for none)
            rows = [
                (
                    rid_of[e.source],
                    rid_of[e.target],
                    e.relation,
                    e.confidence,
                    None if e.file == file_of[e.source] else (e.file or ""),
                    e.line,
                    e.score,
                )
                for e in edges
            ]
            follow[0] = all(row[4] is None for row in rows)
            db.executemany("INSERT INTO edges VALUES (?,?,?,?,?,?,?)", rows)
            # indexes after the bulk insert: one sort each instead of a b-tree update per row
            db.execute("CREATE INDEX edges_source ON edges(source)")
            db.execute("CREATE INDEX edges_target ON edges(target)")

        import concurrent.futures  # here, not at the top: a query process never writes and skips its imports

        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            edges_done = pool.submit(insert_edges)
            degrees = _degrees(graph)
            rows, text_rows = _node_rows(graph, degrees)
            edges_done.result()
        db.executemany("INSERT INTO node_text(rowid, name, path, doc) VALUES (?,?,?,?)", text_rows)
        if communities_ready is not None and not communities_ready():
            raise IndexAbandoned("graph.json or communities.json was not written")
        communities = _read_communities(graph_path) or []
        if communities:
            member_of = _membership(communities)
            rows = [(*row[:-1], member_of.get(row[1])) for row in rows]
        db.executemany("INSERT INTO nodes VALUES (?,?,?,?,?,?,?,?,?,?)", rows)
        db.executescript(INDEXES)
        _store_communities(db, communities)
        meta = {
            "degree_p99": str(_p99(sorted(degrees.values()))),
            "stamp": _stamp(graph_path),
            "communities": _communities_stamp(graph_path),
            "communities_digest": _communities_digest(graph_path),
            "graph": json.dumps(graph.meta),
            "nodes": str(len(rows)),
            "edges": str(len(edges)),
            "edges_follow_sources": "1" if follow[0] else "0",
        }
        db.executemany("INSERT INTO meta VALUES (?,?)", meta.items())
        db.commit()
        db.close()
        os.replace(tmp, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    return target


def _node_rows(graph: CodeGraph, degrees: dict[str, int]) -> tuple[list, list]:
    """`_node_row` for every node, in graph order (rid 1, 2, ...), with the per-node work kept inline; the
    community column is left empty (communities.json may not exist yet)."""
    rows = []
    text_rows = []
    core = _CORE_FIELDS
    dumps = orjson.dumps
    words = split_words
    path_text: dict[str | None, str] = {}  # nodes of one file share its path words
    for rid, (node_id, node) in enumerate(graph.nodes.items(), start=1):
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
            text_rows.append((rid, *_terms(name, file, extra)))
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
        # symbol ids start with their file's path: look at those and at the ids the files had; a node of a
        # changed file with any other id is missed, which the node count check below turns into a full write
        prefixes = tuple(changed)
        candidates = {n for n in nodes if n.startswith(prefixes)} | {n for n in old if n in nodes}
        new_ids = sorted(n for n in candidates if nodes[n].get("file") in changed)
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
            db.execute("INSERT INTO nodes VALUES (?,?,?,?,?,?,?,?,?,?)", row)
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
        ((rid_of[e.source], rid_of[e.target], e.relation, e.confidence, None, e.line, e.score) for e in new_edges),
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

    digest = _communities_digest(graph_path)
    added = tuple(n for n in new_ids if n not in old)
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

    def search(self, words: list[str], limit: int = 60) -> list[tuple[NodeRow, float]]:
        """Nodes whose text matches any word (prefix match), best first by BM25 (name weighted over path, doc),
        equal scores by id. Ranks the FTS rows alone and joins only the best; equal scores straddling the
        cut (rare) take the slower query that orders them by id, so the hits never depend on row ids."""
        if not words:
            return []
        match = " OR ".join(f'"{w}"*' for w in words)
        ranked = self.db.execute(
            "SELECT rowid, bm25(node_text, 10.0, 2.0, 1.0) AS score FROM node_text WHERE node_text MATCH ? "
            "ORDER BY score LIMIT ?",
            (match, limit + 1),
        ).fetchall()
        if len(ranked) > limit and ranked[limit][1] == ranked[limit - 1][1]:
            rows = self.db.execute(
                "SELECT n.rid, bm25(node_text, 10.0, 2.0, 1.0) AS score FROM node_text "
                "JOIN nodes n ON n.rid = node_text.rowid WHERE node_text MATCH ? ORDER BY score, n.id LIMIT ?",
                (match, limit),
            ).fetchall()
            return [(self.node_by_rid(rid), -score) for rid, score in rows]
        self._load_rows([rid for rid, _score in ranked[:limit]])
        found = [(self.node_by_rid(rid), -score) for rid, score in ranked[:limit]]
        found.sort(key=lambda hit: (-hit[1], hit[0].id))  # equal scores by id
        return found

    def _load_rows(self, rids: list[int]) -> None:
        """Read the rows of `rids` not cached yet, in one query."""
        missing = [rid for rid in rids if rid not in self._node_cache]
        for chunk in _chunks(missing):
            marks = ",".join("?" * len(chunk))
            for row in self.db.execute(f"SELECT {self._NODE_COLS} FROM nodes WHERE rid IN ({marks})", chunk):
                self._row(row)

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
        my_file = self.node_by_rid(rid).file
        for outgoing, mine, theirs, source_file in (
            (True, "source", "target", "?"),
            (False, "target", "source", "p.file"),
        ):
            rows = self.db.execute(
                f"SELECT e.rowid, e.relation, e.confidence, NULLIF(COALESCE(e.file, {source_file}), ''), e.line, "
                f"e.score, {self._PEER} FROM edges e JOIN nodes p ON p.rid = e.{theirs} WHERE e.{mine} = ?",
                (my_file, rid) if outgoing else (rid,),
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
            "SELECT s.id, t.id, e.relation, e.confidence, NULLIF(COALESCE(e.file, s.file), ''), e.line, e.score "
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
    from skillbox.graph.graphfile import load_graph

    return load_graph(graph_path)


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
        return bool(row) and row[0] == _stamp(graph_path)
    except (sqlite3.Error, OSError):
        return False


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
