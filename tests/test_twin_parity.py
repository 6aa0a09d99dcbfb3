"""The click-free twins of `mem search` and `graph build` against their click commands, as real processes.

Each case runs `skillbox.cli.main` twice: once as shipped (the twin answers the plain forms) and once with the
command's twin taken out of `FAST_PATHS` (click answers). Output, error line and exit code must be the same for
plain forms, usage errors, out-of-range integers (which used to end in an OverflowError traceback on both paths)
and Ctrl-C (the command body interrupted: click prints a blank line and `Aborted!`, exit 1).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[1] / "tools"
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "graph" / "python"

PROBE = """
import sys
import skillbox.cli as cli
command, interrupt, *args = sys.argv[1:]
if command == "click":
    cli.FAST_PATHS = {k: v for k, v in cli.FAST_PATHS.items() if k != tuple(args[:2])}
if interrupt != "-":
    module, name = interrupt.split(":")
    import importlib

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    setattr(importlib.import_module(module), name, interrupted)
try:
    cli.main(args)
except SystemExit as exit:
    code = exit.code
else:
    code = 0
sys.stdout.flush()
print("exit", code if isinstance(code, int) else 1, "click" in sys.modules)
"""


def _run(path: str, args: list[str], home: Path, cwd: Path, interrupt: str = "-") -> tuple[str, str, str]:
    env = {"PYTHONPATH": str(TOOLS), "PATH": "/usr/bin:/bin", "SKILLBOX_HOME": str(home), "HOME": str(home)}
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, path, interrupt, *args], capture_output=True, text=True, env=env, cwd=cwd
    )
    *out, status = proc.stdout.splitlines()
    # a build's timings differ from run to run; nothing else printed has a decimal point
    return re.sub(r"\d+\.\d+", "N", "\n".join(out)), proc.stderr, status


def _same(args: list[str], home: Path, cwd: Path, interrupt: str = "-") -> tuple[str, str, str]:
    twin = _run("twin", args, home, cwd, interrupt)
    clicked = _run("click", args, home, cwd, interrupt)
    assert twin[:2] == clicked[:2]
    assert twin[2].rsplit(" ", 1)[0] == clicked[2].rsplit(" ", 1)[0]  # exit codes (not whether click loaded)
    assert "Traceback" not in twin[1]
    return twin


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("twins")
    home = work / "home"
    home.mkdir()
    env = {"PYTHONPATH": str(TOOLS), "PATH": "/usr/bin:/bin", "SKILLBOX_HOME": str(home), "HOME": str(home)}
    for title in ("Token refresh moved to middleware", "Token cache warmed"):
        subprocess.run(
            [sys.executable, "-m", "skillbox", "mem", "add", "--type", "decision", "--title", title, "--project", "p"],
            env=env,
            check=True,
            capture_output=True,
        )
    shutil.copytree(FIXTURE, work / "proj")
    subprocess.run([sys.executable, "-m", "skillbox", "graph", "build", "proj"], env=env, cwd=work, check=True)
    return work  # built once, so both paths find the graph up to date


SEARCHES = [
    ["token"],
    ["token", "--limit", "1", "--json"],
    ["token", "--type", "decision", "--project", "p"],
    ["token", "--limit", "99999999999999999999"],
    ["token", "--limit=1000001"],
    ["token", "--limit", "0"],
    ["token", "--limit", "-3"],
    ["token", "--limit", "many"],
    ["token", "--bogus"],
    ["x", "--since", "someday"],
]


@pytest.mark.parametrize("args", SEARCHES, ids=" ".join)
def test_mem_search_twin_and_click_agree(workdir, args):
    _out, err, status = _same(["mem", "search", *args], workdir / "home", workdir)
    if "99999999999999999999" in args or "--limit=1000001" in args:
        assert err.strip().endswith("is not in the range x<=1000000.") and status.startswith("exit 2")


BUILDS = [
    ["proj"],
    ["proj", "--json", "--jobs", "1"],
    ["nowhere"],
    ["proj", "--jobs", "99999999999999999999"],
    ["proj", "--jobs", "0"],
    ["proj", "--max-bytes", "99999999999999999999999"],
    ["proj", "--out", "proj/main.py"],
    ["a", "b"],
]


@pytest.mark.parametrize("args", BUILDS, ids=" ".join)
def test_graph_build_twin_and_click_agree(workdir, args):
    _out, err, status = _same(["graph", "build", *args], workdir / "home", workdir)
    if args[-1].startswith("9999"):
        assert "is not in the range" in err and status.startswith("exit 2")
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "args, interrupt",
    [
        (["mem", "search", "token"], "skillbox.mem.search:search"),
        (["graph", "build", "proj"], "skillbox.graph.build:build_graph"),
    ],
)
def test_ctrl_c_in_the_command_body_ends_the_same_way(workdir, args, interrupt):
    out, err, status = _same(args, workdir / "home", workdir, interrupt)
    assert (out, err, status.split()[:2]) == ("", "\nAborted!\n", ["exit", "1"])


def test_the_twins_answer_without_click(workdir):
    assert _run("twin", ["mem", "search", "token"], workdir / "home", workdir)[2] == "exit 0 False"
    assert _run("twin", ["graph", "build", "proj"], workdir / "home", workdir)[2] == "exit 0 False"
    assert _run("click", ["mem", "search", "token"], workdir / "home", workdir)[2] == "exit 0 True"


def test_click_builds_the_commands_from_the_same_tables():
    from skillbox.cli.graph_build import build
    from skillbox.cli.graph_build_fast import BUILD
    from skillbox.cli.mem import search_cmd
    from skillbox.cli.mem_search_fast import SEARCH

    for command, table in ((search_cmd, SEARCH), (build, BUILD)):
        names = [p.name for p in command.params]
        assert names == [a.dest for a in table.arguments] + [o.dest for o in table.options]
        flags = [p.opts[0] for p in command.params if p.opts[0].startswith("--")]
        assert flags == [o.flag for o in table.options]
