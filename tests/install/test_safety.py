"""An install that is stopped midway, a private or symlinked config, folders the user made: what the user's files
look like afterwards (modes and links included, see conftest.snapshot)."""

from __future__ import annotations

import os
import stat

import pytest

from skillbox import atomic
from skillbox.install import engine
from tests.install.conftest import folders, snapshot
from tests.install.test_install import install, uninstall

CODEX = '# mine\nmodel = "gpt-5"\n\n[mcp_servers.other]\ncommand = "other-mcp"\n'


def _codex_config(sandbox, text=CODEX, mode=0o644):
    config = sandbox["home"] / ".codex" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(text)
    config.chmod(mode)
    return config


def _interrupt_at(monkeypatch, target, failure=KeyboardInterrupt):
    """Make the write of `target` raise `failure` (after the writes before it went through)."""
    real = atomic.atomic_write

    def write(path, data, **kw):
        if os.path.realpath(path) == os.path.realpath(target):
            raise failure()
        return real(path, data, **kw)

    monkeypatch.setattr(engine.atomic, "atomic_write", write)


@pytest.mark.parametrize("failure", [KeyboardInterrupt, RuntimeError, PermissionError])
def test_an_install_stopped_at_a_config_edit_is_rolled_back(sandbox, monkeypatch, failure):
    """Gemini writes settings.json (MCP + hooks) after copying every skill: stop it there."""
    settings = sandbox["home"] / ".gemini" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"theme": "dark"}\n')
    before, dirs_before = snapshot(sandbox["home"].parent), folders(sandbox["home"].parent)
    _interrupt_at(monkeypatch, settings, failure)
    with pytest.raises((failure, engine.InstallError)):
        install(sandbox, "gemini", "user")
    assert snapshot(sandbox["home"].parent) == before
    assert folders(sandbox["home"].parent) == dirs_before


def _killed_install(sandbox, monkeypatch):
    """An install killed (no rollback runs) after the codex MCP config was written, before the hooks file."""
    config = _codex_config(sandbox)
    before, dirs_before = snapshot(sandbox["home"].parent), folders(sandbox["home"].parent)
    hooks = sandbox["home"] / ".codex" / "hooks.json"
    _interrupt_at(monkeypatch, hooks)
    monkeypatch.setattr(engine, "_roll_back", lambda done, made: None)
    with pytest.raises(KeyboardInterrupt):
        install(sandbox, "codex", "user")
    monkeypatch.undo()
    assert "skillbox-mem" in config.read_text()  # the half-done state a killed process leaves
    record = engine.read_record(
        engine.record_dir(engine.get_platform("codex"), "user", sandbox["home"], sandbox["env"])
    )
    assert record["state"] == "pending"
    return before, dirs_before


def test_a_killed_install_is_undone_by_uninstall(sandbox, monkeypatch):
    before, dirs_before = _killed_install(sandbox, monkeypatch)
    plan, _ = uninstall(sandbox, "codex", "user")
    assert any("interrupted" in note for note in plan.notes)
    assert snapshot(sandbox["home"].parent) == before
    assert folders(sandbox["home"].parent) == dirs_before


def test_a_killed_install_is_finished_by_the_next_install(sandbox, monkeypatch):
    before, dirs_before = _killed_install(sandbox, monkeypatch)
    plan, _ = install(sandbox, "codex", "user")
    assert any("interrupted" in note for note in plan.notes)
    assert (sandbox["home"] / ".codex" / "hooks.json").is_file()
    assert "state" not in engine.read_record(plan.record_dir)
    _plan, done = install(sandbox, "codex", "user")
    assert done == []
    uninstall(sandbox, "codex", "user")
    assert snapshot(sandbox["home"].parent) == before
    assert folders(sandbox["home"].parent) == dirs_before


def test_a_private_config_stays_private_and_so_does_its_backup(sandbox):
    config = _codex_config(sandbox, mode=0o600)
    before = snapshot(sandbox["home"].parent)
    plan, _ = install(sandbox, "codex", "user")
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    record_files = [p for p in plan.record_dir.iterdir()]
    assert record_files and all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in record_files)
    uninstall(sandbox, "codex", "user")
    assert snapshot(sandbox["home"].parent) == before


def test_a_symlinked_config_is_edited_through_the_link_and_restored_there(sandbox):
    real = sandbox["home"] / "dots" / "config.toml"
    real.parent.mkdir()
    real.write_text(CODEX)
    link = sandbox["home"] / ".codex" / "config.toml"
    link.parent.mkdir()
    link.symlink_to("../dots/config.toml")
    before = snapshot(sandbox["home"].parent)
    install(sandbox, "codex", "user")
    assert link.is_symlink() and "skillbox-graph" in real.read_text()
    uninstall(sandbox, "codex", "user")
    assert snapshot(sandbox["home"].parent) == before


def test_a_failed_rename_leaves_no_temporary_file(sandbox, monkeypatch):
    config = _codex_config(sandbox)
    before = snapshot(sandbox["home"].parent)
    real = os.replace

    def replace(src, dst):
        if os.path.basename(dst) == "config.toml":
            raise OSError(28, "No space left on device", str(dst))
        return real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(engine.InstallError, match="nothing was changed"):
        install(sandbox, "codex", "user")
    monkeypatch.undo()
    assert snapshot(sandbox["home"].parent) == before
    assert config.read_text() == CODEX


def test_uninstall_keeps_an_empty_folder_the_user_made(sandbox):
    install(sandbox, "cursor", "user")
    mine = sandbox["home"] / ".cursor" / "skills" / "my-own-skill"
    mine.mkdir()
    uninstall(sandbox, "cursor", "user")
    assert mine.is_dir()
    assert not (sandbox["home"] / ".cursor" / "skills" / "code-graph").exists()


def test_an_inline_mcp_servers_table_is_merged_into_and_restored(sandbox):
    config = _codex_config(sandbox, 'mcp_servers = { other = { command = "x" } }\nmodel = "gpt-5"\n')
    before = snapshot(sandbox["home"].parent)
    install(sandbox, "codex", "user")
    import tomllib

    servers = tomllib.loads(config.read_text())["mcp_servers"]
    assert sorted(servers) == ["other", "skillbox-graph", "skillbox-mem"]
    assert servers["skillbox-mem"]["args"] == ["mem", "mcp"]
    uninstall(sandbox, "codex", "user")
    assert snapshot(sandbox["home"].parent) == before


def test_a_config_key_of_the_wrong_type_is_one_line_naming_the_file(sandbox):
    from tests.install.test_install import REPO, run

    config = _codex_config(sandbox, "mcp_servers = 3\n")
    before = snapshot(sandbox["home"].parent)
    done = run(["install", "--platform", "codex", "--user", "--source", str(REPO)], sandbox)
    assert done.returncode == 1
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"Error: {config}: ") and "nothing was written" in line
    assert snapshot(sandbox["home"].parent) == before


def test_a_users_own_skillbox_mem_server_is_replaced_with_a_note_and_put_back(sandbox):
    mine = '[mcp_servers.skillbox-mem]\ncommand = "my-fork"\nargs = ["mcp"]\n'
    config = _codex_config(sandbox, mine)
    plan, _ = install(sandbox, "codex", "user")
    assert "my-fork" not in config.read_text()
    (note,) = [n for n in plan.notes if "skillbox-mem" in n]
    assert str(config) in note and "uninstall puts yours back" in note
    _plan, done = install(sandbox, "codex", "user")
    assert done == []
    uninstall(sandbox, "codex", "user")
    assert config.read_text() == mine


def test_install_records_stay_put_whatever_the_memory_home(sandbox, tmp_path):
    """The plugin-data variables differ between a terminal, the agent's Bash tool and a hook: an install made
    from one must be found by an uninstall from another."""
    before = snapshot(sandbox["home"].parent)
    sandbox["env"]["CLAUDE_PLUGIN_DATA"] = str(tmp_path / "plugin-data-a")
    install(sandbox, "cursor", "user")
    assert (sandbox["home"] / ".skillbox" / "installs").is_dir()
    sandbox["env"].pop("CLAUDE_PLUGIN_DATA")
    sandbox["env"]["SKILLBOX_PLUGIN_DATA"] = str(tmp_path / "plugin-data-b")
    uninstall(sandbox, "cursor", "user")
    assert snapshot(sandbox["home"].parent) == before
    assert not (tmp_path / "plugin-data-a").exists()


def test_project_install_warns_about_machine_paths_and_counts_read_well(sandbox):
    from tests.install.test_install import REPO, run

    done = run(["install", "--platform", "cursor", "--project", "--source", str(REPO)], sandbox)
    assert done.returncode == 0, done.stderr
    (line,) = [line for line in done.stdout.splitlines() if "absolute paths" in line]
    assert ".cursor/mcp.json" in line and "before committing" in line
    count = len(list((REPO / "skills").glob("*/SKILL.md")))
    assert f"({count} skills)" in done.stdout
    (skills,) = [line for line in done.stdout.splitlines() if line.strip().startswith("skills:")]
    assert skills.strip().startswith("skills: create ") and " files in " in skills
    done = run(["uninstall", "--platform", "cursor", "--project", "--dry-run"], sandbox)
    assert "skills: would delete " in done.stdout


def test_the_platforms_doc_does_not_hard_code_a_skill_count():
    import re

    from tests.install.test_install import REPO

    text = (REPO / "docs" / "platforms.md").read_text()
    count = len(list((REPO / "skills").glob("*/SKILL.md")))
    assert all(int(n) == count for n in re.findall(r"all (\d+) skills", text))


def test_an_uninstall_stopped_midway_is_rolled_back_and_can_run_again(sandbox, monkeypatch):
    _codex_config(sandbox)
    before = snapshot(sandbox["home"].parent)
    install(sandbox, "codex", "user")
    installed = snapshot(sandbox["home"].parent)
    real_unlink = os.unlink

    def unlink(path, *a, **kw):  # Ctrl-C as uninstall deletes the hooks file (after the config was restored)
        if os.path.basename(path) == "hooks.json":
            raise KeyboardInterrupt
        return real_unlink(path, *a, **kw)

    monkeypatch.setattr(os, "unlink", unlink)
    with pytest.raises(KeyboardInterrupt):
        uninstall(sandbox, "codex", "user")
    monkeypatch.undo()
    assert snapshot(sandbox["home"].parent) == installed
    uninstall(sandbox, "codex", "user")
    assert snapshot(sandbox["home"].parent) == before
