"""Everything `build` writes beside graph.json for people and agents: communities.json, GRAPH_REPORT.md,
graph.html and the query index.

These depend on build history (communities are seeded from the previous communities.json), so they live beside
graph.json and are not part of its byte-identical invariant. `build` calls `write_use_outputs` once graph.json is
on disk; each step is timed so the build can show where its time went.
"""

from __future__ import annotations

import marshal
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from skillbox.atomic import atomic_write
from skillbox.graph.cluster import detect_communities, read_previous, write_communities
from skillbox.graph.code_graph import CodeGraph
from skillbox.graph.forking import fork_task as _fork
from skillbox.graph.forking import joined as _joined
from skillbox.graph.index import index_path_for
from skillbox.graph.index_writer import NodeRows, node_rows, update_index, write_index
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
    include_ambiguous: bool = False,
) -> UseOutputs:
    """Cluster (seeded from the previous partition unless `fresh`), then write the report, viewer and index.

    `changed`: the files whose nodes and edges differ from the graph the current query index describes (""
    stands for the external nodes); the index is then updated in place instead of rewritten. None: rewrite it."""
    writer = UseOutputsWriter(
        graph, graph_path, title=title, html=html, fresh=fresh, changed=changed, include_ambiguous=include_ambiguous
    )
    writer.start_early()
    return writer.finish()


class UseOutputsWriter:
    """Writes the use outputs of one graph, sharing the work between the two cores on a big graph.

    A forked child (which sees the same graph without copying it) writes the larger of the index (when rewritten)
    or the viewer, while this process writes the rest. The full index does not depend on the partition until its
    very last step, so `start_early` can fork its writer before graph.json is even written: the child inserts the
    edges, then waits on a pipe until `finish` has written graph.json's communities and handed it the node rows
    made here meanwhile (some or all of them, `rows_share`: on a big graph the index is the last output to finish)."""

    def __init__(
        self,
        graph: CodeGraph,
        graph_path: Path,
        *,
        title=None,
        html=True,
        fresh=False,
        changed=None,
        include_ambiguous=False,
    ):
        self.graph = graph
        self.graph_path = graph_path
        self.out_dir = graph_path.parent
        self.title = title or f"{(graph.meta.get('name') or self.out_dir.resolve().parent.name)} code graph"
        self.html = html
        self.fresh = fresh
        self.include_ambiguous = include_ambiguous  # the report's rankings count AMBIGUOUS edges too
        self.changed = changed
        self.child: int | None = None
        self.in_child: str | None = None
        self._signal: int | None = None  # write end of the pipe the early index writer waits on
        self._rows_file = None  # where it finds the node rows made here (`_hand_over`)

    def start_early(self) -> None:
        """Fork the full-index writer now, if this graph gets one (a big graph, index rewritten)."""
        if self.changed is not None or len(self.graph.nodes) < FORK_MIN_NODES or self.child is not None:
            return
        read_end, write_end = os.pipe()
        try:
            rows_file = tempfile.TemporaryFile()  # noqa: SIM115 (closed in `_hand_over` and by the child's exit)
        except OSError:  # no writable temporary folder: the child makes the node rows itself
            rows_file = None

        def ready() -> bool:
            return os.read(read_end, 1) == b"1"

        def rows_made() -> NodeRows | None:
            if rows_file is None:
                return None
            rows_file.seek(0)
            handed = rows_file.read()
            return NodeRows(*marshal.loads(handed)) if handed else None

        def task() -> None:
            os.close(write_end)  # else the pipe never reports the parent's end closing
            write_index(self.graph, self.graph_path, communities_ready=ready, node_rows_made=rows_made)

        pid = _fork(task)
        os.close(read_end)
        if pid is None:
            os.close(write_end)
            if rows_file is not None:
                rows_file.close()
            return
        self.child, self.in_child, self._signal, self._rows_file = pid, "index", write_end, rows_file

    def _hand_over(self) -> None:
        """communities.json is written: give the early index writer the node rows (made here, see
        `index_writer.node_rows`), then let it go on."""
        rows_file, self._rows_file = self._rows_file, None
        if rows_file is not None:
            with rows_file:
                share = rows_share(len(self.graph.nodes), len(self.graph.edges))
                if share > 0:  # (an empty file: the writer makes them all)
                    rows_file.write(marshal.dumps(tuple(node_rows(self.graph, share))))
                    rows_file.flush()
        os.write(self._signal, b"1")
        os.close(self._signal)
        self._signal = None

    def abandon(self) -> None:
        """Stop an early child before graph.json or communities.json exist: it sees the pipe close and exits
        without writing anything; then reap it."""
        if self._signal is not None:
            os.close(self._signal)
            self._signal = None
        if self._rows_file is not None:
            self._rows_file.close()
            self._rows_file = None
        if self.child is not None:
            _joined(self.child)
            self.child = None

    def finish(self) -> UseOutputs:
        try:
            return self._finish()
        finally:
            self.abandon()

    def _finish(self) -> UseOutputs:
        graph, graph_path, out_dir, changed = self.graph, self.graph_path, self.out_dir, self.changed
        seconds: dict[str, float] = {}
        started = time.perf_counter()
        previous = {} if self.fresh else read_previous(out_dir / COMMUNITIES_NAME)
        partition = detect_communities(graph, previous)
        communities = write_communities(partition, out_dir / COMMUNITIES_NAME)
        seconds["communities"] = time.perf_counter() - started
        if self._signal is not None:
            self._hand_over()

        def write_index_now() -> Path:
            return write_index(graph, graph_path) if changed is None else update_index(graph, graph_path, changed)

        tasks = {"index": write_index_now}
        if self.html:
            tasks["html"] = lambda: write_html(graph, partition, out_dir / HTML_NAME, self.title)
        if self.child is None and len(graph.nodes) >= FORK_MIN_NODES:
            # The viewer needs the partition: its child starts now (the index, when only updated, stays here).
            self.in_child = "index" if changed is None else "html"
            self.child = _fork(tasks[self.in_child]) if self.in_child in tasks else None
        child, in_child = self.child, self.in_child

        started = time.perf_counter()
        report = atomic_write(
            out_dir / REPORT_NAME, render_report(graph, partition, self.title, self.include_ambiguous)
        )
        seconds["report"] = time.perf_counter() - started

        for name, task in tasks.items():
            if child is None or name != in_child:
                started = time.perf_counter()
                task()
                seconds[name] = time.perf_counter() - started
        if child is not None:
            # Only the time spent waiting for the child counts: the rest overlapped with this process's work.
            started = time.perf_counter()
            self.child = None
            if not _joined(child):
                tasks[in_child]()
            seconds[in_child] = time.perf_counter() - started
        html_path = out_dir / HTML_NAME if self.html else None
        index = index_path_for(graph_path)
        return UseOutputs(communities, report, html_path, index, len(partition.communities), partition.moved, seconds)


FORK_MIN_NODES = 3_000


def rows_share(nodes: int, edges: int) -> float:
    """The share of the index's node rows this process makes for the early index writer (`_hand_over`), so that
    both finish together: the writer's work grows with the edges, this process's (graph.json, communities, report,
    viewer) has a fixed part. CPU-s per item measured on Django (44k nodes, 154k edges: writer 1.10, this process
    0.72 with graph.json's fsync, node rows 0.20) and svelte (12k, 35k: 0.28 and 0.27, where the writer was never
    the later one); a share near the balance costs little either way."""
    writer = 7.1e-6 * edges
    here = 0.1 + 14e-6 * nodes
    rows = 4.5e-6 * nodes
    if rows <= 0 or writer <= here:
        return 0.0
    return min(1.0, (writer - here) / (2 * rows))


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


def writer_for_build(graph: CodeGraph, graph_path: Path, root: Path, changed: set[str] | None = None):
    """The build's writer, made as soon as the graph is in memory: the build calls `start_early` before it
    writes graph.json, and `finish` after.

    `changed` names the files whose part of the graph changed since the previous build ("" = external nodes), or
    None when unknown (cold, forced, or no previous graph)."""
    graph.meta = {**graph.meta, "root": str(root)}
    return UseOutputsWriter(graph, graph_path, title=f"{root.name} code graph", changed=changed)


def write_for_build(graph: CodeGraph, graph_path: Path, root: Path, changed: set[str] | None = None) -> UseOutputs:
    """The use outputs of a graph.json already on disk, from the graph the caller holds in memory."""
    writer = writer_for_build(graph, graph_path, root, changed)
    writer.start_early()
    return writer.finish()


def refresh_for_build(graph_path: Path, root: Path) -> UseOutputs | None:
    """On an up-to-date build, rewrite the use outputs only if some are missing (e.g. deleted, or a graph.json
    written by an older skillbox); otherwise do nothing."""
    if not outputs_missing(graph_path):
        return None
    from skillbox.graph.code_graph import load_graph

    started = time.perf_counter()
    graph = load_graph(graph_path)
    loaded = time.perf_counter() - started
    outputs = write_for_build(graph, graph_path, root)
    outputs.seconds = {"load": loaded, **outputs.seconds}
    return outputs
