"""A loaded graph as integer columns, built once and shared by the report and the viewer.

Why: on Django's graph (44k nodes, 160k edges) most of the report's and the viewer's time went into touching every
edge's strings again and again (each edge holds its own copies of its endpoint ids and relation names, so every
dict lookup by them is a cache miss and a string compare). Here each edge's strings are looked up once and turned
into ints: source and target node indices, a relation id and a confidence id. All later passes are list indexing
and Counter/compress/map over ints, which run in C.

`build` writes the report and then the viewer from the same loaded graph, so the last graph's columns are kept
(tied to that graph object by a weak reference; a CodeGraph is not edited after loading, and the node and edge
counts are checked too).
"""

from __future__ import annotations

import functools
import weakref
from collections import Counter, deque
from dataclasses import dataclass, field
from itertools import compress, repeat
from operator import add, is_not, itemgetter, mul, ne

from skillbox.graph.cluster import Partition
from skillbox.graph.code_graph import CodeGraph

_SOURCE, _TARGET, _RELATION, _CONFIDENCE = (itemgetter(i) for i in range(4))
_known = functools.partial(is_not, None)


@dataclass(eq=False)
class GraphColumns:
    ids: list[str]  # node index -> id, in graph.nodes order
    index: dict[str, int]  # id -> node index
    kinds: list[str]  # per node ("?" when missing)
    files: list[str | None]  # per node
    src: list[int]  # per edge: source node index
    dst: list[int]  # per edge: target node index
    relation_names: list[str]  # in order of first appearance
    confidence_names: list[str]  # in order of first appearance
    relation: list[int]  # per edge: index into relation_names
    confidence: list[int]  # per edge: index into confidence_names
    _memo: dict = field(default_factory=dict)

    @functools.cached_property
    def pair(self) -> list[int]:
        """Per edge: one small int for its (relation, confidence) pair; `pairs[code]` gives the pair back."""
        width = len(self.confidence_names)
        return list(map(add, map(mul, self.relation, repeat(width)), self.confidence))

    @functools.cached_property
    def pairs(self) -> list[tuple[str, str]]:
        return [(r, c) for r in self.relation_names for c in self.confidence_names]

    def community_of(self, partition: Partition) -> list[int]:
        """Per node: its community id, -1 outside the partition (members gone from the graph are skipped).
        Kept for the last partition asked about: the report and the viewer both need it."""
        memo = self._memo.get("partition")
        if memo is not None and memo[0]() is partition:
            return memo[1]
        community_of = [-1] * len(self.ids)
        index = self.index
        for c in partition.communities:
            deque(map(community_of.__setitem__, filter(_known, map(index.get, c.members)), repeat(c.id)), maxlen=0)
        self._memo["partition"] = (weakref.ref(partition), community_of, None)
        return community_of

    def community_links(self, partition: Partition) -> tuple[Counter, int]:
        """(counts, stride): edges from community a to community b (a != b) counted under the int key
        `(a + 1) * stride + b + 1`, ids shifted by one so that -1 (outside the partition) fits."""
        community_of = self.community_of(partition)
        ref, _, links = self._memo["partition"]
        if links is None:
            cs = list(map(community_of.__getitem__, self.src))
            ct = list(map(community_of.__getitem__, self.dst))
            crossing = list(map(ne, cs, ct))
            stride = max(community_of, default=0) + 2
            from_key = map(mul, map(add, compress(cs, crossing), repeat(1)), repeat(stride))
            links = Counter(map(add, from_key, map(add, compress(ct, crossing), repeat(1)))), stride
            self._memo["partition"] = (ref, community_of, links)
        return links

    def edge_mask(self, keep) -> list[bool]:
        """Per edge: keep(relation, confidence), decided once per distinct pair and then looked up."""
        table = [keep(r, c) for r, c in self.pairs]
        return list(map(table.__getitem__, self.pair))


_last: tuple[weakref.ref, int, int, GraphColumns] | None = None


def graph_columns(graph: CodeGraph) -> GraphColumns:
    global _last
    if _last is not None:
        ref, nodes, edges, columns = _last
        if ref() is graph and nodes == len(graph.nodes) and edges == len(graph.edges):
            return columns
    columns = _build(graph)
    _last = (weakref.ref(graph), len(graph.nodes), len(graph.edges), columns)
    return columns


def _build(graph: CodeGraph) -> GraphColumns:
    nodes, edges = graph.nodes, graph.edges
    ids = list(nodes)
    index = dict(zip(ids, range(len(ids)), strict=True))
    relations = list(map(_RELATION, edges))
    confidences = list(map(_CONFIDENCE, edges))
    relation_names = list(dict.fromkeys(relations))
    confidence_names = list(dict.fromkeys(confidences))
    return GraphColumns(
        ids=ids,
        index=index,
        kinds=[n.get("kind", "?") for n in nodes.values()],
        files=[n.get("file") for n in nodes.values()],
        src=list(map(index.__getitem__, map(_SOURCE, edges))),
        dst=list(map(index.__getitem__, map(_TARGET, edges))),
        relation_names=relation_names,
        confidence_names=confidence_names,
        relation=list(map(_positions(relation_names).__getitem__, relations)),
        confidence=list(map(_positions(confidence_names).__getitem__, confidences)),
    )


def _positions(names: list[str]) -> dict[str, int]:
    return dict(zip(names, range(len(names)), strict=True))
