"""Apply safe autofixes in place, byte for byte.

Each fixable finding yields byte edits against the file it came from. Edits are applied from the end of the
file backwards, overlapping edits are dropped (the next round picks them up), and the file is re-linted until
nothing fixable is left (at most a few rounds), so fixes that enable other fixes converge. Every byte an edit does
not touch is preserved: line endings, indentation, encoding.
"""

from __future__ import annotations

import difflib
import stat
from pathlib import Path

from skillbox.atomic import atomic_write
from skillbox.lint.engine import LintResult, Selection, lint_paths
from skillbox.lint.records import dataclass, field
from skillbox.lint.registry import Edit, all_rules

MAX_ROUNDS = 5


@dataclass
class FixReport:
    changed: dict[Path, tuple[bytes, bytes]] = field(default_factory=dict)  # path -> (before, after)
    applied: int = 0
    result: LintResult | None = None

    def diff(self) -> str:
        chunks = []
        for path, (before, after) in sorted(self.changed.items()):
            chunks.extend(
                difflib.unified_diff(
                    before.decode("utf-8", "replace").splitlines(keepends=True),
                    after.decode("utf-8", "replace").splitlines(keepends=True),
                    fromfile=f"a/{_relative(path)}",
                    tofile=f"b/{_relative(path)}",
                )
            )
        return "".join(chunks)


def _relative(path: Path) -> str:
    """Diff headers relative to the working directory (what `git apply` / `patch -p1` expect), else as given."""
    try:
        return Path(path).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return Path(path).as_posix()


def apply_edits(source: bytes, edits: list[Edit]) -> tuple[bytes, int]:
    chosen: list[Edit] = []
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        if chosen and edit.start < chosen[-1].end:
            continue
        if chosen and edit.start == chosen[-1].start == edit.end == chosen[-1].end and edit.text == chosen[-1].text:
            continue
        chosen.append(edit)
    out = source
    for edit in reversed(chosen):
        out = out[: edit.start] + edit.text.encode("utf-8") + out[edit.end :]
    return out, len(chosen)


def fix_paths(paths: list[Path], selection: Selection | None = None, *, write: bool = True) -> FixReport:
    """Fix what can be fixed safely. With `write=False` nothing is written (for `--diff`); the report still
    holds the before/after bytes."""
    rules = all_rules()
    report = FixReport()
    originals: dict[Path, bytes] = {}
    current: dict[Path, bytes] = {}
    for _round in range(MAX_ROUNDS):
        result = _lint_with(paths, selection, current)
        per_file: dict[Path, list[Edit]] = {}
        for finding in result.findings:
            r = rules[finding.code]
            hit = finding.hit
            if not finding.fixable or hit is None or hit.doc is None or hit.doc.file_path is None:
                continue
            edits = r.autofix(hit.doc, hit) or []
            per_file.setdefault(Path(hit.doc.file_path), []).extend(edits)
        progressed = False
        for path, edits in per_file.items():
            if not edits:
                continue
            before = current.get(path, path.read_bytes())
            originals.setdefault(path, before)
            after, count = apply_edits(before, edits)
            if after != before:
                current[path] = after
                report.applied += count
                progressed = True
        if not progressed:
            report.result = result
            break
    else:
        report.result = _lint_with(paths, selection, current)
    for path, after in current.items():
        if after != originals[path]:
            report.changed[path] = (originals[path], after)
            if write:
                _replace_file(path, after)
    if not write and current:
        report.result = _lint_with(paths, selection, current)
    return report


def _replace_file(path: Path, data: bytes) -> None:
    """Write the fixed bytes over the user's file atomically: Ctrl-C or a full disk mid-write leaves the old file
    whole instead of truncated. The file keeps its permission bits (an executable script stays executable), and
    a symlink keeps pointing at its target, which is what gets rewritten."""
    target = path.resolve()
    atomic_write(target, data, mode=stat.S_IMODE(target.stat().st_mode))


def _lint_with(paths, selection, overrides: dict[Path, bytes]) -> LintResult:
    return lint_paths(paths, selection, overrides or None)
