"""`bin/skillbox` when the install cannot succeed: one clear line, no half-built venv is run, no retry storm.

These run the real launcher on a copy of the plugin whose pyproject.toml is broken, so pip fails within seconds.
(The successful paths, which need a full install, are in tests/e2e/test_launcher_installed.py.)
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def python_dir() -> str:
    """A folder with a Python 3.11+ for the launcher's bare PATH."""
    system = shutil.which("python3", path="/usr/bin:/bin")
    if system and subprocess.run([system, "-c", "import sys; sys.exit(sys.version_info < (3, 11))"]).returncode == 0:
        return "/usr/bin:/bin"
    return f"/usr/bin:/bin:{Path(sys.executable).parent}"


@pytest.fixture
def broken_plugin(tmp_path) -> Path:
    root = tmp_path / "plugin"
    (root / "bin").mkdir(parents=True)
    for name in ("skillbox", "skillbox-python"):
        shutil.copy2(REPO / "bin" / name, root / "bin" / name)
    shutil.copytree(REPO / ".claude-plugin", root / ".claude-plugin")
    no_cache = shutil.ignore_patterns("__pycache__")
    shutil.copytree(REPO / "tools" / "skillbox", root / "tools" / "skillbox", ignore=no_cache)
    (root / "pyproject.toml").write_text('[project]\nname = "skillbox"\nversion = "0"\ndependencies = [\n')
    return root


@pytest.fixture
def unbuildable_plugin(broken_plugin) -> Path:
    """Fails before pip even starts (no package sources to stage): fast, for the retry-policy tests."""
    shutil.rmtree(broken_plugin / "tools")
    return broken_plugin


def run(root: Path, tmp_path: Path, *args: str, **extra: str) -> subprocess.CompletedProcess:
    env = {"HOME": str(tmp_path), "PATH": python_dir(), "CLAUDE_PLUGIN_DATA": str(tmp_path / "data"), **extra}
    return subprocess.run(
        [str(root / "bin" / "skillbox"), *args],
        capture_output=True, text=True, env=env, cwd=tmp_path, stdin=subprocess.DEVNULL, timeout=300,
    )  # fmt: skip


def attempts(tmp_path: Path) -> int:
    log = tmp_path / "data" / "venv.log"
    return log.read_text().count(": want ") if log.exists() else 0


def test_failed_install_is_one_line_and_leaves_no_runnable_venv(broken_plugin, tmp_path):
    proc = run(broken_plugin, tmp_path, "--version")
    assert proc.returncode == 1
    assert proc.stdout == ""
    last = proc.stderr.splitlines()[-1]
    assert last.startswith("skillbox: could not set up its Python environment")
    assert str(tmp_path / "data" / "venv.log") in last
    assert not (tmp_path / "data" / "venv" / ".skillbox-stamp").exists()
    assert "install failed" in (tmp_path / "data" / "venv.log").read_text()


def test_recent_failure_fails_fast_until_bootstrap_retries(unbuildable_plugin, tmp_path):
    run(unbuildable_plugin, tmp_path, "--version")
    assert attempts(tmp_path) == 1
    again = run(unbuildable_plugin, tmp_path, "mem", "hook", "post-tool-use")
    assert again.returncode == 1
    assert "failed recently" in again.stderr
    assert "skillbox --bootstrap" in again.stderr
    assert attempts(tmp_path) == 1, "a hook storm must not retry a failing install on every call"

    retry = run(unbuildable_plugin, tmp_path, "--bootstrap")
    assert retry.returncode == 1
    assert attempts(tmp_path) == 2


def test_failure_memory_expires(unbuildable_plugin, tmp_path):
    run(unbuildable_plugin, tmp_path, "--version")
    run(unbuildable_plugin, tmp_path, "--version", SKILLBOX_RETRY_SECONDS="0")
    assert attempts(tmp_path) == 2


def test_fixed_plugin_is_not_blocked_by_an_old_failure(unbuildable_plugin, tmp_path):
    """The failure record is tied to the plugin version + pyproject checksum; an update retries at once."""
    run(unbuildable_plugin, tmp_path, "--version")
    manifest_path = unbuildable_plugin / ".claude-plugin" / "plugin.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["version"] += ".post1"
    manifest_path.write_text(json.dumps(manifest))
    run(unbuildable_plugin, tmp_path, "--version")
    assert attempts(tmp_path) == 2


def test_hooks_json_warms_the_launcher_in_the_background():
    hooks = json.loads((REPO / "hooks" / "hooks.json").read_text())["hooks"]
    [group] = hooks["SessionStart"]
    [hook] = group["hooks"]
    assert hook["command"] == "${CLAUDE_PLUGIN_ROOT}/bin/skillbox"
    assert hook["args"] == ["--bootstrap", "--no-wait"]
    assert hook["async"] is True
    assert hook["timeout"] <= 30
