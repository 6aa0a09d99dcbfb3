"""The opt-in observer with the real Claude Code CLI: SessionEnd starts it detached, the (fake) model's typed
observations are stored with origin `observer`, the request carries no private text and no tools, and the daily
token cap stops the next run. The model is the scripted loopback Messages API of tests/e2e/fake_api.py.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from tests.e2e.fake_api import Text
from tests.mem.conftest import payload, run_hook_inprocess, tool

SECRET = "hunter2-zebracorn"
ANSWER = {
    "observations": [
        {
            "type": "decision",
            "title": "Lockout counter kept in an in-memory dict",
            "why": "The app runs as one process, so Redis is not worth it yet.",
            "files": ["auth.py"],
        },
        {"type": "gotcha", "title": "pytest -q hides the lockout warning", "why": "use -W error", "files": []},
        {"type": "banana", "title": "not a type the observer may write"},
    ]
}


def _session(cwd: Path, session: str) -> None:
    run_hook_inprocess("session-start", payload("session-start", session, cwd))
    prompt = f"Fix the lockout bug in auth.py <private>my password is {SECRET}</private>"
    run_hook_inprocess("user-prompt-submit", payload("user-prompt-submit", session, cwd, prompt=prompt))
    run_hook_inprocess(*tool("Read", {"file_path": str(cwd / "auth.py")}, {}, use_id=f"{session}-1", session=session,
                             cwd=cwd))  # fmt: skip
    run_hook_inprocess(
        "stop", payload("stop", session, cwd, stop_hook_active=False, last_assistant_message="Fixed: dict per process")
    )


def _rows(db: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def _wait_for_log(home: Path, count: int, timeout: float = 120) -> list[str]:
    log = home / "logs" / "mem-hooks.log"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = [line for line in log.read_text().splitlines() if " observer: " in line] if log.exists() else []
        if len(lines) >= count:
            return lines
        time.sleep(0.25)
    raise AssertionError(f"no observer log line after {timeout} s: {log.read_text() if log.exists() else 'no log'}")


def test_observer_runs_at_session_end_and_the_cap_stops_the_next_run(
    claude_bin, claude_env, fake_api, tmp_path, monkeypatch
):
    from skillbox.mem import observer
    from skillbox.mem.settings import load_settings
    from skillbox.mem.store import open_store

    home = tmp_path / "skillbox"
    project = tmp_path / "shop"
    (project / ".git").mkdir(parents=True)
    user_home = tmp_path / "user"
    user_home.mkdir()
    for name, value in claude_env(user_home).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("SKILLBOX_HOME", str(home))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-fake")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_api.url)
    monkeypatch.setenv("SKILLBOX_MEM_AUTO_PRUNE", "0")
    monkeypatch.setenv("SKILLBOX_MEM_OBSERVER_COMMAND", json.dumps([str(claude_bin)]))
    monkeypatch.delenv("SKILLBOX_MEM_DISABLE", raising=False)

    _session(project, "one")
    _session(project, "two")
    with open_store() as store:
        settings = load_settings()
        needed = (len(observer.PROMPT + observer.digest_text(store, "one", settings.observer_digest_chars)) + 3) // 4
    # Room for exactly one run: its estimate fits, the next one's does not once the first run's tokens are counted.
    monkeypatch.setenv("SKILLBOX_MEM_OBSERVER_DAILY_TOKENS", str(needed + observer.OUTPUT_ALLOWANCE + 40))
    monkeypatch.setenv("SKILLBOX_MEM_OBSERVER", "1")
    fake_api.script(Text(json.dumps(ANSWER)), Text(json.dumps(ANSWER)))

    started = time.monotonic()
    run_hook_inprocess("session-end", payload("session-end", "one", project, reason="other"))
    assert time.monotonic() - started < 3.0  # the hook only starts the observer
    first = _wait_for_log(home, 1)[-1]
    assert "session one: 2 observations" in first and "tokens" in first

    db = home / "memory.db"
    stored = _rows(
        db, "SELECT type, title, narrative, origin, files_modified FROM observations WHERE origin = 'observer'"
    )
    assert sorted(r[0] for r in stored) == ["decision", "gotcha"]
    decision = next(r for r in stored if r[0] == "decision")
    assert "Redis is not worth it" in decision[2] and json.loads(decision[4]) == ["auth.py"]

    requests = fake_api.message_requests()
    assert requests, "the observer never reached the model"
    sent = json.dumps(requests, ensure_ascii=False)
    assert "Fix the lockout bug" in sent  # the digest went to the model ...
    assert SECRET not in sent and "<private>" not in sent  # ... without the private text
    assert all(not r.get("tools") for r in requests)  # no tools for the observer
    assert all("haiku" in str(r.get("model")) for r in requests)
    assert all(observer.SYSTEM_PROMPT in json.dumps(r.get("system")) for r in requests)

    run_hook_inprocess("session-end", payload("session-end", "two", project, reason="other"))
    second = _wait_for_log(home, 2)[-1]
    assert "session two: skipped, daily token cap" in second
    assert len(fake_api.message_requests()) == len(requests)  # the capped run never called the model
    status = observer.status(open_store(), load_settings())
    assert status["enabled"] and 0 < status["tokens_today"] <= status["daily_token_cap"]
