"""Inline scripts as a syntax tree: the GSAP calls, timelines and registry writes a composition makes.

Rules ask questions such as "is this timeline created paused?" or "is this tween inside a setTimeout?". Answering
them from tree-sitter-javascript nodes rather than regexes means comments, strings and formatting never fool a
rule, and every answer carries an exact byte offset back into the HTML file.
"""

from __future__ import annotations

from skillbox.lint.grammars import js_parser, tree_sitter
from skillbox.lint.records import dataclass, field

MISSING = object()

# Calls whose function arguments run later than the synchronous script body: a timeline built there is not
# there when the renderer first seeks.
ASYNC_CALLEES = {
    "setTimeout",
    "setInterval",
    "requestAnimationFrame",
    "requestIdleCallback",
    "queueMicrotask",
    "then",
    "catch",
    "finally",
    "addEventListener",
    "on",
    "onload",
}
FUNCTION_NODES = {"arrow_function", "function_expression", "function_declaration", "function", "method_definition"}
TWEEN_METHODS = {"to", "from", "fromTo", "set"}


@dataclass
class JsValue:
    """One expression: its text, and its Python value when it is a plain literal (`MISSING` otherwise)."""

    node: tree_sitter.Node
    text: str
    literal: object = MISSING
    offset: int = 0  # byte offset of the expression in the HTML file

    @property
    def is_literal(self) -> bool:
        return self.literal is not MISSING


@dataclass
class GsapCall:
    """A call on `gsap` or on a timeline variable: `tl.to("#a", {x: 1}, 0.5)`."""

    receiver: str  # "gsap" or the timeline variable the chain starts from
    method: str
    args: list[JsValue]
    offset: int
    async_context: str | None
    on_timeline: bool
    targets: JsValue | None = None
    vars: dict[str, JsValue] | None = None
    from_vars: dict[str, JsValue] | None = None
    position: JsValue | None = None

    @property
    def target_selector(self) -> str | None:
        if self.targets is not None and isinstance(self.targets.literal, str):
            return self.targets.literal
        return None


@dataclass
class Timeline:
    """`const tl = gsap.timeline({...})`."""

    name: str | None
    vars: dict[str, JsValue]
    has_vars_object: bool
    offset: int
    vars_offset: int | None  # byte offset of the `(` ... `)` argument list start, for autofix
    args_end: int  # byte offset just before `)`
    async_context: str | None


@dataclass
class Registration:
    """`window.__timelines["key"] = value`."""

    key: str | None
    value_text: str
    offset: int
    async_context: str | None


@dataclass
class Call:
    """Any call expression: `callee_text(args)` with the last name of the callee for quick matching."""

    callee: str
    name: str
    object_text: str | None
    args: list[JsValue]
    offset: int
    async_context: str | None


@dataclass
class Assignment:
    left: str
    right: JsValue
    offset: int
    async_context: str | None


@dataclass
class ScriptModel:
    """Everything rules need from one script block."""

    text: str
    start: int  # byte offset of the script text inside the HTML file
    has_error: bool = False
    error_offset: int | None = None
    timelines: list[Timeline] = field(default_factory=list)
    gsap_calls: list[GsapCall] = field(default_factory=list)
    registrations: list[Registration] = field(default_factory=list)
    registry_inits: list[int] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    assignments: list[Assignment] = field(default_factory=list)
    new_expressions: list[Call] = field(default_factory=list)
    strings: list[JsValue] = field(default_factory=list)
    element_vars: dict[str, str] = field(default_factory=dict)  # `const el = document.querySelector("#a")`


def _text(node: tree_sitter.Node, src: bytes) -> str:
    return src[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _literal(node: tree_sitter.Node, src: bytes) -> object:
    kind = node.type
    if kind == "number":
        text = _text(node, src).replace("_", "")
        try:
            return int(text, 0) if text.isdigit() or text.lower().startswith(("0x", "0o", "0b")) else float(text)
        except ValueError:
            return MISSING
    if kind == "string":
        return "".join(_text(c, src) for c in node.named_children if c.type in ("string_fragment", "escape_sequence"))
    if kind == "template_string":
        if any(c.type == "template_substitution" for c in node.named_children):
            return MISSING
        return "".join(_text(c, src) for c in node.named_children if c.type == "string_fragment")
    if kind == "true":
        return True
    if kind == "false":
        return False
    if kind == "null":
        return None
    if kind == "unary_expression" and node.child_count == 2:
        op, operand = node.children[0].type, node.children[1]
        value = _literal(operand, src)
        if op == "-" and isinstance(value, int | float) and not isinstance(value, bool):
            return -value
        if op == "!" and value is not MISSING:
            return not value
    if kind == "parenthesized_expression" and node.named_child_count == 1:
        return _literal(node.named_children[0], src)
    return MISSING


def _callee_name(node: tree_sitter.Node, src: bytes) -> tuple[str, str | None]:
    """Last name of a callee and the text of its object: `a.b.c` → ("c", "a.b")."""
    if node.type == "member_expression":
        prop = node.child_by_field_name("property")
        obj = node.child_by_field_name("object")
        return (_text(prop, src) if prop else ""), (_text(obj, src) if obj else None)
    if node.type == "identifier":
        return _text(node, src), None
    return "", None


def _chain_root(node: tree_sitter.Node) -> tree_sitter.Node:
    """`tl.to(...).from(...)` → the `tl` identifier at the start of the chain."""
    while True:
        if node.type == "call_expression":
            node = node.child_by_field_name("function")
        elif node.type == "member_expression":
            node = node.child_by_field_name("object")
        elif node.type == "parenthesized_expression" and node.named_child_count:
            node = node.named_children[0]
        else:
            return node


def _async_context(node: tree_sitter.Node, src: bytes) -> str | None:
    """Why `node` runs after the synchronous script body, or None when it runs during it."""
    current = node
    while current is not None:
        parent = current.parent
        if current.type in FUNCTION_NODES:
            if any(c.type == "async" for c in current.children):
                return "async function"
            if parent is not None and parent.type == "arguments":
                call = parent.parent
                if call is not None and call.type == "call_expression":
                    name, obj = _callee_name(call.child_by_field_name("function"), src)
                    if name in ASYNC_CALLEES:
                        return f"{obj}.{name}" if obj and name in ("then", "catch", "finally") else name
            if parent is not None and parent.type == "assignment_expression":
                left = parent.child_by_field_name("left")
                if left is not None and _text(left, src).rsplit(".", 1)[-1].startswith("on"):
                    return _text(left, src)
        if current.type == "await_expression":
            return "await"
        current = parent
    return None


def _object_props(node: tree_sitter.Node | None, src: bytes, base: int) -> dict[str, JsValue] | None:
    if node is None or node.type != "object":
        return None
    props: dict[str, JsValue] = {}
    for pair in node.named_children:
        if pair.type == "pair":
            key_node = pair.child_by_field_name("key")
            value_node = pair.child_by_field_name("value")
            if key_node is None or value_node is None:
                continue
            key = _literal(key_node, src) if key_node.type == "string" else _text(key_node, src)
            if isinstance(key, str):
                props[key] = _value(value_node, src, base)
        elif pair.type == "shorthand_property_identifier":
            props[_text(pair, src)] = _value(pair, src, base)
        elif pair.type == "method_definition":
            name = pair.child_by_field_name("name")
            if name is not None:
                props[_text(name, src)] = _value(pair, src, base)
    return props


def _value(node: tree_sitter.Node, src: bytes, base: int) -> JsValue:
    return JsValue(node, _text(node, src), _literal(node, src), base + node.start_byte)


def parse_script(text: str, start: int) -> ScriptModel:
    """Parse one inline classic script; `start` is where its text begins in the HTML file (bytes)."""
    src = text.encode("utf-8", "surrogatepass")
    tree = js_parser().parse(src)
    model = ScriptModel(text=text, start=start)
    root = tree.root_node
    if root.has_error:
        model.has_error = True
        model.error_offset = start + _first_error(root)
    timeline_names: set[str] = set()
    calls: list[tree_sitter.Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind == "call_expression":
            calls.append(node)
        elif kind == "new_expression":
            ctor = node.child_by_field_name("constructor")
            args = node.child_by_field_name("arguments")
            name, obj = _callee_name(ctor, src) if ctor is not None else ("", None)
            model.new_expressions.append(
                Call(
                    _text(ctor, src) if ctor else "",
                    name,
                    obj,
                    [_value(a, src, start) for a in args.named_children] if args else [],
                    start + node.start_byte,
                    _async_context(node, src),
                )
            )
        elif kind in ("assignment_expression", "augmented_assignment_expression"):
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            if left is not None and right is not None:
                model.assignments.append(
                    Assignment(_text(left, src), _value(right, src, start), start + node.start_byte, None)
                )
                _registry_write(model, node, left, right, src, start)
        elif kind == "variable_declarator":
            value = node.child_by_field_name("value")
            name = node.child_by_field_name("name")
            if value is not None and name is not None and _is_timeline_call(value, src):
                timeline_names.add(_text(name, src))
            elif value is not None and name is not None and value.type == "call_expression":
                selector = _dom_lookup(value, src)
                if selector is not None:
                    model.element_vars[_text(name, src)] = selector
            elif value is not None and name is not None and value.type == "string":
                literal = _literal(value, src)
                if isinstance(literal, str) and literal[:1] in ("#", ".", "["):
                    model.element_vars[_text(name, src)] = literal  # `const sel = ".scan-line"`
        elif kind in ("string", "template_string"):
            model.strings.append(_value(node, src, start))
        stack.extend(reversed(node.named_children))
    for assignment in model.assignments:
        if _is_timeline_call(assignment.right.node, src):
            timeline_names.add(assignment.left)
    for node in sorted(calls, key=lambda n: (n.start_byte, n.end_byte)):
        _record_call(model, node, src, start, timeline_names)
    for assignment in model.assignments:
        assignment.async_context = _async_context(assignment.right.node, src)
    return model


DOM_LOOKUPS = {"querySelector": "", "querySelectorAll": "", "getElementById": "#"}


def _dom_lookup(node: tree_sitter.Node, src: bytes) -> str | None:
    """`document.getElementById("a")` → "#a"; `root.querySelector(".b")` → ".b"."""
    func = node.child_by_field_name("function")
    args = node.child_by_field_name("arguments")
    if func is None or args is None or not args.named_children:
        return None
    name, _obj = _callee_name(func, src)
    if name not in DOM_LOOKUPS:
        return None
    value = _literal(args.named_children[0], src)
    return DOM_LOOKUPS[name] + value if isinstance(value, str) else None


def _first_error(node: tree_sitter.Node) -> int:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "ERROR" or current.is_missing:
            return current.start_byte
        stack.extend(reversed([c for c in current.children if c.has_error or c.is_missing]))
    return node.start_byte


def _is_timeline_call(node: tree_sitter.Node, src: bytes) -> bool:
    if node.type != "call_expression":
        return False
    func = node.child_by_field_name("function")
    return func is not None and _text(func, src).replace(" ", "") in ("gsap.timeline", "newTimelineLite")


def _registry_write(model, node, left, right, src: bytes, base: int) -> None:
    left_text = _text(left, src).replace(" ", "")
    if left_text in ("window.__timelines", "__timelines"):
        if right.type == "binary_expression" and "||" in _text(right, src):
            model.registry_inits.append(base + node.start_byte)
        elif right.type == "object":
            model.registry_inits.append(base + node.start_byte)
            for key, value in (_object_props(right, src, base) or {}).items():
                model.registrations.append(Registration(key, value.text, value.offset, _async_context(node, src)))
        return
    key: object = MISSING
    if left.type == "subscript_expression":
        obj = left.child_by_field_name("object")
        index = left.child_by_field_name("index")
        if obj is not None and _text(obj, src).replace(" ", "") in ("window.__timelines", "__timelines"):
            key = _literal(index, src) if index is not None else None
            if key is MISSING:
                key = None
    elif left.type == "member_expression":
        obj = left.child_by_field_name("object")
        prop = left.child_by_field_name("property")
        if obj is not None and _text(obj, src).replace(" ", "") in ("window.__timelines", "__timelines"):
            key = _text(prop, src) if prop is not None else None
    if key is not MISSING:
        model.registrations.append(
            Registration(
                key if isinstance(key, str) else None,
                _text(right, src),
                base + node.start_byte,
                _async_context(node, src),
            )
        )


def _record_call(model: ScriptModel, node, src: bytes, base: int, timeline_names: set[str]) -> None:
    func = node.child_by_field_name("function")
    args_node = node.child_by_field_name("arguments")
    if func is None:
        return
    args = [_value(a, src, base) for a in args_node.named_children if a.type != "comment"] if args_node else []
    name, obj = _callee_name(func, src)
    context = _async_context(node, src)
    offset = base + node.start_byte
    model.calls.append(Call(_text(func, src), name, obj, args, offset, context))
    if func.type == "member_expression" and _text(func, src).replace(" ", "") == "gsap.timeline":
        vars_props = _object_props(args_node.named_children[0], src, base) if args_node and args else None
        tl_name = None
        parent = node.parent
        if parent is not None and parent.type == "variable_declarator":
            name_node = parent.child_by_field_name("name")
            tl_name = _text(name_node, src) if name_node else None
        elif parent is not None and parent.type == "assignment_expression":
            tl_name = _text(parent.child_by_field_name("left"), src)
        model.timelines.append(
            Timeline(
                tl_name,
                vars_props or {},
                vars_props is not None,
                offset,
                base + args_node.start_byte if args_node else None,
                base + args_node.end_byte - 1 if args_node else offset,
                context,
            )
        )
        return
    if func.type != "member_expression":
        return
    root = _chain_root(func)
    receiver = _text(root, src)
    on_timeline = receiver in timeline_names
    if receiver != "gsap" and not on_timeline:
        return
    if root.type != "identifier":
        return
    call = GsapCall(receiver, name, args, offset, context, receiver != "gsap")
    if name in TWEEN_METHODS and args:
        call.targets = args[0]
        if name == "fromTo":
            call.from_vars = _object_props(args[1].node, src, base) if len(args) > 1 else None
            call.vars = _object_props(args[2].node, src, base) if len(args) > 2 else None
            call.position = args[3] if len(args) > 3 else None
        else:
            call.vars = _object_props(args[1].node, src, base) if len(args) > 1 else None
            call.position = args[2] if len(args) > 2 else None
    model.gsap_calls.append(call)
