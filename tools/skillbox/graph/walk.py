"""Which files of a tree go into the graph, and which are skipped and why.

Ignore rules are the user's own: every `.gitignore` (nested ones apply below their folder, deeper rules win),
`.git/info/exclude` and `.skillboxignore` (gitignore syntax), matched by `pathspec`. On top of that, folders that
are never source (VCS metadata, virtualenvs, dependency and build output) are pruned, vendored folders and huge
or generated files are skipped and *reported*. Symlinked folders are followed once: a folder already visited (by
device and inode) is never entered again, so link loops end.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING

from skillbox.graph.languages import for_path
from skillbox.graph.languages.js_project import PROJECT_LANG, is_project_file

if TYPE_CHECKING:
    import pathspec

DOC_EXTENSIONS = {".md": "markdown", ".markdown": "markdown", ".rst": "rst"}
IGNORE_FILES = (".gitignore", ".skillboxignore")
# Never source code: pruned without a word.
NOISE_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        "__pycache__",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".eggs",
        "site-packages",
        ".next",
        ".nuxt",
        ".gradle",
        ".idea",
        ".vscode",
        "skillbox-out",
        "graphify-out",
    }
)
# Someone else's code or build output: skipped and counted.
VENDORED_DIRS = frozenset({"vendor", "vendors", "third_party", "thirdparty", "3rdparty", "bower_components"})
BUILD_DIRS = frozenset({"dist", "build", "target", "out", "coverage", "htmlcov", "_build"})
GENERATED_SUFFIXES = (".min.js", ".min.css", ".min.mjs", "_pb2.py", "_pb2_grpc.py", ".pb.go", ".bundle.js", ".map")
DEFAULT_MAX_BYTES = 1_000_000
_NAME = attrgetter("name")


@dataclass
class WalkResult:
    files: list[tuple[str, str, int, int]] = field(default_factory=list)  # (rel path, language, size, mtime_ns)
    skipped: dict[str, list[str]] = field(default_factory=dict)  # reason -> rel paths

    def skip(self, reason: str, rel: str) -> None:
        self.skipped.setdefault(reason, []).append(rel)


_BY_SUFFIX: dict[str, str | None] = {}  # what `language_of` answers for a suffix, but for project files


def language_of(rel: str) -> str | None:
    dot = rel.rfind(".")
    if dot < 0:
        return None
    suffix = rel[dot:]
    if (suffix == ".json" or suffix == ".yaml") and is_project_file(rel.rsplit("/", 1)[-1]):
        return PROJECT_LANG
    try:
        return _BY_SUFFIX[suffix]  # the rest depends on the suffix alone: asked once per suffix, not per file
    except KeyError:
        pass
    lang = DOC_EXTENSIONS.get(suffix.lower())
    if not lang:
        spec = for_path(rel)
        lang = spec.name if spec else None
    if len(_BY_SUFFIX) < 4096:
        _BY_SUFFIX[suffix] = lang
    return lang


def _load_spec(directory: str, present: list[str]) -> _IgnoreRules | None:
    lines: list[str] = []
    for name in present:
        try:
            with open(os.path.join(directory, name), encoding="utf-8", errors="replace") as handle:
                lines.extend(handle.read().splitlines())
        except OSError:
            continue
    return _compile(lines) if lines else None


class _IgnoreRules:
    """One ignore file's rules: pathspec decides; a single regex made of pathspec's own pattern regexes first
    tells whether any rule can match at all (most paths match none, and one search beats twenty)."""

    def __init__(self, spec: pathspec.GitIgnoreSpec):
        self.spec = spec
        self.parts = _rule_regexes(spec)
        self.any_rule = None if self.parts is None else _compiled("|".join(f"(?:{p})" for p in self.parts) or "(?!)")

    def decision(self, path: str) -> bool | None:
        if self.any_rule is not None and self.any_rule.match(path) is None:
            return None
        return self.spec.check_file(path).include


def _rule_regexes(spec: pathspec.GitIgnoreSpec) -> list[str] | None:
    """pathspec's regex of every rule (named groups made plain), or None when one is missing or takes flags:
    then pathspec is always asked."""
    import re

    parts = []
    for pattern in spec.patterns:
        if pattern.include is None:
            continue  # a blank line or comment: matches nothing
        regex = getattr(pattern, "regex", None)
        if regex is None or regex.flags & ~re.UNICODE:
            return None
        parts.append(re.sub(r"\(\?P<\w+>", "(?:", regex.pattern))
    return parts


def _compiled(pattern: str):
    import re

    try:
        return re.compile(pattern)
    except re.error:
        return None


def _compile(lines: list[str]) -> _IgnoreRules:
    import pathspec  # only when a tree has ignore files: it is most of the no-change build's import time

    return _IgnoreRules(pathspec.GitIgnoreSpec.from_lines(lines))


class _RuleStack:
    """The ignore files that apply in one folder, shallowest first (deeper rules win), and one regex over the
    path from the root that matches whenever any of their rules can match (`screen`): most entries of a tree
    match none, and one search of the whole path beats one per ignore file. Each file's part is its `any_rule`
    behind its folder's path, so the screen answers exactly what asking every file's `any_rule` would; None
    (some file has no `any_rule`, or a part would not survive the prefix) asks every file."""

    __slots__ = ("layers", "screen")

    def __init__(self, layers: tuple[tuple[str, _IgnoreRules], ...] = ()):
        self.layers = layers
        self.screen = _screen(layers) if layers else None

    def with_rules(self, base: str, rules: _IgnoreRules) -> _RuleStack:
        return _RuleStack((*self.layers, (base, rules)))

    def ignored(self, rel: str, is_dir: bool) -> bool:
        if not self.layers:
            return False
        path = rel + "/" if is_dir else rel
        if self.screen is not None and self.screen.match(path) is None:
            return False  # no rule of any file can match: every decision is None
        decision = None
        for base, rules in self.layers:
            result = rules.decision(path[len(base) + 1 :] if base else path)
            if result is not None:
                decision = result
        return bool(decision)


ANY_FOLDERS = "(?:.+/)?"  # how pathspec starts the regex of a rule without a slash: at any depth


def _screen(layers: tuple[tuple[str, _IgnoreRules], ...]):
    """The regex `_RuleStack.screen`, or None. pathspec's regexes are anchored at the start of the path relative
    to their file (a leading `^`, and `match` anchors anyway): behind `re.escape(base + "/")` each must start
    right after the prefix, so a regex with an anchor or lookbehind anywhere but its start keeps the slow path.
    The rules of one file that match at any depth share one `(?:.+/)?` (a match of the whole exists exactly
    when one of them matches): the regex engine then scans the path for its folders once, not once per rule."""
    import re

    alternatives = []
    for base, rules in layers:
        if rules.parts is None or rules.any_rule is None:
            return None
        anywhere, anchored = [], []
        for part in rules.parts:
            part = part[1:] if part.startswith("^") else part
            if "^" in part.replace("[^", "") or "\\A" in part or "(?<" in part:
                return None
            if part.startswith(ANY_FOLDERS):
                anywhere.append(f"(?:{part[len(ANY_FOLDERS) :]})")
            else:
                anchored.append(f"(?:{part})")
        if anywhere:
            anchored.append(ANY_FOLDERS + "(?:" + "|".join(anywhere) + ")")
        if anchored and base:
            alternatives.append(re.escape(base + "/") + "(?:" + "|".join(anchored) + ")")
        elif anchored:
            alternatives.extend(anchored)
    return _compiled("|".join(alternatives) or "(?!)")


def walk_tree(
    root: Path, max_bytes: int = DEFAULT_MAX_BYTES, exclude: tuple[Path, ...] = (), on_file=None
) -> WalkResult:
    """The files of `root` that go into the graph, and the skipped ones with their reasons; `on_file(lang)` is
    told of each file taken, as the walk goes (`cold_walk` counts languages with it)."""
    result = WalkResult()
    root_str = os.path.abspath(root)
    excluded = set()
    for path in exclude:
        try:
            st = os.stat(path)
            excluded.add((st.st_dev, st.st_ino))
        except OSError:
            pass
    visited: set[tuple[int, int]] = set()
    root_specs = _RuleStack()
    info_exclude = _load_info_exclude(root_str)
    if info_exclude is not None:
        root_specs = root_specs.with_rules("", info_exclude)

    def visit(abs_dir: str, rel_dir: str, specs: _RuleStack) -> None:
        try:
            st = os.stat(abs_dir)
        except OSError:
            result.skip("unreadable", rel_dir or ".")
            return
        key = (st.st_dev, st.st_ino)
        if key in visited or key in excluded:
            return  # a symlink loop, a second link to the same folder, or the output folder
        visited.add(key)
        try:
            with os.scandir(abs_dir) as it:
                entries = sorted(it, key=_NAME)
        except OSError:
            result.skip("unreadable", rel_dir or ".")
            return
        present = [e.name for e in entries if e.name in IGNORE_FILES]
        if present:
            own = _load_spec(abs_dir, present)
            if own is not None:
                specs = specs.with_rules(rel_dir, own)
        for entry in entries:
            name = entry.name
            rel = f"{rel_dir}/{name}" if rel_dir else name
            try:
                is_dir = entry.is_dir()
            except OSError:
                continue
            if is_dir:
                if entry.is_symlink():
                    linked.append((entry.path, rel, specs))
                    continue
                if name in NOISE_DIRS or specs.ignored(rel, True):
                    continue
                if name in VENDORED_DIRS:
                    result.skip("vendored", rel + "/")
                    continue
                if name in BUILD_DIRS and rel_dir == "":
                    result.skip("build_output", rel + "/")
                    continue
                visit(entry.path, rel, specs)
                continue
            lang = language_of(name)
            if lang is None or specs.ignored(rel, False):
                continue
            if name.endswith(GENERATED_SUFFIXES):
                result.skip("generated", rel)
                continue
            try:
                st = entry.stat()
            except OSError:
                result.skip("unreadable", rel)
                continue
            if not stat.S_ISREG(st.st_mode):
                continue
            if st.st_size > max_bytes:
                result.skip("too_large", rel)
                continue
            result.files.append((rel, lang, st.st_size, st.st_mtime_ns))
            if on_file is not None:
                on_file(lang)

    # Real folders first, symlinked ones afterwards: a link never claims files under its own name while the
    # real folder is in the tree, and a folder reached twice is entered once.
    linked: list[tuple[str, str, _RuleStack]] = []
    visit(root_str, "", root_specs)
    while linked:
        abs_dir, rel, specs = linked.pop(0)
        name = rel.rsplit("/", 1)[-1]
        if name in NOISE_DIRS or name in VENDORED_DIRS or specs.ignored(rel, True):
            continue
        visit(abs_dir, rel, specs)
    result.files.sort()
    for paths in result.skipped.values():
        paths.sort()
    return result


def _load_info_exclude(root: str) -> _IgnoreRules | None:
    try:
        with open(os.path.join(root, ".git", "info", "exclude"), encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return None
    return _compile(lines) if any(line.strip() for line in lines) else None
