"""Write graph.html: the graph's data, precomputed positions and a small canvas renderer in one offline file.

Why this shape: a 50k-node graph cannot be force-laid-out in the browser (graphify's vis.js view gives up above
5,000 nodes and needs a CDN). Positions are computed here in linear time, so the page only draws:
- communities sit on an area-proportional sunflower spiral (largest in the middle), each a disc of area ~ size;
- inside a community, files sit on their own spiral and each file's symbols ring around it.
The page opens on the community overview (one disc per community, edges aggregated) and drills into a community
on click. Data is embedded as JSON in a `<script type="application/json">` block with `<`, `>` and `&` escaped, and
the script only ever writes code text through `textContent`, so hostile names stay text.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from importlib import resources
from pathlib import Path

import orjson

from skillbox.graph.cluster import Partition
from skillbox.graph.graphfile import CodeGraph, note_text, source_root

GOLDEN_ANGLE = math.pi * (3 - math.sqrt(5))
DOC_CHARS = 240


def _spiral(count: int) -> list[tuple[float, float]]:
    """`count` points evenly filling the unit disc (Vogel's sunflower), first point at the centre."""
    if count <= 1:
        return [(0.0, 0.0)] * count
    return [
        (math.sqrt(i / count) * math.cos(i * GOLDEN_ANGLE), math.sqrt(i / count) * math.sin(i * GOLDEN_ANGLE))
        for i in range(count)
    ]


def _community_layout(partition: Partition) -> dict[int, tuple[float, float, float]]:
    """Community id -> (x, y, radius): discs of area ~ size placed outward by size on a sunflower spiral."""
    layout = {}
    area_so_far = 0.0
    for i, c in enumerate(sorted(partition.communities, key=lambda c: (-c.size, c.id))):
        radius = math.sqrt(c.size) * 6 + 8
        area_so_far += (2.3 * radius) ** 2
        distance = 0.0 if i == 0 else math.sqrt(area_so_far / math.pi)
        angle = i * GOLDEN_ANGLE
        layout[c.id] = (distance * math.cos(angle), distance * math.sin(angle), radius)
    return layout


def _file_order(node: dict, node_id: str) -> tuple:
    """The file node first (at its spot's centre), then its symbols in source order."""
    return (node.get("kind") != "file", node.get("line") or 0, node_id)


def _member_layout(graph: CodeGraph, members: list[str], cx: float, cy: float, radius: float) -> dict:
    """Positions for one community: files on a spiral, each file's symbols in a ring around it."""
    by_file: dict[str, list[str]] = defaultdict(list)
    for m in members:
        by_file[graph.nodes[m].get("file") or ""].append(m)
    files = sorted(by_file, key=lambda f: (-len(by_file[f]), f))
    positions = {}
    spots = _spiral(len(files))
    ring_unit = radius / max(2.0, math.sqrt(len(members)) * 1.2)
    for (sx, sy), file in zip(spots, files, strict=True):
        fx, fy = cx + sx * radius * 0.85, cy + sy * radius * 0.85
        nodes = sorted(by_file[file], key=lambda m: _file_order(graph.nodes[m], m))
        inner = _spiral(len(nodes))
        spread = ring_unit * math.sqrt(len(nodes))
        for (ix, iy), m in zip(inner, nodes, strict=True):
            positions[m] = (fx + ix * spread, fy + iy * spread)
    return positions


def viewer_data(graph: CodeGraph, partition: Partition, title: str = "code graph") -> dict:
    """Compact arrays the page reads: nodes, edges (as index quadruples), communities, aggregated links."""
    kinds: dict[str, int] = {}
    relations: dict[str, int] = {}
    confidences: dict[str, int] = {}
    files: dict[str, int] = {}
    membership = partition.membership()
    layout = _community_layout(partition)
    positions: dict[str, tuple[float, float]] = {}
    for c in partition.communities:
        x, y, r = layout[c.id]
        positions.update(_member_layout(graph, c.members, x, y, r))
    order = sorted(graph.nodes)
    index = {node_id: i for i, node_id in enumerate(order)}
    degree = [0] * len(order)
    community_of = [membership.get(node_id, -1) for node_id in order]
    edges: list[int] = []
    between: dict[tuple[int, int], int] = defaultdict(int)
    relation_ids: dict[str, int] = relations
    confidence_ids: dict[str, int] = confidences
    for e in graph.edges:
        a, b = index[e.source], index[e.target]
        relation = relation_ids.get(e.relation)
        if relation is None:
            relation = relation_ids[e.relation] = len(relation_ids)
        confidence = confidence_ids.get(e.confidence)
        if confidence is None:
            confidence = confidence_ids[e.confidence] = len(confidence_ids)
        edges += (a, b, relation, confidence)
        degree[a] += 1
        degree[b] += 1
        ca, cb = community_of[a], community_of[b]
        if ca != cb:
            between[(ca, cb) if ca < cb else (cb, ca)] += 1
    nodes = []
    for i, node_id in enumerate(order):
        n = graph.nodes[node_id]
        x, y = positions.get(node_id, (0.0, 0.0))
        doc = n.get("docstring") or n.get("notes")
        file = n.get("file")
        nodes.append(
            [
                node_id,
                str(n.get("qualname") or n.get("name") or node_id),
                kinds.setdefault(str(n.get("kind", "?")), len(kinds)),
                files.setdefault(file, len(files)) if file else -1,
                n.get("line") or 0,
                community_of[i],
                round(x, 1),
                round(y, 1),
                degree[i],
                note_text(doc)[:DOC_CHARS] if doc else "",
            ]
        )
    communities = [
        {"id": c.id, "label": c.label, "size": c.size, "x": round(layout[c.id][0], 1), "y": round(layout[c.id][1], 1),
         "r": round(layout[c.id][2], 1), "cohesion": round(c.cohesion, 3), "isolated": c.isolated}
        for c in partition.communities
    ]  # fmt: skip
    root = source_root(graph.path, graph.meta) if graph.path else None
    return {
        "title": title,
        "root": root.resolve().as_posix() if root else "",
        "kinds": list(kinds),
        "relations": list(relations),
        "confidences": list(confidences),
        "files": list(files),
        "nodes": nodes,
        "edges": edges,
        "communities": communities,
        "links": [[a, b, n] for (a, b), n in sorted(between.items())],
    }


def _safe_json(data: dict) -> str:
    """JSON that cannot close the surrounding <script> element or start a comment/CDATA section."""
    text = orjson.dumps(data).decode("utf-8")
    return (
        text.replace("&", "\\u0026")
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def _escape_html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def render_html(graph: CodeGraph, partition: Partition, title: str = "code graph") -> str:
    package = resources.files("skillbox.graph.viewer")
    template = package.joinpath("template.html").read_text(encoding="utf-8")
    script = package.joinpath("viewer.js").read_text(encoding="utf-8")
    if "</script" in script.lower():
        raise AssertionError("viewer.js must not contain a closing script tag")
    parts = {
        "TITLE": _escape_html(title),
        "DATA": _safe_json(viewer_data(graph, partition, title)),
        "SCRIPT": script,
    }
    # one pass, so text inside the data can never be taken for another placeholder
    return re.sub(r"\{\{(TITLE|DATA|SCRIPT)\}\}", lambda m: parts[m.group(1)], template)


def write_html(graph: CodeGraph, partition: Partition, path: Path, title: str = "code graph") -> Path:
    import os
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".graph-html-", suffix=".tmp", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(render_html(graph, partition, title))
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    return path
