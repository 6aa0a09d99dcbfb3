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


def _read(cwd, session, name, use_id):
    return tool(
        "Read",
        {"file_path": str(cwd / name)},
        {"type": "text", "file": {"filePath": str(cwd / name), "content": "x"}},
        use_id=use_id,
        session=session,
        cwd=cwd,
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
    text = _context(run_hook_inprocess(*_read(project_dir, "two", "auth.py", "two-1")))
    assert text.startswith("<skillbox-memory>") and text.endswith("</skillbox-memory>")
    assert "auth.py" in text.splitlines()[1]
    assert "Lockout counter kept per process" in text and REASON in text
    # The earlier session's reads and commands are not worth the tokens; its edit is.
    assert "Read auth.py" not in text and "Tests passed" not in text
    assert "Edited auth.py" in text
    # Once per file per session: a second read, or an edit, of the same file adds nothing.
    assert run_hook_inprocess(*_read(project_dir, "two", "auth.py", "two-2")) is None
    edit = tool(
        "Edit",
        {"file_path": str(project_dir / "auth.py"), "old_string": "a", "new_string": "b"},
        {"success": True},
        use_id="two-3",
        session="two",
        cwd=project_dir,
    )
    assert run_hook_inprocess(*edit) is None
    # A file memory knows nothing about: nothing.
    assert run_hook_inprocess(*_read(project_dir, "two", "other.py", "two-4")) is None
    # A new session hears about the file again.
    assert "Lockout counter" in _context(run_hook_inprocess(*_read(project_dir, "three", "auth.py", "three-1")))


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
    text = _context(run_hook_inprocess(*_read(project_dir, "two", "auth.py", "two-1")))
    assert len(text) / 4 <= 120
    assert text.count("\n#") <= 3
    monkeypatch.setenv("SKILLBOX_MEM_FILE_CONTEXT_MAX_TOKENS", "0")
    assert run_hook_inprocess(*_read(project_dir, "four", "auth.py", "four-1")) is None


def test_the_real_hook_process_prints_it(home, project_dir, monkeypatch):
    _remember_decision(project_dir, monkeypatch)
    event, data = _read(project_dir, "two", "auth.py", "two-1")
    proc = run_hook_process(event, data, env={"SKILLBOX_HOME": str(home)})
    assert proc.returncode == 0 and proc.stderr == b""
    assert REASON in _context(proc.stdout.decode())
