"""One `Error: ...` line for a user error, whoever shows it: the root group, a click-free twin, an MCP tool."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from skillbox.cli.root import cli
from skillbox.errors import NotFoundError, error_line

TOOLS = Path(__file__).resolve().parents[1] / "tools"


def test_the_root_group_the_twin_and_the_mcp_tools_print_the_same_line(tmp_path):
    missing = tmp_path / "nowhere" / "graph.json"
    err = NotFoundError(f"no graph at {missing}: run `skillbox graph build` first (or pass --graph FILE)")
    want = error_line(err)
    assert want.startswith("Error: no graph at ")

    clicked = CliRunner().invoke(cli, ["graph", "explain", "x", "--graph", str(missing)])
    assert clicked.exit_code == 1
    assert clicked.stderr.strip() == want

    from skillbox.mcp_server import guarded, tool_error_class

    def fail():
        raise err

    # Both MCP servers' tools (graph, mem) go through `guarded`: a tool error (isError=true) whose text is the
    # same line without its "Error: " (the SDK shows it as "Error executing tool NAME: <message>").
    with pytest.raises(tool_error_class()) as raised:
        guarded(fail)
    assert f"Error: {raised.value}" == want

    # the click-free twin of `graph build` (a real process: the twin runs before click is imported)
    proc = subprocess.run(
        [sys.executable, "-m", "skillbox", "graph", "build", str(tmp_path / "absent")],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(TOOLS), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert proc.returncode == 1
    assert proc.stderr.strip() == error_line(NotFoundError(f"path does not exist: {tmp_path / 'absent'}"))


def test_a_hint_is_part_of_the_one_line():
    err = NotFoundError("not a directory: x", hint="point `graph build`\n at a project folder")
    assert error_line(err) == "Error: not a directory: x (point `graph build` at a project folder)"
    assert error_line(OSError("disk\nfull")) == "Error: disk full"
