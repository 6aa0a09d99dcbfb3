"""`skillbox lint PATH...` without click: the command a user (or an agent after every edit) runs most.

Importing click and the root group is a large share of a per-project `skillbox lint` process (the lint itself is
a few ms per file). This twin of `cli/lint.py::lint_paths_command` handles the plain forms — paths, `--format`,
`--json`, `--select`, `--ignore`, `--no-config` — and prints exactly what the click command prints; `--fix`,
`--help`, the `rules`/`explain` subcommands, anything unusual and `SKILLBOX_DEBUG` return None so click takes
over. `selection_for` and `lint_report` are the one home of that logic: the click command calls them too.
"""

from __future__ import annotations

from skillbox.cli.fast_path import debugging, echo, failed, nothing_left_to_finalize, terminal_text
from skillbox.cli.option_table import Argument, Option, OptionTable, parse_plain

if False:  # annotations only (the lint path does without pathlib, see lint/paths.py)
    from pathlib import Path

FORMATS = ("text", "json", "sarif")
SUBCOMMANDS = ("rules", "explain", "paths")
# The command's one option table: `cli/lint.py::lint_paths_command` is made from it, and `main` reads the plain
# forms with it (`--fix`/`--diff` go to click, which owns the writing path).
LINT = OptionTable(
    arguments=(Argument("paths", many=True),),
    options=(
        Option("--format", "fmt", "Output format.", kind="choice", choices=FORMATS, default="text", show_default=True),
        Option("--json", "as_json", "Same as --format json.", kind="flag"),
        Option("--fix", "fix", "Apply the safe autofixes in place (other bytes are preserved).", kind="flag"),
        Option("--diff", "diff", "With --fix: print the changes as a unified diff, write nothing.", kind="flag"),
        Option("--select", "select", "Comma-separated rule codes or groups to run (default: all)."),
        Option("--ignore", "ignore", "Comma-separated rule codes or groups to skip."),
        Option("--no-config", "no_config", "Ignore [tool.skillbox.lint] / skillbox.toml settings.", kind="flag"),
        Option(
            "--cache",
            "cache",
            "Reuse the output of an identical earlier run when no file it read has changed (kept outside the "
            "project, see lint/result_cache.py).",
            kind="flag",
        ),
    ),
)


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
        from skillbox.lint.paths import clean

        where = ", ".join(clean(p) for p in paths)
        raise NotFoundError(f"no composition found in {where}", hint="a project has index.html; or pass .html files")
    return render(result, fmt, all_rules()), 0 if result.ok else 1


def _import_linter() -> None:
    """Import the linter with the cyclic garbage collector paused: the imports allocate tens of thousands of
    long-lived objects (rule tables, compiled patterns, classes) and no garbage, so the collections they trigger
    are pure cost (a few % of a per-project run). The objects are then frozen out of future collections and the
    collector resumes before any file is parsed. Only for the first import in a process."""
    import sys

    if "skillbox.lint.engine" in sys.modules:
        return
    import gc

    enabled = gc.isenabled()
    gc.disable()
    try:
        import skillbox.lint.engine  # noqa: F401
        from skillbox.lint.registry import all_rules

        all_rules()
    finally:
        if enabled:
            gc.freeze()
            gc.enable()


def main(args: list[str]) -> int | None:
    """Run `skillbox lint ARGS`; None means "not handled here, use click"."""
    if debugging() or (args and args[0] in SUBCOMMANDS):
        return None
    params = parse_plain(LINT, args)
    if params is None or params["fix"] or params["diff"]:
        return None
    key = None
    if params["cache"]:
        from skillbox.lint import result_cache

        key = result_cache.run_key(args)
        hit = result_cache.lookup(key)
        if hit is not None:
            return _printed(echo(hit[0], ready=True), hit[2])
    fmt = "json" if params["as_json"] else params["fmt"]
    _import_linter()
    from skillbox.lint.paths import clean

    paths = [clean(p) for p in params["paths"]] or ["."]
    from skillbox.errors import SkillboxError
    from skillbox.lint.engine import lint_paths

    try:
        if key is None:
            selection = selection_for(paths, params["select"], params["ignore"], params["no_config"])
            text, code = lint_report(lint_paths(paths, selection), paths, fmt)
        else:
            with result_cache.Recording() as recording:
                selection = selection_for(paths, params["select"], params["ignore"], params["no_config"])
                result = lint_paths(paths, selection)
                text, code = lint_report(result, paths, fmt)
            if not any(f.code == "parse_error" for f in result.findings):  # a parse may have hit its time budget
                inputs = recording.inputs + result_cache.loaded_sources()
                result_cache.store(key, inputs, terminal_text(text), "", code)
    except SkillboxError as err:
        return failed(err)
    return _printed(echo(text), code)


def _printed(pipe_closed: int, code: int) -> int:
    """The exit code once the output is written; a complete write leaves nothing for the interpreter's shutdown."""
    if pipe_closed:
        return pipe_closed
    nothing_left_to_finalize()
    return code
