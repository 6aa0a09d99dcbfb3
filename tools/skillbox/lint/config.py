"""Optional project settings: `[tool.skillbox.lint]` in pyproject.toml or `[lint]` in skillbox.toml.

    [tool.skillbox.lint]
    select = ["core", "gsap"]          # codes or group names; default: every rule
    ignore = ["composition_file_too_large"]
    severity = { studio_missing_editable_id = "error" }

The nearest file found walking up from the first PATH wins; skillbox.toml before pyproject.toml in one folder.
A pyproject.toml whose text cannot define `tool.skillbox` (`_may_hold_our_table`) is not parsed, nor validated (it
is some other tool's file), which keeps `tomllib` out of a per-project lint run inside a Python repository.
"""

from __future__ import annotations

import os

from skillbox.errors import ConfigError
from skillbox.lint import paths as fs
from skillbox.lint.registry import SEVERITIES


def find_config(start) -> tuple[str, dict] | None:
    """The nearest skillbox.toml / pyproject.toml with our table, from `start` (str or os.PathLike) upwards."""
    folder = fs.resolve(fs.clean(start))
    if not os.path.isdir(folder):
        folder = fs.parent(folder)
    for candidate in (folder, *fs.parents(folder)):
        # `fs.join(candidate, name)` for a clean absolute folder and a plain name, without its normalizing (this
        # loop runs for every folder up to the root on every lint)
        prefix = candidate if candidate.endswith("/") else candidate + "/"
        for name, keys in (("skillbox.toml", ("lint",)), ("pyproject.toml", ("tool", "skillbox", "lint"))):
            path = prefix + name
            if not os.path.isfile(path):
                continue
            try:
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
            except UnicodeDecodeError as err:
                raise ConfigError(f"{path}: invalid TOML: {err}") from None
            if name == "pyproject.toml" and not _may_hold_our_table(text):
                continue
            import tomllib

            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError as err:
                raise ConfigError(f"{path}: invalid TOML: {err}") from None
            section = data
            for key in keys:
                section = section.get(key) if isinstance(section, dict) else None
                if section is None:
                    break
            if section is not None:
                if not isinstance(section, dict):
                    raise ConfigError(f"{path}: [{'.'.join(keys)}] must be a table")
                return path, section
    return None


def _may_hold_our_table(text: str) -> bool:
    """Could this pyproject.toml define `tool.skillbox`? Only if `tool` and `skillbox` are joined by a dot (a
    header or a dotted key), or a bare `[tool]` table / `tool = {...}` is there and `skillbox` appears at all, or a
    quoted key spells names with escapes. Anything else is certainly some other tool's file."""
    if "\\u" in text or "\\U" in text:
        return True
    return "skillbox" in text and (_dotted_tool_skillbox(text) or _tool_table_line(text))


# The two tests below are `re.search(r"""tool["']?\s*\.\s*["']?skillbox""", text)` and
# `re.search(r"""^\s*(?:\[\s*["']?tool["']?\s*\]|["']?tool["']?\s*=)""", text, re.MULTILINE)` written with str
# methods: compiling the two patterns was about 1% of a lint process under a repository's pyproject.toml.
# Each optional quote can only be taken one way (the next character is never a quote), so no backtracking is
# lost; `\s` is `str.isspace()`. tests/lint/test_pattern_shortcuts.py compares them with the patterns.
def _skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def _quote(text: str, at: int) -> int:
    return at + 1 if at < len(text) and text[at] in "\"'" else at


def _dotted_tool_skillbox(text: str) -> bool:
    at = text.find("tool")
    while at >= 0:
        dot = _skip_space(text, _quote(text, at + 4))
        if text.startswith(".", dot) and text.startswith("skillbox", _quote(text, _skip_space(text, dot + 1))):
            return True
        at = text.find("tool", at + 1)
    return False


def _tool_table_line(text: str) -> bool:
    """Looked for from each `tool` in the text (a pyproject.toml has a few), not line by line (it has hundreds):
    before it an optional quote, then either only whitespace back to a line start, or `[` and whitespace and then
    only whitespace back to a line start; after it an optional quote, whitespace and `]` or `=` to match."""
    at = text.find("tool")
    while at >= 0:
        before = at - 1 if at > 0 and text[at - 1] in "\"'" else at
        after = _skip_space(text, _quote(text, at + 4))
        if text.startswith("=", after) and _at_line_start(text, before):
            return True
        if text.startswith("]", after):
            bracket = _skip_space_back(text, before) - 1
            if bracket >= 0 and text[bracket] == "[" and _at_line_start(text, bracket):
                return True
        at = text.find("tool", at + 1)
    return False


def _skip_space_back(text: str, end: int) -> int:
    while end > 0 and text[end - 1].isspace():
        end -= 1
    return end


def _at_line_start(text: str, end: int) -> bool:
    r"""Is `^\s*` (MULTILINE) matched by some span ending at `end`: only whitespace back to the text's start or
    to a position just after a newline?"""
    start = _skip_space_back(text, end)
    return start == 0 or "\n" in text[start:end]


def read_settings(path: str, section: dict) -> dict:
    """Validate a settings table; returns {"select": set|None, "ignore": set, "severity": dict}."""
    out: dict = {"select": None, "ignore": set(), "severity": {}}
    for key, value in section.items():
        if key in ("select", "ignore"):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ConfigError(f"{path}: lint.{key} must be a list of rule codes")
            out[key] = set(value)
        elif key == "severity":
            if not isinstance(value, dict) or not all(v in SEVERITIES for v in value.values()):
                raise ConfigError(f"{path}: lint.severity must map codes to one of {', '.join(SEVERITIES)}")
            out["severity"] = dict(value)
        else:
            raise ConfigError(f"{path}: unknown lint setting {key!r} (known: select, ignore, severity)")
    return out
