"""`skillbox mem search` without click, for the agent's most frequent memory call.

Importing click and the root group is ~35 ms of a ~95 ms `mem search` process; the search itself is a few ms. This
twin of `cli/mem.py::search_cmd` handles the plain forms (query words, the documented options, `--json`) and
prints exactly what the click command prints. Anything else — `--help`, an unknown or malformed option, a limit
that is not a number, `SKILLBOX_DEBUG` — returns None, and `skillbox.cli.main` hands the arguments to click, which
parses them and reports errors as usual. `tests/mem/test_search_fast.py` checks both stay in step.
"""

from __future__ import annotations

import os
import sys

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
_ANSI = None  # compiled on first use: click strips ANSI styles when stdout is not a terminal, so must we


def parse(args: list[str]) -> dict | None:
    """The search parameters, or None when click should parse `args` (help, errors, anything unusual)."""
    params: dict = {"kinds": [], "obs_types": [], "limit": 20, "as_json": False, "words": []}
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if not arg.startswith("-"):
            params["words"].append(arg)
            continue
        name, has_value, value = arg.partition("=")
        if name in FLAG_OPTIONS and not has_value:
            params[FLAG_OPTIONS[name]] = True
            continue
        if name not in VALUE_OPTIONS:
            return None
        if not has_value:
            if i >= len(args) or args[i].startswith("-"):
                return None
            value = args[i]
            i += 1
        key, repeatable = VALUE_OPTIONS[name]
        if key == "limit":
            if not (value.isascii() and value.isdigit()):
                return None
            params["limit"] = int(value)
        elif repeatable:
            params[key].append(value)
        else:
            params[key] = value
    return params


def _write(text: str) -> None:
    global _ANSI
    if not sys.stdout.isatty():
        if _ANSI is None:
            import re

            _ANSI = re.compile(r"\033\[[;?0-9]*[a-zA-Z]")
        text = _ANSI.sub("", text)
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def main(args: list[str]) -> int | None:
    """Run `skillbox mem search ARGS`; None means "not handled here, use click"."""
    if os.environ.get("SKILLBOX_DEBUG", "").strip() not in ("", "0", "false", "no"):
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
        sys.stderr.write(f"Error: {err.one_line()}\n")
        return err.exit_code
    if params["as_json"]:
        import json

        text = json.dumps(result.to_dict(), ensure_ascii=False, indent=2)
    else:
        text = format_search(result)
    try:
        _write(text)
    except BrokenPipeError:
        # `skillbox mem search ... | head` closed the pipe: exit like the click path does, without a traceback.
        sys.stderr.close()
        return 1
    return 0
