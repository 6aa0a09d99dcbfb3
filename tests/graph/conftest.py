"""Shared helpers: write a small project from a dict, build it, look at nodes and links."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


class Graph:
    """graph.json read back, with the lookups tests need."""

    def __init__(self, path: Path):
        self.raw = path.read_bytes()
        data = json.loads(self.raw)
        self.data = data
        self.nodes = {n["id"]: n for n in data["nodes"]}
        self.links = data["links"]

    def edges(self, relation: str | None = None, source: str | None = None, target: str | None = None) -> list[dict]:
        return [
            link
            for link in self.links
            if (relation is None or link["relation"] == relation)
            and (source is None or link["source"] == source)
            and (target is None or link["target"] == target)
        ]

    def edge(self, source: str, target: str, relation: str) -> dict:
        found = self.edges(relation, source, target)
        assert found, f"no {relation} edge {source} -> {target}"
        return found[0]


@pytest.fixture
def project(tmp_path):
    def make(files: dict[str, str | bytes]) -> Path:
        return write_tree(tmp_path / "proj", files)

    return make


def read_graph(out: Path) -> Graph:
    return Graph(out / "graph.json")


def graph_of(project, files: dict[str, str | bytes]) -> Graph:
    """The graph of a small project written from `files` (built in this process, one job)."""
    from skillbox.graph.build import build_graph

    return read_graph(build_graph(project(files), jobs=1).out_dir)


def calls(g: Graph, source: str | None = None, target: str | None = None) -> list[dict]:
    return g.edges("calls", source=source, target=target)


FLASK = "flask==3.1.3"
CACHE = Path(os.environ.get("SKILLBOX_TEST_CACHE", Path.home() / ".cache" / "skillbox-tests"))


@pytest.fixture(scope="session")
def flask_tree(tmp_path_factory) -> Path:
    """The pinned Flask sdist, downloaded once into a cache outside the repository and unpacked per session."""
    dl = CACHE / "sdists"
    dl.mkdir(parents=True, exist_ok=True)
    found = sorted(dl.glob("flask-3.1.3.tar.gz"))
    if not found:
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", FLASK, "-d", str(dl)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        found = sorted(dl.glob("flask-3.1.3.tar.gz"))
        if proc.returncode != 0 or not found:
            pytest.fail(f"could not download the {FLASK} sdist: {proc.stderr.strip()[-300:]}")
    target = tmp_path_factory.mktemp("flask")
    with tarfile.open(found[0]) as archive:
        archive.extractall(target, filter="data")
    return target / "flask-3.1.3"
