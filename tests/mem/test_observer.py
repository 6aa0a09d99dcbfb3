"""The observer's switches, its status and its input limits (the real-client run is in tests/e2e)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from skillbox.cli.root import cli
from skillbox.mem import observer
from skillbox.mem.settings import load_settings
from skillbox.mem.store import open_store
from tests.mem.conftest import payload, run_hook_inprocess


def test_on_off_status_and_settings_kept(home):
    runner = CliRunner()
    (home / "settings.json").write_text(json.dumps({"context_max_tokens": 900}))
    off = json.loads(runner.invoke(cli, ["mem", "observer", "status", "--json"]).stdout)
    assert off["enabled"] is False and off["daily_token_cap"] == 30000 and off["tokens_today"] == 0
    on = runner.invoke(cli, ["mem", "observer", "on"])
    assert on.exit_code == 0 and "observer on: haiku, at most 30,000 tokens a day" in on.stdout
    saved = json.loads((home / "settings.json").read_text())
    assert saved["observer"] is True and saved["context_max_tokens"] == 900
    assert "observer off" in runner.invoke(cli, ["mem", "observer", "off"]).stdout
    assert load_settings().observer is False


def test_digest_is_cut_to_its_cap_keeping_the_newest(home, project_dir):
    run_hook_inprocess("session-start", payload("session-start", "s", project_dir))
    for i in range(25):
        text = f"prompt number {i} " + "x" * 300
        run_hook_inprocess("user-prompt-submit", payload("user-prompt-submit", "s", project_dir, prompt=text))
    with open_store() as store:
        text = observer.digest_text(store, "s", 3000)
    assert len(text) <= 3000
    data = json.loads(text)
    assert data["prompts"][-1]["prompt_text"].startswith("prompt number 24")
    assert "prompt number 0 " not in text and data["cut"]


def test_a_run_over_the_cap_never_starts_the_model(home, project_dir, monkeypatch):
    run_hook_inprocess("session-start", payload("session-start", "s", project_dir))
    monkeypatch.setenv("SKILLBOX_MEM_OBSERVER_DAILY_TOKENS", "100")
    monkeypatch.setenv("SKILLBOX_MEM_OBSERVER_COMMAND", json.dumps(["/nonexistent/claude"]))
    with open_store() as store:
        outcome = observer.run(store, load_settings(), str(home), "s")
    assert "daily token cap" in outcome["skipped"] and outcome["tokens"] == 0
    assert "session s: skipped, daily token cap" in (home / "logs" / "mem-hooks.log").read_text()
    shown = CliRunner().invoke(cli, ["mem", "observer", "status"]).stdout
    assert "last run:" in shown and "session s: skipped, daily token cap" in shown


def test_a_missing_client_is_logged_and_costs_nothing(home, project_dir, monkeypatch):
    run_hook_inprocess("session-start", payload("session-start", "s", project_dir))
    monkeypatch.setenv("SKILLBOX_MEM_OBSERVER_COMMAND", json.dumps(["/nonexistent/claude"]))
    with open_store() as store:
        outcome = observer.run(store, load_settings(), str(home), "s")
        assert observer.tokens_today(store) == 0
    assert "did not run" in outcome["error"] and outcome["observations"] == []
    assert "/nonexistent/claude did not run" in (home / "logs" / "mem-hooks.log").read_text()
