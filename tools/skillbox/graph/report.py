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
from collections import Counter, defaultdict
from pathlib import PurePosixPath

from skillbox.graph.cluster import Partition
from skillbox.graph.graphfile import STRUCTURE_RELATIONS, CodeGraph, is_test_path

SURPRISE_RELATIONS = frozenset({"calls", "inherits", "implements", "references", "uses"})
NON_SYMBOL_KINDS = frozenset({"file", "module", "external", "heading", "concept"})
ENTRY_POINT_NAMES = frozenset({"main", "setup", "teardown", "setUp", "tearDown", "__init__", "__main__"})
LANGUAGE_BY_SUFFIX = {
    ".py": "Python", ".pyi": "Python", ".js": "JavaScript", ".mjs": "JavaScript", ".cjs": "JavaScript",
    ".jsx": "JavaScript", ".ts": "TypeScript", ".tsx": "TypeScript", ".mts": "TypeScript", ".cts": "TypeScript",
    ".go": "Go", ".rs": "Rust", ".java": "Java", ".c": "C", ".h": "C", ".cc": "C++", ".cpp": "C++", ".hpp": "C++",
    ".cs": "C#", ".rb": "Ruby", ".php": "PHP", ".kt": "Kotlin", ".swift": "Swift", ".scala": "Scala", ".lua": "Lua",
    ".sh": "Bash", ".html": "HTML", ".css": "CSS", ".md": "Markdown", ".vue": "Vue", ".svelte": "Svelte",
}  # fmt: skip


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
    """The numbers behind the report, computed once (tests and the MCP server read them too)."""

    def __init__(self, graph: CodeGraph, partition: Partition):
        self.graph = graph
        self.partition = partition
        self.membership = partition.membership()
        # Dependency degree counts edges other than containment, leaves out AMBIGUOUS guesses (one call to
        # `x.append` is not 3 connections) and edges from test code (a test suite is not a dependant).
        self.dep_degree: Counter = Counter()
        self.dep_in: Counter = Counter()
        for e in graph.edges:
            if e.relation in STRUCTURE_RELATIONS or e.confidence == "AMBIGUOUS":
                continue
            self.dep_in[e.target] += 1
            if is_test_path(graph.nodes[e.source].get("file")):
                continue
            self.dep_degree[e.source] += 1
            self.dep_degree[e.target] += 1

    def summary(self) -> dict:
        g = self.graph
        files = {n["file"] for n in g.nodes.values() if n.get("file")}
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
            "kinds": Counter(n.get("kind", "?") for n in g.nodes.values()).most_common(),
            "relations": Counter(e.relation for e in g.edges).most_common(),
            "confidence": Counter(e.confidence for e in g.edges).most_common(),
            "languages": languages.most_common(),
        }

    def god_nodes(self, limit: int = 10) -> list[tuple[dict, int]]:
        symbols = [nid for nid, n in self.graph.nodes.items() if n.get("kind") not in NON_SYMBOL_KINDS]
        symbols.sort(key=lambda nid: (-self.dep_degree[nid], nid))
        return [(self.graph.nodes[nid], self.dep_degree[nid]) for nid in symbols[:limit] if self.dep_degree[nid]]

    def surprising(self, limit: int = 10) -> list[dict]:
        return self._all_surprising[:limit]

    @functools.cached_property
    def _all_surprising(self) -> list[dict]:
        g, membership = self.graph, self.membership
        between: Counter = Counter()
        for e in g.edges:
            a, b = membership.get(e.source), membership.get(e.target)
            if a != b:
                between[(min(a, b), max(a, b))] += 1
        found = []
        seen = set()
        in_degrees = sorted(self.dep_in.values())
        hub_in_degree = max(10, in_degrees[int(len(in_degrees) * 0.99)] if in_degrees else 0)
        for e in g.edges:
            if e.relation not in SURPRISE_RELATIONS:
                continue
            if e.confidence != "EXTRACTED" and not (e.confidence == "INFERRED" and (e.score or 0) >= 0.8):
                continue
            src, dst = g.nodes[e.source], g.nodes[e.target]
            fa, fb = src.get("file"), dst.get("file")
            if not fa or not fb or fa == fb or is_test_path(fa):
                continue
            ca, cb = membership.get(e.source), membership.get(e.target)
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
                if between[(min(ca, cb), max(ca, cb))] <= 2:
                    score += 1
                    reasons.append("one of at most 2 links between the two communities")
            if self.dep_in[e.target] >= hub_in_degree:
                score -= 1
                reasons.append("but the target is widely used")
            if score < 2:
                continue
            key = (e.source, e.target, e.relation)
            if key in seen:
                continue
            seen.add(key)
            found.append({"edge": e, "score": score, "reasons": reasons})
        found.sort(key=lambda f: (-f["score"], f["edge"].source, f["edge"].target))
        return found

    def import_cycles(self, limit: int = 10) -> list[list[str]]:
        return self._all_cycles[:limit]

    @functools.cached_property
    def _all_cycles(self) -> list[list[str]]:
        """One shortest import cycle per strongly connected group of files (file-level import graph)."""
        succ: dict[str, set[str]] = defaultdict(set)
        for e in self.graph.edges:
            if e.relation != "imports":
                continue
            fa, fb = self.graph.nodes[e.source].get("file"), self.graph.nodes[e.target].get("file")
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
        result = []
        for nid, n in self.graph.nodes.items():
            if n.get("kind") not in ("function", "method", "class"):
                continue
            name = n.get("name") or ""
            if self.dep_in[nid] or is_test_path(n.get("file")) or name in ENTRY_POINT_NAMES:
                continue
            if (name.startswith("__") and name.endswith("__")) or name.startswith("test"):
                continue
            result.append(n)
        result.sort(key=lambda n: (n.get("file") or "", n.get("line") or 0))
        return result

    def isolated(self) -> list[dict]:
        return [n for nid, n in self.graph.nodes.items() if self.graph.degree(nid) == 0]


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
        top = sorted(c.members, key=lambda m: (-data.dep_degree[m], m))[:5]
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
