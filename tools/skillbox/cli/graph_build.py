"""`skillbox graph build`: parse, call `build_graph`, print the summary."""

from __future__ import annotations

import json
import sys
import time

import click


def _progress_printer():
    """Live progress on a terminal; nothing otherwise (the one-line summary follows either way)."""
    if not sys.stderr.isatty():
        return None
    started = time.perf_counter()

    def report(stage: str, done: int, total: int) -> None:
        elapsed = time.perf_counter() - started
        sys.stderr.write(f"\r\033[K{stage}: {done}/{total} files  {elapsed:.1f}s")
        sys.stderr.flush()

    return report


def summary_line(summary: dict) -> str:
    head = "graph up to date" if summary.get("up_to_date") else "graph built"
    cache = summary.get("cache", {})
    skipped = sum(summary.get("skipped", {}).values())
    confidence = summary.get("confidence", {})
    split = " ".join(f"{k[0]}={v}" for k, v in confidence.items())
    warnings = summary.get("warnings", {})
    warn = sum(warnings.values())
    total = summary.get("seconds", {}).get("total", 0.0)
    return (
        f"{head}: {summary['files']} files, {summary['nodes']} nodes, {summary['edges']} edges ({split}); "
        f"parsed {cache.get('misses', 0)}, cached {cache.get('hits', 0)}; skipped {skipped}; "
        f"warnings {warn}; {total:.2f}s -> {summary['graph']}"
    )


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
    from skillbox.graph.build import build_graph
    from skillbox.graph.walk import DEFAULT_MAX_BYTES

    progress = None if as_json else _progress_printer()
    result = build_graph(path, out_dir, force, max_bytes=max_bytes or DEFAULT_MAX_BYTES, jobs=jobs, progress=progress)
    if progress is not None:
        sys.stderr.write("\r\033[K")
        seconds = result.summary.get("seconds", {})
        stages = ", ".join(f"{k} {v:.2f}s" for k, v in seconds.items() if k != "total")
        sys.stderr.write(f"stages: {stages}\n")
    if as_json:
        click.echo(json.dumps(result.summary, indent=2, sort_keys=True))
    else:
        click.echo(summary_line(result.summary))
