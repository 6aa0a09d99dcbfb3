"""Where memory lives and how it behaves: `$SKILLBOX_HOME/settings.json` plus `SKILLBOX_MEM_*` env overrides.

The file is flat (one key per setting) and written with every default on first use, so a user can see and edit
all knobs in one place. An environment variable `SKILLBOX_MEM_<KEY>` (upper case) wins over the file; hermetic
tests and one-off runs use that instead of editing the file. Standard library only: the hook path imports this.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, fields
from pathlib import Path

from skillbox.errors import ConfigError

DEFAULT_SKIP_TOOLS = ("ListMcpResourcesTool", "SlashCommand", "Skill", "TodoWrite", "AskUserQuestion")


def skillbox_home() -> Path:
    """`$SKILLBOX_HOME`, else `$CLAUDE_PLUGIN_DATA` (the plugin's data dir, survives updates), else `~/.skillbox`."""
    for name in ("SKILLBOX_HOME", "CLAUDE_PLUGIN_DATA"):
        value = os.environ.get(name, "").strip()
        if value:
            return Path(value).expanduser()
    return Path.home() / ".skillbox"


def db_path(home: Path | None = None) -> Path:
    return (home or skillbox_home()) / "memory.db"


@dataclass
class MemSettings:
    """Every memory setting with its default. Field comments are the documentation users see in `stats --json`."""

    # Token budget of the SessionStart context block (tokens ~ chars / 4).
    context_max_tokens: int = 1500
    # How many recent turn summaries and observations the context block considers.
    context_summaries: int = 6
    context_observations: int = 40
    # Raw tool inputs/outputs longer than this (characters, per field) keep their head and tail only.
    event_max_chars: int = 8000
    # Raw events are pruned after this many days; observations and summaries after `retention_days`. 0 = keep.
    events_retention_days: int = 30
    retention_days: int = 0
    # `prune` (and the automatic check at session end) shrinks the database below this size.
    max_db_mb: int = 512
    # Project names (or project root paths) matching one of these globs are never recorded.
    excluded_projects: list[str] = field(default_factory=list)
    # Tools whose calls are not recorded at all.
    skip_tools: list[str] = field(default_factory=lambda: list(DEFAULT_SKIP_TOOLS))
    # Path prefix -> project name, for folders that should share (or split) memory differently from git.
    project_overrides: dict[str, str] = field(default_factory=dict)
    # Redact API keys, tokens, private keys and URL passwords before storage.
    redact_secrets: bool = True
    # Optional external summarizer: a command run once at session end with the session's JSON on stdin.
    # Empty = off. It never runs per tool call and its own sessions are never recorded.
    summarizer_command: list[str] = field(default_factory=list)
    summarizer_timeout: int = 120

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _coerce(name: str, default, value, origin: str):
    """Convert a file or env value to the type of the default; a wrong type is a ConfigError naming the key."""
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("1", "true", "yes", "on", "0", "false", "no", "off"):
            return value.strip().lower() in ("1", "true", "yes", "on")
    elif isinstance(default, int):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            return int(value)
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


def load_settings(home: Path | None = None, *, create: bool = True) -> MemSettings:
    """Read settings.json (writing the defaults first if it is missing), then apply env overrides."""
    home = home or skillbox_home()
    path = home / "settings.json"
    settings = MemSettings()
    defaults = settings.to_dict()
    data: dict = {}
    if path.exists():
        try:
            data = json.loads(path.read_text(encoding="utf-8") or "{}")
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


def _write_defaults(path: Path, defaults: dict) -> None:
    """Create settings.json atomically and only if absent; concurrent hooks creating it at once are harmless."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".settings.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(defaults, indent=2) + "\n", encoding="utf-8")
        try:
            os.link(tmp, path)  # never replaces a file someone wrote meanwhile
        except FileExistsError:
            pass
        finally:
            tmp.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only home still works with defaults
