"""`skillbox mem search` without click, for the agent's most frequent memory call.

Importing click and the root group is ~45-60 ms of a `mem search` process (measured under load; the search itself
is a few ms). `SEARCH` is the command's one option table: `cli/mem.py::search_cmd` is made from it, and `main`
reads the plain forms with it and runs the same `run_search`. Anything else — `--help`, an unknown or malformed
option, a number out of range, `SKILLBOX_DEBUG` — returns None, and `skillbox.cli.main` hands the arguments to
click. `tests/mem/test_search_fast.py` runs both paths side by side.
"""

from __future__ import annotations

from skillbox.cli.fast_path import debugging
from skillbox.cli.option_table import Argument, Option, OptionTable, parse_plain, run_twin

MAX_LIMIT = 1_000_000  # more hits than anyone reads; keeps the number inside SQLite's integers

SEARCH = OptionTable(
    arguments=(Argument("query", many=True),),
    options=(
        Option(
            "--type",
            "kinds",
            "observations | summaries | prompts, or an observation type (decision, bugfix, change, ...). Repeatable.",
            multiple=True,
        ),
        Option("--obs-type", "obs_types", "Observation type filter (repeatable).", multiple=True),
        Option("--project", "project", "Only this project."),
        Option("--since", "since", "From this date: YYYY-MM-DD, YYYY-MM-DDTHH:MM, or relative 3d / 12h / 2w."),
        Option("--until", "until", "Up to this date (a bare date includes the whole day)."),
        Option("--file", "file", "Only records that read or modified a path containing this text."),
        Option("--concept", "concept", "Only observations tagged with this concept."),
        Option("--limit", "limit", "Maximum hits.", kind="int", default=20, show_default=True, max=MAX_LIMIT),
        Option("--json", "as_json", "Print JSON.", kind="flag"),
    ),
)


def parse(args: list[str]) -> dict | None:
    """The search parameters click would pass, or None when click should parse `args`."""
    return parse_plain(SEARCH, args)


def run_search(query, kinds, obs_types, project, since, until, file, concept, limit, as_json) -> str:
    """The command body both paths run: what `mem search` prints (a SkillboxError propagates)."""
    from skillbox.mem.search import build_filters, format_search, search
    from skillbox.mem.store import open_store

    filters = build_filters(kinds, obs_types, project, since, until, file, concept)
    with open_store() as store:
        result = search(store, " ".join(query), filters, limit=limit)
    if as_json:
        import json

        return json.dumps(result.to_dict(), ensure_ascii=False, indent=2)
    return format_search(result)


def main(args: list[str]) -> int | None:
    """Run `skillbox mem search ARGS`; None means "not handled here, use click"."""
    if debugging():
        return None
    params = parse(args)
    if params is None:
        return None
    return run_twin(lambda: run_search(**params))
