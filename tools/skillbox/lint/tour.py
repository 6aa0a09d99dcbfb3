"""Tour step: lint the bundled sample project, fix what is safe, show what is left for a person to decide."""

from __future__ import annotations

import json
import shutil
from importlib import resources
from pathlib import Path

from skillbox.lint.engine import lint_paths
from skillbox.lint.fix import fix_paths
from skillbox.lint.formats import to_json
from skillbox.tour import TourReport


def _copy_sample(target: Path) -> Path:
    source = resources.files("skillbox") / "samples" / "lint"
    with resources.as_file(source) as folder:
        shutil.copytree(folder, target, dirs_exist_ok=True)
    return target


def run(workdir: Path) -> TourReport:
    project = _copy_sample(workdir / "launch-video")
    before = lint_paths([project])
    report = fix_paths([project])
    after = report.result or lint_paths([project])
    report_path = workdir / "lint-report.json"
    report_path.write_text(json.dumps(to_json(after), indent=2), encoding="utf-8")
    lines = [
        f"linted {before.files_scanned} files of a sample HyperFrames project: {before.count('error')} error(s), "
        f"{before.count('warning')} warning(s) — e.g. " + ", ".join(sorted({f.code for f in before.findings})[:4]),
        f"skillbox lint --fix applied {report.applied} safe fix(es) in {len(report.changed)} file(s), "
        "every other byte untouched",
    ]
    for finding in after.findings:
        lines.append(f"left for you: {finding.file}:{finding.line} {finding.code} — {finding.fix_hint}")
    changed = sorted(report.changed)
    return TourReport(
        title="HyperFrames lint: contract violations found, safe ones fixed",
        lines=lines,
        outputs=[*changed, report_path],
        ok=before.count("error") > after.count("error") and before.files_scanned == 2,
    )
