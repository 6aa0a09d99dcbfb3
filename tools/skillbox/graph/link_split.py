"""Resolution and block rendering shared between this process and a forked child, on the machine's two cores.

A cold build resolves every file's references after extraction, and nothing else can run meanwhile: on Django it
was ~2 s of one core with the other idle. The files left to resolve are cut in two by their number of references;
a forked child builds the tables every file resolves against (nodes, imports, bases) and resolves and renders the
second part, and sends its blocks back through an unlinked temporary file, while this process builds the same
tables and does the first part. Only when a core is free (`core_free`): on a loaded machine the split only adds CPU.

The child is forked before the tables exist, not after: building them takes as long in both processes at once
as in one, and tables of its own spare the child the copy-on-write faults of every table page it would otherwise
touch (on Django its part of the references took 0.73-0.78 CPU-s against the parent's 0.55-0.65 for as many
references when it inherited the tables, 0.55-0.61 with its own).

A file's edges are meant to be a function of the tables and its own record, not of which files were resolved
before it; the lazily filled memos could break that only where a cycle guard answers for a value still being
computed (incremental builds, which resolve subsets of the files, rely on the same property). Checked: the
recorded digests hold with the split forced on (`tests/graph/test_link_split.py`), and Django's and svelte's
graph.json are byte-identical split and serial.
"""

from __future__ import annotations

import marshal
import os
import tempfile

from skillbox.graph.forking import fork_task, joined, stopped
from skillbox.graph.graph_json import BlockParts, FileBlock, file_block
from skillbox.graph.records import FileRecord
from skillbox.graph.resolve import Resolver

# Below this many references the split saves next to nothing: on svelte (~39k references) each process takes
# 0.25-0.27 CPU-s against 0.29-0.31 serial, since both build the tables (~0.11 s), for ~0.2 s more CPU in all; on
# Django (~265k) 1.17-1.28 each against ~1.55 serial (bench/README.md, "graph after extraction, session 10").
SPLIT_MIN_REFS = 100_000
# The share of the references the child takes: a little under half, for its writing of its blocks (~0.08 CPU-s
# on Django) against the parent's read-back of them (~0.03 s).
CHILD_SHARE = 0.47


def resolve_blocks(
    records: dict[str, FileRecord], reuse: frozenset[str], split: bool = True
) -> tuple[Resolver, dict[str, tuple[FileBlock, int]]]:
    """The resolver (its tables, externals and stats) and, per file not in `reuse`, its block and its number of
    unresolved references. `split=False` keeps all the work in this process."""
    resolver = Resolver(records, reuse)
    paths = resolver.to_resolve()
    weights = [len(records[path].refs) + 1 for path in paths]
    total = sum(weights)
    mine, theirs = paths, []
    if split and total >= SPLIT_MIN_REFS and core_free():
        cut, running, goal = len(paths), 0, total * (1 - CHILD_SHARE)
        for position, weight in enumerate(weights):
            running += weight
            if running >= goal:
                cut = position + 1
                break
        mine, theirs = paths[:cut], paths[cut:]
    spool = None
    if theirs:
        try:
            spool = tempfile.TemporaryFile()  # noqa: SIM115 (closed by the `with spool:` below)
        except OSError:  # no writable temporary folder (full, read-only, sandboxed): resolve everything here
            mine, theirs = paths, []
    if not theirs:
        resolver.prepare()
        resolver.resolve_files(mine)
        return resolver, _rendered(resolver, mine)

    with spool:

        def child() -> None:
            resolver.prepare()
            resolver.resolve_files(theirs)
            out = {}
            for path, (block, unresolved) in _rendered(resolver, theirs).items():
                out[path] = (block.nodes_json, block.links_json, block.counts, block.parts.edges, unresolved)
            marshal.dump(out, spool)
            spool.flush()

        pid = fork_task(child)
        if pid is None:
            mine, theirs = paths, []
        try:
            resolver.prepare()
            resolver.resolve_files(mine)
            done = _rendered(resolver, mine)
        except BaseException:  # this part failed (or was interrupted): the child's work is moot, reap it
            if pid is not None:
                stopped(pid)
            raise
        if pid is not None:
            if joined(pid):
                spool.seek(0)
                # One read, then `loads` from memory: `marshal.load` on a file reads each object through the file
                # object's methods, ~9x slower here (Django: 0.27-0.29 against 0.03 CPU-s for the child's 35 MB).
                handed_back = marshal.loads(spool.read())
                for path, (nodes_json, links_json, counts, edges, unresolved) in handed_back.items():
                    nodes = sorted(resolver.file_nodes[path], key=_node_id)
                    done[path] = (FileBlock(nodes_json, links_json, counts, BlockParts(nodes, edges)), unresolved)
            else:  # the child failed: do its part here
                resolver.resolve_files(theirs)
                done.update(_rendered(resolver, theirs))
    return resolver, done


def core_free() -> bool:
    """Whether another core is idle for the child: no other task is runnable right now (Linux's /proc/loadavg
    counts the runnable tasks, this process included), elsewhere the 1-minute load average leaves a core free.
    On a busy machine the child only competes with the other processes, and the split's extra CPU (~0.6-1 s on
    Django: copy-on-write faults, memos filled twice, the hand-back) makes the build slower, not faster. (The
    1-minute average alone would also count this build's own extraction pool, and builds run back to back.)"""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    if cores < 2:
        return False
    try:
        with open("/proc/loadavg", "rb") as handle:
            runnable = int(handle.read().split()[3].split(b"/")[0])
        return runnable - 1 <= cores - 2
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.getloadavg()[0] <= cores - 1
    except (AttributeError, OSError):
        return False


def _rendered(resolver: Resolver, paths: list[str]) -> dict[str, tuple[FileBlock, int]]:
    nodes, edges, unresolved = resolver.file_nodes, resolver.file_edges, resolver.file_unresolved
    return {path: (file_block(nodes[path], edges[path]), unresolved.get(path, 0)) for path in paths}


def _node_id(node: dict) -> str:
    return node["id"]
