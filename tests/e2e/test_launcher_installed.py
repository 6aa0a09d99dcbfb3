"""The INSTALLED plugin copy's `bin/skillbox` from an empty environment: bootstrap, reuse, repair, reinstall.

Venv builds take tens of seconds, so the session builds one (`plugin_venv`, several concurrent first calls) and the
tests here reuse it; only the repair and the version-bump tests build again.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

from tests.e2e.claude_harness import REPO, LauncherEnv

PLUGIN_VERSION = json.loads((REPO / ".claude-plugin" / "plugin.json").read_text())["version"]


def package_version(root: Path) -> str:
    return re.search(r'__version__ = "([^"]+)"', (root / "tools" / "skillbox" / "__init__.py").read_text())[1]


def log_tail(env: LauncherEnv) -> str:
    return env.log.read_text()[-3000:] if env.log.exists() else "(no log)"


def dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_concurrent_first_calls_build_one_healthy_venv(plugin_venv):
    env = plugin_venv.launcher_env
    version = package_version(REPO)
    for run in plugin_venv.first_calls:
        assert run.returncode == 0, run.stderr + log_tail(env)
        # stdout carries only the command's output: build chatter goes to the log (stdout may be a hook's channel)
        assert run.stdout == f"skillbox {version}\n"
    assert env.builds() == 1, log_tail(env)
    stamp = (env.venv / ".skillbox-stamp").read_text()
    assert stamp.startswith(f"skillbox {PLUGIN_VERSION} pyproject ")
    assert "Successfully installed" in env.log.read_text()


def test_second_call_reuses_the_venv(plugin_venv, installed_plugin):
    env = plugin_venv.launcher_env
    before = (env.venv / "pyvenv.cfg").stat().st_ino
    run = env.run(installed_plugin.install_path / "bin" / "skillbox", "--version")
    assert run.returncode == 0, run.stderr
    assert run.stdout == f"skillbox {package_version(REPO)}\n"
    assert run.stderr == ""
    assert env.builds() == 1
    assert (env.venv / "pyvenv.cfg").stat().st_ino == before
    assert run.seconds < 5, f"a warm call took {run.seconds:.2f}s"


def test_bootstrap_mode_is_silent_when_ready(plugin_venv, installed_plugin):
    env = plugin_venv.launcher_env
    launcher = installed_plugin.install_path / "bin" / "skillbox"
    for args in (["--bootstrap"], ["--bootstrap", "--no-wait"]):
        run = env.run(launcher, *args)
        assert (run.returncode, run.stdout, run.stderr) == (0, "", ""), args
    run = env.run(launcher, SKILLBOX_BOOTSTRAP_ONLY="1")
    assert (run.returncode, run.stdout, run.stderr) == (0, "", "")


def test_skillbox_python_runs_the_venv_python_with_stdin_and_cwd_untouched(plugin_venv, installed_plugin, tmp_path):
    env = plugin_venv.launcher_env
    code = "import os, sys, skillbox; print(sys.prefix); print(skillbox.__file__); print(os.getcwd()); print(input())"
    proc = subprocess.run(
        [str(installed_plugin.install_path / "bin" / "skillbox-python"), "-c", code],
        input='{"hook_event_name": "PostToolUse"}\n',
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env.env(),
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    prefix, module, cwd, line = proc.stdout.splitlines()
    assert Path(prefix) == env.venv
    # non-editable: the package runs from the venv, not from the plugin folder it was installed from
    assert Path(module).is_relative_to(env.venv)
    assert Path(cwd) == tmp_path
    assert line == '{"hook_event_name": "PostToolUse"}'


def test_agent_shell_without_plugin_data_finds_the_plugin_data_folder(plugin_home):
    """The Bash tool gets no CLAUDE_PLUGIN_DATA; the launcher derives it from the install path, like Claude Code."""
    proc = subprocess.run(
        [str(plugin_home.install_path / "bin" / "skillbox-python"), "-c",
         "import os, sys; print(os.environ['CLAUDE_PLUGIN_DATA']); print(sys.prefix)"],
        capture_output=True, text=True, cwd=plugin_home.home, timeout=60,
        env={"HOME": str(plugin_home.home), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    data_dir, prefix = proc.stdout.splitlines()
    assert Path(data_dir) == plugin_home.data_dir
    assert Path(prefix) == plugin_home.data_dir / "venv"


def test_python_missing_is_one_actionable_line(installed_plugin, tmp_path):
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "cksum").symlink_to(shutil.which("cksum"))
    env = LauncherEnv(home=tmp_path, data_dir=tmp_path / "data")
    launcher = installed_plugin.install_path / "bin" / "skillbox"
    run = env.run(launcher, "--version", env={**env.env(), "PATH": str(tools)})
    assert run.returncode == 1
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr
    assert "Python 3.11" in lines[0]
    assert "SKILLBOX_PYTHON" in lines[0]
    assert not env.venv.exists()


def test_venv_with_python_deleted_is_rebuilt_past_a_stale_lock_and_a_failing_uv(
    plugin_venv, installed_plugin, tmp_path
):
    """Corrupt venv + a lock left by a dead process (portable mkdir lock, no flock) + a `uv` that cannot install:
    still exactly one rebuild, through the venv + pip fallback."""
    env = plugin_venv.launcher_env
    builds = env.builds()
    (env.venv / "bin" / "python").unlink()
    lockdir = Path(f"{env.venv}.lock.d")
    lockdir.mkdir()
    (lockdir / "pid").write_text(f"{dead_pid()}\n")
    fake_uv = tmp_path / "fake-uv"
    fake_uv.mkdir()
    (fake_uv / "uv").write_text("#!/bin/sh\necho 'fake uv: cannot reach the index' >&2\nexit 2\n")
    (fake_uv / "uv").chmod(0o755)
    path = f"{fake_uv}:{env.env()['PATH']}"
    run = env.run(
        installed_plugin.install_path / "bin" / "skillbox", "--version", env=env.env(SKILLBOX_NO_FLOCK="1", PATH=path)
    )
    assert run.returncode == 0, run.stderr + log_tail(env)
    assert run.stdout == f"skillbox {package_version(REPO)}\n"
    assert env.builds() == builds + 1
    assert "removed stale lock" in env.log.read_text()
    assert "uv failed (exit 2); retrying with venv + pip" in env.log.read_text()
    assert (env.venv / "bin" / "python").exists()
    assert not lockdir.exists()


def test_version_bump_reinstalls_once_under_concurrent_calls(plugin_venv, installed_plugin, tmp_path):
    """A plugin update (new version in plugin.json) replaces the old venv; the mkdir lock serializes the callers."""
    shared = plugin_venv.launcher_env
    plugin = tmp_path / "plugin-updated"
    shutil.copytree(installed_plugin.install_path, plugin, symlinks=True)
    bumped = f"{PLUGIN_VERSION}.post7"
    manifest = json.loads((plugin / ".claude-plugin" / "plugin.json").read_text())
    manifest["version"] = bumped
    (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps(manifest, indent=2) + "\n")
    init = plugin / "tools" / "skillbox" / "__init__.py"
    init.write_text(init.read_text().replace(f'"{package_version(REPO)}"', f'"{bumped}"'))

    env = LauncherEnv(home=shared.home, data_dir=tmp_path / "data")  # same HOME: pip's cache is warm
    env.data_dir.mkdir()
    shutil.copytree(shared.venv, env.venv, symlinks=True)  # the old version's venv, stamp included
    runs = env.run_concurrently(plugin / "bin" / "skillbox", 3, "--version", SKILLBOX_NO_FLOCK="1")
    for run in runs:
        assert run.returncode == 0, run.stderr + log_tail(env)
        assert run.stdout == f"skillbox {bumped}\n"
    assert env.builds() == 1, log_tail(env)
    assert (env.venv / ".skillbox-stamp").read_text().startswith(f"skillbox {bumped} pyproject ")
