"""Hook log: `$SKILLBOX_HOME/logs/mem-hooks.log`, rotated at 1 MB, three old files kept.

Hooks fail open, so this file is the only place their errors show up. Messages pass through the privacy scrubber
first: an exception text can quote payload content. Hand-rolled rather than `logging` because importing the
logging package costs a noticeable share of a hook's start-up budget, and one append is all we need.
"""

from __future__ import annotations

import os

from skillbox.mem.privacy import scrub_text
from skillbox.mem.store import now_iso

MAX_BYTES = 1_000_000
KEEP = 3


def log_path(home: str | os.PathLike) -> str:
    return os.path.join(os.fspath(home), "logs", "mem-hooks.log")


def _rotate(path: str) -> None:
    for index in range(KEEP - 1, 0, -1):
        if os.path.exists(f"{path}.{index}"):
            os.replace(f"{path}.{index}", f"{path}.{index + 1}")
    os.replace(path, f"{path}.1")


def log_line(home: str | os.PathLike, event: str, message: str) -> None:
    """Append one line; never raises (a broken log must not break the hook that is reporting a failure)."""
    try:
        path = log_path(home)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if os.path.exists(path) and os.path.getsize(path) > MAX_BYTES:
            _rotate(path)
        text = " ".join(scrub_text(message).split())[:2000]
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(f"{now_iso()} pid={os.getpid()} {event or '-'}: {text}\n")
    except Exception:  # last line of defence
        pass
