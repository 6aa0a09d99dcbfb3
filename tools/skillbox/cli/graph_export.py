"""`skillbox graph export graphml|cypher|json --out FILE`: the graph for Gephi, Neo4j or other tools."""

from __future__ import annotations

import json

import click

from skillbox.cli.graph_options import graph_option, json_option


@click.command("export")
@click.argument("format", type=click.Choice(["graphml", "cypher", "json"]))
@click.option("--out", "out", metavar="FILE", type=click.Path(dir_okay=False), required=True, help="File to write.")
@graph_option
@json_option
def export_command(format: str, out: str, graph_file: str | None, as_json: bool) -> None:
    """Write the graph as GraphML (Gephi, yEd), Cypher (Neo4j) or node-link JSON, with community ids."""
    from pathlib import Path

    from skillbox.graph.code_graph import load_graph
    from skillbox.graph.export import export_graph

    fmt = format
    summary = export_graph(load_graph(graph_file), fmt, Path(out))
    if as_json:
        click.echo(json.dumps(summary))
    else:
        click.echo(f"wrote {summary['out']} ({fmt}: {summary['nodes']} nodes, {summary['edges']} edges)")
