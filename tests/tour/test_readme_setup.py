"""The README's first screen gives exactly the two set-up commands `.ci/run` runs verbatim (main and test)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIRST_SCREEN_LINES = 40


def marked_command(text: str, marker: str) -> str:
    lines = text.splitlines()
    at = lines.index(f"<!-- {marker} -->")
    assert lines[at + 1] == "```sh", f"<!-- {marker} --> must sit right above a ```sh fence"
    return lines[at + 2]


def test_first_screen_has_exactly_the_two_marked_setup_commands():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    first_screen = "\n".join(text.splitlines()[:FIRST_SCREEN_LINES])
    fenced = re.findall(r"^```sh\n(.*?)\n```$", first_screen, re.DOTALL | re.MULTILINE)
    main, tests = marked_command(text, "main-command"), marked_command(text, "test-command")
    assert fenced == [main, tests]
    assert main.endswith("skillbox tour") and "'.[paper]'" in main
    assert tests.endswith("python -m pytest")


def test_ci_runs_both_marked_commands_as_the_readme_writes_them():
    """.ci/run's own extraction (awk) gives back the very lines the README shows."""
    script = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    for marker in ("test-command", "main-command"):
        assert f"readme_command {marker}" in script
    function = re.search(r"^readme_command\(\) \{\n.*?^\}$", script, re.DOTALL | re.MULTILINE).group(0)
    text = (REPO / "README.md").read_text(encoding="utf-8")
    for marker in ("test-command", "main-command"):
        done = subprocess.run(
            ["bash", "-c", f"{function}\nreadme_command {marker}"], cwd=REPO, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout == marked_command(text, marker)
