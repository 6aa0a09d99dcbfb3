"""`skillbox graph mcp`: the graph's questions as MCP tools over stdio.

Tools: query, path, explain, affected, god_nodes, community, stats — the CLI's answers, same text or JSON. The
server keeps the graph's SQLite index open between calls (a warm call costs milliseconds) and checks before each
call whether graph.json or communities.json changed; if so it reopens, which rebuilds the index, so answers always
come from the latest build.
"""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

from skillbox.errors import SkillboxError, error_line
from skillbox.graph.index import GraphIndex

INSTRUCTIONS = (
    "A code knowledge graph of this repository (nodes: files, classes, functions, methods...; edges: calls, "
    "imports, inherits, contains...). Start with `query` for a free-text question (token-budgeted answer lines "
    "`path:line kind name —relation→ name [CONFIDENCE]`), then `explain` a node, `path` between two nodes, or "
    "`affected` for the blast radius of a change. Node arguments: an id, `path::name`, or a unique name; "
    "ambiguous names list candidates to retry with. Every edge says how far to trust it: EXTRACTED (resolved), "
    "INFERRED (a reasoned guess), AMBIGUOUS (one of several candidates; read the code)."
)


class LiveGraph:
    """The latest graph's index, reopened whenever the build rewrote graph.json or communities.json."""

    def __init__(self, graph: str | Path | None):
        self.graph = graph
        self._index: GraphIndex | None = None
        self._lock = threading.Lock()

    def index(self) -> GraphIndex:
        with self._lock:
            if self._index is None or not self._index.is_current():
                if self._index is not None:
                    self._index.close()
                    self._index = None
                self._index = GraphIndex.open(self.graph, check_same_thread=False)
            return self._index


def _answer(result: dict, fmt: str) -> str:
    if fmt == "json":
        return json.dumps({k: v for k, v in result.items() if k != "text"}, ensure_ascii=False)
    return result["text"]


def _safe(fn) -> str:
    """User errors (unknown or ambiguous node, missing graph) become a one-line tool result."""
    try:
        return fn()
    except SkillboxError as err:
        return error_line(err)


def build_server(graph: str | Path | None = None):
    from skillbox.graph import query as q

    live = LiveGraph(graph)
    try:  # mcp >= 2
        from mcp.server.mcpserver import MCPServer as Server
    except ImportError:  # mcp 1.x
        from mcp.server.fastmcp import FastMCP as Server
    server = Server(name="skillbox-graph", instructions=INSTRUCTIONS)

    @server.tool(name="query", description="Answer a free-text question from the graph within a token budget.")
    def query(question: str, budget: int = q.DEFAULT_BUDGET, format: str = "text") -> str:
        return _safe(lambda: _answer(q.query(live.index(), question, budget), format))

    @server.tool(name="path", description="Shortest meaningful path between two nodes, each hop with file:line.")
    def path(source: str, target: str, format: str = "text") -> str:
        return _safe(lambda: _answer(q.path(live.index(), source, target), format))

    @server.tool(name="explain", description="A node: where it is, docstring, callers, callees, imports, community.")
    def explain(node: str, format: str = "text") -> str:
        return _safe(lambda: _answer(q.explain(live.index(), node), format))

    @server.tool(
        name="affected",
        description="What depends on a node (reverse calls/imports/inherits), by file, each with the weakest "
        "confidence on its chain; AMBIGUOUS edges only with include_ambiguous.",
    )
    def affected(node: str, depth: int = 2, include_ambiguous: bool = False, format: str = "text") -> str:
        return _safe(lambda: _answer(q.affected(live.index(), node, depth, include_ambiguous), format))

    @server.tool(
        name="god_nodes",
        description="The most depended-on symbols (files excluded; EXTRACTED and INFERRED edges unless "
        "include_ambiguous).",
    )
    def god_nodes(limit: int = 10, include_ambiguous: bool = False) -> str:
        return _safe(lambda: json.dumps(q.god_nodes(live.index(), limit, include_ambiguous), ensure_ascii=False))

    @server.tool(name="community", description="A community's label, size, cohesion and most connected members.")
    def community(community_id: int, limit: int = 50) -> str:
        return _safe(lambda: json.dumps(q.community(live.index(), community_id, limit), ensure_ascii=False))

    @server.tool(name="stats", description="Counts: nodes, edges, files, kinds, relations, confidence, communities.")
    def stats() -> str:
        return _safe(lambda: json.dumps(q.stats(live.index()), ensure_ascii=False))

    return server


def serve(graph: str | Path | None = None) -> None:
    try:
        build_server(graph).run("stdio")
    except KeyboardInterrupt:
        sys.exit(0)
