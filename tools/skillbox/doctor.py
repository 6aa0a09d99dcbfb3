"""`skillbox doctor`: is this installation able to work, and if not, what exactly to do about it.

Each check looks at one layer a user can fix on their own: the Python running skillbox, the packages it needs,
the virtualenv the plugin launcher (`bin/skillbox`) manages, the plugin's manifests, skills and commands, the
memory hooks, and where the memory database lives. Every issue carries one fix line. Checks never modify
anything: doctor only reads (and probes writability with a temporary file that it removes).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path

from skillbox import __version__

MIN_PYTHON = (3, 11)
# The launcher's contract (bin/skillbox): the venv lives at $SKILLBOX_VENV, else $CLAUDE_PLUGIN_DATA/venv, else
# ~/.skillbox/venv; the stamp "skillbox <version> pyproject <checksum>" is written last, after a health check; a
# failed build leaves <venv>.failed and its output in <venv>.log.
LAUNCHER_STAMP = ".skillbox-stamp"
HOOK_EVENTS = {
    "SessionStart",
    "Setup",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "SubagentStart",
    "SubagentStop",
    "Stop",
    "StopFailure",
    "PreCompact",
    "PostCompact",
    "SessionEnd",
}
HOOK_TYPES = {"command", "prompt", "agent", "http", "mcp_tool"}
HOOK_TIMEOUT_MAX = 600  # seconds; Claude Code's own default for command hooks
PLUGIN_ROOT_VAR = "${CLAUDE_PLUGIN_ROOT}"


@dataclass
class Issue:
    """Something wrong, and the one thing to do about it. `severity` is "fail" (broken) or "warn"."""

    severity: str
    message: str
    fix: str


@dataclass
class Check:
    name: str
    summary: str
    issues: list[Issue] = field(default_factory=list)

    @property
    def status(self) -> str:
        severities = {issue.severity for issue in self.issues}
        return "fail" if "fail" in severities else "warn" if severities else "ok"

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "status": self.status,
            "summary": self.summary,
            "issues": [asdict(i) for i in self.issues],
        }


@dataclass
class DoctorReport:
    checks: list[Check]

    @property
    def ok(self) -> bool:
        return all(check.status != "fail" for check in self.checks)

    def as_dict(self) -> dict:
        return {"ok": self.ok, "checks": [check.as_dict() for check in self.checks]}


# ---- where things are -----------------------------------------------------------------------------------------


def locate_plugin_root(explicit: Path | None = None) -> Path | None:
    """The plugin this skillbox belongs to: explicit, `$CLAUDE_PLUGIN_ROOT`, the source checkout, the working folder."""
    from skillbox.skills.validate import find_plugin_root

    if explicit is not None:
        return explicit.resolve()
    candidates = []
    if os.environ.get("CLAUDE_PLUGIN_ROOT"):
        candidates.append(Path(os.environ["CLAUDE_PLUGIN_ROOT"]))
    candidates += [Path(__file__).resolve().parents[2], Path.cwd()]
    for candidate in candidates:
        if candidate.is_dir() and (root := find_plugin_root(candidate)) is not None:
            return root
    return None


def launcher_venv() -> Path:
    """The launcher's rule: $SKILLBOX_VENV, else the plugin data folder's venv/, else ~/.skillbox/venv."""
    if os.environ.get("SKILLBOX_VENV"):
        return Path(os.environ["SKILLBOX_VENV"]).expanduser()
    data = plugin_data_folder()
    return data / "venv" if data is not None else Path.home() / ".skillbox" / "venv"


def plugin_data_folder() -> Path | None:
    """The plugin data folder as bin/skillbox finds it: $CLAUDE_PLUGIN_DATA (hooks), $SKILLBOX_PLUGIN_DATA (the
    agent's Bash tool, exported at SessionStart), else the folder ~/.skillbox/plugin-data points to."""
    from skillbox.mem.settings import POINTER

    for name in ("CLAUDE_PLUGIN_DATA", "SKILLBOX_PLUGIN_DATA"):
        if os.environ.get(name, "").strip():
            return Path(os.environ[name].strip()).expanduser()
    pointed = _pointer_target(Path.home() / POINTER)
    return pointed if pointed is not None and pointed.is_dir() else None


def _pointer_target(pointer: Path) -> Path | None:
    try:
        line = pointer.read_text(encoding="utf-8").splitlines()[0].strip()
    except (OSError, UnicodeDecodeError, IndexError):
        return None
    return Path(line) if line.startswith("/") else None


def memory_db_path() -> Path:
    """Where `skillbox mem` keeps its database; the rule itself lives in `skillbox.mem.settings`."""
    from skillbox.mem.settings import db_path

    return Path(db_path())


# ---- checks ---------------------------------------------------------------------------------------------------


def check_python(version_info: tuple[int, ...] = tuple(sys.version_info[:3])) -> Check:
    shown = ".".join(map(str, version_info[:3]))
    check = Check("python", f"Python {shown} at {sys.executable}")
    if tuple(version_info[:2]) < MIN_PYTHON:
        need = ".".join(map(str, MIN_PYTHON))
        check.issues.append(
            Issue("fail", f"Python {shown} is too old; skillbox needs {need}+", f"install Python {need} or newer")
        )
    return check


def declared_requirements(plugin_root: Path | None) -> list[str]:
    """The runtime requirements: from the plugin's pyproject.toml when present, else the installed metadata."""
    if plugin_root is not None and (plugin_root / "pyproject.toml").is_file():
        with (plugin_root / "pyproject.toml").open("rb") as handle:
            return list(tomllib.load(handle).get("project", {}).get("dependencies", []))
    try:
        requires = metadata.requires("skillbox") or []
    except metadata.PackageNotFoundError:
        return []
    return [requirement for requirement in requires if "extra ==" not in requirement]


def check_dependencies(plugin_root: Path | None, requirements: list[str] | None = None) -> Check:
    from packaging.requirements import InvalidRequirement, Requirement

    requirements = declared_requirements(plugin_root) if requirements is None else requirements
    check = Check("dependencies", f"{len(requirements)} declared runtime dependencies")
    reinstall = "reinstall skillbox: `pip install <plugin root>` (or delete the launcher venv so it is rebuilt)"
    try:
        installed = metadata.version("skillbox")
        if installed != __version__:
            message = f"installed skillbox metadata says {installed}, the code is {__version__}"
            check.issues.append(Issue("warn", message, reinstall))
    except metadata.PackageNotFoundError:
        pass  # running from a source checkout on PYTHONPATH
    for text in requirements:
        try:
            requirement = Requirement(text)
        except InvalidRequirement:
            check.issues.append(Issue("fail", f"cannot parse requirement {text!r}", "fix pyproject.toml"))
            continue
        if requirement.marker is not None and not requirement.marker.evaluate():
            continue
        try:
            version = metadata.version(requirement.name)
        except metadata.PackageNotFoundError:
            check.issues.append(Issue("fail", f"{requirement.name} is not installed (needs {text})", reinstall))
            continue
        if requirement.specifier and not requirement.specifier.contains(version, prereleases=True):
            check.issues.append(Issue("fail", f"{requirement.name} {version} does not satisfy {text}", reinstall))
    return check


def read_plugin_version(plugin_root: Path | None) -> str | None:
    try:
        return json.loads((plugin_root / ".claude-plugin" / "plugin.json").read_text())["version"]
    except (TypeError, OSError, ValueError, KeyError):
        return None


def expected_stamp(plugin_root: Path | None) -> str | None:
    """The stamp bin/skillbox writes for this plugin: "skillbox <version> pyproject <cksum of pyproject.toml>".

    `cksum` is run rather than reimplemented so the string is byte-for-byte the launcher's; None when the plugin
    root, its pyproject.toml or `cksum` is missing.
    """
    version = read_plugin_version(plugin_root)
    if version is None or not (plugin_root / "pyproject.toml").is_file() or shutil.which("cksum") is None:
        return None
    with (plugin_root / "pyproject.toml").open("rb") as handle:
        result = subprocess.run(["cksum"], stdin=handle, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        return None
    return f"skillbox {version} pyproject {result.stdout.strip()}"


def check_launcher_venv(plugin_root: Path | None, venv: Path | None = None) -> Check:
    venv = launcher_venv() if venv is None else venv
    rebuild = f"rm -rf '{venv}' and run `skillbox --bootstrap` (bin/skillbox rebuilds it)"
    check = Check("launcher-venv", f"managed virtualenv at {venv}")
    failed = venv.with_name(venv.name + ".failed")
    log = venv.with_name(venv.name + ".log")
    if failed.exists():
        check.issues.append(Issue("fail", f"the last build failed (marker {failed})", f"read {log}, then {rebuild}"))
    if not venv.exists():
        check.summary += " (not built yet)"
        if plugin_root is not None and (plugin_root / "bin" / "skillbox").is_file():
            fix = (
                f"run `{plugin_root / 'bin' / 'skillbox'} --bootstrap` (or just use skillbox; the first call builds it)"
            )
            check.issues.append(Issue("warn", "the launcher has not built its virtualenv yet", fix))
        return check
    python = venv / "bin" / "python"
    if not python.exists():
        check.issues.append(Issue("fail", f"{python} is missing: the virtualenv is broken", rebuild))
    stamp = venv / LAUNCHER_STAMP
    if not stamp.is_file():
        check.issues.append(Issue("fail", f"{stamp} is missing: the build never finished", rebuild))
        return check
    have = (stamp.read_text(encoding="utf-8", errors="replace").splitlines() or [""])[0].strip()
    words = have.split()
    built_for = words[1] if len(words) > 1 and words[0] == "skillbox" else None
    want = expected_stamp(plugin_root)
    version = read_plugin_version(plugin_root)
    if want is not None and have != want:
        message = f"stamp {have!r} is not the current {want!r}: the next call rebuilds the virtualenv"
        check.issues.append(Issue("warn", message, "run `skillbox --bootstrap` once to rebuild it now"))
    elif want is None and version is not None and built_for != version:
        message = f"built for skillbox {built_for or '?'}, the plugin is {version}: the next call rebuilds it"
        check.issues.append(Issue("warn", message, "run `skillbox --bootstrap` once to rebuild it now"))
    else:
        check.summary += f" (built for {built_for})"
    return check


def check_plugin(plugin_root: Path | None, check_command=None) -> Check:
    from skillbox.skills.validate import validate_path

    if plugin_root is None:
        check = Check("plugin", "no plugin root found")
        fix = "run doctor from the plugin folder or pass --plugin-root DIR"
        check.issues.append(Issue("warn", "cannot check manifests, skills or commands without the plugin root", fix))
        return check
    report = validate_path(plugin_root, check_command)
    check = Check("plugin", f"{plugin_root}: {len(report.checked)} manifests, skills and commands checked")
    for problem in report.problems:
        fix = problem.fix or f"edit {problem.file} line {problem.line} (details: `skillbox skills validate --json`)"
        check.issues.append(Issue("fail", problem.render(), fix))
    return check


def _hook_path(value: str, plugin_root: Path) -> str:
    return value.replace(PLUGIN_ROOT_VAR, str(plugin_root))


def _handler_issues(handler: object, where: str, plugin_root: Path, check_command=None) -> list[Issue]:
    edit = "edit hooks/hooks.json"
    if not isinstance(handler, dict):
        return [Issue("fail", f"{where}: a hook must be an object", edit)]
    kind = handler.get("type")
    if kind not in HOOK_TYPES:
        return [
            Issue(
                "fail",
                f"{where}: unknown hook type {kind!r} (Claude Code ignores it)",
                f"{edit}: one of {sorted(HOOK_TYPES)}",
            )
        ]
    issues = []
    timeout = handler.get("timeout")
    if timeout is None:
        issues.append(
            Issue(
                "warn",
                f"{where}: no timeout, so Claude Code may wait {HOOK_TIMEOUT_MAX} s",
                f"{edit}: add a short timeout",
            )
        )
    elif isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout <= HOOK_TIMEOUT_MAX:
        issues.append(
            Issue("fail", f"{where}: timeout {timeout!r} is not a number of seconds in 1..{HOOK_TIMEOUT_MAX}", edit)
        )
    if kind != "command":
        return issues
    command = handler.get("command")
    if not isinstance(command, str) or not command.strip():
        return [*issues, Issue("fail", f"{where}: a command hook needs a 'command'", edit)]
    args = handler.get("args", [])
    if not isinstance(args, list) or not all(isinstance(arg, str) for arg in args):
        return [*issues, Issue("fail", f"{where}: 'args' must be a list of strings", edit)]
    if "args" in handler:  # exec form: `command` is one program, run without a shell
        program = command
    else:  # shell form: the first word is the program; an unquoted plugin root breaks on paths with spaces
        if re.search(r"(?<![\"'])\$\{CLAUDE_PLUGIN_ROOT\}", command):
            fix = f'{edit}: use exec form ("command": program, "args": [...]) or quote "${{CLAUDE_PLUGIN_ROOT}}/..."'
            issues.append(Issue("warn", f"{where}: unquoted ${{CLAUDE_PLUGIN_ROOT}} in a shell command", fix))
        try:
            words = shlex.split(command)
        except ValueError:
            return [*issues, Issue("fail", f"{where}: cannot parse command {command!r}", edit)]
        if not words:
            return [*issues, Issue("fail", f"{where}: a command hook needs a 'command'", edit)]
        program, args = words[0], words[1:]
    program = _hook_path(program, plugin_root)
    found = Path(program).is_file() if "/" in program else shutil.which(program) is not None
    if not found:
        issues.append(Issue("fail", f"{where}: program {program!r} not found", f"{edit} or restore {program}"))
    elif "/" in program and not os.access(program, os.X_OK):
        issues.append(Issue("fail", f"{where}: {program} is not executable", f"chmod +x {program}"))
    for arg in args:
        if PLUGIN_ROOT_VAR in arg and not Path(_hook_path(arg, plugin_root)).exists():
            issues.append(Issue("fail", f"{where}: argument {arg!r} points at a missing file", edit))
    if check_command is not None and Path(program).name == "skillbox" and args and not args[0].startswith("-"):
        for code, message in check_command(args):
            issues.append(Issue("fail", f"{where}: {message} [{code}]", f"{edit}: call an existing skillbox command"))
    return issues


def check_hooks(plugin_root: Path | None, check_command=None) -> Check:
    if plugin_root is None:
        return Check("hooks", "no plugin root found, hooks not checked")
    path = plugin_root / "hooks" / "hooks.json"
    if not path.is_file():
        return Check("hooks", f"no {path} (the plugin registers no hooks)")
    check = Check("hooks", str(path))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as err:
        check.issues.append(Issue("fail", f"hooks.json is not valid JSON: {err}", "fix the JSON in hooks/hooks.json"))
        return check
    events = data.get("hooks") if isinstance(data, dict) else None
    if not isinstance(events, dict):
        check.issues.append(
            Issue("fail", 'hooks.json has no top-level "hooks" object', 'wrap the events in {"hooks": {...}}')
        )
        return check
    count = 0
    for event, groups in events.items():
        if event not in HOOK_EVENTS:
            check.issues.append(
                Issue(
                    "fail",
                    f"unknown hook event {event!r} (never fires)",
                    f"use one of: {', '.join(sorted(HOOK_EVENTS))}",
                )
            )
            continue
        if not isinstance(groups, list):
            check.issues.append(Issue("fail", f"{event}: must be a list of matcher groups", "edit hooks/hooks.json"))
            continue
        for group_index, group in enumerate(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(handlers, list):
                check.issues.append(
                    Issue("fail", f'{event}[{group_index}]: needs a "hooks" list', "edit hooks/hooks.json")
                )
                continue
            for index, handler in enumerate(handlers):
                count += 1
                check.issues += _handler_issues(
                    handler, f"{event}[{group_index}].hooks[{index}]", plugin_root, check_command
                )
    check.summary = f"{path}: {count} hook(s) on {len(events)} event(s)"
    return check


def _writable_dir(folder: Path) -> Path | None:
    """The folder, or its nearest existing ancestor, if a file can be created there; None otherwise."""
    probe_dir = folder
    while not probe_dir.exists():
        probe_dir = probe_dir.parent
    try:
        with tempfile.NamedTemporaryFile(dir=probe_dir, prefix=".skillbox-doctor-"):
            pass
    except OSError:
        return None
    return probe_dir


def check_memory(db: Path | None = None) -> Check:
    """Where memory lives (and which rule chose it), whether the hooks and the agent's shell share it, and
    whether the file is sound: the full `integrity_check` runs here (hooks only check the header)."""
    from skillbox.mem.settings import POINTER, locate_home

    origin = "given"
    if db is None:
        home, origin = locate_home()
        db = Path(home) / "memory.db"
    check = Check("memory", f"memory database {db} (from {origin})")
    pointed = _pointer_target(Path.home() / POINTER)
    if origin in ("CLAUDE_PLUGIN_DATA", "SKILLBOX_PLUGIN_DATA", f"~/{POINTER}"):
        check.summary += "; shared by the hooks, the agent's Bash tool and `skillbox mem mcp`"
    if pointed is not None and origin != "SKILLBOX_HOME" and pointed.resolve() != db.parent.resolve():
        message = (
            f"the last plugin session's hooks used {pointed}, but this process uses {db.parent}: "
            "two memories (e.g. the plugin was run another way, such as --plugin-dir)"
        )
        check.issues.append(Issue("warn", message, f"set SKILLBOX_HOME to the one to keep (e.g. {pointed})"))
    if db.parent.exists() and not db.parent.is_dir():
        check.issues.append(Issue("fail", f"{db.parent} is a file, not a folder", "move it away or set SKILLBOX_HOME"))
        return check
    if _writable_dir(db.parent) is None:
        message = f"cannot create files in {db.parent}; memory hooks will record nothing"
        check.issues.append(Issue("fail", message, "fix its permissions or set SKILLBOX_HOME to a writable folder"))
        return check
    _report_spool_and_damage(check, db)
    _report_secret_rules(check)
    if not db.exists():
        check.summary += " (not created yet; the first hook creates it)"
        return check
    if not os.access(db, os.W_OK):
        check.issues.append(Issue("fail", f"{db} is read-only", f"chmod u+w '{db}'"))
    from skillbox.mem import cjk
    from skillbox.mem.store import check_header

    aside = f"mv '{db}' '{db}.damaged' (the next hook starts a new one)"
    problem = check_header(str(db))
    if problem:
        check.issues.append(Issue("fail", f"{db} is not a readable SQLite database: {problem}", aside))
        return check
    try:
        connection = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
        try:
            cjk.register(connection)
            tables = connection.execute("select count(*) from sqlite_master where type = 'table'").fetchone()[0]
            verdict = [row[0] for row in connection.execute("PRAGMA integrity_check(20)")]
        finally:
            connection.close()
        check.summary += f" ({db.stat().st_size // 1024} KiB, {tables} tables)"
        if verdict != ["ok"]:
            message = f"{db} is damaged: {'; '.join(verdict[:3])}"
            check.issues.append(Issue("fail", message, aside))
    except sqlite3.DatabaseError as err:
        check.issues.append(Issue("fail", f"{db} is not a readable SQLite database: {err}", aside))
    return check


def _report_secret_rules(check: Check) -> None:
    from skillbox.mem import secret_rules

    data = secret_rules.rule_set()
    if data is None:
        message = "detect-secrets is not installed: memory redacts secrets with its own few rules only"
        check.issues.append(Issue("warn", message, "pip install 'detect-secrets>=1.5' (a declared dependency)"))
    else:
        check.summary += f"; secrets redacted with detect-secrets {data['detect_secrets']} ({len(data['rules'])} rules)"


def _report_spool_and_damage(check: Check, db: Path) -> None:
    from skillbox.mem import spool
    from skillbox.mem.store import damage_notes

    waiting = spool.pending(str(db.parent))
    if waiting:
        message = f"{len(waiting)} hook events wait in {db.parent / 'spool'} (the store was busy or not ready)"
        check.issues.append(Issue("warn", message, "run `skillbox mem hook drain` (the next hook also drains it)"))
    rejected = db.parent / "spool" / "rejected"
    if rejected.is_dir() and any(rejected.iterdir()):
        message = f"some spooled hook events could not be stored; they are kept in {rejected}"
        check.issues.append(Issue("warn", message, f"see {db.parent / 'logs' / 'mem-hooks.log'} for why"))
    for note in damage_notes(str(db)):
        message = f"a damaged memory database was moved aside to {note.get('moved_to')} at {note.get('at')}"
        fix = "its records are not searchable; recover what you can with `sqlite3 FILE .recover`, then delete it"
        check.issues.append(Issue("warn", message, fix))


def run_doctor(plugin_root: Path | None = None, check_command=None) -> DoctorReport:
    """Every check; `check_command` (argv -> findings, see `skills.validate.CommandChecker`) checks the skillbox
    command lines of skills, commands and hooks against the CLI's tree, which the CLI passes in."""
    root = locate_plugin_root(plugin_root)
    return DoctorReport(
        [
            check_python(),
            check_dependencies(root),
            check_launcher_venv(root),
            check_plugin(root, check_command),
            check_hooks(root, check_command),
            check_memory(),
        ]
    )
