"""`cold_walk.walk_beside`: a cold build's walk in a forked child, the build process warming what it names."""

from __future__ import annotations

import os
import time

import pytest

from skillbox.graph import cold_walk
from skillbox.graph.walk import WalkResult, walk_tree
from tests.graph.conftest import write_tree


def test_the_walk_beside_is_the_walk(tmp_path):
    write_tree(
        tmp_path,
        {
            ".gitignore": "ignored/\n*.log\n",
            "a.py": "def f():\n    pass\n",
            "pkg/b.py": "import a\n",
            "ignored/c.py": "x = 1\n",
            "vendor/d.py": "y = 2\n",
            "web/e.ts": "export const e = 1\n",
        },
    )
    out = tmp_path / "skillbox-out"
    beside = cold_walk.walk_beside(tmp_path, 1_000_000, out, [], many=1)
    here = walk_tree(tmp_path, exclude=(out,))
    assert (beside.files, beside.skipped) == (here.files, here.skipped)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork: the walk runs in process and warms nothing")
def test_a_language_with_more_files_than_one_batch_is_warmed_while_the_child_walks(tmp_path, monkeypatch):
    def slow_walk(root, max_bytes, exclude, on_file):
        for _ in range(3):
            on_file("python")
        on_file("typescript")
        time.sleep(0.6)  # still walking when the build process looks
        return WalkResult([("a.py", "python", 1, 1)], {})

    warmed = []
    monkeypatch.setattr(cold_walk, "walk_tree", slow_walk)
    monkeypatch.setattr("skillbox.graph.worker.warm", lambda languages: warmed.append(sorted(languages)))
    walked = cold_walk.walk_beside(tmp_path, 1, tmp_path / "out", [lambda: time.sleep(0.2)], many=2)
    assert walked.files == [("a.py", "python", 1, 1)]
    assert warmed == [["python"]]  # named at its third file; typescript (one file) is not
