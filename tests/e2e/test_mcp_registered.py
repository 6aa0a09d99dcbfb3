"""The plugin's MCP servers (graph, mem) as Claude Code runs them: registered by .claude-plugin/plugin.json,
started through the installed copy's bin/skillbox, listed by `claude mcp list`, offered to the model as tools in
the first request, and answering a tool call whose result reaches the model in the next request."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.e2e.fake_api import Text, ToolUse

GRAPH_TOOL = "mcp__plugin_skillbox_graph__{}"
MEM_TOOL = "mcp__plugin_skillbox_mem__{}"


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "shop"
    (project / ".git").mkdir(parents=True)
    (project / "cart.py").write_text(
        "def with_tax(total):\n    return total * 1.2\n\n\ndef checkout(items):\n    return with_tax(sum(items))\n"
    )
    return project


def _build_graph(project: Path) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "skillbox", "graph", "build", str(project), "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return json.loads((project / "skillbox-out" / "graph.json").read_text())


def test_validate_sees_both_servers_started_through_the_launcher(run_claude, plugin_source, tmp_path):
    proc = run_claude("plugin", "validate", "--strict", "--json", str(plugin_source), home=tmp_path)
    assert proc.returncode == 0, proc.stdout
    servers = {row["name"]: row for row in json.loads(proc.stdout)["provides"]["mcpServers"]}
    assert set(servers) == {"graph", "mem"}
    for name, row in servers.items():
        assert row["target"] == "${CLAUDE_PLUGIN_ROOT}/bin/skillbox" and row["args"] == [name, "mcp"]


def test_claude_mcp_list_shows_both_servers_connected(run_claude, fresh_plugin_home, tmp_path):
    project = _project(tmp_path)
    listing = run_claude("mcp", "list", home=fresh_plugin_home.home, cwd=project, timeout=180)
    assert listing.returncode == 0, listing.stderr
    lines = {line.split(":", 3)[2]: line for line in listing.stdout.splitlines() if line.startswith("plugin:skillbox:")}
    assert set(lines) == {"graph", "mem"}, listing.stdout
    for name, line in lines.items():
        assert line.endswith("✔ Connected"), f"{name}: {line}"
        assert "/bin/skillbox" in line


def _tool_results(request: dict) -> dict[str, str]:
    """tool_use_id -> what the model was given for it, from the messages of one request. The servers register
    their tools without structured output, so the model reads the answer's text itself, not `{"result": "..."}`
    with escaped newlines (what Claude Code 2.1.332 passes on for structured content)."""
    results = {}
    for message in request["messages"]:
        content = message.get("content")
        for block in content if isinstance(content, list) else []:
            if block.get("type") == "tool_result":
                parts = block.get("content")
                if isinstance(parts, list):
                    parts = "".join(part.get("text", "") for part in parts)
                assert not str(parts).startswith('{"result"'), parts
                results[block["tool_use_id"]] = parts or ""
    return results


def _tool_errors(request: dict) -> set[str]:
    """The tool_use_ids whose result the client passed on as an error (is_error: true)."""
    return {
        block["tool_use_id"]
        for message in request["messages"]
        if isinstance(message.get("content"), list)
        for block in message["content"]
        if block.get("type") == "tool_result" and block.get("is_error")
    }


def _system_text(request: dict) -> str:
    """Everything the client told the model besides the conversation: system prompt and system messages."""
    system = request.get("system")
    texts = [system] if isinstance(system, str) else [part.get("text", "") for part in system or []]
    for message in request["messages"]:
        if message["role"] == "system":
            content = message["content"]
            texts += [content] if isinstance(content, str) else [part.get("text", "") for part in content]
    return "\n".join(texts)


def test_the_model_gets_the_tools_and_their_answers(run_session, fake_api, fresh_plugin_home, tmp_path):
    project = _project(tmp_path)
    graph = _build_graph(project)
    fake_api.script(
        ToolUse(GRAPH_TOOL.format("explain"), {"node": "with_tax"}, id="toolu_graph"),
        ToolUse(MEM_TOOL.format("search"), {"query": "tax"}, id="toolu_mem"),
        Text("Done."),
    )
    allowed = ",".join([GRAPH_TOOL.format("explain"), MEM_TOOL.format("search")])
    session = run_session(
        "who calls with_tax?", home=fresh_plugin_home.home, cwd=project, args=("--allowedTools", allowed), timeout=180
    )
    assert session.returncode == 0, session.stderr
    first, *later = fake_api.message_requests()
    # The first request already names both servers (connecting, or connected with their tools deferred) ...
    for server in ("plugin:skillbox:graph", "plugin:skillbox:mem"):
        assert server in _system_text(first) or any(server.replace(":", "_") in t["name"] for t in first["tools"])
    # ... and once connected, every tool of both servers is offered by name.
    offered = _system_text(later[0])
    for name in ("query", "path", "explain", "affected", "god_nodes", "community", "stats"):
        assert GRAPH_TOOL.format(name) in offered
    for name in ("search", "timeline", "get_observations"):
        assert MEM_TOOL.format(name) in offered

    results = _tool_results(later[-1])
    node = next(n for n in graph["nodes"] if n.get("name") == "with_tax")
    assert results["toolu_graph"].startswith(f"function with_tax — {node['file']}:{node['line']}")
    assert "called_by (1): [EXTRACTED] checkout" in results["toolu_graph"]
    # an empty store: an answer, not an error (the mem server found its database in the plugin's data folder)
    assert "toolu_mem" in results and not results["toolu_mem"].startswith("Error"), results["toolu_mem"]


def test_a_graph_tool_before_any_build_answers_how_to_build(run_session, fake_api, fresh_plugin_home, tmp_path):
    project = _project(tmp_path)
    fake_api.script(ToolUse(GRAPH_TOOL.format("stats"), {}, id="toolu_stats"), Text("Done."))
    session = run_session(
        "graph stats?",
        home=fresh_plugin_home.home,
        cwd=project,
        args=("--allowedTools", GRAPH_TOOL.format("stats")),
        timeout=180,
    )
    assert session.returncode == 0, session.stderr
    last = fake_api.message_requests()[-1]
    answer = _tool_results(last)["toolu_stats"]
    assert "toolu_stats" in _tool_errors(last), answer
    assert f"no code graph built yet for {project}: run `skillbox graph build {project}`" in answer


def test_the_memory_server_reads_the_store_the_hooks_write(run_session, fake_api, fresh_plugin_home, tmp_path):
    """The first session after install: the prompt hook stores (or spools) the prompt in the plugin's data folder,
    and the model's mem `search` through the plugin's MCP server finds it there, not in another store."""
    project = _project(tmp_path)
    fake_api.script(ToolUse(MEM_TOOL.format("search"), {"query": "quokkatax"}, id="toolu_mem"), Text("Done."))
    session = run_session(
        "remember the quokkatax rounding rule",
        home=fresh_plugin_home.home,
        cwd=project,
        args=("--allowedTools", MEM_TOOL.format("search")),
        timeout=180,
    )
    assert session.returncode == 0, session.stderr
    answer = _tool_results(fake_api.message_requests()[-1])["toolu_mem"]
    assert "quokkatax" in answer and not answer.startswith("Error"), answer
