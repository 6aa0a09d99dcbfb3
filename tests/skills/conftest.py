"""Shared helpers for the skills tests: where the bundle lives and how to load a skill's script as a module."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SKILLS = REPO / "skills"
COMMANDS = REPO / "commands"


def load_script(skill: str, script: str):
    """Import `skills/<skill>/scripts/<script>.py` under a unique module name (scripts are not a package)."""
    path = SKILLS / skill / "scripts" / f"{script}.py"
    name = f"skill_script_{skill.replace('-', '_')}_{script}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def fixtures_dir() -> Path:
    return Path(__file__).parent / "fixtures"
