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


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (relative path -> bytes): what "left as it was" is compared with."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def folders(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_dir()}
