"""Benchmark: `skillbox skills validate` against the peer `agentskills validate` (PyPI skills-ref 0.1.1).

Builds a throwaway plugin root with N generated skills (a mix of valid ones and ones with one frontmatter mistake),
then times
  1. in-process, per skill: `skills_ref.validator.validate(dir)` vs `skillbox.skills.validate_path(dir)`
     (ours also checks the body: line budget, paths, `skillbox` command lines);
  2. command line, whole bundle: one `skillbox skills validate ROOT` vs `agentskills validate DIR` once per skill
     (the peer takes one path per call).
Prints the times and ratios (ours / peer; below 1 means faster). Run: `python bench/skills_validate.py [N]`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from skills_ref.validator import validate as peer_validate

from skillbox.skills import validate_path

ROOT = Path(__file__).resolve().parents[1]
MISTAKES = ["", "argument-hint: x\n", "allowed-tools: [Read]\n", "compatibility: " + "c" * 501 + "\n"]


def build_bundle(folder: Path, count: int) -> list[Path]:
    (folder / ".claude-plugin").mkdir(parents=True)
    for name in ("plugin.json", "marketplace.json"):
        shutil.copy(ROOT / ".claude-plugin" / name, folder / ".claude-plugin" / name)
    skills = []
    for index in range(count):
        name = f"skill-{index:04d}"
        skill = folder / "skills" / name
        (skill / "references").mkdir(parents=True)
        (skill / "references" / "guide.md").write_text("# Guide\n")
        body = "\n".join(
            ["# Title", "", "Read [the guide](references/guide.md).", "", "```sh", "skillbox skills validate . --json"]
            + ["```", ""]
            + [f"Step {step}: do the thing carefully." for step in range(60)]
        )
        front = f'name: {name}\ndescription: "Does thing {index}. Use when: the user asks for {index}."\n'
        front += MISTAKES[index % len(MISTAKES)]
        (skill / "SKILL.md").write_text(f"---\n{front}---\n\n{body}\n")
        skills.append(skill)
    return skills


def timed(function) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    with tempfile.TemporaryDirectory(prefix="skillbox-bench-") as scratch:
        bundle = Path(scratch) / "bundle"
        skills = build_bundle(bundle, count)
        verdicts = [(not peer_validate(skill), validate_path(skill).ok) for skill in skills]  # also warms imports
        assert all(peer == ours for peer, ours in verdicts), "verdicts differ"
        peer_lib = min(timed(lambda: [peer_validate(skill) for skill in skills]) for _ in range(3))
        ours_lib = min(timed(lambda: [validate_path(skill) for skill in skills]) for _ in range(3))

        env = {**os.environ, "PYTHONPATH": str(ROOT / "tools")}
        agentskills = Path(sys.executable).with_name("agentskills")
        ours_cli = timed(
            lambda: subprocess.run(
                [sys.executable, "-m", "skillbox", "skills", "validate", str(bundle), "--json"],
                env=env,
                capture_output=True,
                check=False,
            )
        )
        peer_cli = timed(
            lambda: [subprocess.run([str(agentskills), "validate", str(s)], capture_output=True) for s in skills]
        )
    rows = [
        ("in-process, per skill (ms)", peer_lib / count * 1000, ours_lib / count * 1000),
        (f"CLI, bundle of {count} skills (s)", peer_cli, ours_cli),
    ]
    print(f"skills validate vs agentskills validate (skills-ref 0.1.1), {count} skills, best of 3 in-process")
    print(f"{'measure':<34} {'agentskills':>12} {'skillbox':>10} {'ratio':>7}")
    for label, peer, ours in rows:
        print(f"{label:<34} {peer:>12.3f} {ours:>10.3f} {ours / peer:>7.2f}")
    print(json.dumps({"skills": count, "rows": rows}))


if __name__ == "__main__":
    main()
