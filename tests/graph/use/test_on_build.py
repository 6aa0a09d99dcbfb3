"""The use side on graphs the real engine builds: `skillbox graph build` writes the report, viewer, communities
and query index, keeps them across incremental builds, and the queries answer from them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

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
