"""Composition structure: clips, tracks, timing references, variables, nested compositions."""

from __future__ import annotations

import itertools
import os

from skillbox.lint import paths as fs
from skillbox.lint import patterns as rx
from skillbox.lint.css import css_urls, selector_matches
from skillbox.lint.document import Document, Element
from skillbox.lint.linked import registers_in_linked_script
from skillbox.lint.patterns import lazy_compile
from skillbox.lint.registry import Edit, Hit, rule
from skillbox.lint.timing import (
    StartRef,
    add_attribute_edit,
    number,
    parse_start,
    remove_attribute_edit,
    resolve_starts,
    tween_targets,
)

G = "composition"
_REGISTRY_ITEM = lazy_compile(r"\s*<!--\s*hyperframes-registry-item:", needs=("hyperframes-registry-item:",))


@rule(
    "deprecated_data_layer",
    "warning",
    G,
    fix_hint="Rename data-layer to data-track-index.",
    peer=True,
)
def deprecated_data_layer(doc: Document):
    for element in doc.elements:
        if "data-layer" in element.attrs:
            yield Hit(element.attr_spans["data-layer"][0], f"{element.label()} uses data-layer", element, fix=element)


@deprecated_data_layer.fixer
def _fix_data_layer(doc: Document, hit: Hit) -> list[Edit]:
    element = hit.fix
    if "data-track-index" in element.attrs:
        return [remove_attribute_edit(doc, element, "data-layer")]
    start, _end = element.attr_spans["data-layer"]
    return [Edit(start, start + len("data-layer"), "data-track-index")]


@rule(
    "deprecated_data_end",
    "warning",
    G,
    fix_hint="Replace data-end with data-duration (end - start).",
    peer=True,
)
def deprecated_data_end(doc: Document):
    for element in doc.elements:
        if "data-end" not in element.attrs:
            continue
        end = number(element.attrs["data-end"])
        start = number(element.attrs.get("data-start", "0"))
        duration = number(element.attrs.get("data-duration"))
        if "data-duration" not in element.attrs:
            fixable = end is not None and start is not None and end >= start
            yield Hit(
                element.attr_spans["data-end"][0],
                f"{element.label()} uses data-end without data-duration",
                element,
                fix=element if fixable else False,
            )
        elif None not in (end, start, duration) and abs((end - start) - duration) > 1e-6:
            yield Hit(
                element.attr_spans["data-end"][0],
                f"{element.label()} data-end={end:g} disagrees with start {start:g} + duration {duration:g}",
                element,
                fix=False,
            )


@deprecated_data_end.fixer
def _fix_data_end(doc: Document, hit: Hit) -> list[Edit]:
    element = hit.fix
    duration = number(element.attrs["data-end"]) - number(element.attrs.get("data-start", "0"))
    start, end = element.attr_spans["data-end"]
    return [Edit(start, end, f'data-duration="{duration:g}"')]


def _is_clip_candidate(doc: Document, element: Element) -> bool:
    return (
        element is not doc.root
        and element.tag not in ("video", "audio", "img", "template", "script", "style")
        and "data-composition-id" not in element.attrs
        and "data-composition-src" not in element.attrs
        and not doc.is_inert(element)
        and ("data-start" in element.attrs or "data-duration" in element.attrs)
    )


@rule(
    "timed_element_missing_clip_class",
    "warning",
    G,
    fix_hint='Add class="clip" to the element.',
    peer=True,
)
def timed_element_missing_clip_class(doc: Document):
    for element in doc.elements:
        if _is_clip_candidate(doc, element) and "clip" not in element.classes:
            yield Hit(element.start, f'timed {element.label()} has no class="clip"', element, fix=element)


@timed_element_missing_clip_class.fixer
def _fix_clip_class(doc: Document, hit: Hit) -> list[Edit]:
    element = hit.fix
    if "class" in element.attrs:
        start, end = element.attr_spans["class"]
        raw_attr = doc.source[start:end]
        quote = raw_attr[-1:] if raw_attr[-1:] in (b'"', b"'") else b""
        if quote:
            insert = end - 1
            return [Edit(insert, insert, " clip" if element.attrs["class"].strip() else "clip")]
        return [Edit(start, end, f'class="{element.attrs["class"]} clip"')]
    return [add_attribute_edit(element, 'class="clip"', doc.source)]


@rule(
    "duplicate_composition_id",
    "error",
    G,
    fix_hint="Give each composition its own data-composition-id.",
    peer=True,
)
def duplicate_composition_id(doc: Document):
    seen: dict[str, Element] = {}
    for element in doc.elements:
        cid = element.attrs.get("data-composition-id")
        # `<html data-composition-id>` is metadata next to the variables schema, not a second composition; one
        # sub-composition file mounted by two hosts is two instances the runtime seeks separately (both render).
        if cid and element.tag != "html" and not doc.is_inert(element):
            src = element.attrs.get("data-composition-src")
            if cid in seen and src and seen[cid].attrs.get("data-composition-src") == src:
                continue
            if cid in seen:
                yield Hit(element.start, f'data-composition-id="{cid}" is also on {seen[cid].label()}', element)
            else:
                seen[cid] = element


ASSET_ATTRS = ("src", "href", "poster", "data-composition-src", "data-var-src")


def _without_leading_comments(text: str) -> str:
    """`re.sub(r"^(?:\\s*<!--.*?-->)*", "", text, flags=re.S)` without compiling it: drop whitespace-separated
    HTML comments at the start (an unclosed one, and the whitespace before it, stays)."""
    start = 0
    while True:
        at = start
        while at < len(text) and text[at].isspace():
            at += 1
        if not text.startswith("<!--", at):
            return text[start:]
        close = text.find("-->", at + 4)
        if close < 0:
            return text[start:]
        start = close + 3


def escapes_project(doc: Document, url: str) -> bool:
    """`../x` from compositions/scene.html stays inside the project; from index.html it leaves it."""
    if not url.strip().startswith("../"):
        return False
    base = "."
    if doc.file_path is not None and doc.project_dir is not None:
        base = fs.relative(fs.resolve(fs.parent(doc.file_path)), fs.resolve(doc.project_dir)) or "."
    depth = len([p for p in fs.parts(base) if p not in (".", "")])
    for part in fs.parts(fs.clean(url.strip().split("?")[0])):
        if part == "..":
            depth -= 1
            if depth < 0:
                return True
        elif part != ".":
            depth += 1
    return False


@rule(
    "invalid_parent_traversal_in_asset_path",
    "error",
    G,
    fix_hint="Copy the file into the project and reference it relative to the project root.",
    peer=True,
)
def invalid_parent_traversal_in_asset_path(doc: Document):
    for element in doc.elements:
        for attr in ASSET_ATTRS:
            value = element.attrs.get(attr, "")
            if escapes_project(doc, value) and not (element.tag == "a" and attr == "href"):
                yield Hit(element.attr_spans[attr][0], f"{attr}={value} leaves the project root", element)
    for css_rule in doc.all_css_rules:
        for decl in css_rule.declarations:
            if any(escapes_project(doc, u) for u in css_urls(decl.value)):
                yield Hit(
                    decl.offset, f"url() in `{css_rule.selector}` leaves the project root", selector=css_rule.selector
                )


CAPTION_CUE = lazy_compile(
    r"^(?:caption(?:[-_](?:group|word|line|block|cue|text))?|subtitle(?:[-_](?:group|line|cue|text))?|cg-.+)$",
    needs=("caption", "subtitle", "cg-"),
)


def _is_caption_cue(element: Element) -> bool:
    return any(CAPTION_CUE.match(c) for c in element.classes)


def _track_clips(doc: Document):
    """(scope element, track index) -> timed elements on that track (media included)."""
    tracks: dict[tuple[int, str], list[Element]] = {}
    for element in doc.elements:
        track = element.attrs.get("data-track-index")
        if track is None or element is doc.root or doc.is_inert(element):
            continue
        scope = next((a for a in element.ancestors() if "data-composition-id" in a.attrs), None)
        key = (scope.index if scope is not None else -1, track.strip())
        tracks.setdefault(key, []).append(element)
    return tracks


@rule(
    "timeline_track_too_dense",
    "warning",
    G,
    fix_hint="Spread the clips over more tracks or group them into a sub-composition.",
    peer=True,
)
def timeline_track_too_dense(doc: Document):
    for (_scope, track), clips in _track_clips(doc).items():
        visual = [
            c
            for c in clips
            if c.tag not in ("audio", "video")
            and "data-start" in c.attrs
            and not _is_caption_cue(c)
            # A scene that is already its own composition (inline or mounted) is the grouping this rule asks
            # for: a deck of sequential scenes on one track is the intended shape, not a dense track.
            and "data-composition-id" not in c.attrs
            and "data-composition-src" not in c.attrs
        ]
        if len(visual) > 3:
            yield Hit(visual[3].start, f"{len(visual)} timed elements on data-track-index={track}", visual[3])


@rule(
    "track_clip_overlap",
    "warning",
    G,
    fix_hint="Move one of the clips to another data-track-index (or shorten the first).",
)
def track_clip_overlap(doc: Document):
    starts = resolve_starts(doc)
    for (_scope, track), clips in _track_clips(doc).items():
        windows = []
        for clip in clips:
            if clip.tag == "audio":
                continue
            start = starts.get(clip.index)
            duration = number(clip.attrs.get("data-duration"))
            if start is not None and duration is not None:
                windows.append((start, start + duration, clip))
        windows.sort(key=lambda w: (w[0], w[1]))
        for (s1, e1, c1), (s2, _e2, c2) in itertools.pairwise(windows):
            if s2 < e1 - 1e-6 and s2 >= s1:
                yield Hit(
                    c2.start,
                    f"{c2.label()} starts at {s2:g}s while {c1.label()} runs until {e1:g}s on track {track}",
                    c2,
                )


@rule(
    "clip_start_reference_invalid",
    "error",
    G,
    fix_hint='Reference an existing clip id with a data-duration (e.g. data-start="title + 0.5") or use seconds.',
)
def clip_start_reference_invalid(doc: Document):
    by_id = {e.id: e for e in doc.elements if e.id}
    for element in doc.elements:
        value = element.attrs.get("data-start")
        if value is None:
            continue
        parsed = parse_start(value)
        if parsed is None:
            yield Hit(
                element.attr_spans["data-start"][0],
                f'data-start="{value}" is neither seconds nor a clip reference',
                element,
            )
            continue
        if not isinstance(parsed, StartRef):
            continue
        target = by_id.get(parsed.clip)
        if target is None:
            yield Hit(
                element.attr_spans["data-start"][0], f'data-start="{value}" names missing clip "{parsed.clip}"', element
            )
        elif "data-duration" not in target.attrs:
            yield Hit(
                element.attr_spans["data-start"][0],
                f'data-start="{value}": clip "{parsed.clip}" has no data-duration',
                element,
            )
        elif _cycles(element, by_id):
            yield Hit(
                element.attr_spans["data-start"][0], f'data-start="{value}" is part of a reference cycle', element
            )


def _cycles(element: Element, by_id: dict[str, Element]) -> bool:
    seen = {element.index}
    current = element
    while True:
        parsed = parse_start(current.attrs.get("data-start", ""))
        if not isinstance(parsed, StartRef):
            return False
        current = by_id.get(parsed.clip)
        if current is None:
            return False
        if current.index in seen:
            return True
        seen.add(current.index)


def _animated_elements(doc: Document) -> set[int] | None:
    """Indexes of elements some GSAP call animates; None if a target cannot be resolved (be silent then)."""
    animated: set[int] = set()
    for call in doc.gsap_calls:
        if call.method not in ("to", "from", "fromTo", "set"):
            continue
        targets = tween_targets(doc, call)
        if targets is None:
            return None
        animated.update(e.index for e in targets)
    return animated


def _css_animated(doc: Document, element: Element) -> bool:
    for css_rule in doc.all_css_rules:
        if selector_matches(css_rule.selector, element.tag, element.attrs) and any(
            d.name in ("animation", "animation-name") for d in css_rule.declarations
        ):
            return True
    return any(d.name in ("animation", "animation-name") for d in doc.styles_of(element))


@rule(
    "element_missing_entrance",
    "warning",
    G,
    fix_hint='Add an entrance tween at the clip\'s start, e.g. tl.from("#id", { opacity: 0, y: 20 }, <start>).',
)
def element_missing_entrance(doc: Document):
    if doc.root is None:
        return
    animated = _animated_elements(doc)
    if animated is None:
        return
    starts = resolve_starts(doc)
    for element in doc.elements:
        if not _is_clip_candidate(doc, element) or "data-start" not in element.attrs:
            continue
        if "data-hidden" in element.attrs or doc.in_head(element):
            continue
        start = starts.get(element.index)
        if start is None or start <= 0:
            continue
        related = [element, *element.descendants()]
        related += [a for a in element.ancestors() if a is not doc.root and a is not doc.body]
        if any(e.index in animated for e in related) or any(_css_animated(doc, e) for e in related):
            continue
        yield Hit(element.start, f"{element.label()} appears at {start:g}s without an entrance animation", element)


@rule(
    "requestanimationframe_in_composition",
    "error",
    G,
    fix_hint="Drive the motion from the GSAP timeline (tl.to / onUpdate) instead of requestAnimationFrame.",
    peer=True,
)
def requestanimationframe_in_composition(doc: Document):
    for script in doc.scripts:  # one finding per script: the fix (drive it from the timeline) is the same
        if script.model is None:
            continue
        calls = [c for c in script.model.calls if c.callee in ("requestAnimationFrame", "window.requestAnimationFrame")]
        loops = [c for c in calls if c.args and c.args[0].node is not None and c.args[0].node.type == "identifier"]
        if loops:
            extra = f" ({len(loops)} calls)" if len(loops) > 1 else ""
            text = f"requestAnimationFrame({loops[0].args[0].text}) loop runs on the display clock{extra}"
            yield Hit(loops[0].offset, text)
        elif calls:
            yield Hit(
                calls[0].offset,
                "one-shot requestAnimationFrame callback (not a loop): fine for waiting on paint before building "
                "the timeline; any motion it drives is not on the seeked timeline",
                severity="warning",
            )


@rule(
    "invalid_variable_values_json",
    "error",
    G,
    fix_hint='Write strict JSON: {"name": "value"}.',
    peer=True,
)
def invalid_variable_values_json(doc: Document):
    for element in doc.elements:
        value = element.attrs.get("data-variable-values")
        if value is not None:
            import json  # here, not at the top: most compositions have no JSON attribute (start-up cost)

            try:
                parsed = json.loads(value)
                if not isinstance(parsed, dict):
                    raise ValueError("not a JSON object")
            except ValueError as err:
                yield Hit(
                    element.attr_spans["data-variable-values"][0],
                    f"data-variable-values is not a JSON object: {err}",
                    element,
                )


VARIABLE_TYPES = {"string", "number", "color", "boolean", "enum", "font", "image"}


def _declared_variables(doc: Document) -> tuple[list[tuple[Element, object]], set[str]]:
    decls = []
    ids: set[str] = set()
    for element in doc.elements:
        value = element.attrs.get("data-composition-variables")
        if value is None:
            continue
        import json  # here, not at the top: most compositions have no JSON attribute (start-up cost)

        try:
            parsed = json.loads(value)
        except ValueError as err:
            decls.append((element, err))
            continue
        decls.append((element, parsed))
        if isinstance(parsed, list):
            ids.update(d["id"] for d in parsed if isinstance(d, dict) and isinstance(d.get("id"), str))
    return decls, ids


@rule(
    "invalid_composition_variables_declaration",
    "error",
    G,
    fix_hint='Use a JSON array: [{"id": "title", "type": "string", "label": "Title", "default": "Hello"}].',
    peer=True,
    bad_also=("unknown_variable_binding",),  # with no readable declaration the binding names nothing declared
)
def invalid_composition_variables_declaration(doc: Document):
    for element, parsed in _declared_variables(doc)[0]:
        offset = element.attr_spans["data-composition-variables"][0]
        if isinstance(parsed, Exception):
            yield Hit(offset, f"data-composition-variables is not JSON: {parsed}", element)
        elif not isinstance(parsed, list):
            yield Hit(offset, "data-composition-variables must be a JSON array", element)
        else:
            for i, item in enumerate(parsed):
                if not isinstance(item, dict) or not isinstance(item.get("id"), str):
                    yield Hit(offset, f"declaration {i} has no string id", element, severity="warning")
                elif item.get("type") not in VARIABLE_TYPES:
                    yield Hit(
                        offset,
                        f'variable "{item["id"]}" has type {item.get("type")!r}; expected one of '
                        f"{', '.join(sorted(VARIABLE_TYPES))} (the runtime still applies its default)",
                        element,
                        severity="warning",
                    )


@rule(
    "unknown_variable_binding",
    "warning",
    G,
    fix_hint="Declare the variable in data-composition-variables or fix the id in the binding.",
    peer=True,
)
def unknown_variable_binding(doc: Document):
    decls, ids = _declared_variables(doc)
    if not decls:
        return
    for element in doc.elements:
        for attr in ("data-var-text", "data-var-src"):
            name = element.attrs.get(attr)
            if name and name not in ids:
                yield Hit(element.attr_spans[attr][0], f'{attr}="{name}" is not a declared variable', element)


def _uses_gsap(doc: Document) -> bool:
    return any(m.gsap_calls or m.timelines for m in doc.script_models)


@rule(
    "missing_data_no_timeline",
    "warning",
    G,
    fix_hint="Add data-no-timeline to the root element (or register a timeline).",
    peer=True,
    bad_also=("missing_timeline_registry",),
)
def missing_data_no_timeline(doc: Document):
    root = doc.root
    if root is None or doc.is_subcomposition or doc.root_in_template or "data-composition-id" not in root.attrs:
        return
    if "data-no-timeline" in root.attrs or _uses_gsap(doc) or any(m.registrations for m in doc.script_models):
        return  # an init (`window.__timelines = window.__timelines || {}`) alone registers nothing
    if any("__timelines" in s.text for s in doc.scripts if s.model is None and s.src is None):
        return
    if registers_in_linked_script(doc):
        return
    if any(s.src and not _readable_local_script(doc, s.src) for s in doc.scripts):
        return  # a script we cannot read may register the timeline (upstream linter: same stance)
    yield Hit(root.start, f"{root.label()} registers no timeline and has no data-no-timeline", root, fix=root)


def _readable_local_script(doc: Document, src: str) -> bool:
    """A remote library (CDN) registers nothing of ours; a local file we can read was checked above."""
    from skillbox.lint.rules.project import local_target

    if rx.match(r"^(?:https?:)?//", src.strip()):
        return True
    target = local_target(doc, src)
    return target is not None and os.path.isfile(target)


@missing_data_no_timeline.fixer
def _fix_no_timeline(doc: Document, hit: Hit) -> list[Edit]:
    return [add_attribute_edit(hit.fix, "data-no-timeline", doc.source)]


_SPLIT_ATTR = lazy_compile(r"\[[\w-]+\s*=\s*(\"[^\"]*\"|'[^']*')\s+[\w-]+\s*=", needs=("[",))


@rule(
    "split_data_attribute_selector",
    "error",
    G,
    fix_hint='Split it: [data-a="x"][data-b="y"].',
    peer=True,
)
def split_data_attribute_selector(doc: Document):
    for css_rule in doc.all_css_rules:
        if _SPLIT_ATTR.search(css_rule.selector):
            yield Hit(css_rule.offset, f"invalid selector `{css_rule.selector}`", selector=css_rule.selector)
    for model in doc.script_models:
        for call in model.calls:
            if call.args and isinstance(call.args[0].literal, str) and _SPLIT_ATTR.search(call.args[0].literal):
                yield Hit(call.args[0].offset, f"invalid selector `{call.args[0].literal}`")


@rule(
    "template_literal_selector",
    "warning",
    G,
    fix_hint="Use a static selector string (or select by a data attribute).",
    peer=True,
)
def template_literal_selector(doc: Document):
    for model in doc.script_models:
        for call in model.calls:
            if (
                call.name in ("querySelector", "querySelectorAll")
                and call.args
                and call.args[0].node.type == "template_string"
                and "${" in call.args[0].text
            ):
                yield Hit(call.args[0].offset, f"{call.name}({call.args[0].text}) uses a template literal")


MAX_LINES = 300


def _file_lines(doc: Document) -> int:
    """Physical lines, not counting the inside of <style> blocks (CSS length is not what makes a file hard)."""
    return len(doc.text.splitlines()) - sum(style.text.count("\n") for style in doc.styles)


@rule(
    "composition_file_too_large",
    "warning",
    G,
    fix_hint="Move scenes into compositions/<scene>.html and mount them with data-composition-src.",
    peer=True,
)
def composition_file_too_large(doc: Document):
    if _REGISTRY_ITEM.match(doc.text[:512]):
        return  # an installed registry item: not authored here
    lines = _file_lines(doc)
    if lines > MAX_LINES:
        yield Hit(0, f"{lines} lines of markup (limit {MAX_LINES})")


def _stacking_context(doc: Document, element: Element) -> bool:
    """Does the element create a stacking context (so a negative z-index child paints above its background)?"""
    declared = {d.name: d.value.strip().lower() for _sel, d in _declarations(doc, element)}
    position = declared.get("position", "static")
    if position in ("fixed", "sticky"):
        return True
    if declared.get("z-index", "auto") != "auto" and (position != "static" or _flex_or_grid_item(doc, element)):
        return True  # z-index alone does nothing on a static box that is not a flex/grid item
    for name, value in declared.items():
        if name == "isolation" and value == "isolate":
            return True
        if name in ("mix-blend-mode",) and value != "normal":
            return True
        if name in ("clip-path", "mask", "mask-image", "-webkit-mask-image", "perspective") and value != "none":
            return True
        if name in ("transform", "filter", "backdrop-filter", "-webkit-backdrop-filter") and value != "none":
            return True
        if name == "opacity" and number(value) is not None and number(value) < 1:
            return True
        if name == "contain" and "paint" in value:
            return True
        if name == "will-change" and value not in ("auto", ""):
            return True
    return False


def _flex_or_grid_item(doc: Document, element: Element) -> bool:
    parent = element.parent
    if parent is None:
        return False
    display = {d.name: d.value.strip().lower() for _sel, d in _declarations(doc, parent)}.get("display", "")
    return display in ("flex", "inline-flex", "grid", "inline-grid")


def _declarations(doc: Document, element: Element):
    from skillbox.lint.timing import css_declarations_for

    return css_declarations_for(doc, element)


@rule(
    "negative_z_index",
    "warning",
    G,
    fix_hint="Add isolation: isolate to the parent (or use z-index >= 0).",
    peer=True,
)
def negative_z_index(doc: Document):
    negative = any(
        d.name == "z-index" and d.value.strip().startswith("-") for r in doc.all_css_rules for d in r.declarations
    ) or any(d.name == "z-index" for decls in doc.inline_styles.values() for d in decls)
    if not negative:
        return
    for element in doc.content_elements:
        for selector, decl in _declarations(doc, element):
            if decl.name == "z-index" and rx.fullmatch(r"-\d+", decl.value.strip()):
                parent = element.parent
                if parent is not None and not _stacking_context(doc, parent):
                    yield Hit(
                        decl.offset,
                        f"{element.label()} has z-index {decl.value} ({selector}) with no "
                        "stacking context on its parent",
                        element,
                    )


@rule(
    "root_zoom_rescales_a_fixed_canvas",
    "error",
    G,
    fix_hint="Remove zoom; size the root with data-width/data-height and CSS px.",
    peer=True,
)
def root_zoom_rescales_a_fixed_canvas(doc: Document):
    targets = [e for e in (doc.html_element, doc.body, doc.root) if e is not None]
    for element in targets:
        for selector, decl in _declarations(doc, element):
            if decl.name == "zoom" and decl.value not in ("1", "normal", "100%"):
                yield Hit(decl.offset, f"zoom: {decl.value} on {element.label()} ({selector})", element)
                break


MAX_VIEWPORT = 4096


@rule(
    "composition_exceeds_inspection_viewport_cap",
    "warning",
    G,
    fix_hint="Use a canvas of at most 4096 px per side and scale in the encoder if needed.",
    peer=True,
)
def composition_exceeds_inspection_viewport_cap(doc: Document):
    root = doc.root
    if root is None:
        return
    for attr in ("data-width", "data-height"):
        value = number(root.attrs.get(attr))
        if value is not None and value > MAX_VIEWPORT:
            yield Hit(root.attr_spans[attr][0], f"{attr}={value:g} exceeds {MAX_VIEWPORT} px", root)


@rule(
    "root_composition_missing_duration_source",
    "error",
    G,
    fix_hint='Add data-duration="<seconds>" to the root element.',
    peer=True,
)
def root_composition_missing_duration_source(doc: Document):
    root = doc.root
    if root is None or doc.is_subcomposition or doc.root_in_template or "data-composition-id" not in root.attrs:
        return
    if "data-duration" in root.attrs or _uses_gsap(doc):
        return
    if any(e.is_timed for e in doc.elements if e is not root):
        return
    if any(d.name in ("animation", "animation-name") for r in doc.all_css_rules for d in r.declarations):
        return
    yield Hit(root.start, f"{root.label()} has no data-duration and no timeline to infer it from", root)


@rule(
    "standalone_composition_wrapped_in_template",
    "error",
    G,
    fix_hint="Remove the <template> wrapper and write a full document: <!doctype html><html><body>...</body></html>.",
    peer=True,
)
def standalone_composition_wrapped_in_template(doc: Document):
    if doc.is_subcomposition:
        return
    if _without_leading_comments(doc.text).lstrip().lower().startswith("<template"):
        yield Hit(len(doc.source) - len(doc.source.lstrip()), "standalone composition is wrapped in <template>")


@rule(
    "root_composition_missing_html_wrapper",
    "warning",
    G,
    fix_hint='Wrap it: <!doctype html><html><head><meta charset="utf-8"></head><body>...</body></html>.',
    peer=True,
)
def root_composition_missing_html_wrapper(doc: Document):
    if doc.is_subcomposition:
        return
    head = _without_leading_comments(doc.text).lstrip().lower()
    if head.startswith("<template") or head.startswith(("<!doctype", "<html")):
        return
    if "data-composition-id" in doc.text:
        start = doc.root.start if doc.root is not None else 0
        yield Hit(start, "composition is a bare fragment without <!doctype html>/<html>", doc.root)


@rule(
    "timed_element_missing_track_index",
    "warning",
    G,
    fix_hint='Add data-track-index="N" (one lane per set of clips that never overlap).',
)
def timed_element_missing_track_index(doc: Document):
    for element in doc.elements:
        if element is doc.root or "data-start" not in element.attrs or "data-track-index" in element.attrs:
            continue
        if doc.is_inert(element) or "data-layer" in element.attrs or "data-track" in element.attrs:
            continue  # deprecated_data_layer reports the legacy spelling
        yield Hit(element.start, f"timed element {element.label()} has no data-track-index", element)


REMOTE_URL = lazy_compile(r"^(?:https?:)?//", rx.IGNORECASE)


@rule(
    "remote_dependency_offline",
    "info",
    G,
    fix_hint="Copy the file into the project (e.g. assets/gsap.min.js from npm gsap) and reference it locally.",
    opt_in=True,
)
def remote_dependency_offline(doc: Document):
    for element in doc.elements:
        attr = "src" if element.tag == "script" else "href" if element.tag == "link" else None
        if attr is None or (element.tag == "link" and "stylesheet" not in element.attrs.get("rel", "")):
            continue
        url = element.attrs.get(attr, "")
        if REMOTE_URL.match(url.strip()):
            yield Hit(element.attr_spans[attr][0], f"{element.label()} loads {url} from the network", element)
    for style in doc.styles:
        for prop, url, offset in style.sheet.urls:
            if prop == "@font-face" and REMOTE_URL.match(url.strip()):
                yield Hit(offset, f"@font-face loads {url} from the network")
        for m in rx.finditer(r"""@import\s+(?:url\()?\s*["']?((?:https?:)?//[^"')\s;]+)""", style.text):
            yield Hit(style.start, f"@import loads {m.group(1)} from the network")
