"""`skillbox graph mcp`: serve the graph's queries to an agent over stdio MCP."""

from __future__ import annotations

import click

from skillbox.cli.graph_options import graph_option


@click.command("mcp")
@graph_option
def mcp_command(graph_file: str | None) -> None:
    """Run a stdio MCP server with query, path, explain, affected, god_nodes, community and stats.

    It answers from the latest build: when graph.json changes, the next call sees the new graph.
    """
    from skillbox.graph.server import serve

    serve(graph_file)
