"""Communities of a code graph: Leiden in C (igraph + leidenalg), deterministic and stable across builds.

Why not networkx Louvain: it is pure Python (tens of seconds on a Django-size graph); igraph's Leiden takes ~0.3 s
and guarantees connected communities.

Stability: a cold run is Leiden followed by local moving until no single node can improve modularity by changing
community (leidenalg's `move_nodes`). A later build starts from the previous build's `communities.json` and runs
only that local moving: a node moves only when its own neighbourhood makes the move strictly better, so an
unchanged graph moves nothing and a one-file edit moves few nodes (new nodes start in their neighbours' community).
Same input + same previous partition + fixed seed gives the same output; vertices are fed in sorted id order, so
dict order never matters.

Nodes without any edge form one "unconnected" bucket instead of thousands of singleton communities.
Community ids are matched to the previous run's ids by overlap, so "community 7" keeps meaning the same thing.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from skillbox.graph.graphfile import STRUCTURE_RELATIONS, CodeGraph, is_test_path

SEED = 42
FORMAT_VERSION = 1
ISOLATED_LABEL = "unconnected nodes"
# Edge weights for clustering: dependencies bind a bit more than containment; documentation links bind least.
WEIGHTS = {"contains": 1.0, "calls": 1.0, "inherits": 1.0, "implements": 1.0, "imports": 0.6, "documents": 0.3}
SYMBOL_KINDS_EXCLUDED_FROM_HUBS = frozenset({"file", "module", "external", "heading", "concept"})


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
    algorithm: str = "leiden-modularity"

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
        data = json.loads(path.read_text())
        return {m: int(c["id"]) for c in data["communities"] for m in c["members"]}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def _import_igraph():
    """igraph imports matplotlib at import time when it is installed (for plotting we never do): ~1 s for
    nothing. Hide it during the import if nobody has loaded it yet."""
    import sys

    if "igraph" in sys.modules:
        return sys.modules["igraph"]
    hide = "matplotlib" not in sys.modules
    if hide:
        sys.modules["matplotlib"] = None  # makes `import matplotlib` fail fast inside igraph
    try:
        import igraph
    finally:
        if hide:
            del sys.modules["matplotlib"]
    return igraph


def detect_communities(graph: CodeGraph, previous: dict[str, int] | None = None) -> Partition:
    import random

    igraph = _import_igraph()

    previous = previous or {}
    order = sorted(graph.nodes)
    position = {node_id: i for i, node_id in enumerate(order)}
    weights: dict[tuple[int, int], float] = defaultdict(float)
    for e in graph.edges:
        a, b = position[e.source], position[e.target]
        if a == b:
            continue
        key = (a, b) if a < b else (b, a)
        weights[key] += WEIGHTS.get(e.relation, 0.8)
    connected = sorted({i for pair in weights for i in pair})
    sub_index = {v: i for i, v in enumerate(connected)}
    pairs = sorted(weights)
    g = igraph.Graph(n=len(connected), edges=[(sub_index[a], sub_index[b]) for a, b in pairs])
    g.es["weight"] = [weights[p] for p in pairs]

    initial = None
    seeded = bool(previous) and any(order[v] in previous for v in connected)
    if seeded:
        initial = _initial_membership([order[v] for v in connected], previous, g)
    if len(connected):
        if initial is None:
            igraph.set_random_number_generator(random.Random(SEED))
            try:
                initial = g.community_leiden(
                    objective_function="modularity", weights="weight", n_iterations=2
                ).membership
            finally:
                igraph.set_random_number_generator(random)
        membership = _settle(g, initial)
        groups: dict[int, list[str]] = defaultdict(list)
        for v, community in enumerate(membership):
            groups[community].append(order[connected[v]])
        member_lists = [sorted(members) for members in groups.values()]
    else:
        member_lists = []
    isolated = sorted(set(order) - {order[v] for v in connected})

    ids = _match_ids(member_lists, previous)
    communities = [Community(id=cid, members=members) for cid, members in zip(ids, member_lists, strict=True)]
    if isolated:
        iso_id = _match_ids([isolated], previous, taken=set(ids))[0]
        communities.append(Community(id=iso_id, members=isolated, isolated=True))
    communities.sort(key=lambda c: (c.isolated, -c.size, c.id))
    _describe(graph, communities)
    moved = None
    if previous:
        now = {m: c.id for c in communities for m in c.members}
        moved = sum(1 for node_id, cid in now.items() if node_id in previous and previous[node_id] != cid)
    return Partition(communities, seeded=seeded, moved=moved)


def _settle(g, membership: list[int]) -> list[int]:
    """Move single nodes between communities while that strictly improves modularity (bounded passes)."""
    import leidenalg

    optimiser = leidenalg.Optimiser()
    optimiser.set_rng_seed(SEED)
    partition = leidenalg.ModularityVertexPartition(g, weights="weight", initial_membership=membership)
    for _ in range(20):
        if optimiser.move_nodes(partition) <= 1e-12:
            break
    return list(partition.membership)


def _initial_membership(names: list[str], previous: dict[str, int], g) -> list[int]:
    """Previous community for known nodes; a new node joins the most common previous community among its
    neighbours (else its own fresh community), so the optimiser starts close to where it ended last time."""
    membership: list[int | None] = [previous.get(name) for name in names]
    fresh = max(previous.values(), default=-1) + 1
    for v, value in enumerate(membership):
        if value is not None:
            continue
        votes = Counter(membership[u] for u in g.neighbors(v) if membership[u] is not None)
        if votes:
            membership[v] = min(votes, key=lambda c: (-votes[c], c))
        else:
            membership[v] = fresh
            fresh += 1
    # igraph wants 0..k-1 labels
    relabel: dict[int, int] = {}
    return [relabel.setdefault(c, len(relabel)) for c in membership]


def _match_ids(groups: list[list[str]], previous: dict[str, int], taken: set[int] | None = None) -> list[int]:
    """Give each group the previous id it overlaps most (largest overlaps first), else a new id."""
    taken = set(taken or ())
    ids: list[int | None] = [None] * len(groups)
    if previous:
        overlaps = []
        for gi, members in enumerate(groups):
            counts = Counter(previous[m] for m in members if m in previous)
            overlaps.extend((-n, gi, cid) for cid, n in counts.items())
        for _neg, gi, cid in sorted(overlaps):
            if ids[gi] is None and cid not in taken:
                ids[gi] = cid
                taken.add(cid)
    next_id = max([*taken, *previous.values(), -1]) + 1
    # new groups get ids in a size order that does not depend on dict iteration
    for gi in sorted(range(len(groups)), key=lambda i: (-len(groups[i]), groups[i][0] if groups[i] else "")):
        if ids[gi] is None:
            while next_id in taken:
                next_id += 1
            ids[gi] = next_id
            taken.add(next_id)
    return [int(i) for i in ids]


def _describe(graph: CodeGraph, communities: list[Community]) -> None:
    """Label, hubs, dominant directory and cohesion (share of member edges that stay inside) for each community."""
    membership = {m: c.id for c in communities for m in c.members}
    internal: Counter = Counter()
    boundary: Counter = Counter()
    dependency_degree: Counter = Counter()
    for e in graph.edges:
        if e.relation not in STRUCTURE_RELATIONS and e.confidence != "AMBIGUOUS":
            dependency_degree[e.source] += 1
            dependency_degree[e.target] += 1
        a, b = membership.get(e.source), membership.get(e.target)
        if a == b:
            internal[a] += 1
        else:
            boundary[a] += 1
            boundary[b] += 1
    for c in communities:
        c.internal_edges, c.boundary_edges = internal[c.id], boundary[c.id]
        total = c.internal_edges + c.boundary_edges
        c.cohesion = c.internal_edges / total if total else 0.0
        files = [graph.nodes[m]["file"] for m in c.members if graph.nodes[m].get("file")]
        code_files = [f for f in files if not is_test_path(f)] or files  # name an area by its code, not its tests
        dirs = Counter(f.rpartition("/")[0] or "." for f in code_files)
        c.directory = _dominant_directory(dirs)
        symbols = [
            m
            for m in c.members
            if graph.nodes[m].get("kind") not in SYMBOL_KINDS_EXCLUDED_FROM_HUBS
            and not is_test_path(graph.nodes[m].get("file"))
        ] or [m for m in c.members if graph.nodes[m].get("kind") not in SYMBOL_KINDS_EXCLUDED_FROM_HUBS]
        symbols.sort(key=lambda m: (-dependency_degree[m], m))
        c.hubs = [graph.nodes[m].get("qualname") or graph.nodes[m].get("name") or m for m in symbols[:3]]
        if c.isolated:
            c.label = ISOLATED_LABEL
        else:
            where = c.directory if c.directory not in ("", ".") else "(root)"
            c.label = f"{where} · {', '.join(c.hubs[:2])}" if c.hubs else where


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


def write_communities(partition: Partition, path: Path) -> Path:
    """Write communities.json atomically (a reader never sees half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".communities-", suffix=".tmp", dir=path.parent)
    with os.fdopen(fd, "w") as handle:
        json.dump(partition.to_json(), handle, indent=1, sort_keys=False)
        handle.write("\n")
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    return path
