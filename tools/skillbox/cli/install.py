"""`skillbox install` / `skillbox uninstall`: put skillbox into another coding agent, or take it out exactly."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click

from skillbox.install.platforms import PLATFORMS


def _scope_options(func):
    func = click.option(
        "--user", "scope", flag_value="user", default=True, help="Into your home folder, for every project (default)."
    )(func)
    func = click.option("--project", "scope", flag_value="project", help="Into this project (the repository root).")(
        func
    )
    return click.option(
        "--platform",
        "platform_name",
        required=True,
        type=click.Choice(list(PLATFORMS)),
        help="The agent: " + ", ".join(f"{p.name} ({p.label})" for p in PLATFORMS.values()) + ".",
    )(func)


def _shown(path: Path) -> str:
    home = os.path.expanduser("~")
    text = str(path)
    return "~" + text[len(home) :] if home not in ("", "/") and text.startswith(home + os.sep) else text


def _report(plan, done_or_planned, *, dry_run: bool, as_json: bool, verb: str) -> None:
    changes = [c for c in done_or_planned if c.role != "record"]
    if as_json:
        data = {
            "platform": plan.platform.name,
            "scope": plan.scope,
            "root": str(plan.root),
            "dryRun": dry_run,
            "changes": [{"path": str(c.path), "action": c.action, "role": c.role} for c in changes],
            "notes": plan.notes,
            "record": str(plan.record_dir),
        }
        if dry_run:  # what would be written, so a person can add it by hand
            data["contents"] = {
                str(c.path): c.after.decode("utf-8", "replace") for c in changes if c.after and c.role != "skill"
            }
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    would = "would " if dry_run else ""
    click.echo(f"skillbox {verb} --platform {plan.platform.name} ({plan.platform.label}, {plan.scope} scope):")
    skills = [c for c in changes if c.role == "skill"]
    if skills:
        names = {c.path.parent.name if c.path.name == "SKILL.md" else None for c in skills} - {None}
        folder = os.path.commonpath([str(c.path) for c in skills])
        counts = {}
        for change in skills:
            counts[change.action] = counts.get(change.action, 0) + 1
        summary = ", ".join(f"{action} {n} file{'s' if n != 1 else ''}" for action, n in sorted(counts.items()))
        click.echo(f"  skills: {would}{summary} in {_shown(Path(folder))}"
                   + (f" ({len(names)} skills)" if names else ""))  # fmt: skip
    for change in changes:
        if change.role != "skill":
            click.echo(f"  {would}{change.action} {_shown(change.path)}")
    if not changes:
        click.echo("  nothing to change: already in place")
    for note in plan.notes:
        click.echo(f"  note: {note}")


@click.command("install")
@_scope_options
@click.option("--dry-run", is_flag=True, help="Print what would change; write nothing.")
@click.option(
    "--source",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    metavar="DIR",
    help="The skillbox checkout whose skills/ to install (default: the one around the working folder).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the changes as JSON (with --dry-run: and the contents).")
def install(platform_name: str, scope: str, dry_run: bool, source: Path | None, as_json: bool) -> None:
    """Install the skills, the graph and mem MCP servers and the memory hooks into another agent.

    Existing configs are merged, never replaced; the original bytes are kept so that `skillbox uninstall` can
    restore them exactly. Re-running is safe: an unchanged install changes nothing.

    \b
    Example:
      skillbox install --platform codex --dry-run
      skillbox install --platform gemini --project
    """
    from skillbox.install import engine

    plan = engine.plan_install(platform_name, scope, cwd=Path.cwd(), env=dict(os.environ), source=source)
    changes = plan.real_changes() if dry_run else engine.apply(plan)
    _report(plan, changes, dry_run=dry_run, as_json=as_json, verb="install")


@click.command("uninstall")
@_scope_options
@click.option("--dry-run", is_flag=True, help="Print what would change; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the changes as JSON.")
def uninstall(platform_name: str, scope: str, dry_run: bool, as_json: bool) -> None:
    """Take skillbox out of another agent: configs get their original bytes back, copied skills are removed.

    A config edited since the install keeps those edits and loses only skillbox's entries; a skill file edited
    since is kept.

    \b
    Example:
      skillbox uninstall --platform codex
    """
    from skillbox.install import engine

    plan = engine.plan_uninstall(platform_name, scope, cwd=Path.cwd(), env=dict(os.environ))
    changes = plan.real_changes() if dry_run else engine.apply(plan)
    _report(plan, changes, dry_run=dry_run, as_json=as_json, verb="uninstall")
