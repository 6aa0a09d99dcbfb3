"""`skillbox lint PATH...` without click: the command a user (or an agent after every edit) runs most.

Importing click and the root group is a large share of a per-project `skillbox lint` process (the lint itself is
a few ms per file). This twin of `cli/lint.py::lint_paths_command` handles the plain forms — paths, `--format`,
`--json`, `--select`, `--ignore`, `--no-config` — and prints exactly what the click command prints; `--fix`,
`--help`, the `rules`/`explain` subcommands, anything unusual and `SKILLBOX_DEBUG` return None so click takes
over. `selection_for` and `lint_report` are the one home of that logic: the click command calls them too.
"""

from __future__ import annotations

from pathlib import Path

from skillbox.cli.fast_path import debugging, echo, failed, scan

VALUE_OPTIONS = {"--format": "fmt", "--select": "select", "--ignore": "ignore"}
FLAG_OPTIONS = {"--json": "as_json", "--no-config": "no_config"}
FORMATS = ("text", "json", "sarif")
SUBCOMMANDS = ("rules", "explain", "paths")


def _codes(value: str | None) -> set[str] | None:
    if value is None:
        return None
    return {c.strip() for c in value.split(",") if c.strip()}


def selection_for(paths: list[Path], select: str | None, ignore: str | None, no_config: bool):
    """The rule selection from options and the nearest config file (options win for select, add for ignore)."""
    from skillbox.lint.engine import Selection, validate_codes

    settings = {"select": None, "ignore": set(), "severity": {}}
    if not no_config:
        from skillbox.lint.config import find_config, read_settings

        found = find_config(paths[0])
        if found is not None:
            settings = read_settings(*found)
    select_codes = _codes(select) if select is not None else settings["select"]
    ignore_codes = (_codes(ignore) or set()) | settings["ignore"]
    for codes in (select_codes or set(), ignore_codes, set(settings["severity"])):
        validate_codes(codes)
    return Selection(select_codes, ignore_codes, settings["severity"])


def lint_report(result, paths: list[Path], fmt: str) -> tuple[str, int]:
    """(text to print, exit code) for a finished lint; a run that found no composition is an error."""
    from skillbox.errors import NotFoundError
    from skillbox.lint.formats import render
    from skillbox.lint.registry import all_rules

    if result.files_scanned == 0:
        where = ", ".join(str(p) for p in paths)
        raise NotFoundError(f"no composition found in {where}", hint="a project has index.html; or pass .html files")
    return render(result, fmt, all_rules()), 0 if result.ok else 1


def main(args: list[str]) -> int | None:
    """Run `skillbox lint ARGS`; None means "not handled here, use click"."""
    if debugging() or (args and args[0] in SUBCOMMANDS):
        return None
    scanned = scan(args, VALUE_OPTIONS, FLAG_OPTIONS)
    if scanned is None:
        return None
    positionals, pairs = scanned
    params = {"fmt": "text", "select": None, "ignore": None, "as_json": False, "no_config": False}
    for option, value in pairs:
        params[VALUE_OPTIONS.get(option) or FLAG_OPTIONS[option]] = value
    if params["fmt"] not in FORMATS:
        return None  # click reports the bad choice
    fmt = "json" if params["as_json"] else params["fmt"]
    paths = [Path(p) for p in positionals] or [Path(".")]
    from skillbox.errors import SkillboxError
    from skillbox.lint.engine import lint_paths

    try:
        selection = selection_for(paths, params["select"], params["ignore"], params["no_config"])
        text, code = lint_report(lint_paths(paths, selection), paths, fmt)
    except SkillboxError as err:
        return failed(err)
    return echo(text) or code
