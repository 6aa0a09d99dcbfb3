"""Resolution split between this process and a forked child writes the bytes the serial resolution writes.

The fixture trees are far below the size at which a build splits (`link_split.SPLIT_MIN_REFS`), so the tests lower
it to zero: every build of every scenario (cold, incremental, forced) then resolves part of its files in a child,
and the outputs must still hash to the recorded digests of tests/fixtures/graph_bytes.json.
"""

from __future__ import annotations

import shutil

from skillbox.graph import link_split
from skillbox.graph.build import build_graph
from tests.graph.build_snapshot import digests, run_scenarios
from tests.graph.test_build_bytes import CORPORA, FIXTURES, _recorded


def _polyglot(tmp_path):
    tree = tmp_path / "polyglot"
    for lang in CORPORA:
        shutil.copytree(FIXTURES / lang, tree / lang)
    return tree


def test_a_split_resolution_writes_the_recorded_bytes(tmp_path, monkeypatch):
    forks = []
    real_fork = link_split.fork_task

    def counted(task):
        pid = real_fork(task)
        forks.append(pid)
        return pid

    monkeypatch.setattr(link_split, "SPLIT_MIN_REFS", 0)
    monkeypatch.setattr(link_split, "fork_task", counted)
    got = digests(run_scenarios(_polyglot(tmp_path), tmp_path / "work", jobs=None))
    want = _recorded()["polyglot"]
    assert forks and all(pid is not None for pid in forks), "no build resolved part of its files in a child"
    assert {k: v for k, v in got.items() if want.get(k) != v} == {}


def test_without_fork_the_parent_resolves_every_file(tmp_path, monkeypatch):
    monkeypatch.setattr(link_split, "SPLIT_MIN_REFS", 0)
    monkeypatch.setenv("SKILLBOX_NO_FORK", "1")
    got = digests(run_scenarios(_polyglot(tmp_path), tmp_path / "work", jobs=None))
    assert got["cold/graph.json"] == _recorded()["polyglot"]["cold/graph.json"]


def test_a_failed_child_leaves_its_files_to_the_parent(tmp_path, monkeypatch):
    """A child that dies before writing its blocks (here: its first file's block cannot be rendered in the child)
    exits non-zero; the parent resolves the child's files itself and the graph is complete."""
    import os

    parent = os.getpid()
    real_rendered = link_split._rendered

    def failing_in_child(resolver, paths):
        if os.getpid() != parent:
            raise RuntimeError("the child's block rendering failed")
        return real_rendered(resolver, paths)

    monkeypatch.setattr(link_split, "SPLIT_MIN_REFS", 0)
    monkeypatch.setattr(link_split, "_rendered", failing_in_child)
    tree = _polyglot(tmp_path)
    serial = build_graph(tree, tmp_path / "serial", jobs=1).graph_path.read_bytes()
    split = build_graph(tree, tmp_path / "split").graph_path.read_bytes()
    assert split == serial
