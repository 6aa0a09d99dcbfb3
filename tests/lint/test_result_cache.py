"""`skillbox lint --cache`: a hit prints exactly what a cold run prints, without loading the linter, and any
change to what the run read — the file, an asset it checked, a new sub-composition, a config file up the tree,
the options — lints cold again. Each expectation is checked against a plain (uncached) run as the oracle."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from skillbox.lint.samples import composition

TOOLS = Path(__file__).resolve().parents[2] / "tools"
PROBE = """import atexit, sys
atexit.register(lambda: sys.stderr.write("\\nMODULES " + " ".join(sorted(sys.modules))))
from skillbox.cli import main
main(["lint", *sys.argv[1:]])
"""
LOGO = '<img id="logo" src="assets/logo.png" alt="">'


def lint(tmp_path: Path, *args: str):
    """(exit code, stdout, modules loaded) of one `skillbox lint` process run in tmp_path."""
    env = dict(os.environ, PYTHONPATH=str(TOOLS), SKILLBOX_LINT_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("SKILLBOX_DEBUG", None)
    proc = subprocess.run([sys.executable, "-P", "-c", PROBE, *args], cwd=tmp_path, env=env, capture_output=True,
                          text=True)  # fmt: skip
    return proc.returncode, proc.stdout, set(proc.stderr.rpartition("\nMODULES ")[2].split())


def write(path: Path, text: str) -> None:
    """Write and make sure the change is visible in the file's times even on a coarse-clock file system."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    later = time.time_ns() + 2_000_000_000
    os.utime(path, ns=(later, later))


def test_a_hit_prints_what_a_cold_run_prints_without_loading_the_linter(tmp_path):
    write(tmp_path / "p" / "index.html", composition(LOGO))
    for fmt in (["--json"], [], ["--format", "sarif"]):
        cold = lint(tmp_path, "p", *fmt)
        first = lint(tmp_path, "p", "--cache", *fmt)
        hit = lint(tmp_path, "p", "--cache", *fmt)
        assert cold[:2] == first[:2] == hit[:2]
        assert "skillbox.lint.engine" in first[2] and "skillbox.lint.engine" not in hit[2]
    assert sorted(p.name for p in (tmp_path / "p").iterdir()) == ["index.html"]  # nothing stored in the project


def test_every_input_change_lints_again(tmp_path):
    root = tmp_path / "p"
    write(root / "index.html", composition(LOGO))
    steps = [
        lambda: write(root / "index.html", composition(LOGO + '\n<video id="v" src="assets/clip.mp4"></video>')),
        lambda: write(root / "assets" / "logo.png", "png"),  # the missing asset appears
        lambda: write(root / "compositions" / "intro.html", "<template><div data-composition-id='x'></div>"),
        lambda: write(tmp_path / "skillbox.toml", '[lint]\nignore = ["media"]\n'),  # config up the tree
        lambda: (root / "assets" / "logo.png").unlink(),  # and disappears again
    ]
    outputs = [lint(tmp_path, "p", "--json")[:2]]
    for step in steps:
        lint(tmp_path, "p", "--json", "--cache")  # fills the cache for the current state
        step()
        cold = lint(tmp_path, "p", "--json")
        cached = lint(tmp_path, "p", "--json", "--cache")
        assert cached[:2] == cold[:2], step
        assert "skillbox.lint.engine" in cached[2]  # it really linted again
        outputs.append(cold[:2])
    assert len(set(outputs)) == len(outputs)  # every step changed the findings, so the test can fail


def test_options_are_part_of_the_key(tmp_path):
    write(tmp_path / "p" / "index.html", composition(LOGO))
    everything = lint(tmp_path, "p", "--json", "--cache")
    only_media = lint(tmp_path, "p", "--json", "--cache", "--select", "media")
    assert only_media[:2] == lint(tmp_path, "p", "--json", "--select", "media")[:2]
    assert only_media[1] != everything[1]
    assert lint(tmp_path, "p", "--json", "--cache")[:2] == everything[:2]


def test_a_damaged_or_foreign_entry_lints_cold(tmp_path):
    write(tmp_path / "p" / "index.html", composition(LOGO))
    cold = lint(tmp_path, "p", "--json")
    lint(tmp_path, "p", "--json", "--cache")
    (entry,) = (tmp_path / "cache").iterdir()
    import marshal

    for damaged in (b"\x00garbage", marshal.dumps([1, 2]), marshal.dumps({"key": None}), b""):
        entry.write_bytes(damaged)
        again = lint(tmp_path, "p", "--json", "--cache")
        assert again[:2] == cold[:2] and "skillbox.lint.engine" in again[2]
