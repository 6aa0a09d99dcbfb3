"""Install skillbox into another agent, and take it out again exactly.

`plan_install` and `plan_uninstall` compute every file change first (nothing touches the disk), `apply` then
writes them all or none: each target is checked for write permission before the first write, each file is
replaced atomically through skillbox.atomic (temp file + rename; a symlinked config is written through to its
target and stays a link; an existing file keeps its mode), and a failure midway — any exception, Ctrl-C included —
puts back what was already written. The backups and a "pending" install record are written before the first
edit of a user's file, so even a killed process leaves a record: the next install finishes it, the next uninstall
undoes it.

What makes uninstall exact is the install record, kept outside the user's folders in
`$SKILLBOX_HOME/installs/<platform>-<scope>-<id>/`: the original bytes of every config file we changed (the
backup), the hash of what we wrote, the entries we own, and the hash of every skill file we copied. On uninstall, a
config file still holding exactly what we wrote gets its original bytes back (byte-identical; deleted if it did
not exist); one the user changed since keeps those changes and loses only our entries. Skill files are removed
only while unmodified; folders we created go when empty.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skillbox import atomic
from skillbox.errors import InvalidInputError, SkillboxError, UsageError
from skillbox.install import configfile
from skillbox.install.platforms import MCP_SERVERS, PLATFORMS, Platform, known

SKIP_PARTS = {"__pycache__", ".DS_Store"}
RECORD_VERSION = 1
PRIVATE = 0o600  # backups and records: a copy of a private config must not be readable by others


class InstallError(SkillboxError):
    """A write that could not happen (permissions, a file in the way); nothing was changed."""


@dataclass
class FileChange:
    path: Path
    before: bytes | None  # None: the file does not exist
    after: bytes | None  # None: delete it
    role: str  # skill | mcp | hooks | config | record
    mode: int | None = None  # None: keep the existing file's mode (a new one gets 0o666 & ~umask)

    @property
    def action(self) -> str:
        if self.before == self.after:
            return "unchanged"
        if self.after is None:
            return "delete"
        return "create" if self.before is None else "update"


@dataclass
class Plan:
    platform: Platform
    scope: str
    root: Path
    record_dir: Path
    changes: list[FileChange] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    remove_dirs: list[Path] = field(default_factory=list)  # folders we made, dropped once empty (uninstall)
    remove_parents: list[Path] = field(default_factory=list)  # folders dropped only if empty themselves
    pending: bytes | None = None  # the install record marked pending, written before the first config edit

    def real_changes(self) -> list[FileChange]:
        return [c for c in self.changes if c.action != "unchanged"]


# ---- where things go ------------------------------------------------------------------------------------------


def get_platform(name: str) -> Platform:
    try:
        return PLATFORMS[name]
    except KeyError:
        raise UsageError(f"unknown platform '{name}' (known: {known()})") from None


def project_root(start: Path) -> Path:
    """The repository around `start` (where agents look for .codex/, .github/...), else `start` itself."""
    start = start.resolve()
    return next((p for p in (start, *start.parents) if (p / ".git").exists()), start)


def resolve(location, scope: str, root: Path, env: dict[str, str]) -> Path | None:
    rel = location.project if scope == "project" else location.user
    if rel is None:
        return None
    if scope == "user" and location.env and env.get(location.env):
        _first, _, rest = rel.partition("/")
        return Path(env[location.env]).expanduser() / rest
    return root / rel


def records_home(env: dict[str, str]) -> Path:
    """Where install records live: `$SKILLBOX_HOME`, else `~/.skillbox` — pinned on purpose, NOT the memory
    home's rule (skillbox.mem.settings.locate_home). That rule follows $CLAUDE_PLUGIN_DATA /
    $SKILLBOX_PLUGIN_DATA / the ~/.skillbox/plugin-data pointer, which differ between a terminal, the agent's Bash
    tool and a hook, move with plugin versions and vanish when the Claude plugin is removed; an install record must
    be found by the uninstall that runs later from any of those, or it cannot restore the user's configs."""
    value = env.get("SKILLBOX_HOME", "").strip()
    if value:
        return Path(value).expanduser()
    return Path(env.get("HOME") or Path.home()) / ".skillbox"


def default_launcher() -> list[str]:
    """The command that runs this skillbox: its console script beside this Python, else `python -m skillbox`."""
    beside = Path(sys.executable).parent / "skillbox"
    if beside.is_file():
        return [str(beside)]
    found = shutil.which("skillbox")
    return [found] if found else [sys.executable, "-m", "skillbox"]


def find_skills_source(explicit: Path | None, env: dict[str, str], cwd: Path) -> Path:
    """The plugin's skills/ folder: --source, CLAUDE_PLUGIN_ROOT, the checkout around cwd or around this code."""
    candidates = [explicit] if explicit else []
    if not explicit and env.get("CLAUDE_PLUGIN_ROOT"):
        candidates.append(Path(env["CLAUDE_PLUGIN_ROOT"]))
    if not explicit:
        candidates += [p for p in (cwd.resolve(), *cwd.resolve().parents)][:6]
        candidates.append(Path(__file__).resolve().parents[3])
    for root in candidates:
        if (root / "skills").is_dir() and (root / ".claude-plugin" / "plugin.json").is_file():
            return root / "skills"
    where = explicit or cwd
    raise InvalidInputError(
        f"no skillbox skills/ folder found from {where}",
        hint="run from a clone of the skillbox repository, or pass --source PATH-TO-THE-CLONE",
    )


# ---- what we write into configs -------------------------------------------------------------------------------


def mcp_entries(platform: Platform, launcher: list[str]) -> dict[str, dict]:
    command, *prefix = launcher
    entries = {}
    for name, args in MCP_SERVERS.items():
        style = platform.mcp.style
        if style == "opencode":
            entries[name] = {"type": "local", "command": [command, *prefix, *args], "enabled": True}
        elif style == "copilot":
            entries[name] = {"type": "local", "command": command, "args": [*prefix, *args], "tools": ["*"]}
        else:
            entries[name] = {"command": command, "args": [*prefix, *args]}
    return entries


def hook_entries(platform: Platform, launcher: list[str]) -> dict[str, dict]:
    """The agent's event name -> the one hook group (or hook) skillbox adds for it."""
    spec = platform.hooks
    entries = {}
    for ours, theirs in spec.events.items():
        command = shlex.join([*launcher, "mem", "hook", ours])
        if spec.style == "cursor":
            entries[theirs] = {"command": command}
        elif spec.style == "copilot":
            entries[theirs] = {"type": "command", "bash": command, "timeoutSec": 10}
        else:
            entries[theirs] = {"hooks": [{"type": "command", "command": command}]}
    return entries


@dataclass
class Owned:
    """The entries skillbox owns inside one config file (kept in the install record)."""

    tables: dict[str, list[str]] = field(default_factory=dict)  # dotted table path -> keys we set
    previous: dict[str, Any] = field(default_factory=dict)  # "table\x00key" -> the value it replaced, if any
    hooks: dict[str, dict] = field(default_factory=dict)  # dotted list path -> the item we appended
    flags: dict[str, Any] = field(default_factory=dict)  # dotted key -> previous value (None: was missing)

    def as_json(self) -> dict:
        return {"tables": self.tables, "previous": self.previous, "hooks": self.hooks, "flags": self.flags}

    @classmethod
    def from_json(cls, data: dict) -> Owned:
        return cls(data.get("tables", {}), data.get("previous", {}), data.get("hooks", {}), data.get("flags", {}))


def _plain(value: Any) -> Any:
    """A tomlkit value as plain Python (for comparisons and the JSON record)."""
    unwrap = getattr(value, "unwrap", None)
    return unwrap() if unwrap else value


def remove_owned(doc: Any, owned: Owned, fmt: str) -> None:
    """Take skillbox's entries out of `doc`, putting back what they replaced; empty tables we made go too."""
    for dotted, keys in owned.tables.items():
        path = tuple(dotted.split("."))
        table = configfile.get_path(doc, path)
        if table is None:
            continue
        for key in keys:
            previous = owned.previous.get(f"{dotted}\x00{key}")
            if previous is not None:
                inline = fmt == "toml" and configfile.is_inline(table)
                table[key] = configfile.to_toml_value(previous, inline=inline) if fmt == "toml" else previous
            elif key in table:
                del table[key]
        configfile.prune(doc, path)
    for dotted, item in owned.hooks.items():
        path = tuple(dotted.split("."))
        items = configfile.get_path(doc, path)
        if isinstance(items, list):
            items[:] = [existing for existing in items if _plain(existing) != item]
            if not items:
                parent = configfile.get_path(doc, path[:-1]) if len(path) > 1 else doc
                del parent[path[-1]]
                configfile.prune(doc, path[:-1])
    for dotted, previous in owned.flags.items():
        path = tuple(dotted.split("."))
        parent = configfile.get_path(doc, path[:-1])
        if parent is None:
            continue
        if previous is None:
            parent.pop(path[-1], None)
        else:
            parent[path[-1]] = previous
        configfile.prune(doc, path[:-1])


def add_owned(doc: Any, platform: Platform, roles: set[str], launcher: list[str], fmt: str) -> Owned:
    owned = Owned()
    if "mcp" in roles:
        table = configfile.ensure_table(doc, platform.mcp.key, fmt)
        dotted = ".".join(platform.mcp.key)
        for name, entry in mcp_entries(platform, launcher).items():
            if name in table:
                owned.previous[f"{dotted}\x00{name}"] = _plain(table[name])
            inline = fmt == "toml" and configfile.is_inline(table)
            table[name] = configfile.to_toml_value(entry, inline=inline) if fmt == "toml" else entry
            owned.tables.setdefault(dotted, []).append(name)
        flag = platform.hooks.feature_flag if platform.hooks else None
        if flag and "flags" in roles:
            parent = configfile.ensure_table(doc, flag[:-1], fmt)
            if _plain(parent.get(flag[-1])) is not True:
                owned.flags[".".join(flag)] = _plain(parent.get(flag[-1]))
                parent[flag[-1]] = True
    if "hooks" in roles:
        spec = platform.hooks
        if spec.style == "copilot":
            doc.clear()
            doc.update(
                {"version": 1, "hooks": {event: [item] for event, item in hook_entries(platform, launcher).items()}}
            )
        else:
            if spec.style == "cursor":
                doc.setdefault("version", 1)
            hooks = configfile.ensure_table(doc, ("hooks",), fmt)
            for event, item in hook_entries(platform, launcher).items():
                items = hooks.setdefault(event, [])
                if not isinstance(items, list):
                    raise InvalidInputError(f"hooks.{event} is not a list; nothing was written")
                if item not in items:
                    items.append(item)
                owned.hooks[f"hooks.{event}"] = item
    return owned


# ---- the install record ---------------------------------------------------------------------------------------


def record_dir(platform: Platform, scope: str, root: Path, env: dict[str, str]) -> Path:
    digest = hashlib.sha256(str(root).encode()).hexdigest()[:12]
    return records_home(env) / "installs" / f"{platform.name}-{scope}-{digest}"


def read_record(path: Path) -> dict | None:
    try:
        data = json.loads((path / "record.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as err:
        raise InvalidInputError(f"cannot read the install record {path / 'record.json'}: {err}") from None
    return data if data.get("version") == RECORD_VERSION else None


def claimed_elsewhere(path: Path, own_record_dir: Path) -> bool:
    """True when another install record (another agent, same machine) lists `path` among its skill files."""
    for other in own_record_dir.parent.glob("*/record.json"):
        if other.parent == own_record_dir:
            continue
        try:
            if str(path) in json.loads(other.read_text(encoding="utf-8")).get("skills", {}):
                return True
        except (OSError, ValueError):
            continue
    return False


def folders_made_elsewhere(own_record_dir: Path) -> set[str]:
    """Folders other install records say skillbox created: whichever install goes last removes them."""
    made: set[str] = set()
    for other in own_record_dir.parent.glob("*/record.json"):
        if other.parent != own_record_dir:
            with contextlib.suppress(OSError, ValueError):
                made.update(json.loads(other.read_text(encoding="utf-8")).get("created_dirs", []))
    return made


def _sha(data: bytes | None) -> str | None:
    return hashlib.sha256(data).hexdigest() if data is not None else None


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise InstallError(f"{path} is a folder, not a file; nothing was changed") from None
    except OSError as err:
        raise InstallError(f"cannot read {path}: {err.strerror}; nothing was changed") from None


def _missing_dirs(path: Path) -> list[str]:
    """The folders above `path` that do not exist yet (deepest last), i.e. the ones writing it would create."""
    missing = []
    parent = path.parent
    while not parent.exists():
        missing.append(str(parent))
        parent = parent.parent
    return missing[::-1]


# ---- skills ---------------------------------------------------------------------------------------------------


def skill_files(source: Path, dest: Path, python: str) -> list[tuple[Path, bytes, int]]:
    """(destination, bytes, mode) for every file of every skill; SKILL.md bodies point at the installed copy.

    Inside Claude Code a skill names its scripts as ${CLAUDE_PLUGIN_ROOT}/skills/... and runs them with the
    plugin's `skillbox-python`; other agents have neither, so those become the installed folder and this Python.
    """
    files = []
    for skill_md in sorted(source.glob("*/SKILL.md")):
        folder = skill_md.parent
        for path in sorted(folder.rglob("*")):
            rel = path.relative_to(source)
            if not path.is_file() or SKIP_PARTS & set(rel.parts) or path.suffix == ".pyc":
                continue
            data = path.read_bytes()
            if path.name == "SKILL.md":
                text = data.decode("utf-8")
                text = text.replace("${CLAUDE_PLUGIN_ROOT}/skills/", f"{dest.as_posix()}/")
                text = text.replace("skillbox-python ", f"{shlex.quote(python)} ")
                data = text.encode("utf-8")
            files.append((dest / rel, data, path.stat().st_mode & 0o777))
    return files


# ---- planning -------------------------------------------------------------------------------------------------


def _config_targets(platform: Platform, scope: str, root: Path, env: dict[str, str]) -> dict[Path, tuple[str, set]]:
    """Each config file this install touches -> (format, roles in it)."""
    targets: dict[Path, tuple[str, set]] = {}
    if platform.mcp:
        path = resolve(platform.mcp.file, scope, root, env)
        if path is not None:
            targets[path] = (platform.mcp.format, {"mcp", "flags"})
    if platform.hooks:
        path = resolve(platform.hooks.file, scope, root, env)
        if path is not None:
            fmt, roles = targets.get(path, ("json", set()))
            targets[path] = (fmt, roles | {"hooks"})
    return targets


def plan_install(
    name: str,
    scope: str,
    *,
    cwd: Path,
    env: dict[str, str],
    source: Path | None = None,
    launcher: list[str] | None = None,
    python: str | None = None,
) -> Plan:
    platform = get_platform(name)
    home = Path(env.get("HOME") or Path.home())
    root = project_root(cwd) if scope == "project" else home
    launcher = launcher or default_launcher()
    python = python or sys.executable
    skills_source = find_skills_source(source, env, cwd)
    rdir = record_dir(platform, scope, root, env)
    previous = read_record(rdir) or {}
    plan = Plan(platform, scope, root, rdir, notes=list(_gap_notes(platform, scope)))
    if previous.get("state") == "pending":
        plan.notes.append(f"an earlier install was interrupted (record {rdir}); this one completes it")
    record: dict[str, Any] = {
        "version": RECORD_VERSION, "platform": platform.name, "scope": scope, "root": str(root),
        "launcher": launcher, "configs": {}, "skills": {}, "created_dirs": list(previous.get("created_dirs", [])),
    }  # fmt: skip
    created: list[str] = record["created_dirs"]
    others_made = folders_made_elsewhere(rdir)  # a shared skills folder made by another agent's install

    # skills
    skills_dir = resolve(platform.skills, scope, root, env)
    old_skills: dict[str, dict] = previous.get("skills", {})
    new_paths = set()
    for path, data, mode in skill_files(skills_source, skills_dir, python):
        new_paths.add(str(path))
        before = _read(path)
        mine = old_skills.get(str(path))
        if before is not None and before != data and not (mine and _sha(before) == mine["sha"]):
            raise InstallError(
                f"{path} exists and differs from skillbox's copy; nothing was changed",
                hint="move it away (or remove that skill folder) and run the install again",
            )
        existed = mine["existed"] if mine else before is not None and not claimed_elsewhere(path, rdir)
        record["skills"][str(path)] = {"sha": _sha(data), "existed": existed}
        made = _missing_dirs(path) + [str(d) for d in path.parents if str(d) in others_made]
        created += [d for d in made if d not in created]
        plan.changes.append(FileChange(path, before, data, "skill", mode))
    for stale, info in old_skills.items():  # skills the source no longer has
        if stale not in new_paths and not info["existed"]:
            before = _read(Path(stale))
            if before is not None and _sha(before) == info["sha"]:
                plan.changes.append(FileChange(Path(stale), before, None, "skill"))

    # config files
    backups: list[FileChange] = []
    for path, (fmt, roles) in _config_targets(platform, scope, root, env).items():
        before = _read(path)
        old = previous.get("configs", {}).get(str(path))
        if roles == {"hooks"} and platform.hooks.style == "copilot" and before is not None and not old:
            raise InstallError(f"{path} exists and is not skillbox's; nothing was changed", hint="move it away")
        doc = configfile.load(path, fmt, before)
        try:
            if old:  # a re-install: start from the file without our earlier entries
                remove_owned(doc, Owned.from_json(old["owned"]), fmt)
            owned = add_owned(doc, platform, roles, launcher, fmt)
            after = configfile.dump(doc, fmt)
        except InvalidInputError as err:  # a key of the wrong type ('mcp_servers' is not a table): name the file
            raise InvalidInputError(f"{path}: {err}", hint=err.hint) from None
        except (ValueError, TypeError, KeyError) as err:  # a shape tomlkit cannot merge into: never a traceback
            raise InvalidInputError(
                f"{path}: cannot add skillbox's entries to it ({err}); nothing was written"
            ) from None
        for key in owned.previous:
            plan.notes.append(
                f"{path} had its own '{key.split(chr(0))[1]}' server: replaced by skillbox's, kept in the install "
                "record; uninstall puts yours back"
            )
        if before is not None and configfile.load(path, fmt, after) == configfile.load(path, fmt, before):
            after = before  # same content: leave the user's formatting alone
        entry = {"format": fmt, "owned": owned.as_json(), "written": _sha(after)}
        if old:
            entry["existed"], entry["backup"] = old["existed"], old["backup"]
            # edited by the user since our last write: its original bytes are no longer what they had, so
            # uninstall will take out only our entries instead of restoring the backup
            # (a file still holding its original bytes — an install interrupted before writing it — restores too)
            original = _read(rdir / old["backup"]) if old["backup"] else None
            untouched = before == original if old["existed"] else before is None
            entry["restore"] = old.get("restore", True) and (_sha(before) == old["written"] or untouched)
        else:
            entry["existed"] = before is not None
            entry["backup"] = None
            if before is not None:
                entry["backup"] = f"backup-{hashlib.sha256(str(path).encode()).hexdigest()[:12]}"
                backup = rdir / entry["backup"]
                backups.append(FileChange(backup, _read(backup), before, "record", PRIVATE))
        record["configs"][str(path)] = entry
        created += [d for d in _missing_dirs(path) if d not in created]
        plan.changes.append(FileChange(path, before, after, "hooks" if roles == {"hooks"} else "config"))

    if scope == "project":
        written = [str(c.path.relative_to(root)) for c in plan.real_changes() if c.role in ("config", "hooks")]
        if written:
            plan.notes.append(
                f"{', '.join(written)}: written with this machine's absolute paths "
                f"({launcher[0]}): review before committing, or add to .gitignore"
            )
    record_path = rdir / "record.json"
    record_bytes = (json.dumps(record, indent=2, ensure_ascii=False) + "\n").encode()
    if any(c.action != "unchanged" for c in plan.changes) or not previous or previous.get("state") == "pending":
        plan.changes += backups
        plan.changes.append(FileChange(record_path, _read(record_path), record_bytes, "record", PRIVATE))
        plan.pending = (json.dumps({**record, "state": "pending"}, indent=2, ensure_ascii=False) + "\n").encode()
    return plan


def _gap_notes(platform: Platform, scope: str) -> list[str]:
    notes = [gap for gap in platform.gaps]
    if platform.mcp and resolve(platform.mcp.file, scope, Path("/"), {}) is None:
        notes.insert(0, f"no MCP servers at {scope} scope for {platform.label}")
    if platform.hooks and resolve(platform.hooks.file, scope, Path("/"), {}) is None:
        notes.insert(0, f"no memory hooks at {scope} scope for {platform.label}")
    return notes


def plan_uninstall(name: str, scope: str, *, cwd: Path, env: dict[str, str]) -> Plan:
    platform = get_platform(name)
    home = Path(env.get("HOME") or Path.home())
    root = project_root(cwd) if scope == "project" else home
    rdir = record_dir(platform, scope, root, env)
    record = read_record(rdir)
    if record is None:
        raise InvalidInputError(
            f"skillbox is not installed for {platform.label} at {scope} scope in {root} (no install record in {rdir})"
        )
    plan = Plan(platform, scope, root, rdir)
    if record.get("state") == "pending":
        plan.notes.append("the install was interrupted before it finished; undoing what it had written")
    for path_str, info in record["skills"].items():
        path = Path(path_str)
        before = _read(path)
        if before is None or info["existed"]:
            continue
        if claimed_elsewhere(path, rdir):
            continue  # a shared skills folder: another agent's install still uses this file
        if _sha(before) == info["sha"]:
            plan.changes.append(FileChange(path, before, None, "skill"))
        else:
            plan.notes.append(f"kept {path}: changed since skillbox installed it")
    for path_str, info in record["configs"].items():
        path = Path(path_str)
        before = _read(path)
        original = _read(rdir / info["backup"]) if info["backup"] else None
        if before is None or (info["existed"] and before == original):
            continue  # as it was before the install (e.g. one interrupted before it reached this file)
        if _sha(before) == info["written"] and info.get("restore", True):
            if info["existed"] and original is None:
                raise InstallError(f"the backup of {path} is missing from {rdir}; nothing was changed")
            plan.changes.append(FileChange(path, before, original, "config"))
            continue
        doc = configfile.load(path, info["format"], before)
        remove_owned(doc, Owned.from_json(info["owned"]), info["format"])
        after = None if (configfile.is_empty(doc) and not info["existed"]) else configfile.dump(doc, info["format"])
        plan.changes.append(FileChange(path, before, after, "config"))
        plan.notes.append(f"{path} changed since the install: removed skillbox's entries, kept the rest")
    for leftover in sorted(rdir.iterdir()) if rdir.is_dir() else []:
        plan.changes.append(FileChange(leftover, _read(leftover), None, "record"))
    plan.remove_dirs = [Path(d) for d in sorted(record.get("created_dirs", []), key=len, reverse=True)]
    plan.remove_dirs.append(rdir)
    plan.remove_parents = [rdir.parent, rdir.parent.parent]  # installs/ and $SKILLBOX_HOME, only when empty
    return plan


# ---- applying -------------------------------------------------------------------------------------------------


def _check_writable(path: Path) -> None:
    path = atomic.write_target(path)
    probe = path if path.exists() else path.parent
    while not probe.exists():
        probe = probe.parent
    if probe != path and not probe.is_dir():
        raise InstallError(f"cannot write {path}: {probe} is a file, not a folder; nothing was changed")
    folder = probe if probe.is_dir() else probe.parent
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise InstallError(f"cannot write {path}: permission denied; nothing was changed")


def _ordered(plan: Plan, todo: list[FileChange]) -> list[FileChange]:
    """Backups, then the pending record, then the user's files, then the final record (and record deletions)."""
    backups = [c for c in todo if c.role == "record" and c.after is not None and c.path.name != "record.json"]
    last = [c for c in todo if c.role == "record" and c not in backups]
    steps = list(backups)
    final = next((c for c in last if c.path.name == "record.json" and c.after is not None), None)
    if plan.pending is not None and final is not None and final.before != plan.pending:
        steps.append(FileChange(final.path, final.before, plan.pending, "record", PRIVATE))
        final.before = plan.pending
    steps += [c for c in todo if c.role != "record"]
    return steps + last


def apply(plan: Plan) -> list[FileChange]:
    """Write every change of the plan, or none of them. Returns the changes made (without the pending record)."""
    todo = plan.real_changes()
    for change in todo:
        _check_writable(change.path)
    steps = _ordered(plan, todo)
    done: list[tuple[FileChange, int | None]] = []  # with the mode the file had, to put a deleted one back
    made_dirs: list[Path] = []
    change = steps[0] if steps else None
    try:
        for change in steps:
            before_mode = _mode(change.path)
            if change.after is None:
                change.path.unlink(missing_ok=True)
            else:
                for missing in _missing_dirs(atomic.write_target(change.path)):
                    Path(missing).mkdir(mode=0o700 if change.role == "record" else 0o777)
                    made_dirs.append(Path(missing))
                atomic.atomic_write(change.path, change.after, mode=change.mode)
            done.append((change, before_mode))
    except BaseException as err:
        _roll_back(done, made_dirs)
        if isinstance(err, OSError):
            where = err.filename or (change.path if change else "?")
            raise InstallError(f"cannot write {where}: {err.strerror}; nothing was changed") from None
        raise
    for folder in plan.remove_dirs:
        _rmdir_if_empty(folder)
    for folder in plan.remove_parents:
        with contextlib.suppress(OSError):
            folder.rmdir()
    return [c for c, _ in done if c.after != plan.pending or plan.pending is None]


def _mode(path: Path) -> int | None:
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        return None


def _roll_back(done: list[tuple[FileChange, int | None]], made_dirs: list[Path]) -> None:
    """Put back what `apply` already wrote, newest first; the pending record goes last, so a rollback that is
    itself interrupted still leaves the record the next run needs."""
    for change, mode in reversed(done):
        with contextlib.suppress(OSError):
            if change.before is None:
                change.path.unlink(missing_ok=True)
            else:
                atomic.atomic_write(change.path, change.before, mode=mode)
    for folder in reversed(made_dirs):
        _rmdir_if_empty(folder)


def _rmdir_if_empty(folder: Path) -> None:
    """Remove `folder` if it is empty. Never recursive: only folders the install created and recorded are
    passed here (deepest first), so a folder the user made inside one keeps it."""
    with contextlib.suppress(OSError):
        folder.rmdir()
