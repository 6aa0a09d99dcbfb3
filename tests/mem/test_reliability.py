"""Concurrency and crash safety with real processes: no lost writes, no half-stored events, no corruption."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

from tests.mem.conftest import TOOLS, count, rows

WRITER = textwrap.dedent(
    """
    import json, sys
    from skillbox.mem.hook import run
    worker, n = int(sys.argv[1]), int(sys.argv[2])
    for i in range(n):
        data = {"session_id": f"w{worker}", "cwd": "/tmp/proj", "hook_event_name": "PostToolUse",
                "tool_name": "Read", "tool_input": {"file_path": f"/tmp/proj/f{worker}_{i}.py"},
                "tool_response": {"type": "text"}, "tool_use_id": f"w{worker}-{i}"}
        run("post-tool-use", json.dumps(data).encode())  # one connection and one transaction per event, like a hook
        print(i, flush=True)
    """
)


def _env(home) -> dict:
    return dict(os.environ, PYTHONPATH=str(TOOLS), SKILLBOX_HOME=str(home), SKILLBOX_MEM_AUTO_PRUNE="0")


def test_eight_parallel_writers_lose_nothing(home):
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(w), "250"],
            env=_env(home),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for w in range(8)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err.decode()
    # A writer that waited past budget.HOOK_WRITE_SECONDS spooled its event; the next writer stores it.
    subprocess.run([sys.executable, "-m", "skillbox", "mem", "hook", "drain"], env=_env(home), check=True)
    assert count(home, "events") == 2000
    assert count(home, "observations") == 2000
    assert rows(home, "SELECT count(DISTINCT session_id) FROM events") == [(8,)]
    log = home / "logs" / "mem-hooks.log"
    assert not log.exists() or "locked" not in log.read_text()
    assert rows(home, "PRAGMA integrity_check") == [("ok",)]


def test_kill_9_inside_a_transaction_keeps_the_database_intact(home):
    script = textwrap.dedent(
        """
        import sys, time
        from skillbox.mem.store import open_store
        from skillbox.mem.store import now_iso
        store = open_store()
        def add(n, tag):
            for i in range(n):
                sql = "INSERT INTO sessions (session_id, project, started_at) VALUES (?, 'p', ?)"
                store.conn.execute(sql, (f"{tag}{i}", now_iso()))
        store.write(lambda: add(100, "committed-"))
        store.conn.execute("BEGIN IMMEDIATE")
        add(5000, "pending-")
        print("in-transaction", flush=True)
        time.sleep(60)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script], env=_env(home), stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "in-transaction"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    assert rows(home, "PRAGMA integrity_check") == [("ok",)]
    assert rows(home, "SELECT count(*) FROM sessions WHERE session_id LIKE 'committed-%'") == [(100,)]
    assert rows(home, "SELECT count(*) FROM sessions WHERE session_id LIKE 'pending-%'") == [(0,)]
    # And the database still takes writes.
    from skillbox.mem.store import open_store

    with open_store() as store:
        store.write(
            lambda: store.conn.execute("INSERT INTO sessions (session_id, project, started_at) VALUES ('x', 'p', 't')")
        )
    assert count(home, "sessions") == 101


def test_kill_9_of_a_busy_hook_writer_loses_no_committed_event(home):
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, "0", "100000"], env=_env(home), stdout=subprocess.PIPE, text=True
    )
    last = -1
    deadline = time.time() + 60
    while last < 40 and time.time() < deadline:
        last = int(proc.stdout.readline())
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    assert rows(home, "PRAGMA integrity_check") == [("ok",)]
    stored = count(home, "events")
    assert stored >= last + 1  # everything reported as written is there
    # Every stored event is whole: its observation was written in the same transaction.
    assert count(home, "observations") == stored
