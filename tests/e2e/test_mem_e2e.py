"""Memory end to end with the real Claude Code CLI: two `claude -p` sessions, the plugin installed from the local
marketplace, the model played by a scripted Messages API on loopback (fixtures in tests/e2e/conftest.py).

Session 1 reads a file; its prompt (with a `<private>` marker), the Read tool use and the turn summary must be
in the memory database, the marker must not. Session 2's first request to the model must carry session 1's
memory in the context the SessionStart hook injected.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from tests.e2e.fake_api import Text, ToolUse

PRIVATE_MARKER = "zebracorn-4711"


def _query(db: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def _wait_for(db: Path, sql: str, timeout: float = 60) -> list[tuple]:
    """PostToolUse and Stop hooks are async: they may finish just after `claude -p` exits."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if db.exists():
            try:
                found = _query(db, sql)
            except sqlite3.OperationalError:
                found = []
            if found:
                return found
        time.sleep(0.25)
    return []


def test_two_sessions_remember_and_forget_what_they_should(plugin_home, run_session, fake_api, tmp_path):
    project = tmp_path / "ledger"
    (project / ".git").mkdir(parents=True)  # a repository root: the project is "ledger"
    note = project / "note.txt"
    note.write_text("The deploy key for the ledger service rotates every 90 days.\n")
    db = plugin_home.data_dir / "memory.db"

    fake_api.script(
        ToolUse("Read", {"file_path": str(note)}), Text("The note says the deploy key rotates every 90 days.")
    )
    first = run_session(
        f"Read note.txt and tell me what it says. <private>{PRIVATE_MARKER}</private>",
        home=plugin_home.home,
        cwd=project,
        args=("--allowedTools", "Read"),
    )
    assert first.returncode == 0, first.stderr
    assert "rotates every 90 days" in first.stdout

    summaries = _wait_for(db, "SELECT learned, files_read FROM summaries")
    assert summaries, "no turn summary was recorded"
    assert "rotates every 90 days" in summaries[0][0]
    assert json.loads(summaries[0][1]) == ["note.txt"]
    assert _query(db, "SELECT project FROM sessions") == [("ledger",)]
    prompts = _query(db, "SELECT prompt_text FROM prompts")
    assert prompts == [("Read note.txt and tell me what it says.",)]
    events = _query(db, "SELECT tool_name, tool_input FROM events")
    assert [(name, json.loads(inp)["file_path"]) for name, inp in events] == [("Read", str(note))]
    assert ("discovery", "Read note.txt") in _query(db, "SELECT type, title FROM observations")
    for path in db.parent.glob("memory.db*"):
        assert PRIVATE_MARKER.encode() not in path.read_bytes(), f"private text leaked into {path.name}"

    fake_api.requests.clear()
    fake_api.script(Text("We read note.txt last time."))
    second = run_session("What did we work on last time?", home=plugin_home.home, cwd=project)
    assert second.returncode == 0, second.stderr
    requests = fake_api.message_requests()
    main_loop = [r for r in requests if "What did we work on last time?" in json.dumps(r)]
    assert main_loop, "session 2 never asked the model"
    first_request = json.dumps(main_loop[0])
    assert '<skillbox-memory project=\\"ledger\\">' in first_request
    assert "Read note.txt" in first_request
    assert "Read note.txt and tell me what it says." in first_request  # session 1's turn summary
    assert PRIVATE_MARKER not in json.dumps(requests)
    # Session 2's own turn is recorded too (the Stop hook is synchronous, so `claude -p` exiting cannot cut it).
    assert _query(db, "SELECT count(*) FROM summaries") == [(2,)]


def test_reading_a_file_brings_back_its_decision_in_the_tool_result(fresh_plugin_home, run_session, fake_api, tmp_path):
    """PostToolUse additionalContext, as the real client forwards it: the request after the Read carries it."""
    project = tmp_path / "vault"
    (project / ".git").mkdir(parents=True)
    lockout = project / "lockout.py"
    lockout.write_text("ATTEMPTS = {}\n")
    launcher = fresh_plugin_home.install_path / "bin" / "skillbox"
    env = {
        "HOME": str(fresh_plugin_home.home),
        "PATH": "/usr/bin:/bin",
        "CLAUDE_PLUGIN_DATA": str(fresh_plugin_home.data_dir),
    }
    import subprocess

    added = subprocess.run(
        [str(launcher), "mem", "add", "--type", "decision", "--title", "Lockout attempts kept in a module dict",
         "--narrative", "one web process, so Redis is not worth it yet", "--file", "lockout.py"],
        cwd=project, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert added.returncode == 0, added.stderr

    fake_api.script(ToolUse("Read", {"file_path": str(lockout)}), Text("It keeps attempts in a dict."))
    result = run_session("Read lockout.py", home=fresh_plugin_home.home, cwd=project, args=("--allowedTools", "Read"))
    assert result.returncode == 0, result.stderr
    requests = [r for r in fake_api.message_requests() if "Read lockout.py" in json.dumps(r)]
    after_read = [r for r in requests if "tool_result" in json.dumps(r)]
    assert after_read, "the model never got the Read result"
    before_read = json.dumps(requests[0], ensure_ascii=False)
    sent = json.dumps(after_read[0], ensure_ascii=False)
    # SessionStart already listed the decision; the file note arrives only with the Read's result.
    assert "Memory about lockout.py" not in before_read
    assert "Memory about lockout.py" in sent
    note = sent[sent.index("Memory about lockout.py") :]
    assert "Lockout attempts kept in a module dict" in note and "Redis is not worth it yet" in note
