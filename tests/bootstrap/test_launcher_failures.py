"""`bin/skillbox` when the install cannot succeed: one clear line, no half-built venv is run, no retry storm.

These run the real launcher on a copy of the plugin whose pyproject.toml is broken, so pip fails within seconds.
(The successful paths, which need a full install, are in tests/e2e/test_launcher_installed.py.)
"""

from __future__ import annotations

import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_failed_install_is_one_line_and_leaves_no_runnable_venv(broken_plugin, launcher):
    proc = launcher.run(broken_plugin, "--version")
    assert proc.returncode == 1
    assert proc.stdout == ""
    last = proc.stderr.splitlines()[-1]
    assert last.startswith("skillbox: could not set up its Python environment")
    assert str(launcher.log) in last
    assert not (launcher.venv / ".skillbox-stamp").exists()
    assert "install failed" in launcher.log.read_text()


def test_recent_failure_fails_fast_until_bootstrap_retries(unbuildable_plugin, launcher):
    launcher.run(unbuildable_plugin, "--version")
    assert launcher.attempts() == 1
    again = launcher.run(unbuildable_plugin, "graph", "build", ".")
    assert again.returncode == 1
    assert "failed recently" in again.stderr
    assert "skillbox --bootstrap" in again.stderr
    assert launcher.attempts() == 1, "a call storm must not retry a failing install on every call"

    retry = launcher.run(unbuildable_plugin, "--bootstrap")
    assert retry.returncode == 1
    assert launcher.attempts() == 2


def test_failure_memory_expires(unbuildable_plugin, launcher):
    launcher.run(unbuildable_plugin, "--version")
    launcher.run(unbuildable_plugin, "--version", SKILLBOX_RETRY_SECONDS="0")
    assert launcher.attempts() == 2


def test_fixed_plugin_is_not_blocked_by_an_old_failure(unbuildable_plugin, launcher):
    """The failure record is tied to the plugin version + pyproject checksum; an update retries at once."""
    launcher.run(unbuildable_plugin, "--version")
    manifest_path = unbuildable_plugin / ".claude-plugin" / "plugin.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["version"] += ".post1"
    manifest_path.write_text(json.dumps(manifest))
    launcher.run(unbuildable_plugin, "--version")
    assert launcher.attempts() == 2


def test_hooks_json_warms_the_launcher_in_the_background():
    hooks = json.loads((REPO / "hooks" / "hooks.json").read_text())["hooks"]
    warm = [
        hook
        for group in hooks["SessionStart"]
        for hook in group["hooks"]
        if hook.get("args", [])[:1] == ["--bootstrap"]
    ]
    assert len(warm) == 1, hooks["SessionStart"]
    [hook] = warm
    assert hook["command"] == "${CLAUDE_PLUGIN_ROOT}/bin/skillbox"
    assert hook["args"] == ["--bootstrap", "--no-wait"]
    assert hook["async"] is True
    assert hook["timeout"] <= 30
