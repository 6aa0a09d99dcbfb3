"""The one error path of skillbox.

Library code raises a `SkillboxError` subclass when the user (not the program) is at fault: a missing path, a
malformed file, an unknown name. The CLI turns it into `Error: <message>` on stderr and an exit code, without a
traceback. Anything else that escapes is a bug and keeps its traceback.
"""

from __future__ import annotations


class SkillboxError(Exception):
    """A user-facing failure. `str(err)` must be one line that says what is wrong and, ideally, what to do."""

    exit_code = 1

    def __init__(self, message: str, *, hint: str | None = None):
        super().__init__(message)
        self.hint = hint

    def one_line(self) -> str:
        text = " ".join(str(self).split())
        if self.hint:
            text = f"{text} ({' '.join(self.hint.split())})"
        return text


def error_line(err: BaseException | str) -> str:
    """The one line a user error is shown as — by the root group, the click-free twins, the MCP servers' tool
    results and the README sync: `Error: <message> (<hint>)`."""
    text = err.one_line() if isinstance(err, SkillboxError) else " ".join(str(err).split())
    return f"Error: {text}"


class UsageError(SkillboxError):
    """Arguments that parse but make no sense together; exits 2 like click's own usage errors."""

    exit_code = 2


class NotFoundError(SkillboxError):
    """A named thing (node, record, rule, file) does not exist."""


class InvalidInputError(SkillboxError):
    """Input exists but cannot be used: malformed JSON/YAML, wrong file type, corrupt data."""


class ConfigError(SkillboxError):
    """A settings file or environment override is invalid."""
