"""Source bytes -> `FileRecord`, for every registered language, driven by the language's query file.

One generic engine: run the query once, sort definitions by position, and sweep once to give every definition
its parent (qualified names, method vs function) and every reference/import/comment its innermost enclosing
definition (its scope). Language hooks only parse import statements. The tree is dropped on return.
"""

from __future__ import annotations

import inspect
import re

from skillbox.graph import ts
from skillbox.graph.languages import LanguageSpec
from skillbox.graph.records import Def, FileRecord, ImportRec, Ref

CLASS_LIKE = frozenset({"class", "interface", "type", "impl"})
NOTE_RE = re.compile(r"^\W*(NOTE|WHY|HACK)\b\s*(?:\([^)]*\))?\s*[:\-]?\s*(.*)", re.S)
SIMPLE_RECEIVER = re.compile(r"^[A-Za-z_$@][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)*(?:\(\))?$")
COMMENT_MARKS = re.compile(r"^\s*(?:/\*\*?|\*/|\*|//[/!]?|#|--\[?\[?|;+)\s?", re.M)
DOC_LIMIT = 400
PLAIN_RECEIVERS = frozenset({"identifier", "this", "self", "simple_identifier", "constant", "variable_name"})
_OUTER: dict[str, dict[int, str]] = {}  # language -> pattern index -> its outer capture name


def _outer_key(caps) -> str:
    for key in caps:
        if key.startswith(("definition.", "reference.")) or key in ("import", "comment"):
            return key
    raise ValueError(f"query pattern without an outer capture: {sorted(caps)}")


def extract_source(data: bytes, spec: LanguageSpec) -> FileRecord:
    tree = ts.parser(spec).parse(data)
    root = tree.root_node
    errors = count_errors(root) if root.has_error else 0
    hook = spec.hook()
    parse_import = getattr(hook, "parse_import", None)
    wrappers = spec.def_wrappers

    raw_defs: list[tuple[int, int, str, str, int, int, str | None]] = []
    others: list[tuple[int, str, tuple]] = []  # (position, what, payload)
    comments: dict[int, tuple[int, str]] = {}  # end line -> (start line, text), for comment docs

    outer_of = _OUTER.setdefault(spec.name, {})
    for pattern, caps in ts.run_query(ts.query(spec), root):
        key = outer_of.get(pattern)
        if key is None:
            key = outer_of[pattern] = _outer_key(caps)
        outer = caps[key][0]
        kind = key[0]
        if kind == "d":  # definition.<kind>
            name_nodes = caps.get("name")
            if not name_nodes:
                continue
            start = outer.start_byte
            parent = outer.parent
            if wrappers and parent is not None and parent.type in wrappers:
                start = parent.start_byte
            doc_nodes = caps.get("doc")
            owner_nodes = caps.get("owner")
            raw_defs.append(
                (
                    start,
                    outer.end_byte,
                    key[11:],
                    name_nodes[0].text.decode("utf-8", "replace"),
                    outer.start_point[0] + 1,
                    outer.end_point[0] + 1,
                    clean_docstring(_text(doc_nodes[0])) if doc_nodes else None,
                    owner_nodes[0].text.decode("utf-8", "replace") if owner_nodes else None,
                )
            )
        elif kind == "r":  # reference.<relation>
            name_nodes = caps.get("name")
            if not name_nodes:
                continue
            name_node = name_nodes[0]
            receiver_nodes = caps.get("receiver")
            receiver = None
            if receiver_nodes:
                receiver_node = receiver_nodes[0]
                receiver = receiver_node.text.decode("utf-8", "replace")
                if receiver_node.type in PLAIN_RECEIVERS:
                    pass  # an identifier or `this`: nothing to normalise
                elif len(receiver) > 80 or not SIMPLE_RECEIVER.match(receiver):
                    receiver = "".join(receiver.split())
                    if len(receiver) > 80 or not SIMPLE_RECEIVER.match(receiver):
                        receiver = "?"
            others.append(
                (
                    name_node.start_byte,
                    "ref",
                    (key[10:], name_node.text.decode("utf-8", "replace"), receiver, name_node.start_point[0] + 1),
                )
            )
        elif kind == "i":  # import
            parsed = parse_import(outer) if parse_import is not None else _generic_import(caps)
            line = outer.start_point[0] + 1
            for item in parsed:
                others.append((outer.start_byte, "import", (*item, line)))
        else:  # comment
            text = _text(outer)
            end_row, end_col = outer.end_point
            # A line comment that swallows its newline ends at column 0 of the next row.
            comments[end_row + 1 if end_col else end_row] = (outer.start_point[0] + 1, text)
            match = NOTE_RE.match(text)
            if match and match.group(2).strip():
                others.append((outer.start_byte, "note", (f"{match.group(1)}: {_squash(match.group(2))}",)))

    raw_defs.sort(key=lambda d: (d[0], -d[1]))
    others.sort(key=lambda o: o[0])

    # One sweep: parents of definitions, scopes of everything else.
    parents: list[int] = []
    stack: list[int] = []
    for index, d in enumerate(raw_defs):
        while stack and raw_defs[stack[-1]][1] <= d[0]:
            stack.pop()
        parents.append(stack[-1] if stack else -1)
        stack.append(index)

    notes_by_def: dict[int, list[str]] = {}
    refs: list[Ref] = []
    imports: list[ImportRec] = []
    stack = []
    di = 0
    n_defs = len(raw_defs)
    for pos, what, payload in others:
        while di < n_defs and raw_defs[di][0] <= pos:
            while stack and raw_defs[stack[-1]][1] <= raw_defs[di][0]:
                stack.pop()
            stack.append(di)
            di += 1
        while stack and raw_defs[stack[-1]][1] <= pos:
            stack.pop()
        scope = stack[-1] if stack else -1
        if what == "ref":
            relation, name, receiver, line = payload
            refs.append(Ref(relation, name, receiver, scope, line))
        elif what == "import":
            module, level, names, alias, reexport, line = payload
            imports.append(ImportRec(module, level, names, alias, line, scope, reexport))
        else:
            notes_by_def.setdefault(scope, []).append(payload[0])

    defs: list[Def] = []
    qualnames: list[str] = []
    top_level: dict[str, int] = {}
    for index, d in enumerate(raw_defs):
        if parents[index] < 0 and d[2] in CLASS_LIKE:
            top_level.setdefault(d[3], index)
    for index, (_start, _end, kind, name, line, end_line, doc, owner) in enumerate(raw_defs):
        parent = parents[index]
        if owner and parent < 0:
            # Declared outside its type (Go receivers, C++ `T::m`, Lua `M.f`): qualified by the owner's name,
            # and scoped inside the owner when this file defines it.
            parent = top_level.get(owner, -1)
            qualname = f"{owner}.{name}"
            kind = "method"
        elif parent >= 0:
            qualname = f"{qualnames[parent]}.{name}"
            if kind == "function" and defs[parent].kind in CLASS_LIKE:
                kind = "method"
        else:
            qualname = name
        qualnames.append(qualname)
        if doc is None and comments:
            doc = comment_doc(comments, line)
        defs.append(Def(kind, qualname, name, line, end_line, parent, doc, tuple(notes_by_def.get(index, ()))))

    return FileRecord(
        lang=spec.name,
        defs=tuple(defs),
        refs=tuple(refs),
        imports=tuple(imports),
        doc=_module_doc(root, spec, comments),
        notes=tuple(notes_by_def.get(-1, ())),
        errors=errors,
    )


def count_errors(root) -> int:
    """ERROR and MISSING nodes, descending only into subtrees that contain one."""
    count = 0
    pending = [root]
    while pending:
        node = pending.pop()
        if node.is_error or node.is_missing:
            count += 1
            continue
        pending.extend(child for child in node.children if child.has_error)
    return count


def _text(node) -> str:
    return node.text.decode("utf-8", "replace")


def _squash(text: str) -> str:
    text = " ".join(COMMENT_MARKS.sub("", text).split()).rstrip("*/ ").strip()
    return text[:DOC_LIMIT]


def clean_docstring(raw: str) -> str | None:
    body = raw.lstrip("rRbBuUfF")
    for quote in ('"""', "'''", '"', "'"):
        if body.startswith(quote) and body.endswith(quote) and len(body) >= 2 * len(quote):
            body = body[len(quote) : -len(quote)]
            break
    text = inspect.cleandoc(body).strip()
    if not text:
        return None
    first = text.split("\n\n", 1)[0]
    return " ".join(first.split())[:DOC_LIMIT]


def comment_doc(comments: dict[int, tuple[int, str]], line: int) -> str | None:
    """The comment block that ends right above `line` (Javadoc, Go doc comments, `///`)."""
    parts = []
    current = line - 1
    while current in comments:
        start, text = comments[current]
        parts.append(text)
        current = start - 1
    if not parts:
        return None
    text = _squash("\n".join(reversed(parts)))
    return text or None


def _module_doc(root, spec: LanguageSpec, comments) -> str | None:
    first = root.named_children[0] if root.named_child_count else None
    if first is None:
        return None
    if spec.name == "python":
        if (
            first.type == "expression_statement"
            and first.named_child_count
            and first.named_children[0].type == "string"
        ):
            return clean_docstring(_text(first.named_children[0]))
        return None
    if "comment" in first.type and first.start_point[0] == 0 and not first.text.startswith(b"#!"):
        text = _squash(_text(first))
        return text or None
    return None


def _generic_import(caps) -> list[tuple]:
    sources = caps.get("import.source")
    if not sources:
        return []
    module = _text(sources[0]).strip().strip("\"'`<>")
    if not module:
        return []
    names = tuple((_text(n), None) for n in caps.get("import.name", ())) or None
    alias_nodes = caps.get("import.alias")
    alias = _text(alias_nodes[0]) if alias_nodes else None
    return [(module, 0, names, alias, False)]
