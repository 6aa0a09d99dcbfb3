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
    from skillbox.cli.tree import command_checker
    from skillbox.skills import validate_path

    report = validate_path(path, command_checker())
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


@skills.command("triggers")
@click.argument("path", required=False, type=click.Path(path_type=Path))
@click.option(
    "--request", "requests", multiple=True, help="Score this request instead of the stored evals (repeatable)."
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def triggers(path: Path | None, requests: tuple[str, ...], as_json: bool) -> None:
    """Check which skill each request would pick, judged only by the skills' descriptions (offline, BM25).

    Without --request, scores every skill's evals/triggers.json: requests that should trigger a skill must pick
    it, near misses must not. Exits 1 when any request picks the wrong skill.

    \b
    Example:
      skillbox skills triggers
      skillbox skills triggers --request "make slides from this paper" --json
    """
    from skillbox.skills.triggers import TriggerIndex, evaluate, load_skill_docs
    from skillbox.skills.validate import default_plugin_root

    root = path or default_plugin_root()
    skills_dir = root / "skills" if (root / "skills").is_dir() else root
    if requests:
        index = TriggerIndex(load_skill_docs(skills_dir))
        rows = [{"request": r, "picked": index.pick(r), "ranking": index.rank(r)[:3]} for r in requests]
        if as_json:
            click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
            return
        for row in rows:
            ranking = ", ".join(f"{name} {score:.2f}" for name, score in row["ranking"])
            click.echo(f"{row['picked'] or '(none)'}\t{row['request']}\t[{ranking}]")
        return
    report = evaluate(skills_dir)
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        for result in report.failures:
            expected = "should pick" if result.case.should_trigger else "should not pick"
            click.echo(f"{result.case.skill}: {expected} it: {result.case.request!r} -> {result.picked or '(none)'}")
        click.echo(f"{len(report.results)} requests, {len(report.failures)} picked the wrong skill")
    if report.failures:
        raise SystemExit(1)
