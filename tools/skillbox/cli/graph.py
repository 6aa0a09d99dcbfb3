"""`skillbox graph`: the code knowledge graph.

Each subcommand lives in its own module and is imported only when used, so `skillbox graph query` does not pay
for tree-sitter and `skillbox graph build` does not pay for the query engine.
"""

from __future__ import annotations

import click

from skillbox.cli.root import LazyGroup

# name -> "module:attribute"; add a subcommand by adding a line.
GRAPH_COMMANDS: dict[str, str] = {
    "build": "skillbox.cli.graph_build:build",
    "query": "skillbox.cli.graph_query:query_command",
    "path": "skillbox.cli.graph_path:path_command",
    "explain": "skillbox.cli.graph_explain:explain_command",
    "affected": "skillbox.cli.graph_affected:affected_command",
    "mcp": "skillbox.cli.graph_mcp:mcp_command",
    "export": "skillbox.cli.graph_export:export_command",
    "report": "skillbox.cli.graph_report:report_command",
}


@click.group(cls=LazyGroup, lazy_commands=GRAPH_COMMANDS)
def graph() -> None:
    """Build and query a tree-sitter knowledge graph of a codebase."""
