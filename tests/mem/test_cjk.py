"""Chinese and Japanese text is found by any substring of a phrase; English ranking is unchanged; the schema v2
migration rebuilds an existing v1 index so old rows are found too."""

from __future__ import annotations

import sqlite3

import pytest

from skillbox.mem import store as store_module
from skillbox.mem.capture import record_observation
from skillbox.mem.search import search
from skillbox.mem.settings import MemSettings
from skillbox.mem.store import Store, open_store
from tests.mem.conftest import insert_old_observation, payload, run_hook_inprocess

TITLES = [
    "修复购物车数量可以变成负数的 bug",
    "ユーザー認証のトークンを更新する処理を追加",
    "데이터베이스 연결 풀 크기를 늘림",
    "Fix the auth token refresh race",
    "Token refresh docs",
]


def _fill(store: Store) -> dict[str, int]:
    return {
        title: record_observation(store, type="change", title=title, project="demo", settings=MemSettings())
        for title in TITLES
    }


@pytest.mark.parametrize(
    "query, expected",
    [
        ("负数", TITLES[0]),
        ("购物车", TITLES[0]),
        ("变成负数", TITLES[0]),
        ("负", TITLES[0]),
        ("认证", None),  # simplified 认 is not the Japanese 認: no false friend
        ("認証", TITLES[1]),
        ("トークン", TITLES[1]),
        ("ークンを更新", TITLES[1]),
        ("연결", TITLES[2]),
        ("负数 bug", TITLES[0]),
    ],
)
def test_a_substring_of_a_cjk_phrase_is_found(home, query, expected):
    with open_store() as store:
        _fill(store)
        hits = [h.title for h in search(store, query).hits]
    if expected is None:
        assert hits == []
    else:
        assert hits and hits[0] == expected, hits


def test_english_ranking_is_unchanged(home):
    with open_store() as store:
        _fill(store)
        hits = search(store, "token refresh").hits
        assert sorted(h.title for h in hits) == sorted(TITLES[3:]) and {h.match for h in hits} == {"all"}
        assert hits[0].title == "Token refresh docs"  # bm25: the shorter title with both words ranks first
        assert all(h.title in TITLES[3:] for h in search(store, "refr").hits)
        # The cjk column is empty for English rows: nothing is indexed there.
        assert store.conn.execute("SELECT count(*) FROM observations_fts WHERE cjk MATCH 'token'").fetchone()[0] == 0


def test_hook_prompts_in_chinese_are_searchable(home, project_dir):
    run_hook_inprocess(
        "user-prompt-submit", payload("user-prompt-submit", cwd=project_dir, prompt="请修复登录页面的错误")
    )
    with open_store() as store:
        assert [h.ref for h in search(store, "登录页面").hits] == ["P1"]


def test_migration_rebuilds_an_existing_v1_index(home, tmp_path, monkeypatch):
    path = home / "memory.db"
    monkeypatch.setattr(store_module, "MIGRATIONS", store_module.MIGRATIONS[:1])
    monkeypatch.setattr(store_module, "LATEST_VERSION", 1)
    with Store(path) as old:
        old.write(lambda: [insert_old_observation(old.conn, title, project="demo") for title in TITLES])
        assert old.schema_versions() == [1]
        # The v1 unicode61 index: a Han run is one token, so its substring is not found.
        assert (
            old.conn.execute("SELECT count(*) FROM observations_fts WHERE observations_fts MATCH '负数'").fetchone()[0]
            == 0
        )
    monkeypatch.undo()
    with Store(path) as new:
        assert new.schema_versions() == list(range(1, store_module.LATEST_VERSION + 1))
        assert [h.title for h in search(new, "负数").hits] == [TITLES[0]]
        assert new.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        new.conn.execute("INSERT INTO observations_fts(observations_fts) VALUES ('integrity-check')")
    # Deleting keeps the index in step (the delete trigger recomputes the same cjk text).
    with Store(path) as store:
        store.write(lambda: store.conn.execute("DELETE FROM observations"))
        store.conn.execute("INSERT INTO observations_fts(observations_fts) VALUES ('integrity-check')")
        assert search(store, "负数").hits == []


def test_plain_sqlite_can_still_read_the_database(home):
    with open_store() as store:
        _fill(store)
    conn = sqlite3.connect(home / "memory.db")
    assert conn.execute("SELECT count(*) FROM observations").fetchone() == (5,)
    conn.close()
