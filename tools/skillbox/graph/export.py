"""Exports for tools that outgrow one machine's view: GraphML (Gephi, yEd), Cypher (Neo4j, Memgraph), JSON.

Every export carries each node's community (from communities.json, when the build wrote one) so a team can
colour or filter by it. Cypher is written as batched `UNWIND` statements with an index on `id`, so loading Django's
graph is a few dozen statements rather than 170k.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

from skillbox.atomic import atomic_path
from skillbox.errors import UsageError
from skillbox.graph.cluster import read_previous
from skillbox.graph.code_graph import CodeGraph

FORMATS = ("graphml", "cypher", "json")
BATCH = 1000


def _communities(graph: CodeGraph) -> dict[str, int]:
    return read_previous(graph.path.parent / "communities.json") if graph.path else {}


def _scalar(value):
    """GraphML and Neo4j properties hold scalars: lists and dicts become JSON text, None is left out."""
    if isinstance(value, bool | int | float | str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _node_props(graph: CodeGraph, communities: dict[str, int]) -> Iterator[tuple[str, dict]]:
    for node_id in sorted(graph.nodes):
        props = {k: _scalar(v) for k, v in graph.nodes[node_id].items() if v is not None}
        if node_id in communities:
            props["community"] = communities[node_id]
        yield node_id, props


def _edge_props(edge) -> dict:
    props = {"relation": edge.relation, "confidence": edge.confidence}
    if edge.file:
        props["file"] = edge.file
    if edge.line is not None:
        props["line"] = edge.line
    if edge.score is not None:
        props["score"] = edge.score
    return props


def export_graphml(graph: CodeGraph, out: Path) -> None:
    import networkx as nx

    communities = _communities(graph)
    g = nx.MultiDiGraph()
    for node_id, props in _node_props(graph, communities):
        g.add_node(node_id, **{k: v for k, v in props.items() if k != "id"})
    for e in graph.edges:
        g.add_edge(e.source, e.target, **_edge_props(e))
    nx.write_graphml(g, out, encoding="utf-8")


# -- Cypher -------------------------------------------------------------------------------------------------------
def _cypher_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    text = str(value).replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n").replace("\r", "\\r")
    return f"'{text}'"


def _cypher_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) else "`" + key.replace("`", "``") + "`"


def _cypher_map(props: dict) -> str:
    return "{" + ", ".join(f"{_cypher_key(k)}: {_cypher_value(v)}" for k, v in props.items()) + "}"


def _label(text: str) -> str:
    """`function` -> `Function`, `calls` -> `CALLS`; anything odd becomes underscores so it stays an identifier."""
    cleaned = re.sub(r"[^A-Za-z0-9_]", "_", text) or "UNKNOWN"
    return cleaned if not cleaned[0].isdigit() else "_" + cleaned


def cypher_lines(graph: CodeGraph) -> Iterator[str]:
    communities = _communities(graph)
    yield "// skillbox code graph; load with: cypher-shell < graph.cypher"
    yield "CREATE INDEX code_node_id IF NOT EXISTS FOR (n:CodeNode) ON (n.id);"
    by_kind: dict[str, list[dict]] = {}
    for _node_id, props in _node_props(graph, communities):
        by_kind.setdefault(str(props.get("kind", "node")), []).append(props)
    for kind in sorted(by_kind):
        rows = by_kind[kind]
        for start in range(0, len(rows), BATCH):
            batch = ",\n  ".join(_cypher_map(p) for p in rows[start : start + BATCH])
            yield f"UNWIND [\n  {batch}\n] AS row\nCREATE (n:CodeNode:{_label(kind.capitalize())}) SET n = row;"
    by_relation: dict[str, list[dict]] = {}
    for e in graph.edges:
        by_relation.setdefault(e.relation, []).append({"s": e.source, "t": e.target, **_edge_props(e)})
    for relation in sorted(by_relation):
        rows = by_relation[relation]
        for start in range(0, len(rows), BATCH):
            batch = ",\n  ".join(_cypher_map(p) for p in rows[start : start + BATCH])
            yield (
                f"UNWIND [\n  {batch}\n] AS row\n"
                "MATCH (a:CodeNode {id: row.s}), (b:CodeNode {id: row.t})\n"
                f"CREATE (a)-[r:{_label(relation.upper())}]->(b) SET r = row, r.s = null, r.t = null;"
            )


def export_cypher(graph: CodeGraph, out: Path) -> None:
    with out.open("w", encoding="utf-8") as handle:
        for statement in cypher_lines(graph):
            handle.write(statement + "\n")


def export_json(graph: CodeGraph, out: Path) -> None:
    """Node-link JSON like graph.json, plus each node's community id."""
    communities = _communities(graph)
    data = {
        "directed": True,
        "multigraph": True,
        "graph": graph.meta,
        "nodes": [props for _id, props in _node_props(graph, communities)],
        "links": [{"source": e.source, "target": e.target, **_edge_props(e)} for e in graph.edges],
    }
    out.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def export_graph(graph: CodeGraph, fmt: str, out: Path) -> dict:
    writers = {"graphml": export_graphml, "cypher": export_cypher, "json": export_json}
    if fmt not in writers:
        raise UsageError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
    out = Path(out)
    with atomic_path(out) as tmp:
        writers[fmt](graph, tmp)
    return {"format": fmt, "out": str(out), "nodes": len(graph.nodes), "edges": len(graph.edges)}
