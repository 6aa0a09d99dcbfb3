"""Clip timing shared by several rules: parse `data-start` (seconds or `clipId ± s`), resolve it to seconds,
find the tweens that animate an element."""

from __future__ import annotations

from skillbox.lint.css import selector_matches
from skillbox.lint.document import Document, Element
from skillbox.lint.patterns import lazy_compile
from skillbox.lint.records import dataclass

REFERENCE = lazy_compile(r"^\s*([A-Za-z_][\w-]*)\s*(?:([+-])\s*(\d+(?:\.\d+)?|\.\d+)\s*)?$")


def number(value: str | None) -> float | None:
    if value is None:
        return None
    try:
        result = float(value.strip().removesuffix("s"))
    except ValueError:
        return None
    return result if result == result and result not in (float("inf"), float("-inf")) else None


@dataclass
class StartRef:
    clip: str
    delta: float


def parse_start(value: str) -> float | StartRef | None:
    """`"2.5"` → 2.5; `"intro + 1"` → StartRef("intro", 1.0); anything else → None."""
    seconds = number(value)
    if seconds is not None:
        return seconds
    match = REFERENCE.match(value)
    if not match:
        return None
    delta = float(match.group(3)) if match.group(3) else 0.0
    return StartRef(match.group(1), -delta if match.group(2) == "-" else delta)


def resolve_starts(doc: Document) -> dict[int, float | None]:
    """element index -> absolute start in seconds (None when unknown: bad reference or cycle).
    A reference `x + d` starts d seconds after clip x ends."""
    if "starts" in doc.cache:
        return doc.cache["starts"]
    by_id = {e.id: e for e in doc.elements if e.id}
    resolved: dict[int, float | None] = {}
    doc.cache["starts"] = resolved

    def resolve(element: Element, visiting: set[int]) -> float | None:
        if element.index in resolved:
            return resolved[element.index]
        parsed = parse_start(element.attrs.get("data-start", ""))
        value: float | None = None
        if isinstance(parsed, float):
            value = parsed
        elif isinstance(parsed, StartRef):
            target = by_id.get(parsed.clip)
            if target is not None and target.index not in visiting and "data-start" in target.attrs:
                base = resolve(target, visiting | {element.index})
                duration = number(target.attrs.get("data-duration"))
                if base is not None and duration is not None:
                    value = base + duration + parsed.delta
        resolved[element.index] = value
        return value

    for element in doc.elements:
        if "data-start" in element.attrs:
            resolve(element, {element.index})
    return resolved


def tween_targets(doc: Document, call) -> list[Element] | None:
    """Elements a GSAP call animates; None when the target cannot be resolved statically."""
    target = call.targets
    if target is None:
        return None
    if target.node is not None and target.node.type == "array":
        # `[a, "#b", c]`: resolved only when every item is (a partly resolved group is not "all of them").
        found: list[Element] = []
        for item in target.node.named_children:
            text = item.text.decode("utf-8", "replace") if item.text else ""
            selector = _selector_of(doc, text, item.type == "string")
            if selector is None:
                return None
            found.extend(elements_matching(doc, selector))
        return found
    selector = target.literal if isinstance(target.literal, str) else _selector_of(doc, target.text, False)
    if selector is None:
        return None
    return elements_matching(doc, selector)


def _selector_of(doc: Document, text: str, is_string: bool) -> str | None:
    if is_string:
        return text[1:-1] if len(text) >= 2 else None
    for model in doc.script_models:
        if text in model.element_vars:
            return model.element_vars[text]
    return None


def elements_matching(doc: Document, selector_list: str) -> list[Element]:
    memo = doc.cache.setdefault("matching", {})
    if selector_list not in memo:
        parts = [p.strip() for p in selector_list.split(",") if p.strip()]
        memo[selector_list] = [e for e in doc.elements if any(selector_matches(p, e.tag, e.attrs, e) for p in parts)]
    return memo[selector_list]


def css_declarations_for(doc: Document, element: Element):
    """(selector, declaration) pairs from stylesheets whose rule matches the element, then inline style."""
    for css_rule in doc.all_css_rules:
        if css_rule.media is None and selector_matches(css_rule.selector, element.tag, element.attrs, element):
            for decl in css_rule.declarations:
                yield css_rule.selector, decl
    for decl in doc.styles_of(element):
        yield "style", decl


_LOOKUP = lazy_compile(r"""^document\.(getElementById|querySelector)\(\s*(["'])(.+?)\2\s*\)$""")


def selector_for_object(doc: Document, text: str) -> str | None:
    """`video` (a variable bound by querySelector) or `document.getElementById("v")` → a CSS selector."""
    text = text.strip()
    for model in doc.script_models:
        if text in model.element_vars:
            return model.element_vars[text]
    match = _LOOKUP.match(text)
    if match:
        return ("#" if match.group(1) == "getElementById" else "") + match.group(3)
    return None


def remove_attribute_edit(doc: Document, element: Element, name: str):
    """Byte edit deleting `name=...` and the whitespace before it."""
    from skillbox.lint.registry import Edit

    start, end = element.attr_spans[name]
    while start > 0 and doc.source[start - 1 : start] in (b" ", b"\t", b"\n", b"\r"):
        start -= 1
    return Edit(start, end, "")


def add_attribute_edit(element: Element, text: str, source: bytes):
    """Byte edit inserting ` text` right after the tag name."""
    from skillbox.lint.registry import Edit

    at = element.start + 1 + len(element.tag)
    while at < len(source) and source[at : at + 1] not in (b" ", b"\t", b"\n", b"\r", b">", b"/"):
        at += 1
    return Edit(at, at, f" {text}")
