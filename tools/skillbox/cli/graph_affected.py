"""`skillbox graph affected NODE`: the blast radius of changing a node."""

from __future__ import annotations

import click

from skillbox.cli.graph_options import emit, graph_option, json_option, open_index

MAX_DEPTH = 10_000  # more hops than any graph has levels; keeps the number a plain machine integer


@click.command("affected")
@click.argument("node")
@click.option(
    "--depth",
    metavar="N",
    type=click.IntRange(min=1, max=MAX_DEPTH),
    default=2,
    show_default=True,
    help="Reverse hops to follow.",
)
@click.option(
    "--include-ambiguous",
    is_flag=True,
    help="Also follow AMBIGUOUS edges (calls the graph could not pin to one definition).",
)
@graph_option
@json_option
def affected_command(node: str, depth: int, include_ambiguous: bool, graph_file: str | None, as_json: bool) -> None:
    """Everything that depends on NODE (reverse calls/imports/inherits), grouped by file, each with the weakest
    confidence on its chain. A constructor counts its class's users; AMBIGUOUS edges are left out (and counted)
    unless --include-ambiguous."""
    from skillbox.graph.query import affected

    emit(affected(open_index(graph_file), node, depth, include_ambiguous), as_json)
