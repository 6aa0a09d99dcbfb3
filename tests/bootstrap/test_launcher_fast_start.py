"""`bin/skillbox` starts a regular install with `python -S -P skillbox/fast_start.py` (no `site`, no `runpy`), and
goes through `site` whenever a .pth file could matter; the output is the same either way.

The venv here is real enough for both paths: its own pyvenv.cfg (so `site` treats it as a venv), a site-packages
holding the package and this checkout's installed dependencies, and a `sitecustomize` that leaves a mark when
`site` runs — the fast path must never run it.
"""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bootstrap.conftest import REPO

CORPUS = REPO / "tests" / "fixtures" / "lint" / "corpus"


def _regular_install(venv: Path, plugin: Path) -> Path:
    """A launcher-ready venv whose site-packages looks like a non-editable install of this checkout."""
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(sys.executable)
    home = Path(os.path.realpath(sys.executable)).parent
    (venv / "pyvenv.cfg").write_text(f"home = {home}\ninclude-system-site-packages = false\n")
    packages = venv / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    packages.mkdir(parents=True)
    for source in site.getsitepackages():
        for entry in Path(source).iterdir():
            wanted = entry.suffix != ".pth" and not entry.name.startswith("__editable__") and entry.name != "skillbox"
            if wanted and not (packages / entry.name).exists():
                (packages / entry.name).symlink_to(entry)
    (packages / "skillbox").symlink_to(REPO / "tools" / "skillbox")
    (packages / "sitecustomize.py").write_text("import os\nopen(os.environ['SITE_MARK'], 'w').close()\n")
    with open(plugin / "pyproject.toml", "rb") as pyproject:
        checksum = subprocess.run(["cksum"], stdin=pyproject, capture_output=True, text=True, check=True).stdout
    version = json.loads((plugin / ".claude-plugin" / "plugin.json").read_text())["version"]
    (venv / ".skillbox-stamp").write_text(f"skillbox {version} pyproject {checksum.strip()}\n")
    (venv / ".skillbox-owned").touch()
    return packages


@pytest.fixture
def installed(broken_plugin, launcher):
    return broken_plugin, _regular_install(launcher.venv, broken_plugin)


def _expected(cwd: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(REPO / "tools")}
    run = subprocess.run(
        [sys.executable, "-P", "-m", "skillbox", "lint", str(CORPUS / "async-build"), "--json"],
        capture_output=True, text=True, env=env, cwd=cwd, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    return run.stdout


def _lint(plugin: Path, launcher, mark: Path, **extra: str):
    return launcher.run(
        plugin, "lint", str(CORPUS / "async-build"), "--json", SITE_MARK=str(mark), PYTHONDONTWRITEBYTECODE="1",
        **extra,
    )  # fmt: skip


def test_a_regular_install_starts_without_site_and_lints_the_same(installed, launcher, tmp_path):
    plugin, _packages = installed
    mark = tmp_path / "site-ran"
    run = _lint(plugin, launcher, mark)
    assert run.returncode == 0, run.stderr
    assert run.stdout == _expected(launcher.home)
    assert not mark.exists()  # no `site`: its sitecustomize never ran


def test_the_distutils_shim_alone_keeps_the_fast_start(installed, launcher, tmp_path):
    plugin, packages = installed
    (packages / "distutils-precedence.pth").write_text("import os\n")
    mark = tmp_path / "site-ran"
    run = _lint(plugin, launcher, mark)
    assert run.returncode == 0, run.stderr
    assert not mark.exists()


@pytest.mark.parametrize("reason", ["other .pth", "opt-out"])
def test_any_other_pth_or_the_opt_out_goes_through_site(installed, launcher, tmp_path, reason):
    plugin, packages = installed
    extra = {}
    if reason == "other .pth":
        (packages / "namespace-pkg.pth").write_text("")  # could put anything on sys.path: site must read it
    else:
        extra["SKILLBOX_NO_FAST_START"] = "1"
    mark = tmp_path / "site-ran"
    run = _lint(plugin, launcher, mark, **extra)
    assert run.returncode == 0, run.stderr
    assert run.stdout == _expected(launcher.home)
    assert mark.exists()


def test_an_editable_install_goes_through_site(installed, launcher, tmp_path):
    """An editable install has no package in site-packages, only a .pth naming the source tree."""
    plugin, packages = installed
    (packages / "skillbox").unlink()
    (packages / "__editable__.skillbox-0.1.0.pth").write_text(f"{REPO / 'tools'}\n")
    mark = tmp_path / "site-ran"
    run = _lint(plugin, launcher, mark)
    assert run.returncode == 0, run.stderr
    assert run.stdout == _expected(launcher.home)
    assert mark.exists()
