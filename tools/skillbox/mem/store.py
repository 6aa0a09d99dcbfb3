"""The memory database: one SQLite file, versioned migrations, FTS5 kept in step by triggers.

Why stdlib `sqlite3` and not sqlite-utils here: a hook process starts once per tool call and has a budget of tens
of milliseconds; importing sqlite-utils alone costs ~180 ms. Everything on the write path therefore uses plain
`sqlite3`; sqlite-utils is used where start-up cost does not matter (reading a foreign claude-mem database).

Concurrency: WAL lets readers run beside one writer. Every write is one `BEGIN IMMEDIATE` transaction, so a
writer takes the lock up front (no read-then-upgrade deadlock), waits up to `BUSY_TIMEOUT_MS` for it, and the
whole unit is retried with back-off if SQLite still answers "database is locked" — parallel hooks never drop a
write. A transaction is all-or-nothing, so a killed writer leaves nothing half-stored.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

from skillbox.errors import InvalidInputError

TYPE_CHECKING = False  # `typing` costs the hook ~4 ms to import; type checkers still see the TypeVar
if TYPE_CHECKING:
    from typing import TypeVar

    T = TypeVar("T")

BUSY_TIMEOUT_MS = 15000
WRITE_ATTEMPTS = 12

_FTS_OPTS = "tokenize='unicode61 remove_diacritics 2', prefix='2 3'"


def _fts(table: str, columns: list[str]) -> list[str]:
    """An external-content FTS5 index over `table` plus the three triggers that keep it in step."""
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


OBSERVATION_FTS_COLUMNS = ["title", "subtitle", "facts", "narrative", "concepts", "files_read", "files_modified"]
# bm25 column weights, same order as OBSERVATION_FTS_COLUMNS: title > subtitle > facts > narrative.
OBSERVATION_WEIGHTS = "10.0, 6.0, 3.0, 1.5, 2.0, 1.0, 1.0"
SUMMARY_FTS_COLUMNS = ["request", "investigated", "learned", "completed", "next_steps"]
SUMMARY_WEIGHTS = "6.0, 2.0, 3.0, 3.0, 1.0"

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
]
LATEST_VERSION = MIGRATIONS[-1][0]


def now_iso(epoch: float | None = None) -> str:
    """UTC timestamp with milliseconds, `2026-11-29T14:07:36.123Z`: sorts as text, compares with a date prefix."""
    epoch = time.time() if epoch is None else epoch
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(epoch)) + f".{int(epoch * 1000) % 1000:03d}Z"


def is_busy(err: BaseException) -> bool:
    text = str(err).lower()
    return isinstance(err, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


class Store:
    """An open memory database. Use `write(fn)` for every change; reads go through `conn` directly."""

    def __init__(self, path: str | os.PathLike, *, create: bool = True):
        self.path = os.fspath(path)
        if not create and not os.path.exists(self.path):
            from skillbox.errors import NotFoundError

            raise NotFoundError(f"no memory database at {self.path}", hint="hooks create it on first use")
        os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        self.conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        self.conn.row_factory = sqlite3.Row
        try:
            self.conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            self.conn.execute("PRAGMA foreign_keys=ON")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            version = self.conn.execute("PRAGMA user_version").fetchone()[0]
            if version < LATEST_VERSION:
                self._migrate()
            elif version > LATEST_VERSION:
                raise InvalidInputError(
                    f"{self.path} has schema version {version}, newer than this skillbox ({LATEST_VERSION})",
                    hint="upgrade skillbox",
                )
        except sqlite3.DatabaseError as err:
            self.conn.close()
            if is_busy(err):
                raise
            raise InvalidInputError(f"{self.path} is not a usable memory database ({err})") from None

    # -- schema -------------------------------------------------------------------------------------------------

    def _migrate(self) -> None:
        def setup() -> None:
            # Both only take effect on a fresh file; harmless afterwards. WAL is persistent once set.
            self.conn.execute("PRAGMA auto_vacuum=INCREMENTAL")
            if self.conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                self.conn.execute("PRAGMA journal_mode=WAL")

        retry(setup)

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

        return retry(unit)

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

    def __exit__(self, *exc) -> None:
        self.close()

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


def retry(fn: Callable[[], T]) -> T:
    """Call `fn`, retrying with jittered back-off while SQLite reports the database busy or locked."""
    delay = 0.01
    for attempt in range(WRITE_ATTEMPTS):
        try:
            return fn()
        except sqlite3.OperationalError as err:
            if not is_busy(err) or attempt == WRITE_ATTEMPTS - 1:
                raise
            import random

            time.sleep(delay * (0.5 + random.random()))
            delay = min(delay * 2, 1.0)
    raise AssertionError("unreachable")


def open_store(path: str | os.PathLike | None = None, *, create: bool = True) -> Store:
    from skillbox.mem.settings import db_path

    return Store(path or db_path(), create=create)
