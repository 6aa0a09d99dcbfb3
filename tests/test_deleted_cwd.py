"""A shell whose folder was deleted under it (a removed worktree, a cleaned tmp dir): one line, no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[1] / "tools"


@pytest.mark.parametrize("command", [["lint", "."], ["graph", "build", "."], ["graph", "explain", "x"]])
def test_a_deleted_working_folder_is_a_one_line_error(tmp_path, command):
    gone = tmp_path / "gone"
    gone.mkdir()
    script = (
        "import os, sys; os.chdir(sys.argv[1]); os.rmdir(sys.argv[1]); "
        "from skillbox.cli import main; sys.argv = ['skillbox', *sys.argv[2:]]; main()"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script, str(gone), *command],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(TOOLS), "HOME": str(tmp_path)},
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 1
    (line,) = proc.stderr.strip().splitlines()
    if command[0] == "lint" or command[1] == "build":  # they resolve the folder first
        assert line == "Error: the current folder no longer exists (cd to an existing folder and run again)"
    else:  # a relative default that is simply absent
        assert line.startswith("Error: no graph at ")
