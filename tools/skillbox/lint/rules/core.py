"""Core contract: the root element, the timeline registry, determinism, markup that breaks rendering."""

from __future__ import annotations

from skillbox.lint import patterns as rx
from skillbox.lint.document import Document
from skillbox.lint.linked import linked_script_models
from skillbox.lint.patterns import lazy_compile
from skillbox.lint.registry import Edit, Hit, rule

G = "core"
_SLASH_STAR_COMMENT = lazy_compile(r"/\*.*?\*/", rx.DOTALL, needs=("/*",))
_SCOPED_ID = lazy_compile(r"\[data-composition-id=[\"']?([^\"'\]]+)[\"']?\]", needs=("[data-composition-id=",))
_RANDOM_STRING = lazy_compile(r"^(?:[+\-*/]=)?\s*random\(", needs=("random(",))  # GSAP's "random(...)" values


@rule(
    "parse_error",
    "error",
    G,
    fix_hint="Point the linter at the composition's .html file (UTF-8 HTML with a root element).",
)
def parse_error(doc: Document):
    return ()  # emitted by the engine when parsing fails


@rule(
    "root_missing_composition_id",
    "error",
    G,
    fix_hint='Add data-composition-id="<id>" to the root element, matching the window.__timelines key.',
    peer=True,
)
def root_missing_composition_id(doc: Document):
    if doc.root is not None and "data-composition-id" not in doc.root.attrs:
        yield Hit(doc.root.start, f"root element {doc.root.label()} has no data-composition-id", doc.root)


@rule(
    "root_missing_dimensions",
    "error",
    G,
    fix_hint='Add data-width="1920" data-height="1080" (your canvas size in px) to the root element.',
    peer=True,
)
def root_missing_dimensions(doc: Document):
    root = doc.root
    if root is None or (doc.is_subcomposition and doc.root_in_template):
        return
    missing = [a for a in ("data-width", "data-height") if a not in root.attrs]
    if missing:
        yield Hit(root.start, f"root element {root.label()} has no {' or '.join(missing)}", root)


def _registry_used(doc: Document) -> bool:
    return (
        any(m.registrations or m.registry_inits for m in doc.script_models)
        or any("__timelines" in s.text for s in doc.scripts if s.model is None and s.src is None)
        or any(m.registrations or m.registry_inits for m in linked_script_models(doc))
    )


@rule(
    "missing_timeline_registry",
    "error",
    G,
    fix_hint='Register the timeline: window.__timelines = window.__timelines || {}; window.__timelines["<id>"] = tl; '
    "(a composition without animation: add data-no-timeline to the root).",
    peer=True,
    bad_also=("gsap_timeline_not_registered",),
)
def missing_timeline_registry(doc: Document):
    root = doc.root
    if doc.is_subcomposition or doc.root_in_template or root is None:
        return
    if "data-no-timeline" in root.attrs or "data-composition-id" not in root.attrs:
        return
    if not _registry_used(doc):
        offset = doc.scripts[-1].start if doc.scripts else root.start
        yield Hit(offset, "the composition never assigns window.__timelines", root)


@rule(
    "timeline_id_mismatch",
    "warning",
    G,
    fix_hint='Use the root\'s data-composition-id as the key: window.__timelines["<data-composition-id>"] = tl.',
    peer=True,
)
def timeline_id_mismatch(doc: Document):
    if doc.root is None or "data-composition-id" not in doc.root.attrs:
        return  # root_missing_composition_id says it already
    ids = {e.attrs["data-composition-id"] for e in doc.elements if "data-composition-id" in e.attrs}
    host_ids = doc.host_ids
    for model in doc.script_models:
        for reg in model.registrations:
            if reg.key is None:
                continue
            if reg.key not in ids:
                yield Hit(reg.offset, f'window.__timelines["{reg.key}"] matches no data-composition-id in this file')
            elif host_ids and reg.key not in host_ids:
                hosts = ", ".join(sorted(host_ids))
                yield Hit(
                    reg.offset, f'timeline key "{reg.key}" differs from the host\'s data-composition-id ({hosts})'
                )
    root = doc.root
    if host_ids and root is not None and root.attrs.get("data-composition-id") not in (None, *host_ids):
        hosts = ", ".join(sorted(host_ids))
        yield Hit(
            root.start,
            f'sub-composition root id "{root.attrs["data-composition-id"]}" differs from its host\'s ({hosts})',
            root,
        )


@rule(
    "css_parse_error",
    "error",
    G,
    fix_hint="Close every { with } and remove stray characters in the <style> block.",
    peer=True,
)
def css_parse_error(doc: Document):
    for style in doc.styles:
        for message, offset in style.sheet.errors:
            yield Hit(offset, f"CSS parse error: {message}", style.element)


def selector_ids(selector: str) -> list[str]:
    """`re.findall(r"#([\\w-]+)", selector)` without compiling it: the `[\\w-]` run after each `#` (a run never
    holds a `#`, so every match starts at one)."""
    out = []
    for piece in selector.split("#")[1:]:
        end = 0
        while end < len(piece) and (piece[end].isalnum() or piece[end] in "_-"):
            end += 1
        if end:
            out.append(piece[:end])
    return out


@rule(
    "repeated_id_descendant_selector",
    "error",
    G,
    fix_hint="Drop the repeated id from the selector.",
    peer=True,
)
def repeated_id_descendant_selector(doc: Document):
    for css_rule in doc.all_css_rules:
        ids = selector_ids(css_rule.selector)
        if len(ids) != len(set(ids)):
            yield Hit(
                css_rule.offset,
                f"selector `{css_rule.selector}` repeats an id and can never match",
                selector=css_rule.selector,
            )


@rule(
    "visible_markup_comment",
    "error",
    G,
    fix_hint="Use an HTML comment <!-- ... --> or delete the text.",
    peer=True,
)
def visible_markup_comment(doc: Document):
    for run in doc.texts:
        if run.parent is not None and not doc.in_head(run.parent) and _SLASH_STAR_COMMENT.search(run.text):
            yield Hit(run.start + run.text.find("/*"), "`/* ... */` comment in HTML text renders on screen", run.parent)


@rule(
    "invalid_inline_script_syntax",
    "error",
    G,
    fix_hint="Fix the JavaScript syntax error at the reported position.",
    peer=True,
)
def invalid_inline_script_syntax(doc: Document):
    for script in doc.scripts:
        if script.model is not None and script.model.has_error and script.type != "module":
            yield Hit(script.model.error_offset or script.start, "inline script does not parse", script.element)


@rule(
    "host_missing_composition_id",
    "warning",
    G,
    fix_hint='Add data-composition-id="<id>" to the host, equal to the sub-composition\'s root id.',
    peer=True,
)
def host_missing_composition_id(doc: Document):
    for element in doc.elements:
        if "data-composition-src" in element.attrs and "data-composition-id" not in element.attrs:
            yield Hit(
                element.start, f"host {element.label()} has data-composition-src but no data-composition-id", element
            )


@rule(
    "scoped_css_missing_wrapper",
    "warning",
    G,
    fix_hint="Use the data-composition-id that exists in this file in the CSS scope.",
    peer=True,
)
def scoped_css_missing_wrapper(doc: Document):
    ids = {e.attrs["data-composition-id"] for e in doc.elements if "data-composition-id" in e.attrs}
    ids |= doc.host_ids
    for css_rule in doc.all_css_rules:
        for scoped in _SCOPED_ID.findall(css_rule.selector):
            if scoped not in ids:
                yield Hit(
                    css_rule.offset,
                    f'CSS scope [data-composition-id="{scoped}"] matches no element',
                    selector=css_rule.selector,
                )


@rule(
    "studio_missing_editable_id",
    "warning",
    G,
    fix_hint='Give the element a unique id, e.g. id="title".',
    peer=True,
)
def studio_missing_editable_id(doc: Document):
    for element in doc.elements:
        if element is doc.root or element.id:
            continue
        if any(a in element.attrs for a in ("data-start", "data-track-index", "data-composition-src")):
            yield Hit(element.start, f"timed element {element.label()} has no id", element)


NON_DETERMINISTIC = {
    "Math.random": "Math.random()",
    "Date.now": "Date.now()",
    "performance.now": "performance.now()",
    "crypto.getRandomValues": "crypto.getRandomValues()",
    "crypto.randomUUID": "crypto.randomUUID()",
    "gsap.utils.random": "gsap.utils.random()",
}


@rule(
    "non_deterministic_code",
    "error",
    G,
    fix_hint="Replace it with a seeded PRNG (e.g. mulberry32(42)) or a constant; derive time from the timeline.",
    peer=True,
)
def non_deterministic_code(doc: Document):
    for model in doc.script_models:
        seen: set[str] = set()  # one finding per source of non-determinism per script
        for call in model.calls:
            key = call.callee.replace(" ", "")
            if key in NON_DETERMINISTIC and key not in seen:
                seen.add(key)
                if key == "Date.now":
                    text = f"{NON_DETERMINISTIC[key]}: the renderer freezes the clock at the Unix epoch (1970-01-01)"
                else:
                    text = f"{NON_DETERMINISTIC[key]} makes frames differ between renders"
                yield Hit(call.offset, text)
        for new in model.new_expressions:
            if new.callee == "Date" and not new.args and "new Date" not in seen:
                seen.add("new Date")
                yield Hit(
                    new.offset,
                    "new Date() is frozen at render: the renderer's clock reads 1970-01-01T00:00:00Z; pass the date in "
                    "as a literal or a composition variable",
                )
        for value in model.strings:
            if isinstance(value.literal, str) and _RANDOM_STRING.match(value.literal) and "random(" not in seen:
                seen.add("random(")
                yield Hit(value.offset, f'GSAP "{value.literal}" string value is random per render')


@rule(
    "id_requires_css_escape",
    "warning",
    G,
    fix_hint='Rename the id to start with a letter (e.g. id="s1").',
    peer=True,
)
def id_requires_css_escape(doc: Document):
    used = " ".join([r.selector for r in doc.all_css_rules] + [s.text for s in doc.scripts])
    for element in doc.elements:
        ident = element.id
        if ident and ident[0].isdigit():
            severity = "error" if f"#{ident}" in used else None
            yield Hit(
                element.start,
                f'id "{ident}" starts with a digit; #{ident} is not a valid selector',
                element,
                severity=severity,
            )


@rule(
    "css_transition_used",
    "warning",
    G,
    fix_hint="Remove the transition and animate the property on the timeline (tl.to).",
    peer=True,
)
def css_transition_used(doc: Document):
    for css_rule in doc.all_css_rules:
        for decl in css_rule.declarations:
            if decl.name in ("transition", "transition-property", "transition-duration") and decl.value not in (
                "none",
                "0s",
                "0",
            ):
                yield Hit(
                    decl.offset,
                    f"`{decl.name}: {decl.value}` in `{css_rule.selector}` is not seekable",
                    selector=css_rule.selector,
                )
    for element in doc.elements:
        for decl in doc.styles_of(element):
            if decl.name == "transition" and decl.value not in ("none", "0s"):
                yield Hit(decl.offset, f"inline `transition: {decl.value}` is not seekable", element)


@rule(
    "duplicate_id",
    "error",
    G,
    fix_hint='Rename one of the elements (and every url(#id) / href="#id" that refers to it).',
)
def duplicate_id(doc: Document):
    seen: dict[str, list] = {}
    for element in doc.elements:
        if element.id and not doc.is_inert(element):
            seen.setdefault(element.id, []).append(element)
    for ident, elements in seen.items():
        if len(elements) < 2 or all(e.tag in ("video", "audio") for e in elements):
            continue
        referenced = f"url(#{ident})" in doc.text or f'href="#{ident}"' in doc.text
        extra = " (referenced by url(#…)/href, which binds to the first)" if referenced else ""
        for element in elements[1:]:
            yield Hit(element.start, f'id "{ident}" is used {len(elements)} times{extra}', element)


@rule(
    "timeline_not_paused",
    "warning",
    G,
    fix_hint="Create it paused: gsap.timeline({ paused: true }).",
)
def timeline_not_paused(doc: Document):
    for model in doc.script_models:
        for timeline in model.timelines:
            paused = timeline.vars.get("paused")
            if (paused is None or paused.literal is not True) and not _is_nested_child(model, timeline):
                name = timeline.name or "timeline"
                yield Hit(
                    timeline.offset, f"{name} = gsap.timeline(...) is not created with {{ paused: true }}", fix=timeline
                )


def _is_nested_child(model, timeline) -> bool:
    """A timeline that is `parent.add(child)`-ed (or returned from a builder, or created inline in `.add(...)`)
    is driven by its parent: it must NOT be paused, or it never plays inside the parent."""
    if timeline.name is None:
        return any(
            c.name == "add" and any(a.offset <= timeline.offset < a.offset + len(a.text.encode()) for a in c.args)
            for c in model.calls
        ) or _returned_directly(model, timeline)
    name = timeline.name
    if any(c.name == "add" and any(a.text.strip() == name for a in c.args) for c in model.calls):
        return True
    if "return" not in model.text or name not in model.text:
        return False  # every match contains both: no pattern compiled
    return rx.search(rf"\breturn\s+{rx.escape(name)}\s*[;}}\n]", model.text, keep=False) is not None


def _returned_directly(model, timeline) -> bool:
    before = model.text.encode("utf-8", "surrogatepass")[: max(0, timeline.offset - model.start)]
    return before.rstrip().endswith(b"return")


@timeline_not_paused.fixer
def _fix_timeline_not_paused(doc: Document, hit: Hit) -> list[Edit]:
    timeline = hit.fix
    paused = timeline.vars.get("paused")
    if paused is not None:
        return [Edit(paused.offset, paused.offset + len(paused.text.encode()), "true")]
    if timeline.vars_offset is None:
        return []
    if not timeline.has_vars_object:
        inside = doc.source[timeline.vars_offset + 1 : timeline.args_end]
        if inside.strip():
            return []  # a non-literal argument: not safe to rewrite
        return [Edit(timeline.vars_offset + 1, timeline.args_end, "{ paused: true }")]
    brace = doc.source.index(b"{", timeline.vars_offset)
    body = doc.source[brace + 1 : timeline.args_end].strip()
    text = " paused: true " if body.startswith(b"}") else " paused: true,"
    return [Edit(brace + 1, brace + 1, text)]


PLAY_METHODS = {"play", "resume", "restart", "reverse"}


@rule(
    "timeline_play_called",
    "warning",
    G,
    fix_hint="Delete the call; the renderer seeks the timeline itself.",
)
def timeline_play_called(doc: Document):
    for call in doc.gsap_calls:
        if call.on_timeline and call.method in PLAY_METHODS:
            yield Hit(call.offset, f"{call.receiver}.{call.method}() starts the timeline on the wall clock")


@rule(
    "timeline_created_async",
    "warning",
    G,
    fix_hint="Move gsap.timeline({ paused: true }) and the window.__timelines assignment to the top level.",
)
def timeline_created_async(doc: Document):
    for model in doc.script_models:
        for timeline in model.timelines:
            if timeline.async_context:
                yield Hit(timeline.offset, f"timeline created inside {timeline.async_context}")
        for reg in model.registrations:
            if reg.async_context:
                yield Hit(reg.offset, f"window.__timelines registered inside {reg.async_context}")


@rule(
    "timeline_registry_missing_init",
    "info",
    G,
    fix_hint="Add `window.__timelines = window.__timelines || {};` before the first registration.",
)
def timeline_registry_missing_init(doc: Document):
    inits = [o for m in doc.script_models for o in m.registry_inits]
    for model in doc.script_models:
        for reg in model.registrations:
            if not any(o <= reg.offset for o in inits):
                yield Hit(reg.offset, "window.__timelines is assigned before it is initialised", fix=reg)
                return


@timeline_registry_missing_init.fixer
def _fix_registry_init(doc: Document, hit: Hit) -> list[Edit]:
    line_start = doc.source.rfind(b"\n", 0, hit.offset) + 1
    indent = rx.match(rb"[ \t]*", doc.source[line_start:]).group(0).decode()
    line_end = doc.source.find(b"\n", hit.offset)
    newline = "\r\n" if line_end > 0 and doc.source[line_end - 1 : line_end] == b"\r" else "\n"
    return [Edit(line_start, line_start, f"{indent}window.__timelines = window.__timelines || {{}};{newline}")]


@rule(
    "unbalanced_style_tags",
    "error",
    G,
    fix_hint="Close the <style> element with </style> (or remove the stray end tag).",
    peer=True,
)
def unbalanced_style_tags(doc: Document):
    for style in doc.styles:
        if style.element is not None and not style.element.has_end_tag:
            yield Hit(style.element.start, "<style> is never closed", style.element)
    for name, offset in doc.unclosed_raw_elements:
        if name == "style":
            yield Hit(offset, "<style> is never closed; the rest of the file is read as CSS")
    for name, offset in doc.stray_end_tags:
        if name == "style":
            yield Hit(offset, "stray </style> without an open <style>")


@rule(
    "root_dimensions_mismatch",
    "warning",
    G,
    fix_hint="Make html/body width/height equal the root's data-width/data-height (or drop the CSS size).",
    peer=True,
)
def root_dimensions_mismatch(doc: Document):
    root = doc.root
    if root is None or doc.is_subcomposition or doc.root_in_template:
        return
    want = {"width": root.attrs.get("data-width"), "height": root.attrs.get("data-height")}
    for css_rule in doc.all_css_rules:
        if css_rule.selector not in ("html", "body", "html, body", "html,body"):
            continue
        for decl in css_rule.declarations:
            expected = want.get(decl.name)
            match = rx.fullmatch(r"(\d+(?:\.\d+)?)px", decl.value)
            if expected and match and float(match.group(1)) != float(expected or 0):
                yield Hit(
                    decl.offset,
                    f"{css_rule.selector} {decl.name} {decl.value} ≠ root data-{decl.name} {expected}",
                    selector=css_rule.selector,
                )


@rule(
    "html_dir_attribute_breaks_render",
    "warning",
    G,
    fix_hint='Remove dir="rtl" from <html>; set dir="rtl" or direction: rtl on the text elements.',
)
def html_dir_attribute_breaks_render(doc: Document):
    element = doc.html_element
    if element is not None and element.attrs.get("dir", "").lower() == "rtl":
        yield Hit(element.start, '<html dir="rtl"> can render blank frames', element)


@rule(
    "unclosed_tag_swallowed_element",
    "error",
    G,
    fix_hint="Close the start tag with `>` before the next `<`.",
    peer=True,
)
def unclosed_tag_swallowed_element(doc: Document):
    for element, offset in doc.broken_start_tags:
        yield Hit(offset, f"start tag {element.label()} is not closed with `>`; the next tag is swallowed", element)
