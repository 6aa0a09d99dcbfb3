"""One store in every install mode, seen from where it matters: the agent's own Bash tool.

For each way Claude Code can run the plugin — a marketplace added from a local folder (run in place,
`readFromFolder`), a marketplace whose plugin is a git URL (cloned into the plugin cache), and `--plugin-dir` — a
real `claude -p` session runs; the scripted model calls `skillbox mem search <word from the prompt>` through the
Bash tool; the next request Claude Code sends to the model must carry, in that tool_result, the prompt the
UserPromptSubmit hook stored. The venv is the session's prebuilt one (SKILLBOX_VENV), so only the store's
location is under test here; building it cold is test_session_hooks.py.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.e2e.claude_harness import install_plugin
from tests.e2e.fake_api import Text, ToolUse

WORD = "quokkabridge"
PROMPT = f"Find what we noted about the {WORD} service"


def _git_marketplace(run_claude, home: Path, source: Path, tmp_path: Path) -> tuple[dict, Path]:
    """A marketplace whose plugin entry is a git URL: Claude Code clones it into plugins/cache/ (no readFromFolder)."""
    repo = tmp_path / "repo"
    shutil.copytree(source, repo)
    for args in (["init", "-q"], ["add", "-A"], ["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "x"]):
        subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)
    market = tmp_path / "market"
    (market / ".claude-plugin").mkdir(parents=True)
    entry = {"name": "skillbox", "source": {"source": "url", "url": repo.as_uri()}}
    manifest = {"name": "gitmkt", "owner": {"name": "test"}, "plugins": [entry]}
    (market / ".claude-plugin" / "marketplace.json").write_text(json.dumps(manifest))
    for args in (("plugin", "marketplace", "add", str(market)), ("plugin", "install", "skillbox@gitmkt")):
        proc = run_claude(*args, home=home)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    listing = {row["id"]: row for row in json.loads(run_claude("plugin", "list", "--json", home=home).stdout)}
    return listing["skillbox@gitmkt"], home / ".claude" / "plugins" / "data" / "skillbox-gitmkt"


def _tool_result_text(requests: list[dict], tool_use_id: str) -> str:
    for body in requests:
        for message in body.get("messages", []):
            content = message.get("content")
            if not isinstance(content, list):
                continue
            for block in content:
                if block.get("type") == "tool_result" and block.get("tool_use_id") == tool_use_id:
                    inner = block.get("content")
                    if isinstance(inner, list):
                        return "\n".join(part.get("text", "") for part in inner)
                    return str(inner)
    raise AssertionError("no request carried the tool_result of the Bash call")


@pytest.mark.parametrize("mode", ["local-marketplace-folder", "plugin-cache", "plugin-dir"])
def test_agents_bash_tool_searches_the_hooks_store(
    mode, run_claude, run_session, fake_api, plugin_source, plugin_venv, tmp_path
):
    home = tmp_path / "home"
    args: tuple[str, ...] = ()
    if mode == "local-marketplace-folder":
        plugin = install_plugin(run_claude, home, plugin_source)
        assert plugin.entry.get("readFromFolder"), plugin.entry  # run in place, not from the cache copy
        data = plugin.data_dir
    elif mode == "plugin-cache":
        entry, data = _git_marketplace(run_claude, home, plugin_source, tmp_path)
        assert "/plugins/cache/" in entry["installPath"] and not entry.get("readFromFolder"), entry
    else:
        home.mkdir()
        args = ("--plugin-dir", str(plugin_source))
        data = None  # Claude Code names it; found below
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)

    fake_api.script(
        ToolUse("Bash", {"command": f"skillbox mem search {WORD}", "description": "Search memory"}, id="toolu_mem"),
        Text("Found the note."),
    )
    venv = plugin_venv.launcher_env.venv
    session = run_session(
        PROMPT, home=home, cwd=project, args=(*args, "--allowedTools", "Bash"), SKILLBOX_VENV=str(venv)
    )
    assert session.returncode == 0, session.stderr
    answer = _tool_result_text(fake_api.message_requests(), "toolu_mem")
    assert "P1" in answer and WORD in answer, f"the agent's skillbox did not see the hooks' store:\n{answer}"

    stores = sorted((home / ".claude" / "plugins" / "data").glob("*/memory.db"))
    assert len(stores) == 1, stores  # one store, in the plugin's data folder ...
    if data is not None:
        assert stores[0] == data / "memory.db"
    assert not (home / ".skillbox" / "memory.db").exists()  # ... and no second one under ~/.skillbox
    assert (home / ".skillbox" / "plugin-data").read_text().strip() == str(stores[0].parent)
    # The agent's own search is not a memory.
    db = sqlite3_rows(stores[0], "SELECT tool_name, tool_input FROM events")
    assert not any("skillbox mem" in tool_input for _, tool_input in db), db

    # `skillbox doctor` run the way the agent runs it names that store as the shared one.
    launcher = (Path(args[1]) if args else Path(_install_path(run_claude, home))) / "bin" / "skillbox"
    doctor = subprocess.run(
        [str(launcher), "doctor", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        env={"HOME": str(home), "PATH": "/usr/bin:/bin", "SKILLBOX_VENV": str(venv)},
    )
    memory = next(c for c in json.loads(doctor.stdout)["checks"] if c["name"] == "memory")
    assert str(stores[0]) in memory["summary"] and "shared by the hooks" in memory["summary"], memory


def _install_path(run_claude, home: Path) -> str:
    rows = json.loads(run_claude("plugin", "list", "--json", home=home).stdout)
    row = next(r for r in rows if r["id"].startswith("skillbox@"))
    return row.get("readFromFolder") or row["installPath"]


def sqlite3_rows(db: Path, sql: str) -> list[tuple]:
    import sqlite3

    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()
