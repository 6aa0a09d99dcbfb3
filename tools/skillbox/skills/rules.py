"""Frontmatter rules as data: one row per allowed key, for skills and for slash commands.

SKILL.md frontmatter follows the Agent Skills specification (the six keys below) so that `agentskills validate`
and every other Agent Skills client accept it; Claude-only behaviour belongs in `commands/*.md`, whose rows allow
Claude Code's command keys instead. Adding or tightening a rule means editing a row here, not validator code.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

# (code, message) pairs returned by a value check.
Finding = tuple[str, str]

NAME_MAX = 64
DESCRIPTION_MAX = 1024
COMPATIBILITY_MAX = 500
BODY_MAX_LINES = 500


def normalized_name(value: str) -> str:
    """Names are compared after NFKC, as the specification's reference validator does."""
    return unicodedata.normalize("NFKC", value.strip())


def check_skill_name(value: str) -> list[Finding]:
    """Lowercase letters (any script), digits and single inner hyphens."""
    name = normalized_name(value)
    found: list[Finding] = []
    if name != name.lower():
        found.append(("name_not_lowercase", f"skill name '{name}' must be lowercase"))
    if name.startswith("-") or name.endswith("-"):
        found.append(("name_hyphen_edge", f"skill name '{name}' cannot start or end with a hyphen"))
    if "--" in name:
        found.append(("name_double_hyphen", f"skill name '{name}' cannot contain consecutive hyphens"))
    if not all(char.isalnum() or char == "-" for char in name):
        found.append(("name_invalid_chars", f"skill name '{name}' may only hold letters, digits and hyphens"))
    return found


def check_boolean(value: str) -> list[Finding]:
    if value.strip().lower() in ("true", "false"):
        return []
    return [("frontmatter_type", f"expected true or false, got '{value}'")]


@dataclass(frozen=True)
class FieldRule:
    """One allowed frontmatter key.

    `kind` is the YAML shape: "string" (a scalar), or "string-map" (a mapping of string keys to scalar values).
    `required` means present and not blank. `max_chars` counts characters after NFKC for names, as written
    otherwise. `equals_folder` ties the value to the skill's folder name. `check` adds value-specific findings.
    """

    key: str
    kind: str = "string"
    required: bool = False
    max_chars: int | None = None
    equals_folder: bool = False
    check: Callable[[str], list[Finding]] | None = None
    normalize: Callable[[str], str] = str


SKILL_FIELDS: tuple[FieldRule, ...] = (
    FieldRule(
        "name", required=True, max_chars=NAME_MAX, equals_folder=True, check=check_skill_name, normalize=normalized_name
    ),
    FieldRule("description", required=True, max_chars=DESCRIPTION_MAX),
    FieldRule("license"),
    FieldRule("compatibility", max_chars=COMPATIBILITY_MAX),
    FieldRule("metadata", kind="string-map"),
    FieldRule("allowed-tools"),
)

COMMAND_FIELDS: tuple[FieldRule, ...] = (
    FieldRule("description", required=True, max_chars=DESCRIPTION_MAX),
    FieldRule("argument-hint"),
    FieldRule("allowed-tools"),
    FieldRule("model"),
    FieldRule("disable-model-invocation", check=check_boolean),
)


def _shape_ok(kind: str, value: object) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "string-map":
        return isinstance(value, dict) and all(isinstance(item, str) for item in value.values())
    raise ValueError(f"unknown field kind {kind!r}")


SHAPE_WORDS = {"string": "a single string", "string-map": "a mapping of keys to plain string values"}


def check_fields(
    data: dict, rules: tuple[FieldRule, ...], folder: str | None = None
) -> list[tuple[str | None, Finding]]:
    """Apply a rule table to parsed frontmatter; returns (key the finding belongs to, finding) pairs."""
    by_key = {rule.key: rule for rule in rules}
    found: list[tuple[str | None, Finding]] = []
    unknown = sorted(set(data) - by_key.keys())
    for key in unknown:
        allowed = ", ".join(rule.key for rule in rules)
        found.append((key, ("frontmatter_unknown_key", f"unexpected key '{key}' (allowed: {allowed})")))
    for rule in rules:
        if rule.key not in data:
            if rule.required:
                found.append((None, ("frontmatter_missing_key", f"missing required key '{rule.key}'")))
            continue
        value = data[rule.key]
        if not _shape_ok(rule.kind, value):
            found.append((rule.key, ("frontmatter_type", f"'{rule.key}' must be {SHAPE_WORDS[rule.kind]}")))
            continue
        if rule.kind != "string":
            continue
        if rule.required and not value.strip():
            found.append((rule.key, ("frontmatter_empty_value", f"'{rule.key}' must not be empty")))
            continue
        shown = rule.normalize(value)
        if rule.max_chars is not None and len(shown) > rule.max_chars:
            message = f"'{rule.key}' has {len(shown)} characters; the limit is {rule.max_chars}"
            found.append((rule.key, ("frontmatter_too_long", message)))
        if rule.check is not None:
            found.extend((rule.key, finding) for finding in rule.check(value))
        if rule.equals_folder and folder is not None and normalized_name(folder) != shown:
            message = f"'{rule.key}' is '{shown}' but the folder is '{folder}'; they must be equal"
            found.append((rule.key, ("name_folder_mismatch", message)))
    return found
