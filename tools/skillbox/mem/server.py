"""`skillbox mem mcp`: the memory search tools over MCP (stdio), for agents that prefer tools to a shell.

Three tools with the CLI's parameters — `search`, `timeline`, `get_observations` — named like claude-mem's so the
search -> timeline -> fetch workflow transfers unchanged. Each call opens the database afresh: hooks write while
the server runs, and WAL lets these reads see every committed write without blocking them.
"""

from __future__ import annotations

import json

from skillbox.mcp_server import guarded, server_class, text_tool

INSTRUCTIONS = (
    "Persistent memory of past Claude Code sessions in this machine's projects. Workflow: call `search` for a "
    "compact index (one line per hit: ref, date, type, title, ~tokens), `timeline` around an interesting ref to see "
    "what happened before and after it, then `get_observations` with the few refs worth reading in full. Refs: 12 "
    "or #12 (observation), S3 (turn summary), P7 (prompt)."
)


def tool_search(
    query: str = "",
    type: str | None = None,
    project: str | None = None,
    since: str | None = None,
    until: str | None = None,
    file: str | None = None,
    concept: str | None = None,
    limit: int = 20,
    format: str = "text",
) -> str:
    from skillbox.mem.search import build_filters, format_search, search
    from skillbox.mem.store import open_store

    filters = build_filters((type,) if type else (), (), project, since, until, file, concept)
    with open_store() as store:
        result = search(store, query, filters, limit=limit)
    return json.dumps(result.to_dict(), ensure_ascii=False) if format == "json" else format_search(result)


def tool_timeline(
    anchor: str, before: int = 5, after: int = 5, project: str | None = None, format: str = "text"
) -> str:
    from skillbox.mem.search import format_timeline, timeline
    from skillbox.mem.store import open_store

    with open_store() as store:
        result = timeline(store, anchor, before=before, after=after, project=project)
    return json.dumps(result.to_dict(), ensure_ascii=False) if format == "json" else format_timeline(result)


def tool_get_observations(ids: list[str]) -> str:
    from skillbox.errors import NotFoundError, UsageError
    from skillbox.mem.search import get_records
    from skillbox.mem.store import open_store

    if not ids:
        raise UsageError("ids is empty", hint="pass refs such as 12, S3, P7")
    with open_store() as store:
        found, missing = get_records(store, [str(i) for i in ids])
    if not found:
        raise NotFoundError(f"no record {', '.join(missing)} in memory", hint="refs come from search or timeline")
    return json.dumps({"records": found, "missing": missing}, ensure_ascii=False, indent=1)


def build_server():
    server = server_class()(name="skillbox-mem", instructions=INSTRUCTIONS)

    @text_tool(
        server,
        name="search",
        description="Search memory; words match in any order, the last one also as a prefix. " + INSTRUCTIONS,
    )
    def search(
        query: str = "",
        type: str | None = None,
        project: str | None = None,
        since: str | None = None,
        until: str | None = None,
        file: str | None = None,
        concept: str | None = None,
        limit: int = 20,
        format: str = "text",
    ) -> str:
        """type: observations|summaries|prompts or an observation type; since/until: YYYY-MM-DD or 3d."""
        return guarded(tool_search, query, type, project, since, until, file, concept, limit, format)

    @text_tool(
        server,
        name="timeline",
        description="Records before and after an anchor: a ref (12, S3, P7), a session id or a date (YYYY-MM-DD).",
    )
    def timeline(anchor: str, before: int = 5, after: int = 5, project: str | None = None, format: str = "text") -> str:
        return guarded(tool_timeline, anchor, before, after, project, format)

    @text_tool(
        server,
        name="get_observations",
        description="Full records for several refs in one call (12 or #12 observation, S3 summary, P7 prompt).",
    )
    def get_observations(ids: list[str]) -> str:
        return guarded(tool_get_observations, ids)

    return server


def serve() -> None:
    build_server().run("stdio")
