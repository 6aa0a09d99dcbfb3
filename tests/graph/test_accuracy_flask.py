"""Accuracy on real code: the graph of the Flask sdist against ground truth from Python's own `ast` module.

The ground truth here is computed independently of skillbox's resolver: definitions by walking `ast`, module
files by looking for `a/b.py` / `a/b/__init__.py` under every top-level source root, name binding by reading
the enclosing scopes and import statements as Python would.
"""

from __future__ import annotations

import ast
import os
from collections import defaultdict
from pathlib import Path

import pytest

from skillbox.graph.build import build_graph
from tests.graph.conftest import read_graph


@pytest.fixture(scope="session")
def flask_graph(flask_tree, tmp_path_factory):
    out = tmp_path_factory.mktemp("flask-out")
    result = build_graph(flask_tree, out)
    return read_graph(out), result


def python_files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py"))


def ast_definitions(source: str):
    """(qualname, kind, line) for every class/function, nested ones qualified by their parents."""
    out = []

    def visit(node, prefix: str, in_class: bool):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                qual = f"{prefix}{child.name}"
                out.append((qual, "class", child.lineno))
                visit(child, qual + ".", True)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                qual = f"{prefix}{child.name}"
                out.append((qual, "method" if in_class else "function", child.lineno))
                visit(child, qual + ".", False)
            else:
                visit(child, prefix, in_class)

    visit(ast.parse(source), "", False)
    return out


class Modules:
    """Where `import a.b` lands: `a/b.py` or `a/b/__init__.py` under a folder that is not itself a package."""

    def __init__(self, files: list[str]):
        self.files = set(files)
        self.packages = {os.path.dirname(f) for f in files if f.endswith("__init__.py")}

    def absolute(self, importer: str, dotted: str) -> str | None:
        rel = dotted.replace(".", "/")
        hits = []
        for f in self.files:
            for suffix in (f"{rel}.py", f"{rel}/__init__.py"):
                if f == suffix or f.endswith("/" + suffix):
                    root = f[: len(f) - len(suffix)].rstrip("/")
                    if root not in self.packages:  # a sys.path entry, not inside a package
                        hits.append((root, f))
        if not hits:
            return None
        # Prefer the root that contains the importer (its own project), then the shortest.
        hits.sort(key=lambda h: (not importer.startswith(h[0] + "/") and h[0] != "", len(h[0]), h[1]))
        return hits[0][1]

    def relative(self, importer: str, level: int, dotted: str | None) -> str | None:
        base = os.path.dirname(importer)
        for _ in range(level - 1):
            base = os.path.dirname(base)
        rel = (dotted or "").replace(".", "/")
        stem = f"{base}/{rel}" if base and rel else (base or rel)
        for candidate in (f"{stem}.py", f"{stem}/__init__.py") if rel else (f"{stem}/__init__.py",):
            candidate = candidate.lstrip("/")
            if candidate in self.files:
                return candidate
        return None

    def of(self, importer: str, node: ast.ImportFrom) -> str | None:
        if node.level:
            return self.relative(importer, node.level, node.module)
        return self.absolute(importer, node.module or "")


def test_every_definition_is_a_node_with_its_file_and_line(flask_tree, flask_graph):
    g, _result = flask_graph
    files = python_files(flask_tree)
    assert len(files) > 60
    missing, wrong = [], []
    total = 0
    for rel in files:
        first: dict[str, tuple[str, int]] = {}
        for qual, kind, line in ast_definitions((flask_tree / rel).read_text(encoding="utf-8")):
            first.setdefault(qual, (kind, line))
        for qual, (kind, line) in first.items():
            total += 1
            node = g.nodes.get(f"{rel}::{qual}")
            if node is None:
                missing.append(f"{rel}::{qual}")
            elif (node["kind"], node["file"], node["line"]) != (kind, rel, line):
                wrong.append((f"{rel}::{qual}", node["kind"], node["line"], kind, line))
    assert total > 1000
    assert not missing, missing[:10]
    assert not wrong, wrong[:10]


def test_in_repo_imports_become_import_edges(flask_tree, flask_graph):
    g, _ = flask_graph
    files = python_files(flask_tree)
    modules = Modules(files)
    imported = {(e["source"], e["target"]) for e in g.edges("imports")}
    expected, found = 0, 0
    misses = []
    for rel in files:
        tree = ast.parse((flask_tree / rel).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Import):
                targets = [modules.absolute(rel, alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                targets = [modules.of(rel, node)]
            for target in targets:
                if target is None or target == rel:
                    continue  # third-party / stdlib, or a module importing its own package
                expected += 1
                if (rel, target) in imported:
                    found += 1
                else:
                    misses.append((rel, node.lineno, target))
    assert expected > 150
    assert found / expected >= 0.98, misses[:10]


def test_reexported_url_for_calls_reach_the_definition(flask_tree, flask_graph):
    g, _ = flask_graph
    callers = {e["source"].split("::")[0] for e in g.edges("calls", target="src/flask/helpers.py::url_for")}
    expect = set()
    for rel in python_files(flask_tree):
        text = (flask_tree / rel).read_text(encoding="utf-8")
        tree = ast.parse(text)
        imports_it = any(
            isinstance(n, ast.ImportFrom) and n.module == "flask" and any(a.name == "url_for" for a in n.names)
            for n in ast.walk(tree)
        )
        calls_it = any(
            isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "url_for" for n in ast.walk(tree)
        )
        if imports_it and calls_it:
            expect.add(rel)
    assert len(expect) >= 3
    assert expect <= callers, sorted(expect - callers)
    edges = g.edges("calls", target="src/flask/helpers.py::url_for")
    assert all(e["confidence"] == "EXTRACTED" for e in edges if e["source"].split("::")[0] in expect)


class Binder:
    """What Python binds a call to, for the cases the code determines: names and `self.`/`module.` attributes."""

    def __init__(self, root: Path, files: list[str]):
        self.root = root
        self.modules = Modules(files)
        self.trees: dict[str, ast.Module] = {}

    def tree(self, rel: str) -> ast.Module:
        if rel not in self.trees:
            self.trees[rel] = ast.parse((self.root / rel).read_text(encoding="utf-8"))
        return self.trees[rel]

    @staticmethod
    def _scope_bindings(body) -> dict[str, ast.AST]:
        """Names a scope binds by def/class/import, searching into if/try/with blocks but not nested scopes."""
        out: dict[str, ast.AST] = {}
        pending = list(body)
        while pending:
            node = pending.pop(0)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                out.setdefault(node.name, node)
            elif isinstance(node, ast.Import | ast.ImportFrom):
                for alias in node.names:
                    name = alias.asname or alias.name.split(".")[0]
                    out.setdefault(name, node)
            elif isinstance(node, ast.If | ast.Try | ast.With | ast.For | ast.While):
                for field in ("body", "orelse", "finalbody", "handlers"):
                    pending.extend(getattr(node, field, []) or [])
            elif isinstance(node, ast.ExceptHandler):
                pending.extend(node.body)
        return out

    def module_attr(self, rel: str, name: str, depth: int = 0) -> str | None:
        """The definition id `module.name` resolves to, following `from x import name` re-exports."""
        if depth > 8:
            return None
        binding = self._scope_bindings(self.tree(rel).body).get(name)
        if isinstance(binding, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return f"{rel}::{name}"
        if isinstance(binding, ast.ImportFrom):
            source = self.modules.of(rel, binding)
            original = next(a.name for a in binding.names if (a.asname or a.name) == name)
            return self.module_attr(source, original, depth + 1) if source else None
        return None

    def resolve_name(self, rel: str, scope_chain: list[ast.AST], qual_chain: list[str], name: str) -> str | None:
        for node, qual in zip(reversed(scope_chain), reversed(qual_chain), strict=True):
            if isinstance(node, ast.ClassDef) and node is not scope_chain[-1]:
                continue  # class bodies are not enclosing scopes for their methods
            binding = self._scope_bindings(node.body).get(name)
            if binding is None:
                continue
            if isinstance(binding, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                return f"{rel}::{qual + '.' if qual else ''}{name}"
            if isinstance(binding, ast.ImportFrom):
                source = self.modules.of(rel, binding)
                original = next(a.name for a in binding.names if (a.asname or a.name) == name)
                return self.module_attr(source, original) if source else None
            return None
        return None

    def scopes(self, rel: str, qualname: str):
        """Every chain of scope nodes (module, class, function, ...) down to a definition named `qualname`.

        Several when a name is defined twice (overloads, conditional defs): the graph gives them one node.
        """
        chains = [([self.tree(rel)], [""])]
        parts = qualname.split(".") if qualname else []
        for i, part in enumerate(parts):
            longer = []
            for chain, quals in chains:
                current = chain[-1]
                for node in _direct_defs(current):
                    if node.name == part:
                        longer.append(([*chain, node], [*quals, ".".join(parts[: i + 1])]))
            chains = longer
        return chains

    def expected_target(self, source_id: str, line: int, name: str) -> str | bool | None:
        """The id Python binds, None when undetermined by this binder, False when no such call exists."""
        rel, _, qual = source_id.partition("::")
        outcome: str | bool | None = False
        for chain, quals in self.scopes(rel, qual):
            result = self._expected_in(rel, chain, quals, line, name)
            if result is not False:
                outcome = result
                if result is not None:
                    return result
        return outcome

    def _expected_in(self, rel, chain, quals, line, name):
        calls = [
            n for n in ast.walk(chain[-1]) if isinstance(n, ast.Call) and n.lineno <= line <= (n.end_lineno or n.lineno)
        ]
        for call in calls:
            func = call.func
            if isinstance(func, ast.Name) and func.id == name:
                return self.resolve_name(rel, chain, quals, name)
            if isinstance(func, ast.Attribute) and func.attr == name and isinstance(func.value, ast.Name):
                receiver = func.value.id
                if receiver == "self":
                    classes = [i for i, n in enumerate(chain) if isinstance(n, ast.ClassDef)]
                    if not classes:
                        return None
                    cls = chain[classes[-1]]
                    if name in self._scope_bindings(cls.body):
                        return f"{rel}::{quals[classes[-1]]}.{name}"
                    return None
                binding = None
                for node in reversed(chain):
                    binding = self._scope_bindings(node.body).get(receiver) if hasattr(node, "body") else None
                    if binding is not None:
                        break
                if isinstance(binding, ast.ImportFrom):
                    source = self.modules.of(rel, binding)
                    original = next(a.name for a in binding.names if (a.asname or a.name) == receiver)
                    sub = self.modules.relative(source, 1, original) if source else None
                    if sub and sub != source:
                        return self.module_attr(sub, name)
                    return None
                if isinstance(binding, ast.Import):
                    alias = next(a for a in binding.names if (a.asname or a.name.split(".")[0]) == receiver)
                    target = self.modules.absolute(rel, alias.name if alias.asname else receiver)
                    return self.module_attr(target, name) if target else None
                return None
        return False if not calls else None


def _direct_defs(node):
    """Definitions whose nearest enclosing scope is `node` (looking through if/try/with blocks)."""
    pending = list(ast.iter_child_nodes(node))
    while pending:
        child = pending.pop(0)
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield child
        else:
            pending.extend(ast.iter_child_nodes(child))


def test_extracted_calls_bind_where_python_binds(flask_tree, flask_graph):
    g, _ = flask_graph
    binder = Binder(flask_tree, python_files(flask_tree))
    extracted = [
        e
        for e in g.edges("calls")
        if e["confidence"] == "EXTRACTED" and e["source"].endswith(".py") is False and ".py::" in e["source"]
    ]
    assert len(extracted) > 500
    agree, disagree, undetermined = 0, [], 0
    by_file = defaultdict(list)
    for e in extracted:
        by_file[e["file"]].append(e)
    for edges in by_file.values():
        for e in edges:
            expected = binder.expected_target(e["source"], e["line"], g.nodes[e["target"]]["name"])
            if expected is None:
                undetermined += 1
            elif expected == e["target"]:
                agree += 1
            else:
                disagree.append((e["source"], e["line"], e["target"], expected))
    determined = agree + len(disagree)
    assert determined >= 0.7 * len(extracted), (determined, len(extracted))
    assert agree / determined >= 0.99, disagree[:10]
