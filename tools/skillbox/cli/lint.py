"""`skillbox lint`: lint HyperFrames compositions; `lint rules`, `lint explain CODE`.

`lint` is both a command taking PATHs and a group with subcommands. The first argument decides: exactly `rules`
or `explain` runs that subcommand; anything else (including options first) lints paths. A folder that happens to
be called `rules` is linted with `skillbox lint ./rules` (or `rules/`).
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from skillbox.cli.lint_fast import LINT
from skillbox.cli.option_table import click_params
from skillbox.errors import UsageError


class PathsOrSubcommand(click.Group):
    """A group whose default (hidden) command lints paths unless the first argument names a subcommand."""

    default_command = "paths"

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        names_subcommand = bool(args) and args[0] in self.commands and args[0] != self.default_command
        if not names_subcommand and not (args and args[0] in ("-h", "--help")):
            args = [self.default_command, *args]
        return super().parse_args(ctx, args)

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        paths_cmd = self.commands[self.default_command]
        with click.Context(paths_cmd, info_name=ctx.info_name, parent=ctx.parent) as sub_ctx:
            paths_cmd.format_help(sub_ctx, formatter)
        self.format_commands(ctx, formatter)


@click.group(cls=PathsOrSubcommand, context_settings={"help_option_names": ["-h", "--help"]})
def lint() -> None:
    """Lint HyperFrames compositions."""


@lint.command("paths", hidden=True)
@click_params(LINT)
def lint_paths_command(paths, fmt, as_json, fix, diff, select, ignore, no_config, cache) -> None:
    """Lint composition files or project folders (index.html + compositions/**).

    Usage: skillbox lint PATH... [--format text|json|sarif] [--fix [--diff]] [--select CODES] [--ignore CODES]

    Exit 1 when any error is found, 0 otherwise, 2 on usage errors. Silence one element with an HTML comment
    right before it: <!-- skillbox-lint: ignore[code] -->; a whole file with <!-- skillbox-lint: ignore-file[code] -->.
    Settings: [tool.skillbox.lint] in pyproject.toml or [lint] in skillbox.toml (select, ignore, severity).
    --cache reuses an identical earlier run's output when nothing it read changed (only on the plain, click-free
    path; here, e.g. with --fix or SKILLBOX_DEBUG, every run lints).
    """
    from skillbox.cli.lint_fast import lint_report, selection_for
    from skillbox.lint.engine import lint_paths

    if diff and not fix:
        raise UsageError("--diff only makes sense with --fix")
    if as_json:
        fmt = "json"
    paths = [Path(p) for p in paths] or [Path(".")]
    selection = selection_for(paths, select, ignore, no_config)
    if fix:
        from skillbox.lint.fix import fix_paths

        report = fix_paths(paths, selection, write=not diff)
        if diff:
            text = report.diff()
            if text:
                click.echo(text, nl=False)
            raise SystemExit(1 if report.changed else 0)
        result = report.result
        click.echo(f"fixed {report.applied} issue(s) in {len(report.changed)} file(s)", err=True)
    else:
        result = lint_paths(paths, selection)
    text, code = lint_report(result, paths, fmt)
    click.echo(text)
    raise SystemExit(code)


@lint.command("rules")
@click.option("--json", "as_json", is_flag=True, help="Print the rule table as JSON.")
@click.option("--group", help="Only rules of this group.")
def lint_rules(as_json: bool, group: str | None) -> None:
    """List every rule: code, severity, group, summary."""
    from skillbox.lint.formats import rule_table
    from skillbox.lint.registry import all_rules

    rows = [r for r in rule_table(all_rules()) if group is None or r["group"] == group]
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    width = max((len(r["code"]) for r in rows), default=4)
    for row in rows:
        mark = "*" if row["fixable"] else " "
        click.echo(f"{row['code']:<{width}}  {row['severity']:<7}  {row['group']:<11} {mark} {row['summary']}")
    click.echo(f"{len(rows)} rules (* = autofix with --fix)")


@lint.command("explain")
@click.argument("code")
@click.option("--json", "as_json", is_flag=True, help="Print the rule's documentation as JSON.")
def lint_explain(code: str, as_json: bool) -> None:
    """Explain one rule: why it matters, a bad and a good example, the fix."""
    from skillbox.lint.formats import explain
    from skillbox.lint.registry import all_rules

    rules = all_rules()
    if code not in rules:
        raise UsageError(f"unknown rule code: {code}", hint="see `skillbox lint rules`")
    r = rules[code]
    if as_json:
        click.echo(
            json.dumps(
                {
                    "code": r.code,
                    "severity": r.severity,
                    "group": r.group,
                    "summary": r.summary,
                    "explanation": r.explanation,
                    "bad": r.bad.snippet,
                    "good": r.good.snippet,
                    "fixHint": r.fix_hint,
                    "fixable": r.fixable,
                },
                indent=2,
            )
        )
        return
    click.echo(explain(r))
