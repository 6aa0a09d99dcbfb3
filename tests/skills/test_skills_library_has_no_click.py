"""`skillbox.skills` is a library: validating a plugin root imports no click (the CLI passes its tree in)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PROBE = """
import sys
from skillbox.skills import validate_path
from skillbox.skills.clitree import OptionSpec, check_command_line

report = validate_path(sys.argv[1])


class Tree:  # a two-level CLI of our own, no framework
    is_group, default_command, help_names = True, None, ("--help",)

    def options(self):
        return {}

    def subcommand(self, name):
        return Leaf() if name == "run" else None

    def subcommand_names(self):
        return ["run"]


class Leaf:
    is_group, default_command, help_names = False, None, ("--help",)

    def options(self):
        return {"--mode": OptionSpec("--mode", True, ("fast", "slow"))}


print("click" in sys.modules, len(report.checked) > 0, check_command_line(["run", "--mode", "fast"], Tree()),
      check_command_line(["run", "--mode", "odd"], Tree())[0][0], check_command_line(["walk"], Tree())[0][0])
"""


def test_validating_imports_no_click_and_any_tree_can_be_walked():
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, str(REPO)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(REPO / "tools"), "PATH": "/usr/bin:/bin"},
        check=True,
    )
    assert proc.stdout.split() == ["False", "True", "[]", "command_bad_choice", "command_unknown"]
