"""The shared integer columns: faithful to the graph, reused only for the very graph (and partition) they describe."""

from __future__ import annotations

from graph_use_data import small_graph
from synthetic import synthetic_graph

from skillbox.graph.cluster import Community, Partition, detect_communities
from skillbox.graph.code_graph import from_node_link
from skillbox.graph.columns import graph_columns


def test_columns_describe_the_graph():
    graph = from_node_link(synthetic_graph(files=30, seed=2))
    cols = graph_columns(graph)
    assert cols.ids == list(graph.nodes)
    assert [(cols.ids[a], cols.ids[b]) for a, b in zip(cols.src, cols.dst, strict=True)] == [
        (e.source, e.target) for e in graph.edges
    ]
    assert [cols.relation_names[r] for r in cols.relation] == [e.relation for e in graph.edges]
    assert [cols.confidence_names[c] for c in cols.confidence] == [e.confidence for e in graph.edges]
    assert [cols.pairs[p] for p in cols.pair] == [(e.relation, e.confidence) for e in graph.edges]
    calls = cols.edge_mask(lambda relation, confidence: relation == "calls")
    assert calls == [e.relation == "calls" for e in graph.edges] and any(calls)


def test_columns_are_reused_for_the_same_graph_only():
    data = small_graph()
    first, second = from_node_link(data), from_node_link(data)
    assert graph_columns(first) is graph_columns(first)
    other = graph_columns(second)
    assert other is not graph_columns(first) and other.ids == graph_columns(first).ids


def test_community_columns_follow_the_partition_asked_about():
    graph = from_node_link(small_graph())
    cols = graph_columns(graph)
    ids = sorted(graph.nodes)
    one = Partition([Community(id=0, members=ids[:8]), Community(id=1, members=ids[8:])])
    two = Partition([Community(id=5, members=[*ids[:3], "gone::x"])])
    assert cols.community_of(one) == [0 if cols.ids[i] in ids[:8] else 1 for i in range(len(ids))]
    assert cols.community_of(two) == [5 if cols.ids[i] in ids[:3] else -1 for i in range(len(ids))]
    links, stride = cols.community_links(one)
    expected = {}
    for e in graph.edges:
        a, b = (0 if e.source in ids[:8] else 1), (0 if e.target in ids[:8] else 1)
        if a != b:
            expected[(a + 1) * stride + b + 1] = expected.get((a + 1) * stride + b + 1, 0) + 1
    assert dict(links) == expected
    detected = detect_communities(graph)
    assert cols.community_of(detected) == [
        next(c.id for c in detected.communities if node_id in c.members) for node_id in cols.ids
    ]
