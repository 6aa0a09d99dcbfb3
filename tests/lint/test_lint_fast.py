"""The click-free `skillbox lint` twin prints what the click command prints, with the same exit code, and hands
everything else (fix, help, subcommands, bad options) to click."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from skillbox.cli import lint_fast
from skillbox.lint.samples import composition

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def run(args, cwd):
    """Through `python -m skillbox` (the twin answers the plain forms)."""
    env = dict(os.environ, PYTHONPATH=str(TOOLS))
    env.pop("SKILLBOX_DEBUG", None)
    proc = subprocess.run([sys.executable, "-m", "skillbox", "lint", *args], cwd=cwd, env=env, capture_output=True,
                          text=True)  # fmt: skip
    return proc.returncode, proc.stdout, proc.stderr


def run_click(args, cwd):
    """The click command itself, in-process."""
    from click.testing import CliRunner

    from skillbox.cli.root import cli

    old = Path.cwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(cli, ["lint", *args])
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["p"],
        ["p", "--json"],
        ["p", "--format", "sarif"],
        ["p", "--select", "media", "--json"],
        ["p", "--ignore=core"],
        ["p", "--no-config", "--format=json"],
        ["absent"],
        ["empty"],
        ["p", "--select", "nope"],
    ],
)
def test_twin_matches_click(tmp_path, args):
    (tmp_path / "p").mkdir()
    (tmp_path / "empty").mkdir()
    html = composition('<video id="v" src="https://media.hyperframes.dev/v.mp4" muted data-start="0"/>')
    (tmp_path / "p" / "index.html").write_text(html, encoding="utf-8")
    assert run(args, tmp_path) == run_click(args, tmp_path)


@pytest.mark.parametrize(
    "args", [["rules"], ["explain", "x"], ["p", "--fix"], ["--help"], ["p", "--format", "xml"], ["p", "--bogus"]]
)
def test_twin_declines_what_click_owns(args):
    assert lint_fast.main(args) is None
