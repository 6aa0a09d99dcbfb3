"""GRAPH_REPORT.md: what a person or agent should know about a codebase before asking the graph anything.

Everything here is linear or near-linear in the graph size: no betweenness or other all-pairs centrality (graphify
spends 38 s of a 143 s Django run on sampled betweenness). "God nodes" are ranked by dependency degree (edges other
than containment), which is cheap and says the same thing for code: what many other things lean on.

Surprising connections are dependency edges (calls, inherits, implements, references, uses) that cross community
and directory lines, scored by a rule stated in the report itself. Only EXTRACTED edges, or INFERRED ones with a
score of at least 0.8, qualify; edges from test files are left out (tests reaching across the tree are expected).
"""

from __future__ import annotations

import functools
import heapq
from collections import Counter, defaultdict
from itertools import compress, count, filterfalse, repeat
from operator import add, and_, itemgetter, mul, not_, or_
from pathlib import PurePosixPath

from skillbox.graph.cluster import Partition
from skillbox.graph.graphfile import STRUCTURE_RELATIONS, CodeGraph, Edge, is_test_path

SURPRISE_RELATIONS = frozenset({"calls", "inherits", "implements", "references", "uses"})
NON_SYMBOL_KINDS = frozenset({"file", "module", "external", "heading", "concept"})
_EVIDENCED = frozenset({"EXTRACTED", "INFERRED"})  # INFERRED needs a score >= 0.8 too
DEAD_KINDS = frozenset({"function", "method", "class"})
ENTRY_POINT_NAMES = frozenset({"main", "setup", "teardown", "setUp", "tearDown", "__init__", "__main__"})
LANGUAGE_BY_SUFFIX = {
    ".py": "Python", ".pyi": "Python", ".js": "JavaScript", ".mjs": "JavaScript", ".cjs": "JavaScript",
    ".jsx": "JavaScript", ".ts": "TypeScript", ".tsx": "TypeScript", ".mts": "TypeScript", ".cts": "TypeScript",
    ".go": "Go", ".rs": "Rust", ".java": "Java", ".c": "C", ".h": "C", ".cc": "C++", ".cpp": "C++", ".hpp": "C++",
    ".cs": "C#", ".rb": "Ruby", ".php": "PHP", ".kt": "Kotlin", ".swift": "Swift", ".scala": "Scala", ".lua": "Lua",
    ".sh": "Bash", ".html": "HTML", ".css": "CSS", ".md": "Markdown", ".vue": "Vue", ".svelte": "Svelte",
}  # fmt: skip
_SOURCE, _TARGET, _RELATION, _CONFIDENCE = (itemgetter(i) for i in range(4))
_FIRST, _COUNT = itemgetter(0), itemgetter(1)


def _name(node: dict) -> str:
    """`Class.method` where the id says so (`path::Class.method`), else the plain name."""
    if node.get("qualname"):
        return node["qualname"]
    file, node_id = node.get("file"), node["id"]
    if file and node_id.startswith(file + "::"):
        return node_id[len(file) + 2 :]
    return node.get("name") or node_id


def _where(node: dict) -> str:
    file, line = node.get("file"), node.get("line")
    return f"{file}:{line}" if file and line else (file or "?")


def _md(text: str) -> str:
    """Code text inside a markdown table or list: keep it literal and on one line."""
    return "`" + " ".join(str(text).split()).replace("`", "ˋ").replace("|", "\\|") + "`"


class ReportData:
    """The numbers behind the report, computed once (tests and the MCP server read them too).

    Django's graph has 160k edges, and a Python loop that touches each edge a few times costs more than the whole
    report may. So the edges are read once as columns (sources, targets, relations, confidences) and filtered with
    map/compress/Counter, which run in C; Python-level loops only see the few thousand edges that can matter
    (surprise candidates, imports) and the nodes."""

    def __init__(self, graph: CodeGraph, partition: Partition):
        self.graph = graph
        self.partition = partition
        self.membership = _membership(partition)
        nodes, edges = graph.nodes, graph.edges
        # Columns. Nothing here builds a tuple per edge: 160k fresh tuples also wake the cyclic garbage collector,
        # which then walks the whole graph (millions of objects) more than once.
        self._ids = list(nodes)
        self._kinds = [n.get("kind", "?") for n in nodes.values()]
        self.node_file = {nid: n.get("file") for nid, n in nodes.items()}
        self._sources = list(map(_SOURCE, edges))
        self._targets = list(map(_TARGET, edges))
        self._relations = list(map(_RELATION, edges))
        self._confidences = list(map(_CONFIDENCE, edges))
        self.test_files = {f for f in set(self.node_file.values()) if is_test_path(f)}
        # Dependency degree counts edges other than containment, leaves out AMBIGUOUS guesses (one call to
        # `x.append` is not 3 connections) and edges from test code (a test suite is not a dependant).
        structural = map(STRUCTURE_RELATIONS.__contains__, self._relations)
        ambiguous = map("AMBIGUOUS".__eq__, self._confidences)
        is_dependency = list(map(not_, map(or_, structural, ambiguous)))
        dep_sources = list(compress(self._sources, is_dependency))
        dep_targets = list(compress(self._targets, is_dependency))
        self.dep_in: Counter = Counter(dep_targets)
        test_nodes = set(compress(self._ids, map(self.test_files.__contains__, self.node_file.values())))
        from_code = list(map(not_, map(test_nodes.__contains__, dep_sources)))
        self.dep_degree: Counter = Counter(compress(dep_sources, from_code))
        self.dep_degree.update(compress(dep_targets, from_code))

    def summary(self) -> dict:
        g = self.graph
        files = sorted({f for f in self.node_file.values() if f})
        recorded = {n["file"]: n["language"] for n in g.nodes.values() if n.get("kind") == "file" and n.get("language")}
        languages = Counter(
            recorded.get(f)
            or LANGUAGE_BY_SUFFIX.get(PurePosixPath(f).suffix.lower(), PurePosixPath(f).suffix or "other")
            for f in files
        )
        return {
            "files": len(files),
            "nodes": len(g.nodes),
            "edges": len(g.edges),
            "kinds": Counter(self._kinds).most_common(),
            "relations": Counter(self._relations).most_common(),
            "confidence": Counter(self._confidences).most_common(),
            "languages": languages.most_common(),
        }

    @functools.cached_property
    def _ranked(self) -> list[str]:
        """Nodes with any dependency degree, most connected first, ties by id."""
        ranked = sorted(self.dep_degree.items())
        ranked.sort(key=_COUNT, reverse=True)  # stable, also when reversed: equal degrees stay in id order
        return [nid for nid, degree in ranked if degree]

    def god_nodes(self, limit: int = 10) -> list[tuple[dict, int]]:
        nodes, result = self.graph.nodes, []
        for nid in self._ranked:
            if nodes[nid].get("kind") not in NON_SYMBOL_KINDS:
                result.append((nodes[nid], self.dep_degree[nid]))
                if len(result) == limit:
                    break
        return result

    def top_members(self, members: list[str], limit: int = 5) -> list[str]:
        """The community's most connected members (ties and unconnected ones by id)."""
        rank = self._rank
        unranked = len(rank)
        best = heapq.nsmallest(limit, map(rank.get, members, repeat(unranked)))
        top = [self._ranked[i] for i in best if i < unranked]
        if len(top) < limit:
            top += sorted(filterfalse(rank.__contains__, members))[: limit - len(top)]
        return top

    @functools.cached_property
    def _rank(self) -> dict[str, int]:
        return {nid: i for i, nid in enumerate(self._ranked)}

    def surprising(self, limit: int = 10) -> list[dict]:
        return [
            {"edge": edge, "score": score, "reasons": self._surprise(edge)[1]}
            for _, score, edge in self._all_surprising[:limit]
        ]

    @functools.cached_property
    def _hub_in_degree(self) -> int:
        in_degrees = sorted(self.dep_in.values())
        return max(10, in_degrees[int(len(in_degrees) * 0.99)] if in_degrees else 0)

    @functools.cached_property
    def _community_links(self) -> Counter:
        """Edges from community a to community b, counted under the int key `a * stride + b` (ids shifted by one
        so that nodes outside the partition count as community -1); ints, unlike pairs, cost the collector nothing."""
        ids = [c.id for c in self.partition.communities]
        self._stride = max(ids, default=0) + 2
        membership = self.membership
        source_keys = map(mul, map(membership.get, self._sources, repeat(-1)), repeat(self._stride))
        return Counter(map(add, source_keys, map(membership.get, self._targets, repeat(-1))))

    def _links_between(self, a: int | None, b: int | None) -> int:
        links = self._community_links
        a, b = -1 if a is None else a, -1 if b is None else b
        return links[a * self._stride + b] + links[b * self._stride + a]

    def _surprise(self, e: Edge) -> tuple[int, list[str]]:
        """The stated score of a candidate edge (files differ, source outside tests) and its reasons."""
        fa, fb = self.node_file[e.source], self.node_file[e.target]
        ca, cb = self.membership.get(e.source), self.membership.get(e.target)
        da, db = fa.rpartition("/")[0], fb.rpartition("/")[0]
        reasons = []
        score = 0
        if da.partition("/")[0] != db.partition("/")[0]:
            score += 2
            reasons.append("different top-level directory")
        elif da != db:
            score += 1
            reasons.append("different directory")
        if ca != cb:
            score += 1
            reasons.append("different community")
            if self._links_between(ca, cb) <= 2:
                score += 1
                reasons.append("one of at most 2 links between the two communities")
        if self.dep_in[e.target] >= self._hub_in_degree:
            score -= 1
            reasons.append("but the target is widely used")
        return score, reasons

    @functools.cached_property
    def _all_surprising(self) -> list[tuple[tuple, int, Edge]]:
        """(sort key, score, edge) for every edge scoring >= 2, best first; the first edge per (source, target,
        relation) in graph order stands for its duplicates."""
        edges, node_file, test_files = self.graph.edges, self.node_file, self.test_files
        relation_ok = map(SURPRISE_RELATIONS.__contains__, self._relations)
        confidence_ok = map(_EVIDENCED.__contains__, self._confidences)
        candidates = compress(zip(count(), self._sources, self._targets), map(and_, relation_ok, confidence_ok))
        found, seen = [], set()
        for i, source, target in candidates:
            fa, fb = node_file[source], node_file[target]
            if not fa or not fb or fa == fb or fa in test_files:
                continue
            e = edges[i]
            if e.confidence != "EXTRACTED" and (e.score or 0) < 0.8:
                continue
            key = (source, target, e.relation)
            if key in seen:
                continue
            seen.add(key)
            score = self._surprise(e)[0]
            if score >= 2:
                found.append(((-score, source, target, i), score, e))
        found.sort(key=_FIRST)
        return found

    def import_cycles(self, limit: int = 10) -> list[list[str]]:
        return self._all_cycles[:limit]

    @functools.cached_property
    def _all_cycles(self) -> list[list[str]]:
        """One shortest import cycle per strongly connected group of files (file-level import graph)."""
        succ: dict[str, set[str]] = defaultdict(set)
        node_file = self.node_file
        is_import = map("imports".__eq__, self._relations)
        for source, target in compress(zip(self._sources, self._targets, strict=True), is_import):
            fa, fb = node_file[source], node_file[target]
            if fa and fb and fa != fb:
                succ[fa].add(fb)
        cycles = []
        for component in strongly_connected(succ):
            if len(component) < 2:
                continue
            start = min(component)
            back = _shortest_back(succ, component, start)
            if back:
                cycles.append([start, *back])
        cycles.sort(key=lambda c: (len(c), c))
        return cycles

    def dead_looking(self) -> list[dict]:
        """Functions, methods and classes nothing calls, imports, inherits or references (name-based guesses:
        entry points, dunder methods, tests and framework hooks will show up here too, so it's a list to read)."""
        nodes, result = self.graph.nodes, []
        uncalled = compress(
            self._ids,
            map(and_, map(DEAD_KINDS.__contains__, self._kinds), map(not_, map(self.dep_in.__contains__, self._ids))),
        )
        for nid in uncalled:
            n = nodes[nid]
            if n.get("file") in self.test_files:
                continue
            name = n.get("name") or ""
            if name in ENTRY_POINT_NAMES or name.startswith("test") or (name[:2] == "__" and name[-2:] == "__"):
                continue
            result.append(n)
        result.sort(key=lambda n: (n.get("file") or "", n.get("line") or 0))
        return result

    def isolated(self) -> list[dict]:
        g = self.graph
        unlinked = set(g.nodes).difference(g.out_edges, g.in_edges)
        return list(map(g.nodes.__getitem__, filter(unlinked.__contains__, g.nodes)))


def _membership(partition: Partition) -> dict[str, int]:
    """node id -> community id; dict.fromkeys per community keeps the 44k-entry build out of the interpreter."""
    membership: dict[str, int] = {}
    for c in partition.communities:
        membership.update(dict.fromkeys(c.members, c.id))
    return membership


def strongly_connected(succ: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's algorithm, iterative (import graphs are deep enough to overflow recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[set[str]] = []
    counter = 0
    for root in sorted(succ):
        if root in index:
            continue
        work = [(root, iter(sorted(succ.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(succ.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                components.append(component)
    return components


def _shortest_back(succ: dict[str, set[str]], component: set[str], start: str) -> list[str] | None:
    """Breadth-first from `start`'s successors back to `start`, inside the component: the cycle's other files."""
    parents: dict[str, str | None] = {}
    queue = []
    for first in sorted(succ[start] & component):
        parents[first] = None
        queue.append(first)
    for node in queue:  # the list grows while we walk it: a BFS queue
        if node == start:
            path = [node]
            while parents[path[-1]] is not None:
                path.append(parents[path[-1]])
            return path[::-1]
        for nxt in sorted(succ.get(node, ()) & component):
            if nxt not in parents:
                parents[nxt] = node
                queue.append(nxt)
    return None


def suggested_questions(data: ReportData) -> list[tuple[str, str]]:
    """4-6 questions this graph answers well, each with the command that answers it."""
    questions: list[tuple[str, str]] = []
    gods = data.god_nodes(3)
    if gods:
        top = gods[0][0]
        questions.append((f"What is {_name(top)} and who depends on it?", f'skillbox graph explain "{top["id"]}"'))
        questions.append(
            (f"What could break if {_name(top)} changes?", f'skillbox graph affected "{top["id"]}" --depth 2')
        )
    surprises = data.surprising(1)
    if surprises:
        e = surprises[0]["edge"]
        a, b = data.graph.nodes[e.source], data.graph.nodes[e.target]
        questions.append(
            (
                f"Why does {_name(a)} reach into {_where(b).split(':')[0]}?",
                f'skillbox graph path "{a["id"]}" "{b["id"]}"',
            )
        )
    big = [c for c in data.partition.communities if not c.isolated]
    if big:
        c = big[0]
        words = " ".join([*c.directory.split("/")[-1:], *c.hubs[:2]])
        questions.append((f"How is the {c.label} area organised?", f'skillbox graph query "{words}"'))
    cycles = data.import_cycles(1)
    if cycles:
        cycle = cycles[0]
        questions.append(
            (
                f"How do {cycle[0]} and {cycle[1]} depend on each other?",
                f'skillbox graph path "{cycle[0]}" "{cycle[1]}"',
            )
        )
    if len(gods) > 1:
        second = gods[1][0]
        questions.append((f"Where is {_name(second)} used?", f'skillbox graph explain "{second["id"]}"'))
    return questions[:6]


def render_report(graph: CodeGraph, partition: Partition, title: str = "Code graph report") -> str:
    return render_report_data(ReportData(graph, partition), title)


def render_report_data(data: ReportData, title: str = "Code graph report") -> str:
    graph, partition = data.graph, data.partition
    s = data.summary()
    out: list[str] = [f"# {title}", ""]
    out += ["## Summary", ""]
    out.append(f"- **{s['files']}** files, **{s['nodes']}** nodes, **{s['edges']}** edges")
    out.append("- Languages: " + ", ".join(f"{lang} ({n} files)" for lang, n in s["languages"]))
    out.append("- Nodes by kind: " + ", ".join(f"{k} {n}" for k, n in s["kinds"]))
    out.append("- Edges by relation: " + ", ".join(f"{k} {n}" for k, n in s["relations"]))
    total = max(1, s["edges"])
    out.append("- Confidence: " + ", ".join(f"{k} {n} ({100 * n / total:.1f}%)" for k, n in s["confidence"]))
    communities = [c for c in partition.communities if not c.isolated]
    seeded = "seeded from the previous build's partition" if partition.seeded else "cold start"
    moved = f", {partition.moved} nodes changed community since the last build" if partition.moved is not None else ""
    out.append(f"- Communities: {len(communities)} (Leiden, modularity, fixed seed; {seeded}{moved})")
    out.append(
        "- Cost note: no betweenness or other all-pairs centrality is computed; rankings use degree, so this "
        "report costs a small fraction of the extraction."
    )
    out.append("")

    out += [
        "## God nodes",
        "",
        "The most connected symbols: edges other than containment, from non-test code, AMBIGUOUS guesses left out; "
        "files excluded.",
        "",
    ]
    out += ["| symbol | kind | where | connections |", "|---|---|---|---|"]
    for node, degree in data.god_nodes():
        out.append(f"| {_md(_name(node))} | {node.get('kind')} | {_md(_where(node))} | {degree} |")
    out.append("")

    out += ["## Communities", ""]
    out.append(
        "Cohesion = share of the members' edges that stay inside the community (1.0 = self-contained). "
        "Labels come from the dominant directory and the most connected members."
    )
    out += ["", "| id | label | size | cohesion | top members |", "|---|---|---|---|---|"]
    shown = communities[:25]
    for c in shown:
        top = data.top_members(c.members)
        members = ", ".join(_md(_name(graph.nodes[m])) for m in top)
        out.append(f"| {c.id} | {_md(c.label)} | {c.size} | {c.cohesion:.2f} | {members} |")
    if len(communities) > len(shown):
        rest = communities[len(shown) :]
        out.append(f"\n{len(rest)} smaller communities ({sum(c.size for c in rest)} nodes) are not listed.")
    out.append("")

    out += ["## Surprising connections", ""]
    out.append(
        "Dependency edges (calls, inherits, implements, references, uses) between files, scored: +2 different "
        "top-level directory (else +1 different directory), +1 different community, +1 more when at most 2 edges "
        "link those two communities, -1 when the target is among the 1% most depended-on symbols (using a hub is not "
        "surprising). Only EXTRACTED edges and INFERRED edges scored >= 0.8 qualify; edges from "
        "test files are skipped. Score >= 2 shown."
    )
    out.append("")
    surprises = data.surprising()
    if not surprises:
        out.append("None found.")
    for item in surprises:
        e = item["edge"]
        a, b = graph.nodes[e.source], graph.nodes[e.target]
        at = f"{e.file}:{e.line}" if e.file and e.line else _where(a)
        out.append(
            f"- score {item['score']}: {_md(_name(a))} —{e.relation}→ {_md(_name(b))} ({_md(_where(b))}) "
            f"at {_md(at)}, {e.confidence}; {'; '.join(item['reasons'])}"
        )
    out.append("")

    out += ["## Import cycles", ""]
    cycles = data.import_cycles()
    if not cycles:
        out.append("No file-level import cycles.")
    for cycle in cycles:
        out.append("- " + " → ".join(_md(f) for f in cycle))
    out.append("")

    dead = data.dead_looking()
    isolated = data.isolated()
    out += ["## Isolated and dead-looking code", ""]
    out.append(
        f"{len(isolated)} nodes have no edges at all; {len(dead)} functions/classes outside tests have no incoming "
        "call, import, inheritance or reference (entry points, callbacks and dynamic use look the same — check "
        "before deleting)."
    )
    out.append("")
    for n in dead[:20]:
        out.append(f"- {n.get('kind')} {_md(_name(n))} at {_md(_where(n))}")
    if len(dead) > 20:
        out.append(f"- … {len(dead) - 20} more")
    out.append("")

    out += ["## Suggested questions", ""]
    for question, command in suggested_questions(data):
        out.append(f"- {question} → `{command}`")
    out.append("")
    return "\n".join(out)


def community_sizes(partition: Partition) -> dict[int, int]:
    sizes: dict[int, int] = defaultdict(int)
    for c in partition.communities:
        sizes[c.id] = c.size
    return sizes
