"""The opt-in observer: once per session end, the user's own Claude Code writes the *why* observations.

Hooks record what happened; why it happened — the root cause, the decision and its reason, the trap — is in the
conversation, and only a language model can pull it out. claude-mem does that on every tool call and its users'
first complaint is the token bill, so here it is: off by default (`skillbox mem observer on`), run once per
session, after SessionEnd, in a detached process (the hook never waits); the input is the session digest that is
already in memory (privacy-scrubbed at capture, scrubbed again here, cut to `observer_digest_chars`); the model
is small (`observer_model`) and runs as headless `claude -p` with no tools, no MCP servers, no saved session and
our hooks disabled (SKILLBOX_MEM_DISABLE=1), so it can neither act nor observe itself. Each run is logged with its
token count and added to a per-day ledger; a run that could take the day past `observer_daily_tokens` does not
start. Its observations (decision, bugfix, discovery, gotcha — each with its why and its files) go through the
same privacy boundary as every record, with origin `observer`.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time

from skillbox.mem import obstypes
from skillbox.mem.capture import record_observation
from skillbox.mem.logs import log_line
from skillbox.mem.privacy import Scrubber
from skillbox.mem.settings import MemSettings, set_setting
from skillbox.mem.store import Store
from skillbox.mem.summarizer import session_digest

OUTPUT_ALLOWANCE = 1500  # tokens a run may add beyond its prompt (the answer, the client's own overhead)
PROMPT = """You read the digest of one coding session (JSON below: the user's prompts, what was read, edited and run,
and each turn's closing message). Write down only what a developer returning to this project next month would
need and could not see in the code: decisions and their reasons, root causes of bugs and their fixes, discoveries
about how the code works, and gotchas (traps). Skip routine edits, reads and passing commands.

Answer with JSON only, no prose, in this shape:
{"observations": [{"type": "{types}", "title": "one line", "why": "the reason, cause or
consequence, one to three sentences", "files": ["path", ...]}]}
Use at most 6 observations; an empty list is a good answer for a routine session.

Session digest:
""".replace("{types}", "|".join(obstypes.OBSERVED))  # the types the observer may write: one list, in obstypes
SYSTEM_PROMPT = "You turn coding-session digests into a few typed notes. Answer with JSON only."
_JSON_BLOCK = re.compile(r"\{.*\}", re.S)


def ledger_key(day: str | None = None) -> str:
    return "observer_tokens:" + (day or time.strftime("%Y-%m-%d", time.gmtime()))


def tokens_today(store: Store) -> int:
    try:
        return int(store.meta_get(ledger_key()) or 0)
    except ValueError:
        return 0


def _add_tokens(store: Store, count: int) -> int:
    def write() -> int:
        total = tokens_today(store) + count
        store.meta_set(ledger_key(), str(total))
        return total

    return store.write(write)


def digest_text(store: Store, session_id: str, limit: int) -> str:
    """The session digest as compact JSON of at most `limit` characters: oldest entries go first when cutting."""
    digest = Scrubber(redact=True).value(session_digest(store, session_id))
    for key in ("observations", "prompts", "summaries"):
        digest[key] = list(digest.get(key) or [])
    text = json.dumps(digest, ensure_ascii=False, separators=(",", ":"))
    while len(text) > limit and any(digest[k] for k in ("observations", "prompts", "summaries")):
        longest = max(("observations", "prompts", "summaries"), key=lambda k: len(json.dumps(digest[k])))
        digest[longest].pop(0)
        digest["cut"] = "older entries left out to fit observer_digest_chars"
        text = json.dumps(digest, ensure_ascii=False, separators=(",", ":"))
    return text[:limit]


def last_run(home: str) -> str | None:
    """The log line of the latest observer run (the log rotates; older runs may be gone)."""
    from skillbox.mem.logs import log_path

    try:
        with open(log_path(home), encoding="utf-8") as handle:
            lines = [line.rstrip("\n") for line in handle if " observer: " in line]
    except OSError:
        return None
    return lines[-1] if lines else None


def status(store: Store | None, settings: MemSettings, home: str | None = None) -> dict:
    used = tokens_today(store) if store is not None else 0
    return {
        "last_run": last_run(home) if home else None,
        "enabled": bool(settings.observer),
        "model": settings.observer_model,
        "command": settings.observer_command,
        "daily_token_cap": settings.observer_daily_tokens,
        "tokens_today": used,
        "tokens_left_today": max(settings.observer_daily_tokens - used, 0),
        "digest_char_cap": settings.observer_digest_chars,
    }


def switch(home: str, on: bool) -> None:
    set_setting(home, "observer", on)


def _parse(result_text: str) -> list[dict]:
    match = _JSON_BLOCK.search(result_text or "")
    if not match:
        return []
    try:
        data = json.loads(match.group(0))
    except ValueError:
        return []
    items = data.get("observations") if isinstance(data, dict) else None
    return [item for item in items or [] if isinstance(item, dict)]


def run(store: Store, settings: MemSettings, home: str, session_id: str) -> dict:
    """Observe one ended session; returns what happened (also written to the log as one line)."""
    started = time.monotonic()
    used = tokens_today(store)
    cap = settings.observer_daily_tokens
    prompt = PROMPT + digest_text(store, session_id, settings.observer_digest_chars)
    estimate = (len(prompt) + 3) // 4 + OUTPUT_ALLOWANCE
    outcome: dict = {"session_id": session_id, "tokens": 0, "observations": [], "tokens_today": used, "cap": cap}
    if used + estimate > cap:
        outcome["skipped"] = f"daily token cap: {used:,} used + ~{estimate:,} needed > {cap:,}"
        log_line(home, "observer", f"session {session_id}: skipped, {outcome['skipped']}")
        return outcome
    command = [
        *settings.observer_command,
        "-p",
        "--model",
        settings.observer_model,
        "--output-format",
        "json",
        "--tools",
        "",
        "--strict-mcp-config",
        "--no-session-persistence",
        "--system-prompt",
        SYSTEM_PROMPT,  # instead of the coding agent's long one: a run costs its digest, not a tool manual
    ]
    env = dict(os.environ, SKILLBOX_MEM_DISABLE="1")
    try:
        proc = subprocess.run(
            command,
            input=prompt,
            capture_output=True,
            text=True,
            timeout=settings.observer_timeout,
            env=env,
        )
    except (OSError, subprocess.TimeoutExpired) as err:
        outcome["error"] = f"{command[0]} did not run: {type(err).__name__}: {err}"
        log_line(home, "observer", f"session {session_id}: {outcome['error']}")
        return outcome
    try:
        answer = json.loads(proc.stdout or "{}")
    except ValueError:
        answer = {}
    usage = answer.get("usage") if isinstance(answer, dict) else None
    counted = 0
    if isinstance(usage, dict):
        counted = sum(
            int(usage.get(k) or 0)
            for k in ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
        )
    # The client's count, but never less than the prompt itself: the ledger must not under-count a run.
    tokens = max(counted, (len(prompt) + 3) // 4)
    outcome["tokens"] = tokens
    outcome["tokens_today"] = _add_tokens(store, tokens)
    if proc.returncode != 0 or not isinstance(answer, dict) or answer.get("is_error"):
        outcome["error"] = f"exit {proc.returncode}: {(proc.stderr or proc.stdout or '').strip()[:200]}"
    project = store.conn.execute("SELECT project FROM sessions WHERE session_id = ?", (session_id,)).fetchone()[0]
    for item in _parse(str(answer.get("result") or "")) if "error" not in outcome else []:
        kind = str(item.get("type") or "").strip().lower()
        title = str(item.get("title") or "").strip()
        if kind not in obstypes.OBSERVED or not title:
            continue
        files = item.get("files") if isinstance(item.get("files"), list) else []
        ident = record_observation(
            store,
            type=kind,
            title=title[:300],
            narrative=str(item.get("why") or "")[:2000],
            files=[str(f) for f in files[:20]],
            concepts=["observer"],
            project=project,
            settings=settings,
            origin="observer",
            session_id=session_id,
        )
        outcome["observations"].append(ident)
    seconds = time.monotonic() - started
    log_line(
        home,
        "observer",
        f"session {session_id}: {len(outcome['observations'])} observations, {tokens:,} tokens "
        f"({outcome['tokens_today']:,}/{cap:,} today), {seconds:.1f} s"
        + (f"; {outcome['error']}" if "error" in outcome else ""),
    )
    return outcome
