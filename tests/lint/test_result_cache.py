"""`skillbox lint --cache`: a hit prints exactly what a cold run prints, without loading the linter, and any
change to what the run read — the file, an asset it checked, a new sub-composition, a config file up the tree,
the options — lints cold again. Each expectation is checked against a plain (uncached) run as the oracle."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

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


def _coarse(real):
    """`real` (os.stat / os.lstat) as seen on a file system that stamps times to the whole second."""

    def stat(path, *args, **kwargs):
        st = real(path, *args, **kwargs)
        second = 1_000_000_000
        return SimpleNamespace(st_mode=st.st_mode, st_size=st.st_size, st_ino=st.st_ino,
                               st_mtime_ns=st.st_mtime_ns // second * second,
                               st_ctime_ns=st.st_ctime_ns // second * second)  # fmt: skip

    return stat


def test_a_same_size_edit_within_the_same_second_lints_again(tmp_path, monkeypatch, capsys):
    """On a file system that stamps to the second (ext4 with 128-byte inodes, HFS+, FAT, many network mounts) an
    edit of the same size within that second keeps size, inode and both times: a stale hit was reproduced on a
    loop-mounted `mkfs.ext4 -I 128` image. Simulated here by rounding down the times the cache reads."""
    from skillbox.cli import lint_fast
    from skillbox.lint import result_cache

    monkeypatch.setattr(result_cache, "_real_stat", _coarse(os.stat))
    monkeypatch.setattr(result_cache, "_real_lstat", _coarse(os.lstat))
    monkeypatch.setenv("SKILLBOX_LINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    page = tmp_path / "p" / "index.html"
    page.parent.mkdir()
    before, after = composition(LOGO), composition(LOGO.replace("logo.png", "logo.gif"))
    assert len(before) == len(after)

    def run(*args):
        code = lint_fast.main(["p", "--json", *args])
        return code, capsys.readouterr().out

    page.write_text(before)
    run()  # imports the linter, so the timed part below takes milliseconds
    for _ in range(5):
        while time.time() % 1 > 0.5:
            time.sleep(0.01)
        started = int(time.time())
        page.write_text(before)
        run("--cache")
        page.write_text(after)
        if int(time.time()) == started:
            break
    else:
        raise AssertionError("could not lint and edit within one second")
    cold = run()
    assert "logo.gif" in cold[1]
    assert run("--cache") == cold
    assert run("--cache") == cold  # and the entry stored now is a hit that still prints the right thing


def test_two_checkouts_of_one_version_do_not_share_entries(tmp_path):
    """One interpreter, two skillbox trees of the same version (PYTHONPATH, git worktrees): a hit must come from
    the code that would have run."""
    import shutil

    other = tmp_path / "other"
    shutil.copytree(TOOLS / "skillbox", other / "skillbox", ignore=shutil.ignore_patterns("__pycache__"))
    rules = other / "skillbox" / "lint" / "rules" / "project.py"
    rules.write_text(rules.read_text().replace("{attr}={url} does not exist", "{attr}={url} is missing here"))
    write(tmp_path / "p" / "index.html", composition(LOGO))
    env = dict(os.environ, SKILLBOX_LINT_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("SKILLBOX_DEBUG", None)

    def run(tools: Path, *args: str) -> str:
        proc = subprocess.run([sys.executable, "-P", "-c", PROBE, "p", *args], cwd=tmp_path,
                              env=dict(env, PYTHONPATH=str(tools)), capture_output=True, text=True)  # fmt: skip
        return proc.stdout

    ours = run(TOOLS, "--cache")
    assert "does not exist" in ours
    assert run(other, "--cache") == run(other) != ours
    assert run(TOOLS, "--cache") == ours


def test_an_entry_stored_by_one_entry_point_is_a_hit_for_another(tmp_path):
    """`python -m skillbox lint p` (arguments from sys.argv) and a script calling `main(["lint", "p", "--cache"])`
    (arguments from code constants) build equal keys: the entry's file name must come from the key's value, not
    from marshal's bytes, which differ with the strings' interning and reference counts."""
    write(tmp_path / "p" / "index.html", composition(LOGO))
    env = dict(os.environ, PYTHONPATH=str(TOOLS), SKILLBOX_LINT_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("SKILLBOX_DEBUG", None)
    stored = subprocess.run([sys.executable, "-P", "-m", "skillbox", "lint", "p", "--cache"], cwd=tmp_path, env=env,
                            capture_output=True, text=True)  # fmt: skip
    script = PROBE.replace('main(["lint", *sys.argv[1:]])', 'main(["lint", "p", "--cache"])')
    proc = subprocess.run([sys.executable, "-P", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert proc.stdout == stored.stdout
    assert "skillbox.lint.engine" not in proc.stderr.rpartition("\nMODULES ")[2].split()
    assert len(list((tmp_path / "cache").iterdir())) == 1
