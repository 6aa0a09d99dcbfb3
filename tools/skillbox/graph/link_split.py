"""Resolution and block rendering shared between this process and a forked child, on the machine's two cores.

A cold build resolves every file's references after extraction, and nothing else can run meanwhile: on Django it
was ~2 s of one core with the other idle. The tables every file resolves against (nodes, imports, bases) are built
once, here; then the files left to resolve are cut in two by their number of references, a forked child resolves
and renders the second part (it sees the tables without copying them) and sends its blocks back through an
unlinked temporary file, while this process does the first part.

A file's edges are a function of the tables and its own record, never of which files were resolved before it
(the lazily filled memos hold the same answers whoever fills them), so the blocks equal the serial ones byte for
byte: `tests/graph/test_link_split.py` builds the fixtures both ways.
"""

from __future__ import annotations

import marshal
import tempfile

from skillbox.graph.forking import fork_task, joined
from skillbox.graph.graph_json import BlockParts, FileBlock, file_block
from skillbox.graph.records import FileRecord
from skillbox.graph.resolve import Resolver

# Below this many references the split saves nothing: on svelte (~39k references) the parent's part took 0.41-0.49
# CPU-s against 0.42-0.44 serial, since the tables (~0.14 s) come first either way and reading the child's blocks
# back costs ~0.1 s; on Django (~265k) the parent's part is 1.8-2.0 against 2.3 serial (bench/README.md,
# "graph build after extraction"). A fork with a big heap costs ~10 ms plus the copy-on-write faults both take.
SPLIT_MIN_REFS = 100_000
# The share of the references the child takes: this process also reads the child's blocks back.
CHILD_SHARE = 0.5


def resolve_blocks(
    records: dict[str, FileRecord], reuse: frozenset[str], split: bool = True
) -> tuple[Resolver, dict[str, tuple[FileBlock, int]]]:
    """The resolver (its tables, externals and stats) and, per file not in `reuse`, its block and its number of
    unresolved references. `split=False` keeps all the work in this process."""
    resolver = Resolver(records, reuse)
    resolver.prepare()
    paths = resolver.to_resolve()
    weights = [len(records[path].refs) + 1 for path in paths]
    total = sum(weights)
    mine, theirs = paths, []
    if split and total >= SPLIT_MIN_REFS:
        cut, running, goal = len(paths), 0, total * (1 - CHILD_SHARE)
        for position, weight in enumerate(weights):
            running += weight
            if running >= goal:
                cut = position + 1
                break
        mine, theirs = paths[:cut], paths[cut:]
    if not theirs:
        resolver.resolve_files(mine)
        return resolver, _rendered(resolver, mine)

    with tempfile.TemporaryFile() as spool:

        def child() -> None:
            resolver.resolve_files(theirs)
            out = {}
            for path, (block, unresolved) in _rendered(resolver, theirs).items():
                out[path] = (block.nodes_json, block.links_json, block.counts, block.parts.edges, unresolved)
            marshal.dump(out, spool)
            spool.flush()

        pid = fork_task(child)
        if pid is None:
            mine, theirs = paths, []
        resolver.resolve_files(mine)
        done = _rendered(resolver, mine)
        if pid is not None:
            if joined(pid):
                spool.seek(0)
                for path, (nodes_json, links_json, counts, edges, unresolved) in marshal.load(spool).items():
                    nodes = sorted(resolver.file_nodes[path], key=_node_id)
                    done[path] = (FileBlock(nodes_json, links_json, counts, BlockParts(nodes, edges)), unresolved)
            else:  # the child failed: do its part here
                resolver.resolve_files(theirs)
                done.update(_rendered(resolver, theirs))
    return resolver, done


def _rendered(resolver: Resolver, paths: list[str]) -> dict[str, tuple[FileBlock, int]]:
    nodes, edges, unresolved = resolver.file_nodes, resolver.file_edges, resolver.file_unresolved
    return {path: (file_block(nodes[path], edges[path]), unresolved.get(path, 0)) for path in paths}


def _node_id(node: dict) -> str:
    return node["id"]
