"""JavaScript / TypeScript / TSX: ES module imports and re-exports, `require()`, relative module resolution.

Queries find the statements; this hook says what they bind (`import {a as b}`, `import * as ns`, default
imports, `export {x} from`, `export * from`) and maps relative specifiers to files the way bundlers do
(extension probing, `index.*`, TypeScript's `.js`-suffixed imports of `.ts` files); bare specifiers go through the
repository's tsconfig.json and package.json files first (`js_modules.py`).
"""

from __future__ import annotations

import posixpath

EXTENSIONS = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts")


def _string(node) -> str | None:
    if node is None:
        return None
    text = node.text.decode("utf-8", "replace")
    return text[1:-1] if len(text) >= 2 and text[0] in "'\"`" else None


def parse_import(node) -> list[tuple]:
    kind = node.type
    if kind == "call_expression":  # require("x")
        args = node.child_by_field_name("arguments")
        source = _string(args.named_children[0]) if args is not None and args.named_child_count else None
        if not source:
            return []
        alias = None
        parent = node.parent
        if parent is not None and parent.type == "variable_declarator":
            name = parent.child_by_field_name("name")
            if name is not None and name.type == "identifier":
                alias = name.text.decode()
        return [(source, 0, None, alias, False)]
    source = _string(node.child_by_field_name("source"))
    if not source:
        return []
    if kind == "export_statement":
        names = []
        alias = None
        for child in node.named_children:
            if child.type == "export_clause":
                for spec in child.named_children:
                    if spec.type == "export_specifier":
                        name = spec.child_by_field_name("name")
                        as_ = spec.child_by_field_name("alias")
                        names.append((name.text.decode(), as_.text.decode() if as_ else None))
            elif child.type == "namespace_export":
                ident = child.named_children[-1] if child.named_child_count else None
                alias = ident.text.decode() if ident is not None else None
        if alias:
            return [(source, 0, None, alias, True)]
        if not names:
            return [(source, 0, (("*", None),), None, True)]
        return [(source, 0, tuple(names), None, True)]
    names = []
    alias = None
    for clause in node.named_children:
        if clause.type != "import_clause":
            continue
        for child in clause.named_children:
            if child.type == "identifier":
                names.append(("default", child.text.decode()))
            elif child.type == "namespace_import":
                ident = child.named_children[-1] if child.named_child_count else None
                alias = ident.text.decode() if ident is not None else None
            elif child.type == "named_imports":
                for spec in child.named_children:
                    if spec.type == "import_specifier":
                        name = spec.child_by_field_name("name")
                        as_ = spec.child_by_field_name("alias")
                        names.append((name.text.decode(), as_.text.decode() if as_ else None))
        break
    return [(source, 0, tuple(names) if names else (None if alias else ()), alias, False)]


def resolve_import(path: str, imp, resolver):
    """Relative specifiers map to files. A bare one is a package (an external node) unless the repository holds
    it, which the repository's own tsconfig.json and package.json say (EXTRACTED, with the file and entry that
    resolved it; `js_project.py`): tsconfig `paths` and `baseUrl`, a package's `imports` (`#x`), a workspace
    package by its `name` and `exports` (or `main`/`module`/`types`). Failing those, two guesses stay, INFERRED
    with their reason: `@/x` / `~/x` as the nearest source root, and a package named by its folder."""
    module = imp.module
    if not module.startswith((".", "/")):
        found = _project(resolver).resolve(path, module)
        if found is not None:
            return found
        return _self_import(path, module, resolver)
    target = resolver.path_import(path, module, "", EXTENSIONS)
    if target is None and module.endswith((".js", ".jsx", ".mjs", ".cjs")):
        target = resolver.path_import(path, module.rsplit(".", 1)[0], "", EXTENSIONS)
    return target, {}


def _project(resolver):
    project = resolver._memo.get("js-project")
    if project is None:
        from skillbox.graph.languages.js_modules import ProjectModules

        project = resolver._memo["js-project"] = ProjectModules(resolver, lambda stem: _probe(resolver, stem))
    return project


def _probe(resolver, stem: str) -> str | None:
    found = resolver._with_extensions(stem, EXTENSIONS)
    if found is None and stem.endswith((".js", ".jsx", ".mjs", ".cjs")):
        found = resolver._with_extensions(stem.rsplit(".", 1)[0], EXTENSIONS)
    return found


def _self_import(path: str, module: str, resolver):
    if module.startswith(("@/", "~/")):
        rest = module[2:]
        directory = posixpath.dirname(path)
        while True:  # the nearest folder above the importer with a `src/` (or the file) that holds it
            for root in (posixpath.join(directory, "src") if directory else "src", directory):
                found = _probe(resolver, posixpath.join(root, rest) if root else rest)
                if found:
                    return found, {}, "INFERRED", f"{module[:2]} taken as the source root {root or '.'}/"
            if not directory:
                return None, {}
            directory = posixpath.dirname(directory)
    parts = module.split("/")
    if module.startswith("@"):
        if len(parts) < 2:
            return None, {}
        name, rest = parts[1], "/".join(parts[2:])
    else:
        name, rest = parts[0], "/".join(parts[1:])
    hits = []
    for directory in resolver.dirs_named(name):
        for stem in (f"{directory}/src/{rest}", f"{directory}/{rest}") if rest else (f"{directory}/src/index",):
            found = _probe(resolver, stem)
            if found:
                hits.append(found)
                break
    if len(hits) == 1:
        return hits[0], {}, "INFERRED", f"the package folder {name}/ (no package.json or tsconfig.json maps the name)"
    return None, {}
