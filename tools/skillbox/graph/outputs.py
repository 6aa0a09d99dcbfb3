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
from skillbox.graph.index import index_path_for, update_index, write_index
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
    graph: CodeGraph,
    graph_path: Path,
    *,
    title: str | None = None,
    html: bool = True,
    fresh: bool = False,
    changed: set[str] | None = None,
) -> UseOutputs:
    """Cluster (seeded from the previous partition unless `fresh`), then write the report, viewer and index.

    `changed`: the files whose nodes and edges differ from the graph the current query index describes (""
    stands for the external nodes); the index is then updated in place instead of rewritten. None: rewrite it.

    On a big graph the two cores share the work: a forked child (which sees the same graph without copying it)
    writes the larger of the index (when rewritten) or the viewer, while this process writes the rest."""
    out_dir = graph_path.parent
    seconds: dict[str, float] = {}
    title = title or f"{(graph.meta.get('name') or out_dir.resolve().parent.name)} code graph"

    started = time.perf_counter()
    previous = {} if fresh else read_previous(out_dir / COMMUNITIES_NAME)
    partition = detect_communities(graph, previous)
    communities = write_communities(partition, out_dir / COMMUNITIES_NAME)
    seconds["communities"] = time.perf_counter() - started

    def write_index_now() -> Path:
        return write_index(graph, graph_path) if changed is None else update_index(graph, graph_path, changed)

    tasks = {"index": write_index_now}
    if html:
        tasks["html"] = lambda: write_html(graph, partition, out_dir / HTML_NAME, title)
    # A forked child takes the bigger job left: the full index, or the viewer when the index is only updated.
    in_child = ("index" if changed is None else "html") if len(graph.nodes) >= FORK_MIN_NODES else None
    child = _fork(tasks[in_child]) if in_child in tasks else None

    started = time.perf_counter()
    report = _write_text(out_dir / REPORT_NAME, render_report(graph, partition, title))
    seconds["report"] = time.perf_counter() - started

    for name, task in tasks.items():
        if child is None or name != in_child:
            started = time.perf_counter()
            task()
            seconds[name] = time.perf_counter() - started
    if child is not None:
        # Only the time spent waiting for the child counts: the rest overlapped with this process's work.
        started = time.perf_counter()
        if not _joined(child):
            tasks[in_child]()
        seconds[in_child] = time.perf_counter() - started
    html_path = out_dir / HTML_NAME if html else None
    index = index_path_for(graph_path)
    return UseOutputs(communities, report, html_path, index, len(partition.communities), partition.moved, seconds)


FORK_MIN_NODES = 3_000


def _fork(task) -> int | None:
    """Run `task` in a forked child; the child's pid, or None where fork is unavailable (then the caller runs it)."""
    import threading

    # Forking a process that runs other threads can leave the child holding a lock nobody will release.
    if not hasattr(os, "fork") or os.environ.get("SKILLBOX_NO_FORK") or threading.active_count() > 1:
        return None
    try:
        pid = os.fork()
    except OSError:
        return None
    if pid:
        return pid
    try:  # the child: do the task and exit, never return into the caller's code
        task()
        os._exit(0)
    except BaseException:
        os._exit(1)  # the parent sees the exit code and does the task itself


def _joined(pid: int) -> bool:
    """Wait for a child; True when it finished its task."""
    try:
        _pid, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return False
    return os.waitstatus_to_exitcode(status) == 0


def _write_text(path: Path, text: str) -> Path:
    fd, tmp = tempfile.mkstemp(prefix=".report-", suffix=".tmp", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    return path


def outputs_missing(graph_path: Path) -> bool:
    """True when a build left graph.json without its report, viewer, communities or a current query index."""
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
    return write_use_outputs(graph, graph_path, title=f"{root.name} code graph", changed=changed)


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
