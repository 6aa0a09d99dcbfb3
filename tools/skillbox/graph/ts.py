"""The one place that talks to py-tree-sitter.

py-tree-sitter changed its query API three times (tuples, dicts, then `QueryCursor` in 0.25). The pyproject pins
`>=0.25,<0.27`; everything else in the graph package goes through `run_query` so the next API change is a
one-function fix.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from tree_sitter import Language, Parser, Query, QueryCursor

if TYPE_CHECKING:
    from tree_sitter import Node

    from skillbox.graph.languages import LanguageSpec


@cache
def language(spec: LanguageSpec) -> Language:
    return Language(spec.grammar())


@cache
def parser(spec: LanguageSpec) -> Parser:
    return Parser(language(spec))


@cache
def query(spec: LanguageSpec) -> Query:
    # Compiling a query costs far more than running it on one file: once per process and language.
    return Query(language(spec), spec.query_text())


def run_query(q: Query, node: Node) -> list[tuple[int, dict[str, list[Node]]]]:
    """All matches of `q` under `node`, in document order: `(pattern_index, {capture_name: [nodes]})`."""
    return QueryCursor(q).matches(node)
