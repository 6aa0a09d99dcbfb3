"""`skillbox graph report`: (re)write communities.json, GRAPH_REPORT.md and graph.html beside a graph.json.

`build` writes these itself; this command refreshes them alone (e.g. after `--fresh` clustering, or for a
graph.json made elsewhere).
"""

from __future__ import annotations

import json

import click

from skillbox.cli.graph_options import graph_option, json_option


@click.command("report")
@graph_option
@click.option("--fresh", is_flag=True, help="Cluster from scratch instead of seeding from communities.json.")
@click.option("--no-html", is_flag=True, help="Skip graph.html.")
@click.option(
    "--include-ambiguous",
    is_flag=True,
    help="Count AMBIGUOUS edges in god nodes, community hubs and surprising connections.",
)
@json_option
def report_command(graph_file: str | None, fresh: bool, no_html: bool, include_ambiguous: bool, as_json: bool) -> None:
    """Write communities.json, GRAPH_REPORT.md, graph.html and the query index next to graph.json."""
    from skillbox.graph.code_graph import load_graph, resolve_graph_path
    from skillbox.graph.outputs import write_use_outputs

    graph_path = resolve_graph_path(graph_file)
    outputs = write_use_outputs(
        load_graph(graph_path), graph_path, html=not no_html, fresh=fresh, include_ambiguous=include_ambiguous
    )
    summary = {
        "report": str(outputs.report),
        "html": str(outputs.html) if outputs.html else None,
        "communities": str(outputs.communities),
        "community_count": outputs.community_count,
        "moved": outputs.moved,
        "seconds": {k: round(v, 3) for k, v in outputs.seconds.items()},
    }
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    else:
        moved = "" if outputs.moved is None else f", {outputs.moved} nodes changed community"
        click.echo(
            f"wrote {outputs.report}, {outputs.html or '(no html)'}: {outputs.community_count} communities{moved}"
        )
