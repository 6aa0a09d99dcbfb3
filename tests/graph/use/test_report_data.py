"""ReportData computes its numbers from edge columns for speed; these tests hold it to the plain definitions.

Each reference below is the obvious per-edge / per-node loop for what the report promises (dependency degree,
god nodes, surprising connections, dead-looking code, isolated nodes). The graph mixes in what the fast path has to
get right: AMBIGUOUS and low/high-score INFERRED edges, test files, duplicate edges, nodes outside the partition.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from synthetic import synthetic_graph

from skillbox.graph.cluster import Community, Partition, detect_communities
from skillbox.graph.code_graph import STRUCTURE_RELATIONS, from_node_link, is_test_path
from skillbox.graph.report import ENTRY_POINT_NAMES, NON_SYMBOL_KINDS, SURPRISE_RELATIONS, ReportData, render_report


def _mixed_graph() -> dict:
    data = synthetic_graph(files=80, seed=5)
    rng = random.Random(3)
    for link in data["links"]:
        if link["relation"] == "contains":
            continue
        roll = rng.random()
        if roll < 0.15:
            link["confidence"] = "AMBIGUOUS"
        elif roll < 0.35:
            link["confidence"] = "INFERRED"
            link["score"] = rng.choice([0.5, 0.8, 0.95])
    # a test package that calls into the code, duplicates of some edges, and nodes nothing touches
    files = sorted({n["file"] for n in data["nodes"] if n.get("kind") == "function"})
    callables = [n["id"] for n in data["nodes"] if n.get("kind") in ("function", "method")]
    data["nodes"].append({"id": "tests/test_x.py", "kind": "file", "name": "test_x.py", "file": "tests/test_x.py"})
    for i in range(30):
        test_id = f"tests/test_x.py::test_{i}"
        data["nodes"].append({"id": test_id, "kind": "function", "name": f"test_{i}", "file": "tests/test_x.py"})
        data["links"].append(
            {"source": test_id, "target": rng.choice(callables), "relation": "calls", "confidence": "EXTRACTED",
             "file": "tests/test_x.py", "line": i + 1}
        )  # fmt: skip
    data["links"] += [dict(link) for link in rng.sample(data["links"], 40)]
    data["nodes"] += [
        {"id": f"{files[0]}::orphan_{i}", "kind": "function", "name": f"orphan_{i}", "file": files[0], "line": 900 + i}
        for i in range(3)
    ]
    return data


def _partitions(graph) -> list[Partition]:
    detected = detect_communities(graph)
    # a hand-made partition that leaves a third of the nodes out (membership None) and mixes directories
    ids = sorted(graph.nodes)
    rng = random.Random(9)
    groups: dict[int, list[str]] = {}
    for node_id in ids[: 2 * len(ids) // 3]:
        groups.setdefault(rng.randrange(6), []).append(node_id)
    partial = Partition([Community(id=cid, members=members, label=f"c{cid}") for cid, members in groups.items()])
    return [detected, partial]


@pytest.fixture(scope="module")
def cases():
    graph = from_node_link(_mixed_graph())
    return [(graph, partition, ReportData(graph, partition)) for partition in _partitions(graph)]


def _reference_degrees(graph):
    dep_degree, dep_in = Counter(), Counter()
    for e in graph.edges:
        if e.relation in STRUCTURE_RELATIONS or e.confidence == "AMBIGUOUS":
            continue
        dep_in[e.target] += 1
        if not is_test_path(graph.nodes[e.source].get("file")):
            dep_degree[e.source] += 1
            dep_degree[e.target] += 1
    return dep_degree, dep_in


def test_degrees_god_nodes_and_top_members_follow_the_definitions(cases):
    for graph, partition, data in cases:
        dep_degree, dep_in = _reference_degrees(graph)
        assert +data.dep_degree == +dep_degree and +data.dep_in == +dep_in
        symbols = [nid for nid, n in graph.nodes.items() if n.get("kind") not in NON_SYMBOL_KINDS]
        symbols.sort(key=lambda nid: (-dep_degree[nid], nid))
        expected = [(graph.nodes[nid], dep_degree[nid]) for nid in symbols[:10] if dep_degree[nid]]
        assert data.god_nodes() == expected
        for c in partition.communities:
            assert data.top_members(c.members) == sorted(c.members, key=lambda m: (-dep_degree[m], m))[:5]


def _reference_surprising(graph, partition, dep_in):
    membership = {m: c.id for c in partition.communities for m in c.members}
    between = Counter()
    for e in graph.edges:
        a, b = membership.get(e.source, -1), membership.get(e.target, -1)
        if a != b:
            between[(min(a, b), max(a, b))] += 1
    in_degrees = sorted(dep_in.values())
    hub = max(10, in_degrees[int(len(in_degrees) * 0.99)])
    found, seen = [], set()
    for e in graph.edges:
        good = e.confidence == "EXTRACTED" or (e.confidence == "INFERRED" and (e.score or 0) >= 0.8)
        if e.relation not in SURPRISE_RELATIONS or not good:
            continue
        fa, fb = graph.nodes[e.source].get("file"), graph.nodes[e.target].get("file")
        if not fa or not fb or fa == fb or is_test_path(fa) or (e.source, e.target, e.relation) in seen:
            continue
        seen.add((e.source, e.target, e.relation))
        da, db = fa.rpartition("/")[0], fb.rpartition("/")[0]
        score = 2 if da.split("/")[0] != db.split("/")[0] else 1 if da != db else 0
        ca, cb = membership.get(e.source, -1), membership.get(e.target, -1)
        if ca != cb:
            score += 1 + (between[(min(ca, cb), max(ca, cb))] <= 2)
        score -= dep_in[e.target] >= hub
        if score >= 2:
            found.append((score, e))
    found.sort(key=lambda f: (-f[0], f[1].source, f[1].target))
    return found


POINTS = {
    "different top-level directory": 2,
    "different directory": 1,
    "different community": 1,
    "one of at most 2 links between the two communities": 1,
    "but the target is widely used": -1,
}


def test_surprising_connections_follow_the_stated_score(cases):
    for graph, partition, data in cases:
        expected = _reference_surprising(graph, partition, _reference_degrees(graph)[1])
        assert expected, "the mixed graph should have surprising edges to rank"
        got = data.surprising(limit=len(expected) + 5)
        assert [(f["score"], f["edge"]) for f in got] == expected
        for item in got:  # the reasons shown add up to the score shown
            assert sum(POINTS[reason] for reason in item["reasons"]) == item["score"]


def test_dead_looking_and_isolated_follow_the_definitions(cases):
    graph, _, data = cases[0]
    dep_in = _reference_degrees(graph)[1]
    dead = [
        n
        for nid, n in graph.nodes.items()
        if n.get("kind") in ("function", "method", "class")
        and not dep_in[nid]
        and not is_test_path(n.get("file"))
        and n.get("name") not in ENTRY_POINT_NAMES
        and not (n["name"].startswith("__") and n["name"].endswith("__"))
        and not n["name"].startswith("test")
    ]
    dead.sort(key=lambda n: (n.get("file") or "", n.get("line") or 0))
    assert data.dead_looking() == dead
    isolated = data.isolated()
    assert [n["id"] for n in isolated] == [nid for nid in graph.nodes if graph.degree(nid) == 0]
    assert {f"orphan_{i}" for i in range(3)} <= {n["name"] for n in isolated}


def test_summary_counts_and_report_is_deterministic(cases):
    graph, partition, data = cases[0]
    s = data.summary()
    assert s["relations"] == Counter(e.relation for e in graph.edges).most_common()
    assert s["confidence"] == Counter(e.confidence for e in graph.edges).most_common()
    assert s["kinds"] == Counter(n.get("kind", "?") for n in graph.nodes.values()).most_common()
    assert render_report(graph, partition) == render_report(graph, partition)
