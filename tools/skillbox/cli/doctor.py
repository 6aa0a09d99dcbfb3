"""`skillbox doctor`: environment, launcher venv, plugin manifests and skills, hooks, memory location."""

from __future__ import annotations

import json
from pathlib import Path

import click

LABELS = {"ok": "ok", "warn": "WARN", "fail": "FAIL"}


@click.command()
@click.option(
    "--plugin-root",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    metavar="DIR",
    help="Plugin folder to check (default: $CLAUDE_PLUGIN_ROOT, this checkout, or the working folder).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def doctor(plugin_root: Path | None, as_json: bool) -> None:
    """Check that skillbox can work here; each problem comes with one line saying how to fix it.

    Exits 1 when something is broken (warnings alone exit 0).

    \b
    Example:
      skillbox doctor
      skillbox doctor --json
    """
    from skillbox.cli.tree import command_checker
    from skillbox.doctor import run_doctor

    report = run_doctor(plugin_root, command_checker())
    if as_json:
        click.echo(json.dumps(report.as_dict(), indent=2, ensure_ascii=False))
    else:
        for check in report.checks:
            click.echo(f"{LABELS[check.status]:<5} {check.name:<14} {check.summary}")
            for issue in check.issues:
                click.echo(f"      {issue.severity}: {issue.message}")
                click.echo(f"        fix: {issue.fix}")
        failed = sum(check.status == "fail" for check in report.checks)
        click.echo("\nall checks passed" if report.ok else f"\n{failed} check(s) failed")
    if not report.ok:
        raise SystemExit(1)
