"""Python: import statements (relative levels, aliases, star imports), module names, and what imports bind.

Queries can find an import statement but not say what `from ..a import b as c` binds; this hook does, maps
files to the dotted module names Python would import them by, and binds imported names for the resolver
(`bind_import`): `import a.b.c` binds `a`, a package's submodules are attributes of it, a module that is not in
the repository (and whose top-level package is not either) is an external node.
"""

from __future__ import annotations

import posixpath
import sys
from collections import defaultdict

STDLIB = frozenset(sys.stdlib_module_names)

STUB_SUFFIXES = (".py", ".pyi")


def parse_import(node) -> list[tuple]:
    """`import a.b as c, d` / `from ..m import x as y, *` -> (module, level, names, alias, reexport) tuples."""
    if node.type == "import_statement":
        out = []
        for child in node.children_by_field_name("name"):
            if child.type == "aliased_import":
                name = child.child_by_field_name("name")
                alias = child.child_by_field_name("alias")
                out.append((_text(name), 0, None, _text(alias) if alias else None, False))
            else:
                out.append((_text(child), 0, None, None, False))
        return out
    module_node = node.child_by_field_name("module_name")
    if module_node is None:
        return []
    level = 0
    module = ""
    if module_node.type == "relative_import":
        for child in module_node.children:
            if child.type == "import_prefix":
                level = len(_text(child).strip())
            elif child.type == "dotted_name":
                module = _text(child)
    else:
        module = _text(module_node)
    if any(child.type == "wildcard_import" for child in node.children):
        return [(module, level, (("*", None),), None, False)]
    names = []
    for child in node.children_by_field_name("name"):
        if child.type == "aliased_import":
            name = child.child_by_field_name("name")
            alias = child.child_by_field_name("alias")
            names.append((_text(name), _text(alias) if alias else None))
        else:
            names.append((_text(child), None))
    return [(module, level, tuple(names), None, False)]


def _text(node) -> str:
    return "".join(node.text.decode("utf-8", "replace").split())


def module_names(paths: list[str]) -> dict[str, str]:
    """path -> dotted module name, with the package root found by walking up through `__init__.py` dirs.

    `src/flask/app.py` is `flask.app` (src/ has no `__init__.py`); `tests/test_x.py` is `test_x`.
    """
    init_dirs = {posixpath.dirname(p) for p in paths if posixpath.basename(p) in ("__init__.py", "__init__.pyi")}
    out = {}
    for path in paths:
        directory, base = posixpath.split(path)
        stem = base.rsplit(".", 1)[0]
        parts = [] if stem == "__init__" else [stem]
        while directory and directory in init_dirs:
            directory, package = posixpath.split(directory)
            parts.append(package)
        if parts:
            out[path] = ".".join(reversed(parts))
    return out


def module_file(base_dir: str, dotted: str, files) -> str | None:
    """The file for module `dotted` under `base_dir`: `x/y.py`, `x/y/__init__.py` (or `.pyi`)."""
    rel = dotted.replace(".", "/") if dotted else ""
    stem = posixpath.join(base_dir, rel) if rel else base_dir
    if rel:
        for suffix in STUB_SUFFIXES:
            if stem + suffix in files:
                return stem + suffix
    for suffix in STUB_SUFFIXES:
        candidate = posixpath.join(stem, "__init__" + suffix) if stem else "__init__" + suffix
        if candidate in files:
            return candidate
    return None


def modules_by_name(paths: list[str]) -> dict[str, list[str]]:
    """dotted module name -> the files that claim it (several top-level test folders can hold `conftest`)."""
    out: dict[str, list[str]] = defaultdict(list)
    for path, module in module_names(paths).items():
        out[module].append(path)
    return out


def find_module(resolver, path: str, module: str, level: int) -> str | None:
    """The file `import module` (with `level` leading dots) from `path` reaches, or None."""
    if level:
        base = posixpath.dirname(path)
        for _ in range(level - 1):
            if not base:
                return None
            base = posixpath.dirname(base)
        return module_file(base, module, resolver.files)
    candidates = resolver.dotted_modules.get(module)
    if not candidates:
        return None
    if len(candidates) == 1:
        return candidates[0]
    # Several files claim the name (top-level test modules in different folders): the nearest one wins.
    return max(candidates, key=lambda c: (len(posixpath.commonprefix([c, path])), c))


def submodule(resolver, package_file: str, name: str) -> str | None:
    """`pkg.name` where `pkg` is `pkg/__init__.py`: the module `pkg/name.py` (or package), if there is one."""
    directory, base = posixpath.split(package_file)
    if not base.startswith("__init__."):
        return None
    return module_file(directory, name, resolver.files)


def _external(resolver, module: str) -> str:
    top = module.split(".")[0]
    return resolver.external("python", top, stdlib=top in STDLIB)


def bind_import(resolver, path: str, imp, scope_bindings: dict, edge) -> None:
    """Draw the import edges of one statement and bind the names it introduces in its scope."""
    if imp.names is None:  # import a.b.c [as x]
        target = find_module(resolver, path, imp.module, 0)
        if target is None:
            if imp.module.split(".")[0] in resolver.dotted_modules:
                resolver.stats["unresolved_imports"] += 1
                return
            ext = _external(resolver, imp.module)
            edge(ext, imp.line)
            scope_bindings[imp.alias or imp.module.split(".")[0]] = ("external", ext)
            return
        edge(target, imp.line)
        if imp.alias:
            scope_bindings[imp.alias] = ("module", target)
        else:
            head = imp.module.split(".")[0]
            head_file = find_module(resolver, path, head, 0)
            if head_file:
                scope_bindings[head] = ("module", head_file)
        return
    target = find_module(resolver, path, imp.module, imp.level)
    if target is None:
        if imp.level or (imp.module.split(".")[0] in resolver.dotted_modules):
            resolver.stats["unresolved_imports"] += 1
            return
        ext = _external(resolver, imp.module)
        edge(ext, imp.line)
        for name, alias in imp.names:
            if name != "*":
                scope_bindings[alias or name] = ("external", ext)
        return
    edge(target, imp.line)
    for name, alias in imp.names:
        if name == "*":
            resolver.stars[path].append(target)
            continue
        found = submodule(resolver, target, name)
        if found:
            edge(found, imp.line)
        scope_bindings[alias or name] = ("symbol", target, name)
