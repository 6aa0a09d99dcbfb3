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
}


@click.group(cls=LazyGroup, lazy_commands=GRAPH_COMMANDS)
def graph() -> None:
    """Build and query a tree-sitter knowledge graph of a codebase."""
