"""`skillbox graph build` without click: the same command for its plain forms, ~45 ms sooner.

A build is what the agent and hooks run before every graph question, and an up-to-date build takes ~0.15 s, a
third of it importing click and the root group. `BUILD` is the command's one option table:
`cli/graph_build.py::build` is made from it, and `main` reads the plain forms with it and runs the same
`run_build`. Anything else — `--help`, an unknown or malformed option, a number click would refuse,
`SKILLBOX_DEBUG` — returns None and `skillbox.cli.main` hands the arguments to click.
`tests/graph/test_build_fast.py` runs both paths side by side.
"""

from __future__ import annotations

import sys
import time

from skillbox.cli.fast_path import debugging, nothing_left_to_finalize
from skillbox.cli.option_table import Argument, Option, OptionTable, parse_plain, run_twin

MAX_JOBS = 1024
MAX_FILE_BYTES = 1 << 40

BUILD = OptionTable(
    arguments=(Argument("path", default=".", path=True),),
    options=(
        Option("--out", "out_dir", "Output folder (default PATH/skillbox-out).", kind="folder", metavar="DIR"),
        Option("--force", "force", "Ignore the cache and rebuild from scratch.", kind="flag"),
        Option(
            "--max-bytes",
            "max_bytes",
            "Skip source files larger than this (default 1 MB).",
            kind="int",
            metavar="N",
            min=1,
            max=MAX_FILE_BYTES,
        ),
        Option(
            "--jobs",
            "jobs",
            "Worker processes for parsing (default: CPU count).",
            kind="int",
            metavar="N",
            min=1,
            max=MAX_JOBS,
        ),
        Option("--json", "as_json", "Print the build summary as JSON.", kind="flag"),
    ),
)


def parse(args: list[str]) -> dict | None:
    """The build parameters click would pass, or None when click should parse `args`."""
    return parse_plain(BUILD, args)


def progress_printer():
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


def run_build(path: str, out_dir, force: bool, max_bytes, jobs, as_json: bool) -> str:
    """Build, show progress on a terminal, and return what the command prints (SkillboxError propagates)."""
    import json

    from skillbox.graph.build import build_graph
    from skillbox.graph.walk import DEFAULT_MAX_BYTES

    progress = None if as_json else progress_printer()
    result = build_graph(path, out_dir, force, max_bytes=max_bytes or DEFAULT_MAX_BYTES, jobs=jobs, progress=progress)
    if progress is not None:
        sys.stderr.write("\r\033[K")
        seconds = result.summary.get("seconds", {})
        stages = ", ".join(f"{k} {v:.2f}s" for k, v in seconds.items() if k != "total")
        sys.stderr.write(f"stages: {stages}\n")
    # Nothing is left open (files renamed into place, the index's connection closed, every child reaped): the
    # process may end without freeing the build's values (`BuildResult.held`) or tearing the interpreter down.
    nothing_left_to_finalize(result)
    if as_json:
        return json.dumps(result.summary, indent=2, sort_keys=True)
    return summary_line(result.summary)


def main(args: list[str]) -> int | None:
    """Run `skillbox graph build ARGS`; None means "not handled here, use click"."""
    if debugging():
        return None
    params = parse(args)
    if params is None:
        return None
    return run_twin(lambda: run_build(**params))
