"""Fixtures for the graph use side (the data lives in graph_use_data.py and synthetic.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from graph_use_data import write_project
from synthetic import synthetic_graph


@pytest.fixture
def project(tmp_path) -> Path:
    """Path of graph.json of the small project, under tmp_path/project."""
    return write_project(tmp_path / "project")


@pytest.fixture(scope="session")
def big_graph(tmp_path_factory) -> Path:
    """A synthetic graph of ~7k nodes / ~19k links (shape of a real project, size kept small for speed)."""
    out = tmp_path_factory.mktemp("big") / "skillbox-out" / "graph.json"
    out.parent.mkdir(parents=True)
    out.write_text(json.dumps(synthetic_graph(files=450, seed=3)))
    return out
