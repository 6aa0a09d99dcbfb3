"""The guided tour behind `skillbox tour`: every helper run on its built-in samples.

Each helper contributes one step: a function `run(workdir: Path) -> TourReport` that copies or replays its bundled
sample into `workdir`, runs the real library code on it and says what it produced. Steps are listed in
`TOUR_STEPS` by import path so the tour imports a helper only when it runs it; a helper that has not landed yet
simply has no row, and the tour never pretends it ran.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

# step name -> "module:function". Order is the order the tour runs and prints.
TOUR_STEPS: dict[str, str] = {
    "skills": "skillbox.skills.tour:run",
    "graph": "skillbox.graph.tour:run",
    "lint": "skillbox.lint.tour:run",
    "mem": "skillbox.mem.tour:run",
    "paper": "skillbox.skills.paper_tour:run",
}


@dataclass
class TourReport:
    """What one step did: a title, a few lines a person reads, and the files worth opening."""

    title: str
    lines: list[str] = field(default_factory=list)
    outputs: list[Path] = field(default_factory=list)
    ok: bool = True


@dataclass
class TourOutcome:
    name: str
    report: TourReport
    seconds: float


def load_step(target: str) -> Callable[[Path], TourReport]:
    module_name, function = target.split(":")
    return getattr(importlib.import_module(module_name), function)


def run_tour(
    workdir: Path, steps: dict[str, str] | None = None, *, keep_going: bool = True, check_command=None
) -> list[TourOutcome]:
    """Run every registered step, each in its own subfolder of `workdir`.

    With `keep_going`, a step that raises becomes a failed report carrying the error, and the remaining steps
    still run: one broken helper should not hide what the others do. Without it the exception propagates
    (the CLI's `--debug`). `check_command` goes to the steps that check command lines (the skills step).
    """
    import inspect

    outcomes = []
    for name, target in (TOUR_STEPS if steps is None else steps).items():
        step_dir = workdir / name
        step_dir.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        try:
            step = load_step(target)
            takes_checker = "check_command" in inspect.signature(step).parameters
            report = step(step_dir, check_command=check_command) if takes_checker else step(step_dir)
        except Exception as err:
            if not keep_going:
                raise
            first_line = (str(err).strip().splitlines() or [""])[0]
            report = TourReport(f"{name} failed", [f"{type(err).__name__}: {first_line}"], ok=False)
        outcomes.append(TourOutcome(name, report, time.perf_counter() - started))
    return outcomes
