"""The observation-type table is the one home: rules, context ranking and `mem add` all read it."""

from __future__ import annotations

import re

from click.testing import CliRunner

from skillbox.cli.root import cli
from skillbox.mem import observe, obstypes

# One Claude Code payload per tool the rules know (shapes from the hooks reference).
CALLS = {
    "Write": ({"file_path": "/p/src/a.py", "content": "def f():\n    pass\n"}, {"success": True}),
    "MultiEdit": ({"file_path": "/p/src/a.py", "edits": [{"old_string": "a", "new_string": "class B:"}]}, {}),
    "NotebookEdit": ({"notebook_path": "/p/n.ipynb", "edit_mode": "insert"}, {}),
    "Edit": ({"file_path": "/p/src/a.py", "old_string": "x = 1", "new_string": "x = 2"}, {}),
    "Read": ({"file_path": "/p/src/a.py"}, {}),
    "Bash": ({"command": "pytest -q", "description": "run tests"}, {"stdout": "3 passed"}),
    "Grep": ({"pattern": "TODO", "path": "/p/src"}, {"numFiles": 2}),
    "Glob": ({"pattern": "**/*.py"}, {"numFiles": 9}),
    "WebSearch": ({"query": "sqlite fts5 bm25"}, {}),
    "WebFetch": ({"url": "https://sqlite.org/fts5.html", "prompt": "ranking"}, {"result": "bm25 ..."}),
    "Task": ({"description": "find callers", "prompt": "look", "subagent_type": "Explore"}, {}),
    "Agent": ({"description": "find callers", "prompt": "look", "subagent_type": "Explore"}, {}),
}
TITLES = {
    "Write": "Wrote src/a.py",
    "MultiEdit": "Edited src/a.py",
    "NotebookEdit": "Edited notebook n.ipynb",
    "Edit": "Edited src/a.py",
    "Read": "Read src/a.py",
    "Bash": "Tests passed: pytest -q",
    "Grep": 'Searched code for "TODO"',
    "Glob": 'Listed files matching "**/*.py"',
    "WebSearch": 'Web search: "sqlite fts5 bm25"',
    "WebFetch": "Fetched https://sqlite.org/fts5.html",
    "Task": "Subagent: find callers",
    "Agent": "Subagent: find callers",
}


def test_every_tool_rule_writes_a_type_from_the_table():
    assert set(observe.TOOL_RULES) == set(CALLS)
    for tool, (inp, resp) in CALLS.items():
        obs = observe.observe_event(tool, inp, resp, ok=True, error=None, root="/p")
        assert obs is not None, tool
        assert obs.title == TITLES[tool]
        assert obs.type in obstypes.TYPES, (tool, obs.type)


def test_unknown_tools_and_empty_inputs_say_nothing():
    assert observe.observe_event("mcp__x__y", {"a": 1}, {}, ok=True, error=None, root="/p") is None
    for tool in CALLS:
        assert observe.observe_event(tool, {}, {}, ok=True, error=None, root="/p") is None, tool


def test_a_failing_command_records_its_exit_code():
    obs = observe.observe_event(
        "Bash", {"command": "make"}, {"stderr": "boom"}, ok=False, error="exited with code 2", root=None
    )
    assert (obs.title, obs.subtitle, obs.facts) == ("Ran: make", "failed (exit 2)", ["boom"])


def test_weights_rank_reasons_above_trail():
    assert obstypes.weight("decision") > obstypes.weight("bugfix") > obstypes.weight("change")
    assert obstypes.weight("change") > obstypes.weight("discovery") > obstypes.weight("search")
    assert obstypes.weight("some_import_type") == obstypes.DEFAULT_WEIGHT
    assert set(obstypes.LASTING) >= {"decision", "bugfix"} and "discovery" not in obstypes.LASTING


def test_stated_types_are_what_mem_add_documents():
    out = CliRunner().invoke(cli, ["mem", "add", "--help"]).output
    for name in obstypes.STATED:
        assert name in out
    assert obstypes.normalize("  ") == "note" and obstypes.normalize(" decision ") == "decision"


def test_mem_add_rejects_a_type_not_in_the_table(home):
    result = CliRunner().invoke(cli, ["mem", "add", "--type", "decison", "--title", "typo"])
    assert result.exit_code == 2 and "decison" in result.output
    ok = CliRunner().invoke(cli, ["mem", "add", "--type", "Gotcha", "--title", "WAL needs the -shm file"])
    assert ok.exit_code == 0, ok.output


def test_the_observer_is_asked_for_exactly_the_types_it_may_write():
    """The observer's prompt names its types from the table; a type added to OBSERVED is asked for, not dropped."""
    from skillbox.mem.observer import PROMPT

    (asked,) = re.findall(r'"type": "([^"]+)"', PROMPT)
    assert tuple(asked.split("|")) == obstypes.OBSERVED
