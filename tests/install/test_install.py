"""`skillbox install` / `uninstall` per platform: golden configs, merging into a user's config, idempotent
re-install, byte-exact uninstall, and the refusals (unknown platform, unparsable config, no write permission)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from skillbox.cli.root import cli
from skillbox.errors import SkillboxError
from skillbox.install import engine
from skillbox.install.platforms import PLATFORMS
from tests.install.conftest import LAUNCHER, PYTHON, REPO, folders, snapshot

GOLDEN = Path(__file__).parent / "golden"
SCOPES = ("user", "project")


def install(sandbox, name, scope, **kw):
    plan = engine.plan_install(
        name, scope, cwd=sandbox["project"], env=sandbox["env"], launcher=LAUNCHER, python=PYTHON, **kw
    )
    return plan, engine.apply(plan)


def uninstall(sandbox, name, scope):
    plan = engine.plan_uninstall(name, scope, cwd=sandbox["project"], env=sandbox["env"])
    return plan, engine.apply(plan)


def base(sandbox, scope) -> Path:
    return sandbox["home"] if scope == "user" else sandbox["project"]


def config_files(plan) -> dict[str, bytes]:
    root = plan.root
    return {
        str(c.path.relative_to(root)): c.after
        for c in plan.changes
        if c.role in ("config", "hooks") and c.after is not None
    }


@pytest.mark.parametrize("scope", SCOPES)
@pytest.mark.parametrize("name", list(PLATFORMS))
def test_configs_match_the_golden_files(sandbox, name, scope):
    """Reviewed by hand once per platform against its documented format (docs/platforms.md)."""
    plan, _ = install(sandbox, name, scope)
    written = config_files(plan)
    folder = GOLDEN / f"{name}-{scope}"
    if os.environ.get("SKILLBOX_UPDATE_GOLDEN"):
        shutil.rmtree(folder, ignore_errors=True)
        for rel, data in written.items():
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_bytes(data)
    expected = {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert written == expected


@pytest.mark.parametrize("scope", SCOPES)
@pytest.mark.parametrize("name", list(PLATFORMS))
def test_every_skill_lands_in_the_agents_skills_folder(sandbox, name, scope):
    install(sandbox, name, scope)
    platform = PLATFORMS[name]
    rel = platform.skills.project if scope == "project" else platform.skills.user
    installed = base(sandbox, scope) / rel
    source = sorted(p.parent.name for p in (REPO / "skills").glob("*/SKILL.md"))
    assert sorted(p.parent.name for p in installed.glob("*/SKILL.md")) == source
    # scripts keep their bytes and executable bit; SKILL.md points at the installed copy, not at Claude's plugin
    for script in (REPO / "skills").glob("*/scripts/*.py"):
        copy = installed / script.relative_to(REPO / "skills")
        assert copy.read_bytes() == script.read_bytes()
        assert copy.stat().st_mode & 0o111 == script.stat().st_mode & 0o111
    text = (installed / "literature-search" / "SKILL.md").read_text()
    assert "${CLAUDE_PLUGIN_ROOT}" not in text and "skillbox-python " not in text
    assert f"{installed.as_posix()}/literature-search/scripts/lit_query.py" in text
    assert f"{PYTHON} " in text


@pytest.mark.parametrize("scope", SCOPES)
@pytest.mark.parametrize("name", list(PLATFORMS))
def test_reinstall_changes_nothing_and_uninstall_leaves_no_trace(sandbox, name, scope):
    before = snapshot(sandbox["home"].parent)
    dirs_before = folders(sandbox["home"].parent)
    install(sandbox, name, scope)
    after_first = snapshot(sandbox["home"].parent)
    _plan, done = install(sandbox, name, scope)
    assert done == [] and snapshot(sandbox["home"].parent) == after_first
    uninstall(sandbox, name, scope)
    assert snapshot(sandbox["home"].parent) == before
    assert folders(sandbox["home"].parent) == dirs_before


USER_CONFIG = {
    "json": '{\n    "theme": "dark",\n    "mcpServers": {"other": {"command": "other-mcp", "args": []}},\n'
    '    "mcp": {"other": {"type": "local", "command": ["other-mcp"]}},\n'
    '    "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo mine"}]}]}\n}\n',
    "toml": '# my settings\nmodel = "gpt-5"\n\n[mcp_servers.other]\ncommand = "other-mcp"  # keep me\n'
    "args = []\n\n[features]\nweb_search = true\n",
}


def user_files(platform, scope, sandbox) -> dict[Path, str]:
    """A config the user already has at every file the install touches."""
    files = {}
    for path, (fmt, _roles) in engine._config_targets(platform, scope, base(sandbox, scope), sandbox["env"]).items():
        if platform.hooks and platform.hooks.style == "copilot" and path.name == "skillbox.json":
            continue  # a file of skillbox's own
        files[path] = USER_CONFIG[fmt]
    return files


@pytest.mark.parametrize("scope", SCOPES)
@pytest.mark.parametrize("name", list(PLATFORMS))
def test_a_users_config_is_merged_and_restored_byte_for_byte(sandbox, name, scope):
    platform = PLATFORMS[name]
    files = user_files(platform, scope, sandbox)
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    before = snapshot(sandbox["home"].parent)
    install(sandbox, name, scope)
    for path in files:
        merged = path.read_text()
        assert "other-mcp" in merged  # the user's own server is still there
        if platform.mcp and engine.resolve(platform.mcp.file, scope, base(sandbox, scope), {}) == path:
            assert "skillbox-graph" in merged and "skillbox-mem" in merged
        if path.suffix == ".toml":
            assert "# my settings" in merged and "# keep me" in merged
    uninstall(sandbox, name, scope)
    assert snapshot(sandbox["home"].parent) == before


def test_edits_made_after_install_survive_uninstall(sandbox):
    """codex user scope: the user adds a server of their own after installing; uninstall removes only ours."""
    config = sandbox["home"] / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text('model = "gpt-5"\n')
    install(sandbox, "codex", "user")
    config.write_text(config.read_text() + '\n[mcp_servers.later]\ncommand = "later-mcp"\n')
    plan, _ = uninstall(sandbox, "codex", "user")
    assert config.read_text() == 'model = "gpt-5"\n\n[mcp_servers.later]\ncommand = "later-mcp"\n'
    assert any("changed since the install" in note for note in plan.notes)


def test_a_modified_skill_file_is_kept_on_uninstall(sandbox):
    install(sandbox, "cursor", "project")
    skill = sandbox["project"] / ".cursor" / "skills" / "code-graph" / "SKILL.md"
    skill.write_text(skill.read_text() + "\nmy note\n")
    plan, _ = uninstall(sandbox, "cursor", "project")
    assert skill.read_text().endswith("my note\n")
    assert not (sandbox["project"] / ".cursor" / "skills" / "mem-search").exists()
    assert any(str(skill) in note for note in plan.notes)


def run(args, sandbox, cwd=None):
    env = {**os.environ, **sandbox["env"]}
    return subprocess.run(
        [sys.executable, "-m", "skillbox", *args], cwd=cwd or sandbox["project"], env=env,
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_unknown_platform_exits_2_and_lists_the_known_ones(sandbox):
    result = CliRunner().invoke(cli, ["install", "--platform", "aider"])
    assert result.exit_code == 2
    for name in PLATFORMS:
        assert name in result.output
    with pytest.raises(SkillboxError) as err:
        engine.plan_install("aider", "user", cwd=sandbox["project"], env=sandbox["env"])
    assert err.value.exit_code == 2 and "known: codex, cursor" in str(err.value)


@pytest.mark.parametrize(
    ("name", "rel", "text", "message"),
    [
        ("gemini", ".gemini/settings.json", '{"mcpServers": {', "is not valid JSON"),
        ("cursor", ".cursor/mcp.json", '{\n  // my servers\n  "mcpServers": {}\n}\n', "has comments (JSONC)"),
        ("codex", ".codex/config.toml", "[mcp_servers\n", "is not valid TOML"),
    ],
)
def test_a_config_that_does_not_parse_is_named_and_nothing_is_written(sandbox, name, rel, text, message):
    path = sandbox["home"] / rel
    path.parent.mkdir(parents=True)
    path.write_text(text)
    before = snapshot(sandbox["home"])
    done = run(["install", "--platform", name, "--user", "--source", str(REPO)], sandbox)
    assert done.returncode == 1
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"Error: {path} ") and message in line and "nothing was written" in line
    assert snapshot(sandbox["home"]) == before


def test_no_write_permission_is_one_line_and_nothing_is_half_written(sandbox):
    """Codex's config folder is unwritable (CODEX_HOME in /proc/sys, which even root cannot write), while the
    skills would go to a writable HOME: the install must stop before copying a single skill."""
    assert not os.access("/proc/sys", os.W_OK)
    sandbox["env"]["CODEX_HOME"] = "/proc/sys/codex-home"
    before = snapshot(sandbox["home"].parent)
    done = run(["install", "--platform", "codex", "--user", "--source", str(REPO)], sandbox)
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("Error: cannot write /proc/sys/codex-home/") and "nothing was changed" in line
    assert snapshot(sandbox["home"].parent) == before and folders(sandbox["home"]) == set()


def test_dry_run_writes_nothing_and_shows_the_contents(sandbox):
    before = snapshot(sandbox["home"].parent)
    done = run(["install", "--platform", "opencode", "--user", "--dry-run", "--json", "--source", str(REPO)], sandbox)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["dryRun"] is True and snapshot(sandbox["home"].parent) == before
    config = sandbox["home"] / ".config" / "opencode" / "opencode.json"
    assert {"path": str(config), "action": "create", "role": "config"} in data["changes"]
    assert '"skillbox-graph"' in data["contents"][str(config)]
    assert any("no lifecycle hooks" in note for note in data["notes"])


def test_uninstall_without_an_install_says_so(sandbox):
    done = run(["uninstall", "--platform", "codex"], sandbox)
    assert done.returncode == 1 and "skillbox is not installed for Codex CLI at user scope" in done.stderr


def test_the_cli_installs_and_uninstalls_with_its_own_launcher(sandbox):
    done = run(["install", "--platform", "copilot", "--project", "--source", str(REPO)], sandbox)
    assert done.returncode == 0, done.stderr
    hooks = json.loads((sandbox["project"] / ".github" / "hooks" / "skillbox.json").read_text())
    command = hooks["hooks"]["sessionStart"][0]["bash"]
    assert command.endswith(" mem hook session-start")
    assert "no MCP servers at project scope for GitHub Copilot CLI" in done.stdout
    done = run(["uninstall", "--platform", "copilot", "--project"], sandbox)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in sandbox["project"].iterdir()) == [".git"]


def test_agents_sharing_one_skills_folder_keep_it_until_the_last_uninstall(sandbox):
    """Codex, Gemini CLI, OpenCode and Copilot CLI all read ~/.agents/skills: one copy, kept while still used."""
    before = snapshot(sandbox["home"].parent)
    dirs_before = folders(sandbox["home"].parent)
    shared = sandbox["home"] / ".agents" / "skills" / "code-graph" / "SKILL.md"
    for name in ("codex", "gemini", "copilot"):
        install(sandbox, name, "user")
    uninstall(sandbox, "codex", "user")
    assert shared.is_file()  # gemini and copilot still use it
    uninstall(sandbox, "copilot", "user")
    assert shared.is_file()
    uninstall(sandbox, "gemini", "user")
    assert snapshot(sandbox["home"].parent) == before and folders(sandbox["home"].parent) == dirs_before


def test_a_source_without_skills_is_a_one_line_error(sandbox, tmp_path):
    done = run(["install", "--platform", "codex", "--source", str(tmp_path)], sandbox)
    assert done.returncode == 1
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"Error: no skillbox skills/ folder found from {tmp_path}")


def test_edits_between_install_and_reinstall_survive_uninstall(sandbox):
    """Restoring the pre-install bytes after a re-install would drop what the user added in between."""
    config = sandbox["home"] / ".cursor" / "mcp.json"
    config.parent.mkdir()
    config.write_text('{"mcpServers": {}}\n')
    install(sandbox, "cursor", "user")
    data = json.loads(config.read_text())
    data["mcpServers"]["mine"] = {"command": "mine-mcp"}
    config.write_text(json.dumps(data))
    install(sandbox, "cursor", "user")
    uninstall(sandbox, "cursor", "user")
    assert json.loads(config.read_text()) == {"mcpServers": {"mine": {"command": "mine-mcp"}}}
