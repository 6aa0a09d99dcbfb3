"""Damaged stores: found at open (cheap) or by doctor (full check), moved aside with a timestamp, a new store
started, every new event kept, and the user told once — at the next SessionStart, in `mem stats`, in doctor."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

import pytest
from click.testing import CliRunner

from skillbox import doctor
from skillbox.cli.root import cli
from tests.mem.conftest import TOOLS, count, payload, replay_session, rows, run_hook_inprocess, run_hook_process


def _garbage(db):
    db.write_bytes(b"this is not a database, it is a shopping list\n" * 200)


def _truncate(db):
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])


@pytest.mark.parametrize("damage", [_garbage, _truncate], ids=["garbage", "truncated"])
def test_damaged_file_is_moved_aside_and_new_events_are_kept(home, project_dir, damage):
    replay_session(project_dir, session="old")
    db = home / "memory.db"
    assert not (home / "memory.db-wal").exists()  # closed cleanly: a truncation is visible in the file size
    damage(db)
    result = run_hook_process("user-prompt-submit", payload("user-prompt-submit", "new", project_dir, prompt="hi"))
    assert result.returncode == 0 and result.stdout == b""
    assert rows(home, "SELECT prompt_text FROM prompts") == [("hi",)]
    (moved,) = [
        p
        for p in home.iterdir()
        if p.name.startswith("memory.db.damaged-") and not p.name.endswith(("-wal", "-shm", "-notes"))
    ]
    assert moved.read_bytes().startswith(b"this is not a database" if damage is _garbage else b"SQLite format 3\x00")

    # Told once in the next SessionStart context ...
    out = run_hook_inprocess("session-start", payload("session-start", "next", project_dir))
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert "memory database was damaged" in context and moved.name in context
    again = run_hook_inprocess("session-start", payload("session-start", "later", project_dir))
    assert again is None or "damaged" not in again
    # ... and every time in mem stats and doctor.
    stats = CliRunner().invoke(cli, ["mem", "stats"])
    assert stats.exit_code == 0 and f"damaged    moved aside to {moved}" in stats.stdout
    assert json.loads(CliRunner().invoke(cli, ["mem", "stats", "--json"]).stdout)["damaged_stores"][0]["moved_to"] == (
        str(moved)
    )
    check = doctor.check_memory()
    assert any(str(moved) in issue.message for issue in check.issues)


def _damage_a_page(db, table: str) -> None:
    with sqlite3.connect(db) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
    conn.close()
    with open(db, "r+b") as handle:
        handle.seek((root - 1) * page_size)
        handle.write(bytes(range(256)) * (page_size // 256))


def test_damaged_page_fails_doctor_and_stats_says_so_in_one_line(home, project_dir):
    replay_session(project_dir)
    db = home / "memory.db"
    assert doctor.check_memory().status == "ok"
    _damage_a_page(db, "observations")
    check = doctor.check_memory()
    assert check.status == "fail"
    assert any("damaged" in issue.message or "malformed" in issue.message for issue in check.issues), check.issues
    for args in (["mem", "stats"], ["mem", "search", "login"], ["mem", "stats", "--json"]):
        proc = subprocess.run(
            [sys.executable, "-m", "skillbox", *args],
            env=dict(os.environ, PYTHONPATH=str(TOOLS)),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 1, (args, proc.stdout, proc.stderr)
        assert "Traceback" not in proc.stderr
        assert proc.stderr.startswith("Error: ") and "is damaged" in proc.stderr and proc.stderr.count("\n") == 1


def test_hook_that_meets_a_damaged_page_moves_the_store_aside_and_keeps_its_event(home, project_dir):
    replay_session(project_dir)
    _damage_a_page(home / "memory.db", "sessions")
    run_hook_inprocess("user-prompt-submit", payload("user-prompt-submit", "after", project_dir, prompt="still here"))
    assert rows(home, "SELECT prompt_text FROM prompts") == [("still here",)]
    assert count(home, "sessions") == 1
    assert len(json.loads(CliRunner().invoke(cli, ["mem", "stats", "--json"]).stdout)["damaged_stores"]) == 1
