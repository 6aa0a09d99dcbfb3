"""`skillbox graph explain NODE`: one node with its docstring, neighbours and community."""

from __future__ import annotations

import click

from skillbox.cli.graph_options import emit, graph_option, json_option, open_index


@click.command("explain")
@click.argument("node")
@graph_option
@json_option
def explain_command(node: str, graph_file: str | None, as_json: bool) -> None:
    """What NODE is, where it lives, what calls it, what it calls and imports, and its community.

    NODE is a node id, `path::name`, or a unique name (exit 3 lists candidates when ambiguous, exit 4 suggests
    close names when nothing matches).
    """
    from skillbox.graph.query import explain

    emit(explain(open_index(graph_file), node), as_json)
