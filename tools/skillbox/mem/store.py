"""The memory database: one SQLite file, versioned migrations, FTS5 kept in step by triggers.

Why stdlib `sqlite3` and not sqlite-utils here: a hook process starts once per tool call and has a budget of tens
of milliseconds; importing sqlite-utils alone costs ~180 ms. Everything on the write path therefore uses plain
`sqlite3`; sqlite-utils is used where start-up cost does not matter (reading a foreign claude-mem database).

Concurrency: WAL lets readers run beside one writer. Every write is one `BEGIN IMMEDIATE` transaction, so a
writer takes the lock up front (no read-then-upgrade deadlock). A Store is opened with a write deadline
(`budget.py`: about a second for hooks, longer for the CLI); SQLite's busy timeout runs in short slices and the
whole unit is retried with back-off until that deadline, then `StoreBusyError` lets a hook spool its event instead
of stalling. A transaction is all-or-nothing, so a killed writer leaves nothing half-stored.

Damage: opening checks the file header and page count (cheap, no page scan); `doctor` runs the full integrity
check. A damaged file is moved aside with a timestamp by `quarantine()` and a new one started; the new store keeps
a note of it (meta `damaged_stores`) that SessionStart, `mem stats` and `doctor` report.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

from skillbox.errors import InvalidInputError
from skillbox.mem import budget, cjk

TYPE_CHECKING = False  # `typing` costs the hook ~4 ms to import; type checkers still see the TypeVar
if TYPE_CHECKING:
    from typing import TypeVar

    T = TypeVar("T")

SQLITE_MAGIC = b"SQLite format 3\x00"


class StoreBusyError(InvalidInputError):
    """The write lock stayed taken past this Store's deadline (a long import, a stuck process)."""


class DamagedStoreError(InvalidInputError):
    """The file is not a sound SQLite database (truncated, overwritten, a damaged page)."""


class MigrationPendingError(InvalidInputError):
    """The schema is older than this skillbox and the Store was told not to migrate (a hook: it may take long)."""


_FTS_OPTS = "tokenize='unicode61 remove_diacritics 2', prefix='2 3'"


def _fts(table: str, columns: list[str]) -> list[str]:
    """An external-content FTS5 index over `table` plus the three triggers that keep it in step (schema v1)."""
    cols = ", ".join(columns)
    new = ", ".join(f"new.{c}" for c in columns)
    old = ", ".join(f"old.{c}" for c in columns)
    fts = f"{table}_fts"
    return [
        f"CREATE VIRTUAL TABLE {fts} USING fts5({cols}, content='{table}', content_rowid='id', {_FTS_OPTS})",
        f"CREATE TRIGGER {table}_ai AFTER INSERT ON {table} BEGIN "
        f"INSERT INTO {fts}(rowid, {cols}) VALUES (new.id, {new}); END",
        f"CREATE TRIGGER {table}_ad AFTER DELETE ON {table} BEGIN "
        f"INSERT INTO {fts}({fts}, rowid, {cols}) VALUES ('delete', old.id, {old}); END",
        f"CREATE TRIGGER {table}_au AFTER UPDATE ON {table} BEGIN "
        f"INSERT INTO {fts}({fts}, rowid, {cols}) VALUES ('delete', old.id, {old}); "
        f"INSERT INTO {fts}(rowid, {cols}) VALUES (new.id, {new}); END",
    ]


def _fts_with_cjk(table: str, columns: list[str], weights: str | None) -> list[str]:
    """Schema v2: `table`'s FTS5 index rebuilt with a `cjk` column (see cjk.py), from a view that computes it.

    The index reads its content through the view `<table>_fts_src`, so `rebuild` and column reads see the same
    `cjk` text the triggers index. Self-contained: drops v1's index and triggers, creates and fills the new ones.
    """
    cols = ", ".join(columns)
    fts, src = f"{table}_fts", f"{table}_fts_src"

    def row(prefix: str) -> str:
        values = ", ".join(f"{prefix}.{c}" for c in columns)
        return f"{values}, skillbox_cjk({values})"

    statements = [f"DROP TRIGGER IF EXISTS {table}_{suffix}" for suffix in ("ai", "ad", "au")]
    statements += [
        f"DROP TABLE IF EXISTS {fts}",
        f"CREATE VIEW {src} AS SELECT id, {cols}, skillbox_cjk({cols}) AS cjk FROM {table}",
        f"CREATE VIRTUAL TABLE {fts} USING fts5({cols}, cjk, content='{src}', content_rowid='id', {_FTS_OPTS})",
        f"CREATE TRIGGER {table}_ai AFTER INSERT ON {table} BEGIN "
        f"INSERT INTO {fts}(rowid, {cols}, cjk) VALUES (new.id, {row('new')}); END",
        f"CREATE TRIGGER {table}_ad AFTER DELETE ON {table} BEGIN "
        f"INSERT INTO {fts}({fts}, rowid, {cols}, cjk) VALUES ('delete', old.id, {row('old')}); END",
        f"CREATE TRIGGER {table}_au AFTER UPDATE ON {table} BEGIN "
        f"INSERT INTO {fts}({fts}, rowid, {cols}, cjk) VALUES ('delete', old.id, {row('old')}); "
        f"INSERT INTO {fts}(rowid, {cols}, cjk) VALUES (new.id, {row('new')}); END",
        f"INSERT INTO {fts}({fts}) VALUES ('rebuild')",
    ]
    if weights:
        statements.append(f"INSERT INTO {fts}({fts}, rank) VALUES ('rank', 'bm25({weights})')")
    return statements


OBSERVATION_FTS_COLUMNS = ["title", "subtitle", "facts", "narrative", "concepts", "files_read", "files_modified"]
# bm25 column weights, same order as OBSERVATION_FTS_COLUMNS: title > subtitle > facts > narrative.
OBSERVATION_WEIGHTS = "10.0, 6.0, 3.0, 1.5, 2.0, 1.0, 1.0"
SUMMARY_FTS_COLUMNS = ["request", "investigated", "learned", "completed", "next_steps"]
SUMMARY_WEIGHTS = "6.0, 2.0, 3.0, 3.0, 1.0"
# Weight of the `cjk` column (schema v2): a CJK substring hit counts like a facts hit.
CJK_WEIGHT = "3.0"
# Weight of an observation's `context` column (schema v3): the titles of the records around it in its session
# (CONTEXT_RECORDS before it, CONTEXT_AFTER after it).
CONTEXT_WEIGHT = "1.0"
# How many earlier records of its session an observation's context holds (their titles, newest first), and
# whether the title of the record after it is added when that record is written (`note_successor`).
CONTEXT_RECORDS = 2
CONTEXT_AFTER = 1


def context_sql(session: str, before: str, project: str) -> str:
    """SQL for an observation's `context`: the titles of the CONTEXT_RECORDS observations before id `before` in
    session `session` and project `project` (SQL expressions), newest first, or '' (no session, first record of it).

    Why: an answer's words are often not the topic's ("Been doing it for 3 years." after "How long have you been
    doing yoga?"; "Edited lockout.py" after the reasoning that named the lockout bug). Indexing the turn before it,
    in a column of its own with a low weight, lets the topic's words find the record without ranking it above one
    that holds them itself. Only records of the same session are copied: a session is deleted whole (prune,
    forget), so no copy outlives the text it came from. And only records of the same project: a session that moved
    to another folder (the project is resolved per event) must not make `--project` find one project's records by
    the other's words.
    """
    titles = _earlier("title", session, before, project, CONTEXT_RECORDS)
    return f"(SELECT coalesce(group_concat(title, ' '), '') FROM ({titles}))"


def _earlier(column: str, session: str, before: str, project: str, limit: int) -> str:
    """SQL selecting `column` of the `limit` observations just before id `before` in the same session and project
    (SQL expressions; placeholders bind in the order session, project, before), newest first: the one notion of
    "the records around one" that `context` is built from."""
    return (
        f"SELECT p.{column} FROM observations p WHERE p.session_id = {session} AND p.project = {project} "
        f"AND p.id < {before} ORDER BY p.id DESC LIMIT {limit}"
    )


# `context` of an observation being inserted, as a VALUES item: binds (session_id, project) after the row's values.
NEW_OBSERVATION_CONTEXT = context_sql("?", str(2**63 - 1), "?")


def previous_observation(conn: sqlite3.Connection, rowid: int) -> int | None:
    """The id of the observation just before `rowid` in its session and project (whose context holds its title)."""
    row = conn.execute(
        f"SELECT ({_earlier('id', 'o.session_id', 'o.id', 'o.project', 1)}) FROM observations o WHERE o.id = ?",
        (rowid,),
    ).fetchone()
    return row[0] if row else None


def note_successor(conn: sqlite3.Connection, session_id: str | None, new_id: int, title: str, project: str) -> None:
    """The write path's second half of `context`: the record just before a new one in its session (and project,
    see `context_sql`) gains the new
    record's title (CONTEXT_AFTER; 0 switches it off). A question is then also found by the words of its answer,
    a "Read auth.py" by the words of the edit that followed it. One indexed update of one row per write."""
    if session_id is None or not CONTEXT_AFTER:
        return
    conn.execute(
        "UPDATE observations SET context = CASE WHEN context = '' THEN ? ELSE context || ' ' || ? END "
        f"WHERE id = ({_earlier('id', '?', '?', '?', 1)})",
        (title, title, session_id, project, new_id),
    )


def _context_of_stored_rows() -> str:
    """`context` for rows already stored (migration): what the write path leaves, the titles before and after."""
    before = context_sql("observations.session_id", "observations.id", "observations.project")
    after = (
        "(SELECT n.title FROM observations n WHERE n.session_id = observations.session_id "
        "AND n.project = observations.project AND n.id > observations.id ORDER BY n.id LIMIT 1)"
    )
    if not CONTEXT_AFTER:
        return before
    return (
        f"(SELECT CASE WHEN a IS NULL THEN b WHEN b = '' THEN a ELSE b || ' ' || a END "
        f"FROM (SELECT {before} AS b, {after} AS a))"
    )


def refresh_context(conn: sqlite3.Connection, ids: list[int]) -> None:
    """Recompute the `context` of the observations `ids` from the records around them now (after some of their
    neighbours were deleted one by one, e.g. an interrupted import undone: no copy of a deleted title stays)."""
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        conn.execute(
            f"UPDATE observations SET context = {_context_of_stored_rows()} "
            f"WHERE session_id IS NOT NULL AND id IN ({','.join('?' * len(chunk))})",
            chunk,
        )


def _observation_fts_with_context() -> list[str]:
    """Schema v3: observations gain a stored `context` column (see `context_sql`), filled for the records already
    there, and their FTS5 index is rebuilt with it (its own low weight) between the v2 columns and `cjk`."""
    cols = ", ".join(OBSERVATION_FTS_COLUMNS)
    fts, src = "observations_fts", "observations_fts_src"

    def row(prefix: str) -> str:
        values = ", ".join(f"{prefix}.{c}" for c in OBSERVATION_FTS_COLUMNS)
        return f"{values}, {prefix}.context, skillbox_cjk({values})"

    all_cols = f"{cols}, context, cjk"
    weights = f"{OBSERVATION_WEIGHTS}, {CONTEXT_WEIGHT}, {CJK_WEIGHT}"
    return [
        *(f"DROP TRIGGER IF EXISTS observations_{suffix}" for suffix in ("ai", "ad", "au")),
        f"DROP TABLE IF EXISTS {fts}",
        f"DROP VIEW IF EXISTS {src}",
        "ALTER TABLE observations ADD COLUMN context TEXT NOT NULL DEFAULT ''",
        # The records before one in its session, by id, in a few index steps: observations_session is ordered by
        # prompt number, so context_sql would sort the whole session (a 2,000-record session doubled a write).
        "CREATE INDEX observations_session_order ON observations(session_id, id)",
        f"UPDATE observations SET context = {_context_of_stored_rows()} WHERE session_id IS NOT NULL",
        f"CREATE VIEW {src} AS SELECT id, {cols}, context, skillbox_cjk({cols}) AS cjk FROM observations",
        f"CREATE VIRTUAL TABLE {fts} USING fts5({all_cols}, content='{src}', content_rowid='id', {_FTS_OPTS})",
        f"CREATE TRIGGER observations_ai AFTER INSERT ON observations BEGIN "
        f"INSERT INTO {fts}(rowid, {all_cols}) VALUES (new.id, {row('new')}); END",
        f"CREATE TRIGGER observations_ad AFTER DELETE ON observations BEGIN "
        f"INSERT INTO {fts}({fts}, rowid, {all_cols}) VALUES ('delete', old.id, {row('old')}); END",
        f"CREATE TRIGGER observations_au AFTER UPDATE ON observations BEGIN "
        f"INSERT INTO {fts}({fts}, rowid, {all_cols}) VALUES ('delete', old.id, {row('old')}); "
        f"INSERT INTO {fts}(rowid, {all_cols}) VALUES (new.id, {row('new')}); END",
        f"INSERT INTO {fts}({fts}) VALUES ('rebuild')",
        f"INSERT INTO {fts}({fts}, rank) VALUES ('rank', 'bm25({weights})')",
    ]


# (version, description, statements). Append only; never edit a released migration.
MIGRATIONS: list[tuple[int, str, list[str]]] = [
    (
        1,
        "sessions, prompts, events, observations, summaries with FTS5",
        [
            """CREATE TABLE sessions (
                id INTEGER PRIMARY KEY,
                session_id TEXT NOT NULL UNIQUE,
                project TEXT NOT NULL,
                cwd TEXT,
                source TEXT,
                model TEXT,
                started_at TEXT NOT NULL,
                ended_at TEXT,
                end_reason TEXT,
                prompt_count INTEGER NOT NULL DEFAULT 0
            )""",
            "CREATE INDEX sessions_project ON sessions(project, started_at)",
            """CREATE TABLE prompts (
                id INTEGER PRIMARY KEY,
                session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
                prompt_number INTEGER NOT NULL,
                prompt_text TEXT NOT NULL,
                private INTEGER NOT NULL DEFAULT 0,
                created_at TEXT NOT NULL,
                UNIQUE (session_id, prompt_number)
            )""",
            "CREATE INDEX prompts_created ON prompts(created_at)",
            """CREATE TABLE events (
                id INTEGER PRIMARY KEY,
                session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
                prompt_number INTEGER NOT NULL DEFAULT 0,
                tool_name TEXT NOT NULL,
                tool_use_id TEXT NOT NULL,
                tool_input TEXT NOT NULL DEFAULT '{}',
                tool_response TEXT NOT NULL DEFAULT 'null',
                ok INTEGER NOT NULL DEFAULT 1,
                error TEXT,
                duration_ms INTEGER,
                created_at TEXT NOT NULL,
                UNIQUE (session_id, tool_use_id)
            )""",
            "CREATE INDEX events_turn ON events(session_id, prompt_number)",
            "CREATE INDEX events_created ON events(created_at)",
            """CREATE TABLE observations (
                id INTEGER PRIMARY KEY,
                session_id TEXT REFERENCES sessions(session_id) ON DELETE CASCADE,
                project TEXT NOT NULL,
                type TEXT NOT NULL,
                title TEXT NOT NULL,
                subtitle TEXT NOT NULL DEFAULT '',
                facts TEXT NOT NULL DEFAULT '[]',
                narrative TEXT NOT NULL DEFAULT '',
                concepts TEXT NOT NULL DEFAULT '[]',
                files_read TEXT NOT NULL DEFAULT '[]',
                files_modified TEXT NOT NULL DEFAULT '[]',
                prompt_number INTEGER,
                origin TEXT NOT NULL DEFAULT 'hook',
                content_hash TEXT NOT NULL UNIQUE,
                created_at TEXT NOT NULL
            )""",
            "CREATE INDEX observations_project ON observations(project, created_at)",
            "CREATE INDEX observations_created ON observations(created_at)",
            "CREATE INDEX observations_session ON observations(session_id, prompt_number)",
            """CREATE TABLE summaries (
                id INTEGER PRIMARY KEY,
                session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
                project TEXT NOT NULL,
                prompt_number INTEGER NOT NULL,
                request TEXT,
                investigated TEXT NOT NULL DEFAULT '',
                learned TEXT NOT NULL DEFAULT '',
                completed TEXT NOT NULL DEFAULT '',
                next_steps TEXT NOT NULL DEFAULT '',
                files_read TEXT NOT NULL DEFAULT '[]',
                files_edited TEXT NOT NULL DEFAULT '[]',
                created_at TEXT NOT NULL,
                UNIQUE (session_id, prompt_number)
            )""",
            "CREATE INDEX summaries_project ON summaries(project, created_at)",
            "CREATE INDEX summaries_created ON summaries(created_at)",
            *_fts("observations", OBSERVATION_FTS_COLUMNS),
            f"INSERT INTO observations_fts(observations_fts, rank) VALUES ('rank', 'bm25({OBSERVATION_WEIGHTS})')",
            *_fts("summaries", SUMMARY_FTS_COLUMNS),
            f"INSERT INTO summaries_fts(summaries_fts, rank) VALUES ('rank', 'bm25({SUMMARY_WEIGHTS})')",
            *_fts("prompts", ["prompt_text"]),
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        ],
    ),
    (
        2,
        "FTS5 indexes gain a cjk column: CJK runs as bigrams, so a substring of Chinese or Japanese text is found",
        [
            *_fts_with_cjk("observations", OBSERVATION_FTS_COLUMNS, f"{OBSERVATION_WEIGHTS}, {CJK_WEIGHT}"),
            *_fts_with_cjk("summaries", SUMMARY_FTS_COLUMNS, f"{SUMMARY_WEIGHTS}, {CJK_WEIGHT}"),
            *_fts_with_cjk("prompts", ["prompt_text"], None),
        ],
    ),
    (
        3,
        "observations index the titles of the records around them in their session (context column, low weight)",
        _observation_fts_with_context(),
    ),
]
LATEST_VERSION = MIGRATIONS[-1][0]


_fixed_epoch: float | None = None


def now_iso(epoch: float | None = None) -> str:
    """UTC timestamp with milliseconds, `2026-11-29T14:07:36.123Z`: sorts as text, compares with a date prefix.

    While a spooled event is replayed (`event_clock`), "now" is the moment the event was spooled.
    """
    if epoch is None:
        epoch = time.time() if _fixed_epoch is None else _fixed_epoch
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(epoch)) + f".{int(epoch * 1000) % 1000:03d}Z"


@contextmanager
def event_clock(epoch: float | None) -> Iterator[None]:
    """Record rows as of `epoch` (a spooled event keeps the time it happened, not the time it was drained)."""
    global _fixed_epoch
    saved, _fixed_epoch = _fixed_epoch, epoch
    try:
        yield
    finally:
        _fixed_epoch = saved


def replaying() -> bool:
    """True while a spooled event is being stored (its output, e.g. SessionStart context, reaches no one)."""
    return _fixed_epoch is not None


def is_busy(err: BaseException) -> bool:
    text = str(err).lower()
    return isinstance(err, StoreBusyError) or (
        isinstance(err, sqlite3.OperationalError) and ("locked" in text or "busy" in text)
    )


def is_damage(err: BaseException) -> bool:
    """SQLITE_CORRUPT / SQLITE_NOTADB as Python's sqlite3 reports them (other errors are not the file's fault)."""
    if isinstance(err, DamagedStoreError):
        return True
    if not isinstance(err, sqlite3.DatabaseError) or is_busy(err):
        return False
    text = str(err).lower()
    return "malformed" in text or "not a database" in text or "file is encrypted" in text


def check_header(path: str) -> str | None:
    """Why the file at `path` cannot be a sound database, from its first 100 bytes and its size; None if it can.

    Cheap (one small read, no page scan): catches garbage, a foreign file and truncation, which are what users
    actually meet. A damaged page inside a well-formed file is found by `integrity_check` (doctor) or on use.
    """
    try:
        size = os.path.getsize(path)
        if size == 0:
            return None  # created, never written: SQLite initializes it
        with open(path, "rb") as handle:
            header = handle.read(100)
    except FileNotFoundError:
        return None
    except OSError as err:
        return f"cannot read it ({err.strerror})"
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        return "it does not start with the SQLite header"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        return f"its header names an impossible page size ({page_size})"
    pages = int.from_bytes(header[28:32], "big")
    # The page count is valid when the "version-valid-for" number equals the change counter (SQLite >= 3.7.0).
    # While a WAL exists, a checkpoint may have written page 1 before the pages after it: no verdict then.
    try:
        wal = os.path.getsize(f"{path}-wal")
    except OSError:
        wal = 0
    if not wal and header[24:28] == header[92:96] and pages * page_size > size:
        return f"it is truncated ({size} bytes, its header says {pages} pages of {page_size})"
    return None


class Store:
    """An open memory database. Use `write(fn)` for every change; reads go through `conn` directly.

    `write_seconds` is how long a write may wait for the lock (budget.py); `migrate=False` refuses to upgrade
    an existing older schema (a hook must not run a migration that may take longer than its timeout) by raising
    `MigrationPendingError`; a brand-new file is always set up.
    """

    def __init__(
        self,
        path: str | os.PathLike,
        *,
        create: bool = True,
        write_seconds: float = budget.CLI_WRITE_SECONDS,
        migrate: bool = True,
    ):
        self.path = os.fspath(path)
        self.write_seconds = write_seconds
        if not create and not os.path.exists(self.path):
            from skillbox.errors import NotFoundError

            raise NotFoundError(f"no memory database at {self.path}", hint="hooks create it on first use")
        problem = check_header(self.path)
        if problem:
            raise DamagedStoreError(f"{self.path} is damaged: {problem}", hint="run `skillbox doctor`")
        os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        self.conn = sqlite3.connect(self.path, timeout=budget.BUSY_SLICE_MS / 1000, isolation_level=None)
        self.conn.row_factory = sqlite3.Row
        cjk.register(self.conn)
        try:
            self.inode = os.stat(self.path).st_ino
            self.conn.execute(f"PRAGMA busy_timeout={budget.BUSY_SLICE_MS}")
            self.conn.execute("PRAGMA foreign_keys=ON")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            version = self.conn.execute("PRAGMA user_version").fetchone()[0]
            if version < LATEST_VERSION:
                if version and not migrate:
                    raise MigrationPendingError(f"{self.path} has schema version {version}; {LATEST_VERSION} needed")
                self._migrate()
            elif version > LATEST_VERSION:
                raise InvalidInputError(
                    f"{self.path} has schema version {version}, newer than this skillbox ({LATEST_VERSION})",
                    hint="upgrade skillbox",
                )
            else:
                self.conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # parses the schema
        except (sqlite3.DatabaseError, OSError, InvalidInputError) as err:
            self.conn.close()
            if is_busy(err) or isinstance(err, InvalidInputError):
                raise
            if is_damage(err):
                raise DamagedStoreError(f"{self.path} is damaged: {err}", hint="run `skillbox doctor`") from None
            raise InvalidInputError(f"{self.path} is not a usable memory database ({err})") from None

    # -- schema -------------------------------------------------------------------------------------------------

    def _migrate(self) -> None:
        def setup() -> None:
            # Both only take effect on a fresh file; harmless afterwards. WAL is persistent once set.
            self.conn.execute("PRAGMA auto_vacuum=INCREMENTAL")
            if self.conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                self.conn.execute("PRAGMA journal_mode=WAL")

        retry(setup, self.write_seconds)

        def apply() -> None:
            self.conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_versions "
                "(version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
            done = {row[0] for row in self.conn.execute("SELECT version FROM schema_versions")}
            for version, description, statements in MIGRATIONS:
                if version in done:
                    continue
                for statement in statements:
                    self.conn.execute(statement)
                self.conn.execute(
                    "INSERT INTO schema_versions (version, description, applied_at) VALUES (?, ?, ?)",
                    (version, description, now_iso()),
                )
            self.conn.execute(f"PRAGMA user_version={LATEST_VERSION}")

        self.write(apply)

    def schema_versions(self) -> list[int]:
        return [row[0] for row in self.conn.execute("SELECT version FROM schema_versions ORDER BY version")]

    # -- transactions -------------------------------------------------------------------------------------------

    def write(self, fn: Callable[[], T]) -> T:
        """Run `fn` inside one IMMEDIATE transaction; retry the whole unit while the database is busy."""

        def unit():
            with self.transaction():
                return fn()

        return retry(unit, self.write_seconds)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise
        else:
            self.conn.execute("COMMIT")

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        self.close()
        # Whatever a command was doing, a damaged page or a lock held past the deadline is a one-line error.
        if exc is not None and not isinstance(exc, InvalidInputError):
            if is_damage(exc):
                raise DamagedStoreError(
                    f"{self.path} is damaged: {exc}", hint="run `skillbox doctor`; the next hook moves it aside"
                ) from None
            if is_busy(exc):
                raise StoreBusyError(
                    f"{self.path} stayed locked for {self.write_seconds:.0f} s", hint="another skillbox is writing"
                ) from None

    # -- small shared helpers -----------------------------------------------------------------------------------

    def meta_get(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def meta_set(self, key: str, value: str) -> None:
        self.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def file_bytes(self) -> int:
        """Database plus its WAL: what the user sees on disk."""
        total = 0
        for suffix in ("", "-wal"):
            with suppress(OSError):
                total += os.path.getsize(f"{self.path}{suffix}")
        return total


def retry(fn: Callable[[], T], seconds: float = budget.CLI_WRITE_SECONDS) -> T:
    """Call `fn`, retrying with jittered back-off while SQLite reports the database busy, until `seconds` pass.

    Each attempt already waits one busy-timeout slice inside SQLite; past the deadline the busy error becomes
    `StoreBusyError`, which a hook answers by spooling its event.
    """
    deadline = time.monotonic() + seconds
    delay = 0.005
    while True:
        try:
            return fn()
        except sqlite3.OperationalError as err:
            if not is_busy(err):
                raise
            left = deadline - time.monotonic()
            if left <= 0:
                raise StoreBusyError(f"the memory database stayed locked for {seconds:.1f} s") from None
            import random

            time.sleep(min(left, delay * (0.5 + random.random())))
            delay = min(delay * 2, 0.2)


def quarantine(path: str, reason: str, *, seen_inode: int | None = None) -> str | None:
    """Move a damaged database (and its -wal/-shm) aside as `<path>.damaged-<UTC time>`; returns the new name.

    Several processes may find the damage at once: under an exclusive lock, only the file they actually saw
    (same inode) is moved, so a fresh database another process just created is never moved by mistake.
    Returns None when there was nothing (or nothing that was still the damaged file) to move.
    """
    import fcntl
    import json

    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    with open(f"{path}.repair-lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            current = os.stat(path).st_ino
        except FileNotFoundError:
            return None
        if seen_inode is not None and current != seen_inode:
            return None  # already replaced by someone else
        target = f"{path}.damaged-{stamp}"
        n = 1
        while os.path.exists(target):
            n += 1
            target = f"{path}.damaged-{stamp}-{n}"
        for suffix in ("-wal", "-shm"):
            with suppress(FileNotFoundError):
                os.replace(f"{path}{suffix}", f"{target}{suffix}")
        os.replace(path, target)
        note = {"moved_to": target, "at": now_iso(), "reason": " ".join(reason.split())[:300]}
        with open(f"{path}.damaged-notes", "a", encoding="utf-8") as notes:
            notes.write(json.dumps(note, ensure_ascii=False) + "\n")
        return target


def damage_notes(path: str) -> list[dict]:
    """Every damaged store moved aside from `path`, oldest first (from `<path>.damaged-notes`)."""
    import json

    notes = []
    with suppress(OSError), open(f"{path}.damaged-notes", encoding="utf-8", errors="replace") as handle:
        for line in handle:
            with suppress(ValueError):
                notes.append(json.loads(line))
    return notes


def open_store(path: str | os.PathLike | None = None, *, create: bool = True) -> Store:
    """The store for a CLI command or the MCP server: hook events still in the spool are stored first (within
    `budget.DRAIN_SECONDS`), so `mem search` sees the prompt and tool calls of the running turn."""
    from skillbox.mem.settings import db_path

    store = Store(path or db_path(), create=create)
    home = os.path.dirname(os.path.abspath(store.path))
    from skillbox.mem import spool

    if spool.pending(home):
        try:
            from skillbox.mem.hook import drain_into
            from skillbox.mem.settings import load_settings

            drain_into(store, load_settings(home), home, budget.DRAIN_SECONDS)
        except Exception as err:  # a read must not fail because a write could not happen
            from skillbox.mem.logs import log_line

            log_line(home, "drain", f"{type(err).__name__}: {err}")
    return store
