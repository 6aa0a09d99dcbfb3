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

import dataclasses
import functools
import math
import os
import re
import tempfile
from collections import Counter, defaultdict
from importlib import resources
from itertools import chain, compress, repeat
from operator import add, itemgetter, mul, ne
from pathlib import Path

import orjson

from skillbox.graph.cluster import Partition
from skillbox.graph.gc_pause import gc_paused
from skillbox.graph.graphfile import CodeGraph, note_text, source_root

GOLDEN_ANGLE = math.pi * (3 - math.sqrt(5))
DOC_CHARS = 240
SCALE = 10  # positions are sent as ints in tenths of a layout unit
_SOURCE, _TARGET, _RELATION, _CONFIDENCE = (itemgetter(i) for i in range(4))


@functools.lru_cache(maxsize=4096)
def _spiral(count: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """x and y of `count` points evenly filling the unit disc (Vogel's sunflower), first point at the centre.
    Cached: most files of a project share a handful of symbol counts."""
    if count <= 1:
        return (0.0,) * count, (0.0,) * count
    radii = [math.sqrt(i / count) for i in range(count)]
    return (
        tuple(r * math.cos(i * GOLDEN_ANGLE) for i, r in enumerate(radii)),
        tuple(r * math.sin(i * GOLDEN_ANGLE) for i, r in enumerate(radii)),
    )


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


class _Placement:
    """Node order and fixed-point positions, filled community by community, file by file.

    Positions are ints in 1/SCALE units (the page divides once): rounding a float per coordinate in Python was one
    of the viewer's biggest costs, `map(round, ...)` over a file's points is not."""

    def __init__(self, nodes: dict[str, dict]):
        self.file_of = {nid: n.get("file") or "" for nid, n in nodes.items()}
        # source order inside a file: the file node first (at its spot's centre), then symbols by line, then id
        self.line_of = {nid: -1 if n.get("kind") == "file" else n.get("line") or 0 for nid, n in nodes.items()}
        self.order: list[str] = []
        self.xs: list[int] = []
        self.ys: list[int] = []

    def community(self, members: list[str], cx: float, cy: float, radius: float) -> None:
        """Files on a spiral over the community's disc, each file's symbols on a small spiral around its spot."""
        by_file: dict[str, list[str]] = defaultdict(list)
        file_of = self.file_of
        for m in members:
            by_file[file_of[m]].append(m)
        files = sorted(by_file, key=lambda f: (-len(by_file[f]), f))
        spots_x, spots_y = _spiral(len(files))
        ring_unit = radius / max(2.0, math.sqrt(len(members)) * 1.2)
        for sx, sy, file in zip(spots_x, spots_y, files, strict=True):
            group = by_file[file]
            if len(group) > 1:
                group.sort()
                group.sort(key=self.line_of.__getitem__)  # stable: equal lines stay in id order
            inner_x, inner_y = _spiral(len(group))
            spread = ring_unit * math.sqrt(len(group)) * SCALE
            fx, fy = (cx + sx * radius * 0.85) * SCALE, (cy + sy * radius * 0.85) * SCALE
            self.order += group
            self.xs += map(round, map(add, repeat(fx), map(mul, inner_x, repeat(spread))))
            self.ys += map(round, map(add, repeat(fy), map(mul, inner_y, repeat(spread))))


def viewer_data(graph: CodeGraph, partition: Partition, title: str = "code graph") -> dict:
    """What the page reads, as columns (one list per node field) rather than one small list per node: fewer Python
    objects to build and encode here, and a faster JSON.parse in the browser.

    Nodes are numbered in layout order (community by community, each file's symbols together); nodes outside the
    partition come last, at the origin, in community -1. Edges are a flat list of index quadruples
    (source, target, relation, confidence)."""
    with gc_paused():
        return _viewer_data(graph, partition, title)


def _viewer_data(graph: CodeGraph, partition: Partition, title: str) -> dict:
    nodes, edges = graph.nodes, graph.edges
    placed = set(chain.from_iterable(c.members for c in partition.communities))
    if len(placed) != sum(c.size for c in partition.communities) or not placed <= nodes.keys():
        partition = _restricted(partition, nodes)  # members listed twice, or gone from the graph
        placed = set(chain.from_iterable(c.members for c in partition.communities))
    layout = _community_layout(partition)
    place = _Placement(nodes)
    community_col: list[int] = []
    for c in partition.communities:
        x, y, r = layout[c.id]
        place.community(c.members, x, y, r)
        community_col += repeat(c.id, len(c.members))
    order = place.order
    if len(placed) != len(nodes):  # nodes the partition does not cover: at the origin, community -1
        rest = [nid for nid in nodes if nid not in placed]
        order += rest
        place.xs += repeat(0, len(rest))
        place.ys += repeat(0, len(rest))
        community_col += repeat(-1, len(rest))
    index = dict(zip(order, range(len(order)), strict=True))

    sources = list(map(index.__getitem__, map(_SOURCE, edges)))
    targets = list(map(index.__getitem__, map(_TARGET, edges)))
    relation_names = list(dict.fromkeys(map(_RELATION, edges)))
    confidence_names = list(dict.fromkeys(map(_CONFIDENCE, edges)))
    flat = [0] * (4 * len(edges))
    flat[0::4] = sources
    flat[1::4] = targets
    flat[2::4] = map(_ids(relation_names).__getitem__, map(_RELATION, edges))
    flat[3::4] = map(_ids(confidence_names).__getitem__, map(_CONFIDENCE, edges))

    out_edges, in_edges = graph.out_edges, graph.in_edges
    degree = list(
        map(add, map(len, map(out_edges.get, order, repeat(()))), map(len, map(in_edges.get, order, repeat(()))))
    )

    ordered = list(map(nodes.__getitem__, order))
    kinds_col = [str(n.get("kind", "?")) for n in ordered]
    kind_names = list(dict.fromkeys(kinds_col))
    files_col = list(map(place.file_of.__getitem__, order))
    file_names = [f for f in dict.fromkeys(files_col) if f]
    file_ids = _ids(file_names)
    doc_at, docs = [], []
    for i, n in enumerate(ordered):
        doc = n.get("docstring") or n.get("notes")
        if doc:
            doc_at.append(i)
            docs.append(note_text(doc)[:DOC_CHARS])

    communities = [
        {"id": c.id, "label": c.label, "size": c.size, "x": round(layout[c.id][0], 1), "y": round(layout[c.id][1], 1),
         "r": round(layout[c.id][2], 1), "cohesion": round(c.cohesion, 3), "isolated": c.isolated}
        for c in partition.communities
    ]  # fmt: skip
    root = source_root(graph.path, graph.meta) if graph.path else None
    return {
        "title": title,
        "root": root.resolve().as_posix() if root else "",
        "scale": SCALE,
        "kinds": kind_names,
        "relations": relation_names,
        "confidences": confidence_names,
        "files": file_names,
        "nodes": {
            "id": order,
            "name": [str(n.get("qualname") or n.get("name") or nid) for nid, n in zip(order, ordered, strict=True)],
            "kind": list(map(_ids(kind_names).__getitem__, kinds_col)),
            "file": list(map(file_ids.get, files_col, repeat(-1))),
            "line": [n.get("line") or 0 for n in ordered],
            "community": community_col,
            "x": place.xs,
            "y": place.ys,
            "degree": degree,
            "doc_at": doc_at,
            "doc": docs,
        },
        "edges": flat,
        "communities": communities,
        "links": _community_links(community_col, sources, targets),
    }


def _ids(names: list[str]) -> dict[str, int]:
    return dict(zip(names, range(len(names)), strict=True))


def _restricted(partition: Partition, nodes: dict[str, dict]) -> Partition:
    """The partition without members that are not in the graph (or listed twice)."""
    seen: set[str] = set()
    communities = []
    for c in partition.communities:
        members = [m for m in c.members if m in nodes and not (m in seen or seen.add(m))]
        communities.append(dataclasses.replace(c, members=members))
    return dataclasses.replace(partition, communities=communities)


def _community_links(community_of: list[int], sources: list[int], targets: list[int]) -> list[list[int]]:
    """[a, b, edges between them] for each pair of communities a < b with any edge between them."""
    cs = list(map(community_of.__getitem__, sources))
    ct = list(map(community_of.__getitem__, targets))
    crossing = list(map(ne, cs, ct))
    low = list(map(min, compress(cs, crossing), compress(ct, crossing)))
    high = list(map(max, compress(cs, crossing), compress(ct, crossing)))
    stride = max(community_of, default=0) + 2
    counts = Counter(map(add, map(mul, map(add, low, repeat(1)), repeat(stride)), map(add, high, repeat(1))))
    return [[key // stride - 1, key % stride - 1, n] for key, n in sorted(counts.items())]


def _safe_json(data: dict) -> bytes:
    """JSON that cannot close the surrounding <script> element or start a comment/CDATA section."""
    return (
        orjson.dumps(data)
        .replace(b"&", b"\\u0026")
        .replace(b"<", b"\\u003c")
        .replace(b">", b"\\u003e")
        .replace("\u2028".encode(), b"\\u2028")
        .replace("\u2029".encode(), b"\\u2029")
    )


def _escape_html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def render_html_bytes(graph: CodeGraph, partition: Partition, title: str = "code graph") -> bytes:
    """The page as UTF-8: the data goes from orjson's bytes into the file without a round trip through str."""
    package = resources.files("skillbox.graph.viewer")
    template = package.joinpath("template.html").read_text(encoding="utf-8")
    script = package.joinpath("viewer.js").read_text(encoding="utf-8")
    if "</script" in script.lower():
        raise AssertionError("viewer.js must not contain a closing script tag")
    with gc_paused():
        data = _safe_json(_viewer_data(graph, partition, title))
    parts = {"TITLE": _escape_html(title).encode(), "DATA": data, "SCRIPT": script.encode()}
    # split once, so text inside the data can never be taken for another placeholder
    pieces = re.split(r"\{\{(TITLE|DATA|SCRIPT)\}\}", template)
    return b"".join(parts[piece] if i % 2 else piece.encode() for i, piece in enumerate(pieces))


def render_html(graph: CodeGraph, partition: Partition, title: str = "code graph") -> str:
    return render_html_bytes(graph, partition, title).decode("utf-8")


def write_html(graph: CodeGraph, partition: Partition, path: Path, title: str = "code graph") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".graph-html-", suffix=".tmp", dir=path.parent)
    with os.fdopen(fd, "wb") as handle:
        handle.write(render_html_bytes(graph, partition, title))
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    return path
