"""`skillbox graph mcp`: the graph's questions as MCP tools over stdio.

Tools: query, path, explain, affected, god_nodes, community, stats — the CLI's answers, same text or JSON. The
server keeps the graph's SQLite index open between calls (a warm call costs milliseconds) and checks before each
call whether graph.json or communities.json changed; if so it reopens, which rebuilds the index, so answers always
come from the latest build.

Which graph: `--graph FILE` when given. Otherwise the project's: Claude Code starts a plugin's MCP servers in the
session's folder and sets CLAUDE_PROJECT_DIR to it, which may be a subfolder of the repository whose root holds
the build; so the server looks for `skillbox-out/graph.json` there and in each parent folder up to the repository
root (the first folder with `.git`), again on every call, so a graph built after the session started is found.
Until one exists, each tool answers with a one-line error (isError=true) saying how to build it; the server itself
starts fine.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path

from skillbox.errors import NotFoundError
from skillbox.graph.code_graph import DEFAULT_GRAPH
from skillbox.graph.index import GraphIndex

INSTRUCTIONS = (
    "A code knowledge graph of this repository (nodes: files, classes, functions, methods...; edges: calls, "
    "imports, inherits, contains...). Start with `query` for a free-text question (token-budgeted answer lines "
    "`path:line kind name —relation→ name [CONFIDENCE]`), then `explain` a node, `path` between two nodes, or "
    "`affected` for the blast radius of a change. Node arguments: an id, `path::name`, or a unique name; "
    "ambiguous names list candidates to retry with. Every edge says how far to trust it: EXTRACTED (resolved), "
    "INFERRED (a reasoned guess), AMBIGUOUS (one of several candidates; read the code)."
)


def project_folder() -> Path:
    """The folder the agent works in: CLAUDE_PROJECT_DIR when Claude Code set it, else the working folder."""
    return Path(os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd())


def find_project_graph(start: Path) -> Path | None:
    """`skillbox-out/graph.json` in `start` or a parent, up to the repository root; None if there is none."""
    start = start.resolve()
    folders = [start]
    if not (start / ".git").exists():
        for parent in start.parents:
            folders.append(parent)
            if (parent / ".git").exists():
                break
        else:
            folders = [start]  # not inside a repository: only the folder itself
    return next((folder / DEFAULT_GRAPH for folder in folders if (folder / DEFAULT_GRAPH).is_file()), None)


class LiveGraph:
    """The latest graph's index, reopened whenever the build rewrote graph.json or communities.json.

    With no explicit graph, which file that is gets decided again at each call (see the module docstring)."""

    def __init__(self, graph: str | Path | None):
        self.graph = graph
        self._index: GraphIndex | None = None
        self._opened_for: str | Path | None = None
        self._lock = threading.Lock()

    def _graph_path(self) -> str | Path:
        if self.graph is not None:
            return self.graph
        start = project_folder()
        found = find_project_graph(start)
        if found is None:
            raise NotFoundError(
                f"no code graph built yet for {start}: run `skillbox graph build {start}` "
                f"(looked for {DEFAULT_GRAPH.as_posix()} there and in its parents up to the repository root)"
            )
        return found

    def index(self) -> GraphIndex:
        with self._lock:
            graph = self._graph_path()
            if self._index is None or self._opened_for != graph or not self._index.is_current():
                if self._index is not None:
                    self._index.close()
                    self._index = None
                self._index = GraphIndex.open(graph, check_same_thread=False)
                self._opened_for = graph
            return self._index


def _answer(result: dict, fmt: str) -> str:
    if fmt == "json":
        return json.dumps({k: v for k, v in result.items() if k != "text"}, ensure_ascii=False)
    return result["text"]


def build_server(graph: str | Path | None = None):
    from skillbox.graph import query as q

    live = LiveGraph(graph)
    from skillbox.mcp_server import guarded, server_class, text_tool

    server = server_class()(name="skillbox-graph", instructions=INSTRUCTIONS)

    @text_tool(server, name="query", description="Answer a free-text question from the graph within a token budget.")
    def query(question: str, budget: int = q.DEFAULT_BUDGET, format: str = "text") -> str:
        return guarded(lambda: _answer(q.query(live.index(), question, budget), format))

    @text_tool(server, name="path", description="Shortest meaningful path between two nodes, each hop with file:line.")
    def path(source: str, target: str, format: str = "text") -> str:
        return guarded(lambda: _answer(q.path(live.index(), source, target), format))

    @text_tool(
        server, name="explain", description="A node: where it is, docstring, callers, callees, imports, community."
    )
    def explain(node: str, format: str = "text") -> str:
        return guarded(lambda: _answer(q.explain(live.index(), node), format))

    @text_tool(
        server,
        name="affected",
        description="What depends on a node (reverse calls/imports/inherits), by file, each with the weakest "
        "confidence on its chain; AMBIGUOUS edges only with include_ambiguous.",
    )
    def affected(node: str, depth: int = 2, include_ambiguous: bool = False, format: str = "text") -> str:
        return guarded(lambda: _answer(q.affected(live.index(), node, depth, include_ambiguous), format))

    @text_tool(
        server,
        name="god_nodes",
        description="The most depended-on symbols (files excluded; EXTRACTED and INFERRED edges unless "
        "include_ambiguous).",
    )
    def god_nodes(limit: int = 10, include_ambiguous: bool = False) -> str:
        return guarded(lambda: json.dumps(q.god_nodes(live.index(), limit, include_ambiguous), ensure_ascii=False))

    @text_tool(server, name="community", description="A community's label, size, cohesion and most connected members.")
    def community(community_id: int, limit: int = 50) -> str:
        return guarded(lambda: json.dumps(q.community(live.index(), community_id, limit), ensure_ascii=False))

    @text_tool(
        server, name="stats", description="Counts: nodes, edges, files, kinds, relations, confidence, communities."
    )
    def stats() -> str:
        return guarded(lambda: json.dumps(q.stats(live.index()), ensure_ascii=False))

    return server


def serve(graph: str | Path | None = None) -> None:
    try:
        build_server(graph).run("stdio")
    except KeyboardInterrupt:
        sys.exit(0)
