"""The memory block injected at SessionStart (and printed by `skillbox mem context`): one function, one text.

What helps a new session most is why things are the way they are, so the token budget is spent in this order:
decisions and their reasons, root causes and fixes (gotchas too), open next steps, the recent turns (what was
asked, done and learned), then the recent trail of edits, reads and commands. Each item goes in whole when it fits
— a decision's reason or a turn's `learned` text is not cut at 120 characters when the budget has room — and in a
trimmed form when only that fits. The reason and fix sections may take at most REASONS_SHARE of the budget, so a
project with hundreds of decisions still shows its latest turns. Within a section, entries are newest last.
`plan_context` returns the text plus the record of what went in, whole or trimmed, and what was left out and
why; `skillbox mem context --json` prints that record. Ids can be expanded with `skillbox mem get`. The block is
wrapped in `<skillbox-memory>`, a tag the privacy scrubber removes, so memory never records its own context.
Standard library only: runs inside the SessionStart hook.
"""

from __future__ import annotations

from skillbox.mem import obstypes
from skillbox.mem.i18n import detect_language, message
from skillbox.mem.settings import MemSettings
from skillbox.mem.store import Store

CONTEXT_TAG = "skillbox-memory"
REASONS_SHARE = 0.6  # decisions + fixes + next steps together, at most this part of the budget
WHY_CHARS = 600  # a reason kept whole up to this long
TRIMMED_CHARS = 140  # ... and cut to this when the whole one does not fit
LEARNED_CHARS = 700  # a turn's learned text (stored at most 700 characters)
TRAIL_SECTION = "trail"


def tokens(text: str) -> int:
    """The estimate used everywhere (claude-mem's too): a token is about four characters."""
    return (len(text) + 3) // 4


def _one_line(text: str | None, limit: int) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _when(row, start: int = 5) -> str:
    return row["created_at"][start:16].replace("T", " ")


def _why_of(row) -> str:
    parts = [p for p in (row["subtitle"], row["narrative"]) if p and p.strip()]
    return " — ".join(" ".join(p.split()) for p in parts)


def _reason_line(row, limit: int) -> str:
    line = f"#{row['id']} {_when(row)} {row['type']} {_one_line(row['title'], 160)}"
    why = _why_of(row)
    return f"{line} — {_one_line(why, limit)}" if why else line


def _trail_line(row) -> str:
    line = f"#{row['id']} {_when(row)} {row['type']} {_one_line(row['title'], 100)}"
    if row["subtitle"] and row["type"] in obstypes.WITH_WHY:
        line += f" — {_one_line(row['subtitle'], 80)}"
    return line


def _summary_line(row, learned_limit: int) -> str:
    request = _one_line(row["request"] or row["prompt_text"] or "", 90)
    parts = [p for p in (row["completed"], row["investigated"]) if p]
    did = _one_line("; ".join(parts), 140)
    line = f"S{row['id']} {_when(row, 0)}"
    if request:
        line += f' "{request}"'
    if did:
        line += f" → {did}"
    if row["learned"]:
        line += f" | {_one_line(row['learned'], learned_limit)}"
    return line


class ContextPlan:
    """The injected text and the account of how it was chosen (what `mem context --json` prints)."""

    __slots__ = ("budget", "language", "left_out", "project", "sections", "text", "used")

    def __init__(self, project: str, budget: int, language: str):
        self.project = project
        self.budget = budget
        self.language = language
        self.sections: list[dict] = []
        self.left_out: list[dict] = []
        self.text = ""
        self.used = 0

    def to_dict(self) -> dict:
        return {
            "project": self.project,
            "budget_tokens": self.budget,
            "used_tokens": self.used,
            "language": self.language,
            "order": "reasons, fixes, next steps, recent turns, recent trail; newest last within each",
            "sections": self.sections,
            "left_out": self.left_out,
        }


def _candidates(store: Store, project: str, settings: MemSettings):
    conn = store.conn
    columns = "id, type, title, subtitle, narrative, origin, created_at"
    summaries = conn.execute(
        "SELECT s.id, s.created_at, s.request, s.investigated, s.completed, s.learned, s.next_steps, p.prompt_text "
        "FROM summaries s LEFT JOIN prompts p ON p.session_id = s.session_id AND p.prompt_number = s.prompt_number "
        "WHERE s.project = ? ORDER BY s.created_at DESC, s.id DESC LIMIT ?",
        (project, settings.context_summaries),
    ).fetchall()
    recent = conn.execute(
        f"SELECT {columns} FROM observations WHERE project = ? ORDER BY created_at DESC, id DESC LIMIT ?",
        (project, settings.context_observations * 4),
    ).fetchall()
    # Decisions and fixes stay eligible however many reads and commands came after them.
    lasting = conn.execute(
        f"SELECT {columns} FROM observations WHERE project = ? "
        f"AND type IN ({','.join('?' * len(obstypes.LASTING))}) ORDER BY created_at DESC, id DESC LIMIT ?",
        (project, *obstypes.LASTING, settings.context_observations),
    ).fetchall()
    seen = {row["id"] for row in recent}
    observations = list(recent) + [row for row in lasting if row["id"] not in seen]
    return summaries, observations


def plan_context(store: Store, project: str, settings: MemSettings) -> ContextPlan:
    """Choose what SessionStart injects for `project` within `context_max_tokens`, and say how it chose."""
    budget = max(settings.context_max_tokens, 0)
    language = detect_language(store, project, settings)
    plan = ContextPlan(project, budget, language)
    summaries, observations = _candidates(store, project, settings)
    if not summaries and not observations:
        return plan

    def say(key: str, **values) -> str:
        return message(language, key, **values)

    header = [
        f'<{CONTEXT_TAG} project="{project}">',
        say("context.title", project=project),
        say("context.intro1"),
        say("context.intro2"),
    ]
    footer = [f"</{CONTEXT_TAG}>"]
    used = tokens("\n".join(header + footer)) + 8

    # Collapse repeats of one title (the same file read ten times), keeping the newest.
    newest_first = sorted(observations, key=lambda r: (r["created_at"], r["id"]), reverse=True)
    unique, titles = [], set()
    for row in newest_first:
        if row["title"] not in titles:
            titles.add(row["title"])
            unique.append(row)
    reasons = [r for r in unique if obstypes.section(r["type"]) == "reasons"]
    fixes = [r for r in unique if obstypes.section(r["type"]) == "fixes"]
    trail = [r for r in unique if obstypes.section(r["type"]) == TRAIL_SECTION]

    chosen: dict[str, list[tuple[tuple, str, dict]]] = {}
    cap = int(budget * REASONS_SHARE)

    def take(section: str, key: tuple, whole: str, trimmed: str | None, ref: str, limit: int) -> bool:
        nonlocal used
        for form, line in (("whole", whole), ("trimmed", trimmed)):
            if line is None or (form == "trimmed" and line == whole):
                continue
            cost = tokens(line) + 1
            if used + cost <= limit:
                used += cost
                chosen.setdefault(section, []).append((key, line, {"ref": ref, "tokens": cost, "form": form}))
                return True
        plan.left_out.append({"ref": ref, "section": section, "reason": "over budget"})
        return False

    for section, rows in (("reasons", reasons), ("fixes", fixes)):
        for row in rows[: settings.context_observations]:
            take(
                section,
                (row["created_at"], row["id"]),
                _reason_line(row, WHY_CHARS),
                _reason_line(row, TRIMMED_CHARS),
                f"#{row['id']}",
                cap,
            )
    steps_seen: set[str] = set()
    for row in summaries:
        step = " ".join((row["next_steps"] or "").split())
        if step and step not in steps_seen:
            steps_seen.add(step)
            line = f"S{row['id']} {_when(row)} {_one_line(step, 300)}"
            take("next", (row["created_at"], row["id"]), line, None, f"S{row['id']}", cap)
    # Recent turns may use the budget up to what the trail's newest few entries need.
    trail_floor = sum(tokens(_trail_line(r)) + 1 for r in trail[:3])
    for row in summaries:
        take(
            "turns",
            (row["created_at"], row["id"]),
            _summary_line(row, LEARNED_CHARS),
            _summary_line(row, TRIMMED_CHARS),
            f"S{row['id']}",
            max(budget - trail_floor, 0),
        )
    # The trail: ranked by type weight and recency; recency decays gently, so last week's fix beats today's reads.
    scored = sorted(
        ((obstypes.weight(r["type"]) / (1.0 + i / 60.0), r) for i, r in enumerate(trail)),
        key=lambda item: item[0],
        reverse=True,
    )
    for _score, row in scored[: settings.context_observations]:
        take(TRAIL_SECTION, (row["created_at"], row["id"]), _trail_line(row), None, f"#{row['id']}", budget)

    body: list[str] = []
    for section in ("reasons", "fixes", "next", "turns", TRAIL_SECTION):
        entries = sorted(chosen.get(section, []), key=lambda item: item[0])
        if not entries:
            continue
        body += ["", say(f"context.{section}"), *[line for _, line, _ in entries]]
        plan.sections.append({"section": section, "items": [info for _, _, info in entries]})
    if body:
        plan.text = "\n".join(header + body + footer)
        plan.used = tokens(plan.text)
    return plan


def build_context(store: Store, project: str, settings: MemSettings) -> str:
    """The exact text SessionStart injects for `project`; empty when the project has no memory yet."""
    return plan_context(store, project, settings).text
