"""A throwaway HOME and project for installing into, and the fixed launcher paths golden files are written with."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LAUNCHER = ["/opt/skillbox/bin/skillbox"]
PYTHON = "/opt/skillbox/bin/python"


@pytest.fixture
def sandbox(tmp_path: Path) -> dict:
    home = tmp_path / "home"
    project = tmp_path / "project"
    home.mkdir()
    (project / ".git").mkdir(parents=True)
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "")}
    return {"home": home, "project": project, "env": env}


def snapshot(folder: Path) -> dict[str, tuple]:
    """Every file and link under `folder` (relative path -> (mode, bytes) or ("link", target)): what "left as it
    was" is compared with. Modes and links count: a private config turned world-readable, or a symlinked config
    replaced by a plain copy, is not "as it was"."""
    state = {}
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        if path.is_symlink():
            state[rel] = ("link", os.readlink(path))
        elif path.is_file():
            state[rel] = (oct(path.stat().st_mode & 0o7777), path.read_bytes())
    return state


def folders(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_dir()}
