"""Write graph.html: the graph's data, precomputed positions and a small canvas renderer in one offline file.

Why this shape: a 50k-node graph cannot be force-laid-out in the browser (graphify's vis.js view gives up above
5,000 nodes and needs a CDN). Positions are computed here in linear time, so the page only draws:
- communities sit on an area-proportional sunflower spiral (largest in the middle), each a disc of area ~ size;
- inside a community, files sit on their own spiral and each file's symbols ring around it.
The page opens on the community overview (one disc per community, edges aggregated) and drills into a community
on click. Data is embedded as JSON in two `<script type="application/json">` blocks with `<`, `>`, `&` and
U+2028/9 escaped: a small one the overview draws from, and after the viewer's script the bulk (files, nodes,
edges), which the page parses once the document is complete. The script only ever writes code text through
`textContent`, so hostile names stay text.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from collections import Counter, defaultdict, deque
from importlib import resources
from itertools import chain, compress, repeat
from operator import add, attrgetter, is_, mul
from pathlib import Path

import orjson

from skillbox.graph.cluster import Partition
from skillbox.graph.code_graph import CodeGraph, note_text, source_root
from skillbox.graph.columns import graph_columns
from skillbox.graph.gc_pause import gc_paused

GOLDEN_ANGLE = math.pi * (3 - math.sqrt(5))
DOC_CHARS = 240
BULK = "bulk"  # the part of the data the page parses after its first draw: files, nodes, edges
SCALE = 10  # positions are sent as ints in tenths of a layout unit


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
    """Fixed-point positions, filled community by community, file by file (nodes by graph index).

    Per file only its spot, spread and node run are recorded; the coordinates of all nodes come out of one C-level
    map chain at the end. Positions are ints in 1/SCALE units (the page divides once): a Python round() per
    coordinate was one of the viewer's biggest costs."""

    def __init__(self, ids: list[str], files: list[str | None], line_key: list[int]):
        self.ids, self.files, self.line_key = ids, files, line_key
        self.order: list[int] = []  # node indices, file by file
        self.centre_x: list[float] = []  # per node in `order`: its file's spot (scaled)
        self.centre_y: list[float] = []
        self.spread: list[float] = []  # per node in `order`: its file's ring size (scaled)
        self.unit_x: list[float] = []  # per node in `order`: its point on the unit sunflower of its file
        self.unit_y: list[float] = []

    def community(self, members: list[int], cx: float, cy: float, radius: float) -> None:
        """Files on a spiral over the community's disc, each file's symbols on a small spiral around its spot."""
        by_file: dict[str, list[int]] = defaultdict(list)
        files = self.files
        for m in members:
            by_file[files[m] or ""].append(m)
        ranked = sorted(by_file, key=lambda f: (-len(by_file[f]), f))
        spots_x, spots_y = _spiral(len(ranked))
        ring_unit = radius / max(2.0, math.sqrt(len(members)) * 1.2) * SCALE
        reach = radius * 0.85
        for sx, sy, file in zip(spots_x, spots_y, ranked, strict=True):
            group = by_file[file]
            size = len(group)
            if size > 1:  # source order: the file node first (at the spot's centre), then by line, then id
                group.sort(key=self.ids.__getitem__)
                group.sort(key=self.line_key.__getitem__)  # stable: equal lines stay in id order
            unit_x, unit_y = _spiral(size)
            self.order += group
            self.centre_x += repeat((cx + sx * reach) * SCALE, size)
            self.centre_y += repeat((cy + sy * reach) * SCALE, size)
            self.spread += repeat(ring_unit * math.sqrt(size), size)
            self.unit_x += unit_x
            self.unit_y += unit_y

    def positions(self, count: int) -> tuple[list[int], list[int]]:
        """x and y per node index (0 for nodes no community placed)."""
        xs, ys = [0] * count, [0] * count
        for column, centre, unit in ((xs, self.centre_x, self.unit_x), (ys, self.centre_y, self.unit_y)):
            values = map(round, map(add, centre, map(mul, unit, self.spread)))
            deque(map(column.__setitem__, self.order, values), maxlen=0)
        return xs, ys


def viewer_data(graph: CodeGraph, partition: Partition, title: str = "code graph") -> dict:
    """What the page reads, as columns (one list per node field, in graph order) rather than one small list per
    node: fewer Python objects to build and encode here, and a faster JSON.parse in the browser.

    The overview (counts, communities, links) is what the page draws first; under "bulk" are the files, nodes and
    edges, embedded as a second JSON block that the page parses after that first draw. Nodes outside the partition
    are in community -1, at the origin. Edges are a flat list of index quadruples (source, target, relation,
    confidence)."""
    with gc_paused():
        return _viewer_data(graph, partition, title)


def _viewer_data(graph: CodeGraph, partition: Partition, title: str) -> dict:
    nodes, cols = graph.nodes, graph_columns(graph)
    index, count = cols.index, len(cols.ids)
    placed = set(chain.from_iterable(c.members for c in partition.communities))
    if len(placed) != sum(c.size for c in partition.communities) or not placed <= nodes.keys():
        partition = _restricted(partition, nodes)  # members listed twice, or gone from the graph

    lines = [n.get("line") or 0 for n in nodes.values()]
    line_key = lines.copy()  # the file node sorts first in its file
    deque(map(line_key.__setitem__, compress(range(count), map("file".__eq__, cols.kinds)), repeat(-1)), maxlen=0)
    place = _Placement(cols.ids, cols.files, line_key)
    layout = _community_layout(partition)
    for c in partition.communities:
        x, y, r = layout[c.id]
        place.community(list(map(index.__getitem__, c.members)), x, y, r)
    xs, ys = place.positions(count)

    flat = [0] * (4 * len(cols.src))
    flat[0::4] = cols.src
    flat[1::4] = cols.dst
    flat[2::4] = cols.relation
    flat[3::4] = cols.confidence
    degree = Counter(cols.src)
    degree.update(cols.dst)
    degrees = [0] * count
    deque(map(degrees.__setitem__, degree.keys(), degree.values()), maxlen=0)

    kind_names = list(dict.fromkeys(cols.kinds))
    file_names = [f for f in dict.fromkeys(cols.files) if f]
    file_ids = dict(zip(file_names, range(len(file_names)), strict=True))
    doc_at, docs = [], []
    for i, n in enumerate(nodes.values()):
        doc = n.get("docstring") or n.get("notes")
        if doc:
            doc_at.append(i)
            docs.append(note_text(doc)[:DOC_CHARS])
    links, stride = cols.community_links(partition)
    # Most ids are `<file>` or `<file>::<name>`; the page gets the part after the file (a third of the payload
    # otherwise) and rebuilds the id, except at `id_raw_at`, where the id is sent whole.
    local_ids = [
        ("" if node_id == file else node_id[len(file) + 2 :] if node_id.startswith(file + "::") else node_id)
        if file and len(node_id) != len(file) + 2
        else node_id
        for node_id, file in zip(cols.ids, cols.files, strict=True)
    ]
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
        "counts": {"nodes": count, "edges": len(cols.src), "files": len(file_names)},
        "kinds": [str(k) for k in kind_names],
        "relations": cols.relation_names,
        "confidences": cols.confidence_names,
        "communities": communities,
        "links": _undirected(links, stride),
        BULK: {
            "files": file_names,
            "nodes": {
                "id": local_ids,
                "id_raw_at": list(compress(range(count), map(is_, local_ids, cols.ids))),
                "name": [str(n.get("qualname") or n.get("name") or nid) for nid, n in nodes.items()],
                "kind": list(map(_positions(kind_names).__getitem__, cols.kinds)),
                "file": list(map(file_ids.get, cols.files, repeat(-1))),
                "line": lines,
                "community": cols.community_of(partition),
                "x": xs,
                "y": ys,
                "degree": degrees,
                "doc_at": doc_at,
                "doc": docs,
            },
            "edges": flat,
            # why the resolver guessed, for the edges graph.json gives a reason (sparse: edge numbers and texts)
            "edge_reasons": _edge_reasons(graph),
        },
    }


def _edge_reasons(graph: CodeGraph) -> dict:
    """The edges with a reason, found in C (`map`/`compress`): most edges have none, and Django has 160k."""
    reasons = list(map(attrgetter("reason"), graph.edges))
    at = list(compress(range(len(reasons)), reasons))
    return {"at": at, "text": [note_text(reasons[k])[:DOC_CHARS] for k in at]}


def _positions(names: list) -> dict:
    return dict(zip(names, range(len(names)), strict=True))


def _undirected(links: Counter, stride: int) -> list[list[int]]:
    """[a, b, edges between them] for each pair of communities a < b with any edge between them."""
    between: Counter = Counter()
    for key, n in links.items():
        a, b = key // stride - 1, key % stride - 1
        between[(a, b) if a < b else (b, a)] += n
    return [[a, b, n] for (a, b), n in sorted(between.items())]


def _restricted(partition: Partition, nodes: dict[str, dict]) -> Partition:
    """The partition without members that are not in the graph (or listed twice)."""
    seen: set[str] = set()
    communities = []
    for c in partition.communities:
        members = [m for m in c.members if m in nodes and not (m in seen or seen.add(m))]
        communities.append(dataclasses.replace(c, members=members))
    return dataclasses.replace(partition, communities=communities)


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
        data = _viewer_data(graph, partition, title)
        bulk = _safe_json(data.pop(BULK))
        overview = _safe_json(data)
    parts = {"TITLE": _escape_html(title).encode(), "DATA": overview, "BULK": bulk, "SCRIPT": script.encode()}
    # split once, so text inside the data can never be taken for another placeholder
    pieces = re.split(r"\{\{(TITLE|DATA|BULK|SCRIPT)\}\}", template)
    return b"".join(parts[piece] if i % 2 else piece.encode() for i, piece in enumerate(pieces))


def render_html(graph: CodeGraph, partition: Partition, title: str = "code graph") -> str:
    return render_html_bytes(graph, partition, title).decode("utf-8")


def write_html(graph: CodeGraph, partition: Partition, path: Path, title: str = "code graph") -> Path:
    """graph.html; rendered before the write starts, written atomically (a failure leaves no temporary file)."""
    from skillbox.atomic import atomic_write

    return atomic_write(path, render_html_bytes(graph, partition, title))
