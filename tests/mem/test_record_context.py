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
        # The edit holds both words, one of them by context; the other edit holds only one: the edit comes first of
        # the two. (Which of the edit and the decision comes first is not asserted: in a store this small every
        # word is in most records, bm25 gives both ~1e-6, and the order was a tie-break.)
        found = refs(search(store, "edited lockout"))
        assert found.index(f"#{edit}") < found.index(f"#{other}")


def test_a_full_record_does_not_show_the_context_of_its_neighbours(home):
    from skillbox.mem.search import get_records

    with open_store() as store:
        _asked, answer = _turns(store, ["How long have you been doing yoga?", "Three years now."])
        (record,), missing = get_records(store, [f"#{answer}"])
    assert missing == [] and record["title"] == "Three years now." and "context" not in record


def test_context_is_the_two_records_before_and_the_one_after_in_its_own_session_only(home):
    with open_store() as store:
        first, second = _turns(store, ["alpha one", "beta two"], session="s1")
        (elsewhere,) = _turns(store, ["gamma three"], session="s2")  # after s1's records, another session
        third, fourth = _turns(store, ["delta four", "epsilon five"], session="s1")
        (loose,) = _turns(store, ["zeta six"], session=None)  # `mem add`: no session, no context
        assert _context(store, first) == "beta two"
        assert _context(store, second) == "alpha one delta four"
        assert _context(store, elsewhere) == ""
        assert _context(store, third) == "beta two alpha one epsilon five"
        assert _context(store, fourth) == "delta four beta two"
        assert _context(store, loose) == ""
        # A repeated record (same content in the same session) is stored once and changes no context.
        assert _turns(store, ["alpha one"], session="s1") == [first]
        assert (_context(store, first), _context(store, fourth)) == ("beta two", "delta four beta two")


def test_the_hook_path_stores_context(home, project_dir):
    replay_session(project_dir)
    stored = rows(home, "SELECT title, context FROM observations ORDER BY id")
    assert len(stored) >= 3
    titles = [title for title, _ in stored]
    for i, (_title, context) in enumerate(stored):
        around = [*reversed(titles[max(0, i - 2) : i]), *titles[i + 1 : i + 2]]
        assert context == " ".join(around)


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
    with Store(home / "written.db") as written:  # the same rows through the v3 write path
        for session, text in texts:
            _turns(written, [text], session=session, project="alpha")
        write_path = [r[0] for r in written.conn.execute("SELECT context FROM observations ORDER BY id")]
    with Store(path) as new:
        assert new.schema_versions() == [1, 2, 3]
        after = new.conn.execute("SELECT id, session_id, title, content_hash FROM observations ORDER BY id").fetchall()
        assert [tuple(r) for r in after] == [tuple(r) for r in before]
        ids = [r["id"] for r in after]
        # The same context the write path would have stored (two records before, same session, newest first).
        migrated = [_context(new, i) for i in ids]
        assert migrated == write_path
        assert migrated == [
            "Three years now.",
            "",
            "How long have you been doing yoga? 修复购物车数量可以变成负数的 bug",
            "Three years now. How long have you been doing yoga?",
            "",
        ]
        new.conn.execute("INSERT INTO observations_fts(observations_fts) VALUES ('integrity-check')")
        assert new.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert f"#{ids[2]}" in refs(search(new, "yoga"))  # found by the turn before it
        assert refs(search(new, "负数")) == [f"#{ids[3]}"]  # the cjk column still indexed
        # Records written after the migration get their context from the rows migrated.
        (later,) = _turns(new, ["It keeps me calm."], session="s1")
        assert _context(new, later) == "修复购物车数量可以变成负数的 bug Three years now."
        assert _context(new, ids[3]).endswith("yoga? It keeps me calm.")
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


def test_an_interrupted_import_leaves_no_copy_of_its_titles(home, monkeypatch):
    import json

    from skillbox.errors import InvalidInputError
    from skillbox.mem import budget
    from skillbox.mem.transfer import import_lines

    with open_store() as store:
        (kept,) = _turns(store, ["How long have you been doing yoga?"], session="s1")
        monkeypatch.setattr(budget, "BATCH_SECONDS", 0)  # one line a transaction: the first is in when the second fails
        line = {"kind": "observation", "session_id": "s1", "project": "alpha", "type": "note"}
        lines = [
            json.dumps(dict(line, title="Three years now.", content_hash="h1", created_at=now_iso())),
            json.dumps(dict(line, session_id="gone", title="x", content_hash="h2", created_at=now_iso())),
        ]
        try:
            import_lines(store, lines)
        except InvalidInputError:
            pass
        else:
            raise AssertionError("an observation of an unknown session must not fit")
        assert store.conn.execute("SELECT count(*) FROM observations").fetchone()[0] == 1
        assert _context(store, kept) == ""
        assert refs(search(store, "years")) == []


def test_a_session_that_moves_to_another_project_copies_no_titles_across(home, tmp_path, monkeypatch):
    """The project is resolved per event, so one session can write to two projects: `--project beta` must not find
    a beta record by the words of an alpha record next to it, on the write path, after a migration, or an import."""
    from skillbox.mem.search import Filters
    from skillbox.mem.transfer import export, import_lines

    with open_store() as store:
        (alpha,) = _turns(store, ["Lockout counter moved into the middleware"], session="s1", project="alpha")
        (beta,) = _turns(store, ["Edited chart.py"], session="s1", project="beta")
        (alpha2,) = _turns(store, ["Retry docs read"], session="s1", project="alpha")
        assert (_context(store, alpha), _context(store, beta)) == ("Retry docs read", "")
        assert _context(store, alpha2) == "Lockout counter moved into the middleware"
        assert refs(search(store, "lockout middleware", Filters(project="beta"))) == []
        with open(tmp_path / "out.jsonl", "w") as out:
            export(store, out)
    with Store(tmp_path / "imported.db") as other:
        with open(tmp_path / "out.jsonl") as lines:
            import_lines(other, lines)
        got = dict(other.conn.execute("SELECT title, context FROM observations").fetchall())
        assert got["Edited chart.py"] == "" and got["Retry docs read"] == "Lockout counter moved into the middleware"

    path = tmp_path / "old.db"
    monkeypatch.setattr(store_module, "MIGRATIONS", store_module.MIGRATIONS[:2])
    monkeypatch.setattr(store_module, "LATEST_VERSION", 2)
    with Store(path) as old:

        def fill() -> None:
            old.conn.execute(
                "INSERT INTO sessions (session_id, project, started_at) VALUES ('s1', 'alpha', ?)", (now_iso(),)
            )
            for title, project in (("Lockout counter moved", "alpha"), ("Edited chart.py", "beta")):
                insert_old_observation(old.conn, title, project=project, session_id="s1")

        old.write(fill)
    monkeypatch.undo()
    with Store(path) as new:
        assert dict(new.conn.execute("SELECT title, context FROM observations").fetchall()) == {
            "Lockout counter moved": "",
            "Edited chart.py": "",
        }
