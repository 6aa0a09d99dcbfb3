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
    monkeypatch.setattr(link_split, "core_free", lambda: True)
    monkeypatch.setattr(link_split, "fork_task", counted)
    got = digests(run_scenarios(_polyglot(tmp_path), tmp_path / "work", jobs=None))
    want = _recorded()["polyglot"]
    assert forks and all(pid is not None for pid in forks), "no build resolved part of its files in a child"
    assert {k: v for k, v in got.items() if want.get(k) != v} == {}


def test_without_fork_the_parent_resolves_every_file(tmp_path, monkeypatch):
    monkeypatch.setattr(link_split, "SPLIT_MIN_REFS", 0)
    monkeypatch.setattr(link_split, "core_free", lambda: True)
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
    monkeypatch.setattr(link_split, "core_free", lambda: True)
    monkeypatch.setattr(link_split, "_rendered", failing_in_child)
    tree = _polyglot(tmp_path)
    serial = build_graph(tree, tmp_path / "serial", jobs=1).graph_path.read_bytes()
    split = build_graph(tree, tmp_path / "split").graph_path.read_bytes()
    assert split == serial


def test_no_child_when_no_core_is_free(tmp_path, monkeypatch):
    """On a loaded machine the child would only compete with the other processes: the parent resolves alone."""
    forks = []
    monkeypatch.setattr(link_split, "SPLIT_MIN_REFS", 0)
    monkeypatch.setattr(link_split, "core_free", lambda: False)
    monkeypatch.setattr(link_split, "fork_task", lambda task: forks.append(task))
    result = build_graph(_polyglot(tmp_path), tmp_path / "out")
    assert forks == []
    assert (
        result.graph_path.read_bytes()
        == build_graph(_polyglot(tmp_path / "b"), tmp_path / "serial", jobs=1).graph_path.read_bytes()
    )


def test_a_core_counts_as_free_only_when_no_other_task_is_runnable(monkeypatch, tmp_path):
    import builtins
    import os

    real_open = builtins.open
    state = {"loadavg": b"0.52 0.40 0.30 1/230 4242\n"}

    def fake_open(path, *args, **kwargs):
        if path == "/proc/loadavg":
            fake = tmp_path / "loadavg"
            fake.write_bytes(state["loadavg"])
            return real_open(fake, *args, **kwargs)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", fake_open)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert link_split.core_free()  # only this process runs: the second core is idle
    state["loadavg"] = b"2.10 1.90 1.50 3/230 4242\n"
    assert not link_split.core_free()  # two others are runnable
    state["loadavg"] = b"0.00 0.00 0.00 1/230 4242\n"
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert not link_split.core_free()  # one core: nothing to share


def test_without_a_writable_temporary_folder_the_parent_resolves_every_file(tmp_path, monkeypatch):
    """The child hands its blocks back through a temporary file; where none can be made the build still works."""

    def no_space(*args, **kwargs):
        raise OSError(28, "No space left on device")

    forks = []
    monkeypatch.setattr(link_split, "SPLIT_MIN_REFS", 0)
    monkeypatch.setattr(link_split, "core_free", lambda: True)
    monkeypatch.setattr(link_split.tempfile, "TemporaryFile", no_space)
    monkeypatch.setattr(link_split, "fork_task", lambda task: forks.append(task))
    tree = _polyglot(tmp_path)
    split = build_graph(tree, tmp_path / "split").graph_path.read_bytes()
    assert forks == []
    assert split == build_graph(tree, tmp_path / "serial", jobs=1).graph_path.read_bytes()


def test_a_failure_in_the_parents_part_reaps_the_child(tmp_path, monkeypatch):
    import os

    import pytest

    pids = []
    real_fork = link_split.fork_task

    def counted(task):
        pid = real_fork(task)
        pids.append(pid)
        return pid

    def failing(resolver, paths):
        raise RuntimeError("the parent's block rendering failed")

    monkeypatch.setattr(link_split, "SPLIT_MIN_REFS", 0)
    monkeypatch.setattr(link_split, "core_free", lambda: True)
    monkeypatch.setattr(link_split, "fork_task", counted)
    monkeypatch.setattr(link_split, "_rendered", failing)
    with pytest.raises(RuntimeError):
        build_graph(_polyglot(tmp_path), tmp_path / "out")
    assert pids and pids[0] is not None
    with pytest.raises(ChildProcessError):  # already waited for: no zombie
        os.waitpid(pids[0], os.WNOHANG)
