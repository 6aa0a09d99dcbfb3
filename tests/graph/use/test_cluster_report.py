"""Communities (deterministic, stable across edits) and GRAPH_REPORT.md on hand-made and synthetic graphs."""

from __future__ import annotations

import copy

from graph_use_data import HOSTILE, small_graph
from synthetic import synthetic_graph

from skillbox.graph.cluster import detect_communities, read_previous, write_communities
from skillbox.graph.code_graph import from_node_link
from skillbox.graph.report import ReportData, render_report


def test_same_input_gives_the_same_partition():
    data = synthetic_graph(files=200, seed=5)
    first = detect_communities(from_node_link(data)).to_json()
    second = detect_communities(from_node_link(copy.deepcopy(data))).to_json()
    assert first == second


def test_reordered_input_gives_the_same_partition():
    data = synthetic_graph(files=200, seed=5)
    shuffled = copy.deepcopy(data)
    shuffled["nodes"].reverse()
    shuffled["links"].reverse()
    assert (
        detect_communities(from_node_link(data)).membership()
        == detect_communities(from_node_link(shuffled)).membership()
    )


def test_seeded_rerun_moves_nothing_and_a_one_file_edit_moves_few(tmp_path):
    data = synthetic_graph(files=400, seed=9)
    cold = detect_communities(from_node_link(data))
    path = write_communities(cold, tmp_path / "communities.json")
    rerun = detect_communities(from_node_link(data), read_previous(path))
    assert rerun.seeded and rerun.moved == 0
    assert rerun.membership() == cold.membership()

    edited = copy.deepcopy(data)
    file_id = next(n["id"] for n in edited["nodes"] if n["kind"] == "file")
    edited["links"] = [e for e in edited["links"] if not (e["file"] == file_id and e["relation"] == "calls")]
    edited["nodes"].append({"id": f"{file_id}::fresh", "kind": "function", "name": "fresh", "file": file_id, "line": 9})
    edited["links"].append(
        {"source": file_id, "target": f"{file_id}::fresh", "relation": "contains", "confidence": "EXTRACTED"}
    )
    after = detect_communities(from_node_link(edited), read_previous(path))
    assert after.moved is not None and after.moved <= 0.01 * len(data["nodes"])
    assert after.membership()[f"{file_id}::fresh"] == after.membership()[file_id]


def test_unconnected_files_share_one_bucket_and_labels_are_readable():
    data = small_graph()
    data["nodes"].append({"id": "lonely", "kind": "function", "name": "lonely", "file": "x/y.py", "line": 1})
    partition = detect_communities(from_node_link(data))
    buckets = [c for c in partition.communities if c.isolated]
    # communities are made of whole files: a file linked to no other file goes to the bucket with its symbols
    assert len(buckets) == 1
    assert buckets[0].members == ["lonely", "src/app/unused.py", "src/app/unused.py::forgotten"]
    routing = next(c for c in partition.communities if "src/app/routing.py::url_for" in c.members)
    assert routing.label.startswith("src/app · ")
    assert all(0.0 <= c.cohesion <= 1.0 for c in partition.communities)


def test_report_sections_on_the_small_project():
    graph = from_node_link(small_graph())
    text = render_report(graph, detect_communities(graph))
    for heading in (
        "## Summary",
        "## God nodes",
        "## Communities",
        "## Surprising connections",
        "## Import cycles",
        "## Isolated and dead-looking code",
        "## Suggested questions",
    ):
        assert heading in text
    assert "**6** files, **16** nodes, **20** edges" in text
    assert "Python (5 files), Markdown (1 files)" in text
    assert "`src/app/helpers.py` → `src/app/routing.py` → `src/app/helpers.py`" in text
    assert "function `forgotten` at `src/app/unused.py:1`" in text
    assert f"`{HOSTILE}`" in text  # code text stays inside code spans
    questions = text.split("## Suggested questions")[1].strip().splitlines()
    assert 4 <= len(questions) <= 6 and all("`skillbox graph " in q for q in questions)


def test_surprising_connections_need_evidence_and_skip_tests():
    data = small_graph()
    data["nodes"] += [
        {"id": "lib/x.py::far", "kind": "function", "name": "far", "file": "lib/x.py", "line": 4},
        {"id": "tests/t.py::test_far", "kind": "function", "name": "test_far", "file": "tests/t.py", "line": 1},
    ]
    data["links"] += [
        {"source": "src/app/routing.py::route", "target": "lib/x.py::far", "relation": "calls",
         "confidence": "EXTRACTED", "file": "src/app/routing.py", "line": 2},
        {"source": "src/app/helpers.py::redirect", "target": "lib/x.py::far", "relation": "calls",
         "confidence": "INFERRED", "score": 0.5, "file": "src/app/helpers.py", "line": 3},
        {"source": "tests/t.py::test_far", "target": "lib/x.py::far", "relation": "calls",
         "confidence": "EXTRACTED", "file": "tests/t.py", "line": 2},
    ]  # fmt: skip
    graph = from_node_link(data)
    found = ReportData(graph, detect_communities(graph)).surprising()
    sources = [f["edge"].source for f in found]
    assert "src/app/routing.py::route" in sources
    assert "src/app/helpers.py::redirect" not in sources  # low-score INFERRED
    assert "tests/t.py::test_far" not in sources
    top = found[0]
    assert top["score"] >= 3 and "different top-level directory" in top["reasons"]


def test_report_command_writes_outputs_and_reseeds(project):
    from click.testing import CliRunner

    from skillbox.cli.root import cli

    first = CliRunner().invoke(cli, ["graph", "report", "--graph", str(project), "--json"])
    assert first.exit_code == 0, first.output
    summary = __import__("json").loads(first.stdout)
    assert summary["moved"] is None
    out = project.parent
    assert (out / "GRAPH_REPORT.md").read_text().startswith("# ")
    assert (out / "graph.html").stat().st_size > 10_000
    assert (out / "communities.json").is_file()
    second = CliRunner().invoke(cli, ["graph", "report", "--graph", str(project)])
    assert second.exit_code == 0
    assert "0 nodes changed community" in second.stdout
