"""Communities are areas of the code made of whole files: deterministic, stable across builds, readably named.

Hand-made and synthetic graphs for the rules, the pinned Flask sdist (built by the real engine) for stability on a
real project."""

from __future__ import annotations

import copy
import json
import shutil
from collections import defaultdict

from graph_use_data import small_graph
from synthetic import synthetic_graph

from skillbox.graph.build import build_graph
from skillbox.graph.cluster import ISOLATED_LABEL, detect_communities, read_previous, write_communities
from skillbox.graph.code_graph import from_node_link, load_graph


def communities_by_file(graph, partition) -> dict[str, set[int]]:
    membership = partition.membership()
    found: dict[str, set[int]] = defaultdict(set)
    for node_id, attrs in graph.nodes.items():
        if attrs.get("file"):
            found[attrs["file"]].add(membership[node_id])
    return found


def test_every_symbol_is_in_its_files_community():
    graph = from_node_link(synthetic_graph(files=300, seed=11))
    partition = detect_communities(graph)
    by_file = communities_by_file(graph, partition)
    assert len(by_file) == 300
    assert all(len(ids) == 1 for ids in by_file.values())
    assert sum(c.size for c in partition.communities) == len(graph.nodes)
    assert len({m for c in partition.communities for m in c.members}) == len(graph.nodes)
    assert len([c for c in partition.communities if not c.isolated]) > 1


def _two_areas() -> dict:
    """Two pairs of files calling each other, plus external modules imported by them."""
    nodes, links = [], []
    for path in ("web/app.py", "web/views.py", "db/model.py", "db/query.py"):
        nodes.append({"id": path, "kind": "file", "name": path, "file": path, "line": 1})
        for name in ("run", "helper"):
            nodes.append({"id": f"{path}::{name}", "kind": "function", "name": name, "file": path, "line": 2})
            links.append({"source": path, "target": f"{path}::{name}", "relation": "contains"})
    for a, b in (("web/app.py", "web/views.py"), ("db/model.py", "db/query.py")):
        for _ in range(3):
            links.append({"source": f"{a}::run", "target": f"{b}::helper", "relation": "calls"})
    links.append({"source": "web/app.py::run", "target": "db/model.py::helper", "relation": "calls"})
    for ext in ("flask", "sqlalchemy", "unused"):
        nodes.append({"id": f"external:python:{ext}", "kind": "external", "name": ext})
    links += [
        {"source": "web/app.py", "target": "external:python:flask", "relation": "imports"},
        {"source": "web/views.py", "target": "external:python:flask", "relation": "imports"},
        {"source": "db/model.py", "target": "external:python:flask", "relation": "imports"},
        {"source": "db/query.py", "target": "external:python:sqlalchemy", "relation": "imports"},
    ]
    return {"directed": True, "multigraph": True, "graph": {}, "nodes": nodes, "links": links}


def test_external_modules_join_the_area_that_uses_them_most():
    graph = from_node_link(_two_areas())
    membership = detect_communities(graph).membership()
    assert membership["web/app.py"] == membership["web/views.py"] != membership["db/model.py"]
    assert membership["external:python:flask"] == membership["web/app.py"]  # 2 importers there, 1 in db/
    assert membership["external:python:sqlalchemy"] == membership["db/query.py"]
    bucket = next(c for c in detect_communities(graph).communities if c.isolated)
    assert bucket.members == ["external:python:unused"] and bucket.label == ISOLATED_LABEL


def test_two_runs_write_identical_files(tmp_path):
    data = synthetic_graph(files=250, seed=4)
    first = write_communities(detect_communities(from_node_link(data)), tmp_path / "a.json").read_bytes()
    shuffled = copy.deepcopy(data)
    shuffled["nodes"].reverse()
    shuffled["links"].reverse()
    second = write_communities(detect_communities(from_node_link(shuffled)), tmp_path / "b.json").read_bytes()
    assert first == second
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.json"]  # no temporary file left behind


def test_ids_follow_the_previous_run_and_moved_counts_nodes_that_changed():
    graph = from_node_link(synthetic_graph(files=250, seed=4))
    cold = detect_communities(graph)
    renamed = {node_id: cid + 100 for node_id, cid in cold.membership().items()}
    again = detect_communities(graph, renamed)
    assert again.seeded and again.moved == 0
    assert again.membership() == renamed  # "community 107" keeps meaning what it meant

    previous = cold.membership()
    symbol = next(m for c in cold.communities if not c.isolated for m in c.members if "::" in m)
    other = next(c.id for c in cold.communities if c.id != previous[symbol])
    previous[symbol] = other  # the previous run had put this one symbol elsewhere
    rerun = detect_communities(graph, previous)
    assert rerun.moved == 1
    assert rerun.membership() == cold.membership()


def test_labels_name_a_directory_and_hub_symbols():
    graph = from_node_link(small_graph())
    for community in detect_communities(graph).communities:
        if community.isolated:
            assert community.label == ISOLATED_LABEL
            continue
        where, _, hubs = community.label.partition(" · ")
        files = {graph.nodes[m].get("file") or "" for m in community.members}
        for directory in where.split(" + "):  # the dominant directory, or the two biggest under a top-level one
            assert any(f.startswith(directory + "/") for f in files)
            assert directory == community.directory or directory.startswith(community.directory + "/")
        symbols = [m for m in community.members if graph.nodes[m]["kind"] in ("class", "function", "method")]
        if not symbols:  # e.g. a page of docs: named by its directory alone
            assert community.label == where and not community.hubs
            continue
        names = {graph.nodes[m].get("qualname") or m.partition("::")[2] for m in symbols}
        assert hubs and set(hubs.split(", ")) <= names
        assert "::" not in community.label


def test_corrupt_previous_file_is_ignored_and_writing_is_atomic(tmp_path):
    path = tmp_path / "communities.json"
    path.write_text("{not json")
    assert read_previous(path) == {}
    assert read_previous(tmp_path / "missing.json") == {}
    partition = detect_communities(from_node_link(small_graph()), read_previous(path))
    write_communities(partition, path)
    assert [p.name for p in tmp_path.iterdir()] == ["communities.json"]  # no temporary file left behind
    data = json.loads(path.read_text())
    assert {"version", "algorithm", "seed", "seeded_from_previous", "moved", "communities"} <= set(data)
    assert read_previous(path) == partition.membership()


def test_real_project_is_stable_across_builds(flask_tree, tmp_path):
    tree = tmp_path / "flask"
    shutil.copytree(flask_tree, tree)
    out = tmp_path / "out"
    build_graph(tree, out)
    graph = load_graph(out / "graph.json")
    first = json.loads((out / "communities.json").read_text())
    assert first["moved"] is None
    cold = detect_communities(graph)
    assert all(len(ids) == 1 for ids in communities_by_file(graph, cold).values())
    app = next(c for c in cold.communities if "src/flask/app.py" in c.members)
    assert app.label.startswith("src/flask")

    unchanged = detect_communities(graph, read_previous(out / "communities.json"))
    assert unchanged.seeded and unchanged.moved == 0

    helpers = tree / "src" / "flask" / "helpers.py"
    helpers.write_text(
        helpers.read_text() + "\n\ndef url_for_static(filename):\n    return url_for('static', filename=filename)\n"
    )
    build_graph(tree, out)
    after = json.loads((out / "communities.json").read_text())
    assert after["seeded_from_previous"]
    assert after["moved"] <= 0.01 * len(graph.nodes)
    members = {m: c["id"] for c in after["communities"] for m in c["members"]}
    assert members["src/flask/helpers.py::url_for_static"] == members["src/flask/helpers.py"]
