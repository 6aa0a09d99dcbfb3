"""Fixtures for running the real `bin/skillbox` on small plugin copies, without a full (slow) install."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
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


class Launcher:
    """Runs a plugin copy's launcher with a bare environment; the venv goes to tmp_path/data/venv."""

    def __init__(self, tmp_path: Path):
        self.home = tmp_path
        self.data = tmp_path / "data"
        self.venv = self.data / "venv"
        self.log = self.data / "venv.log"

    def env(self, **extra: str | None) -> dict[str, str]:
        """A bare environment; a None value removes that variable."""
        env = {"HOME": str(self.home), "PATH": python_dir(), "CLAUDE_PLUGIN_DATA": str(self.data), **extra}
        return {name: value for name, value in env.items() if value is not None}

    def run(self, root: Path, *args: str, script: str = "skillbox", **extra: str) -> subprocess.CompletedProcess:
        env = self.env(**extra)
        return subprocess.run(
            [str(root / "bin" / script), *args],
            capture_output=True, text=True, env=env, cwd=self.home, stdin=subprocess.DEVNULL, timeout=300,
        )  # fmt: skip

    def attempts(self) -> int:
        """Build attempts so far (each builder logs one `want` line)."""
        return self.log.read_text().count(": want ") if self.log.exists() else 0


@pytest.fixture
def launcher(tmp_path) -> Launcher:
    return Launcher(tmp_path)


def fake_ready_venv(venv: Path, plugin: Path) -> Path:
    """A venv the launcher accepts as ready without an install: bin/python is a Python 3.11+ and the stamp says
    what a build of `plugin` writes (plugin version + `cksum` of pyproject.toml). Good for `skillbox-python -c`."""
    (venv / "bin").mkdir(parents=True)
    python = shutil.which("python3", path=python_dir())
    (venv / "bin" / "python").symlink_to(python)
    with open(plugin / "pyproject.toml", "rb") as pyproject:
        checksum = subprocess.run(["cksum"], stdin=pyproject, capture_output=True, text=True, check=True).stdout
    version = json.loads((plugin / ".claude-plugin" / "plugin.json").read_text())["version"]
    (venv / ".skillbox-stamp").write_text(f"skillbox {version} pyproject {checksum.strip()}\n")
    (venv / ".skillbox-owned").touch()
    return venv


@pytest.fixture
def make_ready_venv():
    return fake_ready_venv


def poll(predicate, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


@pytest.fixture
def wait_for():
    """wait_for(predicate, seconds) -> bool: poll until predicate() is true or time runs out."""
    return poll
