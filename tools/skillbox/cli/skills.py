"""`skillbox skills`: validate SKILL.md packages, slash commands and the plugin manifests."""

from __future__ import annotations

import json
from pathlib import Path

import click


@click.group()
def skills() -> None:
    """Check Agent Skills packages, slash commands and the .claude-plugin manifests."""


@skills.command("validate")
@click.argument("path", required=False, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def validate(path: Path | None, as_json: bool) -> None:
    """Validate a plugin root (default: the one around the working folder), a skill folder or a command file.

    Prints one line per problem, `file:line: code: message`; exits 1 when there is any.

    \b
    Example:
      skillbox skills validate
      skillbox skills validate skills/code-graph --json
    """
    from skillbox.skills import validate_path

    report = validate_path(path)
    if as_json:
        click.echo(json.dumps(report.as_dict(), indent=2, ensure_ascii=False))
    else:
        for problem in report.problems:
            click.echo(problem.render())
        checked = len(report.checked)
        noun = "item" if checked == 1 else "items"
        if report.ok:
            click.echo(f"ok: {checked} {noun} checked in {report.target}, no problems")
        else:
            count = len(report.problems)
            click.echo(f"{count} problem{'s' if count != 1 else ''} in {checked} {noun} checked in {report.target}")
    if not report.ok:
        raise SystemExit(1)
