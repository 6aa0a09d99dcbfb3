"""Settings, add, stats, retention and the size cap, the summarizer, and the MCP server over a real stdio session."""

from __future__ import annotations

import json
import os
import sys
import time

import anyio
from click.testing import CliRunner

from skillbox.cli.root import cli
from skillbox.mem.maintenance import prune, used_bytes
from skillbox.mem.settings import MemSettings, load_settings
from skillbox.mem.store import LATEST_VERSION, open_store
from tests.mem.conftest import TOOLS, count, payload, replay_session, rows, run_hook_inprocess


def test_settings_file_is_created_with_every_default_and_env_wins(home, monkeypatch):
    settings = load_settings()
    written = json.loads((home / "settings.json").read_text())
    assert written == MemSettings().to_dict()
    assert settings.context_max_tokens == 1500
    monkeypatch.setenv("SKILLBOX_MEM_CONTEXT_MAX_TOKENS", "900")
    monkeypatch.setenv("SKILLBOX_MEM_SKIP_TOOLS", "Read, Grep")
    (home / "settings.json").write_text(json.dumps({"redact_secrets": False}))
    settings = load_settings()
    assert (settings.context_max_tokens, settings.skip_tools, settings.redact_secrets) == (900, ["Read", "Grep"], False)


def test_bad_settings_are_a_one_line_error_for_commands(home):
    (home / "settings.json").write_text(json.dumps({"max_db_mb": "lots"}))
    result = CliRunner().invoke(cli, ["mem", "stats"])
    assert result.exit_code == 1
    assert "setting 'max_db_mb' must be a int" in result.stderr


def test_add_records_decisions_through_the_privacy_boundary(home, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    result = runner.invoke(
        cli,
        [
            "mem",
            "add",
            "--type",
            "decision",
            "--title",
            "Use argon2 <private>pepper=abc</private>",
            "--narrative",
            "bcrypt truncates at 72 bytes",
            "--file",
            "src/auth.py",
            "--project",
            "shop",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.stderr
    ident = json.loads(result.stdout)["id"]
    assert rows(home, "SELECT type, title, project, origin FROM observations WHERE id = ?", (ident,)) == [
        ("decision", "Use argon2", "shop", "agent")
    ]
    only_private = runner.invoke(cli, ["mem", "add", "--type", "note", "--title", "<private>x</private>"])
    assert only_private.exit_code == 1 and "non-empty title" in only_private.stderr
    assert runner.invoke(cli, ["mem", "add", "--title", "no type"]).exit_code == 2


def test_stats(home, project_dir):
    replay_session(project_dir)
    data = json.loads(CliRunner().invoke(cli, ["mem", "stats", "--json"]).stdout)
    assert data["counts"]["sessions"] == 1 and data["counts"]["events"] == 4
    assert data["schema_versions"] == list(range(1, LATEST_VERSION + 1))
    assert data["projects"][0]["project"] == "demo"
    assert data["settings"]["context_max_tokens"] == 1500


def _age(home, days: float) -> None:
    old = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(time.time() - days * 86400))
    with open_store() as store:
        store.write(
            lambda: [
                store.conn.execute(f"UPDATE {table} SET {column} = ?", (old,))
                for table, column in (
                    ("events", "created_at"),
                    ("sessions", "started_at"),
                    ("sessions", "ended_at"),
                    ("observations", "created_at"),
                )
            ]
        )


def test_prune_by_age(home, project_dir):
    replay_session(project_dir)
    _age(home, 45)
    runner = CliRunner()
    dry = json.loads(runner.invoke(cli, ["mem", "prune", "--dry-run", "--json"]).stdout)
    assert dry["deleted"] == {"events": 4}
    assert count(home, "events") == 4
    runner.invoke(cli, ["mem", "prune"])
    assert count(home, "events") == 0
    assert count(home, "observations") > 0  # observations outlive their raw events
    result = json.loads(runner.invoke(cli, ["mem", "prune", "--older-than", "30", "--json"]).stdout)
    assert result["deleted"]["sessions"] == 1
    assert count(home, "observations") == count(home, "summaries") == count(home, "prompts") == 0


def test_size_cap_drops_oldest_events_first_and_returns_space(home, project_dir):
    with open_store() as store:
        for i in range(300):
            event = payload(
                "post-tool-use",
                f"s{i // 100}",
                project_dir,
                tool_name="Read",
                tool_use_id=f"u{i}",
                tool_input={"file_path": f"/f{i}.py"},
                tool_response={"content": os.urandom(3000).hex()},
            )
            run_hook_inprocess("post-tool-use", event)
        big = used_bytes(store)
    assert big > 1.5 * 1024 * 1024
    settings = load_settings()
    with open_store() as store:
        report = prune(store, settings, max_mb=1)
        assert used_bytes(store) <= 1024 * 1024
    assert report.deleted["events"] > 0
    assert report.bytes_after < report.bytes_before
    remaining = rows(home, "SELECT min(tool_use_id) FROM events WHERE tool_use_id LIKE 'u2%'")
    assert remaining[0][0] is not None  # the newest events survive
    assert count(home, "observations") == 300


def test_session_end_starts_a_background_prune_once_due(home, project_dir, monkeypatch):
    replay_session(project_dir)
    _age(home, 45)
    monkeypatch.setenv("SKILLBOX_MEM_AUTO_PRUNE", "1")
    started = time.perf_counter()
    run_hook_inprocess("session-end", payload("session-end", "later", project_dir, reason="other"))
    assert time.perf_counter() - started < 1.0  # the hook does not wait for the pruner
    deadline = time.time() + 60
    while count(home, "events") and time.time() < deadline:
        time.sleep(0.2)
    assert count(home, "events") == 0
    with open_store() as store:
        assert store.meta_get("last_prune") is not None


def test_summarizer_runs_once_and_is_not_observed(home, project_dir, tmp_path, monkeypatch):
    script = tmp_path / "summarize.py"
    script.write_text(
        "import json, os, sys\n"
        "digest = json.load(sys.stdin)\n"
        "title = f\"Session {digest['session_id']} touched {len(digest['observations'])} things\"\n"
        "print(json.dumps({'observations': [{'type': 'note', 'title': title,\n"
        "  'narrative': 'disabled=' + os.environ.get('SKILLBOX_MEM_DISABLE', '')}]}))\n"
    )
    (home / "settings.json").write_text(json.dumps({"summarizer_command": [sys.executable, str(script)]}))
    replay_session(project_dir)
    result = CliRunner().invoke(cli, ["mem", "summarize", "sess-1"])
    assert result.exit_code == 0, result.stderr
    assert rows(home, "SELECT title, narrative, origin FROM observations WHERE origin = 'summarizer'") == [
        ("Session sess-1 touched 5 things", "disabled=1", "summarizer")
    ]


def test_mcp_server_answers_the_sdk_client(home, project_dir):
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    replay_session(project_dir)
    env = dict(os.environ, PYTHONPATH=str(TOOLS), SKILLBOX_HOME=str(home))

    async def session():
        params = StdioServerParameters(command=sys.executable, args=["-m", "skillbox", "mem", "mcp"], env=env)
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            names = sorted(t.name for t in (await client.list_tools()).tools)
            found = await client.call_tool("search", {"query": "auth", "format": "json"})
            hits = json.loads(found.content[0].text)["results"]
            tl = await client.call_tool("timeline", {"anchor": hits[0]["ref"], "before": 1, "after": 1})
            got = await client.call_tool("get_observations", {"ids": [h["ref"] for h in hits[:2]] + ["#999"]})
            assert not (found.is_error or tl.is_error or got.is_error)
            bad = await client.call_tool("timeline", {"anchor": "not-a-thing"})
            semantic = [
                await client.call_tool("search", {"query": "auth", "limit": -5}),
                await client.call_tool("search", {"query": "auth", "since": "last tuesday"}),
                await client.call_tool("get_observations", {"ids": ["#999"]}),
                await client.call_tool("get_observations", {"ids": ["banana"]}),
                bad,
            ]
            errors = [(r.is_error, r.content[0].text) for r in semantic]
            return names, hits, tl.content[0].text, json.loads(got.content[0].text), errors

    names, hits, tl_text, got, errors = anyio.run(session)
    assert names == ["get_observations", "search", "timeline"]
    assert any("auth.py" in h["title"] for h in hits)
    assert "<- anchor" in tl_text
    assert [r["ref"] for r in got["records"]] == [h["ref"] for h in hits[:2]] and got["missing"] == ["#999"]
    # Semantic errors are tool errors (isError=true) with our one-line message, no traceback.
    assert [is_error for is_error, _ in errors] == [True] * 5, errors
    texts = [text for _, text in errors]
    assert "--limit must be at least 1" in texts[0]
    assert "not a date" in texts[1]
    assert "#999" in texts[2] and "not a memory id" in texts[3]
    assert "timeline anchor" in texts[4]
    assert not any("Traceback" in text for text in texts)


def test_vacuum_rebuilds_the_file_smaller(home, project_dir):
    replay_session(project_dir)
    _age(home, 45)
    result = CliRunner().invoke(cli, ["mem", "prune", "--older-than", "30", "--vacuum", "--json"])
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["deleted"]["sessions"] == 1
    assert report["bytes_after"] <= report["bytes_before"]
    assert rows(home, "PRAGMA integrity_check") == [("ok",)]
