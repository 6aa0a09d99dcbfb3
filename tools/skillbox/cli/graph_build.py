"""`skillbox graph build`: parse, call `build_graph`, print the summary.

Made from the option table `BUILD`; its plain forms usually never reach click: `cli/graph_build_fast.py` reads
them with the same table and runs the same `run_build`."""

from __future__ import annotations

import click

from skillbox.cli.graph_build_fast import BUILD, run_build
from skillbox.cli.option_table import click_params


@click.command("build")
@click_params(BUILD)
def build(path: str, out_dir: str | None, force: bool, max_bytes: int | None, jobs: int | None, as_json: bool) -> None:
    """Build (or update) PATH/skillbox-out/graph.json; incremental unless --force."""
    click.echo(run_build(path, out_dir, force, max_bytes, jobs, as_json))
