"""Helpers for driving the real Claude Code CLI and an installed plugin's launcher; conftest.py wraps them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

CLAUDE_CODE_VERSION = "2.1.332"
REPO = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("SKILLBOX_E2E_CACHE", Path.home() / ".cache" / "skillbox-e2e"))
PLUGIN_ID = "skillbox@skillbox"


# ---- the Claude Code binary ----------------------------------------------------------------------------------


def npm_install(spec: str, target: Path, check=None) -> None:
    """npm-install `spec` into a scratch folder, run `check(scratch)` on it, then move it into place atomically
    (a concurrent run that finished first wins). Skips when npm is missing; fails when the install does."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip(f"npm is not on PATH: cannot install {spec}")
    target.parent.mkdir(parents=True, exist_ok=True)
    scratch = target.parent / f"{target.name}.tmp-{os.getpid()}"
    shutil.rmtree(scratch, ignore_errors=True)
    proc = subprocess.run(
        [npm, "install", "--prefix", str(scratch), "--no-audit", "--no-fund", "--loglevel=error", spec],
        capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    if proc.returncode != 0:
        shutil.rmtree(scratch, ignore_errors=True)
        pytest.fail(f"npm install {spec} failed:\n{proc.stderr[-3000:]}")
    if check is not None:
        check(scratch)
    try:
        scratch.rename(target)
    except OSError:  # another test run finished first; use its copy
        shutil.rmtree(scratch, ignore_errors=True)


def install_claude_code(target: Path) -> None:
    """The pinned Claude Code CLI, checked to run before it is moved into place."""
    npm_install(
        f"@anthropic-ai/claude-code@{CLAUDE_CODE_VERSION}",
        target,
        check=lambda scratch: check_claude(scratch / "node_modules" / ".bin" / "claude"),
    )


def check_claude(binary: Path) -> None:
    proc = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60)
    if proc.returncode != 0 or CLAUDE_CODE_VERSION not in proc.stdout:
        pytest.fail(f"{binary} --version gave rc {proc.returncode}: {proc.stdout!r} {proc.stderr[-1000:]!r}")


def copy_tracked_files(dest: Path) -> Path:
    """Copy the repository's git-tracked files (with their working-tree content) to dest.

    Untracked junk in a developer's tree (venvs, caches, build output) must not change what the tests see.
    """
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--cached"], cwd=REPO, capture_output=True, check=True
    ).stdout.decode()
    dest.mkdir(parents=True, exist_ok=True)
    for rel in filter(None, listing.split("\0")):
        src = REPO / rel
        if not src.is_file():  # deleted in the working tree, or a submodule
            continue
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest / rel, follow_symlinks=False)
    return dest


@dataclass
class InstalledPlugin:
    home: Path
    source: Path
    install_path: Path
    entry: dict  # this plugin's row in `claude plugin list --json`
    steps: list = field(default_factory=list)  # (command, CompletedProcess) of the install, for assertions

    @property
    def data_dir(self) -> Path:
        """Where Claude Code points CLAUDE_PLUGIN_DATA for this plugin (`<plugin>-<marketplace>`)."""
        return self.home / ".claude" / "plugins" / "data" / "skillbox-skillbox"


def install_plugin(run_claude, home: Path, source: Path) -> InstalledPlugin:
    """Add `source` as a local marketplace in HOME=home and install skillbox@skillbox from it."""
    home.mkdir(parents=True, exist_ok=True)
    steps = []
    for args in (("plugin", "marketplace", "add", str(source)), ("plugin", "install", PLUGIN_ID)):
        proc = run_claude(*args, home=home)
        steps.append((args, proc))
        assert proc.returncode == 0, f"claude {' '.join(args)} failed: {proc.stdout}\n{proc.stderr}"
    listing = run_claude("plugin", "list", "--json", home=home)
    assert listing.returncode == 0, listing.stderr
    entries = {row["id"]: row for row in json.loads(listing.stdout)}
    assert PLUGIN_ID in entries, f"{PLUGIN_ID} missing from `claude plugin list --json`: {sorted(entries)}"
    entry = entries[PLUGIN_ID]
    return InstalledPlugin(home, source, Path(entry["installPath"]), entry, steps)


# ---- the launcher's managed venv -----------------------------------------------------------------------------


def launcher_path() -> str:
    """A bare PATH like a fresh login's, plus this interpreter's folder if the system has no Python 3.11+."""
    path = "/usr/bin:/bin"
    system = shutil.which("python3", path=path)
    ok = system and subprocess.run([system, "-c", "import sys; sys.exit(sys.version_info < (3, 11))"]).returncode == 0
    return path if ok else f"{path}:{Path(sys.executable).parent}"


@dataclass
class LauncherRun:
    args: list
    returncode: int
    stdout: str
    stderr: str
    seconds: float


@dataclass
class LauncherEnv:
    """An empty environment (HOME, PATH, CLAUDE_PLUGIN_DATA only) in which to run an installed `bin/skillbox`."""

    home: Path
    data_dir: Path

    @property
    def venv(self) -> Path:
        return self.data_dir / "venv"

    @property
    def log(self) -> Path:
        return self.data_dir / "venv.log"

    def env(self, **extra: str) -> dict[str, str]:
        return {"HOME": str(self.home), "PATH": launcher_path(), "CLAUDE_PLUGIN_DATA": str(self.data_dir), **extra}

    def run(self, launcher: Path, *args: str, timeout: float = 900, env: dict | None = None, **extra) -> LauncherRun:
        started = time.monotonic()
        proc = subprocess.run(
            [str(launcher), *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=self.home,
            env=env if env is not None else self.env(**extra),
            stdin=subprocess.DEVNULL,
        )
        return LauncherRun(list(args), proc.returncode, proc.stdout, proc.stderr, time.monotonic() - started)

    def run_concurrently(self, launcher: Path, n: int, *args: str, **extra) -> list[LauncherRun]:
        results: list[LauncherRun | None] = [None] * n
        barrier = threading.Barrier(n)

        def one(i: int) -> None:
            barrier.wait()
            results[i] = self.run(launcher, *args, **extra)

        threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return results  # type: ignore[return-value]

    def builds(self) -> int:
        """How many builds the log records (the builder logs this line once per venv it creates)."""
        return self.log.read_text().count("building with ") if self.log.exists() else 0


CONCURRENT_FIRST_CALLS = 4


@dataclass
class BuiltVenv:
    launcher_env: LauncherEnv
    first_calls: list  # the concurrent first `bin/skillbox --version` calls that built it
