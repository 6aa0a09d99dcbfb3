"""The four questions an agent asks a code graph: query (free text), path, explain and affected.

Every answer is a plain dict (the `--json` shape and the MCP tool result) plus `text`, the compact human/agent form.
Answers are built from the SQLite index (`index.py`), so a one-shot process touches only the rows it needs.
"""

from __future__ import annotations

import functools
import heapq
import itertools
from collections import defaultdict

from skillbox.errors import UsageError
from skillbox.graph import ranking
from skillbox.graph.code_graph import (
    DEPENDENCY_RELATIONS,
    STRUCTURE_RELATIONS,
    Edge,
    is_test_path,
    location,
    note_text,
)
from skillbox.graph.index import GraphIndex, NodeRow
from skillbox.graph.names import NoMatchError, close_names, resolve_node
from skillbox.graph.tokens import count_tokens

DEFAULT_BUDGET = 1500
MIN_BUDGET = 50
MAX_MISSES = 40  # lines in a row that did not fit: the budget left is too small for what is left to say
MIN_LINE_TOKENS = 6  # `a.py:1 function f —calls→ g` is about 14; nothing shorter is ever printed

# How much an edge of each relation is worth when expanding a neighbourhood (higher = more informative).
RELATION_WEIGHT = {
    "calls": 1.0,
    "inherits": 1.0,
    "implements": 1.0,
    "imports": 0.7,
    "references": 0.7,
    "uses": 0.7,
    "documents": 0.5,
    "contains": 0.45,
}
CONFIDENCE_WEIGHT = {"EXTRACTED": 1.0, "INFERRED": 0.8, "AMBIGUOUS": 0.4}
CONFIDENCE_ORDER = ("AMBIGUOUS", "INFERRED", "EXTRACTED")  # weakest first


def confidence_rank(confidence: str) -> int:
    """0 for AMBIGUOUS (or anything unknown), 1 INFERRED, 2 EXTRACTED."""
    return CONFIDENCE_ORDER.index(confidence) if confidence in CONFIDENCE_ORDER else 0


def node_label(node: NodeRow) -> str:
    """`Class.method` where the graph knows it (qualname, or the part of a `path::Class.method` id), else the name."""
    return node.label


@functools.lru_cache(maxsize=100_000)
def _is_test_file(path: str | None) -> bool:
    return is_test_path(path)


def _edge_line(index: GraphIndex, edge: Edge) -> str:
    src = index.node(edge.source)
    dst = index.node(edge.target)
    where = location(edge) if edge.file else src.location
    return f"{where} {src.kind} {node_label(src)} —{edge.relation}→ {node_label(dst)} {confidence_tag(edge)}"


def edge_dict(edge: Edge) -> dict:
    """An answer's edge for `--json`: its ends, relation, confidence (with the reason, when recorded), file:line."""
    out = {"source": edge.source, "target": edge.target, "relation": edge.relation, "confidence": edge.confidence}
    if edge.reason:
        out["reason"] = edge.reason
    out["file"], out["line"] = edge.file, edge.line
    return out


def confidence_tag(edge: Edge) -> str:
    """`[EXTRACTED]`, `[AMBIGUOUS]`, or `[INFERRED]` with the resolver's reason when the graph records one:
    every edge an answer prints says how far to trust it."""
    if edge.reason and edge.confidence == "INFERRED":
        return f"[INFERRED: {' '.join(str(edge.reason).split())[:60]}]"
    return f"[{edge.confidence}]"


def _node_line(node: NodeRow) -> str:
    return f"{node.location} {node.kind} {node_label(node)}"


# -- query --------------------------------------------------------------------------------------------------------
SEED_LIMIT = 8
SEED_FLOOR = 0.45  # seeds score at least this share of the best one
CANDIDATES = 150


def query(index: GraphIndex, question: str, budget: int = DEFAULT_BUDGET) -> dict:
    """Seed nodes from the question's terms (`ranking`), expand their neighbourhood, keep the best lines within
    `budget`: first the seeds (with their docstrings), then the edges around them, most relevant first."""
    if budget < MIN_BUDGET:
        raise UsageError(f"--budget must be at least {MIN_BUDGET} tokens (got {budget})")
    terms = ranking.question_terms(question)
    hits = ranking.candidates(index, terms, CANDIDATES)
    if not hits:
        suggestions = []
        for term in terms[:3]:
            suggestions.extend(close_names(index, term.word, limit=2))
        if not suggestions:
            suggestions = [node_label(n) for n in index.top_by_degree(5)]  # cheap: an indexed column
        raise NoMatchError(question, suggestions, what="graph node")
    ranking.weigh_terms(index, terms)
    scorer = ranking.Scorer(index, terms)
    scored = sorted(((scorer.score(n), n) for n in hits), key=lambda p: (-p[0], p[1].id))
    top = scored[0][0]
    seeds = [(s, n) for s, n in scored if s > 0 and s >= SEED_FLOOR * top][:SEED_LIMIT]
    if not seeds:
        seeds = scored[:1]
    top = max(top, 1e-9)

    seed_ids = {n.id for _s, n in seeds}
    hub_degree = max(50, index.degree_percentile(0.99))
    relevance: dict[str, float] = {}
    best_edges: dict[tuple, tuple[float, Edge]] = {}
    frontier = []
    for score, node in seeds:
        relevance[node.id] = score / top
        frontier.append((node.id, score / top))
    for _depth in range(2):
        next_frontier = []
        for node_id, score in frontier:
            node = index.node(node_id)
            if node.degree > hub_degree and node_id not in seed_ids:
                continue  # a hub explains little and would flood the answer
            for edge, other, _out in index.neighbours(node_id):
                weight = RELATION_WEIGHT.get(edge.relation, 0.5) * CONFIDENCE_WEIGHT.get(edge.confidence, 0.5)
                other_node = index.node(other)
                own = scorer.score(other_node) / top
                edge_score = weight * (0.5 * score + own) * scorer.placement(other_node)
                key = (edge.source, edge.target, edge.relation)
                if key not in best_edges or best_edges[key][0] < edge_score:
                    best_edges[key] = (edge_score, edge)
                reach = weight * (0.5 * score + own)
                if reach > relevance.get(other, 0.0):
                    if other not in relevance:
                        next_frontier.append((other, reach))
                    relevance[other] = reach
        frontier = sorted(next_frontier, key=lambda p: (-p[1], p[0]))[:40]

    header = f"# graph answer for: {question.strip()}"
    ranked_edges = _diversified(best_edges.values(), relevance)
    candidate_count = len(seeds) + len(ranked_edges)
    candidates = itertools.chain(
        ((_node_line(n) + _doc_suffix(n), (n.id,), None) for _s, n in seeds),
        ((_edge_line(index, e), (e.source, e.target), e) for _s, e in ranked_edges),
    )

    total = count_tokens(header)
    kept: list[str] = []
    kept_edges: list[dict] = []
    shown_nodes: set[str] = set()
    misses = 0
    for line, node_ids, edge in candidates:
        if budget - total < MIN_LINE_TOKENS or misses >= MAX_MISSES:
            break  # no answer line is shorter than this, or the rest of the budget is a sliver
        cost = count_tokens("\n" + line)
        if total + cost > budget:
            misses += 1
            continue  # a shorter later line may still fit
        misses = 0
        kept.append(line)
        if edge is not None:
            kept_edges.append(edge_dict(edge))
        total += cost
        shown_nodes.update(node_ids)
    used_nodes = sorted(shown_nodes)
    text = "\n".join([header, *kept])
    return {
        "question": question,
        "terms": [t.word for t in terms],
        "budget": budget,
        "tokens": count_tokens(text),
        "seeds": [n.id for _s, n in seeds],
        "lines": kept,
        "edges": kept_edges,
        "omitted": candidate_count - len(kept),
        "nodes": used_nodes,
        "files": sorted({index.node(n).file for n in used_nodes if index.node(n).file}),
        "text": text,
    }


REPEAT_DECAY = 0.7  # the k-th edge at the same node is worth 0.7**k: twelve subclasses of one seed say little more


def _diversified(scored_edges, relevance: dict[str, float]) -> list[tuple[float, Edge]]:
    """Edges best first, each discounted by how many better edges share its more relevant end (its anchor), so
    the budget goes to different parts of the code rather than to a seed's every caller."""
    ordered = sorted(scored_edges, key=lambda p: (-p[0], p[1].source, p[1].target, p[1].relation))
    seen: dict[str, int] = defaultdict(int)
    out = []
    for score, edge in ordered:
        a, b = edge.source, edge.target
        anchor = a if relevance.get(a, 0.0) >= relevance.get(b, 0.0) else b
        out.append((score * REPEAT_DECAY ** seen[anchor], edge))
        seen[anchor] += 1
    out.sort(key=lambda p: (-p[0], p[1].source, p[1].target, p[1].relation))
    return out


def _doc_suffix(node: NodeRow) -> str:
    doc = note_text(node.docstring) or note_text(node.extra.get("notes"))
    if not doc:
        return ""
    first = doc[:100]
    return f" — {first}"


# -- path ---------------------------------------------------------------------------------------------------------
def _hop_cost(relation: str, confidence: str, forward: bool) -> float:
    base = 1.0 if relation in DEPENDENCY_RELATIONS else 3.0 if relation == "contains" else 1.5
    if confidence != "EXTRACTED":
        base += 0.5
    return base if forward else base + REVERSED_HOP_COST


REVERSED_HOP_COST = 1.5  # walking an edge against its direction: allowed, marked, and dearer than a forward hop
TEST_DETOUR_COST = 2.0  # a detour through a test connects two things only by exercising both


def _steps(index: GraphIndex, u: int) -> tuple[tuple[int, int, bool, float, float, bool], ...]:
    """The steps out of node `u`: (edge rowid, neighbour, edge points u->v?, cost walking it u->v, cost walking it
    v->u, neighbour is in a test file) — priced once per node and kept for the life of the index."""
    memo = index.memo("path-steps")
    steps = memo.get(u)
    if steps is None:
        steps = memo[u] = tuple(
            (
                rowid,
                peer,
                outgoing,
                _hop_cost(relation, confidence, outgoing),
                _hop_cost(relation, confidence, not outgoing),
                _is_test_file(peer_file),
            )
            for rowid, peer, outgoing, relation, confidence, peer_file in index.edge_ends(u)
            if peer != u
        )
    return steps


def _cheapest_path(index: GraphIndex, start: int, goal: int, tests_ok: bool, max_settled: int):
    """Bidirectional Dijkstra over node rids; returns [(edge rowid, walked forward?)] or None.

    Stepping from u to v along edge e costs `_hop_cost` (backwards along e costs more), plus a test-detour cost
    for entering a test-file node other than the goal. The backward search from the goal relaxes the same steps
    in reverse, so both halves price a step identically and meet in the middle.
    """

    if start == goal:
        return []
    detour = 0.0 if tests_ok else TEST_DETOUR_COST
    dist = ({start: 0.0}, {goal: 0.0})
    via: tuple[dict, dict] = ({}, {})  # node -> (previous node, edge rowid, forward?) on each side
    # ties break by push order, which follows the (id-ordered) adjacency, never by row ids
    pushes = itertools.count(1)
    heaps = ([(0.0, 0, start)], [(0.0, 0, goal)])
    settled: tuple[set, set] = (set(), set())
    best, meeting = float("inf"), None
    inf = float("inf")
    while heaps[0] and heaps[1]:
        if heaps[0][0][0] + heaps[1][0][0] >= best or len(settled[0]) + len(settled[1]) > max_settled:
            break
        side = 0 if heaps[0][0][0] <= heaps[1][0][0] else 1
        cost, _seq, u = heapq.heappop(heaps[side])
        mine, theirs, came, heap = dist[side], dist[1 - side], via[side], heaps[side]
        if u in settled[side]:
            continue
        settled[side].add(u)
        u_steps = _steps(index, u)
        if side == 1:
            # walking back from the goal: the forward step is v->u, entering u (never a detour when u is the goal)
            enter_u = detour if detour and u != goal and _is_test_file(index.rid_file(u)) else 0.0
        for rowid, v, outgoing, cost_uv, cost_vu, v_test in u_steps:
            if side == 0:
                along = outgoing
                step = cost_uv + (detour if v_test and v != goal else 0.0)
            else:
                along = not outgoing
                step = cost_vu + enter_u
            new = cost + step
            if new < mine.get(v, inf):
                mine[v] = new
                came[v] = (u, rowid, along)
                heapq.heappush(heap, (new, next(pushes), v))
            other = theirs.get(v)
            if other is not None and new + other < best:
                best, meeting = new + other, v
    if meeting is None:
        return None
    steps = []
    node = meeting
    while node != start:
        prev, rowid, along = via[0][node]
        steps.append((rowid, along))
        node = prev
    steps.reverse()
    node = meeting
    while node != goal:
        nxt, rowid, along = via[1][node]
        steps.append((rowid, along))
        node = nxt
    return steps


def path(index: GraphIndex, source: str, target: str, max_settled: int = 200_000) -> dict:
    """Cheapest path from source to target; calls/imports/inherits hops cost least, `contains` most, and walking
    an edge backwards costs a little extra, so the answer reads as a dependency chain where one exists."""
    start = resolve_node(index, source)
    goal = resolve_node(index, target)
    tests_ok = is_test_path(start.file) or is_test_path(goal.file)
    steps = _cheapest_path(index, index.rid(start.id), index.rid(goal.id), tests_ok, max_settled)
    if steps is None:
        return {
            "source": start.id,
            "target": goal.id,
            "found": False,
            "hops": [],
            "text": f"no path between {start.id} and {goal.id}",
        }
    out_hops = []
    text_lines = [f"{_node_line(start)}"]
    for rowid, forward in steps:
        edge = index.edge(rowid)
        prev, node_id = (edge.source, edge.target) if forward else (edge.target, edge.source)
        nxt = index.node(node_id)
        arrow = f"—{edge.relation}→" if forward else f"←{edge.relation}— (reversed)"
        out_hops.append(
            {
                "from": prev,
                "to": node_id,
                "relation": edge.relation,
                "direction": "forward" if forward else "backward",
                "confidence": edge.confidence,
                **({"reason": edge.reason} if edge.reason else {}),
                "file": edge.file,
                "line": edge.line,
            }
        )
        text_lines.append(
            f"  {arrow} {node_label(nxt)} ({nxt.kind}, {nxt.location}) via {location(edge)} {confidence_tag(edge)}"
        )
    reversed_hops = sum(h["direction"] == "backward" for h in out_hops)
    weakest = min((h["confidence"] for h in out_hops), key=confidence_rank, default="EXTRACTED")
    text_lines.append(
        f"{len(out_hops)} hops, {reversed_hops} reversed (read against the edge: the next node depends on the "
        f"previous one); weakest link {weakest}"
        if reversed_hops
        else f"{len(out_hops)} hops, all forward; weakest link {weakest}"
    )
    return {
        "source": start.id,
        "target": goal.id,
        "found": True,
        "length": len(out_hops),
        "reversed": reversed_hops,
        "weakest": weakest,
        "hops": out_hops,
        "text": "\n".join(text_lines),
    }


# -- explain ------------------------------------------------------------------------------------------------------
EXPLAIN_LIMIT = 25


def explain(index: GraphIndex, name: str, limit: int = EXPLAIN_LIMIT) -> dict:
    """What a node is, where, its docstring/notes, callers, callees, imports, members, bases and community."""
    node = resolve_node(index, name)
    groups: dict[str, list[dict]] = defaultdict(list)
    labels = {
        ("calls", True): "calls",
        ("calls", False): "called_by",
        ("imports", True): "imports",
        ("imports", False): "imported_by",
        ("inherits", True): "inherits",
        ("inherits", False): "subclasses",
        ("implements", True): "implements",
        ("implements", False): "implemented_by",
        ("contains", True): "contains",
        ("contains", False): "contained_in",
    }
    keyed: dict[str, list[tuple]] = defaultdict(list)
    for adj in index.adjacent(index.rid(node.id)):
        group = labels.get((adj.relation, adj.outgoing)) or f"{adj.relation}{'' if adj.outgoing else '_by'}"
        peer = adj.peer
        if adj.file:
            at, in_tests = (f"{adj.file}:{adj.line}" if adj.line else adj.file), _is_test_file(adj.file)
        else:
            at, in_tests = peer.location, peer.in_tests
        keyed[group].append((in_tests, peer.id, at, peer, adj.confidence, adj.reason))
    for group, peers in keyed.items():
        # the surest edges first, then the code itself before its tests, then by id
        peers.sort(key=lambda p: (-confidence_rank(p[4]), p[0], p[1]))
        groups[group] = [
            {
                "id": peer_id,
                "kind": peer.kind,
                "name": peer.label,
                "at": at,
                "confidence": confidence,
                **({"reason": reason} if reason else {}),
            }
            for _tests, peer_id, at, peer, confidence, reason in peers
        ]
    community = index.community_of(node.id)
    doc = node.docstring
    notes = node.extra.get("notes")
    result = {
        "id": node.id,
        "kind": node.kind,
        "name": node_label(node),
        "file": node.file,
        "line": node.line,
        "degree": node.degree,
        "docstring": doc,
        "notes": notes,
        "community": community,
        "neighbours": dict(sorted(groups.items())),
    }
    text = [f"{node.kind} {node_label(node)} — {node.location} (id {node.id}, degree {node.degree})"]
    if doc:
        text.append("doc: " + note_text(doc)[:400])
    if notes:
        text.append("notes: " + note_text(notes)[:400])
    if community:
        text.append(f"community {community['id']}: {community['label']} ({community['size']} nodes)")
    for group, peers in result["neighbours"].items():
        text.append(f"{group} ({len(peers)}): " + _by_confidence(peers, limit))
    result["text"] = "\n".join(text)
    return result


def _by_confidence(peers: list[dict], limit: int) -> str:
    """`[EXTRACTED] a (x.py:3), b (y.py:9); [INFERRED] c (z.py:1), … 4 more`: each neighbour under the
    confidence of its edge (peers come sorted surest first)."""
    parts: list[str] = []
    current = None
    for p in peers[:limit]:
        item = f"{p['name']} ({p['at']})"
        if p["confidence"] != current:
            current = p["confidence"]
            parts.append(f"[{current}] {item}")
        else:
            parts[-1] += f", {item}"
    more = f", … {len(peers) - limit} more" if len(peers) > limit else ""
    return "; ".join(parts) + more


# -- affected -----------------------------------------------------------------------------------------------------
AFFECTED_RELATIONS = frozenset({"calls", "imports", "inherits", "implements", "references", "uses"})


CONTAINER_KINDS = frozenset({"file", "class", "module", "interface", "struct", "trait", "enum"})
TYPE_KINDS = CONTAINER_KINDS - {"file", "module"}
CONSTRUCTOR_NAMES = frozenset({"__init__", "__new__", "__post_init__", "constructor", "new", "init"})


def constructor_class(index: GraphIndex, node: NodeRow) -> NodeRow | None:
    """The class a constructor builds (`__init__`, JS `constructor`, Rust `new`, a Java/C# method named after its
    class), or None. Changing a constructor changes every `C(...)`, and those calls point at the class."""
    if node.kind not in ("method", "function", "constructor"):
        return None
    named_so = node.kind == "constructor" or node.name in CONSTRUCTOR_NAMES
    for adj in index.adjacent(index.rid(node.id)):
        owner = adj.peer
        if adj.outgoing or adj.relation != "contains" or owner.kind not in TYPE_KINDS:
            continue
        if named_so or node.name == owner.name:
            return owner
    return None


def affected(index: GraphIndex, name: str, depth: int = 2, include_ambiguous: bool = False) -> dict:
    """Everything that depends on NODE within `depth` reverse dependency hops, grouped by file.

    A file or class stands for what it contains: changing a class affects the callers of its methods; a
    constructor stands for its class too (its users are the class's users). Each dependant carries the weakest
    confidence along the chain that reached it. AMBIGUOUS edges (one of several same-named candidates) are not
    followed unless `include_ambiguous`; how many more nodes they would add is counted either way.
    """
    node = resolve_node(index, name)
    start_rid = index.rid(node.id)
    starts = {node.id: start_rid}
    built = constructor_class(index, node)
    if built is not None:
        starts[built.id] = index.rid(built.id)
    if node.kind in CONTAINER_KINDS:
        stack = [start_rid]
        while stack:
            for adj in index.adjacent(stack.pop()):
                if adj.outgoing and adj.relation == "contains" and adj.peer.id not in starts:
                    starts[adj.peer.id] = adj.peer_rid
                    stack.append(adj.peer_rid)
    seen = dict.fromkeys(starts, 0)
    weakest = dict.fromkeys(starts, "EXTRACTED")
    via: dict[str, tuple[str, str, str, str | None]] = {}
    only_ambiguous: set[str] = set()
    frontier = list(starts.items())
    level = 0
    while frontier and level < depth:  # an empty frontier ends it: a huge --depth costs no more than the graph
        level += 1
        nxt = []
        for current, rid in frontier:
            for adj in index.adjacent(rid):
                if adj.outgoing or adj.relation not in AFFECTED_RELATIONS:
                    continue
                source = adj.peer.id
                if adj.confidence == "AMBIGUOUS" and not include_ambiguous:
                    if source not in seen:
                        only_ambiguous.add(source)
                    continue
                chain = min(weakest[current], adj.confidence, key=confidence_rank)
                if source in seen:
                    if seen[source] == level and confidence_rank(chain) > confidence_rank(weakest[source]):
                        weakest[source] = chain  # a surer route of the same length
                        via[source] = (current, adj.relation, adj.confidence, adj.reason)
                    continue
                seen[source] = level
                weakest[source] = chain
                via[source] = (current, adj.relation, adj.confidence, adj.reason)
                nxt.append((source, adj.peer_rid))
        frontier = nxt
    only_ambiguous -= seen.keys()
    by_file: dict[str, list[dict]] = defaultdict(list)
    by_confidence: dict[str, int] = defaultdict(int)
    for node_id, level in seen.items():
        if level == 0:
            continue
        peer = index.node(node_id)
        target, relation, confidence, reason = via[node_id]
        by_confidence[weakest[node_id]] += 1
        by_file[peer.file or "(no file)"].append(
            {
                "id": peer.id,
                "kind": peer.kind,
                "name": node_label(peer),
                "line": peer.line,
                "depth": level,
                "confidence": weakest[node_id],
                "via": {
                    "relation": relation,
                    "target": target,
                    "confidence": confidence,
                    **({"reason": reason} if reason else {}),
                },
            }
        )
    files = {f: sorted(v, key=lambda p: (p["depth"], p["line"] or 0, p["id"])) for f, v in sorted(by_file.items())}
    count = sum(len(v) for v in files.values())
    counted = {c: by_confidence[c] for c in reversed(CONFIDENCE_ORDER) if by_confidence.get(c)}
    split = ", ".join(f"{c} {n}" for c, n in counted.items())
    text = [
        f"{count} nodes in {len(files)} files depend on {node_label(node)} ({node.location}), depth {depth}"
        + (f" ({split}; weakest link on each chain)" if split else "")
    ]
    if built is not None:
        text.append(f"{node_label(node)} constructs {node_label(built)}: the users of {node_label(built)} count too")
    if only_ambiguous:
        text.append(
            f"{len(only_ambiguous)} more are linked only by AMBIGUOUS edges (several candidates share the name) "
            "and are left out; --include-ambiguous lists them"
        )
    for file, peers in files.items():
        text.append(f"{file}:")
        for p in peers:
            via_node = index.node(p["via"]["target"])
            text.append(
                f"  {p['line'] or '?'} {p['kind']} {p['name']} —{p['via']['relation']}→ {node_label(via_node)} "
                f"(depth {p['depth']}) [{p['confidence']}]"
            )
    return {
        "id": node.id,
        "depth": depth,
        "count": count,
        "by_confidence": counted,
        "include_ambiguous": include_ambiguous,
        "ambiguous_left_out": len(only_ambiguous),
        "constructs": built.id if built is not None else None,
        "files": files,
        "text": "\n".join(text),
    }


# -- small helpers the MCP server and report share ----------------------------------------------------------------
def god_nodes(index: GraphIndex, limit: int = 10, include_ambiguous: bool = False) -> list[dict]:
    """The most depended-on symbols, counted as GRAPH_REPORT.md counts them: dependency edges (not containment)
    from code outside tests, EXTRACTED and INFERRED only unless `include_ambiguous` (one AMBIGUOUS call to
    `x.save` is a guess at each of its candidates, not a connection of each)."""
    degree = dependency_degrees(index, include_ambiguous)
    symbols = index.symbol_rids()
    ranked = sorted((rid for rid in symbols if degree.get(rid)), key=lambda r: -degree[r])
    if len(ranked) > limit:  # ties at the cut: by id, never by row id
        floor = degree[ranked[limit - 1]]
        ranked = [r for r in ranked if degree[r] >= floor]
    rows = sorted((index.node_by_rid(r) for r in ranked), key=lambda n: (-degree[index.rid(n.id)], n.id))[:limit]
    return [
        {
            "id": n.id,
            "kind": n.kind,
            "name": node_label(n),
            "degree": degree[index.rid(n.id)],
            "all_edges": n.degree,
            "at": n.location,
        }
        for n in rows
    ]


def dependency_degrees(index: GraphIndex, include_ambiguous: bool = False) -> dict[int, int]:
    """Node rid -> dependency edges at it (both ends), from code outside tests; kept for the index's life."""
    memo = index.memo("dependency-degree")
    found = memo.get(include_ambiguous)
    if found is None:
        found = memo[include_ambiguous] = index.dependency_degrees(STRUCTURE_RELATIONS, include_ambiguous)
    return found


def stats(index: GraphIndex) -> dict:
    return {"graph": str(index.graph_path), **index.counts()}


def community(index: GraphIndex, community_id: int, limit: int = 50) -> dict:
    found = index.community(community_id)
    if found is None:
        known = [str(c["id"]) for c in index.communities()[:10]]
        raise NoMatchError(str(community_id), known, what="community")
    info, members = found
    return {
        **info,
        "members": [
            {"id": m.id, "kind": m.kind, "name": node_label(m), "at": m.location, "degree": m.degree}
            for m in members[:limit]
        ],
        "omitted": max(0, len(members) - limit),
    }
