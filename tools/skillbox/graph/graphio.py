"""graph.json: node-link data of a directed multigraph, written deterministically and atomically.

One node or link per line, sorted, so a diff of two builds reads like a diff of the code. The file is written to
a temporary name in the same folder and renamed into place: a crash or Ctrl-C leaves the previous graph intact.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import orjson

SCHEMA = "skillbox.graph/1"


def links_from_edges(edges: list[tuple]) -> list[dict]:
    """Edge tuples (source, target, relation, line, confidence, context, file, score) -> link dicts, in a total
    content-defined order, with per-pair multigraph keys."""
    links = []
    previous = None
    key = 0
    for source, target, relation, line, confidence, context, file, score in sorted(set(edges)):
        pair = (source, target)
        key = key + 1 if pair == previous else 0
        previous = pair
        link = {"source": source, "target": target, "key": key, "relation": relation, "confidence": confidence}
        link["score"] = score
        if file:
            link["file"] = file
        if line:
            link["line"] = line
        if context:
            link["context"] = context
        links.append(link)
    return links


def _chunks(nodes: list[dict], links: list[dict]):
    # orjson: the stdlib encoder spent ~1 s per 200k items on Django, most of an incremental build's budget.
    # Items are written as they are encoded: holding 200k encoded items at once cost ~700 MB.
    dumps = orjson.dumps
    yield b'{"directed":true,"multigraph":true,"graph":{"schema":"' + SCHEMA.encode() + b'"},\n"nodes":['
    sep = b"\n"
    for node in nodes:
        yield sep + dumps(node)
        sep = b",\n"
    yield b'\n],\n"links":['
    sep = b"\n"
    for link in links:
        yield sep + dumps(link)
        sep = b",\n"
    yield b"\n]}\n"


def render(nodes: list[dict], links: list[dict]) -> bytes:
    return b"".join(_chunks(nodes, links))


def write_graph(path: Path, nodes: list[dict], links: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb", buffering=1 << 20) as handle:
            write = handle.write
            for chunk in _chunks(nodes, links):
                write(chunk)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def load_data(path: Path) -> dict:
    return orjson.loads(Path(path).read_bytes())


def to_networkx(data: dict):
    """node-link dict -> networkx.MultiDiGraph (edge keys kept)."""
    import networkx as nx

    return nx.node_link_graph(data, directed=True, multigraph=True, edges="links")


def load_graph(path: Path):
    return to_networkx(load_data(path))
