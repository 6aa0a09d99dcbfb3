"""JavaScript / TypeScript / TSX: ES module imports and re-exports, `require()`, relative module resolution.

Queries find the statements; this hook says what they bind (`import {a as b}`, `import * as ns`, default
imports, `export {x} from`, `export * from`) and maps relative specifiers to files the way bundlers do
(extension probing, `index.*`, TypeScript's `.js`-suffixed imports of `.ts` files).
"""

from __future__ import annotations

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
    """Relative specifiers only: bare ones are packages (external nodes); a tsconfig alias stays unresolved."""
    module = imp.module
    if not module.startswith((".", "/")):
        return None, {}
    target = resolver.path_import(path, module, "", EXTENSIONS)
    if target is None and module.endswith((".js", ".jsx", ".mjs", ".cjs")):
        target = resolver.path_import(path, module.rsplit(".", 1)[0], "", EXTENSIONS)
    return target, {}
