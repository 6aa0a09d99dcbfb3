"""Earlier memory about a file comes back with the tool result when the agent reads or edits it, once a session."""

from __future__ import annotations

import json

from click.testing import CliRunner

from skillbox.cli.root import cli
from tests.mem.conftest import payload, replay_session, run_hook_inprocess, run_hook_process, tool

REASON = "in-memory dict, not Redis, because the app runs as one process"


def _context(out):
    if not out:
        return None
    data = json.loads(out)
    assert data["hookSpecificOutput"]["hookEventName"] == "PostToolUse"
    return data["hookSpecificOutput"]["additionalContext"]


def _both(event_and_payload):
    """What Claude Code does after a file tool call: the capture hook and the file-context hook, same payload."""
    event, data = event_and_payload
    assert run_hook_inprocess(event, data) is None
    return run_hook_inprocess("file-context", data)


def _read(cwd, session, name, use_id):
    return _both(
        tool(
            "Read",
            {"file_path": str(cwd / name)},
            {"type": "text", "file": {"filePath": str(cwd / name), "content": "x"}},
            use_id=use_id,
            session=session,
            cwd=cwd,
        )
    )


def _remember_decision(project_dir, monkeypatch):
    replay_session(project_dir, session="one")  # reads and edits auth.py: trail only
    monkeypatch.chdir(project_dir)
    result = CliRunner().invoke(
        cli,
        [
            "mem",
            "add",
            "--type",
            "decision",
            "--title",
            "Lockout counter kept per process",
            "--narrative",
            REASON,
            "--file",
            "auth.py",
        ],
    )
    assert result.exit_code == 0, result.output


def test_first_read_of_a_file_brings_its_decision_then_nothing(home, project_dir, monkeypatch):
    _remember_decision(project_dir, monkeypatch)
    run_hook_inprocess("session-start", payload("session-start", "two", project_dir))
    text = _context(_read(project_dir, "two", "auth.py", "two-1"))
    assert text.startswith("<skillbox-memory>") and text.endswith("</skillbox-memory>")
    assert "auth.py" in text.splitlines()[1]
    assert "Lockout counter kept per process" in text and REASON in text
    # The earlier session's reads and commands are not worth the tokens; its edit is.
    assert "Read auth.py" not in text and "Tests passed" not in text
    assert "Edited auth.py" in text
    # Once per file per session: a second read, or an edit, of the same file adds nothing.
    assert _read(project_dir, "two", "auth.py", "two-2") is None
    edit = tool(
        "Edit",
        {"file_path": str(project_dir / "auth.py"), "old_string": "a", "new_string": "b"},
        {"success": True},
        use_id="two-3",
        session="two",
        cwd=project_dir,
    )
    assert _both(edit) is None
    # A file memory knows nothing about: nothing.
    assert _read(project_dir, "two", "other.py", "two-4") is None
    # A new session hears about the file again.
    assert "Lockout counter" in _context(_read(project_dir, "three", "auth.py", "three-1"))


def test_the_budget_caps_what_comes_back(home, project_dir, monkeypatch):
    _remember_decision(project_dir, monkeypatch)
    for i in range(6):
        CliRunner().invoke(
            cli,
            [
                "mem",
                "add",
                "--type",
                "bugfix",
                "--title",
                f"Fix {i} in auth",
                "--narrative",
                "x" * 300,
                "--file",
                "auth.py",
            ],
        )
    monkeypatch.setenv("SKILLBOX_MEM_FILE_CONTEXT_MAX_TOKENS", "120")
    text = _context(_read(project_dir, "two", "auth.py", "two-1"))
    assert len(text) / 4 <= 120
    assert text.count("\n#") <= 3
    monkeypatch.setenv("SKILLBOX_MEM_FILE_CONTEXT_MAX_TOKENS", "0")
    assert _read(project_dir, "four", "auth.py", "four-1") is None


def test_the_real_hook_process_prints_it(home, project_dir, monkeypatch):
    _remember_decision(project_dir, monkeypatch)
    _event, data = tool("Read", {"file_path": str(project_dir / "auth.py")}, {}, use_id="t", session="two",
                        cwd=project_dir)  # fmt: skip
    proc = run_hook_process("file-context", data, env={"SKILLBOX_HOME": str(home)})
    assert proc.returncode == 0 and proc.stderr == b""
    assert REASON in _context(proc.stdout.decode())


def test_a_session_without_a_stored_event_still_hears_once(home, project_dir, monkeypatch):
    """The capture hook may spool the event (or run after): file-context does not depend on it."""
    _remember_decision(project_dir, monkeypatch)
    _event, data = tool("Read", {"file_path": str(project_dir / "auth.py")}, {}, use_id="x1", session="five",
                        cwd=project_dir)  # fmt: skip
    assert "Lockout counter" in _context(run_hook_inprocess("file-context", data))
    assert run_hook_inprocess("file-context", dict(data, tool_use_id="x2")) is None
    grep = dict(data, tool_name="Grep", tool_input={"pattern": "auth"})
    assert run_hook_inprocess("file-context", grep) is None
