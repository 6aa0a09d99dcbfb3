"""`skillbox graph affected NODE`: the blast radius of changing a node."""

from __future__ import annotations

import click

from skillbox.cli.graph_options import emit, graph_option, json_option, open_index


@click.command("affected")
@click.argument("node")
@click.option(
    "--depth", metavar="N", type=click.IntRange(min=1), default=2, show_default=True, help="Reverse hops to follow."
)
@graph_option
@json_option
def affected_command(node: str, depth: int, graph_file: str | None, as_json: bool) -> None:
    """Everything that depends on NODE (reverse calls/imports/inherits), grouped by file."""
    from skillbox.graph.query import affected

    emit(affected(open_index(graph_file), node, depth), as_json)
