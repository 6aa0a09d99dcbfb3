"""Turning what a person types (`Flask`, `src/flask/app.py::Flask`, a node id) into exactly one node.

Order: exact node id; `path::name` (path may be a suffix on a `/` boundary, name may be qualified like
`Class.method`); a name unique in the graph (case-insensitive when no exact-case match). Several matches exit 3 and
list them so the caller can retry with `path::name` or an id (graphify's convention); no match exits 4 with the
closest names.
"""

from __future__ import annotations

import difflib

from skillbox.errors import NotFoundError, SkillboxError
from skillbox.graph.code_graph import is_test_path, location
from skillbox.graph.index import GraphIndex, NodeRow

# Kinds that are stand-ins for code outside the repository; a real definition wins over them.
PLACEHOLDER_KINDS = frozenset({"external", "module", "unresolved"})


class AmbiguousNodeError(SkillboxError):
    """Several nodes match a name; exit 3 with the candidates."""

    exit_code = 3

    def __init__(self, query: str, candidates: list[NodeRow]):
        self.query = query
        self.candidates = candidates
        shown = "; ".join(f"{c.id} ({c.kind}, {location(c.as_dict())})" for c in candidates[:8])
        more = f"; and {len(candidates) - 8} more" if len(candidates) > 8 else ""
        super().__init__(
            f"{query!r} matches {len(candidates)} nodes: {shown}{more}",
            hint="retry with path::name or a node id",
        )


class NoMatchError(NotFoundError):
    """Nothing in the graph matches; exit 4 with close suggestions."""

    exit_code = 4

    def __init__(self, query: str, suggestions: list[str], what: str = "node"):
        self.query = query
        self.suggestions = suggestions
        hint = f"did you mean: {', '.join(suggestions)}" if suggestions else "no similar names in the graph"
        super().__init__(f"no {what} matches {query!r}", hint=hint)


def close_names(index: GraphIndex, text: str, limit: int = 5) -> list[str]:
    names = index.all_names()
    lowered = {}
    for name in names:
        lowered.setdefault(name.lower(), name)
    matches = difflib.get_close_matches(text.lower(), list(lowered), n=limit, cutoff=0.6)
    if not matches:
        needle = text.lower()
        matches = sorted((n for n in lowered if needle and needle in n), key=len)[:limit]
    return [lowered[m] for m in matches]


def _prefer_definitions(nodes: list[NodeRow]) -> list[NodeRow]:
    """Real definitions over placeholders for outside code; the one definition outside tests over test doubles
    (a test-local `class Flask` should not make `Flask` ambiguous)."""
    real = [n for n in nodes if n.kind not in PLACEHOLDER_KINDS] or nodes
    outside_tests = [n for n in real if not is_test_path(n.file)]
    return outside_tests if len(outside_tests) == 1 else real


def _matches_name(node: NodeRow, name: str) -> bool:
    if node.name == name or node.extra.get("qualname") == name:
        return True
    return node.id.endswith("::" + name) or (node.id.endswith("." + name) and "." in name)


def resolve_node(index: GraphIndex, text: str) -> NodeRow:
    text = text.strip()
    if not text:
        raise NoMatchError(text, [])
    exact = index.node(text)
    if exact is not None:
        return exact
    if "::" in text:
        path, _, name = text.rpartition("::")
        candidates = []
        for file in index.files_ending_with(path.strip("/")):
            candidates.extend(n for n in index.nodes_in_file(file) if _matches_name(n, name))
        if not candidates:
            raise NoMatchError(text, close_names(index, name.rsplit(".", 1)[-1]))
        return _single(text, candidates)
    named = index.nodes_named(text)
    last = text
    if not named and "." in text.strip("."):
        # Class.method or module.func: look up the last part, keep nodes whose id or qualname ends that way
        last = text.rsplit(".", 1)[-1]
        named = [n for n in index.nodes_named(last) if _matches_name(n, text) or n.id.endswith(text)]
    if not named:
        raise NoMatchError(text, close_names(index, last))
    same_case = [n for n in named if n.name == last]
    return _single(text, same_case or named)


def _single(text: str, candidates: list[NodeRow]) -> NodeRow:
    candidates = _prefer_definitions(candidates)
    unique = {c.id: c for c in candidates}
    if len(unique) == 1:
        return next(iter(unique.values()))
    ordered = sorted(unique.values(), key=lambda n: (-n.degree, n.id))
    raise AmbiguousNodeError(text, ordered)
