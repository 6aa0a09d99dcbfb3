"""Which graph `skillbox graph mcp` serves when started without --graph, as Claude Code starts a plugin's server:
in the session's folder, with CLAUDE_PROJECT_DIR set to it (measured with Claude Code 2.1.332)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

from graph_use_data import small_graph

REPO = Path(__file__).resolve().parents[3]


def _text(result) -> str:
    """The answer's text; a tool error (isError=true) marked with a leading "ERROR " to assert on."""
    text = "".join(part.text for part in result.content if getattr(part, "type", "") == "text")
    return f"ERROR {text}" if result.is_error else text


def _calls(project_dir: Path, cwd: Path, between) -> list[str]:
    """Start the server, call `stats`, run `between()`, call `stats` again; both answers as text."""
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "skillbox", "graph", "mcp"],
        env={**os.environ, "PYTHONPATH": str(REPO / "tools"), "CLAUDE_PROJECT_DIR": str(project_dir)},
        cwd=str(cwd),
    )

    async def run():
        with open(os.devnull, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                first = _text(await session.call_tool("stats", {}))
                between()
                return [first, _text(await session.call_tool("stats", {}))]

    return asyncio.run(run())


def test_no_graph_yet_is_a_tool_error_then_a_build_at_the_repo_root_is_found(tmp_path: Path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    session_dir = repo / "src" / "app"
    session_dir.mkdir(parents=True)

    def build():
        (repo / "skillbox-out").mkdir()
        (repo / "skillbox-out" / "graph.json").write_text(json.dumps(small_graph()))

    before, after = _calls(session_dir, cwd=tmp_path, between=build)
    assert before.startswith("ERROR ") and "Traceback" not in before
    assert f"no code graph built yet for {session_dir}: run `skillbox graph build" in before
    assert json.loads(after)["nodes"] == 16


def test_the_search_stops_at_the_repository_root(tmp_path: Path):
    outer = tmp_path / "outer"
    (outer / "skillbox-out").mkdir(parents=True)
    (outer / "skillbox-out" / "graph.json").write_text(json.dumps(small_graph()))
    inner = outer / "inner"
    (inner / ".git").mkdir(parents=True)  # a repository of its own: the outer graph is not its graph
    first, second = _calls(inner, cwd=inner, between=lambda: None)
    assert first.startswith("ERROR ") and "no code graph built yet" in first and second == first
