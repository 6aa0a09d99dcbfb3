"""The single write boundary: a Claude Code hook payload in, rows in the memory database out.

Every string from outside passes through one `Scrubber` (privacy.py) here, before trimming and before storage,
so `<private>` text and secrets never reach the database, its FTS index or the logs. A turn whose prompt was
entirely private stores nothing at all: its tool events and summary are skipped too. Each handler does its
writes in one transaction: either the whole event is stored or none of it.
"""

from __future__ import annotations

import json
import sqlite3

from skillbox.mem import observe, obstypes
from skillbox.mem.privacy import Scrubber, elide
from skillbox.mem.project import Project, is_excluded, resolve_project
from skillbox.mem.settings import MemSettings
from skillbox.mem.store import NEW_OBSERVATION_CONTEXT, Store, note_successor, now_iso

HOOK_EVENTS = ("session-start", "user-prompt-submit", "post-tool-use", "post-tool-use-failure", "stop", "session-end")
_CAMEL = {
    "SessionStart": "session-start",
    "UserPromptSubmit": "user-prompt-submit",
    "PostToolUse": "post-tool-use",
    "PostToolUseFailure": "post-tool-use-failure",
    "Stop": "stop",
    "SessionEnd": "session-end",
}
LIST_KEEP_HEAD, LIST_KEEP_TAIL = 100, 20


def normalize_event(name: str) -> str:
    name = (name or "").strip()
    return _CAMEL.get(name, name.lower().replace("_", "-"))


def trim(value, cap: int):
    """Keep long strings' head (60%) and tail (30%) and long lists' ends, so the stored JSON stays valid."""
    if isinstance(value, str):
        return elide(value, cap)
    if isinstance(value, dict):
        return {k: trim(v, cap) for k, v in value.items()}
    if isinstance(value, list):
        if len(value) > LIST_KEEP_HEAD + LIST_KEEP_TAIL:
            elided = len(value) - LIST_KEEP_HEAD - LIST_KEEP_TAIL
            value = [*value[:LIST_KEEP_HEAD], f"…[{elided} items elided]…", *value[-LIST_KEEP_TAIL:]]
        return [trim(v, cap) for v in value]
    return value


_OWN_COMMAND = None  # compiled on first Bash event


def is_own_memory_call(tool_name: str, tool_input) -> bool:
    """The agent reading or writing memory itself (`skillbox mem ...` in Bash, or our MCP memory tools).

    Recording these would make memory feed on itself: a later search would rank yesterday's searches first.
    A command that only starts with `skillbox mem` and goes on to do other work (`&&`, `;`, `|`) is kept.
    """
    global _OWN_COMMAND
    if tool_name == "Bash":
        command = tool_input.get("command") if isinstance(tool_input, dict) else None
        if not isinstance(command, str) or "skillbox" not in command:
            return False
        if _OWN_COMMAND is None:
            import re

            _OWN_COMMAND = re.compile(r"\s*(?:[\w./~-]*/)?skillbox\s+mem\s[^;&|`$()<>\n]*")
        match = _OWN_COMMAND.fullmatch(command.strip() + " ")
        return match is not None
    return tool_name.startswith("mcp__") and "skillbox" in tool_name and "mem" in tool_name


def repair_text(value):
    """A decoded JSON value with lone surrogates (from `\\ud800` escapes; SQLite cannot store them) replaced
    by U+FFFD, so the event is stored rather than dropped."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
            return value
        except UnicodeEncodeError:
            import re

            return re.sub("[\ud800-\udfff]", "\ufffd", value)
    if isinstance(value, dict):
        return {repair_text(k): repair_text(v) for k, v in value.items()}
    if isinstance(value, list):
        return [repair_text(v) for v in value]
    return value


def to_json(value, cap: int) -> str:
    """Compact JSON; if the trimmed structure is still large (many long fields), store it as one trimmed string."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if len(text) > cap * 4:
        text = json.dumps(trim(text, cap * 4), ensure_ascii=False)
    return text


class HookContext:
    """Everything one handler needs; a plain class because dataclasses cost the hook ~15 ms to import."""

    __slots__ = ("event", "payload", "project", "session_id", "settings", "store")

    def __init__(
        self, store: Store, settings: MemSettings, event: str, payload: dict, project: Project, session_id: str
    ):
        self.store = store
        self.settings = settings
        self.event = event
        self.payload = payload
        self.project = project
        self.session_id = session_id


def _session_id(payload: dict) -> str:
    value = payload.get("session_id")
    return str(value).strip() if isinstance(value, str | int) and str(value).strip() else ""


def handle(event: str, payload: dict, store: Store, settings: MemSettings) -> dict | None:
    """Record one hook event. Returns the JSON object to print on stdout (SessionStart context), or None."""
    event = normalize_event(event)
    handler = HANDLERS.get(event)
    if handler is None:
        raise ValueError(f"unknown hook event {event!r}")
    session_id = _session_id(payload)
    if not session_id:
        raise ValueError(f"{event} payload has no session_id")
    cwd = payload.get("cwd")
    project = resolve_project(cwd if isinstance(cwd, str) else None, settings.project_overrides)
    if is_excluded(project, settings.excluded_projects):
        return None
    return handler(HookContext(store, settings, event, payload, project, session_id))


def _ensure_session(ctx: HookContext, conn: sqlite3.Connection) -> None:
    cwd = ctx.payload.get("cwd")
    conn.execute(
        "INSERT OR IGNORE INTO sessions (session_id, project, cwd, started_at) VALUES (?, ?, ?, ?)",
        (ctx.session_id, ctx.project.name, cwd if isinstance(cwd, str) else None, now_iso()),
    )


def _current_turn(conn: sqlite3.Connection, session_id: str) -> tuple[int, bool]:
    """(prompt number of the running turn, whether that turn's prompt was private)."""
    row = conn.execute(
        "SELECT s.prompt_count, p.private FROM sessions s LEFT JOIN prompts p "
        "ON p.session_id = s.session_id AND p.prompt_number = s.prompt_count WHERE s.session_id = ?",
        (session_id,),
    ).fetchone()
    if row is None:
        return 0, False
    return row[0], bool(row[1])


def on_session_start(ctx: HookContext) -> dict | None:
    payload = ctx.payload

    def write() -> None:
        _ensure_session(ctx, ctx.store.conn)
        ctx.store.conn.execute(
            "UPDATE sessions SET source = ?, model = COALESCE(?, model), ended_at = NULL WHERE session_id = ?",
            (
                str(payload.get("source") or "startup"),
                payload.get("model") if isinstance(payload.get("model"), str) else None,
                ctx.session_id,
            ),
        )

    ctx.store.write(write)
    from skillbox.mem.context import build_context

    text = build_context(ctx.store, ctx.project.name, ctx.settings)
    notice = _damage_notice(ctx.store)
    if notice:
        text = f"{notice}\n{text}" if text else notice
    if not text:
        return None
    return {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}}


def _damage_notice(store: Store) -> str | None:
    """Once per damaged store moved aside: a line for the next SessionStart context (then marked as told)."""
    from skillbox.mem.store import damage_notes, replaying

    if replaying():
        return None  # a drained SessionStart's output reaches no one: keep the notice for a live one
    notes = damage_notes(store.path)
    told = int(store.meta_get("damage_notes_told") or 0)
    if len(notes) <= told:
        return None
    store.write(lambda: store.meta_set("damage_notes_told", str(len(notes))))
    latest = notes[-1]
    return (
        f"skillbox memory: the memory database was damaged ({latest.get('reason', '?')}); it was moved aside to "
        f"{latest.get('moved_to')} on {str(latest.get('at', ''))[:16]} and a new one started, so memory before "
        "then is not searchable. Tell the user; `skillbox doctor` has details."
    )


def on_user_prompt(ctx: HookContext) -> None:
    raw = ctx.payload.get("prompt")
    raw = raw if isinstance(raw, str) else "" if raw is None else json.dumps(raw)
    scrubber = Scrubber(redact=ctx.settings.redact_secrets)
    text = scrubber.text(raw, ctx.settings.event_max_chars * 4).strip()
    private = not text and scrubber.removed
    text = trim(text, ctx.settings.event_max_chars * 4)

    def write() -> None:
        conn = ctx.store.conn
        _ensure_session(ctx, conn)
        number = conn.execute(
            "UPDATE sessions SET prompt_count = prompt_count + 1 WHERE session_id = ? RETURNING prompt_count",
            (ctx.session_id,),
        ).fetchone()[0]
        conn.execute(
            "INSERT INTO prompts (session_id, prompt_number, prompt_text, private, created_at) VALUES (?, ?, ?, ?, ?)",
            (ctx.session_id, number, "" if private else text, int(private), now_iso()),
        )

    ctx.store.write(write)


def on_tool_use(ctx: HookContext) -> None:
    payload = ctx.payload
    tool_name = payload.get("tool_name")
    if not isinstance(tool_name, str) or not tool_name:
        raise ValueError(f"{ctx.event} payload has no tool_name")
    if tool_name in ctx.settings.skip_tools:
        return
    failed = ctx.event == "post-tool-use-failure"
    scrubber = Scrubber(redact=ctx.settings.redact_secrets)
    cap = ctx.settings.event_max_chars
    tool_input = payload.get("tool_input", {})
    if is_own_memory_call(tool_name, tool_input):
        return
    tool_input = scrubber.value(tool_input, cap)
    tool_response = scrubber.value(payload.get("tool_response"), cap)
    error = payload.get("error")
    error = scrubber.text(error if isinstance(error, str) else json.dumps(error), cap) if error is not None else None
    tool_input, tool_response = trim(tool_input, cap), trim(tool_response, cap)
    error = trim(error, cap) if error else error
    tool_use_id = payload.get("tool_use_id")
    if not isinstance(tool_use_id, str) or not tool_use_id:
        # No id from the client: derive one so a re-delivered event is still stored once.
        key = json.dumps([ctx.session_id, tool_name, tool_input, tool_response], sort_keys=True, default=str)
        digest = observe.blake2b(key.encode("utf-8"), digest_size=10).hexdigest()
        tool_use_id = f"h-{digest}"
    input_json, response_json = to_json(tool_input, cap), to_json(tool_response, cap)
    ok = not failed
    if isinstance(tool_response, dict) and (tool_response.get("interrupted") or tool_response.get("success") is False):
        ok = False
    duration = payload.get("duration_ms")
    duration = duration if isinstance(duration, int) and not isinstance(duration, bool) else None
    root = ctx.project.root
    obs = observe.observe_event(tool_name, tool_input, tool_response, ok=ok, error=error, root=root)

    def write() -> None:
        conn = ctx.store.conn
        _ensure_session(ctx, conn)
        number, private = _current_turn(conn, ctx.session_id)
        if private:
            return
        created = now_iso()
        cursor = conn.execute(
            "INSERT OR IGNORE INTO events (session_id, prompt_number, tool_name, tool_use_id, tool_input, "
            "tool_response, ok, error, duration_ms, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                ctx.session_id,
                number,
                tool_name,
                tool_use_id,
                input_json,
                response_json,
                int(ok),
                error,
                duration,
                created,
            ),
        )
        if cursor.rowcount != 1:
            return  # re-delivered event
        event_id = cursor.lastrowid
        found = [obs] if obs else []
        if tool_name == "Bash" and ok and observe.is_test_command(str(_get(tool_input, "command"))):
            fix = observe.detect_bugfix(conn, ctx.session_id, event_id, str(_get(tool_input, "command")), root)
            if fix:
                found.append(fix)
        for item in found:
            insert_observation(
                conn,
                item,
                session_id=ctx.session_id,
                project=ctx.project.name,
                prompt_number=number,
                origin="hook",
                created_at=created,
            )

    ctx.store.write(write)


def _get(value, key: str):
    return value.get(key) if isinstance(value, dict) else None


def insert_observation(
    conn: sqlite3.Connection,
    obs: observe.Observation,
    *,
    session_id: str | None,
    project: str,
    prompt_number: int | None,
    origin: str,
    created_at: str,
) -> int:
    """Store an observation once per scope; returns its id (the existing one when it was already known)."""
    digest = obs.content_hash(session_id or f"project:{project}")
    cursor = conn.execute(
        "INSERT OR IGNORE INTO observations (session_id, project, type, title, subtitle, facts, narrative, concepts, "
        "files_read, files_modified, prompt_number, origin, content_hash, created_at, context) "
        f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, {NEW_OBSERVATION_CONTEXT})",
        (
            session_id,
            project,
            obs.type,
            obs.title,
            obs.subtitle,
            json.dumps(obs.facts, ensure_ascii=False),
            obs.narrative,
            json.dumps(obs.concepts, ensure_ascii=False),
            json.dumps(obs.files_read, ensure_ascii=False),
            json.dumps(obs.files_modified, ensure_ascii=False),
            prompt_number,
            origin,
            digest,
            created_at,
            session_id,
            project,
        ),
    )
    if cursor.rowcount == 1:
        note_successor(conn, session_id, cursor.lastrowid, obs.title, project)
        return cursor.lastrowid
    return conn.execute("SELECT id FROM observations WHERE content_hash = ?", (digest,)).fetchone()[0]


def on_stop(ctx: HookContext) -> None:
    if ctx.payload.get("stop_hook_active"):
        return  # a re-run after some hook blocked: recording again would only duplicate
    message = ctx.payload.get("last_assistant_message")
    message = Scrubber(redact=ctx.settings.redact_secrets).text(
        message if isinstance(message, str) else "", ctx.settings.event_max_chars * 4
    )

    def write() -> None:
        conn = ctx.store.conn
        _ensure_session(ctx, conn)
        number, private = _current_turn(conn, ctx.session_id)
        if private:
            return
        prompt = conn.execute(
            "SELECT prompt_text FROM prompts WHERE session_id = ? AND prompt_number = ?", (ctx.session_id, number)
        ).fetchone()
        events = conn.execute(
            "SELECT tool_name, tool_input, ok FROM events WHERE session_id = ? AND prompt_number = ? ORDER BY id",
            (ctx.session_id, number),
        ).fetchall()
        summary = observe.summarize_turn(prompt[0] if prompt else None, events, message, ctx.project.root)
        if summary is None:
            return
        conn.execute(
            "INSERT INTO summaries (session_id, project, prompt_number, investigated, learned, completed, next_steps, "
            "files_read, files_edited, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (session_id, prompt_number) DO UPDATE SET investigated = excluded.investigated, "
            "learned = excluded.learned, completed = excluded.completed, next_steps = excluded.next_steps, "
            "files_read = excluded.files_read, files_edited = excluded.files_edited, created_at = excluded.created_at",
            (
                ctx.session_id,
                ctx.project.name,
                number,
                summary["investigated"],
                summary["learned"],
                summary["completed"],
                summary["next_steps"],
                json.dumps(summary["files_read"], ensure_ascii=False),
                json.dumps(summary["files_edited"], ensure_ascii=False),
                now_iso(),
            ),
        )

    ctx.store.write(write)


def on_session_end(ctx: HookContext) -> None:
    reason = ctx.payload.get("reason")

    def write() -> None:
        _ensure_session(ctx, ctx.store.conn)
        ctx.store.conn.execute(
            "UPDATE sessions SET ended_at = ?, end_reason = ? WHERE session_id = ?",
            (now_iso(), reason if isinstance(reason, str) else None, ctx.session_id),
        )

    ctx.store.write(write)
    from skillbox.mem import maintenance

    maintenance.after_session_end(ctx.store, ctx.settings, ctx.session_id)


HANDLERS = {
    "session-start": on_session_start,
    "user-prompt-submit": on_user_prompt,
    "post-tool-use": on_tool_use,
    "post-tool-use-failure": on_tool_use,
    "stop": on_stop,
    "session-end": on_session_end,
}


def record_observation(
    store: Store,
    *,
    type: str,
    title: str,
    narrative: str = "",
    subtitle: str = "",
    facts: list[str] | None = None,
    concepts: list[str] | None = None,
    files: list[str] | None = None,
    project: str,
    settings: MemSettings,
    origin: str = "agent",
    session_id: str | None = None,
) -> int:
    """An observation the agent (or a summarizer) states itself; it crosses the same privacy boundary."""
    scrubber = Scrubber(redact=settings.redact_secrets)
    obs = observe.Observation(
        type=obstypes.normalize(scrubber.text(type)),
        title=scrubber.text(title).strip(),
        subtitle=scrubber.text(subtitle).strip(),
        facts=[f for f in (scrubber.text(x).strip() for x in facts or []) if f],
        narrative=scrubber.text(narrative).strip(),
        concepts=[c for c in (scrubber.text(x).strip() for x in concepts or []) if c],
        files_modified=[f for f in (scrubber.text(x).strip() for x in files or []) if f],
    )
    if not obs.title:
        from skillbox.errors import InvalidInputError

        raise InvalidInputError("an observation needs a non-empty title (after removing private text)")
    created = now_iso()

    def write() -> int:
        if session_id is not None:
            store.conn.execute(
                "INSERT OR IGNORE INTO sessions (session_id, project, started_at) VALUES (?, ?, ?)",
                (session_id, project, created),
            )
        return insert_observation(
            store.conn,
            obs,
            session_id=session_id,
            project=project,
            prompt_number=None,
            origin=origin,
            created_at=created,
        )

    return store.write(write)


__all__ = ["HOOK_EVENTS", "handle", "normalize_event", "record_observation"]
