"""query / path / explain / affected, through the CLI a person or agent uses, on a real graph file and index."""

from __future__ import annotations

import json
import os
import time

import pytest
from click.testing import CliRunner

from skillbox.cli.root import cli
from skillbox.graph.index import GraphIndex, index_path_for
from skillbox.graph.query import affected, query
from skillbox.graph.tokens import count_tokens


def run(*args):
    return CliRunner().invoke(cli, ["graph", *args], catch_exceptions=False)


def test_query_finds_named_symbols_and_their_edges(project):
    result = run("query", "how does route build a url", "--graph", str(project))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("# graph answer for:")
    assert any("function route" in line for line in lines[1:3])
    assert "src/app/routing.py:2 function route —calls→ url_for [EXTRACTED]" in lines
    edge_lines = [line for line in lines[1:] if "→" in line]
    assert edge_lines and all(line.endswith(("[EXTRACTED]", "[INFERRED]", "[AMBIGUOUS]")) for line in edge_lines)


def test_query_json_reports_tokens_within_budget(project):
    result = run("query", "url_for redirect dispatch", "--budget", "60", "--json", "--graph", str(project))
    answer = json.loads(result.stdout)
    assert answer["tokens"] <= 60
    assert answer["tokens"] == count_tokens(
        "\n".join(["# graph answer for: url_for redirect dispatch", *answer["lines"]])
    )
    assert answer["omitted"] > 0
    assert answer["files"] and all(any(f in line for line in answer["lines"]) for f in answer["files"])
    edge_lines = [line for line in answer["lines"] if "→" in line]
    assert len(answer["edges"]) == len(edge_lines)  # every printed edge, with its confidence
    assert all(e["confidence"] in {"EXTRACTED", "INFERRED", "AMBIGUOUS"} for e in answer["edges"])


def test_query_budget_is_respected_exactly_on_a_large_graph(big_graph):
    index = GraphIndex.open(big_graph)
    for budget in (80, 300, 1500):
        answer = query(index, "cache request handler session", budget)
        assert 0.5 * budget < answer["tokens"] <= budget
        assert answer["tokens"] == count_tokens(answer["text"])


def test_budget_below_the_floor_is_a_usage_error(project):
    result = run("query", "route", "--budget", "10", "--graph", str(project))
    assert result.exit_code == 2


@pytest.mark.parametrize("question", ["", "   ", "the of and", "zzqxv wbbrr"])
def test_empty_or_nonsense_query_exits_4_with_suggestions(project, question):
    result = run("query", question, "--graph", str(project))
    assert result.exit_code == 4
    assert result.stderr.startswith("Error: no graph node matches")
    assert "did you mean:" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_path_prefers_calls_over_containment(project):
    result = run("path", "WebApp", "url_for", "--graph", str(project))
    assert result.exit_code == 3  # two url_for definitions: ambiguous
    result = run("path", "WebApp", "src/app/routing.py::url_for", "--json", "--graph", str(project))
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert [h["relation"] for h in answer["hops"]] == ["inherits", "contains", "calls", "calls"]
    assert answer["hops"][0]["file"] == "src/app/web.py" and answer["hops"][0]["line"] == 2


def test_path_between_unconnected_nodes_exits_1(project):
    result = run("path", "forgotten", "App", "--graph", str(project))
    assert result.exit_code == 1
    assert "no path" in result.stdout


def test_explain_shows_doc_callers_callees_and_location(project):
    result = run("explain", "src/app/routing.py::url_for", "--graph", str(project))
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert text.startswith("function url_for — src/app/routing.py:3")
    assert "doc: Build a URL for an endpoint." in text
    assert "called_by (2): [EXTRACTED] redirect (src/app/helpers.py:3), route (src/app/routing.py:2)" in text


def test_explain_json_names_the_community_once_clustered(project):
    (project.parent / "communities.json").write_text(
        json.dumps({"communities": [{"id": 0, "label": "app/routing", "size": 3, "members": ["src/app/routing.py"]}]})
    )
    answer = json.loads(run("explain", "routing.py", "--json", "--graph", str(project)).stdout)
    assert answer["community"]["label"] == "app/routing"
    assert answer["neighbours"]["imported_by"][0]["id"] in {"src/app/core.py", "src/app/helpers.py"}


def test_name_resolution_by_id_path_suffix_and_qualified_name(project):
    for text in ("src/app/web.py::WebApp.url_for", "web.py::url_for", "app/web.py::WebApp.url_for", "WebApp.url_for"):
        answer = json.loads(run("explain", text, "--json", "--graph", str(project)).stdout)
        assert answer["id"] == "src/app/web.py::WebApp.url_for", text


def test_ambiguous_name_exits_3_listing_candidates(project):
    result = run("explain", "url_for", "--graph", str(project))
    assert result.exit_code == 3
    assert "src/app/routing.py::url_for" in result.stderr
    assert "src/app/web.py::WebApp.url_for" in result.stderr
    assert "path::name" in result.stderr


def test_unknown_name_exits_4_with_close_names(project):
    result = run("explain", "redirct", "--graph", str(project))
    assert result.exit_code == 4
    assert "did you mean: redirect" in result.stderr


def test_affected_groups_dependants_by_file(project):
    result = run("affected", "src/app/routing.py::url_for", "--json", "--graph", str(project))
    answer = json.loads(result.stdout)
    assert set(answer["files"]) == {"src/app/routing.py", "src/app/helpers.py", "src/app/core.py"}
    depth = {p["name"]: p["depth"] for peers in answer["files"].values() for p in peers}
    assert depth["route"] == 1 and depth["redirect"] == 1 and depth["App.dispatch"] == 2
    shallow = json.loads(
        run("affected", "src/app/routing.py::url_for", "--depth", "1", "--json", "--graph", str(project)).stdout
    )
    assert "src/app/core.py" not in shallow["files"]


def test_affected_by_a_class_includes_users_of_its_methods(project):
    answer = json.loads(run("affected", "App", "--json", "--graph", str(project)).stdout)
    assert "src/app/web.py" in answer["files"]  # WebApp inherits App


def test_missing_graph_says_to_build(tmp_path):
    result = run("explain", "x", "--graph", str(tmp_path / "none.json"))
    assert result.exit_code == 1
    assert "run `skillbox graph build`" in result.stderr


def test_default_graph_location_is_cwd_skillbox_out(project, monkeypatch):
    monkeypatch.chdir(project.parent.parent)
    assert run("explain", "redirect").exit_code == 0


def test_stale_graph_warns_but_answers(project):
    source = project.parent.parent / "src/app/helpers.py"
    later = project.stat().st_mtime + 10
    os.utime(source, (later, later))
    result = run("explain", "redirect", "--graph", str(project))
    assert result.exit_code == 0
    assert "function redirect" in result.stdout
    assert result.stderr.startswith("warning:") and "src/app/helpers.py" in result.stderr


def test_index_is_rebuilt_when_graph_changes(project):
    run("explain", "redirect", "--graph", str(project))
    assert index_path_for(project).is_file()
    data = json.loads(project.read_text())
    data["nodes"].append({"id": "new::thing", "kind": "function", "name": "brand_new", "file": None, "line": None})
    time.sleep(0.01)
    project.write_text(json.dumps(data))
    assert run("explain", "brand_new", "--graph", str(project)).exit_code == 0


def test_corrupt_graph_is_a_one_line_error(tmp_path):
    bad = tmp_path / "graph.json"
    bad.write_text("{not json")
    result = run("explain", "x", "--graph", str(bad))
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: cannot read")


def test_affected_with_a_huge_depth_ends_at_the_graph_edge(project):
    """A depth far beyond the graph's levels stops once nothing new is reached (it used to spin forever)."""
    index = GraphIndex.open(project)
    started = time.monotonic()
    answer = affected(index, "src/app/routing.py::url_for", depth=10**20)
    assert time.monotonic() - started < 5
    assert answer["files"] == affected(index, "src/app/routing.py::url_for", depth=50)["files"]


@pytest.mark.parametrize("depth", ["99999999999999999999", "10001", "0"])
def test_affected_depth_out_of_range_is_a_usage_error(project, depth):
    result = run("affected", "src/app/routing.py::url_for", "--depth", depth, "--graph", str(project))
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "--depth" in result.stderr
