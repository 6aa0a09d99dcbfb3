"""The memory block injected at SessionStart (and printed by `skillbox mem context`): one function, one text.

A compact, token-budgeted view of the project's recent turns and its most useful observations, newest last,
with ids the agent can expand through `skillbox mem get`. Ranking needs no query: decisions and bug fixes
outrank edits, edits outrank reads and commands, and recent beats old. The block is wrapped in
`<skillbox-memory>`, a tag the privacy scrubber removes, so memory never records its own injected context.
Standard library only: runs inside the SessionStart hook.
"""

from __future__ import annotations

from skillbox.mem import obstypes
from skillbox.mem.settings import MemSettings
from skillbox.mem.store import Store

CONTEXT_TAG = "skillbox-memory"


def tokens(text: str) -> int:
    """The estimate used everywhere (claude-mem's too): a token is about four characters."""
    return (len(text) + 3) // 4


def _one_line(text: str | None, limit: int) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _summary_line(row) -> str:
    request = _one_line(row["request"] or row["prompt_text"] or "", 90)
    parts = [p for p in (row["completed"], row["investigated"]) if p]
    did = _one_line("; ".join(parts), 140)
    line = f"S{row['id']} {row['created_at'][:16].replace('T', ' ')}"
    if request:
        line += f' "{request}"'
    if did:
        line += f" → {did}"
    if row["learned"]:
        line += f" | {_one_line(row['learned'], 120)}"
    return line


def _observation_line(row) -> str:
    line = f"#{row['id']} {row['created_at'][5:16].replace('T', ' ')} {row['type']} {_one_line(row['title'], 100)}"
    if row["subtitle"] and row["type"] in obstypes.WITH_WHY:
        line += f" — {_one_line(row['subtitle'], 80)}"
    return line


def build_context(store: Store, project: str, settings: MemSettings) -> str:
    """The exact text SessionStart injects for `project`; empty when the project has no memory yet."""
    budget = max(settings.context_max_tokens, 0)
    summaries = store.conn.execute(
        "SELECT s.id, s.created_at, s.request, s.investigated, s.completed, s.learned, p.prompt_text "
        "FROM summaries s LEFT JOIN prompts p ON p.session_id = s.session_id AND p.prompt_number = s.prompt_number "
        "WHERE s.project = ? ORDER BY s.created_at DESC, s.id DESC LIMIT ?",
        (project, settings.context_summaries),
    ).fetchall()
    recent = store.conn.execute(
        "SELECT id, type, title, subtitle, created_at FROM observations WHERE project = ? "
        "ORDER BY created_at DESC, id DESC LIMIT ?",
        (project, settings.context_observations * 4),
    ).fetchall()
    # Decisions and fixes stay eligible however many reads and commands came after them.
    lasting = store.conn.execute(
        f"SELECT id, type, title, subtitle, created_at FROM observations WHERE project = ? "
        f"AND type IN ({','.join('?' * len(obstypes.LASTING))}) ORDER BY created_at DESC, id DESC LIMIT ?",
        (project, *obstypes.LASTING, settings.context_observations),
    ).fetchall()
    seen_ids = {row["id"] for row in recent}
    candidates = list(recent) + [row for row in lasting if row["id"] not in seen_ids]
    if not summaries and not candidates:
        return ""

    header = [
        f'<{CONTEXT_TAG} project="{project}">',
        f"# Memory: {project} (skillbox mem)",
        "Earlier work in this project, newest last. Expand an entry with `skillbox mem get ID` (e.g. 12 or S3);",
        'find more with `skillbox mem search "words"` and `skillbox mem timeline ID`.',
    ]
    footer = [f"</{CONTEXT_TAG}>"]
    used = tokens("\n".join(header + footer)) + 8

    summary_lines: list[str] = []
    for row in summaries:
        line = _summary_line(row)
        cost = tokens(line) + 1
        if used + cost > budget * 0.45 and summary_lines:
            break
        if used + cost > budget:
            break
        summary_lines.append(line)
        used += cost
    summary_lines.reverse()

    # Rank observations by type weight and recency; collapse repeats of the same title.
    scored = []
    seen_titles: set[str] = set()
    newest_first = sorted(candidates, key=lambda r: (r["created_at"], r["id"]), reverse=True)
    for index, row in enumerate(newest_first):
        if row["title"] in seen_titles:
            continue
        seen_titles.add(row["title"])
        weight = obstypes.weight(row["type"])
        # Recency decays gently so a decision from last week still beats this morning's file reads.
        scored.append((weight / (1.0 + index / 60.0), row))
    scored.sort(key=lambda item: item[0], reverse=True)
    chosen = []
    for _score, row in scored[: settings.context_observations]:
        line = _observation_line(row)
        cost = tokens(line) + 1
        if used + cost > budget:
            continue
        chosen.append((row["created_at"], row["id"], line))
        used += cost
    chosen.sort()

    body: list[str] = []
    if summary_lines:
        body += ["", "## Recent turns", *summary_lines]
    if chosen:
        body += ["", "## Observations (#id date type title)", *[line for _, _, line in chosen]]
    if not body:
        return ""
    return "\n".join(header + body + footer)
