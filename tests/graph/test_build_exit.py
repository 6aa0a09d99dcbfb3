"""A graph build's process ends without freeing the build's values or tearing the interpreter down
(`fast_path.nothing_left_to_finalize`, `BuildResult.held`), and writes and prints the same."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

from skillbox.graph.build import build_graph

TOOLS = Path(__file__).resolve().parents[2] / "tools"
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "graph" / "python"

# A module-level value whose finalizer prints: it runs on the interpreter's shutdown, never after `os._exit`.
PROBE = """
import sys
from skillbox.cli import fast_path

class Probe:
    def __del__(self):
        sys.stdout.write("finalized\\n")

kept = Probe()
if sys.argv[1] == "finished":
    fast_path.nothing_left_to_finalize(Probe())
print("printed")
try:
    raise SystemExit(int(sys.argv[2]))
except SystemExit as stop:
    fast_path.end_process(stop)
    raise
"""


def _run(*args: str, code: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(TOOLS))
    cmd = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", "skillbox", *args]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)


def test_end_process_skips_the_shutdown_only_when_the_command_said_so():
    done = _run("finished", "0", code=PROBE)
    assert (done.returncode, done.stdout) == (0, "printed\n")  # flushed, nothing finalized
    failed = _run("finished", "3", code=PROBE)
    assert (failed.returncode, failed.stdout) == (3, "printed\n")
    usual = _run("not-finished", "0", code=PROBE)
    assert usual.returncode == 0 and usual.stdout.startswith("printed\nfinalized\n")


def test_build_result_holds_the_build_values(tmp_path):
    result = build_graph(FIXTURE, tmp_path / "out", force=True)
    plan, extracted, linked, graph = result.held
    assert plan.root == FIXTURE.resolve()
    assert extracted.records and linked.resolver is not None and len(graph.nodes) == result.summary["nodes"]
    again = build_graph(FIXTURE, tmp_path / "out")  # up to date: nothing assembled
    assert again.up_to_date and again.held[-1] is None


def test_python_m_build_prints_and_writes_everything(tmp_path):
    out = tmp_path / "out"
    done = _run("graph", "build", str(FIXTURE), "--out", str(out), "--json", "--force")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["nodes"] > 0 and summary["up_to_date"] is False
    for name in ("graph.json", "communities.json", "GRAPH_REPORT.md", "graph.html"):
        assert (out / name).stat().st_size > 0
    reference = build_graph(FIXTURE, tmp_path / "ref", force=True)
    assert (out / "graph.json").read_bytes() == reference.graph_path.read_bytes()


def test_the_console_script_ends_like_python_m():
    """`.venv/bin/skillbox` (what the README's commands run) goes through `run`, so it skips the interpreter's
    shutdown like `python -m skillbox` does: through `main` a Django build took ~0.3 s longer to exit."""
    (script,) = entry_points(group="console_scripts", name="skillbox")
    assert script.value == "skillbox.cli:run"
