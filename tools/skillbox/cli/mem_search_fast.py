"""`skillbox mem search` without click, for the agent's most frequent memory call.

Importing click and the root group is ~35 ms of a ~95 ms `mem search` process; the search itself is a few ms. This
twin of `cli/mem.py::search_cmd` handles the plain forms (query words, the documented options, `--json`) and
prints exactly what the click command prints. Anything else — `--help`, an unknown or malformed option, a limit
that is not a number, `SKILLBOX_DEBUG` — returns None, and `skillbox.cli.main` hands the arguments to click, which
parses them and reports errors as usual. `tests/mem/test_search_fast.py` checks both stay in step.
"""

from __future__ import annotations

from skillbox.cli.fast_path import debugging, echo, failed, scan

# option -> (parameter name, repeatable); the names and order match `search_cmd` in cli/mem.py.
VALUE_OPTIONS: dict[str, tuple[str, bool]] = {
    "--type": ("kinds", True),
    "--obs-type": ("obs_types", True),
    "--project": ("project", False),
    "--since": ("since", False),
    "--until": ("until", False),
    "--file": ("file", False),
    "--concept": ("concept", False),
    "--limit": ("limit", False),
}
FLAG_OPTIONS = {"--json": "as_json"}


def parse(args: list[str]) -> dict | None:
    """The search parameters, or None when click should parse `args` (help, errors, anything unusual)."""
    scanned = scan(args, VALUE_OPTIONS, FLAG_OPTIONS)
    if scanned is None:
        return None
    words, pairs = scanned
    params: dict = {"kinds": [], "obs_types": [], "limit": 20, "as_json": False, "words": words}
    for option, value in pairs:
        if option in FLAG_OPTIONS:
            params[FLAG_OPTIONS[option]] = True
            continue
        key, repeatable = VALUE_OPTIONS[option]
        if key == "limit":
            if not (value.isascii() and value.isdigit()):
                return None
            params["limit"] = int(value)
        elif repeatable:
            params[key].append(value)
        else:
            params[key] = value
    return params


def main(args: list[str]) -> int | None:
    """Run `skillbox mem search ARGS`; None means "not handled here, use click"."""
    if debugging():
        return None
    params = parse(args)
    if params is None:
        return None
    from skillbox.errors import SkillboxError

    try:
        from skillbox.mem.search import build_filters, format_search, search
        from skillbox.mem.store import open_store

        filters = build_filters(
            params["kinds"],
            params["obs_types"],
            params.get("project"),
            params.get("since"),
            params.get("until"),
            params.get("file"),
            params.get("concept"),
        )
        with open_store() as store:
            result = search(store, " ".join(params["words"]), filters, limit=params["limit"])
    except SkillboxError as err:
        return failed(err)
    if params["as_json"]:
        import json

        text = json.dumps(result.to_dict(), ensure_ascii=False, indent=2)
    else:
        text = format_search(result)
    return echo(text)
