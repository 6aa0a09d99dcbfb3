"""The `skills` step of `skillbox tour`: validate the bundled sample skill, then a deliberately broken copy.

The broken copy shows what an author sees when a skill drifts: a frontmatter key Claude Code accepts but other
Agent Skills clients reject, a referenced file that is gone, and a `skillbox` flag that does not exist.
"""

from __future__ import annotations

import json
import shutil
from importlib import resources
from pathlib import Path

from skillbox.skills.validate import validate_path
from skillbox.tour import TourReport

SAMPLE = "cite-check"


def _copy_sample(target: Path) -> Path:
    source = resources.files("skillbox") / "samples" / "skills" / SAMPLE
    with resources.as_file(source) as folder:
        shutil.copytree(folder, target, dirs_exist_ok=True)
    return target


def _break(skill: Path) -> None:
    skill_md = skill / "SKILL.md"
    text = skill_md.read_text(encoding="utf-8")
    text = text.replace("license: MIT", "license: MIT\nargument-hint: <file>")
    text = text.replace("validate . --json", "validate . --strict")
    skill_md.write_text(text, encoding="utf-8")
    (skill / "references" / "rules.md").unlink()


def run(workdir: Path, check_command=None) -> TourReport:
    """`check_command`: the CLI's command checker (see `validate_path`); the broken copy's bad option is found
    only with it."""
    good = _copy_sample(workdir / "good" / SAMPLE)
    broken = _copy_sample(workdir / "broken" / SAMPLE)
    _break(broken)
    good_report = validate_path(good, check_command)
    broken_report = validate_path(broken, check_command)
    report_file = workdir / "broken-report.json"
    report_file.write_text(json.dumps(broken_report.as_dict(), indent=2, ensure_ascii=False) + "\n")

    verdict = "valid" if good_report.ok else f"{len(good_report.problems)} problem(s)"
    lines = [f"sample skill {SAMPLE}: {verdict}"]
    lines += [f"  {problem.render()}" for problem in good_report.problems]
    lines.append(f"broken copy: {len(broken_report.problems)} problem(s) found")
    lines += [f"  {problem.render()}" for problem in broken_report.problems]
    expected = {"frontmatter_unknown_key", "path_missing", "command_unknown_option"}
    caught = expected <= {problem.code for problem in broken_report.problems}
    return TourReport(
        title="validate Agent Skills packages: frontmatter, paths, skillbox command lines",
        lines=lines,
        outputs=[good / "SKILL.md", report_file],
        ok=good_report.ok and caught,
    )
