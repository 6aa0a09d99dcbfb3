"""Index-time context (schema v3): each observation also indexes the titles of the records just before it in its
session, in a low-weight column, so a record whose topic was named in the turn before it is found by the topic's
words and still ranks below a record that holds them itself. Real SQLite stores throughout."""

from __future__ import annotations

from skillbox.mem import capture
from skillbox.mem import store as store_module
from skillbox.mem.observe import Observation
from skillbox.mem.search import search
from skillbox.mem.store import Store, now_iso, open_store
from tests.mem.conftest import insert_old_observation, replay_session, rows


def _turns(store: Store, texts: list[str], session: str | None = "chat-1", project: str = "alpha") -> list[int]:
    def write() -> list[int]:
        if session is not None:
            store.conn.execute(
                "INSERT OR IGNORE INTO sessions (session_id, project, started_at) VALUES (?, ?, ?)",
                (session, project, now_iso()),
            )
        return [
            capture.insert_observation(
                store.conn,
                Observation("note", text),
                session_id=session,
                project=project,
                prompt_number=None,
                origin="test",
                created_at=now_iso(1793664000 + i * 30),
            )
            for i, text in enumerate(texts)
        ]

    return store.write(write)


def _context(store: Store, ident: int) -> str:
    return store.conn.execute("SELECT context FROM observations WHERE id = ?", (ident,)).fetchone()[0]


def refs(result) -> list[str]:
    return [h.ref for h in result.hits]


def test_an_answer_is_found_by_the_words_of_the_turn_before_it_and_ranks_below_a_record_holding_them(home):
    with open_store() as store:
        asked, answer = _turns(store, ["How long have you been doing yoga?", "Been doing it for 3 years now."])
        (mats,) = _turns(store, ["Bought new yoga mats for the studio."], session="errands")
        hits = refs(search(store, "yoga years"))
        assert hits.index(f"#{answer}") < len(hits)  # "yoga" is only in the turn before it
        assert hits == [f"#{answer}", f"#{asked}", f"#{mats}"]  # the answer holds "years" itself: every word
        found = refs(search(store, "yoga"))
        assert set(found) == {f"#{asked}", f"#{answer}", f"#{mats}"}
        assert found.index(f"#{answer}") > max(found.index(f"#{asked}"), found.index(f"#{mats}"))


def test_a_tool_observation_is_found_by_the_reasoning_before_it(home):
    """Coding memory: the edit's own title names only the file; the decision before it names the topic."""
    with open_store() as store:
        decision, edit = _turns(
            store,
            ["Decision: the login lockout counter stays in an in-memory dict, not Redis", "Edited guard.py"],
            session="fix-lockout",
        )
        (other,) = _turns(store, ["Edited settings.py"], session="ops")
        found = refs(search(store, "lockout counter"))
        assert found == [f"#{decision}", f"#{edit}"]
        # The edit holds both words, one of them by context; the other edit holds one, the decision the other.
        assert refs(search(store, "edited lockout"))[0] == f"#{edit}"
        assert refs(search(store, "edited lockout")).index(f"#{other}") > 0


def test_context_is_the_two_records_before_it_in_its_own_session_only(home):
    with open_store() as store:
        first, second = _turns(store, ["alpha one", "beta two"], session="s1")
        (elsewhere,) = _turns(store, ["gamma three"], session="s2")  # after s1's records, another session
        third, fourth = _turns(store, ["delta four", "epsilon five"], session="s1")
        (loose,) = _turns(store, ["zeta six"], session=None)  # `mem add`: no session, no context
        assert _context(store, first) == ""
        assert _context(store, second) == "alpha one"
        assert _context(store, elsewhere) == ""
        assert _context(store, third) == "beta two alpha one"
        assert _context(store, fourth) == "delta four beta two"
        assert _context(store, loose) == ""
        # A repeated record (same content in the same session) is stored once and keeps its first context.
        assert _turns(store, ["alpha one"], session="s1") == [first] and _context(store, first) == ""


def test_the_hook_path_stores_context(home, project_dir):
    replay_session(project_dir)
    stored = rows(home, "SELECT title, context FROM observations ORDER BY id")
    assert len(stored) >= 3
    assert stored[0][1] == ""
    for i in range(1, len(stored)):
        assert stored[i][1] == " ".join(title for title, _ in reversed(stored[max(0, i - 2) : i]))


def test_migration_from_v2_fills_context_and_loses_nothing(home, monkeypatch):
    path = home / "memory.db"
    monkeypatch.setattr(store_module, "MIGRATIONS", store_module.MIGRATIONS[:2])
    monkeypatch.setattr(store_module, "LATEST_VERSION", 2)
    texts = [("s1", "How long have you been doing yoga?"), ("s2", "Redis restarted"), ("s1", "Three years now.")]
    texts += [("s1", "修复购物车数量可以变成负数的 bug"), (None, "A loose note about yoga")]
    with Store(path) as old:

        def fill() -> None:
            for session in ("s1", "s2"):
                old.conn.execute(
                    "INSERT INTO sessions (session_id, project, started_at) VALUES (?, 'alpha', ?)",
                    (session, now_iso()),
                )
            for session, text in texts:
                insert_old_observation(old.conn, text, project="alpha", session_id=session)

        old.write(fill)
        assert old.schema_versions() == [1, 2]
        before = old.conn.execute("SELECT id, session_id, title, content_hash FROM observations ORDER BY id").fetchall()
    monkeypatch.undo()
    with Store(path) as new:
        assert new.schema_versions() == [1, 2, 3]
        after = new.conn.execute("SELECT id, session_id, title, content_hash FROM observations ORDER BY id").fetchall()
        assert [tuple(r) for r in after] == [tuple(r) for r in before]
        ids = [r["id"] for r in after]
        # The same context the write path would have stored (two records before, same session, newest first).
        assert [_context(new, i) for i in ids] == [
            "",
            "",
            "How long have you been doing yoga?",
            "Three years now. How long have you been doing yoga?",
            "",
        ]
        new.conn.execute("INSERT INTO observations_fts(observations_fts) VALUES ('integrity-check')")
        assert new.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert f"#{ids[2]}" in refs(search(new, "yoga"))  # found by the turn before it
        assert refs(search(new, "负数")) == [f"#{ids[3]}"]  # the cjk column still indexed
        # Records written after the migration get their context from the rows migrated.
        (later,) = _turns(new, ["It keeps me calm."], session="s1")
        assert _context(new, later).startswith("修复购物车数量可以变成负数的 bug Three years now.")
        # Deleting a session keeps the index in step (the delete trigger removes the stored context too).
        new.write(lambda: new.conn.execute("DELETE FROM sessions WHERE session_id = 's1'"))
        new.conn.execute("INSERT INTO observations_fts(observations_fts) VALUES ('integrity-check')")
        assert refs(search(new, "yoga")) == [f"#{ids[4]}"]


def test_an_exported_store_imports_with_the_same_context(home, tmp_path):
    from skillbox.mem.transfer import export_lines, import_lines

    with open_store() as store:
        _turns(store, ["How long have you been doing yoga?", "Three years now.", "It keeps me calm."])
        _turns(store, ["A loose note"], session=None)
        lines = list(export_lines(store))
        original = store.conn.execute("SELECT content_hash, context FROM observations ORDER BY id").fetchall()
    with Store(tmp_path / "other.db") as other:
        import_lines(other, lines)
        copied = other.conn.execute("SELECT content_hash, context FROM observations ORDER BY id").fetchall()
        assert [tuple(r) for r in copied] == [tuple(r) for r in original]
        assert original[2][1] == "Three years now. How long have you been doing yoga?"
