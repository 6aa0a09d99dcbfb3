"""Numbers too large for SQLite or the clock, typed by a user: a one-line error and an exit code, no traceback."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from skillbox.cli.root import cli
from skillbox.errors import ConfigError
from skillbox.mem.settings import load_settings

HUGE = "99999999999999999999"


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["get", HUGE], 1),
        (["get", f"S{HUGE}"], 1),
        (["get", f"#{HUGE}", "--json"], 1),
        (["timeline", HUGE], 1),
        (["timeline", f"P{HUGE}"], 1),
        (["search", "x", "--since", f"{HUGE}d"], 2),
        (["search", "x", "--until", f"{HUGE}w"], 2),
    ],
)
def test_huge_ids_and_ages_end_in_one_line(home, args, code):
    result = CliRunner().invoke(cli, ["mem", *args])
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1
    assert HUGE in result.stderr


def test_get_still_finds_the_ids_that_exist_next_to_a_huge_one(home):
    added = CliRunner().invoke(cli, ["mem", "add", "--type", "decision", "--title", "keep sqlite"])
    assert added.exit_code == 0, added.output
    result = CliRunner().invoke(cli, ["mem", "get", "1", HUGE])
    assert result.exit_code == 1
    assert "keep sqlite" in result.stdout
    assert f"#{HUGE}" in result.stderr


def test_a_huge_number_in_a_setting_is_a_config_error(home, monkeypatch):
    monkeypatch.setenv("SKILLBOX_MEM_RETENTION_DAYS", HUGE)
    with pytest.raises(ConfigError, match="retention_days"):
        load_settings(home)
    monkeypatch.setenv("SKILLBOX_MEM_RETENTION_DAYS", "--5")
    with pytest.raises(ConfigError, match="retention_days"):
        load_settings(home)
    monkeypatch.setenv("SKILLBOX_MEM_RETENTION_DAYS", " 30 ")
    assert load_settings(home).retention_days == 30


@pytest.mark.parametrize(
    ("tool", "kwargs"),
    [
        ("tool_search", {"query": "x", "limit": 10**20}),
        ("tool_timeline", {"anchor": "2026-01-01", "before": 10**20}),
        ("tool_timeline", {"anchor": "2026-01-01", "after": 10**20}),
    ],
)
def test_mcp_tools_refuse_huge_counts_as_usage_errors(home, tool, kwargs):
    """The MCP tools take numbers straight from an agent: a huge one is our usage error (a one-line tool error),
    not an OverflowError from SQLite."""
    from skillbox.errors import UsageError
    from skillbox.mem import server

    with pytest.raises(UsageError, match="at most 1,000,000"):
        getattr(server, tool)(**kwargs)
