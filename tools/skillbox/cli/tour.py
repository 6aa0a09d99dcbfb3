"""`skillbox tour`: run every helper on its built-in sample and say where to look."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import click

# Commands about skillbox itself rather than helpers with samples to show.
NOT_HELPERS = {"tour", "doctor"}


def _untoured_groups() -> list[str]:
    """Command groups that have no tour step yet, named so the output is honest about what it did not show."""
    from skillbox.cli.root import COMMANDS
    from skillbox.tour import TOUR_STEPS

    return sorted(name for name in COMMANDS if name not in TOUR_STEPS and name not in NOT_HELPERS)


@click.command()
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="Folder for the step outputs (default: a new temporary folder, kept afterwards).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the outcome of every step as JSON.")
@click.pass_context
def tour(ctx: click.Context, out: Path | None, as_json: bool) -> None:
    """Run every helper on its built-in sample and print what each produced and where to look.

    Exits 1 if any step fails.

    \b
    Example:
      skillbox tour
      skillbox tour --out /tmp/skillbox-tour --json
    """
    from skillbox.cli.root import debug_enabled
    from skillbox.tour import run_tour

    workdir = out if out is not None else Path(tempfile.mkdtemp(prefix="skillbox-tour-"))
    try:
        workdir.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise click.BadParameter(f"cannot create {workdir}: {err.strerror}", param_hint="'--out'") from None
    from skillbox.cli.tree import command_checker

    outcomes = run_tour(workdir, keep_going=not debug_enabled(ctx), check_command=command_checker())
    ok = all(outcome.report.ok for outcome in outcomes)
    untoured = _untoured_groups()
    if as_json:
        data = {
            "ok": ok,
            "workdir": str(workdir),
            "steps": [
                {
                    "name": outcome.name,
                    "title": outcome.report.title,
                    "ok": outcome.report.ok,
                    "seconds": round(outcome.seconds, 3),
                    "lines": outcome.report.lines,
                    "outputs": [str(path) for path in outcome.report.outputs],
                }
                for outcome in outcomes
            ],
            "notInTourYet": untoured,
        }
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        click.echo(f"skillbox tour: {len(outcomes)} step(s) in {workdir}")
        for outcome in outcomes:
            status = "ok" if outcome.report.ok else "FAILED"
            click.echo(f"\n== {outcome.name}: {outcome.report.title} [{status}, {outcome.seconds:.2f} s]")
            for line in outcome.report.lines:
                click.echo(f"  {line}")
            for path in outcome.report.outputs:
                click.echo(f"  look at: {path}")
        if untoured:
            click.echo(f"\nNo tour step yet for: {', '.join(untoured)}")
        click.echo("\nall steps ok" if ok else "\nsome steps FAILED")
    if not ok:
        raise SystemExit(1)
