"""Each file's block of graph.json, resolved on both cores when there are many references to resolve.

After `Resolver.build_tables` a file's calls and references resolve against the tables alone, so the files can
be split between this process and a forked child: the child resolves and serialises its share and sends back
the blocks (graph.json bytes plus the sorted nodes and edges the build keeps in memory) with `marshal`. That
costs a few milliseconds; resolving a cold build's files costs 0.1-1 s. An incremental build that resolves a
handful of files again does them here.
"""

from __future__ import annotations

import marshal
import os

from skillbox.graph.forks import fork, joined, read_all
from skillbox.graph.graphio import file_block
from skillbox.graph.resolve import Resolver

# Below this many references (about 50 ms of resolving) a fork costs more than it saves.
SPLIT_MIN_REFS = 10_000


def resolved_blocks(resolver: Resolver, paths: list[str]) -> dict[str, tuple]:
    """rel -> (nodes bytes, links bytes, counts, sorted nodes, sorted unique edges, unresolved count) for `paths`,
    which must not be among the resolver's reused files."""
    records = resolver.records
    cost = {rel: len(records[rel].refs) + len(records[rel].defs) + len(records[rel].mentions) for rel in paths}
    if sum(cost.values()) < SPLIT_MIN_REFS:
        return {rel: _block(resolver, rel) for rel in paths}
    mine, theirs = _halves(paths, cost)
    read_end, write_end = os.pipe()

    def child() -> None:
        os.close(read_end)
        payload = marshal.dumps({rel: _block(resolver, rel) for rel in theirs})
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(payload)

    pid = fork(child)
    os.close(write_end)
    if pid is None:
        os.close(read_end)
        return {rel: _block(resolver, rel) for rel in paths}
    blocks = {rel: _block(resolver, rel) for rel in mine}
    try:
        payload = read_all(read_end)
    finally:
        finished = joined(pid)
    if finished:
        blocks.update(marshal.loads(payload))
    else:  # the child died: its share is resolved here
        blocks.update((rel, _block(resolver, rel)) for rel in theirs)
    return blocks


def _block(resolver: Resolver, rel: str) -> tuple:
    resolver.resolve_file(rel)
    nodes_b, links_b, counts, nodes, edges = file_block(resolver.file_nodes[rel], resolver.file_edges[rel])
    return nodes_b, links_b, counts, nodes, edges, resolver.file_unresolved.get(rel, 0)


def _halves(paths: list[str], cost: dict[str, int]) -> tuple[list[str], list[str]]:
    """Two shares of about equal cost: the costliest files first, each to the lighter share."""
    shares: tuple[list[str], list[str]] = ([], [])
    totals = [0, 0]
    for rel in sorted(paths, key=lambda rel: (-cost[rel], rel)):
        lighter = 0 if totals[0] <= totals[1] else 1
        shares[lighter].append(rel)
        totals[lighter] += cost[rel] + 1
    return shares
