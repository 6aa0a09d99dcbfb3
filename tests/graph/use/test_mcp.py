"""`skillbox graph mcp` driven by the MCP SDK's own client over stdio, as an agent would."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path

from graph_use_data import small_graph

REPO = Path(__file__).resolve().parents[3]


async def _session(graph: Path, steps):
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "skillbox", "graph", "mcp", "--graph", str(graph)],
        env={**os.environ, "PYTHONPATH": str(REPO / "tools")},
    )
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return await steps(session)


def _text(result) -> str:
    """The answer's text; a tool error (isError=true) marked with a leading "ERROR " to assert on."""
    text = "".join(part.text for part in result.content if getattr(part, "type", "") == "text")
    return f"ERROR {text}" if result.is_error else text


def test_mcp_tools_answer_and_reload_when_graph_changes(project):
    async def steps(session):
        names = {tool.name for tool in (await session.list_tools()).tools}
        out = {"names": names}
        out["explain"] = _text(await session.call_tool("explain", {"node": "redirect"}))
        out["query"] = json.loads(
            _text(await session.call_tool("query", {"question": "route url", "budget": 200, "format": "json"}))
        )
        out["path"] = _text(await session.call_tool("path", {"source": "App", "target": "src/app/routing.py::url_for"}))
        out["affected"] = json.loads(
            _text(await session.call_tool("affected", {"node": "src/app/routing.py::url_for", "format": "json"}))
        )
        out["ambiguous"] = _text(await session.call_tool("explain", {"node": "url_for"}))
        out["gods"] = json.loads(_text(await session.call_tool("god_nodes", {"limit": 3})))
        out["stats"] = json.loads(_text(await session.call_tool("stats", {})))
        out["community"] = _text(await session.call_tool("community", {"community_id": 0}))

        data = small_graph()
        data["nodes"].append({"id": "src/app/new.py::fresh", "kind": "function", "name": "fresh", "file": None})
        time.sleep(0.02)
        project.write_text(json.dumps(data))
        out["after"] = _text(await session.call_tool("explain", {"node": "fresh"}))
        return out

    out = asyncio.run(_session(project, steps))
    assert out["names"] >= {"query", "path", "explain", "affected", "god_nodes", "community", "stats"}
    assert out["explain"].startswith("function redirect — src/app/helpers.py:2")
    assert out["query"]["tokens"] <= 200 and out["query"]["lines"]
    assert "—calls→ route" in out["path"] and "[EXTRACTED]" in out["path"]
    assert "src/app/helpers.py" in out["affected"]["files"]
    assert {p["confidence"] for peers in out["affected"]["files"].values() for p in peers} <= {"EXTRACTED", "INFERRED"}
    assert "[EXTRACTED]" in out["explain"]
    assert out["ambiguous"].startswith("ERROR Error executing tool explain: 'url_for' matches 2 nodes")
    assert out["gods"][0]["name"] == "route"
    assert out["stats"]["nodes"] == 16
    # not clustered yet: no communities.json
    assert out["community"].startswith("ERROR Error executing tool community: no community matches")
    assert out["after"].startswith("function fresh")
