"""Export/import round trip, all-or-nothing imports, and switching from claude-mem."""

from __future__ import annotations

import json
import sqlite3

from click.testing import CliRunner

from skillbox.cli.root import cli
from skillbox.mem.search import search
from skillbox.mem.store import open_store
from tests.mem.conftest import count, replay_session, rows


def test_export_import_round_trip_is_exact(home, project_dir, tmp_path, monkeypatch):
    replay_session(project_dir, session="a")
    replay_session(project_dir, session="b", prompt="Add <private>x</private> caching to the API")
    runner = CliRunner()
    runner.invoke(cli, ["mem", "add", "--type", "decision", "--title", "Keep WAL", "--project", "demo", "--fact", "f1"])
    first = tmp_path / "first.jsonl"
    assert runner.invoke(cli, ["mem", "export", str(first)]).exit_code == 0
    other = tmp_path / "other-home"
    other.mkdir()
    monkeypatch.setenv("SKILLBOX_HOME", str(other))
    result = runner.invoke(cli, ["mem", "import", str(first), "--json"])
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["observation"]["added"] == count(home, "observations")
    second = tmp_path / "second.jsonl"
    runner.invoke(cli, ["mem", "export", str(second)])
    assert second.read_bytes() == first.read_bytes()
    again = json.loads(runner.invoke(cli, ["mem", "import", str(first), "--json"]).stdout)
    assert all(numbers["added"] == 0 for numbers in again.values())


def test_a_bad_line_aborts_the_whole_import(home, project_dir, tmp_path):
    replay_session(project_dir)
    before = count(home, "observations")
    bad = tmp_path / "bad.jsonl"
    good = {
        "kind": "observation",
        "project": "demo",
        "type": "note",
        "title": "would be new",
        "content_hash": "zz1",
        "created_at": "2026-01-01T00:00:00.000Z",
    }
    bad.write_text(json.dumps(good) + "\n{broken\n")
    result = CliRunner().invoke(cli, ["mem", "import", str(bad)])
    assert result.exit_code == 1
    assert "line 2: not JSON" in result.stderr
    assert count(home, "observations") == before
    wrong_kind = tmp_path / "wrong.jsonl"
    wrong_kind.write_text('{"kind": "table"}\n')
    assert "line 1: expected an object with kind" in CliRunner().invoke(cli, ["mem", "import", str(wrong_kind)]).stderr


def _claude_mem_db(path):
    """A database with claude-mem's table and column names (v13 schema subset)."""
    conn = sqlite3.connect(path)
    conn.executescript(
        """
        CREATE TABLE sdk_sessions (id INTEGER PRIMARY KEY, content_session_id TEXT, memory_session_id TEXT UNIQUE,
          project TEXT, platform_source TEXT DEFAULT 'claude', user_prompt TEXT, started_at TEXT,
          started_at_epoch INTEGER, completed_at TEXT, completed_at_epoch INTEGER, status TEXT, prompt_counter INTEGER);
        CREATE TABLE observations (id INTEGER PRIMARY KEY, memory_session_id TEXT, project TEXT, text TEXT, type TEXT,
          title TEXT, subtitle TEXT, facts TEXT, narrative TEXT, concepts TEXT, files_read TEXT, files_modified TEXT,
          prompt_number INTEGER, created_at TEXT, created_at_epoch INTEGER, discovery_tokens INTEGER,
          content_hash TEXT);
        CREATE TABLE session_summaries (id INTEGER PRIMARY KEY, memory_session_id TEXT, project TEXT, request TEXT,
          investigated TEXT, learned TEXT, completed TEXT, next_steps TEXT, files_read TEXT, files_edited TEXT,
          notes TEXT, prompt_number INTEGER, created_at TEXT, created_at_epoch INTEGER);
        CREATE TABLE user_prompts (id INTEGER PRIMARY KEY, session_db_id INTEGER, content_session_id TEXT,
          prompt_number INTEGER, prompt_text TEXT, created_at TEXT, created_at_epoch INTEGER);
        """
    )
    conn.execute(
        "INSERT INTO sdk_sessions VALUES (1, 'cc-1', 'mem-1', 'alpha-api', 'claude', 'fix auth', "
        "'2026-10-10T00:50:00.000Z', 1791600600000, NULL, NULL, 'completed', 1)"
    )
    conn.execute(
        "INSERT INTO observations VALUES (853, 'mem-1', 'alpha-api', NULL, 'bugfix',"
        " 'Authentication token refresh fixed',"
        " 'Refresh now retries once', '[\"retry added\"]', 'The refresh path <private>pw=1</private> raced.',"
        " '[\"problem-solution\"]', '[\"src/auth.ts\"]', '[\"src/auth.ts\"]', 1, '2026-10-10T00:51:00.000Z',"
        " 1791600660000, 1200, 'abc')"
    )
    conn.execute(
        "INSERT INTO session_summaries VALUES (1, 'mem-1', 'alpha-api', 'fix auth', 'read auth.ts', 'refresh raced', "
        "'added retry', 'add tests', '[]', '[\"src/auth.ts\"]', 'n', 1, '2026-10-10T00:52:00.000Z', 1791600720000)"
    )
    conn.execute("INSERT INTO user_prompts VALUES (1, 1, 'cc-1', 1, 'fix auth', '2026-10-10T00:50:00Z', 1791600600000)")
    conn.commit()
    conn.close()


def test_import_from_claude_mem(home, tmp_path):
    source = tmp_path / "claude-mem.db"
    _claude_mem_db(source)
    result = CliRunner().invoke(cli, ["mem", "import", "--from-claude-mem", str(source), "--json"])
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert {k: v["added"] for k, v in report.items()} == {
        "session": 1,
        "prompt": 1,
        "event": 0,
        "observation": 1,
        "summary": 1,
    }
    with open_store() as store:
        hits = search(store, "refresh token")
    assert [h.title for h in hits.hits if h.kind == "observation"] == ["Authentication token refresh fixed"]
    observation = rows(home, "SELECT type, session_id, files_modified, narrative, origin FROM observations")[0]
    assert observation == ("bugfix", "cc-1", '["src/auth.ts"]', "The refresh path  raced.", "claude-mem")
    assert rows(home, "SELECT created_at FROM observations")[0][0].startswith("2026-10-10T")
    again = json.loads(CliRunner().invoke(cli, ["mem", "import", "--from-claude-mem", str(source), "--json"]).stdout)
    assert again["observation"] == {"added": 0, "skipped": 1}


def test_claude_mem_import_rejects_other_files(home, tmp_path):
    other = tmp_path / "x.db"
    sqlite3.connect(other).execute("CREATE TABLE t (a)").connection.close()
    result = CliRunner().invoke(cli, ["mem", "import", "--from-claude-mem", str(other)])
    assert result.exit_code == 1
    assert "does not look like a claude-mem database" in result.stderr


def test_export_to_stdout_matches_the_file(home, project_dir, tmp_path):
    replay_session(project_dir)
    runner = CliRunner()
    out = tmp_path / "x.jsonl"
    runner.invoke(cli, ["mem", "export", str(out)])
    printed = runner.invoke(cli, ["mem", "export"]).stdout
    assert printed == out.read_text()
    kinds = [json.loads(line)["kind"] for line in printed.splitlines()]
    assert kinds.index("session") < kinds.index("prompt") < kinds.index("event") < kinds.index("observation")
