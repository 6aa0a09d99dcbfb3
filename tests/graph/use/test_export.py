"""Exports load back into the tools they are for (networkx reads GraphML; Cypher is checked statement by
statement for quoting); every node and edge survives, with its community."""

from __future__ import annotations

import json

import networkx as nx
from click.testing import CliRunner
from graph_use_data import HOSTILE

from skillbox.cli.root import cli
from skillbox.graph.cluster import detect_communities, write_communities
from skillbox.graph.code_graph import load_graph


def _clustered(project):
    graph = load_graph(project)
    write_communities(detect_communities(graph), project.parent / "communities.json")
    return graph


def test_graphml_round_trips_nodes_edges_and_communities(project, tmp_path):
    _clustered(project)
    out = tmp_path / "g.graphml"
    result = CliRunner().invoke(cli, ["graph", "export", "graphml", "--out", str(out), "--graph", str(project)])
    assert result.exit_code == 0, result.output
    assert "16 nodes, 20 edges" in result.stdout
    g = nx.read_graphml(out, force_multigraph=True)
    assert g.number_of_nodes() == 16 and g.number_of_edges() == 20
    assert g.nodes["src/app/routing.py::url_for"]["docstring"] == "Build a URL for an endpoint."
    assert isinstance(g.nodes["src/app/routing.py::url_for"]["community"], int)
    assert g.nodes[f"src/app/helpers.py::{HOSTILE}"]["name"] == HOSTILE
    relations = {d["relation"] for _a, _b, d in g.edges(data=True)}
    assert relations == {"contains", "imports", "calls", "inherits", "documents"}


def test_cypher_batches_and_quotes(project, tmp_path):
    data = json.loads(project.read_text())
    data["nodes"].append({"id": "q", "kind": "function", "name": "it's \\ odd\nname", "file": "a.py", "line": 1})
    project.write_text(json.dumps(data))
    out = tmp_path / "g.cypher"
    result = CliRunner().invoke(
        cli, ["graph", "export", "cypher", "--out", str(out), "--graph", str(project), "--json"]
    )
    assert json.loads(result.stdout) == {"format": "cypher", "out": str(out), "nodes": 17, "edges": 20}
    text = out.read_text()
    assert text.count("CREATE (n:CodeNode:") == 5  # one batch per kind
    assert "CREATE (a)-[r:CALLS]->(b)" in text
    assert "name: 'it\\'s \\\\ odd\\nname'" in text
    assert sum(line.count("{s: ") for line in text.splitlines()) == 20


def test_json_export_adds_communities(project, tmp_path):
    _clustered(project)
    out = tmp_path / "g.json"
    CliRunner().invoke(cli, ["graph", "export", "json", "--out", str(out), "--graph", str(project)])
    data = json.loads(out.read_text())
    assert len(data["nodes"]) == 16 and len(data["links"]) == 20
    assert all("community" in n for n in data["nodes"])


def test_unknown_format_is_a_usage_error(project, tmp_path):
    result = CliRunner().invoke(cli, ["graph", "export", "dot", "--out", str(tmp_path / "x"), "--graph", str(project)])
    assert result.exit_code == 2
