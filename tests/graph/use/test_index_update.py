"""`update_index`: the query index brought up to date in place after a rebuild answers exactly like a fresh one.

The project is the real Flask sdist: built once, then edited the ways people edit code (a body edit that shifts
lines, an added function, a deleted function, a deleted file, a new file), rebuilt, and the old index updated
with the files whose nodes or edges changed. Every answer — query, path, explain, affected, community, stats,
god nodes — must equal the answer of an index written from scratch for the new graph.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections import defaultdict
from pathlib import Path

import pytest
from graph_use_data import small_graph

from skillbox.errors import SkillboxError
from skillbox.graph import query as q
from skillbox.graph.build import build_graph
from skillbox.graph.code_graph import CodeGraph, load_graph
from skillbox.graph.index import GraphIndex, index_path_for
from skillbox.graph.index_writer import update_index, write_index
from skillbox.graph.server import LiveGraph

QUESTIONS = [
    "how does a request get dispatched to a view function",
    "url_for build external url",
    "has any context",
    "template loading attempts",
    "session cookie signing",
    "extras helper",
]


def file_blocks(graph: CodeGraph) -> dict[str, tuple]:
    """A graph's nodes and edges grouped by the file they belong to ("" for nodes outside the tree)."""
    nodes: dict[str, list] = defaultdict(list)
    edges: dict[str, list] = defaultdict(list)
    for node_id, data in graph.nodes.items():
        nodes[data.get("file") or ""].append(repr((node_id, sorted(data.items()))))
    for edge in graph.edges:
        edges[edge.file or ""].append(repr(edge))
    return {f: (sorted(nodes.get(f, [])), sorted(edges.get(f, []))) for f in nodes.keys() | edges.keys()}


def changed_files(old: CodeGraph, new: CodeGraph) -> set[str]:
    before, after = file_blocks(old), file_blocks(new)
    return {f for f in before.keys() | after.keys() if before.get(f) != after.get(f)}


def edit_flask(root: Path) -> None:
    src = root / "src" / "flask"
    helpers = src / "helpers.py"  # body edit: a new call and two more lines, shifting everything below
    text = helpers.read_text()
    anchor = "def make_response(*args: t.Any) -> Response:\n"
    assert anchor in text
    helpers.write_text(text.replace(anchor, anchor + "    if not args:\n        abort(500)\n", 1))
    ctx = src / "ctx.py"  # an added function
    ctx.write_text(
        ctx.read_text() + "\n\ndef has_any_context() -> bool:\n    return has_app_context() or has_request_context()\n"
    )
    debug = src / "debughelpers.py"  # a deleted function (its caller's call now goes nowhere)
    text = debug.read_text()
    start = text.index("def _dump_loader_info(")
    end = text.index("def explain_template_loading_attempts(")
    debug.write_text(text[:start] + text[end:])
    (src / "logging.py").unlink()  # a deleted file
    (src / "extras.py").write_text(  # a new file
        '"""Extras: helpers built on the others."""\n\n'
        "from .ctx import has_any_context\nfrom .helpers import url_for\n\n\n"
        "def extras_helper(endpoint):\n"
        '    """Build a url when there is a context."""\n'
        "    if has_any_context():\n        return url_for(endpoint)\n    return None\n"
    )


def answers(index_file: Path, graph_path: Path, graph: CodeGraph) -> dict:
    index = GraphIndex(graph_path, sqlite3.connect(index_file))
    out: dict = {}

    def ask(key, fn, *args):
        try:
            out[key] = fn(*args)
        except SkillboxError as err:
            out[key] = f"{type(err).__name__}: {err}"

    ids = sorted(graph.nodes)
    for node_id in ids:
        ask(("explain", node_id), q.explain, index, node_id)
        ask(("affected", node_id), q.affected, index, node_id, 3)
    symbols = [n for n in ids if graph.nodes[n].get("kind") in ("function", "method", "class")]
    for i, source in enumerate(symbols[::7]):
        target = symbols[(i * 131 + 17) % len(symbols)]
        ask(("path", source, target), q.path, index, source, target)
    for question in QUESTIONS:
        ask(("query", question), q.query, index, question)
        ask(("query-small", question), q.query, index, question, 120)
    for name in ("url_for", "has_any_context", "extras_helper", "_dump_loader_info", "Flask", "make_response"):
        ask(("resolve", name), q.explain, index, name)
    for community in index.communities():
        ask(("community", community["id"]), q.community, index, community["id"], 1000)
    ask("communities", index.communities)
    ask("stats", lambda: {k: v for k, v in q.stats(index).items() if k != "graph"})
    ask("gods", q.god_nodes, index, 40)
    ask("p99", lambda: index.degree_percentile(0.99))
    index.close()
    return out


@pytest.fixture(scope="module")
def rebuilt(flask_tree, tmp_path_factory):
    """(old graph, old index copy, new graph, graph.json path) around one edit-and-rebuild of Flask."""
    root = tmp_path_factory.mktemp("edited") / "flask"
    shutil.copytree(flask_tree, root)
    out = root / "skillbox-out"
    build_graph(root, out)
    graph_path = out / "graph.json"
    old_graph = load_graph(graph_path)
    old_index = out.parent / "old-index.sqlite"
    shutil.copy(index_path_for(graph_path), old_index)
    edit_flask(root)
    build_graph(root, out)
    return old_graph, old_index, load_graph(graph_path), graph_path


def test_updated_index_answers_exactly_like_a_fresh_one(rebuilt, tmp_path):
    old_graph, old_index, new_graph, graph_path = rebuilt
    changed = changed_files(old_graph, new_graph)
    assert {"src/flask/helpers.py", "src/flask/ctx.py", "src/flask/debughelpers.py"} <= changed
    assert {"src/flask/logging.py", "src/flask/extras.py"} <= changed
    assert len(changed) < len(file_blocks(new_graph)) / 3  # the point: most of the project is untouched

    updated = tmp_path / "updated.sqlite"
    shutil.copy(old_index, updated)
    assert update_index(new_graph, graph_path, changed, updated) == updated
    fresh = write_index(new_graph, graph_path, tmp_path / "fresh.sqlite")

    # updated in place, not rewritten: nodes that persist kept their row ids, new ones came after the old ones
    before = dict(sqlite3.connect(old_index).execute("SELECT id, rid FROM nodes"))
    after = dict(sqlite3.connect(updated).execute("SELECT id, rid FROM nodes"))
    assert set(after) == set(new_graph.nodes)
    assert all(after[n] == before[n] for n in after if n in before)
    assert min(after[n] for n in after if n not in before) > max(before.values())
    assert "src/flask/debughelpers.py::_dump_loader_info" in before
    assert "src/flask/debughelpers.py::_dump_loader_info" not in after

    assert updated.stat().st_size <= fresh.stat().st_size * 1.5
    expected = answers(fresh, graph_path, new_graph)
    got = answers(updated, graph_path, new_graph)
    assert got.keys() == expected.keys()
    differing = [k for k in expected if got[k] != expected[k]]
    assert not differing, differing[:5]
    assert len(expected) > 1000
    # and the answers do show the edits
    assert "extras_helper" in expected[("explain", "src/flask/extras.py")]["text"]
    helper = expected[("explain", "src/flask/extras.py::extras_helper")]
    assert helper["docstring"] and "doc: Build a url when there is a context." in helper["text"]
    assert "has_any_context" in expected[("resolve", "has_any_context")]["text"]
    assert expected[("resolve", "_dump_loader_info")].startswith("NoMatchError")


def test_missing_or_foreign_index_falls_back_to_a_fresh_write(rebuilt, tmp_path):
    old_graph, old_index, new_graph, graph_path = rebuilt
    changed = changed_files(old_graph, new_graph)
    fresh = write_index(new_graph, graph_path, tmp_path / "fresh.sqlite")
    expected = answers(fresh, graph_path, new_graph)

    missing = tmp_path / "missing" / "index.sqlite"
    assert update_index(new_graph, graph_path, changed, missing) == missing
    assert answers(missing, graph_path, new_graph) == expected

    # an index of the new graph told that only one file changed since: the counts don't fit, rebuilt
    foreign = tmp_path / "foreign.sqlite"
    write_index(old_graph, graph_path, foreign)
    update_index(new_graph, graph_path, {"src/flask/helpers.py"}, foreign)
    assert answers(foreign, graph_path, new_graph) == expected

    # an index of another version is rebuilt, not patched
    other = tmp_path / "other.sqlite"
    shutil.copy(old_index, other)
    with sqlite3.connect(other) as db:
        db.execute("UPDATE meta SET value = '1:' || value WHERE key = 'stamp'")
    update_index(new_graph, graph_path, changed, other)
    assert answers(other, graph_path, new_graph) == expected


def test_a_warm_server_notices_an_index_updated_in_place(project):
    """The MCP server keeps node rows and adjacency between calls; an in-place update must not leave it
    answering from those."""
    live = LiveGraph(project)
    first = live.index()
    before = q.explain(first, "src/app/routing.py::route")["text"]
    assert "redirect" not in before

    data = small_graph()
    data["links"].append(
        {
            "source": "src/app/helpers.py::redirect",
            "target": "src/app/routing.py::route",
            "relation": "calls",
            "confidence": "EXTRACTED",
            "file": "src/app/helpers.py",
            "line": 3,
        }
    )
    project.write_text(json.dumps(data))
    stat = project.stat()
    os.utime(project, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    old_rows = dict(sqlite3.connect(index_path_for(project)).execute("SELECT id, rid FROM nodes"))
    update_index(load_graph(project), project, {"src/app/helpers.py"})
    assert dict(sqlite3.connect(index_path_for(project)).execute("SELECT id, rid FROM nodes")) == old_rows

    current = live.index()
    assert current is not first
    after = q.explain(current, "src/app/routing.py::route")["text"]
    assert "called_by (" in after and "redirect" in after


def _rows(index_file: Path) -> dict[str, int]:
    return dict(sqlite3.connect(index_file).execute("SELECT id, rid FROM nodes"))


def test_new_external_modules_are_the_file_nobody_owns(project, tmp_path):
    """Nodes outside the tree (external modules) count as the file "": a caller that says "" changed gets an
    in-place update; one that forgets gets a fresh index, never a wrong one."""
    write_index(load_graph(project), project)
    before = _rows(index_path_for(project))
    data = small_graph()
    data["nodes"].append({"id": "external:python:requests", "kind": "external", "name": "requests"})
    data["links"].append(
        {
            "source": "src/app/helpers.py",
            "target": "external:python:requests",
            "relation": "imports",
            "confidence": "EXTRACTED",
            "file": "src/app/helpers.py",
            "line": 1,
        }
    )
    project.write_text(json.dumps(data))
    graph = load_graph(project)
    fresh = write_index(graph, project, tmp_path / "fresh.sqlite")

    told = tmp_path / "told.sqlite"
    shutil.copy(index_path_for(project), told)
    update_index(graph, project, {"src/app/helpers.py", ""}, told)
    assert _rows(told) == {**before, "external:python:requests": max(before.values()) + 1}

    forgot = tmp_path / "forgot.sqlite"
    shutil.copy(index_path_for(project), forgot)
    update_index(graph, project, {"src/app/helpers.py"}, forgot)
    assert _rows(forgot) == _rows(fresh)  # rewritten from scratch

    for index_file in (told, forgot):
        assert answers(index_file, project, graph) == answers(fresh, project, graph)
    explained = answers(told, project, graph)[("explain", "external:python:requests")]
    assert "imported_by (1): [EXTRACTED] helpers.py (src/app/helpers.py:1)" in explained["text"]
