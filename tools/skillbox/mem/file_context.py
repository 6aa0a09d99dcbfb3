"""What memory knows about a file, handed to the agent right after it reads or edits that file.

When the agent opens `auth/lockout.py`, the decision recorded about it last week ("in-memory dict, not Redis,
because single process") is worth more than any search it would think to run. So after a Read or an edit, the
PostToolUse hook returns the few most relevant earlier observations about that file as `additionalContext`:
decisions, fixes and gotchas first, then notes and edits, never the trail of earlier reads; from earlier sessions
only, within `file_context_max_tokens`, and at most once per file per session (the second touch of a file in a
session says nothing). It runs on every file tool call, so it is two indexed queries: the session's own events
(is this the first touch?) and the FTS index's file columns (which records name the file?).
Standard library only: runs inside the hook process.
"""

from __future__ import annotations

import json

from skillbox.mem import obstypes
from skillbox.mem.i18n import detect_language, message
from skillbox.mem.observe import EDIT_TOOLS, display_path, short
from skillbox.mem.project import resolve_project

FILE_TOOLS = ("Read", *EDIT_TOOLS)
MAX_ITEMS = 3
CANDIDATES = 40
# Trail types say only that the file was looked at before; they are never worth the agent's tokens here.
SKIPPED_TYPES = frozenset(("discovery", "command", "search", "fetch"))
TAG = "skillbox-memory"


def _path_of(tool_input) -> str:
    if not isinstance(tool_input, dict):
        return ""
    return str(tool_input.get("file_path") or tool_input.get("notebook_path") or "")


def _first_touch(conn, session_id: str, path: str) -> bool:
    """True when this call, already stored, is the session's only file tool call naming `path`.

    Zero stored calls means capture skipped this one (private turn, skipped tool, excluded project): say nothing.
    """
    needle = json.dumps(path, ensure_ascii=False)
    count = conn.execute(
        f"SELECT count(*) FROM events WHERE session_id = ? AND tool_name IN ({','.join('?' * len(FILE_TOOLS))}) "
        "AND instr(tool_input, ?) > 0",
        (session_id, *FILE_TOOLS, needle),
    ).fetchone()[0]
    return count == 1


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
    """The PostToolUse hook output for one file tool call, or None (not a file tool, seen already, nothing known)."""
    if payload.get("tool_name") not in FILE_TOOLS or settings.file_context_max_tokens <= 0:
        return None
    path = _path_of(payload.get("tool_input"))
    session_id = str(payload.get("session_id") or "")
    if not path or not session_id:
        return None
    cwd = payload.get("cwd")
    project = resolve_project(cwd if isinstance(cwd, str) else None, settings.project_overrides)
    conn = store.conn
    if not _first_touch(conn, session_id, path):
        return None
    rel = display_path(path, project.root)
    # The heading and the tags take about 30 tokens of the budget, whatever the language.
    chosen = relevant(conn, project.name, session_id, rel, settings.file_context_max_tokens - 30 - len(rel) // 4)
    if not chosen:
        return None
    heading = message(detect_language(store, project.name, settings), "file.heading", file=rel)
    text = "\n".join([f"<{TAG}>", heading, *[line for _, line in chosen], f"</{TAG}>"])
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": text}}
