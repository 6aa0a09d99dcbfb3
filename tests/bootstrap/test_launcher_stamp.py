"""When `bin/skillbox` trusts its venv and when it rebuilds: the stamp (plugin version + pyproject.toml checksum).

The venvs here are stand-ins the launcher accepts as built (`fake_ready_venv` in conftest.py) on a plugin copy
that cannot build, so "rebuilt" shows up as a logged build attempt without minutes of pip; real builds are in
tests/e2e.
"""

from __future__ import annotations

import json
import os
import time

import pytest

RAN = "ran from the venv"


@pytest.fixture
def venv(unbuildable_plugin, launcher, make_ready_venv):
    venv = make_ready_venv(launcher.venv, unbuildable_plugin)
    past = time.time() - 3600  # built an hour ago, after the plugin files were written
    os.utime(unbuildable_plugin / "pyproject.toml", (past - 60, past - 60))
    os.utime(venv / ".skillbox-stamp", (past, past))
    return venv


def run_python(launcher, plugin, **extra):
    return launcher.run(plugin, "-c", f"print({RAN!r})", script="skillbox-python", **extra)


def test_ready_venv_runs_without_building(unbuildable_plugin, launcher, venv):
    proc = run_python(launcher, unbuildable_plugin)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, f"{RAN}\n", "")
    assert launcher.attempts() == 0


def test_bootstrap_on_a_ready_venv_is_silent(unbuildable_plugin, launcher, venv):
    for args in (["--bootstrap"], ["--bootstrap", "--no-wait"]):
        proc = launcher.run(unbuildable_plugin, *args)
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    assert launcher.attempts() == 0


def test_pyproject_touched_but_unchanged_runs_and_refreshes_the_stamp(unbuildable_plugin, launcher, venv):
    os.utime(unbuildable_plugin / "pyproject.toml")  # e.g. a git checkout: new time, same content
    stamp_before = (venv / ".skillbox-stamp").stat().st_mtime
    assert run_python(launcher, unbuildable_plugin).stdout == f"{RAN}\n"
    assert launcher.attempts() == 0
    assert (venv / ".skillbox-stamp").stat().st_mtime > stamp_before


def test_pyproject_changed_with_the_same_version_rebuilds(unbuildable_plugin, launcher, venv):
    pyproject = unbuildable_plugin / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "# a new dependency\n")
    proc = run_python(launcher, unbuildable_plugin)
    assert proc.returncode == 1
    assert RAN not in proc.stdout
    assert launcher.attempts() == 1


def test_plugin_version_change_rebuilds(unbuildable_plugin, launcher, venv):
    manifest_path = unbuildable_plugin / ".claude-plugin" / "plugin.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["version"] = "99.0.0"
    manifest_path.write_text(json.dumps(manifest, indent=2))
    assert run_python(launcher, unbuildable_plugin).returncode == 1
    assert launcher.attempts() == 1


@pytest.mark.parametrize("damage", ["garbage stamp", "no stamp", "python deleted"])
def test_damaged_venv_is_never_run_and_is_removed(unbuildable_plugin, launcher, venv, damage):
    if damage == "garbage stamp":
        (venv / ".skillbox-stamp").write_text("skillbox ???\n")
    elif damage == "no stamp":
        (venv / ".skillbox-stamp").unlink()
    else:
        (venv / "bin" / "python").unlink()
    proc = run_python(launcher, unbuildable_plugin)
    assert proc.returncode == 1
    assert RAN not in proc.stdout
    assert launcher.attempts() == 1
    assert not (venv / "bin").exists(), "a half-built or damaged venv is rebuilt from scratch, not patched"


def test_agent_shell_without_plugin_data_uses_the_plugin_data_folder(
    unbuildable_plugin, tmp_path, launcher, make_ready_venv
):
    """The Bash tool gets no CLAUDE_PLUGIN_DATA: an install under <claude>/plugins/cache/<market>/<plugin>/<version>
    derives <claude>/plugins/data/<plugin>-<market>, as Claude Code names it, and exports it to the CLI."""
    claude = tmp_path / "home" / ".claude" / "plugins"
    installed = claude / "cache" / "market" / "skillbox" / "1.2.3"
    installed.parent.mkdir(parents=True)
    unbuildable_plugin.rename(installed)
    data = claude / "data" / "skillbox-market"
    make_ready_venv(data / "venv", installed)
    code = "import os, sys; print(os.environ['CLAUDE_PLUGIN_DATA']); print(sys.prefix)"
    proc = launcher.run(installed, "-c", code, script="skillbox-python", CLAUDE_PLUGIN_DATA=None)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == str(data)


def test_without_plugin_data_or_a_claude_install_the_venv_goes_under_home(unbuildable_plugin, launcher):
    proc = launcher.run(unbuildable_plugin, "--version", CLAUDE_PLUGIN_DATA=None)
    assert proc.returncode == 1
    assert (launcher.home / ".skillbox" / "venv.log").exists()


def test_skillbox_venv_overrides_the_location(unbuildable_plugin, launcher, tmp_path, make_ready_venv):
    make_ready_venv(tmp_path / "elsewhere", unbuildable_plugin)
    proc = run_python(launcher, unbuildable_plugin, SKILLBOX_VENV=str(tmp_path / "elsewhere"))
    assert proc.stdout == f"{RAN}\n"
    assert not launcher.venv.exists()


def test_cli_sees_the_plugin_root_even_from_the_agents_shell(unbuildable_plugin, launcher, venv, tmp_path):
    """The Bash tool has no CLAUDE_PLUGIN_ROOT; `skillbox doctor`/`tour` need it to find skills and manifests."""
    show = "import os; print(os.path.realpath(os.environ['CLAUDE_PLUGIN_ROOT']))"
    proc = launcher.run(unbuildable_plugin, "-c", show, script="skillbox-python", CLAUDE_PLUGIN_ROOT=None)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == os.path.realpath(unbuildable_plugin)
    # A root Claude Code already set wins.
    proc = launcher.run(unbuildable_plugin, "-c", show, script="skillbox-python", CLAUDE_PLUGIN_ROOT=str(tmp_path))
    assert proc.stdout.strip() == os.path.realpath(tmp_path)


def test_a_venv_skillbox_did_not_create_is_never_deleted(unbuildable_plugin, launcher, tmp_path):
    """SKILLBOX_VENV pointed at someone's own virtualenv: no stamp, so not ready, but not ours to wipe either."""
    foreign = tmp_path / "my-venv"
    (foreign / "bin").mkdir(parents=True)
    (foreign / "bin" / "precious").write_text("keep me\n")
    proc = launcher.run(unbuildable_plugin, "--bootstrap", SKILLBOX_VENV=str(foreign))
    assert proc.returncode != 0
    assert (foreign / "bin" / "precious").read_text() == "keep me\n"
    assert "skillbox did not create it" in (tmp_path / "my-venv.log").read_text()
