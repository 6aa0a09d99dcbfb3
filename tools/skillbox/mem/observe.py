"""Observations derived from tool events by rules, not by a language model.

claude-mem feeds every tool call to an observer LLM; its users' top complaint is the token bill. Here each event
becomes zero or one typed observation by deterministic rules (file changes, reads, commands and their outcomes,
searches, fetches), a failing test command followed by a passing one becomes a `bugfix`, and every turn gets a
summary built from the prompt, the actions and the assistant's last message. The agent records richer
observations itself (`skillbox mem add --type decision`). Standard library only: runs inside the hook process.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3

try:  # the C module behind hashlib.blake2b; importing hashlib itself costs the hook ~4 ms
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - other Python builds
    from hashlib import blake2b

# Tools whose calls change a file; the bugfix rule and turn summaries look for these too.
EDIT_TOOLS = ("Edit", "MultiEdit", "Write", "NotebookEdit")

# Patterns are compiled on first use (`re` caches them): compiling all of them at import would cost every hook
# process several milliseconds, and most events need one or none.
_TEST_COMMAND = (
    r"(?:^|[\s;&|(/])(?:py\.?test|pytest|tox|nox|unittest|jest|vitest|mocha|rspec|phpunit|ctest|"
    r"go\s+test|cargo\s+(?:test|nextest)|(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?test|make\s+(?:test|check)|"
    r"mvn\s+test|gradle\w*\s+test|dotnet\s+test|mix\s+test)\b",
    0,
)
_DEFINITION = (
    r"^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:def|class|function|fn|func|interface|struct|enum|trait|type)"
    r"\s+([A-Za-z_][\w]*)",
    re.M,
)
_EXIT_CODE = (r"(?:exit(?:ed)?(?: with)?(?: non-zero)?(?: status)?(?: code)?|status code)\s*[:=]?\s*(\d+)", re.I)


class Observation:
    """One typed fact about past work; the unit search and context work with."""

    __slots__ = ("concepts", "facts", "files_modified", "files_read", "narrative", "subtitle", "title", "type")

    def __init__(
        self,
        type: str,
        title: str,
        subtitle: str = "",
        facts: list[str] | None = None,
        narrative: str = "",
        concepts: list[str] | None = None,
        files_read: list[str] | None = None,
        files_modified: list[str] | None = None,
    ):
        self.type = type
        self.title = title
        self.subtitle = subtitle
        self.facts = list(facts or [])
        self.narrative = narrative
        self.concepts = list(concepts or [])
        self.files_read = list(files_read or [])
        self.files_modified = list(files_modified or [])

    def __repr__(self) -> str:
        return f"Observation({self.type!r}, {self.title!r})"

    def content_hash(self, scope: str) -> str:
        """Identity for de-duplication: the same fact recorded twice in one scope (session) is stored once."""
        key = json.dumps([scope, self.type, self.title, self.facts, self.narrative], ensure_ascii=False)
        return blake2b(key.encode("utf-8"), digest_size=8).hexdigest()


def short(text: str, limit: int = 80) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def display_path(path: str, root: str | None) -> str:
    """Paths inside the project are shown relative to its root; others stay absolute."""
    if not path:
        return ""
    if root and os.path.isabs(path):
        try:
            rel = os.path.relpath(path, root)
        except ValueError:
            return path
        if not rel.startswith(".."):
            return rel.replace(os.sep, "/")
    return path


def _lines(text: str) -> int:
    return text.count("\n") + 1 if text else 0


def _definitions(text: str) -> list[str]:
    names = list(dict.fromkeys(re.compile(*_DEFINITION).findall(text or "")))
    return [f"defines {', '.join(names[:8])}"] if names else []


def _tail_lines(text: str, count: int = 2) -> list[str]:
    lines = [line.strip() for line in str(text or "").splitlines() if line.strip()]
    return [short(line, 160) for line in lines[-count:]]


def is_test_command(command: str) -> bool:
    return bool(re.compile(*_TEST_COMMAND).search(command or ""))


def exit_code(error: str | None) -> int | None:
    match = re.compile(*_EXIT_CODE).search(error or "")
    return int(match.group(1)) if match else None


def _as_dict(value) -> dict:
    return value if isinstance(value, dict) else {}


class ToolCall:
    """One tool event as the per-tool rules see it: decoded input and response, outcome, the project root."""

    __slots__ = ("error", "inp", "ok", "raw_response", "rel", "resp", "root")

    def __init__(self, tool_input, tool_response, ok: bool, error: str | None, root: str | None):
        self.inp = _as_dict(tool_input)
        self.resp = _as_dict(tool_response)
        self.raw_response = tool_response
        self.ok = ok
        self.error = error
        self.root = root
        path = str(self.inp.get("file_path") or self.inp.get("notebook_path") or self.inp.get("path") or "")
        self.rel = display_path(path, root)


def _file_change(rel: str, title: str, subtitle: str, facts: list[str] | None = None) -> Observation:
    return Observation("change", title, subtitle=subtitle, facts=facts, concepts=["what-changed"], files_modified=[rel])


def _on_write(call: ToolCall) -> Observation | None:
    if not call.rel:
        return None
    content = str(call.inp.get("content") or "")
    return _file_change(call.rel, f"Wrote {call.rel}", f"{_lines(content)} lines", _definitions(content))


def _on_multi_edit(call: ToolCall) -> Observation | None:
    if not call.rel:
        return None
    edits = [e for e in call.inp.get("edits") or [] if isinstance(e, dict)]
    new = "\n".join(str(e.get("new_string") or "") for e in edits)
    facts = _definitions(new) + [f"now: {short(str(e.get('new_string') or ''), 100)}" for e in edits[:3]]
    return _file_change(call.rel, f"Edited {call.rel}", f"{len(edits)} edits", facts)


def _on_notebook_edit(call: ToolCall) -> Observation | None:
    if not call.rel:
        return None
    return _file_change(call.rel, f"Edited notebook {call.rel}", str(call.inp.get("edit_mode") or "replace"))


def _on_edit(call: ToolCall) -> Observation | None:
    if not call.rel:
        return None
    old, new = str(call.inp.get("old_string") or ""), str(call.inp.get("new_string") or "")
    subtitle = f"-{_lines(old)} +{_lines(new)} lines" + (" (all occurrences)" if call.inp.get("replace_all") else "")
    facts = [*_definitions(new), f"was: {short(old, 100)}", f"now: {short(new, 100)}"]
    return _file_change(call.rel, f"Edited {call.rel}", subtitle, facts)


def _on_read(call: ToolCall) -> Observation | None:
    if not call.rel:
        return None
    return Observation("discovery", f"Read {call.rel}", concepts=["how-it-works"], files_read=[call.rel])


def _on_bash(call: ToolCall) -> Observation | None:
    inp, resp = call.inp, call.resp
    command = str(inp.get("command") or "").strip()
    if not command:
        return None
    test = is_test_command(command)
    interrupted = bool(resp.get("interrupted"))
    passed = call.ok and not interrupted
    code = exit_code(call.error)
    if passed:
        outcome = "passed" if test else "ok"
    else:
        outcome = "interrupted" if interrupted else f"failed (exit {code})" if code is not None else "failed"
    output = resp.get("stdout") or resp.get("stderr") or call.error or ""
    description = str(inp.get("description") or "")
    if test:
        return Observation(
            "command",
            f"Tests {outcome}: {short(command, 90)}",
            subtitle=short(description, 80),
            facts=_tail_lines(output),
            concepts=["testing"],
        )
    return Observation(
        "command",
        f"Ran: {short(command, 90)}",
        subtitle=outcome,
        facts=_tail_lines(output),
        narrative=short(description, 200),
    )


def _on_code_search(verb: str):
    def observe(call: ToolCall) -> Observation | None:
        pattern = str(call.inp.get("pattern") or "")
        if not pattern:
            return None
        where = display_path(str(call.inp.get("path") or ""), call.root) or str(call.inp.get("glob") or "")
        facts = []
        count = call.resp.get("numFiles", call.resp.get("numMatches"))
        if isinstance(count, int):
            facts.append(f"{count} files" if "numFiles" in call.resp else f"{count} matches")
        return Observation("search", f'{verb} "{short(pattern, 70)}"', subtitle=where, facts=facts)

    return observe


def _on_web_search(call: ToolCall) -> Observation | None:
    query = str(call.inp.get("query") or "")
    return Observation("search", f'Web search: "{short(query, 80)}"', concepts=["research"]) if query else None


def _on_web_fetch(call: ToolCall) -> Observation | None:
    url = str(call.inp.get("url") or "")
    if not url:
        return None
    raw = call.raw_response
    result = call.resp.get("result") if call.resp else raw if isinstance(raw, str) else ""
    return Observation(
        "fetch",
        f"Fetched {short(url, 100)}",
        subtitle=short(str(call.inp.get("prompt") or ""), 120),
        narrative=short(str(result or ""), 400),
        concepts=["research"],
    )


def _on_subagent(call: ToolCall) -> Observation | None:
    description = str(call.inp.get("description") or "")
    if not description:
        return None
    return Observation(
        "discovery",
        f"Subagent: {short(description, 80)}",
        subtitle=str(call.inp.get("subagent_type") or ""),
        narrative=short(str(call.inp.get("prompt") or ""), 300),
    )


# tool name -> the rule that turns one of its calls into an observation (or None). A tool not listed here says
# nothing worth remembering; a new tool is one row and one small function.
TOOL_RULES = {
    "Write": _on_write,
    "MultiEdit": _on_multi_edit,
    "NotebookEdit": _on_notebook_edit,
    "Edit": _on_edit,
    "Read": _on_read,
    "Bash": _on_bash,
    "Grep": _on_code_search("Searched code for"),
    "Glob": _on_code_search("Listed files matching"),
    "WebSearch": _on_web_search,
    "WebFetch": _on_web_fetch,
    "Task": _on_subagent,
    "Agent": _on_subagent,
}


def observe_event(
    tool_name: str, tool_input, tool_response, *, ok: bool, error: str | None, root: str | None
) -> Observation | None:
    """The observation one tool call stands for, or None when it says nothing worth remembering."""
    rule = TOOL_RULES.get(tool_name or "")
    if rule is None:
        return None
    return rule(ToolCall(tool_input, tool_response, ok, error, root))


def detect_bugfix(
    conn: sqlite3.Connection, session_id: str, event_id: int, command: str, root: str | None
) -> Observation | None:
    """A passing test run whose previous test run in the session failed: the edits in between fixed something."""
    rows = conn.execute(
        "SELECT id, ok, tool_input FROM events WHERE session_id = ? AND tool_name = 'Bash' AND id < ? "
        "ORDER BY id DESC LIMIT 200",
        (session_id, event_id),
    ).fetchall()
    failed_at = None
    for row in rows:
        try:
            previous = str(json.loads(row["tool_input"]).get("command") or "")
        except (ValueError, AttributeError):
            continue
        if not is_test_command(previous):
            continue
        if row["ok"]:
            return None  # the last test run already passed: nothing was fixed now
        failed_at = row["id"]
        break
    if failed_at is None:
        return None
    edits = conn.execute(
        "SELECT tool_input FROM events WHERE session_id = ? AND id > ? AND id < ? "
        f"AND tool_name IN ({','.join('?' * len(EDIT_TOOLS))}) ORDER BY id",
        (session_id, failed_at, event_id, *EDIT_TOOLS),
    ).fetchall()
    files: list[str] = []
    for row in edits:
        try:
            inp = json.loads(row["tool_input"])
        except ValueError:
            continue
        path = display_path(str(inp.get("file_path") or inp.get("notebook_path") or ""), root)
        if path and path not in files:
            files.append(path)
    return Observation(
        "bugfix",
        f"Fixed failing tests: {short(command, 80)}",
        subtitle=f"failed, then passed after editing {', '.join(files[:4])}" if files else "failed, then passed",
        facts=[f"changed {f}" for f in files[:8]],
        concepts=["problem-solution", "testing"],
        files_modified=files,
    )


_NEXT_STEP = (
    r"(?:^|(?<=[.!?]\s))\s*(?:[-*]\s*)?(?:next(?: steps?)?|todo|follow[- ]up|remaining)\s*[:\-]\s*(.+)$",
    re.I | re.M,
)


def summarize_turn(prompt: str | None, events: list[sqlite3.Row], last_message: str, root: str | None) -> dict | None:
    """One turn's summary: what was asked, looked at, done, learned, and left to do."""
    read: list[str] = []
    edited: list[str] = []
    searched: list[str] = []
    ran: list[str] = []
    for row in events:
        try:
            inp = json.loads(row["tool_input"])
        except ValueError:
            inp = {}
        inp = _as_dict(inp)
        name = row["tool_name"]
        path = display_path(str(inp.get("file_path") or inp.get("notebook_path") or ""), root)
        if name == "Read" and path and path not in read:
            read.append(path)
        elif name in EDIT_TOOLS and path and path not in edited:
            edited.append(path)
        elif name in ("Grep", "Glob", "WebSearch") and (inp.get("pattern") or inp.get("query")):
            searched.append(f'"{short(str(inp.get("pattern") or inp.get("query")), 40)}"')
        elif name == "WebFetch" and inp.get("url"):
            searched.append(short(str(inp["url"]), 60))
        elif name == "Bash" and inp.get("command"):
            status = "ok" if row["ok"] else "failed"
            ran.append(f"{short(str(inp['command']), 60)} ({status})")
    investigated = []
    if read:
        investigated.append("read " + ", ".join(read[:10]) + (f" (+{len(read) - 10} more)" if len(read) > 10 else ""))
    if searched:
        investigated.append("searched " + ", ".join(searched[:6]))
    completed = []
    if edited:
        completed.append("edited " + ", ".join(edited[:10]) + (f" (+{len(edited) - 10})" if len(edited) > 10 else ""))
    if ran:
        completed.append("ran " + "; ".join(ran[-5:]))
    message = (last_message or "").strip()
    next_steps = "; ".join(short(m, 160) for m in re.compile(*_NEXT_STEP).findall(message)[:3])
    if not (prompt or events or message):
        return None
    return {
        "investigated": "; ".join(investigated),
        "completed": "; ".join(completed),
        "learned": short(message, 700),
        "next_steps": next_steps,
        "files_read": read,
        "files_edited": edited,
    }
