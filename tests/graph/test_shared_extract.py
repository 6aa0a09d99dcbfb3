"""Extraction shared by the build process and forked children: every file once, in batch order, whoever did it.

Real forks, real tree-sitter: the parent is slowed on its first batch so the child surely takes some.
"""

from __future__ import annotations

import os
import time

from skillbox.graph import shared_extract
from skillbox.graph.build import _batches
from skillbox.graph.worker import extract_batch


def _tree(project, count=120):
    files = {
        f"pkg/m{i:03}.py": f'"""Module {i}."""\n\nfrom pkg.m{(i + 1) % count:03} import f{(i + 1) % count}\n\n'
        f"def f{i}(x):\n    return f{(i + 1) % count}(x) + {'1' * (i % 7 + 1)}\n"
        for i in range(count)
    }
    files["pkg/broken.py"] = "def broken(:\n    pass\n"
    root = project(files)
    todo = sorted((rel, "python") for rel in files)
    sizes = {rel: len(text) for rel, text in files.items()}
    return str(root), _batches(todo, sizes)


def _slow_parent_first_batch(monkeypatch, tmp_path, fail_in_child=False):
    """The parent sleeps on its first batch, so the child surely takes some; every process that extracts a batch
    writes its pid to a file (a forked child's lists are its own)."""
    parent = os.getpid()
    real = shared_extract.extract_batch
    slowed = []
    pids = tmp_path / "pids"

    def batch(root, known, files):
        if os.getpid() == parent:
            if not slowed:
                slowed.append(1)
                time.sleep(0.3)  # the child takes batches meanwhile
        elif fail_in_child:
            raise RuntimeError("a child that dies")
        with open(pids, "a") as handle:
            handle.write(f"{os.getpid()}\n")
        return real(root, known, files)

    monkeypatch.setattr(shared_extract, "extract_batch", batch)
    return lambda: set(pids.read_text().split()) if pids.exists() else set()


def _expected(root, batches):
    return [item for batch in batches for item in extract_batch(root, frozenset(), batch)]


def test_every_file_once_in_batch_order_by_both_processes(project, monkeypatch, tmp_path):
    root, batches = _tree(project)
    assert len(batches) > 3
    workers = _slow_parent_first_batch(monkeypatch, tmp_path)
    reports, ran = [], []
    out = shared_extract.extract_shared(
        root, frozenset(), batches, 2, lambda *a: reports.append(a[1:]), meanwhile=lambda: ran.append(1)
    )
    assert out == _expected(root, batches)
    assert len(workers()) == 2, "the work was not shared"
    assert ran == [1]
    assert reports[-1] == (len(out), len(out))


def test_the_parents_own_results_are_handed_over_before_it_waits_for_the_child(project, monkeypatch, tmp_path):
    """`own_done` gets exactly the batches this process extracted, while the child may still run (the build
    unseals them then); the returned results are the same objects, in batch order."""
    root, batches = _tree(project)
    _slow_parent_first_batch(monkeypatch, tmp_path)
    real_joined = shared_extract.joined
    events, handed = [], {}

    def own_done(done):
        events.append("own done")
        handed.update(done)

    def joined(pid):
        events.append("join")
        return real_joined(pid)

    monkeypatch.setattr(shared_extract, "joined", joined)
    out = shared_extract.extract_shared(root, frozenset(), batches, 2, lambda *a: None, own_done=own_done)
    assert out == _expected(root, batches)
    assert events == ["own done", "join"]
    assert 0 < len(handed) < len(batches)  # the slowed parent took some batches, the child the others
    in_out = {id(blob) for _rel, _key, blob in out}
    assert all(id(blob) in in_out for results in handed.values() for _rel, _key, blob in results)


def test_a_failed_child_leaves_its_batches_to_the_parent(project, monkeypatch, tmp_path):
    root, batches = _tree(project)
    workers = _slow_parent_first_batch(monkeypatch, tmp_path, fail_in_child=True)
    out = shared_extract.extract_shared(root, frozenset(), batches, 2, lambda *a: None)
    assert out == _expected(root, batches)
    assert workers() == {str(os.getpid())}  # the parent did all of them


def test_without_fork_the_caller_is_told_to_use_its_pool(project, monkeypatch):
    root, batches = _tree(project)
    monkeypatch.setenv("SKILLBOX_NO_FORK", "1")
    assert shared_extract.extract_shared(root, frozenset(), batches, 2, lambda *a: None) is None
    monkeypatch.delenv("SKILLBOX_NO_FORK")
    assert shared_extract.extract_shared(root, frozenset(), batches, 1, lambda *a: None) is None


def test_no_temporary_folder_means_no_child_and_no_failure(project, monkeypatch, tmp_path):
    import tempfile

    root, batches = _tree(project)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "missing"))
    assert shared_extract.extract_shared(root, frozenset(), batches, 2, lambda *a: None) is None


def test_more_batches_than_the_pipe_holds_means_the_callers_pool(project):
    root, batches = _tree(project, count=2)
    many = [batches[0]] * 20_000  # 80,000 bytes of tokens: more than a 64 KiB pipe takes without a reader
    assert shared_extract.extract_shared(root, frozenset(), many, 2, lambda *a: None) is None


def test_a_small_language_is_one_batch_but_the_main_language_is_always_spread(project):
    _root, batches = _tree(project, count=60)  # 61 Python files: fewer than one batch's worth of a minor language
    assert len(batches) == 3 and {len(b) for b in batches} == {24, 13}
    todo = [(f"a{i}.py", "python") for i in range(200)] + [(f"b{i}.ts", "typescript") for i in range(50)]
    sizes = {rel: 100 for rel, _lang in todo}
    by_lang = {}
    for batch in _batches(todo, sizes):
        by_lang.setdefault(batch[0][1], []).append(len(batch))
    assert by_lang["typescript"] == [50] and sorted(by_lang["python"]) == [8] + [24] * 8
