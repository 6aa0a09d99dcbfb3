"""The use side on graphs the real engine builds: `skillbox graph build` writes the report, viewer, communities
and query index, keeps them across incremental builds, and the queries answer from them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from skillbox.cli.root import cli
from skillbox.graph.build import build_graph

SAMPLE = Path(__file__).resolve().parents[3] / "tools" / "skillbox" / "samples" / "graph" / "shop"


def _project(tmp_path) -> Path:
    project = tmp_path / "shop"
    shutil.copytree(SAMPLE, project)
    return project


def test_build_writes_report_viewer_communities_and_index(tmp_path):
    project = _project(tmp_path)
    result = CliRunner().invoke(cli, ["graph", "build", str(project), "--json"])
    assert result.exit_code == 0, result.output
    seconds = json.loads(result.stdout)["seconds"]
    assert {"communities", "report", "html", "index"} <= set(seconds)
    out = project / "skillbox-out"
    report = (out / "GRAPH_REPORT.md").read_text()
    assert report.startswith("# shop code graph")
    assert "## Suggested questions" in report and "`skillbox graph explain " in report
    assert "with_tax" in (out / "graph.html").read_text()
    communities = json.loads((out / "communities.json").read_text())
    members = {m for c in communities["communities"] for m in c["members"]}
    graph = json.loads((out / "graph.json").read_text())
    assert members == {n["id"] for n in graph["nodes"]}

    answer = CliRunner().invoke(cli, ["graph", "explain", "with_tax", "--json", "--graph", str(out / "graph.json")])
    assert answer.exit_code == 0, answer.output
    data = json.loads(answer.stdout)
    assert data["community"] is not None
    assert "WHY: tax is applied once" in " ".join(data["notes"])


def test_incremental_build_keeps_communities_and_refreshes_answers(tmp_path):
    project = _project(tmp_path)
    build_graph(project)
    out = project / "skillbox-out"
    pricing = project / "shop" / "pricing.py"
    pricing.write_text(pricing.read_text() + "\n\ndef discount(amount):\n    return with_tax(amount) * 0.9\n")
    second = build_graph(project)
    moved = json.loads((out / "communities.json").read_text())["moved"]
    assert moved is not None and moved <= 2
    affected = CliRunner().invoke(cli, ["graph", "affected", "with_tax", "--json", "--graph", str(second.graph_path)])
    names = {p["name"] for peers in json.loads(affected.stdout)["files"].values() for p in peers}
    assert "discount" in names


def test_up_to_date_build_restores_deleted_outputs(tmp_path):
    project = _project(tmp_path)
    build_graph(project)
    out = project / "skillbox-out"
    (out / "graph.html").unlink()
    again = build_graph(project)
    assert again.summary["up_to_date"]
    assert (out / "graph.html").is_file()


def _outputs(out: Path) -> dict[str, bytes]:
    names = ("communities.json", "GRAPH_REPORT.md", "graph.html")
    return {name: (out / name).read_bytes() for name in names}


def test_outputs_from_the_in_memory_graph_equal_outputs_from_graph_json(flask_tree, tmp_path):
    """build hands its in-memory graph to the use side (fresh blocks as built, reused ones parsed back): the
    outputs must be exactly what the same graph read from graph.json gives."""
    from skillbox.graph.code_graph import load_graph
    from skillbox.graph.outputs import write_for_build

    root = tmp_path / "flask"
    shutil.copytree(flask_tree, root)
    out = root / "skillbox-out"
    for edit in (None, "body", "new function"):
        if edit == "body":
            helpers = root / "src" / "flask" / "helpers.py"
            helpers.write_text(helpers.read_text().replace("def url_for(", "# one line down\ndef url_for(", 1))
        elif edit == "new function":
            app = root / "src" / "flask" / "app.py"
            app.write_text(app.read_text() + "\n\ndef brand_new():\n    return url_for('x')\n")
        # The same previous state (communities.json seeds the partition) beside a copy of the new graph.json.
        replay = tmp_path / f"replay-{edit}"
        if out.exists():
            shutil.copytree(out, replay)
        else:
            replay.mkdir()
        result = build_graph(root)
        assert result.summary["changed_files"] != 0
        shutil.copy2(result.graph_path, replay / "graph.json")
        write_for_build(load_graph(replay / "graph.json"), replay / "graph.json", root)
        assert _outputs(replay) == _outputs(out), edit


def test_edit_that_leaves_the_graph_unchanged_keeps_graph_and_outputs(tmp_path):
    project = _project(tmp_path)
    first = build_graph(project)
    assert first.summary["changed_files"] is None  # cold: nothing to compare with
    out = project / "skillbox-out"
    stamps = {p.name: p.stat().st_mtime_ns for p in out.iterdir() if p.is_file()}
    pricing = project / "shop" / "pricing.py"
    pricing.write_text(pricing.read_text() + "\n# a comment at the end changes no node, edge or line\n")
    second = build_graph(project)
    assert second.summary["cache"]["misses"] == 1 and second.summary["changed_files"] == 0
    assert not {"write", "communities", "report", "html", "index"} & set(second.summary["seconds"])
    assert {p.name: p.stat().st_mtime_ns for p in out.iterdir() if p.is_file()} == stamps
    assert second.summary["nodes"] == first.summary["nodes"]

    # The next real edit is compared against the same graph.json and rewrites it and its outputs.
    pricing.write_text(pricing.read_text() + "\ndef discount(amount):\n    return with_tax(amount) * 0.9\n")
    third = build_graph(project)
    assert third.summary["changed_files"] == 1
    assert (out / "graph.json").stat().st_mtime_ns != stamps["graph.json"]
    explain = CliRunner().invoke(cli, ["graph", "explain", "discount", "--json", "--graph", str(out / "graph.json")])
    assert explain.exit_code == 0, explain.output
    cold = tmp_path / "cold"
    build_graph(project, cold)
    assert (cold / "graph.json").read_bytes() == (out / "graph.json").read_bytes()


def _index_dump(graph_path: Path) -> list[str]:
    import sqlite3

    from skillbox.graph.index import index_path_for

    db = sqlite3.connect(index_path_for(graph_path))
    try:
        return [line for line in db.iterdump() if "'stamp'" not in line and "'communities'" not in line]
    finally:
        db.close()


def test_index_written_by_a_forked_child_equals_the_one_written_in_process(flask_tree, tmp_path, monkeypatch):
    import skillbox.graph.outputs as outputs
    from skillbox.graph.code_graph import load_graph

    out = tmp_path / "out"
    result = build_graph(flask_tree, out)
    graph_path = result.graph_path
    monkeypatch.setenv("SKILLBOX_NO_FORK", "1")
    outputs.write_use_outputs(load_graph(graph_path), graph_path)
    in_process = _index_dump(graph_path)
    monkeypatch.delenv("SKILLBOX_NO_FORK")
    monkeypatch.setattr(outputs, "FORK_MIN_NODES", 0)
    written = outputs.write_use_outputs(load_graph(graph_path), graph_path)
    assert written.index.is_file() and _index_dump(graph_path) == in_process
    answer = CliRunner().invoke(
        cli, ["graph", "explain", "src/flask/helpers.py::url_for", "--json", "--graph", str(graph_path)]
    )
    assert answer.exit_code == 0, answer.output


def test_cold_build_whose_index_writer_starts_before_graph_json_writes_the_same_index(
    flask_tree, tmp_path, monkeypatch
):
    """A cold build forks the index writer before graph.json and communities.json exist; it waits for them and
    fills in the communities last. Its index must equal one written in process, communities included."""
    import skillbox.graph.outputs as outputs

    monkeypatch.setenv("SKILLBOX_NO_FORK", "1")
    in_process = _index_dump(build_graph(flask_tree, tmp_path / "a").graph_path)
    monkeypatch.delenv("SKILLBOX_NO_FORK")
    monkeypatch.setattr(outputs, "FORK_MIN_NODES", 0)
    forked = build_graph(flask_tree, tmp_path / "b")
    assert _index_dump(forked.graph_path) == in_process
    assert any('INSERT INTO "nodes"' in line and not line.endswith(",NULL);") for line in in_process)


def test_a_build_that_fails_writing_graph_json_stops_its_early_index_writer(flask_tree, tmp_path, monkeypatch):
    """The early index writer never outlives a failed build, and writes nothing for a graph.json that isn't."""
    import os

    import skillbox.graph.graph_json as graph_json
    import skillbox.graph.outputs as outputs
    from skillbox.graph.index import index_path_for

    def disk_full(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(outputs, "FORK_MIN_NODES", 0)
    monkeypatch.setattr(graph_json, "write_chunks", disk_full)
    out = tmp_path / "out"
    with pytest.raises(OSError, match="No space left"):
        build_graph(flask_tree, out)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # the child was reaped: no process left behind
    assert not (out / "graph.json").exists()
    assert not index_path_for(out / "graph.json").exists()
    assert not [p.name for p in (out / "cache").glob(".query-index-*")]


def test_build_updates_the_index_in_place_and_it_answers_like_a_fresh_one(flask_tree, tmp_path, monkeypatch):
    """The whole path a user runs: build, edit, build again (the index is updated from the changed blocks, here
    with the viewer written by a forked child), and every answer equals a freshly written index's."""
    import sqlite3

    from test_index_update import answers, edit_flask

    import skillbox.graph.outputs as outputs
    from skillbox.graph.code_graph import load_graph
    from skillbox.graph.index import index_path_for
    from skillbox.graph.index_writer import write_index

    monkeypatch.setattr(outputs, "FORK_MIN_NODES", 0)
    root = tmp_path / "flask"
    shutil.copytree(flask_tree, root)
    first = build_graph(root)
    index_file = index_path_for(first.graph_path)
    before = dict(sqlite3.connect(index_file).execute("SELECT id, rid FROM nodes"))
    edit_flask(root)
    second = build_graph(root)
    assert 0 < second.summary["changed_files"] < second.summary["files"] / 3
    after = dict(sqlite3.connect(index_file).execute("SELECT id, rid FROM nodes"))
    assert all(after[n] == before[n] for n in after if n in before)  # updated in place, not rewritten
    assert "has_any_context" in (root / "skillbox-out" / "graph.html").read_text()  # the child's viewer landed

    graph = load_graph(second.graph_path)
    fresh = write_index(graph, second.graph_path, tmp_path / "fresh.sqlite")
    expected = answers(fresh, second.graph_path, graph)
    got = answers(index_file, second.graph_path, graph)
    assert [k for k in expected if got.get(k) != expected[k]] == []
