"""A real `claude -p` session with the plugin installed: the SessionStart hook warms the launcher's venv.

The hook returns at once (`--bootstrap --no-wait`); the build runs detached, so it survives the session ending.
The memory hooks of that first session find no venv: they spool their events, and the builder stores them once
the venv is ready, so the very first session after install is in memory.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import time

from tests.e2e.claude_harness import install_plugin
from tests.e2e.fake_api import Text, ToolUse


def test_session_start_hook_builds_the_venv_in_the_background(
    run_claude, run_session, fake_api, plugin_source, tmp_path
):
    plugin = install_plugin(run_claude, tmp_path / "home", plugin_source)
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / "note.txt").write_text("first-session-marker\n")

    started = time.monotonic()
    fake_api.script(ToolUse("Read", {"file_path": str(project / "note.txt")}), Text("Done."))
    session = run_session("say hi and read note.txt", home=plugin.home, cwd=project, args=("--allowedTools", "Read"))
    session_seconds = time.monotonic() - started
    assert session.returncode == 0, session.stderr
    assert "Done." in session.stdout
    assert fake_api.message_requests(), "the session never reached the (fake) model"
    # the hook prints nothing the model could see (stdout of a SessionStart hook would become context)
    assert "Python environment" not in json.dumps(fake_api.message_requests())
    assert session_seconds < 30, "the session waited for the venv build instead of leaving it in the background"

    venv = plugin.data_dir / "venv"
    log = plugin.data_dir / "venv.log"
    deadline = time.monotonic() + 600
    while not (venv / ".skillbox-stamp").exists() and time.monotonic() < deadline:
        time.sleep(1)
    assert (venv / ".skillbox-stamp").exists(), log.read_text()[-3000:] if log.exists() else "no log written"
    version = subprocess.run(
        [str(venv / "bin" / "python"), "-P", "-m", "skillbox", "--version"], capture_output=True, text=True
    )
    assert version.returncode == 0 and version.stdout.startswith("skillbox "), version.stderr

    # The first session's hooks ran before any venv existed; the builder drained their spool into memory.
    db = plugin.data_dir / "memory.db"
    spool = plugin.data_dir / "spool"
    while time.monotonic() < deadline and (not db.exists() or any(p.suffix == ".json" for p in spool.glob("*"))):
        time.sleep(1)
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        prompts = conn.execute("SELECT prompt_text FROM prompts").fetchall()
        events = conn.execute("SELECT tool_name FROM events").fetchall()
        summaries = conn.execute("SELECT count(*) FROM summaries").fetchone()[0]
        ended = conn.execute("SELECT count(*) FROM sessions WHERE ended_at IS NOT NULL").fetchone()[0]
    finally:
        conn.close()
    assert prompts == [("say hi and read note.txt",)], log.read_text()[-2000:]
    assert events == [("Read",)] and summaries == 1 and ended == 1


def test_fresh_plugin_home_runs_a_warm_session_with_a_tool_call(run_session, fake_api, fresh_plugin_home, tmp_path):
    """The harness other areas build on: a session that reads a file, with the plugin's hooks ready at once."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "note.txt").write_text("the answer is 42\n")
    fake_api.script(ToolUse("Read", {"file_path": str(project / "note.txt")}), Text("It says 42."))
    session = run_session("read note.txt", home=fresh_plugin_home.home, cwd=project, args=("--allowedTools", "Read"))
    assert session.returncode == 0, session.stderr
    assert "It says 42." in session.stdout
    # the tool result went back to the model in the second request
    assert "the answer is 42" in json.dumps(fake_api.message_requests()[-1]["messages"])
    # warm: no build was started by the SessionStart hook
    assert not (fresh_plugin_home.data_dir / "venv.log").exists()
