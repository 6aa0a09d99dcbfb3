"""`skillbox graph query "QUESTION"`: a token-budgeted neighbourhood of the nodes the question names."""

from __future__ import annotations

import click

from skillbox.cli.graph_options import emit, graph_option, json_option, open_index


@click.command("query")
@click.argument("question")
@click.option(
    "--budget",
    metavar="TOKENS",
    type=click.IntRange(min=50),
    default=1500,
    show_default=True,
    help="Most tokens to print.",
)
@graph_option
@json_option
def query_command(question: str, budget: int, graph_file: str | None, as_json: bool) -> None:
    """Answer QUESTION from the graph: matching nodes first, then their most relevant edges, within --budget."""
    from skillbox.graph.query import query

    emit(query(open_index(graph_file), question, budget), as_json)
