"""Python: import statements (relative levels, aliases, star imports) and module names.

Queries can find an import statement but not say what `from ..a import b as c` binds; this hook does, and maps
files to the dotted module names Python would import them by.
"""

from __future__ import annotations

import posixpath

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
