"""The SessionStart block: budgeted, ranked, identical to `mem context`, and never recorded back."""

from __future__ import annotations

import json

from click.testing import CliRunner

from skillbox.cli.root import cli
from skillbox.mem.capture import record_observation
from skillbox.mem.context import build_context, tokens
from skillbox.mem.settings import load_settings
from skillbox.mem.store import open_store
from tests.mem.conftest import payload, replay_session, rows, run_hook_inprocess


def test_cli_context_prints_exactly_what_session_start_injects(home, project_dir, monkeypatch):
    replay_session(project_dir, session="one")
    hook_out = json.loads(run_hook_inprocess("session-start", payload("session-start", "two", project_dir)))
    monkeypatch.chdir(project_dir)
    printed = CliRunner().invoke(cli, ["mem", "context"]).stdout
    assert printed == hook_out["hookSpecificOutput"]["additionalContext"] + "\n"
    assert printed.startswith('<skillbox-memory project="demo">')
    by_name = CliRunner().invoke(cli, ["mem", "context", "--project", "demo", "--json"]).stdout
    assert json.loads(by_name) == hook_out


def test_budget_is_respected_and_important_types_survive(home, monkeypatch):
    monkeypatch.setenv("SKILLBOX_MEM_CONTEXT_MAX_TOKENS", "300")
    settings = load_settings()
    with open_store() as store:
        record_observation(
            store, type="decision", title="Chose SQLite over Postgres for the cache", project="p", settings=settings
        )
        for i in range(200):
            record_observation(store, type="discovery", title=f"Read module_{i}.py", project="p", settings=settings)
        text = build_context(store, "p", settings)
    assert tokens(text) <= 300
    assert "Chose SQLite over Postgres" in text  # older, but a decision outranks recent reads
    assert "Read module_199.py" in text  # and recency still counts


def test_other_projects_and_empty_projects(home):
    settings = load_settings()
    with open_store() as store:
        record_observation(store, type="note", title="Only in alpha", project="alpha", settings=settings)
        assert build_context(store, "beta", settings) == ""
        assert "Only in alpha" in build_context(store, "alpha", settings)


def test_injected_context_echoed_back_is_not_recorded(home, project_dir):
    replay_session(project_dir, session="one")
    context = json.loads(run_hook_inprocess("session-start", payload("session-start", "two", project_dir)))[
        "hookSpecificOutput"
    ]["additionalContext"]
    run_hook_inprocess(
        "user-prompt-submit", payload("user-prompt-submit", "two", project_dir, prompt=context + "\ncontinue")
    )
    assert rows(home, "SELECT prompt_text FROM prompts WHERE session_id = 'two'") == [("continue",)]
