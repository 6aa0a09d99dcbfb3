"""Shared fixtures for memory tests: a throwaway SKILLBOX_HOME, payload builders, hook runners.

Everything runs against real SQLite files; subprocess helpers run the real `python -m skillbox mem hook` process.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TOOLS = REPO / "tools"


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """An empty SKILLBOX_HOME with no inherited memory settings."""
    home = tmp_path / "home"
    home.mkdir()
    for name in list(os.environ):
        if name.startswith("SKILLBOX_MEM_") or name in ("CLAUDE_PLUGIN_DATA", "CLAUDE_CODE_SESSION_ID"):
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SKILLBOX_HOME", str(home))
    # The background pruner after SessionEnd would outlive the test; test_maintenance turns it back on.
    monkeypatch.setenv("SKILLBOX_MEM_AUTO_PRUNE", "0")
    return home


@pytest.fixture
def project_dir(tmp_path) -> Path:
    """A folder that looks like a git repository (project name `demo`)."""
    root = tmp_path / "demo"
    (root / ".git").mkdir(parents=True)
    return root


def insert_old_observation(conn, title: str, *, project: str, session_id: str | None = None) -> int:
    """An observation row as schemas v1 and v2 stored it (no `context` column), for migration tests."""
    cursor = conn.execute(
        "INSERT INTO observations (session_id, project, type, title, content_hash, created_at) "
        "VALUES (?, ?, 'change', ?, ?, ?)",
        (session_id, project, title, f"old-{session_id}-{title}", "2026-11-01T10:00:00.000Z"),
    )
    return cursor.lastrowid


def payload(event: str, session: str = "sess-1", cwd: Path | str | None = None, **fields) -> dict:
    hook_names = {
        "session-start": "SessionStart",
        "user-prompt-submit": "UserPromptSubmit",
        "post-tool-use": "PostToolUse",
        "post-tool-use-failure": "PostToolUseFailure",
        "stop": "Stop",
        "session-end": "SessionEnd",
    }
    data = {
        "session_id": session,
        "transcript_path": f"/tmp/{session}.jsonl",
        "cwd": str(cwd) if cwd is not None else "/tmp",
        "hook_event_name": hook_names[event],
    }
    data.update(fields)
    return data


def tool(name: str, tool_input: dict, response=None, *, use_id: str, session="sess-1", cwd=None, failed=False, **kw):
    event = "post-tool-use-failure" if failed else "post-tool-use"
    fields = {"tool_name": name, "tool_input": tool_input, "tool_use_id": use_id, **kw}
    if response is not None:
        fields["tool_response"] = response
    return event, payload(event, session, cwd, **fields)


def run_hook_inprocess(event: str, data: dict | bytes | str) -> str | None:
    """The hook's real code path (parse, settings, store, capture) without the process start-up."""
    from skillbox.mem.hook import run

    raw = data if isinstance(data, bytes) else (data if isinstance(data, str) else json.dumps(data)).encode()
    return run(event, raw)


def run_hook_process(event: str, data: dict | bytes, env: dict | None = None, timeout: float = 60):
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    full_env = dict(os.environ, PYTHONPATH=str(TOOLS), **(env or {}))
    return subprocess.run(
        [sys.executable, "-m", "skillbox", "mem", "hook", event],
        input=raw,
        capture_output=True,
        env=full_env,
        timeout=timeout,
    )


def rows(home: Path, sql: str, params=()) -> list[tuple]:
    conn = sqlite3.connect(home / "memory.db")
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def count(home: Path, table: str) -> int:
    return rows(home, f"SELECT count(*) FROM {table}")[0][0]


def replay_session(cwd: Path, session: str = "sess-1", prompt: str = "Fix the login bug") -> None:
    """A small realistic turn: prompt, failing test, read, edit, passing test, stop, end."""
    events = [
        ("session-start", payload("session-start", session, cwd, source="startup", model="claude-sonnet-4-5")),
        ("user-prompt-submit", payload("user-prompt-submit", session, cwd, prompt=prompt)),
        tool(
            "Bash",
            {"command": "pytest -q", "description": "Run tests"},
            use_id=f"{session}-t1",
            session=session,
            cwd=cwd,
            failed=True,
            error="Command exited with non-zero status code 1",
        ),
        tool(
            "Read",
            {"file_path": str(cwd / "auth.py")},
            {"type": "text", "file": {"filePath": str(cwd / "auth.py"), "content": "def login(): pass"}},
            use_id=f"{session}-t2",
            session=session,
            cwd=cwd,
        ),
        tool(
            "Edit",
            {
                "file_path": str(cwd / "auth.py"),
                "old_string": "def login(): pass",
                "new_string": "def login(u):\n  return u",
            },
            {"filePath": str(cwd / "auth.py"), "success": True},
            use_id=f"{session}-t3",
            session=session,
            cwd=cwd,
        ),
        tool(
            "Bash",
            {"command": "pytest -q"},
            {"stdout": "3 passed in 0.10s", "stderr": "", "interrupted": False},
            use_id=f"{session}-t4",
            session=session,
            cwd=cwd,
        ),
        (
            "stop",
            payload(
                "stop",
                session,
                cwd,
                stop_hook_active=False,
                last_assistant_message="Fixed login. Next: add logout tests.",
            ),
        ),
        ("session-end", payload("session-end", session, cwd, reason="other")),
    ]
    for event, data in events:
        run_hook_inprocess(event, data)
