"""Is graph.json older than the sources it describes? Queries still answer, with a warning line.

"Older" means older than the last build that looked at the sources: a build that finds a touched file unchanged
(a checkout, a save without edits) rightly leaves graph.json as it is, but rewrites its stat index
(`cache/index.bin`), so that file's time counts as the graph's time too.
"""

from __future__ import annotations

import contextlib
import os

from skillbox.graph.cache import INDEX_NAME
from skillbox.graph.code_graph import source_root


def stale_files(index, limit: int = 3) -> list[str]:
    """Files the graph knows that changed or vanished after graph.json was written (at most `limit`).

    One stat per known file: a few milliseconds on Django, well below the cost of answering.
    """
    try:
        built = index.graph_path.stat().st_mtime
    except OSError:
        return []
    # a graph.json without its build cache (copied, or made elsewhere): its own time decides
    with contextlib.suppress(OSError):
        built = max(built, (index.graph_path.parent / "cache" / INDEX_NAME).stat().st_mtime)
    root = source_root(index.graph_path, index.meta)
    changed: list[str] = []
    missing: list[str] = []
    present = False
    for file in index.all_files():
        try:
            mtime = os.stat(root / file).st_mtime
        except OSError:
            missing.append(file)
            continue
        present = True
        if mtime > built:
            changed.append(file)
            if len(changed) >= limit:
                break
    # A graph read away from its source tree (copied, or sources not checked out) says nothing about freshness.
    return (changed + missing)[:limit] if present else []


def staleness_warning(index) -> str | None:
    changed = stale_files(index)
    if not changed:
        return None
    more = ", …" if len(changed) >= 3 else ""
    return (
        f"warning: {index.graph_path} is older than its sources ({', '.join(changed)}{more}); "
        "run `skillbox graph build` to refresh"
    )
