"""`skillbox graph build` as a user runs it: output, --json, errors, exit codes."""

from __future__ import annotations

import json

from click.testing import CliRunner

from skillbox.cli.root import cli
from tests.graph.conftest import write_tree


def test_build_prints_one_line_summary_and_writes_graph(tmp_path):
    root = write_tree(tmp_path / "p", {"a.py": "def f():\n    g()\ndef g():\n    pass\n"})
    result = CliRunner().invoke(cli, ["graph", "build", str(root)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("graph built: 1 files, ")
    assert (root / "skillbox-out" / "graph.json").is_file()
    assert (root / "skillbox-out" / "cache" / ".gitignore").read_text().strip().endswith("*")
    again = CliRunner().invoke(cli, ["graph", "build", str(root)])
    assert again.exit_code == 0
    assert again.stdout.startswith("graph up to date: 1 files")


def test_build_json_summary(tmp_path):
    root = write_tree(
        tmp_path / "p", {"a.py": "import os\nclass A:\n    def m(self):\n        self.m()\n", "d.md": "# T\n"}
    )
    out = tmp_path / "elsewhere"
    result = CliRunner().invoke(cli, ["graph", "build", str(root), "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["files"] == 2
    assert summary["languages"] == {"markdown": 1, "python": 1}
    assert summary["edges_by_relation"]["calls"] == 1
    assert summary["confidence"]["EXTRACTED"] >= 3
    assert summary["cache"] == {"hits": 0, "misses": 2, "corrupt": 0}
    assert set(summary["seconds"]) >= {"walk", "extract", "resolve", "write", "total"}
    assert summary["graph"] == str(out / "graph.json")
    assert (out / "graph.json").is_file()
    assert not (root / "skillbox-out").exists()


def test_nonexistent_path_is_a_one_line_error(tmp_path):
    result = CliRunner().invoke(cli, ["graph", "build", str(tmp_path / "nope")])
    assert result.exit_code == 1
    assert result.stderr.strip().startswith("Error: path does not exist:")
    assert len(result.stderr.strip().splitlines()) == 1


def test_file_instead_of_directory_is_a_one_line_error(tmp_path):
    file = tmp_path / "f.py"
    file.write_text("x = 1\n")
    result = CliRunner().invoke(cli, ["graph", "build", str(file)])
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: not a directory:")
    assert len(result.stderr.strip().splitlines()) == 1


def test_bad_option_is_a_usage_error(tmp_path):
    result = CliRunner().invoke(cli, ["graph", "build", str(tmp_path), "--jobs", "0"])
    assert result.exit_code == 2
