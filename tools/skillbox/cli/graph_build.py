"""`skillbox graph build`: parse, call `build_graph`, print the summary.

Its plain forms usually never reach click: `cli/graph_build_fast.py` parses them and runs the same `run_build`."""

from __future__ import annotations

import click

from skillbox.cli.graph_build_fast import run_build


@click.command("build")
@click.argument("path", default=".", type=click.Path(file_okay=True, dir_okay=True, path_type=str))
@click.option(
    "--out",
    "out_dir",
    metavar="DIR",
    type=click.Path(file_okay=False, path_type=str),
    help="Output folder (default PATH/skillbox-out).",
)
@click.option("--force", is_flag=True, help="Ignore the cache and rebuild from scratch.")
@click.option(
    "--max-bytes",
    metavar="N",
    type=click.IntRange(min=1),
    default=None,
    help="Skip source files larger than this (default 1 MB).",
)
@click.option(
    "--jobs",
    metavar="N",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes for parsing (default: CPU count).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the build summary as JSON.")
def build(path: str, out_dir: str | None, force: bool, max_bytes: int | None, jobs: int | None, as_json: bool) -> None:
    """Build (or update) PATH/skillbox-out/graph.json; incremental unless --force."""
    click.echo(run_build(path, out_dir, force, max_bytes, jobs, as_json))
