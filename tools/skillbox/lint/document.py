"""One parsed view of a composition file: elements with exact positions, stylesheets, scripts, comments.

Every rule reads this view and none re-parses text. HTML goes through tree-sitter-html, which keeps byte offsets
and never gives up on malformed markup; CSS goes through tinycss2 (`css.py`); inline classic scripts through
tree-sitter-javascript (`script.py`). The root and sub-composition logic follows the HyperFrames format: a
`<body>` carrying composition attributes is the root, else the first body element (a leading marker-less `<svg>`
defs block is skipped); a file whose only composition lives inside `<template>` is a sub-composition.
"""

from __future__ import annotations

import time

from skillbox.lint.css import Declaration, Stylesheet, parse_declarations, parse_stylesheet
from skillbox.lint.grammars import html_parser, tree_sitter
from skillbox.lint.patterns import lazy_compile
from skillbox.lint.records import dataclass, field
from skillbox.lint.script import ScriptModel, parse_script

MAX_FILE_BYTES = 10 * 1024 * 1024
PARSE_SECONDS = 1.0  # plus PARSE_SECONDS_PER_MB for each MB of input
PARSE_SECONDS_PER_MB = 1.5
NON_CONTENT_TAGS = {"script", "style", "meta", "link", "title", "base", "noscript", "template"}
COMPOSITION_MARKERS = ("data-composition-id", "data-width", "data-height")
TIMING_ATTRS = ("data-start", "data-duration", "data-track-index")
MEDIA_TAGS = {"video", "audio"}


@dataclass(eq=False)
class Element:
    tag: str
    attrs: dict[str, str]
    attr_spans: dict[str, tuple[int, int]]  # attribute name -> byte span of `name="value"`
    start: int  # byte offset of `<`
    start_tag_end: int  # byte offset just after the start tag's `>`
    end: int
    self_closing: bool
    has_end_tag: bool
    in_template: bool
    parent: Element | None = None
    children: list[Element] = field(default_factory=list)
    text: str = ""  # direct text children, joined
    index: int = 0

    def has(self, name: str) -> bool:
        return name in self.attrs

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.attrs.get(name, default)

    @property
    def id(self) -> str | None:
        return self.attrs.get("id")

    @property
    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    @property
    def is_timed(self) -> bool:
        return "data-start" in self.attrs or "data-duration" in self.attrs

    def ancestors(self):
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def descendants(self):
        stack = list(reversed(self.children))
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def label(self) -> str:
        ident = f"#{self.id}" if self.id else ""
        return f"<{self.tag}{ident}>"


@dataclass
class Script:
    element: Element
    src: str | None
    type: str
    model: ScriptModel | None  # None for external or non-JavaScript scripts
    text: str
    start: int


@dataclass
class Style:
    element: Element | None
    sheet: Stylesheet
    start: int
    text: str


@dataclass
class Comment:
    text: str
    start: int
    end: int


@dataclass
class TextRun:
    parent: Element | None
    text: str
    start: int


@dataclass
class Document:
    path: str
    source: bytes
    text: str
    elements: list[Element] = field(default_factory=list)
    html_element: Element | None = None
    head: Element | None = None
    body: Element | None = None
    root: Element | None = None
    root_in_template: bool = False
    is_subcomposition: bool = False
    has_doctype: bool = False
    scripts: list[Script] = field(default_factory=list)
    styles: list[Style] = field(default_factory=list)
    inline_styles: dict[int, list[Declaration]] = field(default_factory=dict)  # element index -> declarations
    comments: list[Comment] = field(default_factory=list)
    texts: list[TextRun] = field(default_factory=list)
    stray_end_tags: list[tuple[str, int]] = field(default_factory=list)
    unclosed_raw_elements: list[tuple[str, int]] = field(default_factory=list)  # <style>/<script> never closed
    broken_start_tags: list[tuple[Element, int]] = field(default_factory=list)  # `<div a="b"<p>`: tag swallowed
    parse_error: str | None = None
    parse_error_offset: int = 0
    project_dir: str | None = None  # paths as lint/paths.py spells them
    host_ids: set[str] = field(default_factory=set)  # data-composition-id of the hosts that load this file
    # Scripts of the page this sub-composition is mounted into (the project's index.html): plugins and libraries
    # the host loads are on the same window.
    # None: not known (a sub-composition linted alone may inherit anything from a host we cannot see).
    host_scripts: list[Script] | None = None
    file_path: str | None = None
    _line_starts: list[int] = field(default_factory=list)
    cache: dict = field(default_factory=dict)  # per-document memo for helpers several rules share

    # -- positions ---------------------------------------------------------------------------------------------
    def position(self, offset: int) -> tuple[int, int]:
        """1-based line and column (in characters) of a byte offset."""
        if not self._line_starts:
            starts = [0]
            find = self.source.find
            pos = find(b"\n")
            while pos != -1:
                starts.append(pos + 1)
                pos = find(b"\n", pos + 1)
            self._line_starts = starts
        offset = max(0, min(offset, len(self.source)))
        starts = self._line_starts
        low, high = 0, len(starts)  # bisect_right by hand: loading the `_bisect` extension costs more than this
        while low < high:
            middle = (low + high) // 2
            if offset < starts[middle]:
                high = middle
            else:
                low = middle + 1
        line = low - 1
        column = len(self.source[self._line_starts[line] : offset].decode("utf-8", "replace")) + 1
        return line + 1, column

    # -- queries -----------------------------------------------------------------------------------------------
    def styles_of(self, element: Element) -> list[Declaration]:
        return self.inline_styles.get(element.index, [])

    def by_id(self, ident: str) -> list[Element]:
        return [e for e in self.elements if e.attrs.get("id") == ident]

    @property
    def content_elements(self) -> list[Element]:
        """Elements that render: not in <head>, not scripts/styles."""
        return [e for e in self.elements if e.tag not in NON_CONTENT_TAGS and not self.in_head(e)]

    def is_inert(self, element: Element) -> bool:
        """Inside a <template> that is not this file's own composition (a sub-composition file's template is
        what gets mounted, so its content is live)."""
        return element.in_template and not self.root_in_template

    def in_head(self, element: Element) -> bool:
        head = self.head
        return head is not None and head.start < element.start < head.end

    @property
    def gsap_calls(self):
        for script in self.scripts:
            if script.model is not None:
                yield from script.model.gsap_calls

    @property
    def script_models(self) -> list[ScriptModel]:
        return [s.model for s in self.scripts if s.model is not None]

    @property
    def all_css_rules(self):
        for style in self.styles:
            yield from style.sheet.rules


def _decode(source: bytes) -> str | None:
    if b"\x00" in source[:8192]:
        return None
    try:
        return source.decode("utf-8")
    except UnicodeDecodeError:
        return None


def parse_document(source: bytes, path: str = "<string>", *, is_subcomposition: bool = False) -> Document:
    """Parse a composition. Never raises on bad content: problems become `parse_error`."""
    if source.startswith(b"\xef\xbb\xbf"):
        source = source[3:]
    if len(source) > MAX_FILE_BYTES:
        doc = Document(path=path, source=b"", text="", is_subcomposition=is_subcomposition)
        size = len(source) / 2**20
        doc.parse_error = f"file is {size:.1f} MB; compositions over {MAX_FILE_BYTES // 2**20} MB are not linted"
        return doc
    text = _decode(source)
    doc = Document(path=path, source=source, text=text or "", is_subcomposition=is_subcomposition)
    if text is None:
        doc.parse_error = "not a UTF-8 text file (binary content)"
        doc.source = b""
        return doc
    if not text.strip():
        doc.parse_error = "empty file"
        return doc
    if text.startswith("version https://git-lfs.github.com/spec/"):
        # A clone without `git lfs pull` leaves three pointer lines where the composition should be; linting them
        # as HTML would report a missing root, which sends the author to fix markup that is not there.
        doc.parse_error = "Git LFS pointer, not the composition itself: fetch the file with `git lfs pull`"
        return doc
    tree = _parse_bounded(source)
    if tree is None:
        budget = parse_budget(len(source))
        doc.parse_error = f"markup too deeply nested or too large to parse within {budget:.1f} s; not linted"
        return doc
    _walk(doc, tree.root_node)
    if not doc.elements:
        doc.parse_error = "no HTML elements found (not an HTML composition)"
        return doc
    _find_root(doc)
    return doc


def parse_budget(size: int) -> float:
    return PARSE_SECONDS + PARSE_SECONDS_PER_MB * size / 2**20


def _parse_bounded(source: bytes) -> tree_sitter.Tree | None:
    """tree-sitter-html slows down sharply on pathological nesting; feed it in chunks and give up after
    `PARSE_SECONDS` so a hostile file costs a bounded time, never a hang."""
    deadline = time.perf_counter() + parse_budget(len(source))
    gave_up = False

    def read(offset: int, _point) -> bytes:
        nonlocal gave_up
        if time.perf_counter() > deadline:
            gave_up = True
            return b""
        return source[offset : offset + 8192]

    tree = html_parser().parse(read)
    return None if gave_up else tree


def _unescape(text: str) -> str:
    """`html.unescape`, importing `html` (its entity table is a large dict) only for text that has a `&`."""
    if "&" not in text:
        return text  # what html.unescape returns too
    import html

    return html.unescape(text)


def _attr_value(node: tree_sitter.Node, source: bytes) -> str:
    for child in node.named_children:
        if child.type == "attribute_value":
            # Unquoted: per HTML it runs to whitespace or `>`; tree-sitter-html stops at a second `=`
            # (`href=https://x/css2?family=Geist` would lose `=Geist`), so read the run from the source.
            m = _UNQUOTED_VALUE.match(source, child.start_byte)
            end = max(child.end_byte, m.end()) if m else child.end_byte
            return _unescape(source[child.start_byte : end].decode("utf-8", "replace"))
        if child.type == "quoted_attribute_value":
            inner = [c for c in child.named_children if c.type == "attribute_value"]
            if not inner:
                return ""
            return _unescape(source[inner[0].start_byte : inner[0].end_byte].decode("utf-8", "replace"))
    return ""


_UNQUOTED_VALUE = lazy_compile(rb"[^\s>]*")


def _start_tag(node: tree_sitter.Node, source: bytes):
    tag = ""
    attrs: dict[str, str] = {}
    spans: dict[str, tuple[int, int]] = {}
    for child in node.named_children:
        if child.type == "tag_name":
            tag = source[child.start_byte : child.end_byte].decode("utf-8", "replace").lower()
        elif child.type == "attribute":
            name_node = child.named_children[0] if child.named_children else None
            if name_node is None or name_node.type != "attribute_name":
                continue
            name = source[name_node.start_byte : name_node.end_byte].decode("utf-8", "replace").lower()
            if name not in attrs:
                attrs[name] = _attr_value(child, source)
                spans[name] = (child.start_byte, child.end_byte)
    return tag, attrs, spans


def _walk(doc: Document, root: tree_sitter.Node) -> None:
    source = doc.source
    # (node, parent element, in_template)
    stack: list[tuple[tree_sitter.Node, Element | None, bool]] = [(c, None, False) for c in reversed(root.children)]
    while stack:
        node, parent, in_template = stack.pop()
        kind = node.type
        if kind in ("element", "script_element", "style_element"):
            children = node.children
            first = children[0] if children else None
            first_type = first.type if first is not None else ""
            if first_type not in ("start_tag", "self_closing_tag"):
                # An end tag without a start (tree-sitter wraps some of those as elements).
                stack.extend((c, parent, in_template) for c in reversed(children))
                continue
            tag, attrs, spans = _start_tag(first, source)
            broken = None
            if first.has_error:
                broken = next((c for c in first.children if c.type == "ERROR" or c.is_missing), None)
            has_end = children[-1].type == "end_tag"
            element = Element(
                tag=tag,
                attrs=attrs,
                attr_spans=spans,
                start=node.start_byte,
                start_tag_end=first.end_byte,
                end=node.end_byte,
                self_closing=first_type == "self_closing_tag",
                has_end_tag=has_end,
                in_template=in_template,
                parent=parent,
                index=len(doc.elements),
            )
            doc.elements.append(element)
            if parent is not None:
                parent.children.append(element)
            if broken is not None:
                doc.broken_start_tags.append((element, broken.start_byte))
            if "style" in attrs and "style" in spans:
                a_start, a_end = spans["style"]
                raw = source[a_start:a_end].decode("utf-8", "replace")
                value_start = a_start + len(raw.split("=", 1)[0].encode()) + 1
                if raw[len(raw.split("=", 1)[0]) + 1 : len(raw.split("=", 1)[0]) + 2] in "\"'":
                    value_start += 1
                doc.inline_styles[element.index] = parse_declarations(attrs["style"], value_start)
            if tag == "html" and doc.html_element is None:
                doc.html_element = element
            elif tag == "head" and doc.head is None:
                doc.head = element
            elif tag == "body" and doc.body is None:
                doc.body = element
            if kind == "script_element":
                _add_script(doc, element, node)
            elif kind == "style_element":
                _add_style(doc, element, node)
            else:
                child_in_template = in_template or tag == "template"
                stack.extend((c, element, child_in_template) for c in reversed(children[1:]))
        elif kind == "text" or kind == "entity":
            raw = source[node.start_byte : node.end_byte].decode("utf-8", "replace")
            value = _unescape(raw) if kind == "entity" else raw
            if parent is not None:
                parent.text += value
            if value.strip():
                doc.texts.append(TextRun(parent, value, node.start_byte))
        elif kind == "comment":
            raw = source[node.start_byte : node.end_byte].decode("utf-8", "replace")
            doc.comments.append(Comment(raw[4:-3] if raw.endswith("-->") else raw[4:], node.start_byte, node.end_byte))
        elif kind == "doctype":
            doc.has_doctype = True
        elif kind == "erroneous_end_tag":
            name = source[node.start_byte : node.end_byte].decode("utf-8", "replace").strip("</> \n\t").lower()
            doc.stray_end_tags.append((name, node.start_byte))
        elif kind in ("ERROR", "document", "fragment"):
            stack.extend((c, parent, in_template) for c in reversed(node.children))
        elif kind == "start_tag":
            # A start tag inside an ERROR node: an element tree-sitter could not close.
            tag, attrs, spans = _start_tag(node, source)
            following = node.next_sibling
            if tag in ("style", "script") and (following is None or following.type == "raw_text"):
                doc.unclosed_raw_elements.append((tag, node.start_byte))
            if tag:
                element = Element(
                    tag,
                    attrs,
                    spans,
                    node.start_byte,
                    node.end_byte,
                    node.end_byte,
                    False,
                    False,
                    in_template,
                    parent,
                    index=len(doc.elements),
                )
                doc.elements.append(element)
                if parent is not None:
                    parent.children.append(element)


def _raw_text(node: tree_sitter.Node, source: bytes) -> tuple[str, int]:
    for child in node.children:
        if child.type == "raw_text":
            return source[child.start_byte : child.end_byte].decode("utf-8", "replace"), child.start_byte
    start_tag = node.children[0]
    return "", start_tag.end_byte


JS_TYPES = {"", "text/javascript", "application/javascript", "module", "text/babel"}


VENDOR_MARKERS = ("@license", "GreenSock", "Copyright", "(c) ")


def is_vendored_library(text: str) -> bool:
    """An inlined third-party library (GSAP, Lottie, three.js pasted into a <script>): not composition code, and
    walking its syntax tree would dominate the lint time. Large, minified or license-headed scripts qualify."""
    if len(text) < 30_000:
        return False
    lines = text.count("\n") + 1
    return len(text) / lines > 400 or any(marker in text[:2000] for marker in VENDOR_MARKERS)


def _add_script(doc: Document, element: Element, node: tree_sitter.Node) -> None:
    text, start = _raw_text(node, doc.source)
    script_type = element.attrs.get("type", "").strip().lower()
    src = element.attrs.get("src")
    model = None
    if src is None and script_type in JS_TYPES and text.strip() and not is_vendored_library(text):
        model = parse_script(text, start)
    doc.scripts.append(Script(element, src, script_type, model, text, start))


def _add_style(doc: Document, element: Element, node: tree_sitter.Node) -> None:
    text, start = _raw_text(node, doc.source)
    doc.styles.append(Style(element, parse_stylesheet(text, start), start, text))


def _is_marker_less_svg(element: Element) -> bool:
    return element.tag == "svg" and not any(m in element.attrs for m in COMPOSITION_MARKERS)


def _first_content_child(children: list[Element]) -> Element | None:
    content = [c for c in children if c.tag not in NON_CONTENT_TAGS and c.tag not in ("html", "head", "body")]
    if not content:
        return None
    if _is_marker_less_svg(content[0]) and len(content) > 1:
        return content[1]
    return content[0]


def _find_root(doc: Document) -> None:
    body = doc.body
    if body is not None and any(m in body.attrs for m in COMPOSITION_MARKERS):
        doc.root = body
        return
    top_level = body.children if body is not None else [e for e in doc.elements if e.parent is None]
    if body is None and doc.html_element is not None:
        top_level = [c for c in doc.html_element.children if c.tag != "head"]
    candidate = _first_content_child(top_level)
    if candidate is not None:
        doc.root = candidate
        return
    for template in (e for e in doc.elements if e.tag == "template" and not e.in_template):
        inner = _first_content_child(template.children)
        if inner is not None:
            doc.root = inner
            doc.root_in_template = True
            return
