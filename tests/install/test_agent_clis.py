"""What each agent's own CLI makes of an install: its MCP listing (OpenCode even connects to both servers) and, where
it has one, its skills listing; then the same listing after uninstall. The CLIs are the npm packages, installed
once into a cache folder outside the repository (like tests/e2e's Claude Code); without npm these tests skip.
Run offline with a throwaway HOME and no login: these listing commands need neither."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.claude_harness import npm_install
from tests.install.conftest import REPO

CACHE = Path(os.environ.get("SKILLBOX_E2E_CACHE", Path.home() / ".cache" / "skillbox-e2e")) / "agents"
PACKAGES = {  # platform -> (npm package, pinned version, binary)
    "codex": ("@openai/codex", "0.171.0", "codex"),
    "gemini": ("@google/gemini-cli", "0.61.0", "gemini"),
    "opencode": ("opencode-ai", "1.18.33", "opencode"),
    "copilot": ("@github/copilot", "1.0.102", "copilot"),
}
SKILL_NAMES = sorted(p.parent.name for p in (REPO / "skills").glob("*/SKILL.md"))
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def agent_binary(platform: str) -> Path:
    package, version, binary = PACKAGES[platform]
    target = CACHE / f"{platform}-{version}"
    path = target / "node_modules" / ".bin" / binary
    if path.exists():
        return path
    npm_install(f"{package}@{version}", target)
    return path


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


def agent(binary: Path, *args: str, home: Path, cwd: Path, stdout_only: bool = False) -> str:
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", ""), "NO_COLOR": "1", "TERM": "dumb"}
    done = subprocess.run(
        [str(binary), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL
    )
    assert done.returncode == 0, f"{binary.name} {' '.join(args)}: {done.stdout}\n{done.stderr}"
    return ANSI.sub("", done.stdout if stdout_only else done.stdout + done.stderr)


def skillbox(*args: str, home: Path) -> None:
    env = {**os.environ, "HOME": str(home), "PYTHONPATH": str(REPO / "tools")}
    done = subprocess.run(
        [sys.executable, "-m", "skillbox", *args, "--source", str(REPO)] if args[0] == "install"
        else [sys.executable, "-m", "skillbox", *args],
        cwd=home, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_codex_lists_both_servers_then_none(home, tmp_path):
    codex = agent_binary("codex")
    skillbox("install", "--platform", "codex", "--user", home=home)
    listing = agent(codex, "mcp", "list", "--json", home=home, cwd=tmp_path, stdout_only=True)
    servers = {row["name"]: row for row in json.loads(listing)}
    assert set(servers) == {"skillbox-graph", "skillbox-mem"}
    for name, row in servers.items():
        assert row["enabled"] is True and row["transport"]["type"] == "stdio"
        assert row["transport"]["args"][-2:] == [name.removeprefix("skillbox-"), "mcp"]
    features = agent(codex, "features", "list", home=home, cwd=tmp_path)
    assert re.search(r"^hooks\s+stable\s+true$", features, re.MULTILINE)  # our hooks.json needs no feature flag
    skillbox("uninstall", "--platform", "codex", "--user", home=home)
    assert json.loads(agent(codex, "mcp", "list", "--json", home=home, cwd=tmp_path, stdout_only=True)) == []


def test_codex_reads_servers_merged_into_an_inline_table_through_a_symlinked_config(home, tmp_path):
    """A dotfiles-style ~/.codex/config.toml -> ../dots/config.toml holding `mcp_servers = { ... }`: Codex itself
    must list the user's server and both of ours, and the link must survive install and uninstall."""
    codex = agent_binary("codex")
    real = home / "dots" / "config.toml"
    real.parent.mkdir()
    original = 'mcp_servers = { other = { command = "other-mcp", args = [] } }\n'
    real.write_text(original)
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").symlink_to("../dots/config.toml")
    skillbox("install", "--platform", "codex", "--user", home=home)
    listing = agent(codex, "mcp", "list", "--json", home=home, cwd=tmp_path, stdout_only=True)
    assert {row["name"] for row in json.loads(listing)} == {"other", "skillbox-graph", "skillbox-mem"}
    assert (home / ".codex" / "config.toml").is_symlink()
    skillbox("uninstall", "--platform", "codex", "--user", home=home)
    assert (home / ".codex" / "config.toml").is_symlink() and real.read_text() == original
    listing = agent(codex, "mcp", "list", "--json", home=home, cwd=tmp_path, stdout_only=True)
    assert {row["name"] for row in json.loads(listing)} == {"other"}


def test_gemini_lists_the_servers_and_every_skill_once(home, tmp_path):
    gemini = agent_binary("gemini")
    skillbox("install", "--platform", "gemini", "--user", home=home)
    listing = agent(gemini, "mcp", "list", home=home, cwd=tmp_path)
    assert "skillbox-graph:" in listing and "skillbox-mem:" in listing
    skills = agent(gemini, "skills", "list", home=home, cwd=tmp_path)
    found = re.findall(r"^(\S+) \[Enabled\]$", skills, re.MULTILINE)
    assert sorted(found) == SKILL_NAMES and "conflict" not in skills.lower()
    skillbox("uninstall", "--platform", "gemini", "--user", home=home)
    assert "skillbox-graph" not in agent(gemini, "mcp", "list", home=home, cwd=tmp_path)


def test_opencode_connects_to_both_servers(home, tmp_path):
    opencode = agent_binary("opencode")
    skillbox("install", "--platform", "opencode", "--user", home=home)
    listing = agent(opencode, "mcp", "list", home=home, cwd=tmp_path)
    for name in ("skillbox-graph", "skillbox-mem"):
        assert re.search(rf"✓ {name}\s+connected", listing), listing
    skillbox("uninstall", "--platform", "opencode", "--user", home=home)
    assert "skillbox-graph" not in agent(opencode, "mcp", "list", home=home, cwd=tmp_path)


def test_copilot_lists_the_servers_and_every_skill(home, tmp_path):
    copilot = agent_binary("copilot")
    skillbox("install", "--platform", "copilot", "--user", home=home)
    servers = json.loads(agent(copilot, "mcp", "list", "--json", home=home, cwd=tmp_path, stdout_only=True))
    assert set(servers["mcpServers"]) == {"skillbox-graph", "skillbox-mem"}
    skills = agent(copilot, "skill", "list", home=home, cwd=tmp_path)
    personal = skills.split("Personal skills:", 1)[1].split("Builtin skills:", 1)[0]
    assert sorted(re.findall(r"^  (\S+) - ", personal, re.MULTILINE)) == SKILL_NAMES
    skillbox("uninstall", "--platform", "copilot", "--user", home=home)
    assert "skillbox-graph" not in agent(copilot, "mcp", "list", home=home, cwd=tmp_path)
