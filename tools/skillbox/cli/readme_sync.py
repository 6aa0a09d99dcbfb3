"""`python -m skillbox.docs --write | --check`: the command line of the README sync (`skillbox.docs`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from skillbox.cli.reference import render_cli_reference
from skillbox.docs import REGENERATE, sync_readme
from skillbox.errors import InvalidInputError, error_line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m skillbox.docs", description="Keep README.md's reference sections generated from the code."
    )
    parser.add_argument("--root", type=Path, help="plugin root holding README.md (default: around the working folder)")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="rewrite the generated sections in place")
    mode.add_argument("--check", action="store_true", help="exit 1 if README.md is out of date")
    args = parser.parse_args(argv)
    from skillbox.skills.validate import default_plugin_root

    root = (args.root or default_plugin_root()).resolve()
    try:
        result = sync_readme(root, write=args.write, cli_reference=render_cli_reference())
    except (OSError, InvalidInputError) as err:
        print(error_line(err), file=sys.stderr)
        return 1
    if args.check:
        if result.stale:
            print(f"{result.readme} is out of date; run: {REGENERATE}", file=sys.stderr)
            return 1
        print(f"{result.readme} is up to date")
    elif result.written:
        print(f"updated {result.readme}")
    else:
        print(f"{result.readme} already up to date")
    return 0
