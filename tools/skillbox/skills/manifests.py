"""Checks for `.claude-plugin/plugin.json` and `.claude-plugin/marketplace.json`.

Shapes are JSON Schema (data, checked by `jsonschema`), written from what Claude Code 2.1.x accepts and what
`claude plugin validate --strict` warns about, since a warning fails the strict run. What a schema cannot say
(paths that must exist inside the plugin, the marketplace entry that must point back at this plugin, keys that
load twice) are small functions after the schemas.

Checked side by side with `claude plugin validate --strict` 2.1.332 on 22 manifest and SKILL.md variants: every
case it fails, we fail. We are stricter on purpose where the bundle must also work elsewhere: a semver `version`,
`"./"` rather than `"."` (older clients), no entry `version` (plugin.json's wins and the copy drifts), entry name
equal to plugin.json's, reserved marketplace names (`marketplace add` refuses them), strict YAML in SKILL.md.
"""

from __future__ import annotations

import json
import posixpath
from pathlib import Path

from jsonschema import Draft202012Validator

from skillbox.skills.jsonlines import line_of, member_lines
from skillbox.skills.problems import Problem

KEBAB = r"^[a-z0-9]+(-[a-z0-9]+)*$"
SEMVER = r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$"
RELATIVE_PATH = {"type": "string", "pattern": r"^\.(/|$)"}
PATH_OR_PATHS = {"anyOf": [RELATIVE_PATH, {"type": "array", "items": RELATIVE_PATH}]}
PERSON = {
    "type": "object",
    "required": ["name"],
    "properties": {"name": {"type": "string", "minLength": 1}, "email": {"type": "string"}, "url": {"type": "string"}},
    "additionalProperties": False,
}
ANY = {}

PLUGIN_SCHEMA = {
    "type": "object",
    "required": ["name", "version", "description", "author"],
    "properties": {
        "$schema": {"type": "string"},
        "name": {"type": "string", "pattern": KEBAB},
        "version": {"type": "string", "pattern": SEMVER},
        "description": {"type": "string", "minLength": 1},
        "author": PERSON,
        "homepage": {"type": "string", "pattern": r"^https?://\S+$"},
        "repository": {"type": "string", "minLength": 1},
        "license": {"type": "string", "minLength": 1},
        "keywords": {"type": "array", "items": {"type": "string"}},
        "displayName": {"type": "string"},
        "metadata": {"type": "object"},
        "defaultEnabled": {"type": "boolean"},
        "dependencies": ANY,
        "settings": ANY,
        "userConfig": ANY,
        "channels": ANY,
        "skills": PATH_OR_PATHS,
        "commands": {"anyOf": [RELATIVE_PATH, {"type": "array", "items": RELATIVE_PATH}, {"type": "object"}]},
        "agents": PATH_OR_PATHS,
        "hooks": ANY,
        "mcpServers": ANY,
        "lspServers": ANY,
        "outputStyles": PATH_OR_PATHS,
        "workflows": PATH_OR_PATHS,
        "experimental": {"type": "object"},
    },
    "additionalProperties": False,
}

PLUGIN_SOURCE = {
    "anyOf": [
        RELATIVE_PATH,
        {
            "type": "object",
            "required": ["source"],
            "properties": {
                "source": {"enum": ["github", "url", "git-subdir", "npm", "archive", "command"]},
            },
        },
    ]
}

# A marketplace entry may carry any plugin.json field plus its own; anything else Claude Code warns about.
MARKETPLACE_ENTRY_SCHEMA = {
    "type": "object",
    "required": ["name", "source"],
    "properties": {
        **PLUGIN_SCHEMA["properties"],
        "name": {"type": "string", "pattern": r"^[A-Za-z0-9][A-Za-z0-9._-]*$"},
        "source": PLUGIN_SOURCE,
        "version": {"type": "string"},
        "category": {"type": "string"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "strict": {"type": "boolean"},
        "relevance": ANY,
        "headers": ANY,
        "headersHelper": ANY,
    },
    "additionalProperties": False,
}

MARKETPLACE_SCHEMA = {
    "type": "object",
    "required": ["name", "owner", "plugins", "description"],
    "properties": {
        "$schema": {"type": "string"},
        "name": {"type": "string", "pattern": r"^[A-Za-z0-9][A-Za-z0-9._-]*$"},
        "description": {"type": "string", "minLength": 1},
        "version": {"type": "string"},
        "owner": PERSON,
        "metadata": {"type": "object"},
        "forceRemoveDeletedPlugins": {"type": "boolean"},
        "allowCrossMarketplaceDependenciesOn": {"type": "array", "items": {"type": "string"}},
        "renames": {"type": "object"},
        "plugins": {"type": "array", "minItems": 1, "items": MARKETPLACE_ENTRY_SCHEMA},
    },
    "additionalProperties": False,
}

RESERVED_MARKETPLACE_NAMES = {
    "claude-plugins-official",
    "agent-skills",
    "inline",
    "builtin",
    "skills-dir",
    "npm",
    "pip",
    "github",
}
# plugin.json keys naming component paths that Claude Code resolves against the plugin root.
COMPONENT_PATH_KEYS = ("skills", "commands", "agents", "outputStyles", "workflows")


def _load(path: Path, shown: str) -> tuple[object, dict, list[Problem]]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None, {}, [Problem(shown, 1, "json_invalid", "file is not UTF-8 text")]
    if text.startswith("\ufeff"):
        return None, {}, [Problem(shown, 1, "bom", "file starts with a UTF-8 byte order mark", fix="save without BOM")]
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        return None, {}, [Problem(shown, err.lineno, "json_invalid", f"invalid JSON: {err.msg}")]
    return data, member_lines(text), []


def _schema_problems(data: object, schema: dict, lines: dict, shown: str) -> list[Problem]:
    problems = []
    for error in Draft202012Validator(schema).iter_errors(data):
        where = "/".join(map(str, error.absolute_path)) or "(top level)"
        message = error.message
        if error.validator == "pattern" and error.schema.get("pattern") == RELATIVE_PATH["pattern"]:
            message = f"{error.instance!r} must start with './'"
        elif error.validator == "pattern" and error.schema.get("pattern") == KEBAB:
            message = f"{error.instance!r} must be kebab-case (lowercase letters, digits, single hyphens)"
        elif error.validator == "pattern" and error.schema.get("pattern") == SEMVER:
            message = f"{error.instance!r} is not a semantic version like 1.2.3"
        problems.append(
            Problem(shown, line_of(lines, tuple(error.absolute_path)), "manifest_schema", f"{where}: {message}")
        )
    return problems


def _relative_path_problems(root: Path, value: str, where: tuple, lines: dict, shown: str) -> list[Problem]:
    if not isinstance(value, str) or not (value == "." or value.startswith("./")):
        return []  # the schema already reported it
    line = line_of(lines, where)
    normal = posixpath.normpath(value)
    if normal == ".." or normal.startswith("../") or ".." in value.split("/"):
        return [
            Problem(shown, line, "manifest_path_outside", f"{value!r} must not contain '..'; keep it inside the plugin")
        ]
    if not (root / normal).exists():
        return [Problem(shown, line, "manifest_path_missing", f"{value!r} does not exist under the plugin root")]
    return []


def check_plugin_manifest(root: Path, shown: str = ".claude-plugin/plugin.json") -> tuple[dict | None, list[Problem]]:
    """Problems in plugin.json, plus its data when it parsed (the marketplace check cross-references it)."""
    data, lines, problems = _load(root / ".claude-plugin" / "plugin.json", shown)
    if problems:
        return None, problems
    problems = _schema_problems(data, PLUGIN_SCHEMA, lines, shown)
    if not isinstance(data, dict):
        return None, problems
    if "hooks" in data:
        problems.append(
            Problem(
                shown,
                line_of(lines, ("hooks",)),
                "manifest_hooks_key",
                "plugin.json must not declare 'hooks': hooks/hooks.json loads by itself; older clients load it twice",
                fix="delete the 'hooks' key",
            )
        )
    for key in COMPONENT_PATH_KEYS:
        value = data.get(key)
        values = value if isinstance(value, list) else [value]
        for index, item in enumerate(values):
            where = (key, index) if isinstance(value, list) else (key,)
            problems.extend(_relative_path_problems(root, item, where, lines, shown))
    return data, problems


def check_marketplace_manifest(
    root: Path, plugin: dict | None, shown: str = ".claude-plugin/marketplace.json"
) -> list[Problem]:
    """Problems in marketplace.json, including whether one entry installs this very plugin root."""
    data, lines, problems = _load(root / ".claude-plugin" / "marketplace.json", shown)
    if problems:
        return problems
    problems = _schema_problems(data, MARKETPLACE_SCHEMA, lines, shown)
    if not isinstance(data, dict):
        return problems
    name = data.get("name")
    if isinstance(name, str) and (name in RESERVED_MARKETPLACE_NAMES or name.startswith(("anthropic-", "claudeai-"))):
        problems.append(Problem(shown, line_of(lines, ("name",)), "marketplace_reserved_name", f"'{name}' is reserved"))
    entries = data.get("plugins") if isinstance(data.get("plugins"), list) else []
    plugin_name = plugin.get("name") if isinstance(plugin, dict) else None
    self_entry = None
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            continue
        source = entry.get("source")
        problems.extend(_relative_path_problems(root, source, ("plugins", index, "source"), lines, shown))
        if isinstance(source, str) and posixpath.normpath(source) == ".":
            self_entry = (index, entry)
            if source != "./":
                message = f"source {source!r} should be written './' (older clients reject '.')"
                line = line_of(lines, ("plugins", index, "source"))
                problems.append(Problem(shown, line, "marketplace_root_source", message, fix='use "source": "./"'))
    if plugin_name is None:
        return problems
    if self_entry is None:
        problems.append(
            Problem(
                shown,
                line_of(lines, ("plugins",)),
                "marketplace_entry_missing",
                f'no plugin entry installs this plugin root; add {{"name": "{plugin_name}", "source": "./"}}',
            )
        )
        return problems
    index, entry = self_entry
    if entry.get("name") != plugin_name:
        message = f"entry name {entry.get('name')!r} differs from plugin.json name {plugin_name!r}"
        problems.append(
            Problem(shown, line_of(lines, ("plugins", index, "name")), "marketplace_name_mismatch", message)
        )
    if "version" in entry and isinstance(plugin, dict) and "version" in plugin:
        problems.append(
            Problem(
                shown,
                line_of(lines, ("plugins", index, "version")),
                "marketplace_version",
                "the version belongs in plugin.json only; a second copy here drifts",
                fix="delete this 'version'",
            )
        )
    return problems
