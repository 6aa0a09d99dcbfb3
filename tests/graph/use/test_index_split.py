"""The query index's reader never loads its writer: a query, path, explain or MCP process on a current index
imports only `skillbox.graph.index`; the writer is imported by `build`, or by a reader whose index is missing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from skillbox.graph.build import build_graph

TOOLS = Path(__file__).resolve().parents[3] / "tools"

ASK = """
import json, sys
from skillbox.graph.index import GraphIndex
from skillbox.graph import query, server  # noqa: F401
index = GraphIndex.open(sys.argv[1])
hits = query.query(index, "save a user")
print(json.dumps({"writer": "skillbox.graph.index_writer" in sys.modules, "nodes": index.counts()["nodes"],
                  "answered": bool(hits)}))
"""


def _ask(graph_path: Path) -> dict:
    env = {"PYTHONPATH": str(TOOLS), "PATH": "/usr/bin:/bin"}
    proc = subprocess.run(
        [sys.executable, "-c", ASK, str(graph_path)], capture_output=True, text=True, env=env, check=True
    )
    return json.loads(proc.stdout)


def test_a_reader_on_a_current_index_never_imports_the_writer(tmp_path):
    src = Path(__file__).resolve().parents[2] / "fixtures" / "graph" / "python"
    result = build_graph(src, tmp_path / "out", jobs=1)
    seen = _ask(result.graph_path)
    assert seen["writer"] is False
    assert seen["nodes"] == result.summary["nodes"]


def test_a_reader_whose_index_is_missing_writes_it_first(tmp_path):
    src = Path(__file__).resolve().parents[2] / "fixtures" / "graph" / "python"
    result = build_graph(src, tmp_path / "out", jobs=1)
    (tmp_path / "out" / "cache" / "query-index.sqlite").unlink()
    seen = _ask(result.graph_path)
    assert seen["writer"] is True
    assert seen["nodes"] == result.summary["nodes"]
    assert (tmp_path / "out" / "cache" / "query-index.sqlite").is_file()


def test_the_reader_module_has_no_import_of_the_writer_at_its_top():
    text = (TOOLS / "skillbox" / "graph" / "index.py").read_text()
    top = [line for line in text.splitlines() if line.startswith(("import ", "from "))]
    assert top and not any("index_writer" in line for line in top)
