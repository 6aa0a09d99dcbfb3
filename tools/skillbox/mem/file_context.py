"""What memory knows about a file, handed to the agent right after it reads or edits that file.

When the agent opens `auth/lockout.py`, the decision recorded about it last week ("in-memory dict, not Redis,
because single process") is worth more than any search it would think to run. So after a Read or an edit, the
PostToolUse hook returns the few most relevant earlier observations about that file as `additionalContext`:
decisions, fixes and gotchas first, then notes and edits, never the trail of earlier reads; from earlier sessions
only, within `file_context_max_tokens`, and at most once per file per session (the second touch of a file in a
session says nothing). It is its own hook (`skillbox mem hook file-context`, matcher Read|Edit|MultiEdit|Write|
NotebookEdit in hooks.json) beside the capture hook, so it works whether capture stores the event at once or
spools it; per call it costs one FTS lookup over the file columns, and one small write only when it shows
something.
Standard library only: runs inside the hook process.
"""

from __future__ import annotations

import json
import os
import time

from skillbox.mem import obstypes
from skillbox.mem.i18n import detect_language, message
from skillbox.mem.observe import EDIT_TOOLS, display_path, short
from skillbox.mem.project import is_excluded, resolve_project

FILE_TOOLS = ("Read", *EDIT_TOOLS)
MAX_ITEMS = 3
CANDIDATES = 40
# Trail types say only that the file was looked at before; they are never worth the agent's tokens here.
SKIPPED_TYPES = frozenset(("discovery", "command", "search", "fetch"))
TAG = "skillbox-memory"
SHOWN_DAYS = 30


def _path_of(tool_input) -> str:
    if not isinstance(tool_input, dict):
        return ""
    return str(tool_input.get("file_path") or tool_input.get("notebook_path") or "")


def _mark_shown(store, session_id: str, path: str) -> bool:
    """Record that `path` was shown in this session; False when it already was (at most once per session).

    Its own small table, created on first use: the hook does not depend on the tool event being stored first
    (capture may still have it in the spool). Rows older than SHOWN_DAYS are dropped as new ones come.
    """
    from skillbox.mem.store import now_iso

    def write() -> bool:
        conn = store.conn
        conn.execute(
            "CREATE TABLE IF NOT EXISTS file_context_shown (session_id TEXT NOT NULL, path TEXT NOT NULL, "
            "shown_at TEXT NOT NULL, PRIMARY KEY (session_id, path)) WITHOUT ROWID"
        )
        conn.execute("DELETE FROM file_context_shown WHERE shown_at < ?", (now_iso(time.time() - SHOWN_DAYS * 86400),))
        cursor = conn.execute(
            "INSERT OR IGNORE INTO file_context_shown (session_id, path, shown_at) VALUES (?, ?, ?)",
            (session_id, path, now_iso()),
        )
        return cursor.rowcount == 1

    return store.write(write)


def _phrase(rel: str) -> str:
    words = [w for w in "".join(c if c.isalnum() else " " for c in rel).split() if w]
    return '"' + " ".join(words) + '"' if words else ""


def relevant(conn, project: str, session_id: str, rel: str, budget: int) -> list[tuple[object, str]]:
    """(row, line) for the best earlier observations that name `rel`, best first, within `budget` tokens."""
    phrase = _phrase(rel)
    if not phrase or budget <= 0:
        return []
    rows = conn.execute(
        "SELECT o.id, o.type, o.title, o.subtitle, o.narrative, o.files_read, o.files_modified, o.created_at "
        "FROM observations_fts f CROSS JOIN observations o ON o.id = f.rowid "
        "WHERE observations_fts MATCH ? AND o.project = ? AND (o.session_id IS NULL OR o.session_id != ?) "
        "ORDER BY f.rowid DESC LIMIT ?",
        (f"{{files_read files_modified title}} : {phrase}", project, session_id, CANDIDATES),
    ).fetchall()
    scored = []
    for index, row in enumerate(rows):
        if row["type"] in SKIPPED_TYPES:
            continue
        files = set(json.loads(row["files_read"] or "[]")) | set(json.loads(row["files_modified"] or "[]"))
        named = rel in files or rel in (row["title"] or "")
        if not named:
            continue  # the words of the path, but another file
        scored.append((obstypes.weight(row["type"]) / (1.0 + index / 20.0), row))
    scored.sort(key=lambda item: item[0], reverse=True)
    chosen, used = [], 0
    for _score, row in scored[:MAX_ITEMS]:
        why = " — ".join(p for p in (row["subtitle"], row["narrative"]) if p and p.strip())
        line = f"#{row['id']} {row['created_at'][:10]} {row['type']} {short(row['title'], 120)}"
        if why:
            line += f" — {short(why, 240)}"
        cost = (len(line) + 3) // 4 + 1
        if used + cost > budget:
            continue
        used += cost
        chosen.append((row, line))
    return chosen


def after_tool(payload: dict, store, settings) -> dict | None:
    """The hook output for one file tool call, or None (not a file tool, shown already, nothing known)."""
    tool = payload.get("tool_name")
    if tool not in FILE_TOOLS or tool in settings.skip_tools or settings.file_context_max_tokens <= 0:
        return None
    path = _path_of(payload.get("tool_input"))
    session_id = str(payload.get("session_id") or "")
    if not path or not session_id:
        return None
    cwd = payload.get("cwd")
    project = resolve_project(cwd if isinstance(cwd, str) else None, settings.project_overrides)
    if is_excluded(project, settings.excluded_projects):
        return None
    rel = display_path(path, project.root)
    # The heading and the tags take about 30 tokens of the budget, whatever the language.
    chosen = relevant(store.conn, project.name, session_id, rel, settings.file_context_max_tokens - 30 - len(rel) // 4)
    if not chosen or not _mark_shown(store, session_id, rel):
        return None
    heading = message(detect_language(store, project.name, settings), "file.heading", file=rel)
    text = "\n".join([f"<{TAG}>", heading, *[line for _, line in chosen], f"</{TAG}>"])
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": text}}


def run_hook(raw: bytes) -> str | None:
    """`skillbox mem hook file-context`: the JSON to print for one PostToolUse payload, or None. Stores nothing
    but the shown-once mark; the tool event itself is recorded by the post-tool-use hook beside this one."""
    from skillbox.mem.settings import db_path, load_settings, skillbox_home
    from skillbox.mem.store import Store

    payload = json.loads(raw or b"{}")
    if not isinstance(payload, dict) or payload.get("tool_name") not in FILE_TOOLS:
        return None
    home = skillbox_home()
    path = db_path(home)
    if not os.path.exists(path):
        return None  # no memory yet: nothing to tell, and no database to create from here
    settings = load_settings(home)
    store = Store(path)
    try:
        out = after_tool(payload, store, settings)
    finally:
        store.close()
    return json.dumps(out, ensure_ascii=False) if out else None
