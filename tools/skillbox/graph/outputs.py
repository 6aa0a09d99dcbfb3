"""Everything `build` writes beside graph.json for people and agents: communities.json, GRAPH_REPORT.md,
graph.html and the query index.

These depend on build history (communities are seeded from the previous communities.json), so they live beside
graph.json and are not part of its byte-identical invariant. `build` calls `write_use_outputs` once graph.json is
on disk; each step is timed so the build can show where its time went.
"""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from skillbox.graph.cluster import detect_communities, read_previous, write_communities
from skillbox.graph.graphfile import CodeGraph
from skillbox.graph.index import write_index
from skillbox.graph.report import render_report
from skillbox.graph.viewer.render import write_html

REPORT_NAME = "GRAPH_REPORT.md"
HTML_NAME = "graph.html"
COMMUNITIES_NAME = "communities.json"


@dataclass
class UseOutputs:
    communities: Path
    report: Path
    html: Path | None
    index: Path
    community_count: int
    moved: int | None
    seconds: dict[str, float] = field(default_factory=dict)


def write_use_outputs(
    graph: CodeGraph, graph_path: Path, *, title: str | None = None, html: bool = True, fresh: bool = False
) -> UseOutputs:
    """Cluster (seeded from the previous partition unless `fresh`), then write the report, viewer and index."""
    out_dir = graph_path.parent
    seconds: dict[str, float] = {}
    title = title or f"{(graph.meta.get('name') or out_dir.resolve().parent.name)} code graph"

    started = time.perf_counter()
    previous = {} if fresh else read_previous(out_dir / COMMUNITIES_NAME)
    partition = detect_communities(graph, previous)
    communities = write_communities(partition, out_dir / COMMUNITIES_NAME)
    seconds["communities"] = time.perf_counter() - started

    started = time.perf_counter()
    report = _write_text(out_dir / REPORT_NAME, render_report(graph, partition, title))
    seconds["report"] = time.perf_counter() - started

    html_path = None
    if html:
        started = time.perf_counter()
        html_path = write_html(graph, partition, out_dir / HTML_NAME, title)
        seconds["html"] = time.perf_counter() - started

    started = time.perf_counter()
    index = write_index(graph, graph_path)
    seconds["index"] = time.perf_counter() - started
    return UseOutputs(communities, report, html_path, index, len(partition.communities), partition.moved, seconds)


def _write_text(path: Path, text: str) -> Path:
    fd, tmp = tempfile.mkstemp(prefix=".report-", suffix=".tmp", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    return path


def outputs_missing(graph_path: Path) -> bool:
    """True when a build left graph.json without its report, viewer, communities or a current query index."""
    from skillbox.graph.index import index_path_for

    out_dir = graph_path.parent
    needed = [out_dir / REPORT_NAME, out_dir / HTML_NAME, out_dir / COMMUNITIES_NAME, index_path_for(graph_path)]
    if not all(p.is_file() for p in needed):
        return True
    try:
        return needed[-1].stat().st_mtime_ns < graph_path.stat().st_mtime_ns
    except OSError:
        return True


def write_for_build(graph: CodeGraph, graph_path: Path, root: Path, changed: set[str] | None = None) -> UseOutputs:
    """The build's hook, run right after graph.json is written, with the graph the build holds in memory.

    `changed` names the files whose part of the graph changed since the previous build ("" = external nodes), or
    None when unknown (cold, forced, or no previous graph)."""
    graph.meta = {**graph.meta, "root": str(root)}
    return write_use_outputs(graph, graph_path, title=f"{root.name} code graph")


def refresh_for_build(graph_path: Path, root: Path) -> UseOutputs | None:
    """On an up-to-date build, rewrite the use outputs only if some are missing (e.g. deleted, or a graph.json
    written by an older skillbox); otherwise do nothing."""
    if not outputs_missing(graph_path):
        return None
    from skillbox.graph.graphfile import load_graph

    started = time.perf_counter()
    graph = load_graph(graph_path)
    loaded = time.perf_counter() - started
    outputs = write_for_build(graph, graph_path, root)
    outputs.seconds = {"load": loaded, **outputs.seconds}
    return outputs
