"""The one shape every validator finding takes, so the CLI, `doctor` and tests read them alike."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with one file, located like a compiler error.

    `file` is shown relative to the folder being validated when it lies inside it. `line` is 1-based; a problem
    with the file as a whole sits on line 1. `code` is stable snake_case, so scripts can filter on it. `fix` is
    one line telling the author what to do, when there is more to say than the message.
    """

    file: str
    line: int
    code: str
    message: str
    fix: str | None = None

    def render(self) -> str:
        text = f"{self.file}:{self.line}: {self.code}: {self.message}"
        return f"{text} (fix: {self.fix})" if self.fix else text

    def as_dict(self) -> dict:
        return asdict(self)
