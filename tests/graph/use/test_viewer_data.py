"""The viewer's payload (columns, flat edges, fixed-point positions) read back against the graph it came from."""

from __future__ import annotations

import json
import math
from collections import Counter

from graph_use_data import HOSTILE, small_graph
from synthetic import synthetic_graph

from skillbox.graph.cluster import Community, Partition, detect_communities
from skillbox.graph.code_graph import from_node_link, note_text
from skillbox.graph.viewer.render import render_html, viewer_data, write_html


def _ids(bulk: dict) -> list[str]:
    """Node ids as the page rebuilds them: relative to the node's file, except where sent whole."""
    cols, raw = bulk["nodes"], set(bulk["nodes"]["id_raw_at"])
    return [
        local if i in raw else (bulk["files"][cols["file"][i]] + (f"::{local}" if local else ""))
        for i, local in enumerate(cols["id"])
    ]


def _check_payload(graph, partition, data) -> None:
    assert data["counts"] == {"nodes": len(graph.nodes), "edges": len(graph.edges), "files": len(data["bulk"]["files"])}
    data = {**data, **data["bulk"]}
    cols = {**data["nodes"], "id": _ids(data["bulk"])}
    n = len(graph.nodes)
    assert sorted(cols["id"]) == sorted(graph.nodes)
    assert all(len(cols[k]) == n for k in ("id", "name", "kind", "file", "line", "community", "x", "y", "degree"))
    membership = {m: c.id for c in partition.communities for m in c.members if m in graph.nodes}
    docs = dict(zip(cols["doc_at"], cols["doc"], strict=True))
    for i, node_id in enumerate(cols["id"]):
        node = graph.nodes[node_id]
        assert cols["name"][i] == str(node.get("qualname") or node.get("name") or node_id)
        assert data["kinds"][cols["kind"][i]] == node.get("kind", "?")
        assert (data["files"][cols["file"][i]] if cols["file"][i] >= 0 else None) == (node.get("file") or None)
        assert cols["line"][i] == (node.get("line") or 0)
        assert cols["community"][i] == membership.get(node_id, -1)
        assert cols["degree"][i] == graph.degree(node_id)
        doc = node.get("docstring") or node.get("notes")
        assert docs.get(i, "") == (note_text(doc)[:240] if doc else "")
    flat = data["edges"]
    assert len(flat) == 4 * len(graph.edges)
    decoded = [
        (cols["id"][flat[k]], cols["id"][flat[k + 1]], data["relations"][flat[k + 2]], data["confidences"][flat[k + 3]])
        for k in range(0, len(flat), 4)
    ]
    assert decoded == [(e.source, e.target, e.relation, e.confidence) for e in graph.edges]
    between = Counter()
    for e in graph.edges:
        a, b = membership.get(e.source, -1), membership.get(e.target, -1)
        if a != b:
            between[(min(a, b), max(a, b))] += 1
    assert data["links"] == [[a, b, count] for (a, b), count in sorted(between.items())]
    # every member sits on its community's disc (positions are ints in 1/scale units)
    discs = {c["id"]: c for c in data["communities"]}
    for i, cid in enumerate(cols["community"]):
        if cid >= 0:
            c = discs[cid]
            x, y = cols["x"][i] / data["scale"], cols["y"][i] / data["scale"]
            assert math.hypot(x - c["x"], y - c["y"]) <= c["r"] * 1.6 + 1


def test_payload_columns_match_the_graph():
    graph = from_node_link(synthetic_graph(files=60, seed=4))
    partition = detect_communities(graph)
    data = viewer_data(graph, partition)
    _check_payload(graph, partition, data)
    cols = {**data["bulk"]["nodes"], "id": _ids(data["bulk"])}
    assert cols["id"] == list(graph.nodes)  # graph order: edges index it directly
    assert len(data["bulk"]["nodes"]["id_raw_at"]) < len(graph.nodes) / 10  # most ids travel without their file
    # each file node sits at the centre of its file's symbols: the first point of the file's sunflower
    at = {node_id: i for i, node_id in enumerate(cols["id"])}
    for node_id, node in graph.nodes.items():
        if node.get("kind") == "file":
            symbols = [at[m] for m, n in graph.nodes.items() if n.get("file") == node_id and m != node_id]
            if symbols:
                i = at[node_id]
                centre = (
                    sum(cols["x"][j] for j in symbols) / len(symbols),
                    sum(cols["y"][j] for j in symbols) / len(symbols),
                )
                spread = max(math.hypot(cols["x"][j] - cols["x"][i], cols["y"][j] - cols["y"][i]) for j in symbols)
                assert math.hypot(centre[0] - cols["x"][i], centre[1] - cols["y"][i]) <= spread
    assert viewer_data(graph, partition) == data  # deterministic


def test_partition_gaps_and_stale_members_are_tolerated():
    graph = from_node_link(small_graph())
    ids = sorted(graph.nodes)
    partition = Partition(
        [
            Community(id=3, members=[*ids[:5], "gone.py::removed"], label="three"),
            Community(id=7, members=[ids[5], ids[6], ids[5]], label="seven"),  # listed twice
        ]
    )
    data = viewer_data(graph, partition)
    assert "gone.py::removed" not in _ids(data["bulk"])
    real = Partition(
        [Community(id=3, members=ids[:5], label="three"), Community(id=7, members=[ids[5], ids[6]], label="seven")]
    )
    _check_payload(graph, real, data)
    assert Counter(data["bulk"]["nodes"]["community"])[-1] == len(ids) - 7


def test_embedded_json_cannot_break_out_and_reads_back(tmp_path):
    raw = small_graph()
    nasty = "a</script><!--b]]>\u2028c\u2029&amp;"
    raw["nodes"].append({"id": "src/x.py::weird", "kind": "function", "name": nasty, "file": "src/x.py", "line": 1,
                         "docstring": f"<b>{nasty}</b>"})  # fmt: skip
    graph = from_node_link(raw)
    partition = detect_communities(graph)
    html = render_html(graph, partition, title="<Title & co>")
    assert "<title>&lt;Title &amp; co&gt;</title>" in html
    blocks = {}
    for name in ("graph-data", "graph-bulk"):
        opening = f'<script type="application/json" id="{name}">'
        start = html.index(opening) + len(opening)
        blocks[name] = html[start : html.index("</script>", start)]
        for forbidden in ("<", ">", "&", "\u2028", "\u2029"):
            assert forbidden not in blocks[name]
    names = json.loads(blocks["graph-bulk"])["nodes"]["name"]
    assert nasty in names and HOSTILE in names
    assert json.loads(blocks["graph-data"])["communities"]
    assert html.count("</script>") == 3
    written = write_html(graph, partition, tmp_path / "graph.html", title="<Title & co>")
    assert written.read_text(encoding="utf-8") == html
