"""The skills and slash commands as an installed plugin: Claude Code lists them all, and their scripts run."""

from __future__ import annotations

import subprocess

import pytest

from tests.e2e.claude_harness import PLUGIN_ID, REPO

SKILLS = sorted(p.parent.name for p in (REPO / "skills").glob("*/SKILL.md"))
COMMANDS = sorted(p.stem for p in (REPO / "commands").glob("*.md"))


def test_plugin_details_lists_every_skill_and_command(run_claude, installed_plugin):
    proc = run_claude("plugin", "details", PLUGIN_ID, home=installed_plugin.home)
    assert proc.returncode == 0, proc.stderr
    inventory = next(line for line in proc.stdout.splitlines() if line.strip().startswith("Skills ("))
    listed = {name.strip() for name in inventory.split(")", 1)[1].split(",")}
    assert set(SKILLS) | set(COMMANDS) <= listed, sorted(set(SKILLS) | set(COMMANDS) - listed)


@pytest.mark.parametrize(
    "script",
    [
        "paper-to-slides/scripts/build_deck.py",
        "paper-to-slides/scripts/check_deck.py",
        "paper-to-slides/scripts/extract_figures.py",
        "paper-figures/scripts/check_figure.py",
        "paper-citations/scripts/cite_tool.py",
        "literature-search/scripts/lit_query.py",
        "paper-statistics/scripts/check_stats.py",
    ],
)
def test_skill_scripts_run_with_the_managed_python(plugin_venv, installed_plugin, script, tmp_path):
    """The launcher installs the `paper` extra, so python-pptx and matplotlib import in the managed venv."""
    proc = subprocess.run(
        [
            str(installed_plugin.install_path / "bin" / "skillbox-python"),
            str(installed_plugin.install_path / "skills" / script),
            "--help",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=plugin_venv.launcher_env.env(),
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("usage:")
