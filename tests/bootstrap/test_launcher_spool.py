"""The launcher before Python exists: hook events are spooled, and SessionStart hands the data folder to the
agent's shell (CLAUDE_ENV_FILE) and to later processes (the ~/.skillbox/plugin-data pointer)."""

from __future__ import annotations

import json
import subprocess
import time

HOOK = ("mem", "hook", "post-tool-use")
PAYLOAD = {"session_id": "s1", "cwd": "/tmp", "hook_event_name": "PostToolUse", "tool_name": "Read"}


def run_with_stdin(launcher, root, *args, data: bytes, **extra) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(root / "bin" / "skillbox"), *args],
        input=data, capture_output=True, env=launcher.env(**extra), cwd=launcher.home, timeout=120,
    )  # fmt: skip


def spooled(folder):
    spool = folder / "spool"
    return sorted(p for p in spool.iterdir() if not p.name.startswith(".")) if spool.is_dir() else []


def test_hook_events_are_spooled_while_there_is_no_venv(unbuildable_plugin, launcher):
    data = json.dumps(PAYLOAD).encode() + b"\n"
    started = time.monotonic()
    first = run_with_stdin(launcher, unbuildable_plugin, *HOOK, data=data)
    assert (first.returncode, first.stdout) == (0, b"")
    assert time.monotonic() - started < 10
    # Even after the build failed (the launcher then refuses to retry for a while), events are kept.
    second = run_with_stdin(launcher, unbuildable_plugin, "mem", "hook", "stop", data=b'{"session_id": "s1"}')
    assert second.returncode == 0
    files = spooled(launcher.data)
    assert [p.name.split(".", 1)[1] for p in files] == ["post-tool-use.json", "stop.json"]
    assert files[0].read_bytes() == data  # byte for byte, as Claude Code sent it
    stamp, pid = files[0].name.split(".")[0].split("-")
    assert stamp.isdigit() and len(stamp) == 19 and pid.isdigit()  # nanoseconds: the order events happened in


def test_skillbox_home_decides_where_the_spool_goes(unbuildable_plugin, launcher, tmp_path):
    run_with_stdin(launcher, unbuildable_plugin, *HOOK, data=b"{}", SKILLBOX_HOME=str(tmp_path / "mine"))
    assert len(spooled(tmp_path / "mine")) == 1 and spooled(launcher.data) == []


def test_session_start_exports_the_data_folder_before_any_venv_exists(unbuildable_plugin, launcher, tmp_path):
    env_file = tmp_path / "session-env" / "abc" / "hook-0.sh"
    env_file.parent.mkdir(parents=True)
    proc = run_with_stdin(
        launcher, unbuildable_plugin, "mem", "hook", "session-start", data=b"{}", CLAUDE_ENV_FILE=str(env_file)
    )
    assert proc.returncode == 0 and proc.stdout == b""
    assert env_file.read_text() == f"export SKILLBOX_PLUGIN_DATA='{launcher.data}'\n"
    pointer = launcher.home / ".skillbox" / "plugin-data"
    assert pointer.read_text() == f"{launcher.data}\n"
    # What the agent's Bash tool then runs: the env file, then a command that sees the folder.
    shown = subprocess.run(
        ["sh", "-c", f". '{env_file}' && printf %s \"$SKILLBOX_PLUGIN_DATA\""], capture_output=True, text=True
    )
    assert shown.stdout == str(launcher.data)


def test_agent_shell_finds_the_hooks_folder_through_the_export_or_the_pointer(
    unbuildable_plugin, launcher, tmp_path, make_ready_venv
):
    """A plugin read from a local marketplace folder: its path says nothing about the data folder."""
    data = tmp_path / "claude" / "plugins" / "data" / "skillbox-skillbox"
    make_ready_venv(data / "venv", unbuildable_plugin)
    code = "import os, sys; print(os.environ['CLAUDE_PLUGIN_DATA']); print(sys.prefix)"
    exported = launcher.run(
        unbuildable_plugin,
        "-c",
        code,
        script="skillbox-python",
        CLAUDE_PLUGIN_DATA=None,
        SKILLBOX_PLUGIN_DATA=str(data),
    )
    assert exported.returncode == 0, exported.stderr
    assert exported.stdout.splitlines()[0] == str(data)
    (launcher.home / ".skillbox").mkdir()
    (launcher.home / ".skillbox" / "plugin-data").write_text(f"{data}\n")
    pointed = launcher.run(unbuildable_plugin, "-c", code, script="skillbox-python", CLAUDE_PLUGIN_DATA=None)
    assert pointed.returncode == 0, pointed.stderr
    assert pointed.stdout.splitlines()[0] == str(data)
    # A pointer to a folder that no longer exists (plugin uninstalled) is ignored.
    (launcher.home / ".skillbox" / "plugin-data").write_text(f"{tmp_path / 'gone'}\n")
    gone = launcher.run(unbuildable_plugin, "--version", CLAUDE_PLUGIN_DATA=None)
    assert (launcher.home / ".skillbox" / "venv.log").exists() and gone.returncode == 1


def _recording_venv(venv, plugin, make_ready_venv, marker):
    """A ready venv whose python only records that it was started."""
    make_ready_venv(venv, plugin)
    python = venv / "bin" / "python"
    python.unlink()
    python.write_text(f"#!/bin/sh\necho \"$@\" >> '{marker}'\ncat >/dev/null\n")
    python.chmod(0o755)


def test_per_call_hooks_never_start_python_and_the_others_do(unbuildable_plugin, launcher, make_ready_venv, tmp_path):
    marker = tmp_path / "python-started"
    _recording_venv(launcher.venv, unbuildable_plugin, make_ready_venv, marker)
    for event in ("user-prompt-submit", "post-tool-use", "post-tool-use-failure"):
        proc = run_with_stdin(launcher, unbuildable_plugin, "mem", "hook", event, data=b'{"session_id": "s"}')
        assert (proc.returncode, proc.stdout) == (0, b"")
    assert not marker.exists()
    assert len(spooled(launcher.data)) == 3
    run_with_stdin(launcher, unbuildable_plugin, "mem", "hook", "stop", data=b'{"session_id": "s"}')
    assert "mem hook stop" in marker.read_text()  # Stop runs Python, which stores the spool first
    direct = run_with_stdin(launcher, unbuildable_plugin, *HOOK, data=b'{"session_id": "s"}', SKILLBOX_HOOK_DIRECT="1")
    assert direct.returncode == 0 and "mem hook post-tool-use" in marker.read_text()
    assert len(spooled(launcher.data)) == 3


def test_disabled_memory_spools_nothing(unbuildable_plugin, launcher):
    proc = run_with_stdin(launcher, unbuildable_plugin, *HOOK, data=b"{}", SKILLBOX_MEM_DISABLE="1")
    assert proc.returncode == 0 and spooled(launcher.data) == []
