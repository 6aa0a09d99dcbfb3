"""The plugin files for memory: hooks.json entries, the memory skill and the slash command cite real things."""

from __future__ import annotations

import json
import re
import shlex

import click
import pytest

from skillbox.cli.mem import mem
from skillbox.mem.capture import HANDLERS, normalize_event
from tests.mem.conftest import REPO

HOOK_EVENTS = {
    "SessionStart": "session-start",
    "UserPromptSubmit": "user-prompt-submit",
    "PostToolUse": "post-tool-use",
    "PostToolUseFailure": "post-tool-use-failure",
    "Stop": "stop",
    "SessionEnd": "session-end",
}


def _mem_hooks(*, capture: bool = True):
    """The memory hooks: those that record an event (capture), or the one that only answers (file-context)."""
    config = json.loads((REPO / "hooks" / "hooks.json").read_text())
    for event, groups in config["hooks"].items():
        for group in groups:
            for hook in group["hooks"]:
                if hook.get("args", [])[:2] == ["mem", "hook"] and (hook["args"][2] != "file-context") == capture:
                    yield event, hook


def test_the_file_context_hook_answers_file_tools_after_use():
    from skillbox.mem.file_context import FILE_TOOLS

    found = list(_mem_hooks(capture=False))
    assert [event for event, _ in found] == ["PostToolUse"]
    config = json.loads((REPO / "hooks" / "hooks.json").read_text())
    group = next(g for g in config["hooks"]["PostToolUse"] if g["hooks"][0]["args"][2] == "file-context")
    assert set(group["matcher"].split("|")) == set(FILE_TOOLS)
    hook = found[0][1]
    assert hook["command"] == "${CLAUDE_PLUGIN_ROOT}/bin/skillbox" and not hook.get("async") and hook["timeout"] <= 5


def test_every_memory_event_has_one_exec_form_hook():
    found = {}
    for event, hook in _mem_hooks():
        assert hook["type"] == "command"
        assert hook["command"] == "${CLAUDE_PLUGIN_ROOT}/bin/skillbox"
        assert normalize_event(hook["args"][2]) == HOOK_EVENTS[event]
        assert hook["args"][2] in HANDLERS
        assert hook["timeout"] <= 30
        found[event] = hook
    assert set(found) == set(HOOK_EVENTS)
    # Context must come back, and a prompt must be stored before its turn's tool events (privacy skip, numbering).
    assert not found["SessionStart"].get("async")
    assert not found["UserPromptSubmit"].get("async")
    # Claude Code 2.1.332 drops async hooks still running when it exits (seen in `claude -p`: the last tool event
    # and the turn summary went missing), and an async PostToolUse can land after the Stop hook has summarized the
    # turn. The hooks never block (exit 0, no decision) and cost tens of milliseconds, so all memory hooks are
    # synchronous; only the venv warm-up stays async.
    assert not any(hook.get("async") for hook in found.values())


def _mentioned_commands(text: str) -> list[list[str]]:
    """Every `skillbox mem ...` invocation inside backticks or code blocks, split into words."""
    chunks = re.findall(r"`([^`\n]*skillbox mem [^`\n]*)`", text)
    for block in re.findall(r"```bash\n(.*?)```", text, re.S):
        chunks += [line for line in block.replace("\\\n", " ").splitlines() if "skillbox mem" in line]
    commands = []
    for chunk in chunks:
        words = shlex.split(chunk.replace("$ARGUMENTS", "QUERY").replace("...", ""))
        start = words.index("skillbox")
        commands.append(words[start + 2 :])
    return commands


@pytest.mark.parametrize("path", ["skills/memory/SKILL.md", "commands/mem-search.md"])
def test_cited_commands_and_flags_exist(path):
    text = (REPO / path).read_text()
    commands = _mentioned_commands(text)
    assert commands
    ctx = click.Context(mem)
    for words in commands:
        command = mem.get_command(ctx, words[0])
        assert command is not None, f"{path}: no command `skillbox mem {words[0]}`"
        known = {opt for param in command.params for opt in getattr(param, "opts", [])}
        for word in words[1:]:
            if word.startswith("--"):
                assert word.split("=")[0] in known, f"{path}: `skillbox mem {words[0]}` has no {word}"


def test_skill_frontmatter_keeps_to_the_agent_skills_keys():
    text = (REPO / "skills/memory/SKILL.md").read_text()
    front = text.split("---")[1]
    keys = {line.split(":")[0] for line in front.splitlines() if line and not line.startswith(" ")}
    assert keys <= {"name", "description", "license", "compatibility", "metadata", "allowed-tools"}
    description = re.search(r'^description: "(.*)"$', front, re.M).group(1)
    assert len(description) <= 1024
    assert len(text.splitlines()) < 500


def test_slash_command_uses_its_arguments():
    text = (REPO / "commands/mem-search.md").read_text()
    assert "$ARGUMENTS" in text
