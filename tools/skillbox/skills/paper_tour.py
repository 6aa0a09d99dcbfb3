"""The `paper` step of `skillbox tour`: the paper skills' scripts run end to end on a bundled sample.

A sample plotting script goes through the figure checker (which also writes the figure), the figure becomes a
slide in a journal-club deck built by the deck builder, the deck goes through its self-check, and the trigger
evals of every skill are scored against the bundle's descriptions. The scripts run as the agent runs them: as
separate processes with this Python.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

from skillbox.skills.triggers import evaluate, load_heldout_set, score_heldout
from skillbox.skills.validate import find_plugin_root
from skillbox.tour import TourReport

# import name -> distribution: what the scripts import, all of it in the `paper` extra of pyproject.toml.
PAPER_MODULES = {"matplotlib": "matplotlib", "pptx": "python-pptx", "pypdf": "pypdf"}
INSTALL_HINT = "pip install 'skillbox[paper]' (in a clone: .venv/bin/pip install '.[paper]')"

SCRIPTS = {
    "figure": ("paper-figures", "check_figure.py"),
    "build": ("paper-to-slides", "build_deck.py"),
    "check": ("paper-to-slides", "check_deck.py"),
}


def plugin_skills_dir() -> Path | None:
    """The plugin's skills/ folder: CLAUDE_PLUGIN_ROOT, the plugin around the working folder, or the source tree
    this module runs from (a non-editable install runs from a venv, which has no skills/)."""
    candidates = [Path(os.environ["CLAUDE_PLUGIN_ROOT"])] if os.environ.get("CLAUDE_PLUGIN_ROOT") else []
    candidates += [find_plugin_root(Path.cwd()), Path(__file__).resolve().parents[3]]
    for root in filter(None, candidates):
        if all((root / "skills" / skill / "scripts" / name).is_file() for skill, name in SCRIPTS.values()):
            return root / "skills"
    return None


def missing_modules() -> list[str]:
    """Distributions of the paper extra this Python cannot import; the scripts run with this same interpreter."""
    from importlib.util import find_spec

    return [dist for module, dist in PAPER_MODULES.items() if find_spec(module) is None]


def _failure(step: str, done: subprocess.CompletedProcess) -> str:
    """One line for a script that did not give its usual answer: the last line it wrote to stderr."""
    said = (done.stderr or done.stdout or "").strip().splitlines()
    return f"{step} exited {done.returncode}: {said[-1] if said else 'no output'}"


def _run(skills: Path, key: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    skill, name = SCRIPTS[key]
    command = [sys.executable, str(skills / skill / "scripts" / name), *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300)


def run(workdir: Path) -> TourReport:
    skills = plugin_skills_dir()
    title = "paper skills: figure check → journal-club deck → deck check; trigger evals"
    if skills is None:
        hint = "skills/ folder not found: run the tour from the plugin folder or set CLAUDE_PLUGIN_ROOT"
        return TourReport(title, [hint], ok=False)
    missing = missing_modules()
    if missing:
        return TourReport(title, [f"{', '.join(missing)} not installed: {INSTALL_HINT}"], ok=False)
    sample = resources.files("skillbox") / "samples" / "paper"
    for name in ("make_fig.py", "deck.json"):
        shutil.copyfile(str(sample / name), workdir / name)
    style = skills / "paper-figures" / "assets" / "nature.mplstyle"
    script = workdir / "make_fig.py"
    script.write_text(script.read_text(encoding="utf-8").replace("__NATURE_MPLSTYLE__", style.as_posix()))

    lines, ok = [], True
    figure = _run(skills, "figure", "make_fig.py", "--width-mm", "89", "--json", cwd=workdir)
    try:
        found = json.loads(figure.stdout) if figure.returncode in (0, 1) else None
    except ValueError:
        found = None
    if found is None:
        return TourReport(title, [_failure("check_figure.py", figure)], ok=False)
    lines.append(f"check_figure.py: {found['figures']} figure(s), {found['errors']} error(s)")
    lines += [f"  {f['severity']} {f['code']}: {f['message']}" for f in found["findings"]]
    ok &= figure.returncode == 0

    deck = workdir / "journal-club.pptx"
    built = _run(skills, "build", "deck.json", str(deck), cwd=workdir)
    lines.append(f"build_deck.py: {(built.stdout or built.stderr).strip()}")
    ok &= built.returncode == 0
    if built.returncode == 0:
        checked = _run(skills, "check", str(deck), "--fail-on", "warning", cwd=workdir)
        lines.append(f"check_deck.py: {checked.stdout.strip().splitlines()[-1] if checked.stdout else checked.stderr}")
        ok &= checked.returncode == 0

    report = evaluate(skills)
    lines.append(
        f"trigger evals: {len(report.results)} requests over {len(list(skills.glob('*/SKILL.md')))} skills, "
        f"{len(report.failures)} picked the wrong skill ({report.right_share:.1%} right, BM25 proxy)"
    )
    ok &= report.meets_floor
    sealed = skills.parent / "tests" / "skills" / "heldout" / "sealed.json"
    if sealed.is_file():  # the plugin copy carries the held-out set; a bare wheel install does not
        score = score_heldout(skills, load_heldout_set(sealed))
        verdict = "targets met" if score.meets_targets else "below the 95%/80% targets"
        lines.append(
            f"held-out sealed set: right skill {score.right_skill:.1%} of {len(score.positives)}, "
            f"near-misses left alone {score.left_alone:.1%} of {len(score.near_misses)} (BM25 proxy; {verdict})"
        )
    outputs = [p for p in (workdir / "fig1.pdf", deck) if p.exists()]
    return TourReport(title, lines, outputs, ok)
