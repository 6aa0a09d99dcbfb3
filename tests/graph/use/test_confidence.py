"""Confidence shown everywhere an edge is printed, AMBIGUOUS edges left out of counts unless asked, `path`
preferring and marking forward hops, and `affected` following a constructor to its class's users.

The project is built by the real build, so the AMBIGUOUS edges are the resolver's own: `persist` calls
`backend.save(...)` on an untyped receiver, and two classes define `save`.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from tests.graph.conftest import read_graph, write_tree

from skillbox.cli.root import cli
from skillbox.graph.build import build_graph

FILES = {
    "pkg/__init__.py": "",
    "pkg/store.py": (
        "class Store:\n"
        "    def __init__(self, path):\n"
        "        self.path = path\n"
        "\n"
        "    def save(self, item):\n"
        "        return item\n"
        "\n"
        "\n"
        "class Cache:\n"
        "    def save(self, item):\n"
        "        return item\n"
    ),
    "pkg/service.py": (
        "from pkg.store import Store\n"
        "\n"
        "\n"
        "def make_store():\n"
        '    return Store("db")\n'
        "\n"
        "\n"
        "def persist(thing, backend):\n"
        "    backend.save(thing)\n"
        "\n"
        "\n"
        "def handler():\n"
        "    return make_store()\n"
    ),
    "pkg/cli.py": "from pkg.service import handler\n\n\ndef main():\n    handler()\n",
}


@pytest.fixture(scope="module")
def graph(tmp_path_factory):
    root = write_tree(tmp_path_factory.mktemp("conf") / "p", FILES)
    result = build_graph(root)
    g = read_graph(result.out_dir)
    # the premise: the resolver could not choose between the two `save`s
    assert {e["confidence"] for e in g.edges("calls", "pkg/service.py::persist")} == {"AMBIGUOUS"}
    return result.graph_path


def run(graph, *args) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["graph", *args, "--graph", str(graph)], catch_exceptions=False)
    return result.exit_code, result.stdout


def test_affected_by_a_constructor_reaches_the_class_users(graph):
    code, out = run(graph, "affected", "Store.__init__", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["constructs"] == "pkg/store.py::Store"
    depth = {p["name"]: p["depth"] for peers in answer["files"].values() for p in peers}
    assert depth == {"make_store": 1, "handler": 2}  # `Store("db")` calls the class, not `__init__`
    code, text = run(graph, "affected", "Store.__init__", "--depth", "3")
    assert "Store.__init__ constructs Store: the users of Store count too" in text
    assert "  4 function main —calls→ handler (depth 3) [EXTRACTED]" in text


def test_affected_leaves_ambiguous_edges_out_and_counts_them(graph):
    answer = json.loads(run(graph, "affected", "Cache.save", "--json")[1])
    assert answer["count"] == 0 and answer["ambiguous_left_out"] == 1
    text = run(graph, "affected", "Cache.save")[1]
    assert "1 more are linked only by AMBIGUOUS edges" in text and "--include-ambiguous" in text
    wide = json.loads(run(graph, "affected", "Cache.save", "--include-ambiguous", "--json")[1])
    (persist,) = wide["files"]["pkg/service.py"]
    assert persist["name"] == "persist" and persist["confidence"] == "AMBIGUOUS"
    assert wide["by_confidence"] == {"AMBIGUOUS": 1} and wide["ambiguous_left_out"] == 0
    assert (
        "persist —calls→ Cache.save (depth 1) [AMBIGUOUS]"
        in run(graph, "affected", "Cache.save", "--include-ambiguous")[1]
    )


def test_every_affected_line_carries_the_weakest_confidence_of_its_chain(graph):
    answer = json.loads(run(graph, "affected", "Store", "--include-ambiguous", "--json")[1])
    confidence = {p["name"]: p["confidence"] for peers in answer["files"].values() for p in peers}
    assert confidence["make_store"] == "EXTRACTED" and confidence["persist"] == "AMBIGUOUS"
    assert answer["by_confidence"]["AMBIGUOUS"] >= 1
    text = run(graph, "affected", "Store", "--include-ambiguous")[1]
    dependants = [line for line in text.splitlines() if line.startswith("  ")]
    assert dependants and all(line.endswith(("[EXTRACTED]", "[INFERRED]", "[AMBIGUOUS]")) for line in dependants)


def test_path_prefers_forward_hops_and_marks_reversed_ones(graph):
    forward = json.loads(run(graph, "path", "main", "Store", "--json")[1])
    assert [h["direction"] for h in forward["hops"]] == ["forward"] * 3 and forward["reversed"] == 0
    assert forward["weakest"] == "EXTRACTED"
    backward = json.loads(run(graph, "path", "Store", "main", "--json")[1])
    assert backward["reversed"] == len(backward["hops"]) >= 3
    text = run(graph, "path", "Store", "main")[1]
    assert "←calls— (reversed) make_store" in text and "[EXTRACTED]" in text
    assert f"{backward['reversed']} reversed" in text.splitlines()[-1]


def test_explain_groups_neighbours_under_their_confidence(graph):
    text = run(graph, "explain", "Store.save")[1]
    assert "called_by (1): [AMBIGUOUS] persist (pkg/service.py:9)" in text
    answer = json.loads(run(graph, "explain", "make_store", "--json")[1])
    assert answer["neighbours"]["calls"][0]["confidence"] == "EXTRACTED"


def test_god_nodes_leave_ambiguous_edges_out_unless_asked(graph):
    from skillbox.graph.index import GraphIndex
    from skillbox.graph.query import god_nodes

    index = GraphIndex.open(str(graph))
    names = [g["name"] for g in god_nodes(index, 10)]
    wide = [g["name"] for g in god_nodes(index, 10, include_ambiguous=True)]
    assert "Cache.save" not in names and "Cache.save" in wide
    assert "Store" in names  # constructed by make_store: an EXTRACTED dependency


def test_report_include_ambiguous_widens_god_nodes(graph):
    report = graph.parent / "GRAPH_REPORT.md"
    assert "Cache.save" not in report.read_text().split("## Communities")[0]
    code, _out = run(graph, "report", "--include-ambiguous", "--no-html")
    assert code == 0
    head = report.read_text().split("## Communities")[0]
    assert "AMBIGUOUS guesses counted too" in head and "`Cache.save`" in head


def test_inferred_edges_show_the_resolvers_reason_when_graph_json_records_one(tmp_path):
    from graph_use_data import HOSTILE, small_graph, write_project

    data = small_graph()
    (link,) = [x for x in data["links"] if x["confidence"] == "INFERRED" and x["target"].endswith("::redirect")]
    link["reason"] = "receiver type from the constructor call on line 9"
    graph = write_project(tmp_path / "project", data)
    tag = "[INFERRED: receiver type from the constructor call on line 9]"

    explained = json.loads(run(graph, "explain", "redirect", "--json")[1])
    (caller,) = explained["neighbours"]["called_by"]
    assert caller["name"] == HOSTILE and caller["reason"] == link["reason"]
    assert tag in run(graph, "path", f"src/app/helpers.py::{HOSTILE}", "src/app/routing.py::url_for")[1]
    wide = json.loads(run(graph, "affected", "redirect", "--json")[1])
    assert wide["files"]["src/app/helpers.py"][0]["via"]["reason"] == link["reason"]
    answer = run(graph, "query", "redirect", "--budget", "400")[1]
    assert any(line.endswith(tag) and "—calls→ redirect" in line for line in answer.splitlines())
