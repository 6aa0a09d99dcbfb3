"""Validate a plugin root, one skill folder, or one slash command file.

What is checked, and why it matters once the bundle is installed:
- SKILL.md: Agent Skills frontmatter (the table in `rules.py`), parsed strictly so every Agent Skills client
  accepts it; no BOM (it hides the frontmatter); body within the line budget; every path it mentions exists and
  stays inside the skill; every `skillbox ...` line it shows is a real command with real options.
- commands/*.md: the same, with Claude Code's command keys allowed instead.
- .claude-plugin/plugin.json and marketplace.json: see `manifests.py`.
"""

from __future__ import annotations

import importlib
import os
import posixpath
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from skillbox.errors import InvalidInputError, NotFoundError
from skillbox.skills import mdscan, rules
from skillbox.skills.frontmatter import BOM, Document, FrontmatterError, parse_document
from skillbox.skills.manifests import check_marketplace_manifest, check_plugin_manifest
from skillbox.skills.problems import Problem

SKILL_FILENAMES = ("SKILL.md", "skill.md")

# argv -> findings against a CLI's command tree (`clitree.check_command_line` bound to a tree; the CLI makes one
# with `skillbox.cli.tree.command_checker`). Without one, `skillbox ...` lines are not checked.
CommandChecker = Callable[[tuple[str, ...]], list[rules.Finding]]

# More checks over the markdown body of every skill and command: name -> "module:function", imported on use.
# A function takes (body text, file line of the body's first line) and returns (line, code, message) tuples; build
# it on `mdscan` (e.g. every lint code a skill cites must exist). Add a line here to add a check.
BODY_CHECKS: dict[str, str] = {}


@dataclass
class ValidationReport:
    """What was checked and what is wrong; `ok` when nothing is."""

    target: str
    kind: str  # "plugin" | "skill" | "command"
    checked: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict:
        return {
            "ok": self.ok,
            "target": self.target,
            "kind": self.kind,
            "checked": self.checked,
            "problemCount": len(self.problems),
            "problems": [problem.as_dict() for problem in self.problems],
        }


@dataclass
class ValidationContext:
    """Where relative names are shown from, where `${CLAUDE_PLUGIN_ROOT}` points, how commands are checked."""

    base: Path
    plugin_root: Path | None
    check_command: CommandChecker | None = None

    def shown(self, path: Path) -> str:
        try:
            return path.resolve().relative_to(self.base.resolve()).as_posix()
        except ValueError:
            return str(path)


def find_plugin_root(start: Path) -> Path | None:
    """The nearest folder at or above `start` that holds `.claude-plugin/`."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / ".claude-plugin").is_dir():
            return folder
    return None


def default_plugin_root(cwd: Path | None = None) -> Path:
    """The plugin root to validate when no PATH is given: around the working folder, else this plugin's own root."""
    candidates = [find_plugin_root(cwd or Path.cwd())]
    env_root = os.environ.get("CLAUDE_PLUGIN_ROOT")
    if env_root:
        candidates.append(find_plugin_root(Path(env_root)))
    candidates.append(find_plugin_root(Path(__file__).resolve().parents[3]))
    for candidate in candidates:
        if candidate is not None:
            return candidate
    raise NotFoundError("no plugin root (a folder with .claude-plugin/) here or above; pass PATH")


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _path_problems(doc_path: Path, body: str, first_line: int, home: Path, ctx: ValidationContext) -> list[Problem]:
    """Mentioned paths must exist; relative ones may not leave `home` (the skill folder, or the plugin root)."""
    problems = []
    shown = ctx.shown(doc_path)
    for mention in mdscan.find_path_mentions(body, first_line):
        if mention.from_plugin_root:
            if ctx.plugin_root is None:
                continue
            base, limit, label = ctx.plugin_root, ctx.plugin_root, "the plugin root"
        else:
            base, limit, label = doc_path.parent, home, "the skill" if home != ctx.plugin_root else "the plugin"
        target = posixpath.normpath(posixpath.join(base.as_posix(), mention.path))
        if not _inside(target, posixpath.normpath(limit.as_posix())):
            problems.append(
                Problem(
                    shown,
                    mention.line,
                    "path_outside",
                    f"'{mention.path}' points outside {label}",
                    fix="copy what it needs inside, or call the skillbox CLI instead",
                )
            )
        elif not Path(target).exists():
            problems.append(Problem(shown, mention.line, "path_missing", f"'{mention.path}' does not exist"))
    return problems


def _command_problems(doc_path: Path, body: str, first_line: int, ctx: ValidationContext) -> list[Problem]:
    problems = []
    if ctx.check_command is None:
        return problems
    shown = ctx.shown(doc_path)
    for mention in mdscan.find_command_mentions(body, first_line):
        for code, message in ctx.check_command(mention.argv):
            problems.append(Problem(shown, mention.line, code, message))
    return problems


def _extra_body_problems(doc_path: Path, doc: Document, ctx: ValidationContext) -> list[Problem]:
    problems = []
    for target in BODY_CHECKS.values():
        module_name, function = target.split(":")
        check = getattr(importlib.import_module(module_name), function)
        for line, code, message in check(doc.body, doc.body_first_line):
            problems.append(Problem(ctx.shown(doc_path), line, code, message))
    return problems


def _read_markdown(path: Path, shown: str) -> tuple[Document | None, list[Problem]]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None, [Problem(shown, 1, "not_utf8", "file is not UTF-8 text")]
    problems = []
    if text.startswith(BOM):
        problems.append(
            Problem(
                shown,
                1,
                "bom",
                "file starts with a UTF-8 byte order mark, which hides the frontmatter",
                fix="save without BOM",
            )
        )
        text = text[1:]
    try:
        return parse_document(text), problems
    except FrontmatterError as err:
        return None, [*problems, Problem(shown, err.line, err.code, str(err))]


def _field_problems(doc: Document, table: tuple[rules.FieldRule, ...], shown: str, folder: str | None) -> list[Problem]:
    problems = []
    for key, (code, message) in rules.check_fields(doc.data, table, folder):
        line = doc.key_lines.get(key, 1) if key is not None else 1
        problems.append(Problem(shown, line, code, message))
    return problems


def check_skill(skill_dir: Path, ctx: ValidationContext) -> list[Problem]:
    """All problems of one skill folder."""
    skill_md = next((skill_dir / name for name in SKILL_FILENAMES if (skill_dir / name).is_file()), None)
    if skill_md is None:
        message = "no SKILL.md in this skill folder (nor is it a plugin root with .claude-plugin/, skills/, commands/)"
        return [Problem(ctx.shown(skill_dir), 1, "skill_md_missing", message)]
    shown = ctx.shown(skill_md)
    doc, problems = _read_markdown(skill_md, shown)
    if doc is None:
        return problems
    problems += _field_problems(doc, rules.SKILL_FIELDS, shown, skill_dir.name)
    if doc.body_line_count > rules.BODY_MAX_LINES:
        message = f"body has {doc.body_line_count} lines; the budget is {rules.BODY_MAX_LINES}"
        problems.append(
            Problem(shown, doc.body_first_line, "body_too_long", message, fix="move detail into references/ files")
        )
    problems += _path_problems(skill_md, doc.body, doc.body_first_line, skill_dir, ctx)
    problems += _command_problems(skill_md, doc.body, doc.body_first_line, ctx)
    problems += _extra_body_problems(skill_md, doc, ctx)
    return problems


def check_command_file(path: Path, ctx: ValidationContext) -> list[Problem]:
    """All problems of one `commands/<name>.md` slash command."""
    shown = ctx.shown(path)
    doc, problems = _read_markdown(path, shown)
    if doc is None:
        return problems
    problems += _field_problems(doc, rules.COMMAND_FIELDS, shown, None)
    home = ctx.plugin_root or path.parent
    problems += _path_problems(path, doc.body, doc.body_first_line, home, ctx)
    problems += _command_problems(path, doc.body, doc.body_first_line, ctx)
    problems += _extra_body_problems(path, doc, ctx)
    return problems


def skill_dirs(root: Path) -> list[Path]:
    folder = root / "skills"
    return sorted(child for child in folder.iterdir() if child.is_dir()) if folder.is_dir() else []


def command_files(root: Path) -> list[Path]:
    folder = root / "commands"
    return sorted(folder.glob("*.md")) if folder.is_dir() else []


def check_plugin(root: Path, ctx: ValidationContext) -> ValidationReport:
    report = ValidationReport(str(root), "plugin")
    manifest_dir = root / ".claude-plugin"
    plugin = None
    for name in ("plugin.json", "marketplace.json"):
        if not (manifest_dir / name).is_file():
            report.problems.append(
                Problem(ctx.shown(manifest_dir / name), 1, "manifest_missing", f".claude-plugin/{name} is missing")
            )
            continue
        report.checked.append(ctx.shown(manifest_dir / name))
        if name == "plugin.json":
            plugin, found = check_plugin_manifest(root)
        else:
            found = check_marketplace_manifest(root, plugin)
        report.problems += found
    for skill_dir in skill_dirs(root):
        report.checked.append(ctx.shown(skill_dir))
        report.problems += check_skill(skill_dir, ctx)
    for path in command_files(root):
        report.checked.append(ctx.shown(path))
        report.problems += check_command_file(path, ctx)
    return report


def validate_path(path: Path | None = None, check_command: CommandChecker | None = None) -> ValidationReport:
    """Validate what `path` names: a plugin root, a skill folder or its SKILL.md, or a command `.md` file.

    Without a path, the plugin root around the working folder (see `default_plugin_root`). `check_command`
    checks every `skillbox ...` line against a command tree (the CLI passes its own); without it they are not
    checked.
    """
    checker = check_command
    # Absolute from here on, so relative targets compare correctly with the (resolved) plugin root.
    target = default_plugin_root() if path is None else Path(path).resolve()
    if not target.exists():
        raise NotFoundError(f"{target} does not exist")
    if target.is_file():
        if target.name in SKILL_FILENAMES:
            target = target.parent
        elif target.suffix == ".md":
            ctx = ValidationContext(target.parent, find_plugin_root(target.parent), checker)
            report = ValidationReport(str(target), "command", [ctx.shown(target)])
            report.problems = check_command_file(target, ctx)
            return _sorted(report)
        elif target.name in ("plugin.json", "marketplace.json") and target.parent.name == ".claude-plugin":
            target = target.parent.parent
        else:
            raise InvalidInputError(f"{target} is not a SKILL.md, a command .md file or a .claude-plugin manifest")
    is_skill = any((target / name).is_file() for name in SKILL_FILENAMES)
    if not is_skill and any((target / name).is_dir() for name in (".claude-plugin", "skills", "commands")):
        return _sorted(check_plugin(target, ValidationContext(target, target, checker)))
    # Anything else is taken as a skill folder, so a folder without SKILL.md gets a finding, as with agentskills.
    ctx = ValidationContext(target.parent, find_plugin_root(target), checker)
    report = ValidationReport(str(target), "skill", [ctx.shown(target)])
    report.problems = check_skill(target, ctx)
    return _sorted(report)


def _sorted(report: ValidationReport) -> ValidationReport:
    report.problems.sort(key=lambda problem: (problem.file, problem.line, problem.code))
    return report
