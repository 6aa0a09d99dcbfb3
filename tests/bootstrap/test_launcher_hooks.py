"""`skillbox mem hook EVENT` through the launcher while the venv is not ready: exit 0 at once, never wait.

Memory hooks run synchronously on every tool call; an install takes a minute. So a hook call starts the build (once)
and returns, and every failure on the way (no Python, a failed install) still exits 0, as hooks must.
"""

from __future__ import annotations

import shutil
import time

HOOK = ("mem", "hook", "post-tool-use")


def test_hook_returns_at_once_and_leaves_the_build_running(unbuildable_plugin, launcher, wait_for):
    started = time.monotonic()
    proc = launcher.run(unbuildable_plugin, *HOOK)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    assert time.monotonic() - started < 10
    assert wait_for(lambda: launcher.log.exists() and "FAILED" in launcher.log.read_text(), 60)
    assert launcher.attempts() == 1


def test_hook_after_a_failed_build_exits_0_without_retrying(unbuildable_plugin, launcher):
    assert launcher.run(unbuildable_plugin, "--version").returncode == 1
    proc = launcher.run(unbuildable_plugin, *HOOK)
    assert proc.returncode == 0
    assert proc.stdout == ""
    assert "failed recently" in proc.stderr
    assert launcher.attempts() == 1


def test_hook_without_python_exits_0_with_the_one_line(unbuildable_plugin, launcher, tmp_path):
    tools = tmp_path / "tools-only"
    tools.mkdir()
    (tools / "cksum").symlink_to(shutil.which("cksum"))
    proc = launcher.run(unbuildable_plugin, *HOOK, PATH=str(tools))
    assert proc.returncode == 0
    assert proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and "Python 3.11" in proc.stderr


def test_hooks_during_a_build_start_no_second_builder(broken_plugin, launcher, tmp_path, wait_for):
    slow_uv = tmp_path / "slow-uv"
    slow_uv.mkdir()
    (slow_uv / "uv").write_text("#!/bin/sh\nsleep 3\nexit 3\n")
    (slow_uv / "uv").chmod(0o755)
    path = f"{slow_uv}:{launcher.env()['PATH']}"
    assert launcher.run(broken_plugin, "--bootstrap", "--no-wait", PATH=path).returncode == 0
    assert wait_for(lambda: launcher.log.exists() and "using uv" in launcher.log.read_text(), 60)
    for _ in range(3):
        proc = launcher.run(broken_plugin, *HOOK, PATH=path)
        assert (proc.returncode, proc.stdout) == (0, "")
    assert wait_for(lambda: "FAILED" in launcher.log.read_text(), 120), launcher.log.read_text()
    time.sleep(1)
    assert launcher.attempts() == 1, launcher.log.read_text()
