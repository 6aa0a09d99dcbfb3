"""A hook killed at its timeout must not kill the venv build it started (else every hook would start over)."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path


def test_build_survives_the_caller_process_group_being_killed(broken_plugin, launcher, tmp_path, wait_for):
    # A `uv` that takes a while and then fails keeps the builder busy long enough to kill the caller mid-build;
    # the builder must then go on to its pip fallback and record the outcome.
    slow_uv = tmp_path / "slow-uv"
    slow_uv.mkdir()
    (slow_uv / "uv").write_text("#!/bin/sh\nsleep 3\nexit 3\n")
    (slow_uv / "uv").chmod(0o755)
    env = launcher.env(PATH=f"{slow_uv}:{launcher.env()['PATH']}")
    caller = subprocess.Popen(
        [str(broken_plugin / "bin" / "skillbox"), "mem", "hook", "post-tool-use"],
        env=env, cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, which we then kill whole, as a hook runner may
    )  # fmt: skip
    log = launcher.log
    assert wait_for(lambda: log.exists() and "using uv" in log.read_text(), 60), "the build never started"
    os.killpg(caller.pid, signal.SIGKILL)
    caller.wait()
    assert wait_for(lambda: "FAILED" in log.read_text(), 120), log.read_text()
    text = log.read_text()
    assert "uv failed (exit 3); retrying with venv + pip" in text
    assert Path(f"{launcher.venv}.failed").exists()
