"""Optional external summarizer, run once per session end — never per tool call, off by default.

`summarizer_command` (a list, e.g. `["my-summarizer", "--model", "small"]`) receives the session's digest as JSON
on stdin and prints `{"observations": [{"type", "title", "subtitle"?, "narrative"?, "facts"?, "concepts"?,
"files"?}, ...]}` (or just the list). Its observations are stored with origin `summarizer` through the same
privacy boundary. It runs with `SKILLBOX_MEM_DISABLE=1`, so if it starts a Claude Code session of its own, our
hooks stay silent and memory never observes itself (claude-mem's recursion bug).
"""

from __future__ import annotations

import json
import os
import subprocess

from skillbox.errors import InvalidInputError, NotFoundError
from skillbox.mem.capture import record_observation
from skillbox.mem.settings import MemSettings
from skillbox.mem.store import Store


def session_digest(store: Store, session_id: str) -> dict:
    session = store.conn.execute("SELECT * FROM sessions WHERE session_id = ?", (session_id,)).fetchone()
    if session is None:
        raise NotFoundError(f"no session {session_id!r} in memory")
    prompts = store.conn.execute(
        "SELECT prompt_number, prompt_text FROM prompts WHERE session_id = ? AND private = 0 ORDER BY prompt_number",
        (session_id,),
    ).fetchall()
    observations = store.conn.execute(
        "SELECT id, type, title, subtitle, files_modified FROM observations WHERE session_id = ? ORDER BY id",
        (session_id,),
    ).fetchall()
    summaries = store.conn.execute(
        "SELECT prompt_number, investigated, completed, learned, next_steps FROM summaries WHERE session_id = ? "
        "ORDER BY prompt_number",
        (session_id,),
    ).fetchall()
    return {
        "session_id": session_id,
        "project": session["project"],
        "started_at": session["started_at"],
        "ended_at": session["ended_at"],
        "prompts": [dict(r) for r in prompts],
        "observations": [dict(r, files_modified=json.loads(r["files_modified"])) for r in observations],
        "summaries": [dict(r) for r in summaries],
    }


def run_summarizer(store: Store, settings: MemSettings, session_id: str) -> list[int]:
    """Run the configured command on one session; returns the ids of the observations it added."""
    if not settings.summarizer_command:
        raise InvalidInputError("no summarizer_command configured", hint="set it in settings.json")
    digest = session_digest(store, session_id)
    env = dict(os.environ, SKILLBOX_MEM_DISABLE="1")
    try:
        proc = subprocess.run(
            settings.summarizer_command,
            input=json.dumps(digest, ensure_ascii=False),
            capture_output=True,
            text=True,
            timeout=settings.summarizer_timeout,
            env=env,
        )
    except (OSError, subprocess.TimeoutExpired) as err:
        raise InvalidInputError(f"summarizer {settings.summarizer_command[0]!r} failed to run: {err}") from None
    if proc.returncode != 0:
        raise InvalidInputError(f"summarizer exited {proc.returncode}: {proc.stderr.strip()[:300]}")
    try:
        data = json.loads(proc.stdout or "[]")
    except ValueError as err:
        raise InvalidInputError(f"summarizer output is not JSON ({err})") from None
    items = data.get("observations", []) if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise InvalidInputError("summarizer output must be a list of observations or {observations: [...]}")
    added = []
    for item in items:
        if not isinstance(item, dict) or not str(item.get("title") or "").strip():
            continue

        def strings(key: str, entry: dict = item) -> list[str]:
            value = entry.get(key) or []
            return [str(v) for v in value] if isinstance(value, list) else [str(value)]

        added.append(
            record_observation(
                store,
                type=str(item.get("type") or "note"),
                title=str(item["title"]),
                subtitle=str(item.get("subtitle") or ""),
                narrative=str(item.get("narrative") or ""),
                facts=strings("facts"),
                concepts=strings("concepts"),
                files=strings("files"),
                project=digest["project"],
                settings=settings,
                origin="summarizer",
                session_id=session_id,
            )
        )
    return added
