"""The spool: hook events that could not be stored yet, kept as files until a process that can write stores them.

A hook must return within its timeout and must not lose what it was given. When it cannot write in time — the
virtualenv is still being built (no Python yet: `bin/skillbox` spools with `cat`), the write lock is held past
`budget.HOOK_WRITE_SECONDS`, or the schema needs a migration that a hook must not run — the raw payload goes to
`$SKILLBOX_HOME/spool/<time ns>-<pid>.<event>.json`, written under a dot-name and renamed, so a reader never sees
half a file. The next hook that can write (or `skillbox mem hook drain`, which the launcher runs when a build
finishes) replays the files in name order — the order the events happened — with the clock set to when each was
spooled, and deletes each once it is stored.

A drainer claims a file by renaming it to `.claimed-<pid>-<name>` first, so two drainers never store one event
twice; claims left by a dead process are put back. A payload that cannot be stored (not JSON, no session) is kept,
scrubbed, in `spool/rejected/` and logged, never silently deleted. Until drained (normally by the turn's Stop
hook, seconds later) a spooled payload is raw — secrets not yet redacted — so the spool is readable by the user
only (mode 0700/0600); the database, its WAL, the logs, exports and rejected payloads hold only scrubbed text.
"""

from __future__ import annotations

import os
import time
from contextlib import suppress

SPOOL = "spool"
_CLAIM = ".claimed-"


def spool_dir(home: str) -> str:
    return os.path.join(home, SPOOL)


def append(home: str, event: str, raw: bytes) -> str:
    """Store one raw hook payload; returns its path. Raises OSError only when the disk refuses."""
    folder = spool_dir(home)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    name = f"{time.time_ns()}-{os.getpid()}.{event}.json"
    tmp = os.path.join(folder, f".tmp-{name}")
    with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as handle:
        handle.write(raw)
    final = os.path.join(folder, name)
    os.replace(tmp, final)
    return final


def pending(home: str) -> list[str]:
    """Spooled event file names, oldest first ([] when there is no spool: one failed stat on the hot path)."""
    try:
        names = os.listdir(spool_dir(home))
    except OSError:
        return []
    return sorted(n for n in names if n[:1].isdigit() and n.endswith(".json"))


def _parse_name(name: str) -> tuple[float | None, str]:
    """(epoch seconds the event was spooled, hook event name) from `<ns>-<pid>.<event>.json`."""
    stem = name[: -len(".json")]
    stamp, _, event = stem.partition(".")
    ns = stamp.split("-", 1)[0]
    return (int(ns) / 1e9 if ns.isdigit() else None), event


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def recover_claims(home: str) -> None:
    """Put back files claimed by drainers that died before storing them."""
    folder = spool_dir(home)
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if not name.startswith(_CLAIM):
            continue
        pid_text, _, original = name[len(_CLAIM) :].partition("-")
        if pid_text.isdigit() and not _alive(int(pid_text)) and original:
            with suppress(OSError):
                os.replace(os.path.join(folder, name), os.path.join(folder, original))


def drain(home: str, store_event, seconds: float) -> int:
    """Replay spooled events through `store_event(event, raw, epoch)` for up to `seconds`; returns how many.

    When `store_event` fails because of the store (busy, damaged) the file goes back and the error is raised; any
    other failure is the event's own (not JSON, no session): it is moved to `rejected/`, so the spool never jams.
    """
    from skillbox.mem.store import is_busy, is_damage

    names = pending(home)
    if not names:
        return 0
    recover_claims(home)
    folder = spool_dir(home)
    deadline = time.monotonic() + seconds
    stored = 0
    for name in names:
        if time.monotonic() > deadline:
            break
        path = os.path.join(folder, name)
        claimed = os.path.join(folder, f"{_CLAIM}{os.getpid()}-{name}")
        try:
            os.replace(path, claimed)
        except OSError:
            continue  # another drainer took it
        epoch, event = _parse_name(name)
        try:
            with open(claimed, "rb") as handle:
                raw = handle.read()
            store_event(event, raw, epoch)
        except BaseException as err:
            if is_busy(err) or is_damage(err) or not isinstance(err, Exception):
                os.replace(claimed, path)  # the store, not the event, is the problem: try again later
                raise
            _reject(home, claimed, name, err)  # never retried forever, never deleted
            continue
        os.unlink(claimed)
        stored += 1
    return stored


def _reject(home: str, claimed: str, name: str, err: BaseException) -> None:
    """Keep an unstorable payload for the user to look at — scrubbed like everything memory keeps for good."""
    from skillbox.mem.logs import log_line
    from skillbox.mem.privacy import scrub_text

    rejected = os.path.join(spool_dir(home), "rejected")
    os.makedirs(rejected, mode=0o700, exist_ok=True)
    with open(claimed, "rb") as handle:
        text = scrub_text(handle.read().decode("utf-8", "replace"))
    with open(os.open(os.path.join(rejected, name), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as out:
        out.write(text)
    os.unlink(claimed)
    log_line(home, "drain", f"spooled {name} cannot be stored, kept (scrubbed) in spool/rejected: {err}")
