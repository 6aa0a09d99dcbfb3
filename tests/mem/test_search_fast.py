"""`skillbox mem search` without click: same output as the click command, and click for everything else."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from skillbox.cli import mem_search_fast
from skillbox.cli.mem import search_cmd
from skillbox.cli.root import cli
from skillbox.mem.capture import record_observation
from skillbox.mem.settings import load_settings
from skillbox.mem.store import open_store
from tests.mem.conftest import TOOLS, replay_session


@pytest.fixture
def memory(home, project_dir):
    replay_session(project_dir)
    with open_store() as store:
        titles = ["Token refresh moved to middleware", "Token cache warmed", "\x1b[31mRed\x1b[0m login"]
        for i, title in enumerate(titles):
            record_observation(
                store,
                type="decision" if i == 0 else "note",
                title=title,
                project="demo",
                files=["src/auth.py"],
                settings=load_settings(),
            )
    return home


CASES = [
    ["auth"],
    ["refresh", "token"],
    ["token", "--limit", "1"],
    ["token", "--limit=2", "--json"],
    ["--json", "login", "bug"],
    ["token", "--type", "decision", "--project", "demo"],
    ["token", "--type=observations", "--type", "summaries"],
    ["login", "--obs-type", "note", "--since", "2000-01-01", "--until", "today"],
    ["token", "--file", "auth.py", "--concept", "nothing"],
    ["token", "--project", "elsewhere", "--project", "demo"],
    ["red"],
    [],
    ["nothingmatchesthis"],
    ["!!!"],
    ["x", "--since", "someday"],
    ["x", "--limit", "0"],
    ["token", "--type", "summaries", "--obs-type", "note"],
]


@pytest.mark.parametrize("args", CASES, ids=lambda a: " ".join(a) or "(no query)")
def test_fast_path_prints_what_the_click_command_prints(memory, capsys, args):
    clicked = CliRunner().invoke(cli, ["mem", "search", *args])
    code = mem_search_fast.main(args)
    out, err = capsys.readouterr()
    assert code == clicked.exit_code
    assert out == clicked.stdout
    assert err == clicked.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["x", "-h"],
        ["x", "--bogus"],
        ["x", "--limit", "many"],
        ["x", "--limit", "-3"],
        ["x", "--limit"],
        ["x", "--json=yes"],
        ["x", "--project", "--json"],
        ["-"],
        ["--", "x"],
    ],
)
def test_anything_unusual_is_left_to_click(args):
    assert mem_search_fast.parse(args) is None


def test_debug_is_left_to_click(memory, monkeypatch):
    monkeypatch.setenv("SKILLBOX_DEBUG", "1")
    assert mem_search_fast.main(["token"]) is None


def test_the_limit_default_and_bounds_come_from_the_one_table():
    limit = next(p for p in search_cmd.params if p.name == "limit")
    assert limit.default == 20 == mem_search_fast.parse(["x"])["limit"]
    assert mem_search_fast.parse(["x", "--limit", str(mem_search_fast.MAX_LIMIT)])["limit"] == limit.type.max
    assert mem_search_fast.parse(["x", "--limit", str(mem_search_fast.MAX_LIMIT + 1)]) is None  # click refuses it


def _run_main(home, args: list[str]) -> subprocess.CompletedProcess:
    probe = (
        "import sys\nfrom skillbox.cli import main\n"
        f"try:\n    main({args!r})\nexcept SystemExit as exit:\n    print('exit', exit.code)\n"
        "print('click imported:', 'click' in sys.modules)\n"
    )
    env = dict(os.environ, SKILLBOX_HOME=str(home), PYTHONPATH=str(TOOLS))
    env.pop("SKILLBOX_DEBUG", None)
    return subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=60)


def test_a_search_process_does_not_import_click(memory):
    done = _run_main(memory, ["mem", "search", "token", "refresh"])
    assert "Token refresh moved to middleware" in done.stdout
    assert done.stdout.splitlines()[-2:] == ["exit 0", "click imported: False"]
    helped = _run_main(memory, ["mem", "search", "--help"])
    assert "Usage:" in helped.stdout
    assert helped.stdout.splitlines()[-2:] == ["exit 0", "click imported: True"]
