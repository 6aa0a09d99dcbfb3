"""Options and output shared by the graph commands that read a built graph (query, path, explain, affected)."""

from __future__ import annotations

import json

import click

from skillbox.graph.code_graph import DEFAULT_GRAPH


def graph_option(func):
    return click.option(
        "--graph",
        "graph_file",
        metavar="FILE",
        type=click.Path(dir_okay=False),
        default=None,
        help=f"graph.json to read (default: ./{DEFAULT_GRAPH.as_posix()}).",
    )(func)


def json_option(func):
    return click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")(func)


def open_index(graph_file: str | None):
    """Open the graph's query index, warning on stderr (and still answering) when sources are newer."""
    from skillbox.graph.index import GraphIndex
    from skillbox.graph.staleness import staleness_warning

    index = GraphIndex.open(graph_file)
    warning = staleness_warning(index)
    if warning:
        click.echo(warning, err=True)
    return index


def emit(answer: dict, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps({k: v for k, v in answer.items() if k != "text"}, indent=2, ensure_ascii=False))
    else:
        click.echo(answer["text"])
