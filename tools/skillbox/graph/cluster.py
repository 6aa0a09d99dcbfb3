"""Communities of a code graph: areas of the code found by Leiden on the file-level dependency graph.

Why files, not symbols: what a person means by "an area of the code" is a set of files, and a method that lands in
another community than its class only confuses the map. One vertex per file (Django: 2.2k linked files, 18k links)
instead of one per symbol (44k vertices, 160k edges) also makes Leiden a matter of milliseconds. What is left is one
pass over the edges, done with C-level iterators (map/Counter, no Python code per edge): it yields the file-to-file
link counts for Leiden and the counts for cohesion. Hub names need each symbol's dependency degree only for the few
best candidates of each community, counted from the adjacency lists on demand instead of in a second edge pass.

The model: every edge between two files adds one to the link between those files (an import comes with the calls
it enables, so weighting by relation changed little); the edges inside a file become that file's self-loop. With
self-loops, modularity of the file graph equals modularity of the symbol graph for partitions that keep each file
whole (Leiden's own aggregation step relies on the same identity), so the objective is the symbol-level one,
restricted to file-respecting partitions. Every symbol takes its file's community. Nodes without a file (external
modules, concepts) are not vertices: each joins the community it is most linked to (ties go to the community holding
the first such file in path order, so the choice does not depend on Leiden's internal labels); an external module
says little about which area a file belongs to.

"Unconnected" at file level: a file with no edge to any other file (nothing in the repository it uses or that uses
it; external modules do not count) is not part of an area. Such files with their symbols, and file-less nodes
linked to no clustered file, form one bucket instead of hundreds of one-file communities (on Django: 695 files,
mostly empty `__init__.py` and locale `formats.py`).

Determinism and stability: vertices are files in path order and links are fed sorted, so input order never matters.
A cold run is igraph's Leiden (C, fixed seed) followed by leidenalg's local moving (`move_nodes`) until no single
file can improve modularity by changing community. A later build starts from the previous build's
`communities.json` and runs only that local moving: a file moves only when its own links make the move strictly
better, so an unchanged graph moves nothing and a one-file edit moves few nodes (a new file starts in the community
it is most linked to; on Django, random one-file edits moved at most 0.1% of the nodes). Community ids are matched
to the previous run's ids by overlap, so "community 7" keeps meaning the same thing; `moved` counts the nodes whose
community id changed.

Why not networkx Louvain: pure Python, and networkx's import alone costs more than this whole module's work.
"""

from __future__ import annotations

import heapq
import sys
from collections import Counter, defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import chain, repeat
from operator import add, itemgetter, mul
from pathlib import Path

import orjson

from skillbox.graph.code_graph import STRUCTURE_RELATIONS, CodeGraph, is_test_path

SEED = 42
FORMAT_VERSION = 1
ALGORITHM = "leiden-modularity-files"
ISOLATED_LABEL = "unconnected files"
SYMBOL_KINDS_EXCLUDED_FROM_HUBS = frozenset({"file", "module", "external", "heading", "concept"})
MAX_SETTLE_PASSES = 20


@dataclass
class Community:
    id: int
    members: list[str]
    label: str = ""
    directory: str = ""
    hubs: list[str] = field(default_factory=list)
    cohesion: float = 0.0
    internal_edges: int = 0
    boundary_edges: int = 0
    isolated: bool = False

    @property
    def size(self) -> int:
        return len(self.members)

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "label": self.label,
            "size": self.size,
            "cohesion": round(self.cohesion, 4),
            "directory": self.directory,
            "hubs": self.hubs,
            "isolated": self.isolated,
            "members": self.members,
        }


@dataclass
class Partition:
    communities: list[Community]
    seeded: bool = False
    moved: int | None = None  # nodes whose community changed vs. the previous partition (None on a cold run)
    algorithm: str = ALGORITHM

    def membership(self) -> dict[str, int]:
        return {m: c.id for c in self.communities for m in c.members}

    def to_json(self) -> dict:
        return {
            "version": FORMAT_VERSION,
            "algorithm": self.algorithm,
            "seed": SEED,
            "seeded_from_previous": self.seeded,
            "moved": self.moved,
            "communities": [c.to_json() for c in self.communities],
        }


def read_previous(path: Path) -> dict[str, int]:
    """node id -> community id from an earlier communities.json; empty when absent or unreadable."""
    try:
        data = orjson.loads(path.read_bytes())
        return dict(chain.from_iterable(zip(c["members"], repeat(int(c["id"]))) for c in data["communities"]))
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def write_communities(partition: Partition, path: Path) -> Path:
    """Write communities.json atomically (a reader never sees half a file)."""
    from skillbox.atomic import atomic_write

    return atomic_write(path, orjson.dumps(partition.to_json(), option=orjson.OPT_APPEND_NEWLINE))


@contextmanager
def _without(*modules: str):
    """Make `import <module>` fail fast for the duration, unless somebody already loaded it.

    igraph imports matplotlib when it is installed (for plotting we never do, ~1 s) and its Graph constructor
    imports numpy on every call to check for arrays (~0.1 s the first time; we pass lists)."""
    hidden = [name for name in modules if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]
    try:
        yield
    finally:
        for name in hidden:
            if sys.modules.get(name, False) is None:
                del sys.modules[name]


def import_clustering():
    """igraph and leidenalg (~0.13 s to import: a build imports them early, while its workers extract)."""
    if "igraph" in sys.modules:
        igraph = sys.modules["igraph"]
    else:
        with _without("matplotlib", "numpy"):
            import igraph
    import leidenalg

    return igraph, leidenalg


class _Units:
    """The graph seen file by file: unit i is a file (files first, in path order) or a file-less node (after).

    `unit_of` maps a node to its unit in order of first appearance (`final[...]` turns that into the sorted
    order): built inside the one loop over nodes, it saves building a node-to-unit dict a second time."""

    def __init__(self, graph: CodeGraph):
        unit_of: dict[str, int] = {}
        first: dict[str, int] = {}
        names: list[str] = []
        members: list[list[str]] = []
        is_file: list[bool] = []
        for node_id, attrs in graph.nodes.items():
            file = attrs.get("file")
            if file:
                unit = first.get(file)
                if unit is None:
                    unit = first[file] = len(names)
                    names.append(file)
                    members.append([])
                    is_file.append(True)
                members[unit].append(node_id)
            else:
                unit = len(names)
                names.append(node_id)
                members.append([node_id])
                is_file.append(False)
            unit_of[node_id] = unit
        order = sorted(range(len(names)), key=lambda u: (not is_file[u], names[u]))
        self.final = [0] * len(order)
        for position, unit in enumerate(order):
            self.final[unit] = position
        self.unit_of = unit_of
        self.names = [names[u] for u in order]
        self.members = [members[u] for u in order]
        self.file_count = is_file.count(True)


class _EdgeTotals:
    """One pass over every edge, with C-level iterators (no Python code runs per edge), giving
    `links[(a, b)]` = number of edges between units a < b (either direction) and `inner[u]` = edges inside unit u.

    Every edge counts one, whatever its relation: between files, an import comes with the calls and references
    it enables, so per-relation weights change little, and leaving the relation out of the counting key makes this
    pass, the largest cost of the module, ~40% cheaper."""

    def __init__(self, graph: CodeGraph, units: _Units):
        unit_count = len(units.names)
        unit = units.unit_of.__getitem__
        edges = graph.edges
        # key = unit(source) * U + unit(target): per edge two lookups, a product and a sum, counted in C
        counts = Counter(
            map(
                add,
                map(mul, map(unit, map(itemgetter(0), edges)), repeat(unit_count)),
                map(unit, map(itemgetter(1), edges)),
            )
        )
        final = units.final
        links: dict[tuple[int, int], int] = {}
        inner: dict[int, int] = {}
        for key, n in counts.items():
            a, b = divmod(key, unit_count)
            a, b = final[a], final[b]
            if a == b:
                inner[a] = n
            else:
                pair = (a, b) if a < b else (b, a)
                links[pair] = links.get(pair, 0) + n
        self.links, self.inner = links, inner


@dataclass
class _Group:
    units: list[int]
    members: list[str]
    isolated: bool = False
    overlap: Counter = field(default_factory=Counter)  # previous community id -> members that were in it


def detect_communities(graph: CodeGraph, previous: dict[str, int] | None = None) -> Partition:
    previous = previous or {}
    units = _Units(graph)
    totals = _EdgeTotals(graph, units)

    labels, seeded = _cluster_files(units, totals, previous)
    _attach_loose(units, totals, labels)

    by_label: dict[int, list[int]] = defaultdict(list)
    bucket: list[int] = []
    for unit in range(len(units.names)):
        label = labels.get(unit)
        (bucket if label is None else by_label[label]).append(unit)
    groups = [_Group(us, _sorted_members(units, us)) for us in by_label.values()]
    groups.sort(key=lambda g: g.members[0])  # an order that does not depend on Leiden's labels
    if bucket:
        groups.append(_Group(bucket, _sorted_members(units, bucket), isolated=True))
    if previous:
        for group in groups:
            group.overlap = Counter(map(previous.get, group.members))
            group.overlap.pop(None, None)

    ids = _match_ids(groups, max(previous.values(), default=-1))
    communities = [
        Community(id=cid, members=g.members, isolated=g.isolated) for cid, g in zip(ids, groups, strict=True)
    ]
    _cohesion(totals, {u: c for g, c in zip(groups, communities, strict=True) for u in g.units}, communities)
    for group, community in zip(groups, communities, strict=True):
        _describe(graph, units, group.units, community)
    moved = None
    if previous:
        moved = sum(g.overlap.total() - g.overlap.get(cid, 0) for g, cid in zip(groups, ids, strict=True))
    communities.sort(key=lambda c: (c.isolated, -c.size, c.id))
    return Partition(communities, seeded=seeded, moved=moved)


def _sorted_members(units: _Units, group: list[int]) -> list[str]:
    members = list(chain.from_iterable(map(units.members.__getitem__, group)))
    members.sort()
    return members


def _cluster_files(units: _Units, totals: _EdgeTotals, previous: dict[str, int]) -> tuple[dict[int, int], bool]:
    """unit -> community label for every file linked to another file; and whether the previous partition seeded it."""
    file_count = units.file_count
    file_links = sorted(pair for pair in totals.links if pair[1] < file_count)
    clustered = sorted({u for pair in file_links for u in pair})
    if not clustered:
        return {}, False
    vertex_of = {u: v for v, u in enumerate(clustered)}
    edges = [(vertex_of[a], vertex_of[b]) for a, b in file_links]
    weights = [totals.links[pair] for pair in file_links]
    for u in clustered:  # the edges inside a file: its self-loop (see the module docstring)
        if u in totals.inner:
            edges.append((vertex_of[u], vertex_of[u]))
            weights.append(totals.inner[u])

    igraph, leidenalg = import_clustering()

    with _without("numpy"):
        g = igraph.Graph(n=len(clustered), edges=edges)
    g.es["weight"] = weights
    initial = _initial_membership(clustered, units, file_links, totals, vertex_of, previous) if previous else None
    seeded = initial is not None
    if initial is None:
        initial = _leiden(igraph, g)
    membership = _settle(leidenalg, g, initial)
    return dict(zip(clustered, membership, strict=True)), seeded


def _leiden(igraph, g) -> list[int]:
    """Modularity by igraph's own Leiden (C, ~10x faster than leidenalg's optimiser), seeded.

    Asked as CPM with node weight = strength (self-loops counted twice) and resolution 1/2m, which is exactly
    modularity: igraph's "modularity" objective leaves self-loops out of the node weights, so its optimum is not
    one for leidenalg's local moving, and the settling that follows would then move hundreds of files."""
    import random

    strength = g.strength(weights="weight", loops=True)
    total = sum(strength)
    igraph.set_random_number_generator(random.Random(SEED))
    try:
        found = g.community_leiden(
            objective_function="CPM",
            weights="weight",
            node_weights=strength,
            resolution=1.0 / total if total else 1.0,
            n_iterations=3,  # to convergence (-1) costs 3x for +0.0003 modularity on Django; settling finishes it
        )
    finally:
        igraph.set_random_number_generator(random)
    return list(found.membership)


def _settle(leidenalg, g, membership: list[int]) -> list[int]:
    """Move single files between communities while that strictly improves modularity (bounded passes)."""
    optimiser = leidenalg.Optimiser()
    optimiser.set_rng_seed(SEED)
    partition = leidenalg.ModularityVertexPartition(g, weights="weight", initial_membership=membership)
    for _ in range(MAX_SETTLE_PASSES):
        if optimiser.move_nodes(partition) <= 1e-12:
            break
    return list(partition.membership)


def _initial_membership(
    clustered: list[int],
    units: _Units,
    file_links: list[tuple[int, int]],
    totals: _EdgeTotals,
    vertex_of: dict[int, int],
    previous: dict[str, int],
) -> list[int] | None:
    """Each file's previous community (its file node's, else its members' most common); a new file joins the
    community it is most linked to among files already placed (else a fresh one). None when nothing is known."""
    membership: list[int | None] = []
    for u in clustered:
        known = previous.get(units.names[u])
        if known is None:
            votes = Counter(map(previous.get, units.members[u]))
            votes.pop(None, None)
            known = min(votes, key=lambda c: (-votes[c], c)) if votes else None
        membership.append(known)
    if all(m is None for m in membership):
        return None
    fresh = max(previous.values(), default=-1) + 1
    new = [v for v, m in enumerate(membership) if m is None]
    if new:
        neighbours: dict[int, list[tuple[int, int]]] = defaultdict(list)
        wanted = set(new)
        for a, b in file_links:
            va, vb = vertex_of[a], vertex_of[b]
            weight = totals.links[(a, b)]
            if va in wanted:
                neighbours[va].append((vb, weight))
            if vb in wanted:
                neighbours[vb].append((va, weight))
        for v in new:
            votes: dict[int, int] = defaultdict(int)
            for other, weight in neighbours[v]:
                if membership[other] is not None:
                    votes[membership[other]] += weight
            if votes:
                membership[v] = min(votes, key=lambda c: (-votes[c], c))
            else:
                membership[v] = fresh
                fresh += 1
    relabel: dict[int, int] = {}  # leidenalg wants labels 0..k-1
    return [relabel.setdefault(c, len(relabel)) for c in membership]


def _attach_loose(units: _Units, totals: _EdgeTotals, labels: dict[int, int]) -> None:
    """A file-less node (external module, concept) joins the community it is most strongly linked to; on a tie,
    the one holding the first linked file in path order."""
    file_count = units.file_count
    votes: dict[int, dict[int, list]] = defaultdict(dict)
    for (a, b), weight in totals.links.items():
        if b < file_count:
            continue  # file-file (a < b, so a loose unit is always b)
        label = labels.get(a)
        if label is None:
            continue
        slot = votes[b].setdefault(label, [0, a])
        slot[0] += weight
        slot[1] = min(slot[1], a)
    for u, by_label in votes.items():
        labels[u] = min(by_label, key=lambda c: (-by_label[c][0], by_label[c][1]))


def _match_ids(groups: list[_Group], highest_previous: int) -> list[int]:
    """Give each group the previous id it overlaps most (largest overlaps first), else an id never used before."""
    ids: list[int | None] = [None] * len(groups)
    taken: set[int] = set()
    overlaps = sorted((-n, gi, cid) for gi, g in enumerate(groups) for cid, n in g.overlap.items())
    for _neg, gi, cid in overlaps:
        if ids[gi] is None and cid not in taken:
            ids[gi] = cid
            taken.add(cid)
    next_id = max([*taken, highest_previous, -1]) + 1
    # new groups get ids in a size order that does not depend on dict iteration
    for gi in sorted(
        range(len(groups)), key=lambda i: (groups[i].isolated, -len(groups[i].members), groups[i].members[0])
    ):
        if ids[gi] is None:
            while next_id in taken:
                next_id += 1
            ids[gi] = next_id
            taken.add(next_id)
    return [int(i) for i in ids]


def _cohesion(totals: _EdgeTotals, community_of: dict[int, Community], communities: list[Community]) -> None:
    """Cohesion = share of the members' edges that stay inside the community (1.0 = self-contained)."""
    for (a, b), n in totals.links.items():
        ca, cb = community_of[a], community_of[b]
        if ca is cb:
            ca.internal_edges += n
        else:
            ca.boundary_edges += n
            cb.boundary_edges += n
    for u, n in totals.inner.items():
        community_of[u].internal_edges += n
    for c in communities:
        total = c.internal_edges + c.boundary_edges
        c.cohesion = c.internal_edges / total if total else 0.0


def _describe(graph: CodeGraph, units: _Units, group: list[int], c: Community) -> None:
    """Label, hubs and dominant directory of one community."""
    nodes, file_count = graph.nodes, units.file_count
    files = [(units.names[u], len(units.members[u])) for u in group if u < file_count]
    code_files = [(f, n) for f, n in files if not is_test_path(f)] or files  # name an area by its code, not tests
    dirs: Counter = Counter()
    for f, n in code_files:
        dirs[f.rpartition("/")[0] or "."] += n
    c.directory = _dominant_directory(dirs)

    in_code: list[str] = []
    in_tests: list[str] = []
    for u in group:
        (in_tests if u < file_count and is_test_path(units.names[u]) else in_code).extend(units.members[u])
    hubs = _top_by_dependency_degree(graph, in_code, 3) or _top_by_dependency_degree(graph, in_tests, 3)
    c.hubs = [_display_name(m, nodes[m]) for m in hubs]
    if c.isolated:
        c.label = ISOLATED_LABEL
    else:
        where = _where(c.directory, dirs)
        c.label = f"{where} · {', '.join(c.hubs[:2])}" if c.hubs else where


def _display_name(node_id: str, attrs: dict) -> str:
    """`QuerySet.annotate` rather than `annotate`: the qualified name, else what follows `path::` in the id."""
    return attrs.get("qualname") or node_id.partition("::")[2] or attrs.get("name") or node_id


def _top_by_dependency_degree(graph: CodeGraph, candidates: list[str], k: int) -> list[str]:
    """The k symbols among `candidates` with the most dependency edges (not containment, not AMBIGUOUS guesses),
    ties by id; files, modules, externals and headings never name a community.

    Counting those edges for every symbol would be a second pass over all edges; a node's total degree bounds its
    dependency degree from above, so candidates are visited by total degree and counting stops as soon as no
    remaining candidate can still make the top k (the kind is looked at only for the nodes visited)."""
    if not candidates:
        return []
    nodes, excluded = graph.nodes, SYMBOL_KINDS_EXCLUDED_FROM_HUBS
    out_get, in_get = graph.out_edges.get, graph.in_edges.get
    bounds = list(
        map(add, map(len, map(out_get, candidates, repeat(()))), map(len, map(in_get, candidates, repeat(()))))
    )
    best: list[tuple[int, str]] = []  # (-degree, id), the k smallest kept
    for i in _by_bound(bounds, k):
        if len(best) >= k and bounds[i] < -best[-1][0]:
            break
        node_id = candidates[i]
        if nodes[node_id].get("kind") in excluded:
            continue
        degree = 0
        for edges in (out_get(node_id, ()), in_get(node_id, ())):
            for e in edges:
                if e[2] not in STRUCTURE_RELATIONS and e[3] != "AMBIGUOUS":
                    degree += 1
        best.append((-degree, node_id))
        best.sort()
        del best[k:]
    return [node_id for _neg, node_id in best]


def _by_bound(bounds: list[int], k: int):
    """Indices by decreasing bound: the first few from a cheap partial selection, the rest only if still needed."""
    head = heapq.nlargest(4 * k, range(len(bounds)), key=bounds.__getitem__)
    yield from head
    if len(head) < len(bounds):
        seen = set(head)
        yield from (i for i in sorted(range(len(bounds)), key=bounds.__getitem__, reverse=True) if i not in seen)


def _where(directory: str, dirs: Counter) -> str:
    """The directory part of a label. When the dominant directory is only a top-level one ("django"), name the two
    biggest directories instead ("django/http + django/views/generic"): that says which area it is."""
    if "/" not in directory and len(dirs) > 1:
        return " + ".join(d if d != "." else "(root)" for d, _n in dirs.most_common(2))
    return directory if directory not in ("", ".") else "(root)"


def _dominant_directory(dirs: Counter) -> str:
    """The deepest directory holding at least half the members' files (falls back to the most common one)."""
    if not dirs:
        return ""
    total = sum(dirs.values())
    prefix_counts: Counter = Counter()
    for directory, n in dirs.items():
        parts = [] if directory == "." else directory.split("/")
        for depth in range(1, len(parts) + 1):
            prefix_counts["/".join(parts[:depth])] += n
    good = [p for p, n in prefix_counts.items() if n * 2 >= total]
    if good:
        return max(good, key=lambda p: (p.count("/"), prefix_counts[p], p))
    return dirs.most_common(1)[0][0]
