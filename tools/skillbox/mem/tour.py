"""Tour step for memory: replay two recorded Claude Code sessions through the real hook code, then search.

The sample (`samples/mem/session.jsonl`) holds the exact stdin payloads Claude Code sends, one hook event per line,
with `{project}` standing for the project folder. They go through the same `capture.handle` a hook process runs,
into a throwaway database under the tour's workdir — the user's own memory is never touched.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from skillbox.mem import capture
from skillbox.mem.capture import record_observation
from skillbox.mem.context import build_context
from skillbox.mem.search import format_search, format_timeline, search, timeline
from skillbox.mem.settings import MemSettings
from skillbox.mem.store import Store
from skillbox.tour import TourReport


def _substitute(value, project: str):
    if isinstance(value, str):
        return value.replace("{project}", project)
    if isinstance(value, dict):
        return {k: _substitute(v, project) for k, v in value.items()}
    if isinstance(value, list):
        return [_substitute(v, project) for v in value]
    return value


def sample_events() -> list[dict]:
    text = resources.files("skillbox").joinpath("samples/mem/session.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def run(workdir: Path) -> TourReport:
    project_dir = workdir / "shop"
    (project_dir / ".git").mkdir(parents=True, exist_ok=True)  # a repository root: the project is "shop"
    db = workdir / "memory.db"
    settings = MemSettings(auto_prune=False)
    report = TourReport(title="two recorded Claude Code sessions replayed through the memory hooks, then searched")
    with Store(db) as store:
        events = sample_events()
        for line in events:
            capture.handle(line["event"], _substitute(line["payload"], str(project_dir)), store, settings)
        record_observation(
            store,
            type="decision",
            title="Rate limits live in memory, not Redis, until we run more than one web process",
            narrative="One process today; a Redis dependency is not worth it yet. Revisit when scaling out.",
            files=["shop/api/ratelimit.py"],
            project="shop",
            settings=settings,
        )
        counts = {
            t: store.conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
            for t in ("sessions", "prompts", "events", "observations", "summaries")
        }
        private_kept = store.conn.execute("SELECT count(*) FROM prompts WHERE prompt_text LIKE '%jane@%'").fetchone()[0]
        found = search(store, "reset token")
        bugfix = next((h for h in search(store, "fixed failing tests").hits if h.type == "bugfix"), None)
        context = build_context(store, "shop", settings)
        report.lines.append(
            f"replayed {len(events)} hook payloads: " + ", ".join(f"{n} {t}" for t, n in counts.items())
        )
        report.lines.append(f"<private> text stored: {'yes (bug!)' if private_kept else 'no'}")
        report.lines.append('$ skillbox mem search "reset token"')
        report.lines += ["  " + line for line in format_search(found).splitlines()]
        if bugfix is not None:
            report.lines.append(f"$ skillbox mem timeline {bugfix.ref} --before 3 --after 1")
            tl = timeline(store, bugfix.ref, before=3, after=1)
            report.lines += ["  " + line for line in format_timeline(tl).splitlines()]
        report.lines.append(
            f"$ skillbox mem context   (what the next session starts with, ~{(len(context) + 3) // 4} tokens)"
        )
        report.lines += ["  " + line for line in context.splitlines()]
        report.ok = bool(found.hits) and bugfix is not None and not private_kept and bool(context)
    report.outputs.append(db)
    return report
