"""The hook process: what one Claude Code event stores, what it prints, and that it never fails the agent."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from skillbox.cli.root import cli
from tests.mem.conftest import TOOLS, count, payload, replay_session, rows, run_hook_inprocess, run_hook_process, tool


def test_a_turn_stores_prompt_events_observations_and_summary(home, project_dir):
    replay_session(project_dir)
    assert rows(home, "SELECT project, source, model, end_reason FROM sessions") == [
        ("demo", "startup", "claude-sonnet-4-5", "other")
    ]
    assert rows(home, "SELECT prompt_number, prompt_text FROM prompts") == [(1, "Fix the login bug")]
    assert rows(home, "SELECT tool_name, ok FROM events ORDER BY id") == [
        ("Bash", 0),
        ("Read", 1),
        ("Edit", 1),
        ("Bash", 1),
    ]
    observations = rows(home, "SELECT type, title, files_modified FROM observations ORDER BY id")
    assert ("change", "Edited auth.py", '["auth.py"]') in observations
    assert ("discovery", "Read auth.py", "[]") in observations
    assert ("bugfix", "Fixed failing tests: pytest -q", '["auth.py"]') in observations
    summary = rows(home, "SELECT investigated, completed, learned, next_steps FROM summaries")
    assert summary == [
        (
            "read auth.py",
            "edited auth.py; ran pytest -q (failed); pytest -q (ok)",
            "Fixed login. Next: add logout tests.",
            "add logout tests.",
        )
    ]


def test_session_start_injects_previous_sessions_memory(home, project_dir):
    replay_session(project_dir, session="first")
    out = run_hook_inprocess("session-start", payload("session-start", "second", project_dir, source="startup"))
    data = json.loads(out)
    assert data["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    context = data["hookSpecificOutput"]["additionalContext"]
    assert "Fix the login bug" in context
    assert "Fixed failing tests: pytest -q" in context


def test_session_start_prints_nothing_without_memory(home, project_dir):
    assert run_hook_inprocess("session-start", payload("session-start", "s", project_dir)) is None


def test_fully_private_prompt_skips_the_whole_turn(home, project_dir):
    run_hook_inprocess(
        "user-prompt-submit", payload("user-prompt-submit", cwd=project_dir, prompt="<private>all of it</private>")
    )
    event, data = tool("Read", {"file_path": str(project_dir / "x.py")}, {"type": "text"}, use_id="u1", cwd=project_dir)
    run_hook_inprocess(event, data)
    run_hook_inprocess("stop", payload("stop", cwd=project_dir, last_assistant_message="done"))
    assert rows(home, "SELECT prompt_text, private FROM prompts") == [("", 1)]
    assert count(home, "events") == 0
    assert count(home, "observations") == 0
    assert count(home, "summaries") == 0
    # The next, public turn is recorded again.
    run_hook_inprocess("user-prompt-submit", payload("user-prompt-submit", cwd=project_dir, prompt="public now"))
    event, data = tool("Read", {"file_path": str(project_dir / "y.py")}, {"type": "text"}, use_id="u2", cwd=project_dir)
    run_hook_inprocess(event, data)
    assert count(home, "events") == 1


def test_stop_hook_active_records_nothing(home, project_dir):
    run_hook_inprocess("user-prompt-submit", payload("user-prompt-submit", cwd=project_dir, prompt="hi"))
    assert (
        run_hook_inprocess("stop", payload("stop", cwd=project_dir, stop_hook_active=True, last_assistant_message="x"))
        is None
    )
    assert count(home, "summaries") == 0


def test_repeated_delivery_of_one_tool_use_is_stored_once(home, project_dir):
    event, data = tool(
        "Read", {"file_path": str(project_dir / "a.py")}, {"type": "text"}, use_id="same", cwd=project_dir
    )
    run_hook_inprocess(event, data)
    run_hook_inprocess(event, data)
    assert count(home, "events") == 1
    assert count(home, "observations") == 1


def test_unknown_and_missing_fields_are_tolerated(home, project_dir):
    data = payload(
        "post-tool-use",
        cwd=project_dir,
        tool_name="mcp__github__create_issue",
        tool_input={"title": "x"},
        prompt_id="p1",
        effort={"level": "high"},
        some_future_field=[1, 2, 3],
    )
    run_hook_inprocess("post-tool-use", data)  # no tool_use_id, no tool_response
    assert rows(home, "SELECT tool_name, tool_response FROM events") == [("mcp__github__create_issue", "null")]


def test_skipped_tools_and_excluded_projects_store_nothing(home, project_dir, monkeypatch):
    event, data = tool("TodoWrite", {"todos": []}, {}, use_id="t", cwd=project_dir)
    run_hook_inprocess(event, data)
    assert count(home, "events") == 0
    monkeypatch.setenv("SKILLBOX_MEM_EXCLUDED_PROJECTS", "dem*")
    event, data = tool("Read", {"file_path": "/x"}, {}, use_id="r", cwd=project_dir)
    run_hook_inprocess(event, data)
    run_hook_inprocess("user-prompt-submit", payload("user-prompt-submit", cwd=project_dir, prompt="secret project"))
    assert count(home, "events") == 0
    assert count(home, "prompts") == 0


def test_long_tool_output_keeps_head_and_tail(home, project_dir, monkeypatch):
    monkeypatch.setenv("SKILLBOX_MEM_EVENT_MAX_CHARS", "1000")
    content = "HEAD" + "x" * 50_000 + "TAIL"
    event, data = tool(
        "Read", {"file_path": "/f"}, {"type": "text", "file": {"content": content}}, use_id="big", cwd=project_dir
    )
    run_hook_inprocess(event, data)
    stored = json.loads(rows(home, "SELECT tool_response FROM events")[0][0])["file"]["content"]
    assert stored.startswith("HEAD") and stored.endswith("TAIL")
    assert "chars elided" in stored
    assert len(stored) < 1100


def test_cli_hook_command_always_exits_zero(home, project_dir):
    result = CliRunner().invoke(cli, ["mem", "hook", "post-tool-use"], input="{not json")
    assert result.exit_code == 0
    assert result.stdout == ""
    result = CliRunner().invoke(cli, ["mem", "hook", "no-such-event"], input="{}")
    assert result.exit_code == 0
    log = (home / "logs" / "mem-hooks.log").read_text()
    assert "payload is not JSON" in log and "unknown hook event" in log


@pytest.mark.parametrize(
    "raw, message",
    [
        (b"", "empty payload"),
        (b"   \n", "empty payload"),
        (b'{"session_id": "s", "cwd": "/tmp", "tool_name": "Read"', "not JSON"),
        (b"\x00\xff\xfe binary \x89PNG\r\n", "not JSON"),
        (b"[1, 2, 3]", "JSON list, not an object"),
        (b'{"cwd": "/tmp", "tool_name": "Read", "tool_use_id": "x"}', "no session_id"),
    ],
)
def test_bad_payloads_exit_zero_log_and_store_nothing(home, raw, message):
    result = run_hook_process("post-tool-use", raw)
    assert result.returncode == 0
    assert result.stdout == b""
    assert message in (home / "logs" / "mem-hooks.log").read_text()
    if (home / "memory.db").exists():
        assert count(home, "events") == 0


def test_ten_megabyte_payloads(home, project_dir):
    # Valid but huge: stored once, trimmed, complete.
    big = json.dumps(
        payload(
            "post-tool-use",
            cwd=project_dir,
            tool_name="Read",
            tool_use_id="big",
            tool_input={"file_path": "/f"},
            tool_response={"type": "text", "file": {"content": "y" * 10_000_000}},
        )
    ).encode()
    assert len(big) > 10_000_000
    result = run_hook_process("post-tool-use", big)
    assert result.returncode == 0 and result.stdout == b""
    assert rows(home, "SELECT count(*), max(length(tool_response)) FROM events")[0][0] == 1
    assert rows(home, "SELECT max(length(tool_response)) FROM events")[0][0] < 20_000
    # Huge and cut off mid-way: nothing at all.
    result = run_hook_process("post-tool-use", big[: len(big) // 2])
    assert result.returncode == 0 and result.stdout == b""
    assert count(home, "events") == 1
    assert "not JSON" in (home / "logs" / "mem-hooks.log").read_text()


def test_stdout_is_one_json_object_or_nothing(home, project_dir):
    replay_session(project_dir, session="one")
    out = run_hook_process("session-start", payload("session-start", "two", project_dir))
    assert out.returncode == 0
    json.loads(out.stdout)  # exactly one document
    for event in ("user-prompt-submit", "stop", "session-end"):
        assert run_hook_process(event, payload(event, "two", project_dir, prompt="p")).stdout == b""


def test_disabled_hook_records_nothing(home, project_dir):
    result = run_hook_process(
        "user-prompt-submit",
        payload("user-prompt-submit", cwd=project_dir, prompt="x"),
        env={"SKILLBOX_MEM_DISABLE": "1"},
    )
    assert result.returncode == 0
    assert not (home / "memory.db").exists()


def test_broken_settings_fail_open(home, project_dir):
    (home / "settings.json").write_text("{ nope")
    result = run_hook_process("user-prompt-submit", payload("user-prompt-submit", cwd=project_dir, prompt="x"))
    assert result.returncode == 0
    assert "settings.json: not valid JSON" in (home / "logs" / "mem-hooks.log").read_text()


def test_hook_fast_path_does_not_import_click(home, project_dir):
    code = (
        "import sys, json\n"
        "from skillbox.cli import main\n"
        "sys.stdin = open(sys.argv[1])\n"
        "try:\n    main(['mem', 'hook', 'user-prompt-submit'])\n"
        "except SystemExit as e:\n    code = e.code\n"
        "slow = ('click', 'sqlite_utils', 'pathlib', 'dataclasses', 'typing', 'logging')\n"
        "heavy = [m for m in slow if m in sys.modules]\n"
        "print(json.dumps({'code': code, 'heavy': heavy}))\n"
    )
    data = home / "p.json"
    data.write_text(json.dumps(payload("user-prompt-submit", cwd=project_dir, prompt="fast")))
    out = subprocess.run(
        [sys.executable, "-c", code, str(data)],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(TOOLS)),
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {"code": 0, "heavy": []}
    assert count(home, "prompts") == 1


def test_log_rotates(home, monkeypatch):
    from skillbox.mem import logs

    monkeypatch.setattr(logs, "MAX_BYTES", 300)
    for i in range(40):
        logs.log_line(str(home), "stop", f"error number {i}")
    names = sorted(p.name for p in (home / "logs").iterdir())
    assert names == ["mem-hooks.log", "mem-hooks.log.1", "mem-hooks.log.2", "mem-hooks.log.3"]
    assert "error number 39" in (home / "logs" / "mem-hooks.log").read_text()


def test_slow_hooks_are_logged(home, project_dir, monkeypatch):
    import io

    from skillbox.mem import hook

    monkeypatch.setattr(hook, "SLOW_HOOK_SECONDS", 0.0)
    data = json.dumps(payload("user-prompt-submit", cwd=project_dir, prompt="hello")).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert hook.main(["user-prompt-submit"]) == 0
    assert "slow hook:" in (home / "logs" / "mem-hooks.log").read_text()
    assert count(home, "prompts") == 1
