"""Writing graph.json: node-link data of a directed multigraph, in per-file blocks, deterministically and atomically.

(Reading it for the use side is `code_graph`; `load_data` and `to_networkx` here serve `BuildResult`.)

One node or link per line, sorted, so a diff of two builds reads like a diff of the code. The file is written to
a temporary name in the same folder and renamed into place: a crash or Ctrl-C leaves the previous graph intact.
"""

from __future__ import annotations

from collections import Counter
from operator import itemgetter
from pathlib import Path
from typing import NamedTuple

import orjson

from skillbox.atomic import atomic_open

SCHEMA = "skillbox.graph/1"
_node_id = itemgetter("id")


def _links(unique: list[tuple]) -> list[dict]:
    links = []
    append = links.append
    previous_source = previous_target = None
    key = 0
    for source, target, relation, line, confidence, context, file, score, reason in unique:
        if target == previous_target and source == previous_source:  # a parallel edge: the next key
            key += 1
        else:
            key = 0
            previous_source, previous_target = source, target
        link = {
            "source": source,
            "target": target,
            "key": key,
            "relation": relation,
            "confidence": confidence,
            "score": score,
        }
        if file:
            link["file"] = file
        if line:
            link["line"] = line
        if context:
            link["context"] = context
        if reason:  # why a guess (INFERRED) or candidate (AMBIGUOUS) was drawn
            link["reason"] = reason
        append(link)
    return links


# One edge as the resolver draws it: a plain tuple with these fields, in this order (the graph.json link order, so a
# block's edges sort without a key function and de-duplicate in a set). Not a NamedTuple: on Django's 153k edges
# NamedTuple instances made resolution + blocks ~11% slower (1.74 s against 1.56 s, median of 5, under load), so
# both ends (`resolve` drawing them, `_links` and `code_graph.from_blocks` reading them) unpack by these names.
EDGE_FIELDS = ("source", "target", "relation", "line", "confidence", "context", "file", "score", "reason")


class BlockParts(NamedTuple):
    """A block's nodes and edges in memory: nodes as dicts; edges as the engine's edge tuples (a block just built)
    or as link dicts (a block parsed back from graph.json). What `code_graph.from_blocks` reads."""

    nodes: list[dict]
    edges: list


class FileBlock(NamedTuple):
    """One file's part of graph.json as `file_block` renders it."""

    nodes_json: bytes  # the node lines
    links_json: bytes  # the link lines
    counts: tuple  # (kinds, relations, confidences), each sorted (value, count) pairs
    parts: BlockParts  # the sorted nodes and the sorted de-duplicated edge tuples, for a caller keeping the graph


def file_block(nodes: list[dict], edges: list[tuple]) -> FileBlock:
    """One file's part of graph.json: node lines, link lines, counts, and the sorted nodes and de-duplicated
    edges for a caller that keeps the graph in memory.

    Every edge starts at a node of the file whose record produced it, so a file's nodes and links form one
    contiguous, self-contained block; graph.json is the blocks in path order (then external nodes). A block can
    therefore be reused byte for byte when its file and everything it resolves against are unchanged.
    """
    dumps = orjson.dumps
    nodes = sorted(nodes, key=_node_id)
    unique = sorted(set(edges))
    links = _links(unique)
    counts = (
        _counted([n["kind"] for n in nodes]),
        _counted([edge[2] for edge in unique]),  # each link's relation and confidence, read off its edge tuple
        _counted([edge[4] for edge in unique]),
    )
    return FileBlock(b",\n".join(map(dumps, nodes)), b",\n".join(map(dumps, links)), counts, BlockParts(nodes, unique))


def _counted(values: list[str]) -> tuple:
    """Sorted (value, count) pairs. Most files give a dozen values, where a dict loop is 3x faster than a Counter
    (three per file, thousands of files); long lists go to Counter's C loop."""
    if len(values) > 64:
        return tuple(sorted(Counter(values).items()))
    counts: dict[str, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return tuple(sorted(counts.items()))


def parse_block(nodes_b: bytes, links_b: bytes) -> BlockParts:
    """The node and link dicts of a block taken from a previous graph.json."""
    return BlockParts(orjson.loads(b"[" + nodes_b + b"]"), orjson.loads(b"[" + links_b + b"]"))


def write_chunks(path: Path, node_chunks: list[bytes], link_chunks: list[bytes]) -> tuple[list, list]:
    """graph.json from blocks, written to a temporary file and renamed into place.

    Returns where each block landed, `(offset, length)` per node block and per link block, so the next build can
    take unchanged blocks straight out of this file.
    """
    head = b'{"directed":true,"multigraph":true,"graph":{"schema":"' + SCHEMA.encode() + b'"},\n"nodes":['
    spans: tuple[list, list] = ([], [])
    with atomic_open(path, buffering=1 << 20, fsync=True) as handle:
        offset = 0
        for part, chunks, where in ((head, node_chunks, spans[0]), (b'\n],\n"links":[', link_chunks, spans[1])):
            handle.write(part)
            offset += len(part)
            sep = b"\n"
            for chunk in chunks:
                if chunk:
                    handle.write(sep)
                    offset += len(sep)
                    handle.write(chunk)
                    sep = b",\n"
                where.append((offset, len(chunk)))
                offset += len(chunk)
        handle.write(b"\n]}\n")
    return spans


def write_graph(path: Path, nodes: list[dict], links: list[dict]) -> None:
    """graph.json from node and link dicts (one block each)."""
    dumps = orjson.dumps
    write_chunks(path, [b",\n".join(map(dumps, nodes))], [b",\n".join(map(dumps, links))])


def load_data(path: Path) -> dict:
    return orjson.loads(Path(path).read_bytes())


def to_networkx(data: dict):
    """node-link dict -> networkx.MultiDiGraph (edge keys kept)."""
    import networkx as nx

    return nx.node_link_graph(data, directed=True, multigraph=True, edges="links")
