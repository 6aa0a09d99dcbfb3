"""`skillbox graph path SOURCE TARGET`: how two symbols are connected."""

from __future__ import annotations

import click

from skillbox.cli.graph_options import emit, graph_option, json_option, open_index


@click.command("path")
@click.argument("source")
@click.argument("target")
@graph_option
@json_option
def path_command(source: str, target: str, graph_file: str | None, as_json: bool) -> None:
    """Shortest meaningful path from SOURCE to TARGET (calls/imports/inherits preferred over contains, forward
    hops over reversed ones, which are marked), each hop with its confidence.

    Exits 1 when the two nodes are not connected.
    """
    from skillbox.graph.query import path

    answer = path(open_index(graph_file), source, target)
    emit(answer, as_json)
    if not answer["found"]:
        raise SystemExit(1)
