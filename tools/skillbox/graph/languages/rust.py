"""Rust: `use` trees flattened into (module path, names), `mod x;` declarations, and module paths mapped to files
(`crate::` from the crate root, `self::`/`super::` from the current module; `x.rs` or `x/mod.rs`)."""

from __future__ import annotations

import posixpath


def _text(node) -> str:
    return node.text.decode("utf-8", "replace")


def parse_import(node) -> list[tuple]:
    if node.type == "mod_item":
        name = node.child_by_field_name("name")
        return [("mod:" + _text(name), 0, None, None, False)] if name is not None else []
    argument = node.child_by_field_name("argument")
    out: list[tuple] = []

    def walk(n, prefix: str) -> None:
        kind = n.type
        if kind == "scoped_identifier":
            path = n.child_by_field_name("path")
            name = n.child_by_field_name("name")
            full = _join(prefix, _text(path)) if path is not None else prefix
            out.append((full, 0, ((_text(name), None),), None, False))
        elif kind in ("identifier", "crate", "self", "super"):
            if prefix:
                out.append((prefix, 0, ((_text(n), None),), None, False))
            else:
                out.append((_text(n), 0, None, None, False))
        elif kind == "use_as_clause":
            path = n.child_by_field_name("path")
            alias = n.child_by_field_name("alias")
            text = _join(prefix, _text(path))
            head, _, last = text.rpartition("::")
            out.append((head or text, 0, ((last or text, _text(alias)),), None, False))
        elif kind == "use_wildcard":
            inner = n.named_children[0] if n.named_child_count else None
            full = _join(prefix, _text(inner)) if inner is not None else prefix
            out.append((full, 0, (("*", None),), None, False))
        elif kind == "scoped_use_list":
            path = n.child_by_field_name("path")
            lst = n.child_by_field_name("list")
            new_prefix = _join(prefix, _text(path)) if path is not None else prefix
            if lst is not None:
                for child in lst.named_children:
                    walk(child, new_prefix)
        elif kind == "use_list":
            for child in n.named_children:
                walk(child, prefix)

    if argument is not None:
        walk(argument, "")
    return out


def _join(prefix: str, text: str) -> str:
    return f"{prefix}::{text}" if prefix else text


def _crate_root(path: str, files) -> str | None:
    directory = posixpath.dirname(path)
    while True:
        for name in ("lib.rs", "main.rs"):
            candidate = posixpath.join(directory, name) if directory else name
            if candidate in files:
                return candidate
        if not directory:
            return None
        directory = posixpath.dirname(directory)


def _module_dir(path: str) -> str:
    """Folder holding the submodules of the module defined by `path`."""
    directory, base = posixpath.split(path)
    if base in ("lib.rs", "main.rs", "mod.rs"):
        return directory
    return posixpath.join(directory, base[:-3])


def _file_for(directory: str, segments: list[str], files) -> str | None:
    stem = posixpath.join(directory, *segments) if segments else directory
    for candidate in (stem + ".rs", posixpath.join(stem, "mod.rs")):
        if candidate in files:
            return candidate
    return None


def resolve_import(path: str, imp, resolver):
    files = resolver.files
    module = imp.module
    if module.startswith("mod:"):
        name = module[4:]
        target = _file_for(_module_dir(path), [name], files)
        return target, ({name: ("module", target)} if target else {})
    segments = module.split("::")
    head = segments[0]
    if head == "crate":
        root = _crate_root(path, files)
        if root is None:
            return None, {}
        base, rest = posixpath.dirname(root), segments[1:]
        if not rest:
            return root, {}
    elif head == "self":
        base, rest = _module_dir(path), segments[1:]
        if not rest:
            return path, {}
    elif head == "super":
        base = posixpath.dirname(_module_dir(path))
        rest = segments[1:]
        while rest and rest[0] == "super":
            base, rest = posixpath.dirname(base), rest[1:]
        if not rest:
            return _file_for(posixpath.dirname(base), [posixpath.basename(base)], files), {}
    else:
        root = _crate_root(path, files)
        if root is None:
            return None, {}
        base, rest = posixpath.dirname(root), segments
    # The longest prefix that is a module file; what follows names items inside it.
    for cut in range(len(rest), 0, -1):
        target = _file_for(base, rest[:cut], files)
        if target:
            return target, {}
    return None, {}


def external_name(module: str) -> str:
    return module.split("::")[0].removeprefix("mod:")
