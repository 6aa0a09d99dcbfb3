"""Events are repaired, not dropped; huge outputs are cheap; the agent's own memory calls are not memories."""

from __future__ import annotations

import json
import statistics
import time

import pytest

from skillbox.mem.capture import is_own_memory_call
from skillbox.mem.privacy import PRIVATE_TAGS, _names_tags
from tests.mem.conftest import count, payload, rows, run_hook_inprocess, run_hook_process, tool


def test_invalid_utf8_is_repaired_not_dropped(home, project_dir):
    data = json.dumps(payload("user-prompt-submit", cwd=project_dir, prompt="caf\u00e9 MARK")).encode()
    data = data.replace(b"MARK", b"\xff\xfe broken \xc3")  # invalid bytes inside a JSON string
    assert run_hook_process("user-prompt-submit", data).returncode == 0
    (text,) = rows(home, "SELECT prompt_text FROM prompts")[0]
    assert text.startswith("café \ufffd\ufffd broken \ufffd")


def test_lone_surrogates_are_repaired_not_dropped(home, project_dir):
    raw = (
        '{"session_id": "s", "cwd": "CWD", "hook_event_name": "PostToolUse", "tool_name": "Read", '
        '"tool_use_id": "t1", "tool_input": {"file_path": "/x/\\ud800.py"}, '
        '"tool_response": {"content": "ok \\udfff end", "emoji": "\\ud83d\\ude00"}}'
    ).replace("CWD", str(project_dir))
    assert run_hook_process("post-tool-use", raw.encode()).returncode == 0
    (tool_input, response) = rows(home, "SELECT tool_input, tool_response FROM events")[0]
    assert json.loads(tool_input)["file_path"] == "/x/\ufffd.py"
    assert json.loads(response) == {"content": "ok \ufffd end", "emoji": "\U0001f600"}  # a real pair stays intact


def test_fifty_megabyte_output_is_stored_trimmed_within_a_second(home, project_dir):
    line = "line of build output with <b>markup</b> and a path /src/app/module.py:42 "
    big = (line * (50_000_000 // len(line) + 1))[:50_000_000]
    event, data = tool("Bash", {"command": "make"}, {"stdout": big, "stderr": ""}, use_id="big", cwd=project_dir)
    times, floors = [], []
    for attempt in range(3):
        data["tool_use_id"] = f"big-{attempt}"
        raw = json.dumps(data).encode()
        started = time.perf_counter()
        json.loads(raw)  # the floor: parsing the payload at all, timed beside the hook on the same (busy) machine
        floors.append(time.perf_counter() - started)
        started = time.perf_counter()
        run_hook_inprocess(event, raw)
        times.append(time.perf_counter() - started)
    assert count(home, "events") == 3
    assert rows(home, "SELECT max(length(tool_response)) FROM events")[0][0] < 20_000
    # <= 1 s on an idle machine (bench/README.md); under load, within 4x of a bare json.loads measured alongside.
    hook, floor = statistics.median(times), statistics.median(floors)
    assert hook <= max(1.0, 4 * floor), (times, floors)


def test_private_region_inside_a_huge_output_is_still_removed(home, project_dir):
    filler = "x" * 3_000_000
    text = f"{filler}<private>hunter2-secret-tail</private>{filler}end"
    event, data = tool("Bash", {"command": "cat log"}, {"stdout": text}, use_id="p", cwd=project_dir)
    run_hook_inprocess(event, data)
    (response,) = rows(home, "SELECT tool_response FROM events")[0]
    assert "hunter2" not in response and response.endswith('end"}')


def test_secret_cut_by_the_elision_boundary_is_still_redacted(home, project_dir, monkeypatch):
    monkeypatch.setenv("SKILLBOX_MEM_EVENT_MAX_CHARS", "1000")
    key = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    text = "a" * 589 + " " + key + "\n" + "b" * 5000  # the key straddles the 600-character head
    event, data = tool("Bash", {"command": "env"}, {"stdout": text}, use_id="k", cwd=project_dir)
    run_hook_inprocess(event, data)
    (response,) = rows(home, "SELECT tool_response FROM events")[0]
    assert "ghp_A1b2C3" not in response and key[:12] not in response


def test_the_long_text_fast_path_sees_every_private_tag():
    for tag in PRIVATE_TAGS:
        for opener in (f"<{tag}>", f"< /{tag.upper()} >", f"<{tag} a='1'>"):
            assert _names_tags("x" * 70_000 + opener), opener
    assert not _names_tags("<b>markup</b> " * 10_000)


@pytest.mark.parametrize(
    "command, own",
    [
        ("skillbox mem search auth token", True),
        ("/home/u/.claude/plugins/cache/skillbox/skillbox/0.1.0/bin/skillbox mem get 12 --json", True),
        ("skillbox mem timeline S3", True),
        ("  skillbox mem add --type note --title 'done'", True),
        ("skillbox mem search auth && rm -rf build", False),
        ("cd src; skillbox mem search x", False),
        ("skillbox graph build .", False),
        ("grep skillbox mem.log", False),
    ],
)
def test_own_memory_commands_are_recognised(command, own):
    assert is_own_memory_call("Bash", {"command": command}) is own


def test_own_memory_calls_are_not_recorded_and_do_not_rank_first_later(home, project_dir):
    run_hook_inprocess("user-prompt-submit", payload("user-prompt-submit", cwd=project_dir, prompt="look at auth"))
    for i, command in enumerate(["skillbox mem search auth", "skillbox mem get 1"]):
        event, data = tool("Bash", {"command": command}, {"stdout": "auth things"}, use_id=f"own{i}", cwd=project_dir)
        run_hook_inprocess(event, data)
    event, data = tool("mcp__plugin_skillbox_mem__search", {"query": "auth"}, "x", use_id="mcp", cwd=project_dir)
    run_hook_inprocess(event, data)
    event, data = tool(
        "Read", {"file_path": str(project_dir / "auth.py")}, {"type": "text"}, use_id="r", cwd=project_dir
    )
    run_hook_inprocess(event, data)
    assert [r[0] for r in rows(home, "SELECT tool_name FROM events")] == ["Read"]
    assert not any("skillbox mem" in r[0] for r in rows(home, "SELECT title FROM observations"))
