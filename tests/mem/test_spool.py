"""Nothing lost: a hook that cannot write in time spools its event and returns; the next writer drains it.

Real processes and real SQLite locks: a second connection holds the write lock (as a long import would), the
hook runs as `python -m skillbox mem hook`, and the spool is the real folder under SKILLBOX_HOME.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from skillbox.mem import budget
from tests.mem.conftest import REPO, TOOLS, count, payload, rows, run_hook_inprocess, run_hook_process, tool


def _prompt(n: int, cwd: Path, session: str = "sess-1"):
    return payload("user-prompt-submit", session, cwd, prompt=f"prompt number {n}")


def _hold_write_lock(db: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    return conn


def test_budget_fits_inside_the_hook_timeout_declared_in_hooks_json():
    hooks = json.loads((REPO / "hooks" / "hooks.json").read_text())["hooks"]
    memory_hooks = [
        handler
        for groups in hooks.values()
        for group in groups
        for handler in group["hooks"]
        if handler.get("args", [])[:2] == ["mem", "hook"]
    ]
    assert len(memory_hooks) == 7  # six capture events and file-context
    assert {handler["timeout"] for handler in memory_hooks} == {budget.HOOK_TIMEOUT_SECONDS}
    assert budget.hook_worst_case_seconds() <= budget.HOOK_TIMEOUT_SECONDS / 2
    assert budget.BATCH_SECONDS < budget.HOOK_WRITE_SECONDS / 2  # a batching writer never pushes a hook to spool


def test_locked_store_spools_within_budget_and_the_next_hook_drains_in_order(home, project_dir):
    run_hook_inprocess("session-start", payload("session-start", cwd=project_dir))
    db = home / "memory.db"
    lock = _hold_write_lock(db)
    try:
        started = time.monotonic()
        result = run_hook_process("user-prompt-submit", _prompt(1, project_dir))
        took = time.monotonic() - started
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    assert result.returncode == 0 and result.stdout == b""
    assert took < budget.HOOK_WRITE_SECONDS + 2.0, f"hook took {took:.2f}s with the lock held"
    spooled = os.listdir(home / "spool")
    assert len(spooled) == 1 and spooled[0].endswith(".user-prompt-submit.json")
    assert count(home, "prompts") == 0

    time.sleep(0.05)
    run_hook_inprocess("user-prompt-submit", _prompt(2, project_dir))
    assert [name for name in os.listdir(home / "spool") if not name.startswith(".")] == []
    stored = rows(home, "SELECT prompt_number, prompt_text, created_at FROM prompts ORDER BY prompt_number")
    assert [(n, text) for n, text, _ in stored] == [(1, "prompt number 1"), (2, "prompt number 2")]
    assert stored[0][2] < stored[1][2]  # the spooled prompt keeps the time it happened


def test_turn_summary_sees_tool_events_that_were_spooled(home, project_dir):
    run_hook_inprocess("user-prompt-submit", _prompt(1, project_dir))
    lock = _hold_write_lock(home / "memory.db")
    try:
        event, data = tool(
            "Read", {"file_path": str(project_dir / "a.py")}, {"type": "text"}, use_id="t1", cwd=project_dir
        )
        assert run_hook_process(event, data).returncode == 0
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    run_hook_inprocess("stop", payload("stop", cwd=project_dir, last_assistant_message="Read a.py."))
    assert count(home, "events") == 1
    files = rows(home, "SELECT files_read FROM summaries")
    assert files and json.loads(files[0][0]) == ["a.py"]


def test_hooks_during_a_long_import_are_kept_and_return_quickly(home, project_dir, tmp_path):
    lines = []
    for i in range(60_000):
        lines.append(
            json.dumps(
                {
                    "kind": "observation",
                    "project": "bulk",
                    "type": "note",
                    "title": f"bulk note {i} about caching and retries",
                    "narrative": "imported " * 20,
                    "content_hash": f"bulk-{i}",
                    "created_at": "2026-01-01T00:00:00.000Z",
                }
            )
        )
    dump = tmp_path / "bulk.jsonl"
    dump.write_text("\n".join(lines) + "\n")
    env = dict(os.environ, PYTHONPATH=str(TOOLS), SKILLBOX_HOME=str(home))
    run_hook_inprocess("session-start", payload("session-start", cwd=project_dir))
    importer = subprocess.Popen(
        [sys.executable, "-m", "skillbox", "mem", "import", str(dump)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    times = []
    n = 0
    while importer.poll() is None and n < 40:
        n += 1
        started = time.monotonic()
        result = run_hook_process("user-prompt-submit", _prompt(n, project_dir))
        times.append(time.monotonic() - started)
        assert result.returncode == 0
    _out, err = importer.communicate(timeout=600)
    assert importer.returncode == 0, err.decode()
    assert n >= 3, "the import finished before the hooks could overlap it; make it longer"
    assert max(times) < budget.HOOK_TIMEOUT_SECONDS / 2, times
    # Whatever had to be spooled is stored by the next writer.
    run_hook_process("user-prompt-submit", _prompt(n + 1, project_dir))
    assert count(home, "observations") == 60_000
    assert [r[0] for r in rows(home, "SELECT prompt_number FROM prompts ORDER BY prompt_number")] == list(
        range(1, n + 2)
    )


def test_broken_settings_spool_instead_of_dropping(home, project_dir):
    (home / "settings.json").write_text("{ nope")
    run_hook_process("user-prompt-submit", _prompt(1, project_dir))
    assert len(os.listdir(home / "spool")) == 1
    (home / "settings.json").unlink()
    run_hook_inprocess("user-prompt-submit", _prompt(2, project_dir))
    assert count(home, "prompts") == 2


def test_unstorable_spooled_payload_is_rejected_not_lost(home, project_dir):
    (home / "spool").mkdir()
    (home / "spool" / f"{time.time_ns()}-1.post-tool-use.json").write_bytes(b'{"cwd": "/tmp"}')
    run_hook_inprocess("user-prompt-submit", _prompt(1, project_dir))
    assert count(home, "prompts") == 1
    assert len(os.listdir(home / "spool" / "rejected")) == 1
    assert "no session_id" in (home / "logs" / "mem-hooks.log").read_text()


def test_drain_command_stores_the_spool(home, project_dir):
    from skillbox.mem import spool

    for n in (1, 2, 3):
        spool.append(str(home), "user-prompt-submit", json.dumps(_prompt(n, project_dir)).encode())
    result = subprocess.run(
        [sys.executable, "-m", "skillbox", "mem", "hook", "drain"],
        env=dict(os.environ, PYTHONPATH=str(TOOLS)),
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert result.returncode == 0 and result.stdout == b""
    assert [r[0] for r in rows(home, "SELECT prompt_text FROM prompts ORDER BY id")] == [
        "prompt number 1",
        "prompt number 2",
        "prompt number 3",
    ]
    assert spool.pending(str(home)) == []


def test_older_schema_is_migrated_in_the_background_not_by_the_hook(home, project_dir, monkeypatch):
    from skillbox.mem import spool
    from skillbox.mem.store import Store

    run_hook_inprocess("user-prompt-submit", _prompt(1, project_dir))
    with sqlite3.connect(home / "memory.db") as conn:
        conn.execute("PRAGMA user_version=1")
    conn.close()
    monkeypatch.setattr("skillbox.mem.hook._start_background_drain", lambda home: None)
    run_hook_inprocess("user-prompt-submit", _prompt(2, project_dir))
    assert len(spool.pending(str(home))) == 1
    with Store(home / "memory.db"):  # what `mem hook drain` does first: migrate
        pass
    run_hook_inprocess("user-prompt-submit", _prompt(3, project_dir))
    assert [r[0] for r in rows(home, "SELECT prompt_number FROM prompts ORDER BY id")] == [1, 2, 3]


def test_search_stores_the_spool_first_so_the_running_turn_is_found(home, project_dir):
    """The per-call hooks only spool (bin/skillbox); the agent's `mem search` must still see this turn's prompt."""
    from skillbox.mem import spool

    prompt = payload("user-prompt-submit", cwd=project_dir, prompt="look into the wombatgate outage")
    spool.append(str(home), "user-prompt-submit", json.dumps(prompt).encode())
    result = subprocess.run(
        [sys.executable, "-m", "skillbox", "mem", "search", "wombatgate"],
        env=dict(os.environ, PYTHONPATH=str(TOOLS)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("P1 ") and "wombatgate" in result.stdout
    assert spool.pending(str(home)) == []


def test_background_drain_really_runs_detached(home, project_dir):
    """What a hook starts when the schema needs a migration: a detached `mem hook drain` (memory disabled in its
    environment, as for every detached helper) that migrates and stores the spool."""
    from skillbox.mem import spool
    from skillbox.mem.hook import _start_background_drain

    for n in (1, 2):
        spool.append(str(home), "user-prompt-submit", json.dumps(_prompt(n, project_dir)).encode())
    _start_background_drain(str(home))
    deadline = time.monotonic() + 60
    while spool.pending(str(home)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert spool.pending(str(home)) == []
    assert count(home, "prompts") == 2
