"""Keeping the database small and the optional summarizer off the hot path.

claude-mem's databases grew to tens of gigabytes with no retention and no VACUUM. Here raw events (the bulky
part) expire after `events_retention_days`, everything else after `retention_days` (0 = keep), and `max_db_mb`
caps the file: oldest events go first, then oldest sessions. Pages freed by deletes are returned to the file
system with incremental vacuum (the database is created with auto_vacuum=INCREMENTAL); `--vacuum` rebuilds it.

SessionEnd gets about 1.5 s from Claude Code, so the hook never prunes or summarizes inline: when either is due it
starts a detached `skillbox mem` process and returns.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass, field

from skillbox.mem import budget
from skillbox.mem.settings import MemSettings
from skillbox.mem.store import Store, now_iso

PRUNE_EVERY_SECONDS = 24 * 3600
_MIN_BATCH = 10
_MAX_CAP_BATCH = 2000


@dataclass
class PruneReport:
    deleted: dict[str, int] = field(default_factory=dict)
    bytes_before: int = 0
    bytes_after: int = 0
    dry_run: bool = False

    def to_dict(self) -> dict:
        return {
            "deleted": self.deleted,
            "bytes_before": self.bytes_before,
            "bytes_after": self.bytes_after,
            "dry_run": self.dry_run,
        }


def used_bytes(store: Store) -> int:
    """Bytes the database's live pages take (free pages excluded): what the size cap is measured against."""
    page_size = store.conn.execute("PRAGMA page_size").fetchone()[0]
    pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
    free = store.conn.execute("PRAGMA freelist_count").fetchone()[0]
    return (pages - free) * page_size


def _cutoff(days: int) -> str:
    return now_iso(time.time() - days * 86400)


def _delete(store: Store, sql: str, params: tuple) -> int:
    """`DELETE FROM t WHERE ...` in transactions of about `budget.BATCH_SECONDS` (the batch size adapts), so a
    prune of a large store never holds the write lock long enough to push hooks onto the spool."""
    import re

    match = re.fullmatch(r"DELETE FROM (\w+) WHERE (.*)", sql, re.S)
    assert match, sql
    table, where = match.groups()
    batched = f"DELETE FROM {table} WHERE rowid IN (SELECT rowid FROM {table} WHERE {where} LIMIT ?)"
    size, total = 200, 0
    while True:
        started = time.monotonic()
        gone = store.write(lambda size=size: store.conn.execute(batched, (*params, size)).rowcount)
        total += gone
        if gone < size:
            return total
        took = time.monotonic() - started
        size = max(10, min(size * 4, int(size * budget.BATCH_SECONDS / max(took, 1e-4))))


def _count(store: Store, sql: str, params: tuple) -> int:
    return store.conn.execute(sql, params).fetchone()[0]


def prune(
    store: Store,
    settings: MemSettings,
    *,
    older_than_days: int | None = None,
    events_older_than_days: int | None = None,
    max_mb: int | None = None,
    project: str | None = None,
    vacuum: bool = False,
    dry_run: bool = False,
) -> PruneReport:
    """Apply the retention policy (arguments override settings). Returns what was (or would be) deleted."""
    retention = settings.retention_days if older_than_days is None else older_than_days
    event_days = settings.events_retention_days if events_older_than_days is None else events_older_than_days
    cap_mb = settings.max_db_mb if max_mb is None else max_mb
    report = PruneReport(bytes_before=store.file_bytes(), dry_run=dry_run)
    where_project = " AND session_id IN (SELECT session_id FROM sessions WHERE project = ?)" if project else ""
    extra = (project,) if project else ()

    def tally(name: str, number: int) -> None:
        if number:
            report.deleted[name] = report.deleted.get(name, 0) + number

    if event_days and event_days > 0:
        cutoff = _cutoff(event_days)
        sql = f"FROM events WHERE created_at < ?{where_project}"
        if dry_run:
            tally("events", _count(store, f"SELECT count(*) {sql}", (cutoff, *extra)))
        else:
            tally("events", _delete(store, f"DELETE {sql}", (cutoff, *extra)))

    if retention and retention > 0:
        cutoff = _cutoff(retention)
        session_sql = "FROM sessions WHERE started_at < ? AND (ended_at IS NULL OR ended_at < ?)"
        session_params: tuple = (cutoff, cutoff)
        if project:
            session_sql += " AND project = ?"
            session_params = (*session_params, project)
        manual_sql = "FROM observations WHERE session_id IS NULL AND created_at < ?"
        if project:
            manual_sql += " AND project = ?"
        if dry_run:
            tally("sessions", _count(store, f"SELECT count(*) {session_sql}", session_params))
            tally("observations", _count(store, f"SELECT count(*) {manual_sql}", (cutoff, *extra)))
        else:
            tally("sessions", _delete(store, f"DELETE {session_sql}", session_params))
            tally("observations", _delete(store, f"DELETE {manual_sql}", (cutoff, *extra)))

    if cap_mb and cap_mb > 0 and not dry_run:
        cap = cap_mb * 1024 * 1024
        # Oldest raw events first (observations and summaries keep what they meant), then whole old sessions.
        # Deleting in steps of ~5% keeps as much recent history as the cap allows.
        # At most _MAX_CAP_BATCH rows per transaction: a short lock, like every other batch here.
        batch = max(_MIN_BATCH, min(_MAX_CAP_BATCH, _count(store, "SELECT count(*) FROM events", ()) // 20))
        oldest = "DELETE FROM events WHERE id IN (SELECT id FROM events ORDER BY created_at, id LIMIT ?)"
        while used_bytes(store) > cap:
            gone = store.write(lambda: store.conn.execute(oldest, (batch,)).rowcount)
            if not gone:
                break
            tally("events", gone)
        while used_bytes(store) > cap:
            gone = store.write(
                lambda: (
                    store.conn.execute(
                        "DELETE FROM sessions WHERE id IN (SELECT id FROM sessions ORDER BY started_at, id LIMIT 20)"
                    ).rowcount
                )
            )
            if not gone:
                break
            tally("sessions", gone)

    if not dry_run:
        store.write(lambda: store.meta_set("last_prune", now_iso()))
        if vacuum:
            # FTS5 records a deletion as a tombstone in a new segment; merging the segments drops the deleted
            # rows' entries, without which VACUUM can leave the file larger than before the prune.
            for fts in ("observations_fts", "summaries_fts", "prompts_fts"):
                store.write(lambda fts=fts: store.conn.execute(f"INSERT INTO {fts}({fts}) VALUES ('optimize')"))
            store.conn.execute("VACUUM")
        else:
            # Each step of this pragma frees pages; it must be stepped to the end to free them all.
            store.conn.execute("PRAGMA incremental_vacuum").fetchall()
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    report.bytes_after = store.file_bytes()
    return report


def prune_due(store: Store, settings: MemSettings) -> bool:
    last = store.meta_get("last_prune")
    if last is None or last < now_iso(time.time() - PRUNE_EVERY_SECONDS):
        return True
    return settings.max_db_mb > 0 and store.file_bytes() > settings.max_db_mb * 1024 * 1024


def spawn_detached(args: list[str]) -> None:
    """Start `python -m skillbox ARGS` in its own session; the hook returns without waiting for it."""
    import skillbox

    # Run the same code as this process, whether it was installed or put on the path by PYTHONPATH.
    source_root = os.path.dirname(os.path.dirname(os.path.abspath(skillbox.__file__)))
    path = os.pathsep.join(p for p in (source_root, os.environ.get("PYTHONPATH", "")) if p)
    env = dict(os.environ, SKILLBOX_MEM_DISABLE="1", PYTHONPATH=path)
    subprocess.Popen(
        [sys.executable, "-m", "skillbox", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env=env,
        close_fds=True,
    )


def after_session_end(store: Store, settings: MemSettings, session_id: str) -> None:
    if settings.summarizer_command:
        spawn_detached(["mem", "summarize", session_id])
    if settings.observer:
        spawn_detached(["mem", "observer", "run", session_id])  # detached: SessionEnd never waits for a model
    if settings.auto_prune and prune_due(store, settings):
        # Mark first so parallel session ends don't all start a pruner.
        store.write(lambda: store.meta_set("last_prune", now_iso()))
        spawn_detached(["mem", "prune", "--quiet"])


def stats(store: Store) -> dict:
    """Counts, sizes and date range: what `skillbox mem stats` prints; also events waiting in the spool and
    damaged databases moved aside (their records are not in this one)."""
    from skillbox.mem import spool
    from skillbox.mem.store import damage_notes

    counts = {
        table: store.conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        for table in ("sessions", "prompts", "events", "observations", "summaries")
    }
    projects = [
        {"project": row[0], "observations": row[1], "last": row[2]}
        for row in store.conn.execute(
            "SELECT project, count(*), max(created_at) FROM observations GROUP BY project ORDER BY max(created_at) DESC"
        )
    ]
    types = dict(store.conn.execute("SELECT type, count(*) FROM observations GROUP BY type ORDER BY count(*) DESC"))
    span = store.conn.execute("SELECT min(started_at), max(started_at) FROM sessions").fetchone()
    return {
        "path": store.path,
        "bytes": store.file_bytes(),
        "live_bytes": used_bytes(store),
        "schema_versions": store.schema_versions(),
        "counts": counts,
        "observation_types": types,
        "projects": projects,
        "first_session": span[0],
        "last_session": span[1],
        "last_prune": store.meta_get("last_prune"),
        "spooled": len(spool.pending(os.path.dirname(os.path.abspath(store.path)))),
        "damaged_stores": damage_notes(store.path),
    }
