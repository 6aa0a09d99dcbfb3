"""Observation types: the one table that capture, validation and context ranking read.

Each row says what a type is for and how much it is worth when the SessionStart block has to choose: a decision
and its reason outlive any number of file reads, so it weighs more and stays eligible however many reads came
after it ("lasting"); its subtitle (usually the reason or the fix) is shown next to the title ("why"). Types a
person or agent may state with `skillbox mem add` are marked `stated`; the rest are written by the hook rules
(`observe.py`) or arrive from a claude-mem import (its `security_*` types). A type not in the table is kept as
given (imports bring their own) and ranks with `DEFAULT_WEIGHT`.
Standard library only, no dataclass: the hook process imports this.
"""

from __future__ import annotations


class ObservationType:
    """One row of the table (a plain class: a dataclass or NamedTuple costs the hook several ms to import)."""

    __slots__ = ("description", "lasting", "name", "section", "stated", "weight", "why")

    def __init__(
        self, name: str, weight: float, description: str, *, lasting=False, why=False, stated=False, section="trail"
    ):
        self.name = name
        self.weight = weight  # context ranking: higher is kept first
        self.description = description
        self.lasting = lasting  # stays a context candidate however much newer trail exists
        self.why = why  # the context line shows its subtitle (the reason, the fix)
        self.stated = stated  # accepted from `skillbox mem add` / a summarizer
        self.section = section  # where SessionStart lists it: "reasons", "fixes" (spent first) or "trail"

    def __repr__(self) -> str:
        return f"ObservationType({self.name!r})"


_ROWS = (
    ObservationType(
        "decision", 6.0, "a choice made and its reason", lasting=True, why=True, stated=True, section="reasons"
    ),
    ObservationType(
        "bugfix", 5.0, "a defect, its root cause and the fix", lasting=True, why=True, stated=True, section="fixes"
    ),
    ObservationType(
        "gotcha",
        5.0,
        "a trap: what looked right and why it is not",
        lasting=True,
        why=True,
        stated=True,
        section="fixes",
    ),
    ObservationType("feature", 4.0, "new behaviour added", lasting=True, why=True, stated=True, section="reasons"),
    ObservationType(
        "refactor", 4.0, "structure changed, behaviour kept", lasting=True, why=True, stated=True, section="reasons"
    ),
    ObservationType("security_alert", 4.0, "a security problem (claude-mem import)", lasting=True, section="fixes"),
    ObservationType("security_note", 3.0, "a security remark (claude-mem import)"),
    ObservationType("note", 3.0, "anything else worth keeping", lasting=True, why=True, stated=True, section="reasons"),
    ObservationType("change", 3.0, "a file written or edited", stated=True),
    ObservationType("discovery", 1.5, "something read or learned about the code", stated=True),
    ObservationType("command", 1.0, "a shell command and its outcome"),
    ObservationType("fetch", 1.0, "a web page fetched"),
    ObservationType("search", 0.5, "a code or web search"),
)
TYPES: dict[str, ObservationType] = {row.name: row for row in _ROWS}
DEFAULT_WEIGHT = 2.0
DEFAULT_TYPE = "note"

LASTING = tuple(row.name for row in _ROWS if row.lasting)
WITH_WHY = frozenset(row.name for row in _ROWS if row.why)
STATED = tuple(row.name for row in _ROWS if row.stated)
# What the observer (a language model at session end) may write: the typed "why" records.
OBSERVED = ("decision", "bugfix", "discovery", "gotcha")


def section(name: str) -> str:
    row = TYPES.get(name)
    return row.section if row else "trail"


def weight(name: str) -> float:
    row = TYPES.get(name)
    return row.weight if row else DEFAULT_WEIGHT


def normalize(name: str | None) -> str:
    """The type to store for a stated one: trimmed, `note` when empty; unknown names are kept (imports)."""
    return (name or "").strip() or DEFAULT_TYPE


def stated_help() -> str:
    """`decision | bugfix | ...`: the types `mem add --type` documents, in table order."""
    return " | ".join(STATED)
