"""`CodeGraph`: graph.json loaded for the commands that use a built graph (query, path, explain, affected,
mcp, export, report).

The query commands run as one process per call, so loading must be cheap: graph.json is read into plain dicts and
adjacency lists instead of a networkx graph (building a 50k-node MultiDiGraph costs more than the whole query).
Code that needs networkx algorithms asks for `to_networkx()`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import orjson

from skillbox.errors import InvalidInputError, NotFoundError

DEFAULT_GRAPH = Path("skillbox-out") / "graph.json"

# Relations that say "A depends on B" (used by affected, path preference, surprising connections).
DEPENDENCY_RELATIONS = frozenset({"calls", "imports", "inherits", "implements", "references", "uses"})
STRUCTURE_RELATIONS = frozenset({"contains", "defines", "method", "declares"})


class Edge(NamedTuple):
    """One link of graph.json. A named tuple: Django's 160k links build 3x faster than as frozen dataclasses."""

    source: str
    target: str
    relation: str
    confidence: str
    file: str | None
    line: int | None
    score: float | None = None
    reason: str | None = None  # why the resolver guessed (INFERRED) or could not choose (AMBIGUOUS), when it says


@dataclass
class CodeGraph:
    """A loaded graph.json: nodes by id, edges in both directions, plus where it came from."""

    path: Path | None
    meta: dict
    nodes: dict[str, dict]
    edges: list[Edge]
    out_edges: dict[str, list[Edge]] = field(default_factory=dict)
    in_edges: dict[str, list[Edge]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.out_edges and not self.in_edges:
            out_edges: dict[str, list[Edge]] = {}
            in_edges: dict[str, list[Edge]] = {}
            for edge in self.edges:
                out_edges.setdefault(edge.source, []).append(edge)
                in_edges.setdefault(edge.target, []).append(edge)
            self.out_edges, self.in_edges = out_edges, in_edges

    def degree(self, node_id: str) -> int:
        return len(self.out_edges.get(node_id, ())) + len(self.in_edges.get(node_id, ()))

    def neighbours(self, node_id: str) -> list[tuple[Edge, str, bool]]:
        """(edge, other node, outgoing?) for every edge touching `node_id`."""
        result = [(e, e.target, True) for e in self.out_edges.get(node_id, ())]
        result.extend((e, e.source, False) for e in self.in_edges.get(node_id, ()))
        return result

    def to_networkx(self):
        import networkx as nx

        graph = nx.MultiDiGraph(**self.meta)
        for node_id, attrs in self.nodes.items():
            graph.add_node(node_id, **attrs)
        for e in self.edges:
            graph.add_edge(e.source, e.target, relation=e.relation, confidence=e.confidence, file=e.file, line=e.line)
        return graph


@functools.lru_cache(maxsize=65536)
def is_test_path(path: str | None) -> bool:
    """Tests, by the usual folder and file naming conventions of the languages we parse."""
    if not path:
        return False
    parts = path.split("/")
    name = parts[-1]
    return (
        any(p in ("test", "tests", "testing", "__tests__", "spec") for p in parts[:-1])
        or name.startswith("test_")
        or name.endswith(("_test.py", ".test.ts", ".test.js", ".spec.ts", ".spec.js", "_test.go"))
    )


def note_text(value) -> str:
    """Docstrings are strings; "why" notes may be a list of comments. Either way: one line of text."""
    if not value:
        return ""
    if isinstance(value, list | tuple):
        value = "; ".join(str(v) for v in value)
    return " ".join(str(value).split())


def source_root(graph_path: Path, meta: dict) -> Path:
    """The source tree a graph describes: recorded by the build, else the folder holding skillbox-out/."""
    recorded = meta.get("root")
    if recorded and Path(recorded).is_dir():
        return Path(recorded)
    parent = graph_path.resolve().parent
    return parent.parent if parent.name == "skillbox-out" else parent


def location(node_or_edge: dict | Edge) -> str:
    """`path:line` (or just `path`, or `?`) for a node dict or an edge."""
    if isinstance(node_or_edge, Edge):
        file, line = node_or_edge.file, node_or_edge.line
    else:
        file, line = node_or_edge.get("file"), node_or_edge.get("line")
    if not file:
        return "?"
    return f"{file}:{line}" if line else file


def from_node_link(data: dict, path: Path | None = None) -> CodeGraph:
    """Build a CodeGraph from node-link data (accepts `links` or `edges`, as networkx writes either)."""
    if not isinstance(data, dict) or "nodes" not in data:
        raise InvalidInputError(f"{path or 'graph data'} is not node-link graph data (no 'nodes' list)")
    nodes = data["nodes"]
    for raw in nodes:
        if not isinstance(raw["id"], str):  # networkx allows any hashable id; ours are strings
            raw["id"] = str(raw["id"])
    links = data.get("links", data.get("edges", []))
    return from_blocks([(nodes, links)], dict(data.get("graph") or {}), path)


def from_blocks(blocks, meta: dict, path: Path | None = None) -> CodeGraph:
    """A CodeGraph straight from the build's blocks, without a round trip through JSON.

    `blocks` yields (nodes, edges) per block in graph.json order: nodes as dicts, edges either as the engine's
    edge tuples (source, target, relation, line, confidence, context, file, score, reason; a block just built) or
    as link dicts (a block parsed back from the previous graph.json). The result equals `load_graph` of the
    written file.
    """
    nodes: dict[str, dict] = {}
    edges: list[Edge] = []
    for block_nodes, block_edges in blocks:
        for node in block_nodes:
            nodes[node["id"]] = node
        if block_edges and isinstance(block_edges[0], tuple):
            edges.extend(  # the fields of graph_json.EDGE_FIELDS
                Edge(source, target, relation, confidence, file or None, line or None, score, reason)
                for source, target, relation, line, confidence, _context, file, score, reason in block_edges
            )
        else:
            edges.extend(_edge(raw) for raw in block_edges)
    edges = [e for e in edges if e.source in nodes and e.target in nodes]
    return CodeGraph(path=path, meta=meta, nodes=nodes, edges=edges)


def _edge(raw: dict) -> Edge:
    line = raw.get("line")
    if line is not None and not isinstance(line, int):
        line = int(line) if str(line).isdigit() else None
    return Edge(
        str(raw["source"]),
        str(raw["target"]),
        raw.get("relation", "related"),
        raw.get("confidence", "EXTRACTED"),
        raw.get("file"),
        line,
        raw.get("score", raw.get("confidence_score")),
        raw.get("reason"),
    )


def resolve_graph_path(graph: str | Path | None) -> Path:
    return Path(graph) if graph else DEFAULT_GRAPH


def load_graph(graph: str | Path | None = None) -> CodeGraph:
    """Load graph.json; a missing file tells the user how to make one."""
    path = resolve_graph_path(graph)
    if not path.is_file():
        raise NotFoundError(f"no graph at {path}: run `skillbox graph build` first (or pass --graph FILE)")
    from skillbox.graph.gc_pause import gc_paused

    with gc_paused():  # ~500k new containers, no cycles: collections during the load only cost time
        try:
            data = orjson.loads(path.read_bytes())
        except (OSError, ValueError) as err:
            raise InvalidInputError(f"cannot read {path}: {err}") from None
        return from_node_link(data, path)
