"""`skillbox mem hook EVENT`: the process Claude Code starts for every hook event.

Dispatched from `skillbox.cli.FAST_PATHS` before click is imported, and importing only the standard library plus
the capture path, because it runs once per tool call. It fails open and loses nothing: whatever goes wrong it
exits 0 and prints nothing or one JSON object. An event it cannot store in time (lock held, migration pending,
settings broken) is spooled (spool.py) for the next process that can write; a damaged database is moved aside
and a new one started; a payload that can never be stored (not JSON) is logged under `$SKILLBOX_HOME/logs/`.
Time limits come from budget.py. `skillbox mem hook drain` stores whatever is spooled (no stdin; the launcher
runs it once a fresh virtualenv is ready, and a hook starts it when the schema needs a migration).
"""

from __future__ import annotations

import json
import os
import sys
import time

# Payloads above this are not parsed at all (logged and skipped). Claude Code's own payloads are far smaller;
# a 50 MB tool response is still accepted and trimmed.
MAX_PAYLOAD_BYTES = 64 * 1024 * 1024
# A hook slower than this leaves a line in the log, so "memory makes Claude slow" can be checked, not guessed.
SLOW_HOOK_SECONDS = 1.0
FILE_CONTEXT_EVENT = "file-context"
USAGE = (
    "usage: skillbox mem hook EVENT < payload.json\n"
    "  EVENT: session-start | user-prompt-submit | post-tool-use | post-tool-use-failure | stop | session-end\n"
    "         | file-context (PostToolUse on Read/Edit/Write: earlier memory about the file, as additionalContext)\n"
    "  skillbox mem hook drain   stores events spooled while the database could not be written\n"
)
# Seconds between two background drains started by hooks (one is enough while a migration runs).
DRAIN_RESTART_SECONDS = 60


def parse_payload(event: str, raw: bytes) -> dict:
    """The hook's JSON object; ValueError for anything that can never be stored. Invalid UTF-8 is repaired."""
    from skillbox.mem import capture

    if capture.normalize_event(event) not in capture.HANDLERS:
        raise ValueError(f"unknown hook event {event!r}")
    if len(raw) > MAX_PAYLOAD_BYTES:
        raise ValueError(f"payload of {len(raw)} bytes is over the {MAX_PAYLOAD_BYTES} byte limit; skipped")
    if not raw.strip():
        raise ValueError("empty payload")
    try:
        try:
            payload = json.loads(raw)
        except UnicodeDecodeError:
            payload = json.loads(raw.decode("utf-8", "replace"))
    except ValueError as err:
        raise ValueError(f"payload is not JSON ({type(err).__name__}: {str(err)[:120]}); {len(raw)} bytes") from None
    if not isinstance(payload, dict):
        raise ValueError(f"payload is a JSON {type(payload).__name__}, not an object")
    return payload


def store_payload(store, settings, event: str, payload: dict) -> dict | None:
    """capture.handle, with lone surrogates (which SQLite cannot encode) replaced on a second try."""
    from skillbox.mem import capture

    try:
        return capture.handle(event, payload, store, settings)
    except UnicodeEncodeError:
        return capture.handle(event, capture.repair_text(payload), store, settings)


def open_hook_store(home: str):
    """The store with a hook's write deadline and no migration; a damaged file is moved aside and replaced."""
    from skillbox.mem.settings import db_path
    from skillbox.mem.store import DamagedStoreError, Store, quarantine

    path = db_path(home)
    try:
        return Store(path, write_seconds=_budget().HOOK_WRITE_SECONDS, migrate=False)
    except DamagedStoreError as err:
        moved = quarantine(path, str(err))
        _log(home, "store", f"damaged memory database moved aside to {moved}: {err}")
        return Store(path, write_seconds=_budget().HOOK_WRITE_SECONDS, migrate=False)


def _budget():
    from skillbox.mem import budget

    return budget


def _log(home: str, event: str, message: str) -> None:
    from skillbox.mem.logs import log_line

    log_line(home, event, message)


def drain_into(store, settings, home: str, seconds: float) -> int:
    """Store spooled events (oldest first) into `store`, each as of the time it was spooled."""
    from skillbox.mem import spool
    from skillbox.mem.store import event_clock

    def store_event(event: str, raw: bytes, epoch: float | None) -> None:
        payload = parse_payload(event, raw)
        with event_clock(epoch):
            store_payload(store, settings, event, payload)

    return spool.drain(home, store_event, seconds)


def _start_background_drain(home: str) -> None:
    marker = os.path.join(home, "spool", ".drain-started")
    try:
        if time.time() - os.path.getmtime(marker) < DRAIN_RESTART_SECONDS:
            return
    except OSError:
        pass
    try:
        with open(marker, "w"):
            pass
        from skillbox.mem.maintenance import spawn_detached

        spawn_detached(["mem", "hook", "drain"])
    except OSError as err:
        _log(home, "drain", f"cannot start a background drain: {err}")


def run(event: str, raw: bytes) -> str | None:
    """Handle one event; returns the stdout text. Events the store cannot take now are spooled, not lost.

    Raises ValueError for a payload that can never be stored, and whatever else goes wrong that spooling could
    not absorb (the caller logs it and fails open).
    """
    if event == FILE_CONTEXT_EVENT:  # PostToolUse on a file tool: earlier memory about it, nothing stored
        from skillbox.mem.file_context import run_hook

        return run_hook(raw)
    from skillbox.mem import spool
    from skillbox.mem.settings import load_settings, skillbox_home
    from skillbox.mem.store import MigrationPendingError, is_busy, is_damage, quarantine

    payload = parse_payload(event, raw)
    home = skillbox_home()
    try:
        settings = load_settings(home)
        store = open_hook_store(home)
    except Exception as err:
        # Broken settings, a lock held past the deadline, a pending migration: keep the event for later.
        spool.append(home, event, raw)
        if isinstance(err, MigrationPendingError):
            _start_background_drain(home)
        elif not is_busy(err):
            _log(home, event, f"spooled ({type(err).__name__}: {err})")
        return None
    try:
        try:
            if spool.pending(home):
                drain_into(store, settings, home, _budget().DRAIN_SECONDS)
                if spool.pending(home):  # older events still waiting: keep the order, let a drainer catch up
                    spool.append(home, event, raw)
                    _start_background_drain(home)
                    return None
            out = store_payload(store, settings, event, payload)
        except Exception as err:
            if is_busy(err):
                spool.append(home, event, raw)
                return None
            if not is_damage(err):
                raise
            store.close()
            moved = quarantine(store.path, str(err), seen_inode=store.inode)
            _log(home, event, f"damaged memory database moved aside to {moved}: {err}")
            store = open_hook_store(home)
            out = store_payload(store, settings, event, payload)
        if _moved_under(store):  # another hook moved a damaged file aside while we wrote into it
            store.close()
            store = open_hook_store(home)
            out = store_payload(store, settings, event, payload)
    finally:
        store.close()
    return json.dumps(out, ensure_ascii=False) if out else None


def _moved_under(store) -> bool:
    try:
        return os.stat(store.path).st_ino != store.inode
    except OSError:
        return True


def drain_main() -> int:
    """`skillbox mem hook drain`: store every spooled event, migrating the schema first if needed."""
    from skillbox.mem.settings import db_path, load_settings, skillbox_home
    from skillbox.mem.store import DamagedStoreError, Store, quarantine

    home = skillbox_home()
    try:
        settings = load_settings(home)
        try:
            store = Store(db_path(home))
        except DamagedStoreError as err:
            _log(home, "drain", f"damaged memory database moved aside to {quarantine(db_path(home), str(err))}")
            store = Store(db_path(home))
        with store:
            stored = drain_into(store, settings, home, 3600.0)
        if stored:
            _log(home, "drain", f"stored {stored} spooled events")
    except BaseException as err:
        _log(home, "drain", f"{type(err).__name__}: {err}")
    return 0


def main(argv: list[str]) -> int:
    event = argv[0] if argv else ""
    if event in ("-h", "--help") or not event:
        sys.stdout.write(USAGE)
        return 0
    if event == "drain":  # stores what was already captured (detached drains run with SKILLBOX_MEM_DISABLE=1)
        return drain_main()
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
            from skillbox.mem.settings import skillbox_home

            _log(skillbox_home(), event, f"slow hook: {elapsed * 1000:.0f} ms for {len(raw)} payload bytes")
    except BaseException as err:  # a hook must never break the agent
        try:
            from skillbox.mem.settings import skillbox_home

            _log(skillbox_home(), event, f"{type(err).__name__}: {err}")
        except BaseException:
            pass
    return 0
