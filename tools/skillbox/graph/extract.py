"""Source bytes -> a file's record, for every registered language, driven by the language's query file.

One generic engine: run the query once, sort definitions by position, and sweep them to give every definition
its parent (qualified names, method vs function) and every reference/import/note its innermost enclosing
definition (its scope). Language hooks only parse import statements. The tree is dropped on return.

This runs on every file of a cold build, so it is written for CPU: the record is built as plain tuples, texts
are sliced from the source bytes, comments are decoded only when used. The record must stay exactly what it
was (records are cached by content and compared across builds), down to which of its objects are shared: the
interface digest marshals part of it, and marshal writes a shared object differently from two equal ones.
"""

from __future__ import annotations

import re
from collections import Counter
from operator import itemgetter

from skillbox.graph import ts
from skillbox.graph.languages import LanguageSpec

# Record kinds that hold members (`Class.name`): extraction nests methods in them, resolution looks members up.
CLASS_LIKE = frozenset({"class", "interface", "type", "impl"})
# Callback scopes (`LanguageSpec.callback_scopes`, JS/TS): the function-like node around a definition is a scope
# of the record (kind "scope", no node of the graph) when it is a call's argument (`describe(..., () => {...})`).
FUNCTION_NODES = frozenset({"arrow_function", "function_expression", "function"})
# Above these a definition's own function context is settled (top level, a class, a named function's body).
SCOPE_STOPS = frozenset(
    {"program", "class_body", "function_declaration", "generator_function_declaration", "method_definition"}
)
# `@owned.<relation>` (JS/TS returns and return types): the function-like node a fact belongs to must be a
# definition, else the fact is its anonymous callback's (`x.f = () => { return g() }` inside `def h` is no return
# of h). Named function nodes always are; a function value is when a `variable_declarator` gives it its name.
NAMED_FUNCTIONS = frozenset(
    {
        "function_declaration", "generator_function_declaration", "method_definition", "method_signature",
        "abstract_method_signature", "function_signature",
    }
)  # fmt: skip
# The captures that declare a variable (`const x = f()`, `x: T` parameters): the anonymous function around one is a
# scope of the record (see `_callback_scope`).
DECLARING_KEYS = frozenset({"reference.assign", "reference.awaitassign", "reference.alias"})
NOTE_RE = re.compile(r"^\W*(NOTE|WHY|HACK)\b\s*(?:\([^)]*\))?\s*[:\-]?\s*(.*)", re.S)
# Matches (on the raw bytes) every comment NOTE_RE matches and few others: most comments are never decoded.
NOTE_PROBE = re.compile(rb"\W*(?:NOTE|WHY|HACK)\b")
SIMPLE_RECEIVER = re.compile(r"^[A-Za-z_$@][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)*(?:\(\))?$")
# A chain of names and argument-less calls, what `recorded_receiver` makes of a chain of calls with arguments;
# builders chain a dozen calls (`CodeBlock.builder().add().add()...build()`), so they may be longer than a name.
CHAIN_LIMIT = 240
CHAIN_RECEIVER = re.compile(r"^[A-Za-z_$@][\w$]*(?:\(\))?(?:(?:\.|::|->)[A-Za-z_$][\w$]*(?:\(\))?)*$")
# The indentation of each line after the first that has text: `inspect.cleandoc` takes its margin from these.
INDENTS = re.compile(r"\n([^\S\n]*)(?=\S)")
COMMENT_MARKS = re.compile(r"^\s*(?:/\*\*?|\*/|\*|//[/!]?|#|--\[?\[?|;+)\s?", re.M)
DOC_LIMIT = 400
PLAIN_RECEIVERS = frozenset({"identifier", "this", "self", "simple_identifier", "constant", "variable_name"})
# Receivers that are values written in the code (`", ".join`, `[].map`, `` `x`.trim ``, `"a".to_string()`): their
# methods belong to the language's own types, never to the repository's. Recorded as LITERAL.
LITERAL_RECEIVERS = frozenset(
    {
        "string", "concatenated_string", "integer", "float", "list", "dictionary", "set", "tuple",
        "list_comprehension", "dictionary_comprehension", "set_comprehension", "generator_expression",
        "template_string", "array", "object", "number", "regex", "true", "false",
        "string_literal", "raw_string_literal", "integer_literal", "float_literal", "char_literal",
        "interpreted_string_literal", "rune_literal", "interpolated_string_expression", "verbatim_string_literal",
        "line_string_literal", "multi_line_string_literal", "encapsed_string", "heredoc", "symbol", "hash",
    }
)  # fmt: skip
LITERAL = "<literal>"
RECEIVER_FORMS_MAX = 100_000
BEYOND = 1 << 62  # past any byte offset
# `@definition.member` (JS/TS methods): the outer capture its parent's type stands for; other parents: no definition.
MEMBER_KEYS = {"class_body": "definition.function", "object": "definition.objmethod"}
_first = itemgetter(0)


class _Engine:
    """What extracting one file of a language needs besides its bytes, looked up once per process."""

    __slots__ = (
        "call_args", "outer_of", "parse_import", "parser", "plain_kinds", "prune_refs", "query", "scope_kinds",
        "spec", "unpack_pairs",
    )  # fmt: skip

    def __init__(self, spec: LanguageSpec):
        self.spec = spec
        self.parser = ts.parser(spec)
        self.query = ts.query(spec)
        self.parse_import = getattr(spec.hook(), "parse_import", None)
        # A language may keep only the flow facts its resolver can use (Python: parameters a body calls).
        self.prune_refs = getattr(spec.hook(), "prune_refs", None)
        # A language may read argument facts off each call node (Python: `call_arguments`).
        call_arguments = getattr(spec.hook(), "call_arguments", None)
        self.call_args = call_arguments(ts.language(spec)) if call_arguments is not None else None
        self.outer_of: dict[int, str] = {}  # pattern index -> its outer capture name
        self.plain_kinds: dict[int, int] = {}  # node kind id -> 1 PLAIN_RECEIVERS, 2 LITERAL_RECEIVERS, 0 other
        self.scope_kinds = _scope_kinds(ts.language(spec)) if spec.callback_scopes else None
        # `@unpack` matches (Python `a, b = f, g()`): the hook pairs targets with values.
        self.unpack_pairs = getattr(spec.hook(), "unpack_pairs", None)


def _scope_kinds(language) -> tuple[frozenset[int], frozenset[int], int, int]:
    """(function-like kind ids, stop kind ids, the `arguments` and `variable_declarator` kind ids):
    `_callback_scope` compares ints."""

    def ids(names) -> frozenset[int]:
        return frozenset(i for i in (language.id_for_node_kind(n, True) for n in names) if i)

    return (
        ids(FUNCTION_NODES),
        ids(SCOPE_STOPS),
        language.id_for_node_kind("arguments", True) or -1,
        language.id_for_node_kind("variable_declarator", True) or -1,
    )


_ENGINES: dict[str, _Engine] = {}
# Receiver text -> the text recorded for it (see `recorded_receiver`).
_RECEIVER_FORMS: dict[str, str] = {}


def _engine(spec: LanguageSpec) -> _Engine:
    engine = _ENGINES.get(spec.name)
    if engine is None or engine.spec is not spec:
        engine = _ENGINES[spec.name] = _Engine(spec)
    return engine


def recorded_receiver(receiver: str) -> str:
    """How a receiver that is not a plain identifier is recorded: as written when it is a dotted name (`a.b`,
    `Foo::Bar`, `make()`), without its whitespace when that makes one (a chain split over lines), with the
    arguments of its calls dropped when that does (`a.b(x).c(y)` as `a.b().c()`, `new Foo<T>(x)` as `Foo()`: what
    each call returns is what resolution follows, whatever it was given; up to CHAIN_LIMIT characters), else "?"
    (a subscript, a lambda, an anonymous class, a name longer than 80 characters)."""
    if len(receiver) <= 80 and SIMPLE_RECEIVER.match(receiver):
        return receiver
    if not receiver.startswith("new"):  # (`new Foo()` squashed would be a call of `newFoo`)
        squashed = "".join(receiver.split())
        if len(squashed) <= 80 and SIMPLE_RECEIVER.match(squashed):
            return squashed
    if "(" in receiver:
        stripped = _without_arguments(receiver)
        if stripped is not None:
            stripped = "".join(stripped.split())
            if len(stripped) <= CHAIN_LIMIT and CHAIN_RECEIVER.match(stripped):
                return stripped
    return "?"


_NEW = re.compile(r"^new\s+")
_GENERIC_ARGUMENTS = re.compile(r"<[\w$.,?\s\[\]<>]*>")


def _without_arguments(text: str) -> str | None:
    """`text` with every call's argument list emptied, a leading `new ` and generic arguments right before a
    call's parenthesis (`Foo<Bar<T>>(`) dropped; None when parentheses or quotes do not balance."""
    text = _NEW.sub("", text, count=1)
    out: list[str] = []
    depth = 0
    quote = ""
    index, end = 0, len(text)
    while index < end:
        char = text[index]
        if depth:
            if quote:
                if char == "\\":
                    index += 1
                elif char == quote:
                    quote = ""
            elif char in "'\"`":
                quote = char
            elif char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
                if not depth:
                    out.append("()")
        elif char == "(":
            depth = 1
        elif char == ")":
            return None
        elif char == "<":
            generic = _GENERIC_ARGUMENTS.match(text, index)
            if generic is None or not text.startswith("(", generic.end()):
                return None
            index = generic.end()
            continue
        else:
            out.append(char)
        index += 1
    return None if depth else "".join(out)


OUTER_PREFIXES = ("definition.", "reference.", "position.", "argument.", "owned.")


def _outer_key(caps) -> str:
    for key in caps:
        if key.startswith(OUTER_PREFIXES) or key in ("import", "comment", "unpack"):
            return key
    raise ValueError(f"query pattern without an outer capture: {sorted(caps)}")


def extract_source(data: bytes, spec: LanguageSpec) -> tuple:
    """The file's record in the plain layout of `records.to_plain`, `encoding_errors` and `interface` left empty.

    Plain tuples from the start: the worker seals this layout, so named tuples would only be converted back.
    Texts are sliced from `data` by byte offsets (`Node.text` costs more than the slice and its decoding).
    """
    engine = _engine(spec)
    tree = engine.parser.parse(data)
    root = tree.root_node
    errors = count_errors(root) if root.has_error else 0
    parse_import = engine.parse_import
    wrappers = spec.def_wrappers
    outer_of = engine.outer_of
    plain_kinds = engine.plain_kinds
    call_args = engine.call_args
    forms = _RECEIVER_FORMS
    if len(forms) > RECEIVER_FORMS_MAX:
        forms.clear()

    raw_defs: list[tuple[int, int, str, str, int, int, str | None, str | None]] = []
    scope_kinds = engine.scope_kinds
    scopes_seen: set[int] = set()
    raw_refs: list[tuple] = []  # (name start byte, relation, name, receiver, line)
    raw_imports: list[tuple] = []  # (statement start byte, parsed item, line)
    raw_notes: list[tuple[int, str]] = []  # (comment start byte, note)
    comments: dict[int, tuple[int, int, int]] = {}  # end line -> (start line, start byte, end byte)
    pending_calls: list[tuple] = []  # (call node, callee end, dotted callee, index after its ref): `call_args`
    declared: list[tuple] = []  # (name, declaring node) of the variables declared (JS/TS): `_declaration_scopes`

    for pattern, caps in ts.run_query(engine.query, root):
        key = outer_of.get(pattern)
        if key is None:
            key = outer_of[pattern] = _outer_key(caps)
        kind = key[0]
        if kind == "r":  # reference.<relation>: by far the most matches
            name_nodes = caps.get("name")
            if not name_nodes:
                continue
            name_node = name_nodes[0]
            start = name_node.start_byte
            receiver_nodes = caps.get("receiver")
            receiver = _receiver(data, receiver_nodes[0], plain_kinds, forms) if receiver_nodes else None
            end = name_node.end_byte
            raw_refs.append(
                (start, key[10:], data[start:end].decode("utf-8", "replace"), receiver, name_node.start_point[0] + 1)
            )
            if scope_kinds is not None and key in DECLARING_KEYS:
                declared.append((raw_refs[-1][2], caps[key][0]))
            if call_args is not None and key == "reference.call":
                outer = caps[key][0]
                if outer.end_byte - end > 2:  # something between the parentheses
                    pending_calls.append((outer, end, receiver_nodes is not None, len(raw_refs)))
        elif kind == "d":  # definition.<kind>
            name_nodes = caps.get("name")
            if not name_nodes:
                continue
            outer = caps[key][0]
            def_key = key
            if key == "definition.member":  # its parent says which kind
                parent = outer.parent
                def_key = MEMBER_KEYS.get(parent.type) if parent is not None else None
                if def_key is None:
                    continue
            if scope_kinds is not None:
                _callback_scope(outer, raw_defs, scopes_seen, scope_kinds)
            start = outer.start_byte
            if wrappers:
                parent = outer.parent
                if parent is not None and parent.type in wrappers:
                    start = parent.start_byte
            name_node = name_nodes[0]
            doc_nodes = caps.get("doc")
            owner_nodes = caps.get("owner")
            raw_defs.append(
                (
                    start,
                    outer.end_byte,
                    def_key[11:],
                    data[name_node.start_byte : name_node.end_byte].decode("utf-8", "replace"),
                    outer.start_point[0] + 1,
                    outer.end_point[0] + 1,
                    clean_docstring(_slice(data, doc_nodes[0])) if doc_nodes else None,
                    _slice(data, owner_nodes[0]) if owner_nodes else None,
                )
            )
        elif kind == "i":  # import
            outer = caps[key][0]
            parsed = parse_import(outer) if parse_import is not None else _generic_import(caps)
            line = outer.start_point[0] + 1
            start = outer.start_byte
            for item in parsed:
                raw_imports.append((start, item, line))
        elif kind == "p":  # position.<relation>: reference.<relation><i>, @name the i-th named child (i < 4)
            name_node = caps["name"][0]
            index = _position(name_node)
            if index < 0:
                continue
            receiver_node = caps["receiver"][0]  # an identifier: kept as written
            raw_refs.append(_raw_ref(data, name_node, f"{key[9:]}{index}", _slice(data, receiver_node)))
        elif kind == "a":  # argument.<relation>: reference.<relation> in a function passed to `name(...)`, its receiver
            outer = caps[key][0]
            arguments = outer.parent
            if arguments is None or arguments.type != "arguments":
                continue
            call = arguments.parent
            if call is None or call.type != "call_expression":
                continue
            callee = call.child_by_field_name("function")
            if callee is None or callee.type != "identifier":
                continue
            raw_refs.append(_raw_ref(data, caps["name"][0], key[9:], _slice(data, callee)))
        elif kind == "o":  # owned.<relation>: reference.<relation> when the function it sits in is a definition
            if not _owned_by_definition(caps[key][0]):
                continue
            raw_refs.append(_raw_ref(data, caps["name"][0], key[6:], None))
        elif kind == "u":  # unpack: refs the language hook pairs off the two sides of an assignment
            for relation_key, name_node, receiver_node in engine.unpack_pairs(caps["name"][0], caps["receiver"][0]):
                receiver = _receiver(data, receiver_node, plain_kinds, forms)
                raw_refs.append(_raw_ref(data, name_node, relation_key[10:], receiver))
        else:  # comment
            outer = caps[key][0]
            start = outer.start_byte
            end = outer.end_byte
            end_row, end_col = outer.end_point
            # A line comment that swallows its newline ends at column 0 of the next row.
            comments[end_row + 1 if end_col else end_row] = (outer.start_point[0] + 1, start, end)
            if NOTE_PROBE.match(data, start, end):
                match = NOTE_RE.match(data[start:end].decode("utf-8", "replace"))
                if match and match.group(2).strip():
                    raw_notes.append((start, f"{match.group(1)}: {_squash(match.group(2))}"))

    if len(declared) > 1:
        _declaration_scopes(declared, raw_defs, scopes_seen, scope_kinds)
    if pending_calls:
        raw_refs = _with_argument_refs(raw_refs, call_args(data, pending_calls))
    defs, refs, imports, file_notes = _assemble(data, raw_defs, raw_refs, raw_imports, raw_notes, comments)
    if engine.prune_refs is not None:
        refs = engine.prune_refs(defs, refs, imports)
    return (
        spec.name,
        tuple(defs),
        tuple(refs),
        tuple(imports),
        _module_doc(data, root, spec),
        file_notes,
        errors,
        0,
        (),
        (),
        (),
        "",
    )


def _raw_ref(data: bytes, name_node, relation: str, receiver: str | None) -> tuple:
    """A raw reference (name start byte, relation, name, receiver, line). The `reference.` matches, most of a file's,
    build the same tuple inline."""
    start = name_node.start_byte
    return (start, relation, _slice(data, name_node), receiver, name_node.start_point[0] + 1)


def _receiver(data: bytes, node, plain_kinds: dict, forms: dict) -> str:
    """A receiver node's text as a ref records it: literals as LITERAL, an identifier or `this` as written, anything
    else normalised by `recorded_receiver` (memoised per process in `forms`)."""
    receiver = data[node.start_byte : node.end_byte].decode("utf-8", "replace")
    plain = plain_kinds.get(node.kind_id)
    if plain is None:
        kind_name = node.type
        plain = plain_kinds[node.kind_id] = (
            1 if kind_name in PLAIN_RECEIVERS else 2 if kind_name in LITERAL_RECEIVERS else 0
        )
    if plain == 2:
        return LITERAL
    if not plain:  # (1, an identifier or `this`, is kept as written)
        recorded = forms.get(receiver)
        if recorded is None:
            recorded = forms[receiver] = recorded_receiver(receiver)
        return recorded
    return receiver


def _position(node, limit: int = 4) -> int:
    """`node`'s index among its parent's named children when below `limit`, else -1: what the anchored patterns
    `(list . (_) . (_) . X @name)` (one per index) matched, the `(_)` before it being any named node (comments
    too) but an ERROR. One unanchored `@position.` pattern and this walk cost far less query time than those."""
    index = 0
    sibling = node.prev_named_sibling
    while sibling is not None:
        index += 1
        if index >= limit or sibling.is_error:
            return -1
        sibling = sibling.prev_named_sibling
    return index


def _with_argument_refs(raw_refs: list, found: list[tuple]) -> list:
    """`raw_refs` with the argument facts of calls (`LanguageSpec` hook `call_arguments`: [(facts, dotted
    callee, index)]) each right after its call's own ref, where query matches of their own came (refs at one
    position keep that order), the callee as their receiver in the form every receiver takes (`recorded_receiver`)."""
    if not found:
        return raw_refs
    out = []
    start = 0
    for passed, dotted, index in found:
        out.extend(raw_refs[start:index])
        start = index
        for position, relation, text, callee, line in passed:
            if dotted:
                recorded = _RECEIVER_FORMS.get(callee)
                if recorded is None:
                    recorded = _RECEIVER_FORMS[callee] = recorded_receiver(callee)
                callee = recorded
            out.append((position, relation, text, callee, line))
    out.extend(raw_refs[start:])
    return out


def _owned_by_definition(node) -> bool:
    """Whether the nearest function-like node at or above `node` is a definition (see NAMED_FUNCTIONS)."""
    while node is not None:
        kind = node.type
        if kind in NAMED_FUNCTIONS:
            return True
        if kind in FUNCTION_NODES:
            parent = node.parent
            return parent is not None and parent.type == "variable_declarator"
        if kind == "class_body" or kind == "program":
            return False
        node = node.parent
    return False


def _callback_scope(outer, raw_defs: list, seen: set[int], scope_kinds: tuple, anywhere: bool = False) -> None:
    """Adds the callback around definition `outer` as a scope (once per callback): `const f` in one test
    callback is not the next one's. Found by walking up from the definitions (few) rather than by a query
    pattern on every call's arguments (~30% more query time on svelte). With `anywhere` (a variable declared in
    it, `outer` its declaration), any anonymous function is one: `const scope = state.scope.child()` in a visitor
    `(node, { state }) => {...}` is not the `scope` of the function around it."""
    functions, stops, arguments, declarator = scope_kinds
    node = outer.parent
    while node is not None:
        kind = node.kind_id
        if kind in functions:
            parent = node.parent
            if (
                parent is not None
                and (parent.kind_id == arguments or (anywhere and parent.kind_id != declarator))
                and node.start_byte not in seen
            ):
                seen.add(node.start_byte)
                line, end = node.start_point[0] + 1, node.end_point[0] + 1
                raw_defs.append((node.start_byte, node.end_byte, "scope", "", line, end, None, None))
            return
        if kind in stops:
            return
        node = node.parent


def _declaration_scopes(declared: list[tuple], raw_defs: list, seen: set[int], scope_kinds: tuple) -> None:
    """The anonymous functions around the declarations of a name declared more than once in the file, as scopes:
    only there can two of them fall in one scope of the record (`const size = spring()` in one test callback,
    `const size = tweened()` in the next). Walking up from every declaration would cost ~8% of extracting svelte's
    JavaScript (a node's parent is found from the root down)."""
    counts = Counter(name for name, _node in declared)
    for name, node in declared:
        if counts[name] > 1:
            _callback_scope(node, raw_defs, seen, scope_kinds, anywhere=True)


def _parents(raw_defs: list) -> list[int]:
    """The index of each sorted raw definition's innermost enclosing one (-1: the file), in one sweep."""
    parents: list[int] = []
    stack: list[int] = []
    for index, d in enumerate(raw_defs):
        while stack and raw_defs[stack[-1]][1] <= d[0]:
            stack.pop()
        parents.append(stack[-1] if stack else -1)
        stack.append(index)
    return parents


def _assemble(data: bytes, raw_defs: list, raw_refs: list, raw_imports: list, raw_notes: list, comments: dict):
    """The query's raw matches as the record's parts: definitions with parents, qualified names and docs;
    references, imports and notes each in the innermost definition around them. (defs, refs, imports, the
    file's own notes)."""
    raw_defs.sort(key=lambda d: (d[0], -d[1]))
    parents = _parents(raw_defs)

    # Scopes of everything else: the innermost definition around each position. One int object per scope, as
    # the single sweep this replaced had (the interface digest marshals these records, and marshal notices).
    starts = [d[0] for d in raw_defs]
    ends = [d[1] for d in raw_defs]
    scope_ids = list(range(len(raw_defs)))
    raw_refs.sort(key=_first)  # stable: refs at one position keep match order
    raw_imports.sort(key=_first)
    raw_notes.sort(key=_first)
    refs = _scoped_refs(raw_refs, _ScopeSweep(starts, ends, scope_ids))
    imports = [
        (item[0], item[1], item[2], item[3], line, scope, item[4])
        for (_pos, item, line), scope in zip(
            raw_imports, _scopes(raw_imports, _ScopeSweep(starts, ends, scope_ids)), strict=True
        )
    ]
    notes_by_def: dict[int, list[str]] = {}
    for (_pos, note), scope in zip(raw_notes, _scopes(raw_notes, _ScopeSweep(starts, ends, scope_ids)), strict=True):
        while scope >= 0 and raw_defs[scope][2] == "scope":  # a callback's notes belong to what holds it
            scope = parents[scope]
        notes_by_def.setdefault(scope, []).append(note)

    defs: list[tuple] = []
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
        elif kind == "scope":  # named as what it is in: its definitions are named as if it were not there
            qualname = qualnames[parent] if parent >= 0 else ""
        elif parent >= 0:
            qualname = f"{qualnames[parent]}.{name}" if qualnames[parent] else name
            if kind == "function" and defs[parent][0] in CLASS_LIKE:
                kind = "method"
        else:
            qualname = name
        qualnames.append(qualname)
        if doc is None and comments and kind != "scope":
            doc = comment_doc(data, comments, line)
        defs.append((kind, qualname, name, line, end_line, parent, doc, tuple(notes_by_def.get(index, ()))))

    return defs, refs, imports, tuple(notes_by_def.get(-1, ()))


class _ScopeSweep:
    """The innermost definition around positions met in increasing order, -1 for the file.

    `top` stays right while the position is below both `next_start` (where the next definition starts) and
    `top_end` (where `top` ends); only then does `advance` walk the definitions. Most refs sit in the scope of
    the ref before them, so callers test those two bounds inline and rarely call `advance`."""

    __slots__ = ("di", "ends", "next_start", "scope_ids", "stack", "starts", "top", "top_end")

    def __init__(self, starts: list[int], ends: list[int], scope_ids: list[int]):
        self.starts, self.ends, self.scope_ids = starts, ends, scope_ids
        self.stack: list[int] = []
        self.di = 0
        self.next_start = starts[0] if starts else BEYOND
        self.top, self.top_end = -1, BEYOND

    def advance(self, pos: int) -> None:
        starts, ends, stack = self.starts, self.ends, self.stack
        di, n_defs = self.di, len(starts)
        while di < n_defs and starts[di] <= pos:
            while stack and ends[stack[-1]] <= starts[di]:
                stack.pop()
            stack.append(self.scope_ids[di])
            di += 1
        while stack and ends[stack[-1]] <= pos:
            stack.pop()
        self.di = di
        self.next_start = starts[di] if di < n_defs else BEYOND
        self.top, self.top_end = (stack[-1], ends[stack[-1]]) if stack else (-1, BEYOND)


def _scoped_refs(raw: list, sweep: _ScopeSweep) -> list[tuple]:
    """The ref tuples with their scopes, in one pass: refs are most of a file's records (a separate list of
    scopes zipped back in costs ~10% of the worker's Python on vite)."""
    out = []
    append = out.append
    for pos, relation, name, receiver, line in raw:
        if sweep.next_start <= pos or sweep.top_end <= pos:
            sweep.advance(pos)
        append((relation, name, receiver, sweep.top, line))
    return out


def _scopes(items: list, sweep: _ScopeSweep) -> list[int]:
    """The scope of each item (items sorted by their position, item[0])."""
    out = []
    for item in items:
        pos = item[0]
        if sweep.next_start <= pos or sweep.top_end <= pos:
            sweep.advance(pos)
        out.append(sweep.top)
    return out


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


def _slice(data: bytes, node) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _squash(text: str) -> str:
    text = " ".join(COMMENT_MARKS.sub("", text).split()).rstrip("*/ ").strip()
    return text[:DOC_LIMIT]


def clean_docstring(raw: str) -> str | None:
    """The docstring's first paragraph on one line: what `inspect.cleandoc`, a split at the first blank line and
    whitespace squashing give, without cleaning the paragraphs that are dropped anyway.

    Squashing makes the margin cut invisible except where it decides a paragraph break: a line after the first
    is blank in cleandoc's output when it is no longer than the margin (the smallest indentation of the later
    lines with text), or when it is empty and no later line has text.
    """
    body = raw.lstrip("rRbBuUfF")
    for quote in ('"""', "'''", '"', "'"):
        if body.startswith(quote) and body.endswith(quote) and len(body) >= 2 * len(quote):
            body = body[len(quote) : -len(quote)]
            break
    body = body.expandtabs()
    indents = INDENTS.findall(body)
    margin = min(map(len, indents)) if indents else -1
    lines = body.split("\n")
    start = -1
    end = len(lines)
    for index, line in enumerate(lines):
        if start < 0:
            if line and not line.isspace():
                start = index
        elif len(line) <= margin or not line:
            end = index
            break
    if start < 0:
        return None
    return " ".join(" ".join(lines[start:end]).split())[:DOC_LIMIT]


def comment_doc(data: bytes, comments: dict[int, tuple[int, int, int]], line: int) -> str | None:
    """The comment block that ends right above `line` (Javadoc, Go doc comments, `///`)."""
    parts = []
    current = line - 1
    while current in comments:
        start, first, last = comments[current]
        parts.append(data[first:last].decode("utf-8", "replace"))
        current = start - 1
    if not parts:
        return None
    text = _squash("\n".join(reversed(parts)))
    return text or None


def _module_doc(data: bytes, root, spec: LanguageSpec) -> str | None:
    if not root.named_child_count:
        return None
    first = root.named_child(0)  # not `named_children[0]`: that wraps every top-level node
    if spec.name == "python":
        if first.type == "expression_statement" and first.named_child_count:
            string = first.named_child(0)
            if string.type == "string":
                return clean_docstring(_slice(data, string))
        return None
    if "comment" in first.type and first.start_point[0] == 0 and not data.startswith(b"#!", first.start_byte):
        text = _squash(_slice(data, first))
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
