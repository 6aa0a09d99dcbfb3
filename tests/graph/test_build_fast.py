"""`skillbox graph build` without click: the same parameters as the click command, and click for the rest."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from skillbox.cli import graph_build_fast
from skillbox.cli.graph_build import build
from skillbox.cli.root import cli

TOOLS = Path(__file__).resolve().parents[2] / "tools"

ACCEPTED = [
    [],
    ["."],
    ["src", "--json"],
    ["--force", "proj"],
    ["proj", "--out", "elsewhere", "--max-bytes", "5000"],
    ["--out=o", "--jobs=2", "--json", "--force"],
    ["--jobs", "1", "--jobs", "3"],
]
REFUSED = [
    ["--help"],
    ["-h"],
    ["a", "b"],
    ["--jobs", "0"],
    ["--jobs", "two"],
    ["--max-bytes", "-5"],
    ["--max-bytes"],
    ["--json=yes"],
    ["--bogus"],
    ["--", "path"],
    ["-"],
    ["--out", "--json"],
]


def _click_params(args: list[str]) -> dict | None:
    try:
        with build.make_context("build", list(args)) as ctx:
            return dict(ctx.params)
    except click.exceptions.Exit:
        return None
    except click.ClickException:
        return None


@pytest.mark.parametrize("args", ACCEPTED, ids=lambda a: " ".join(a) or "(none)")
def test_the_fast_path_reads_the_parameters_click_reads(args):
    assert graph_build_fast.parse(args) == _click_params(args)


@pytest.mark.parametrize("args", REFUSED, ids=lambda a: " ".join(a))
def test_anything_unusual_is_left_to_click(args):
    assert graph_build_fast.parse(args) is None


def test_an_out_folder_that_is_a_file_is_left_to_click(tmp_path):
    a_file = tmp_path / "taken"
    a_file.write_text("")
    assert graph_build_fast.parse(["--out", str(a_file)]) is None
    assert _click_params(["--out", str(a_file)]) is None


def test_numbers_click_refuses_are_left_to_click():
    assert graph_build_fast.parse(["--jobs", "99999999999999999999"]) is None
    assert _click_params(["--jobs", "99999999999999999999"]) is None
    assert graph_build_fast.parse(["--jobs", "1024"]) == _click_params(["--jobs", "1024"])


def _run_main(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    probe = (
        "import sys\nfrom skillbox.cli import main\n"
        f"try:\n    main({args!r})\nexcept SystemExit as exit:\n    print('exit', exit.code)\n"
        "print('click imported:', 'click' in sys.modules)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(TOOLS))
    env.pop("SKILLBOX_DEBUG", None)
    return subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=cwd, timeout=120)


def test_a_build_process_does_not_import_click_and_prints_what_click_prints(tmp_path):
    project = tmp_path / "proj"
    (project / "pkg").mkdir(parents=True)
    (project / "pkg" / "core.py").write_text("def helper():\n    return 1\n\ndef run():\n    return helper()\n")
    done = _run_main(["graph", "build", "proj", "--json"], tmp_path)
    *printed, exit_line, imported = done.stdout.splitlines()
    assert (exit_line, imported) == ("exit 0", "click imported: False"), done.stderr
    summary = json.loads("\n".join(printed))
    assert summary["files"] == 1 and summary["edges_by_relation"]["calls"] == 1

    again = _run_main(["graph", "build", "proj"], tmp_path)
    clicked = CliRunner().invoke(cli, ["graph", "build", str(project)])
    fast_line = again.stdout.splitlines()[0]
    assert fast_line.startswith("graph up to date: 1 files") and clicked.stdout.startswith("graph up to date: 1 files")
    assert fast_line.split("; ")[:3] == clicked.stdout.split("; ")[:3]

    missing = _run_main(["graph", "build", "nowhere"], tmp_path)
    clicked = CliRunner().invoke(cli, ["graph", "build", str(tmp_path / "nowhere")])
    assert missing.stdout.splitlines()[-2:] == ["exit 1", "click imported: False"]
    assert missing.stderr == clicked.stderr.replace(str(tmp_path / "nowhere"), "nowhere")
    assert clicked.exit_code == 1

    helped = _run_main(["graph", "build", "--help"], tmp_path)
    assert "Usage:" in helped.stdout and helped.stdout.splitlines()[-2:] == ["exit 0", "click imported: True"]
