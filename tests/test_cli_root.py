"""The root command: version, help, error path and exit codes every other group relies on."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from skillbox import __version__
from skillbox.cli import root
from skillbox.errors import NotFoundError, SkillboxError

REPO = Path(__file__).resolve().parents[1]


def test_version_matches_plugin_manifest():
    manifest = json.loads((REPO / ".claude-plugin" / "plugin.json").read_text())
    assert manifest["version"] == __version__


def test_version_flag():
    result = CliRunner().invoke(root.cli, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"skillbox {__version__}"


def test_unknown_command_is_a_usage_error():
    result = CliRunner().invoke(root.cli, ["no-such-command"])
    assert result.exit_code == 2
    assert "No such command" in result.output


def test_python_dash_m_runs_without_importing_heavy_modules():
    code = (
        "import sys, runpy; sys.argv=['skillbox','--version'];\n"
        "try:\n runpy.run_module('skillbox', run_name='__main__')\n"
        "except SystemExit: pass\n"
        "heavy=[m for m in ('networkx','tree_sitter','sqlite_utils','yaml') if m in sys.modules]\n"
        "print('HEAVY', heavy)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env={"PYTHONPATH": str(REPO / "tools")}
    )
    assert f"skillbox {__version__}" in out.stdout
    assert "HEAVY []" in out.stdout


@pytest.fixture
def failing_group():
    """A throwaway subcommand registered on the real root, raising the library error types."""

    @click.command("fail-for-test")
    @click.argument("kind")
    def fail(kind: str) -> None:
        if kind == "notfound":
            raise NotFoundError("no node named 'x'\nsecond line", hint="try `skillbox graph query x`")
        raise SkillboxError("generic failure")

    root.cli.add_command(fail)
    yield
    root.cli.commands.pop("fail-for-test", None)


def test_library_error_is_one_line_without_traceback(failing_group, monkeypatch):
    monkeypatch.delenv("SKILLBOX_DEBUG", raising=False)
    result = CliRunner().invoke(root.cli, ["fail-for-test", "notfound"])
    assert result.exit_code == 1
    assert result.stderr.strip() == "Error: no node named 'x' second line (try `skillbox graph query x`)"
    assert "Traceback" not in result.output


def test_debug_flag_and_env_reraise(failing_group, monkeypatch):
    monkeypatch.delenv("SKILLBOX_DEBUG", raising=False)
    result = CliRunner().invoke(root.cli, ["--debug", "fail-for-test", "x"])
    assert isinstance(result.exception, SkillboxError)
    monkeypatch.setenv("SKILLBOX_DEBUG", "1")
    result = CliRunner().invoke(root.cli, ["fail-for-test", "x"])
    assert isinstance(result.exception, SkillboxError)
