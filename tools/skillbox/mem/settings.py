"""Where memory lives and how it behaves: `$SKILLBOX_HOME/settings.json` plus `SKILLBOX_MEM_*` env overrides.

The file is flat (one key per setting) and written with every default on first use, so a user can see and edit
all knobs in one place. An environment variable `SKILLBOX_MEM_<KEY>` (upper case) wins over the file; hermetic
tests and one-off runs use that instead of editing the file. Standard library only: the hook path imports this.
"""

from __future__ import annotations

import json
import os
import re

from skillbox.errors import ConfigError

DEFAULT_SKIP_TOOLS = ("ListMcpResourcesTool", "SlashCommand", "Skill", "TodoWrite", "AskUserQuestion")


MAX_INT = 2**63 - 1  # SQLite's largest integer; a bigger setting is a typo, not a wish
POINTER = os.path.join(".skillbox", "plugin-data")  # under $HOME; written by bin/skillbox at SessionStart


def locate_home() -> tuple[str, str]:
    """(memory home, which rule chose it). The same order as bin/skillbox, so every process finds one store:

    `$SKILLBOX_HOME`; else `$CLAUDE_PLUGIN_DATA` (hooks); else `$SKILLBOX_PLUGIN_DATA` (the agent's Bash tool: the
    SessionStart hook exports it through CLAUDE_ENV_FILE); else the folder named by `~/.skillbox/plugin-data` (the
    last plugin session's data folder, for an MCP server or a direct install), if it exists; else `~/.skillbox`.
    Paths here are plain strings: importing pathlib costs the hook process several milliseconds.
    """
    for name in ("SKILLBOX_HOME", "CLAUDE_PLUGIN_DATA", "SKILLBOX_PLUGIN_DATA"):
        value = os.environ.get(name, "").strip()
        if value:
            return os.path.expanduser(value), name
    user = os.path.expanduser("~")
    try:
        with open(os.path.join(user, POINTER), encoding="utf-8") as handle:
            pointed = handle.readline().strip()
        if pointed.startswith("/") and os.path.isdir(pointed):
            return pointed, f"~/{POINTER}"
    except (OSError, UnicodeDecodeError):
        pass
    return os.path.join(user, ".skillbox"), "default"


def skillbox_home() -> str:
    """Where memory lives; see `locate_home` for the rule."""
    return locate_home()[0]


def db_path(home: str | os.PathLike | None = None) -> str:
    return os.path.join(os.fspath(home or skillbox_home()), "memory.db")


# name -> (default, what it does): the one place each setting is defined and documented.
SETTINGS: dict[str, tuple[object, str]] = {
    "context_max_tokens": (1500, "token budget of the SessionStart context block (tokens ~ chars / 4)"),
    "context_summaries": (6, "recent turn summaries the context block considers"),
    "context_observations": (40, "observations the context block may list"),
    "event_max_chars": (8000, "raw tool input/output strings longer than this keep only their head and tail"),
    "events_retention_days": (30, "raw tool events are pruned after this many days (0 = keep)"),
    "retention_days": (0, "sessions, observations and summaries are pruned after this many days (0 = keep)"),
    "max_db_mb": (512, "prune shrinks the database below this size: oldest events first, then oldest sessions"),
    "auto_prune": (True, "after a session ends, prune in the background once a day or when over max_db_mb"),
    "excluded_projects": ([], "globs over project names or root paths that are never recorded"),
    "skip_tools": (list(DEFAULT_SKIP_TOOLS), "tools whose calls are not recorded"),
    "project_overrides": ({}, "path prefix -> project name, to share or split memory differently from git"),
    "redact_secrets": (True, "replace API keys, tokens, private keys and URL passwords with [REDACTED]"),
    "summarizer_command": ([], "optional command run once per session end with the session JSON on stdin; [] = off"),
    "summarizer_timeout": (120, "seconds the summarizer command may run"),
    "language": ("auto", "en | zh | auto: wording of context headings, the viewer and mem messages"),
    "observer": (False, "opt-in: after each session ends, a small model writes decision/bugfix/discovery/gotcha notes"),
    "observer_model": ("haiku", "model the observer asks for (`claude --model`)"),
    "observer_command": (["claude"], "the Claude Code CLI the observer runs headless (`claude -p`)"),
    "observer_daily_tokens": (30000, "hard cap: an observer run that could pass this many tokens today does not start"),
    "observer_digest_chars": (12000, "a session digest sent to the observer is cut to this many characters"),
    "observer_timeout": (180, "seconds one observer run may take"),
    "file_context_max_tokens": (
        150,
        "budget of the earlier observations about a file shown after the agent reads or edits it (0 = off)",
    ),
}


class MemSettings:
    """Every memory setting as an attribute, defaults from `SETTINGS` (a plain class: dataclasses import slowly)."""

    context_max_tokens: int
    context_summaries: int
    context_observations: int
    event_max_chars: int
    events_retention_days: int
    retention_days: int
    max_db_mb: int
    auto_prune: bool
    excluded_projects: list[str]
    skip_tools: list[str]
    project_overrides: dict[str, str]
    redact_secrets: bool
    summarizer_command: list[str]
    summarizer_timeout: int
    language: str
    observer: bool
    observer_model: str
    observer_command: list[str]
    observer_daily_tokens: int
    observer_digest_chars: int
    observer_timeout: int
    file_context_max_tokens: int

    def __init__(self, **values):
        for name, (default, _doc) in SETTINGS.items():
            value = values.pop(name, default)
            setattr(self, name, json.loads(json.dumps(value)) if isinstance(value, list | dict) else value)
        if values:
            raise TypeError(f"unknown settings: {', '.join(sorted(values))}")

    def to_dict(self) -> dict:
        return {name: getattr(self, name) for name in SETTINGS}


def _coerce(name: str, default, value, origin: str):
    """Convert a file or env value to the type of the default; a wrong type is a ConfigError naming the key."""
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("1", "true", "yes", "on", "0", "false", "no", "off"):
            return value.strip().lower() in ("1", "true", "yes", "on")
    elif isinstance(default, str):
        if isinstance(value, str):
            return value.strip()
    elif isinstance(default, int):
        if isinstance(value, str) and re.fullmatch(r"-?[0-9]+", value.strip()):
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_INT:
            return value
    elif isinstance(default, list):
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return value
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                try:
                    return _coerce(name, default, json.loads(text), origin)
                except ValueError:
                    pass
            else:
                return [part.strip() for part in text.split(",") if part.strip()]
    elif isinstance(default, dict):
        if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
            return value
        if isinstance(value, str):
            try:
                return _coerce(name, default, json.loads(value), origin)
            except ValueError:
                pass
    raise ConfigError(f"{origin}: setting {name!r} must be a {type(default).__name__}, got {value!r}")


def load_settings(home: str | os.PathLike | None = None, *, create: bool = True) -> MemSettings:
    """Read settings.json (writing the defaults first if it is missing), then apply env overrides."""
    path = os.path.join(os.fspath(home or skillbox_home()), "settings.json")
    settings = MemSettings()
    defaults = settings.to_dict()
    data: dict = {}
    if os.path.exists(path):
        try:
            with open(path, encoding="utf-8") as handle:
                data = json.loads(handle.read() or "{}")
        except (OSError, ValueError) as err:
            raise ConfigError(f"{path}: not valid JSON ({err})", hint="fix or delete the file") from None
        if not isinstance(data, dict):
            raise ConfigError(f"{path}: must hold a JSON object")
    elif create:
        _write_defaults(path, defaults)
    for name, default in defaults.items():
        if name in data:
            setattr(settings, name, _coerce(name, default, data[name], str(path)))
        env_value = os.environ.get(f"SKILLBOX_MEM_{name.upper()}")
        if env_value is not None:
            setattr(settings, name, _coerce(name, default, env_value, f"SKILLBOX_MEM_{name.upper()}"))
    return settings


def set_setting(home: str | os.PathLike | None, name: str, value) -> None:
    """Change one key of settings.json (other keys kept as the user wrote them); written atomically."""
    if name not in SETTINGS:
        raise ConfigError(f"unknown setting {name!r}")
    path = os.path.join(os.fspath(home or skillbox_home()), "settings.json")
    load_settings(home)  # creates the file with every default, and rejects a broken one
    with open(path, encoding="utf-8") as handle:
        data = json.loads(handle.read() or "{}")
    data[name] = _coerce(name, SETTINGS[name][0], value, path)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _write_defaults(path: str, defaults: dict) -> None:
    """Create settings.json atomically and only if absent; concurrent hooks creating it at once are harmless."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = os.path.join(os.path.dirname(path), f".settings.{os.getpid()}.tmp")
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(defaults, indent=2) + "\n")
        try:
            os.link(tmp, path)  # never replaces a file someone wrote meanwhile
        except FileExistsError:
            pass
        finally:
            os.unlink(tmp)
    except OSError:
        pass  # a read-only home still works with defaults
