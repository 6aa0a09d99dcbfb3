"""`skillbox mem hook EVENT`: the process Claude Code starts for every hook event.

Dispatched from `skillbox.cli.FAST_PATHS` before click is imported, and importing only the standard library plus
the capture path, because it runs once per tool call (target: p50 ≤ 60 ms for the whole process). It fails open:
whatever goes wrong — bad JSON, a locked or corrupt database, a bug — it exits 0, prints nothing or one JSON
object, and logs the error under `$SKILLBOX_HOME/logs/`.
"""

from __future__ import annotations

import json
import os
import sys
import time

# Payloads above this are not parsed at all (logged and skipped). Claude Code's own payloads are far smaller;
# a 10 MB tool response is still accepted and trimmed.
MAX_PAYLOAD_BYTES = 64 * 1024 * 1024
# A hook slower than this leaves a line in the log, so "memory makes Claude slow" can be checked, not guessed.
SLOW_HOOK_SECONDS = 1.0
FILE_CONTEXT_EVENT = "file-context"
USAGE = (
    "usage: skillbox mem hook EVENT < payload.json\n"
    "  EVENT: session-start | user-prompt-submit | post-tool-use | post-tool-use-failure | stop | session-end\n"
    "         | file-context (PostToolUse on Read/Edit/Write: earlier memory about the file, as additionalContext)\n"
)


def run(event: str, raw: bytes) -> str | None:
    """Handle one event; returns the stdout text. Raises on any problem (the caller logs and fails open)."""
    if event == FILE_CONTEXT_EVENT:  # PostToolUse on a file tool: earlier memory about it, nothing stored
        from skillbox.mem.file_context import run_hook

        return run_hook(raw)
    from skillbox.mem import capture
    from skillbox.mem.settings import db_path, load_settings, skillbox_home
    from skillbox.mem.store import Store

    if capture.normalize_event(event) not in capture.HANDLERS:
        raise ValueError(f"unknown hook event {event!r}")
    if len(raw) > MAX_PAYLOAD_BYTES:
        raise ValueError(f"payload of {len(raw)} bytes is over the {MAX_PAYLOAD_BYTES} byte limit; skipped")
    if not raw.strip():
        raise ValueError("empty payload")
    try:
        payload = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as err:
        raise ValueError(f"payload is not JSON ({type(err).__name__}: {str(err)[:120]}); {len(raw)} bytes") from None
    if not isinstance(payload, dict):
        raise ValueError(f"payload is a JSON {type(payload).__name__}, not an object")
    home = skillbox_home()
    settings = load_settings(home)
    store = Store(db_path(home))
    try:
        out = capture.handle(event, payload, store, settings)
    finally:
        store.close()
    return json.dumps(out, ensure_ascii=False) if out else None


def main(argv: list[str]) -> int:
    event = argv[0] if argv else ""
    if event in ("-h", "--help") or not event:
        sys.stdout.write(USAGE)
        return 0
    if os.environ.get("SKILLBOX_MEM_DISABLE", "").strip() not in ("", "0", "false", "no"):
        return 0  # e.g. the summarizer's own sessions: memory never observes itself
    started = time.perf_counter()
    try:
        raw = sys.stdin.buffer.read(MAX_PAYLOAD_BYTES + 1)
        out = run(event, raw)
        if out:
            sys.stdout.write(out + "\n")
            sys.stdout.flush()
        elapsed = time.perf_counter() - started
        if elapsed > SLOW_HOOK_SECONDS:
            from skillbox.mem.logs import log_line
            from skillbox.mem.settings import skillbox_home

            log_line(skillbox_home(), event, f"slow hook: {elapsed * 1000:.0f} ms for {len(raw)} payload bytes")
    except BaseException as err:  # a hook must never break the agent
        try:
            from skillbox.mem.logs import log_line
            from skillbox.mem.settings import skillbox_home

            log_line(skillbox_home(), event, f"{type(err).__name__}: {err}")
        except BaseException:
            pass
    return 0
