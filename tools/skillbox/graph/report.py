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
from collections import Counter, defaultdict, deque
from itertools import compress, repeat
from operator import and_, itemgetter, le, ne, not_

from skillbox.graph.cluster import Partition
from skillbox.graph.code_graph import STRUCTURE_RELATIONS, CodeGraph, Edge, is_test_path
from skillbox.graph.columns import graph_columns
from skillbox.graph.gc_pause import gc_paused

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
_FIRST = itemgetter(0)


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
    report may. So the edges are read as the integer columns of `skillbox.graph.columns` (source index, target
    index, relation-and-confidence code; shared with the viewer), and everything here is list indexing and
    Counter/compress/map passes that run in C. Python-level loops only see the few thousand edges that can matter
    (surprise candidates, imports) and a few hundred ranked nodes. No pass builds a tuple per edge: a burst of fresh
    containers would also make the cyclic collector walk the whole loaded graph."""

    def __init__(self, graph: CodeGraph, partition: Partition, include_ambiguous: bool = False):
        self.graph = graph
        self.partition = partition
        self.include_ambiguous = include_ambiguous
        columns = graph_columns(graph)
        self._ids = ids = columns.ids
        self._index = columns.index
        self._kinds = columns.kinds
        self._src, self._dst, self._pair, self._pairs = columns.src, columns.dst, columns.pair, columns.pairs
        self._mask = columns.edge_mask
        self._relation = columns.relation
        files = columns.files
        self.test_files = {f for f in set(files) if is_test_path(f)}
        self._file_names = [f for f in dict.fromkeys(files) if f]
        file_ids = dict(zip(self._file_names, range(len(self._file_names)), strict=True))
        self._file_of = list(map(file_ids.get, files, repeat(-1)))  # -1: no file
        test_file_ids = {file_ids[f] for f in self.test_files if f}
        self._code_node = list(map(not_, map(test_file_ids.__contains__, self._file_of)))  # not in a test file
        self._has_file = list(map(ne, repeat(-1), self._file_of))
        self._community_of = columns.community_of(partition)
        self._columns = columns
        # Dependency degree counts edges other than containment, leaves out AMBIGUOUS guesses (one call to
        # `x.append` is not 3 connections) and edges from test code (a test suite is not a dependant).
        is_dependency = self._mask(
            lambda r, c: r not in STRUCTURE_RELATIONS and (include_ambiguous or c != "AMBIGUOUS")
        )
        dep_src = list(compress(self._src, is_dependency))
        dep_dst = list(compress(self._dst, is_dependency))
        self._in = _as_list(Counter(dep_dst), len(ids))
        from_code = list(map(self._code_node.__getitem__, dep_src))
        degree = Counter(compress(dep_src, from_code))
        degree.update(compress(dep_dst, from_code))
        self._degree = _as_list(degree, len(ids))

    @functools.cached_property
    def membership(self) -> dict[str, int]:
        """node id -> community id."""
        return {m: c.id for c in self.partition.communities for m in c.members}

    @functools.cached_property
    def dep_degree(self) -> Counter:
        """node id -> dependency degree (edges other than containment, not AMBIGUOUS, not from tests)."""
        return Counter(dict(compress(zip(self._ids, self._degree, strict=True), self._degree)))

    @functools.cached_property
    def dep_in(self) -> Counter:
        """node id -> incoming dependency edges (tests included)."""
        return Counter(dict(compress(zip(self._ids, self._in, strict=True), self._in)))

    def summary(self) -> dict:
        g = self.graph
        # Counter keeps first-seen order, so summing its pairs keeps each relation's and confidence's first-seen
        # order too: ties in most_common() come out as if the columns had been counted directly
        relations: Counter = Counter()
        confidences: Counter = Counter()
        for code, n in Counter(self._pair).items():
            relation, confidence = self._pairs[code]
            relations[relation] += n
            confidences[confidence] += n
        recorded = {
            n["file"]: n["language"]
            for n in compress(g.nodes.values(), map("file".__eq__, self._kinds))
            if n.get("language") and n.get("file")
        }
        files = sorted(self._file_names)
        languages = Counter(
            recorded.get(f) or LANGUAGE_BY_SUFFIX.get(_suffix(f).lower(), _suffix(f) or "other") for f in files
        )
        return {
            "files": len(files),
            "nodes": len(g.nodes),
            "edges": len(g.edges),
            "kinds": Counter(self._kinds).most_common(),
            "relations": relations.most_common(),
            "confidence": confidences.most_common(),
            "languages": languages.most_common(),
        }

    def _top(self, candidates: list[int], limit: int) -> list[int]:
        """The `limit` candidate nodes with the highest dependency degree, ties by id. The cut-off degree comes from
        a C-level nlargest over ints; only nodes at or above it are sorted in Python."""
        if not candidates:
            return []
        degree = self._degree
        degrees = list(map(degree.__getitem__, candidates))
        floor = heapq.nlargest(limit, degrees)[-1]
        contenders = list(compress(candidates, map(le, repeat(floor), degrees)))
        contenders.sort(key=self._ids.__getitem__)
        contenders.sort(key=degree.__getitem__, reverse=True)  # stable, also reversed: ties stay in id order
        return contenders[:limit]

    @functools.cached_property
    def _symbols(self) -> list[int]:
        return list(compress(range(len(self._ids)), map(not_, map(NON_SYMBOL_KINDS.__contains__, self._kinds))))

    def god_nodes(self, limit: int = 10) -> list[tuple[dict, int]]:
        symbols, nodes = self._symbols, self.graph.nodes
        return [(nodes[self._ids[i]], self._degree[i]) for i in self._top(symbols, limit) if self._degree[i]]

    def top_members(self, members: list[str], limit: int = 5) -> list[str]:
        """The community's most connected members (ties and unconnected ones by id)."""
        return [self._ids[i] for i in self._top(list(map(self._index.__getitem__, members)), limit)]

    def surprising(self, limit: int = 10) -> list[dict]:
        return [
            {"edge": edge, "score": score, "reasons": self._surprise(edge)[1]}
            for _, score, edge in self._all_surprising[:limit]
        ]

    @functools.cached_property
    def _hub_in_degree(self) -> int:
        in_degrees = sorted(filter(None, self._in))
        return max(10, in_degrees[int(len(in_degrees) * 0.99)] if in_degrees else 0)

    def _links_between(self, a: int, b: int) -> int:
        links, stride = self._columns.community_links(self.partition)
        return links[(a + 1) * stride + b + 1] + links[(b + 1) * stride + a + 1]

    @functools.cached_property
    def _directories(self) -> tuple[list[str], list[str]]:
        """Per file id: its directory, and that directory's top-level part."""
        directories = [f.rpartition("/")[0] for f in self._file_names]
        return directories, [d.partition("/")[0] for d in directories]

    def _score(self, a: int, b: int) -> tuple[int, list[str]]:
        """The stated score of a candidate edge from node a to node b (files differ, source outside tests), with
        its reasons."""
        directory, top = self._directories
        fa, fb = self._file_of[a], self._file_of[b]
        ca, cb = self._community_of[a], self._community_of[b]
        reasons = []
        score = 0
        if top[fa] != top[fb]:
            score += 2
            reasons.append("different top-level directory")
        elif directory[fa] != directory[fb]:
            score += 1
            reasons.append("different directory")
        if ca != cb:
            score += 1
            reasons.append("different community")
            if self._links_between(ca, cb) <= 2:
                score += 1
                reasons.append("one of at most 2 links between the two communities")
        if self._in[b] >= self._hub_in_degree:
            score -= 1
            reasons.append("but the target is widely used")
        return score, reasons

    def _surprise(self, e: Edge) -> tuple[int, list[str]]:
        return self._score(self._index[e.source], self._index[e.target])

    @functools.cached_property
    def _all_surprising(self) -> list[tuple[tuple, int, Edge]]:
        """(sort key, score, edge) for every edge scoring >= 2, best first; the first edge per (source, target,
        relation) in graph order stands for its duplicates."""
        # INFERRED edges qualify with a score >= 0.8, checked below on the few that get that far
        counted = ("EXTRACTED", "INFERRED", "AMBIGUOUS") if self.include_ambiguous else ("EXTRACTED", "INFERRED")
        wanted = self._mask(lambda r, c: r in SURPRISE_RELATIONS and c in counted)
        at = compress(range(len(self._src)), wanted)
        src = list(compress(self._src, wanted))
        dst = list(compress(self._dst, wanted))
        file_of, code_node, has_file = self._file_of, self._code_node, self._has_file
        # most calls stay inside their file: drop those first, then keep edges between two known files whose source
        # is outside tests
        crossing = list(map(ne, map(file_of.__getitem__, src), map(file_of.__getitem__, dst)))
        at, src, dst = (list(compress(column, crossing)) for column in (at, src, dst))
        usable = map(and_, map(code_node.__getitem__, src), map(has_file.__getitem__, src))
        keep = map(and_, usable, map(has_file.__getitem__, dst))
        edges, relation, score_of = self.graph.edges, self._relation, self._score
        found, seen = [], set()
        for i, a, b in compress(zip(at, src, dst, strict=True), keep):
            e = edges[i]
            if e.confidence == "INFERRED" and (e.score or 0) < 0.8:
                continue
            key = (a, b, relation[i])
            if key in seen:
                continue
            seen.add(key)
            score = score_of(a, b)[0]
            if score >= 2:
                found.append(((-score, e.source, e.target, i), score, e))
        found.sort(key=_FIRST)
        return found

    def import_cycles(self, limit: int = 10) -> list[list[str]]:
        return self._all_cycles[:limit]

    @functools.cached_property
    def _all_cycles(self) -> list[list[str]]:
        """One shortest import cycle per strongly connected group of files (file-level import graph)."""
        is_import = self._mask(lambda r, c: r == "imports")
        file_of = self._file_of
        fa = map(file_of.__getitem__, compress(self._src, is_import))
        fb = map(file_of.__getitem__, compress(self._dst, is_import))
        succ: dict[str, set[str]] = defaultdict(set)
        names = self._file_names
        for a, b in set(zip(fa, fb, strict=True)):
            if a >= 0 and b >= 0 and a != b:
                succ[names[a]].add(names[b])
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
        uncalled = map(and_, map(DEAD_KINDS.__contains__, self._kinds), map(not_, self._in))
        for nid in compress(self._ids, map(and_, uncalled, self._code_node)):
            n = nodes[nid]
            name = n.get("name") or ""
            if name in ENTRY_POINT_NAMES or name.startswith("test") or (name[:2] == "__" and name[-2:] == "__"):
                continue
            result.append(n)
        result.sort(key=lambda n: (n.get("file") or "", n.get("line") or 0))
        return result

    def isolated(self) -> list[dict]:
        linked = set(self._src)
        linked.update(self._dst)
        nodes = self.graph.nodes
        return [nodes[self._ids[i]] for i in range(len(self._ids)) if i not in linked]


def _as_list(counts: Counter, size: int) -> list[int]:
    """Counts by node index as a list (0 where absent); the stores run in C through map()."""
    result = [0] * size
    deque(map(result.__setitem__, counts.keys(), counts.values()), maxlen=0)
    return result


def _suffix(path: str) -> str:
    """PurePosixPath(path).suffix without building a path object per file."""
    name = path.rpartition("/")[2]
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""


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


def render_report(
    graph: CodeGraph, partition: Partition, title: str = "Code graph report", include_ambiguous: bool = False
) -> str:
    with gc_paused():
        return render_report_data(ReportData(graph, partition, include_ambiguous), title)


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
        "The most connected symbols: edges other than containment, from non-test code, files excluded; "
        + (
            "AMBIGUOUS guesses counted too (`--include-ambiguous`)."
            if data.include_ambiguous
            else "AMBIGUOUS guesses left out (`skillbox graph report --include-ambiguous` counts them)."
        ),
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
        "surprising). Only EXTRACTED edges and INFERRED edges scored >= 0.8 qualify"
        + (", and AMBIGUOUS ones (`--include-ambiguous`)" if data.include_ambiguous else "")
        + "; edges from test files are skipped. Score >= 2 shown."
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
