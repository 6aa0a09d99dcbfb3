"""Moving memory in and out: JSON-lines export/import (round-trips exactly) and claude-mem's database.

Export writes one JSON object per line, `{"kind": ..., ...fields}`, sessions first so every later line refers to
something already imported; internal row ids are left out (they are local), natural keys are kept (session id,
prompt number, tool_use_id, content hash), so importing the same file twice changes nothing and an export of the
imported database is byte-identical to the file. An import is one transaction: a malformed line aborts it with
the line number and nothing is stored. Imported text crosses the same privacy boundary as hook payloads.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterable, Iterator
from typing import IO

from skillbox.errors import InvalidInputError, NotFoundError
from skillbox.mem.privacy import Scrubber
from skillbox.mem.store import (
    NEW_OBSERVATION_CONTEXT,
    Store,
    note_successor,
    now_iso,
    previous_observation,
    refresh_context,
)

# kind -> (table, exported columns, JSON-list columns, required columns)
KINDS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "session": (
        "sessions",
        ("session_id", "project", "cwd", "source", "model", "started_at", "ended_at", "end_reason", "prompt_count"),
        (),
        ("session_id", "project", "started_at"),
    ),
    "prompt": (
        "prompts",
        ("session_id", "prompt_number", "prompt_text", "private", "created_at"),
        (),
        ("session_id", "prompt_number", "prompt_text", "created_at"),
    ),
    "event": (
        "events",
        (
            "session_id",
            "prompt_number",
            "tool_name",
            "tool_use_id",
            "tool_input",
            "tool_response",
            "ok",
            "error",
            "duration_ms",
            "created_at",
        ),
        (),
        ("session_id", "tool_name", "tool_use_id", "created_at"),
    ),
    "observation": (
        "observations",
        (
            "session_id",
            "project",
            "type",
            "title",
            "subtitle",
            "facts",
            "narrative",
            "concepts",
            "files_read",
            "files_modified",
            "prompt_number",
            "origin",
            "content_hash",
            "created_at",
        ),
        ("facts", "concepts", "files_read", "files_modified"),
        ("project", "type", "title", "content_hash", "created_at"),
    ),
    "summary": (
        "summaries",
        (
            "session_id",
            "project",
            "prompt_number",
            "request",
            "investigated",
            "learned",
            "completed",
            "next_steps",
            "files_read",
            "files_edited",
            "created_at",
        ),
        ("files_read", "files_edited"),
        ("session_id", "project", "prompt_number", "created_at"),
    ),
}
# Columns that hold raw JSON text (tool payloads): exported as that text, never re-encoded, so bytes survive.
_RAW_TEXT = {"tool_input", "tool_response"}


def export_lines(store: Store, project: str | None = None) -> Iterator[str]:
    """Every record as one JSON line, parents before children, oldest first within a kind."""
    for kind, (table, columns, json_columns, _required) in KINDS.items():
        where, params = "", ()
        if project:
            if kind in ("session", "observation", "summary"):
                where, params = " WHERE project = ?", (project,)
            else:
                where, params = " WHERE session_id IN (SELECT session_id FROM sessions WHERE project = ?)", (project,)
        cursor = store.conn.execute(f"SELECT {', '.join(columns)} FROM {table}{where} ORDER BY id", params)
        for row in cursor:
            record: dict = {"kind": kind}
            for column in columns:
                value = row[column]
                if column in json_columns and isinstance(value, str):
                    with contextlib.suppress(ValueError):
                        value = json.loads(value)
                record[column] = value
            yield json.dumps(record, ensure_ascii=False, sort_keys=False)


def export(store: Store, out: IO[str], project: str | None = None) -> int:
    count = 0
    for line in export_lines(store, project):
        out.write(line + "\n")
        count += 1
    return count


def _clean(scrubber: Scrubber, value):
    if isinstance(value, str):
        return scrubber.text(value)
    if isinstance(value, list):
        return [_clean(scrubber, v) for v in value]
    return value


def _row_values(kind: str, record: dict, line_no: int, redact: bool) -> tuple[list[str], list]:
    _table, columns, json_columns, required = KINDS[kind]
    missing = [c for c in required if record.get(c) in (None, "")]
    if missing:
        raise InvalidInputError(f"line {line_no}: {kind} is missing {', '.join(missing)}")
    names, values = [], []
    for column in columns:
        if column not in record:
            continue
        value = record[column]
        if column in json_columns:
            if not isinstance(value, list):
                raise InvalidInputError(f"line {line_no}: {kind}.{column} must be a list")
            value = json.dumps(_clean(Scrubber(redact=redact), value), ensure_ascii=False)
        elif column in _RAW_TEXT:
            if not isinstance(value, str):
                value = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
            value = Scrubber(redact=redact).text(value)
        elif isinstance(value, str):
            value = Scrubber(redact=redact).text(value)
        elif isinstance(value, dict | list):
            raise InvalidInputError(f"line {line_no}: {kind}.{column} must be a scalar")
        names.append(column)
        values.append(value)
    return names, values


def import_lines(store: Store, lines: Iterable[str], *, redact: bool = True) -> dict[str, dict[str, int]]:
    """Import JSON lines, all or nothing; returns {kind: {"added": n, "skipped": n}}.

    Every line is checked before anything is written. Rows are then inserted in transactions of at most
    `budget.BATCH_SECONDS` each, so hooks running meanwhile wait a fraction of a second at most instead of
    spooling for the whole import; if a batch fails, the rows the earlier batches added are deleted again.
    """
    import time

    from skillbox.mem.budget import BATCH_SECONDS

    report = {kind: {"added": 0, "skipped": 0} for kind in KINDS}
    prepared: list[tuple[str, str, list[str], list, int]] = []
    for line_no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as err:
            raise InvalidInputError(f"line {line_no}: not JSON ({err})") from None
        if not isinstance(record, dict) or record.get("kind") not in KINDS:
            raise InvalidInputError(
                f"line {line_no}: expected an object with kind in {', '.join(KINDS)}",
                hint="is this a `skillbox mem export` file? for claude-mem use --from-claude-mem",
            )
        kind = record["kind"]
        names, values = _row_values(kind, record, line_no, redact)
        prepared.append((kind, KINDS[kind][0], names, values, line_no))

    added: list[tuple[str, int]] = []
    position = 0

    def batch() -> tuple[int, list[tuple[str, int]], dict[str, list[int]]]:
        started = time.monotonic()
        index, rows, tally = position, [], {}
        while index < len(prepared) and (index == position or time.monotonic() - started < BATCH_SECONDS):
            kind, table, names, values, line_no = prepared[index]
            columns, marks = ", ".join(names), ", ".join("?" * len(names))
            if table == "observations":  # the words of the records before it, as the write path stores them
                columns += ", context"
                marks += ", " + NEW_OBSERVATION_CONTEXT
                session = values[names.index("session_id")] if "session_id" in names else None
                project = values[names.index("project")]
                values = [*values, session, project]
            try:
                cursor = store.conn.execute(f"INSERT OR IGNORE INTO {table} ({columns}) VALUES ({marks})", values)
            except sqlite3.IntegrityError as err:
                raise InvalidInputError(f"line {line_no}: {kind} does not fit ({err})") from None
            if cursor.rowcount == 1:
                rows.append((table, cursor.lastrowid))
                if table == "observations":
                    note_successor(store.conn, session, cursor.lastrowid, values[names.index("title")], project)
            tally.setdefault(kind, [0, 0])[0 if cursor.rowcount == 1 else 1] += 1
            index += 1
        return index, rows, tally

    try:
        while position < len(prepared):
            position, rows, tally = store.write(batch)
            added += rows
            for kind, (new, old) in tally.items():
                report[kind]["added"] += new
                report[kind]["skipped"] += old
    except BaseException:
        _undo(store, added)
        raise
    return report


def _undo(store: Store, added: list[tuple[str, int]]) -> None:
    """Delete rows an interrupted import added, newest first, in short transactions."""
    while added:
        chunk, added[:] = added[-500:], added[:-500]

        def delete(chunk=chunk) -> None:
            before: list[int] = []  # records that hold a deleted one's title in their context
            for table, rowid in reversed(chunk):
                if table == "observations" and (previous := previous_observation(store.conn, rowid)) is not None:
                    before.append(previous)
                store.conn.execute(f"DELETE FROM {table} WHERE rowid = ?", (rowid,))
            refresh_context(store.conn, before)

        store.write(delete)


# -- claude-mem -------------------------------------------------------------------------------------------------


def _epoch_iso(row: dict, base: str) -> str:
    epoch = row.get(f"{base}_epoch")
    if isinstance(epoch, int | float) and epoch > 0:
        return now_iso(epoch / 1000 if epoch > 10**11 else epoch)
    text = row.get(base)
    if isinstance(text, str) and len(text) >= 10:
        return text.replace(" ", "T")[:23] + ("Z" if not text.endswith("Z") else "")
    return now_iso()


def _json_list(value) -> list[str]:
    if isinstance(value, str) and value.strip().startswith("["):
        try:
            items = json.loads(value)
        except ValueError:
            return []
        return [str(i) for i in items if isinstance(i, str | int | float) and str(i).strip()]
    return []


def _rows(db, table: str) -> list[dict]:
    """Every row of a claude-mem table as a dict; its columns vary by version, so nothing is assumed."""
    if not db[table].exists():
        return []
    return list(db[table].rows_where(order_by="id"))


def claude_mem_lines(path: str) -> Iterator[str]:
    """Translate a claude-mem database (sdk_sessions, user_prompts, observations, session_summaries) to our lines.

    Read-only, through sqlite-utils: a foreign schema whose columns changed across versions reads best as dicts.
    """
    import sqlite_utils

    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        db = sqlite_utils.Database(conn)
        tables = set(db.table_names())
    except sqlite3.DatabaseError as err:
        raise InvalidInputError(f"{path} is not a readable SQLite database ({err})") from None
    if "observations" not in tables or "sdk_sessions" not in tables:
        conn.close()
        raise InvalidInputError(f"{path} does not look like a claude-mem database (no sdk_sessions/observations)")
    try:
        sessions = _rows(db, "sdk_sessions")
        by_memory: dict[str, str] = {}
        for row in sessions:
            content = row.get("content_session_id") or row.get("claude_session_id") or f"claude-mem-{row['id']}"
            memory = row.get("memory_session_id") or row.get("sdk_session_id")
            if memory:
                by_memory[memory] = content
            yield json.dumps(
                {
                    "kind": "session",
                    "session_id": content,
                    "project": row.get("project") or "unknown",
                    "started_at": _epoch_iso(row, "started_at"),
                    "ended_at": _epoch_iso(row, "completed_at") if row.get("completed_at_epoch") else None,
                    "source": "claude-mem",
                    "prompt_count": row.get("prompt_counter") or 0,
                }
            )
        db_ids = {row["id"]: (row.get("content_session_id") or f"claude-mem-{row['id']}") for row in sessions}
        for row in _rows(db, "user_prompts"):
            session = row.get("content_session_id") or db_ids.get(row.get("session_db_id"))
            text = row.get("prompt_text") or ""
            if not session or not text.strip():
                continue
            yield json.dumps(
                {
                    "kind": "prompt",
                    "session_id": session,
                    "prompt_number": row.get("prompt_number") or 0,
                    "prompt_text": text,
                    "private": 0,
                    "created_at": _epoch_iso(row, "created_at"),
                }
            )
        for row in _rows(db, "observations"):
            narrative = row.get("narrative") or row.get("text") or ""
            title = row.get("title") or row.get("subtitle") or " ".join(narrative.split()[:10])
            if not title:
                continue
            record = {
                "kind": "observation",
                "session_id": by_memory.get(row.get("memory_session_id") or row.get("sdk_session_id") or ""),
                "project": row.get("project") or "unknown",
                "type": row.get("type") or "discovery",
                "title": title,
                "subtitle": row.get("subtitle") or "",
                "facts": _json_list(row.get("facts")),
                "narrative": narrative,
                "concepts": _json_list(row.get("concepts")),
                "files_read": _json_list(row.get("files_read")),
                "files_modified": _json_list(row.get("files_modified")),
                "prompt_number": row.get("prompt_number"),
                "origin": "claude-mem",
                "content_hash": f"cm-{row['id']}-{row.get('content_hash') or ''}",
                "created_at": _epoch_iso(row, "created_at"),
            }
            yield json.dumps(record)
        for row in _rows(db, "session_summaries"):
            session = by_memory.get(row.get("memory_session_id") or row.get("sdk_session_id") or "")
            if not session:
                continue
            learned = "\n".join(p for p in (row.get("learned"), row.get("notes")) if p)
            yield json.dumps(
                {
                    "kind": "summary",
                    "session_id": session,
                    "project": row.get("project") or "unknown",
                    # claude-mem keeps several summaries per prompt; a negative number keeps each one distinct.
                    "prompt_number": -int(row["id"]),
                    "request": row.get("request") or "",
                    "investigated": row.get("investigated") or "",
                    "learned": learned,
                    "completed": row.get("completed") or "",
                    "next_steps": row.get("next_steps") or "",
                    "files_read": _json_list(row.get("files_read")),
                    "files_edited": _json_list(row.get("files_edited")),
                    "created_at": _epoch_iso(row, "created_at"),
                }
            )
    finally:
        conn.close()


def import_claude_mem(store: Store, path: str, *, redact: bool = True) -> dict[str, dict[str, int]]:
    import os

    if not os.path.exists(path):
        raise NotFoundError(f"no claude-mem database at {path}", hint="it is usually ~/.claude-mem/claude-mem.db")
    return import_lines(store, claude_mem_lines(path), redact=redact)
