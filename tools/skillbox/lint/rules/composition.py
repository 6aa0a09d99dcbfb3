"""Composition structure: clips, tracks, timing references, variables, nested compositions."""

from __future__ import annotations

import itertools
import os
import re

from skillbox.lint import paths as fs
from skillbox.lint.css import css_urls, selector_matches
from skillbox.lint.document import Document, Element
from skillbox.lint.linked import registers_in_linked_script
from skillbox.lint.patterns import lazy_compile
from skillbox.lint.registry import Edit, Hit, rule
from skillbox.lint.samples import GSAP_CDN, SUB, comp, composition, project, raw
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
TITLE = '<h1 id="title" class="clip" data-start="0" data-duration="2" data-track-index="1">Hello</h1>'
TITLE_IN = 'tl.from("#title", { opacity: 0, y: 40 }, 0);'


@rule(
    "deprecated_data_layer",
    "warning",
    G,
    summary="data-layer is used instead of data-track-index.",
    explanation="`data-layer` is the legacy name; editors and the overlap checks read `data-track-index` (the lane "
    "used for temporal exclusivity). Paint order is CSS z-index. The renderer still honours it (the example renders "
    "frame-identical, bench/lint_render_sweep.py): a warning that protects Studio editing.",
    bad=comp('<h1 id="title" class="clip" data-start="0" data-duration="2" data-layer="1">Hello</h1>', js=TITLE_IN),
    good=comp(TITLE, js=TITLE_IN),
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
    summary="data-end is used without data-duration (or disagrees with it).",
    explanation="data-end is derived by the compiler from data-start + data-duration; written by hand it is legacy "
    "and can contradict the duration. The example (data-end alone) renders frame-identical to data-duration "
    "(bench/lint_render_sweep.py): a warning that protects editing (Studio reads data-duration).",
    bad=comp('<h1 id="title" class="clip" data-start="0" data-end="2" data-track-index="1">Hello</h1>', js=TITLE_IN),
    good=comp(TITLE, js=TITLE_IN),
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
    summary='A timed element (data-start/data-duration) lacks class="clip".',
    explanation="The runtime shows and hides `.clip` elements at their window boundaries in preview; without the "
    "class the element flashes outside its window in the studio preview.",
    bad=comp('<h1 id="title" data-start="0" data-duration="2" data-track-index="1">Hello</h1>', js=TITLE_IN),
    good=comp(TITLE, js=TITLE_IN),
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
    summary="The same data-composition-id appears on two elements in one file.",
    explanation="Timelines are looked up by composition id; two compositions with one id share (and fight over) "
    "one timeline: render case `duplicate_inline_composition_id` (two inline scenes both registered as "
    '"scene") leaves the first scene frozen, 7 of 8 frames differ from distinct ids. One sub-composition file '
    "mounted twice is fine (both mounts render).",
    bad=comp(
        '<div id="a" data-composition-id="scene" data-start="0" data-duration="2" data-track-index="1" '
        'data-no-timeline></div>\n<div id="b" data-composition-id="scene" data-start="2" data-duration="2" '
        'data-track-index="1" data-no-timeline></div>'
    ),
    good=comp(
        '<div id="a" data-composition-id="scene-a" data-start="0" data-duration="2" data-track-index="1" '
        'data-no-timeline></div>\n<div id="b" data-composition-id="scene-b" data-start="2" data-duration="2" '
        'data-track-index="1" data-no-timeline></div>'
    ),
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
    summary="An asset path starts with ../ and escapes the project root.",
    explanation="Projects are bundled from their root folder; anything above it is not shipped to render workers.",
    bad=comp('<img id="logo" src="../shared/logo.png" alt="">'),
    good=comp('<img id="logo" src="assets/logo.png" alt="">', assets=("assets/logo.png",)),
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
    summary="More than 3 timed elements on one data-track-index in one file.",
    explanation="Dense tracks are hard to edit and usually mean clips should be grouped into a sub-composition.",
    bad=comp(
        "\n".join(
            f'<p id="p{i}" class="clip" data-start="{i}" data-duration="1" data-track-index="1">{i}</p>'
            for i in range(4)
        ),
        js="\n".join(f'tl.from("#p{i}", {{ opacity: 0 }}, {i});' for i in range(4)),
    ),
    good=comp(
        "\n".join(
            f'<p id="p{i}" class="clip" data-start="{i}" data-duration="1" data-track-index="{1 + i // 2}">{i}</p>'
            for i in range(4)
        ),
        js="\n".join(f'tl.from("#p{i}", {{ opacity: 0 }}, {i});' for i in range(4)),
    ),
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
    summary="Two clips on the same data-track-index overlap in time.",
    explanation="""
A track is a lane of temporal exclusivity: one clip at a time. hyperframes 0.8.170 still renders both (render
case `track_clip_overlap`: frame-identical to the same clips on two tracks), so this is a warning that protects
editing: Studio reports overlapping clips on one lane as conflicts and may cut the later one when it compiles
the track. Put overlapping clips on different
tracks (paint order is CSS z-index, not the track). Audio overlaps are `duplicate_audio_track`.
""",
    bad=comp(
        '<h1 id="a" class="clip" data-start="0" data-duration="3" data-track-index="1">A</h1>\n'
        '<h2 id="b" class="clip" data-start="2" data-duration="2" data-track-index="1">B</h2>',
        js='tl.from("#a", { opacity: 0 }, 0);\ntl.from("#b", { opacity: 0 }, 2);',
    ),
    good=comp(
        '<h1 id="a" class="clip" data-start="0" data-duration="3" data-track-index="1">A</h1>\n'
        '<h2 id="b" class="clip" data-start="2" data-duration="2" data-track-index="2">B</h2>',
        js='tl.from("#a", { opacity: 0 }, 0);\ntl.from("#b", { opacity: 0 }, 2);',
    ),
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
    summary='data-start names a clip that does not exist, has no duration, or forms a cycle ("intro + 1").',
    explanation="""
`data-start` is seconds or a reference `clipId`, `clipId + s`, `clipId - s` meaning "after that clip ends". The
referenced clip must exist in the same composition, have a data-duration, and references must not loop.
Otherwise the clip's start is undefined and it never shows.
""",
    bad=comp(
        '<h1 id="title" class="clip" data-start="0" data-duration="2" data-track-index="1">Hi</h1>\n'
        '<h2 id="sub" class="clip" data-start="intro + 0.5" data-duration="1" data-track-index="2">Sub</h2>',
        js='tl.from("#title", { opacity: 0 }, 0);\ntl.from("#sub", { opacity: 0 }, 2.5);',
    ),
    good=comp(
        '<h1 id="title" class="clip" data-start="0" data-duration="2" data-track-index="1">Hi</h1>\n'
        '<h2 id="sub" class="clip" data-start="title + 0.5" data-duration="1" data-track-index="2">Sub</h2>',
        js='tl.from("#title", { opacity: 0 }, 0);\ntl.from("#sub", { opacity: 0 }, 2.5);',
    ),
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
    summary="A visible clip that starts after 0 s is never animated in: it pops onto the screen.",
    explanation="""
Every scene element should enter with an animation (fade, slide, scale) on the timeline. A clip that starts
later without any tween on itself, a child or a parent simply appears at its first frame, which reads as a
glitch. Media, audio, nested compositions and clips at 0 s are exempt; when a tween target cannot be resolved
statically the rule stays silent.
""",
    bad=comp(
        TITLE + '\n<h2 id="sub" class="clip" data-start="2" data-duration="2" data-track-index="2">Sub</h2>',
        js=TITLE_IN,
    ),
    good=comp(
        TITLE + '\n<h2 id="sub" class="clip" data-start="2" data-duration="2" data-track-index="2">Sub</h2>',
        js=TITLE_IN + '\ntl.from("#sub", { opacity: 0, y: 20 }, 2);',
    ),
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
    summary="The script runs an animation loop on requestAnimationFrame (rAF calling a named callback).",
    explanation="""
A loop such as `function animate(ts) { requestAnimationFrame(animate); ... }` advances on the display clock,
not the seeked timeline: what a frame shows depends on how long the page has been open, so two renders of the
same composition differ (and distributed workers disagree). A one-shot deferral with an inline callback
(`requestAnimationFrame(() => { measure(); register(); })`, as registry blocks use to wait for paint before
building the timeline) is only a warning: it runs once before capture starts. Render case
`raf_loop_two_workers`: the loop breaks chunked renders (4 of 8 frames differ with 2 workers).
""",
    bad=comp(
        '<p id="n">0</p>',
        js='let n = 0;\nfunction tick() {\n  document.getElementById("n").textContent = String(n++);\n'
        "  requestAnimationFrame(tick);\n}\nrequestAnimationFrame(tick);",
    ),
    good=comp('<p id="n">0</p>', js='tl.to("#n", { x: 100 }, 0);'),
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
    summary="data-variable-values on a host is not valid JSON.",
    explanation="The runtime parses data-variable-values with JSON.parse; invalid JSON drops every value and the "
    'sub-composition shows its defaults (render case `variable_values_unquoted_keys`: `{title: "WORLD"}` '
    "renders the default text in 8 of 8 frames).",
    bad=comp('<div id="card" data-variable-values=\'{title: "Hi"}\'></div>'),
    good=comp('<div id="card" data-variable-values=\'{"title": "Hi"}\'></div>'),
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
    summary="data-composition-variables is not a JSON array of {id, type, label, default} declarations.",
    explanation="""
The runtime reads the declarations with JSON.parse and uses only an array: invalid JSON or an object drops every
declaration, so no default is applied (render case `variables_declared_as_object`: the `data-var-text` element
stays empty in 8 of 8 frames where the array shows its default) — an error. An array entry with an unknown
`type` or without an `id` is a warning: the runtime applies each entry's default whatever its type (render case
`variables_unknown_type`: frame-identical to type "string"); what it protects is Studio editing, whose
variables panel needs a known type and an id to offer the field.
""",
    bad=comp("", head=""),  # replaced below
    good=comp(""),
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


_VARS_GOOD = '[{"id": "title", "type": "string", "label": "Title", "default": "Hello"}]'
_VARS_OBJECT = '{"title": {"type": "string", "label": "Title", "default": "Hello"}}'
invalid_composition_variables_declaration.bad = raw(
    composition('<h1 id="title" data-var-text="title">Hello</h1>').replace(
        '<html lang="en">', f"<html lang=\"en\" data-composition-variables='{_VARS_OBJECT}'>"
    ),
    f"<html data-composition-variables='{_VARS_OBJECT}'>  <!-- an object, not an array -->",
)
invalid_composition_variables_declaration.good = raw(
    composition('<h1 id="title" data-var-text="title">Hello</h1>').replace(
        '<html lang="en">', f"<html lang=\"en\" data-composition-variables='{_VARS_GOOD}'>"
    ),
    f"<html data-composition-variables='{_VARS_GOOD}'>",
)


@rule(
    "unknown_variable_binding",
    "warning",
    G,
    summary="data-var-text / data-var-src names a variable that is not declared.",
    explanation="Bindings are resolved against data-composition-variables; an unknown id never receives a value.",
    bad=raw(
        composition('<h1 id="title" data-var-text="headline">Hello</h1>').replace(
            '<html lang="en">', f"<html lang=\"en\" data-composition-variables='{_VARS_GOOD}'>"
        ),
        '<h1 id="title" data-var-text="headline">Hello</h1>',
    ),
    good=invalid_composition_variables_declaration.good,
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
    summary="A composition without any timeline is not marked data-no-timeline.",
    explanation="Without a timeline registration the producer waits up to 45 s for one before rendering a static "
    "composition. `data-no-timeline` on the root says there is none to wait for.",
    bad=raw(
        composition("", timeline=False).replace(" data-no-timeline", ""),
        '<div id="root" data-composition-id="main" data-width="1920" data-height="1080" data-duration="4">',
    ),
    good=comp("", timeline=False),
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

    if re.match(r"^(?:https?:)?//", src.strip()):
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
    summary='A selector puts two attribute tests in one bracket: [data-a="x" data-b="y"].',
    explanation="That is a selector syntax error: CSS drops the rule (render case `split_attribute_selector_css`: "
    "the box keeps its old colour in 8 of 8 frames) and querySelector throws, so the script stops and the render "
    "fails (case `split_attribute_selector_query`: the timeline never registers). Write one bracket per attribute.",
    bad=comp('<p id="t" data-role="x">Hi</p>', css='[data-composition-id="main" data-role="x"] { color: red; }'),
    good=comp('<p id="t" data-role="x">Hi</p>', css='[data-composition-id="main"][data-role="x"] { color: red; }'),
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
    summary="querySelector is given a template literal with ${...}.",
    explanation="""
A selector built at runtime works in the render when the element exists: ``querySelector(`#box${n}`)`` renders
frame-identical to ``querySelector("#box1")`` (render case `template_literal_query`), so this is a warning. What
it protects is Studio editing and the linter itself: a built selector cannot be checked statically (target,
transform and overlap rules skip it) and breaks silently when an id is renamed (in the markup or in Studio),
leaving a `null` target.
""",
    bad=comp('<p id="t1">Hi</p>', js="const n = 1;\ntl.to(document.querySelector(`#t${n}`), { x: 10 }, 0);"),
    good=comp('<p id="t1">Hi</p>', js='tl.to(document.querySelector("#t1"), { x: 10 }, 0);'),
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
    summary="A composition file has more than 300 lines (not counting <style> contents).",
    explanation="Large files are hard for people and agents to edit safely; split scenes into sub-compositions.",
    bad=comp("\n".join(f'<p id="l{i}">{i}</p>' for i in range(MAX_LINES))),
    good=comp("\n".join(f'<p id="l{i}">{i}</p>' for i in range(10))),
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
    summary="z-index below 0 without a stacking context on the parent: the element hides behind the root.",
    explanation="A negative z-index paints under the nearest stacking context's background — usually the root's "
    "background colour — so the element is invisible. A parent that creates a stacking context (isolation: "
    "isolate, transform, filter, opacity below 1, a z-index on a positioned box, position fixed/sticky, "
    "clip-path, masks, blend modes, contain: paint, will-change) keeps the child above that parent's background, "
    "however the rule that gives it is written (a scoped `[data-composition-id] .cls` selector counts too).",
    bad=comp('<div id="bg"></div>', css="#bg { position: absolute; z-index: -1; }"),
    good=comp('<div id="bg"></div>', css="#root { isolation: isolate; }\n#bg { position: absolute; z-index: -1; }"),
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
            if decl.name == "z-index" and re.fullmatch(r"-\d+", decl.value.strip()):
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
    summary="CSS zoom on html, body or the root rescales the fixed capture canvas.",
    explanation="The capture viewport is data-width × data-height; zoom changes layout size so content is cropped "
    "or shrunk in the render (render case `body_zoom`: body zoom 0.5 differs in 8 of 8 frames).",
    bad=comp(css="body { zoom: 0.5; }"),
    good=comp(css="body { margin: 0; }"),
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
    summary="data-width or data-height is above 4096 px.",
    explanation="Snapshot and check tools clamp the viewport at 4096 px, so what they inspect is not what renders.",
    bad=raw(
        composition("").replace('data-width="1920" data-height="1080"', 'data-width="7680" data-height="4320"'),
        '<div id="root" data-composition-id="main" data-width="7680" data-height="4320">',
    ),
    good=comp(""),
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
    summary="The root has no data-duration and nothing else defines the video's length.",
    explanation="The render length comes from data-duration, or is inferred from a registered timeline, CSS "
    "animations or timed clips. With none of them the renderer cannot know when to stop.",
    bad=raw(
        composition("", timeline=False).replace(' data-start="0" data-duration="4"', ' data-start="0"'),
        '<div id="root" data-composition-id="main" data-width="1920" data-height="1080" data-no-timeline></div>',
    ),
    good=comp("", timeline=False),
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
    summary="A standalone composition (index.html) is wrapped in <template>.",
    explanation="Only sub-compositions mounted with data-composition-src use a <template> wrapper; the runtime "
    "cannot play a top-level composition whose content is inert template content.",
    bad=raw(SUB, '<template>\n  <div data-composition-id="intro" ...>...</div>\n</template>'),
    good=comp(""),
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
    summary="A standalone composition is a bare fragment without <!doctype html>/<html>.",
    explanation="""
The renderer wraps a fragment itself: a bare `<div data-composition-id>` index.html with its style and script
renders frame-identical to the same content in a full document (render case `bare_fragment_root`), so this is
not an error. What it protects is preview and every tool that opens the file directly: a browser renders a
fragment in quirks mode (box sizes, line heights and table layout differ from the standards mode the renderer
uses), so what the author previews is not what renders. Write a full document.
""",
    bad=raw(
        '<div id="root" data-composition-id="main" data-width="1920" data-height="1080" data-duration="4" '
        "data-no-timeline></div>\n"
    ),
    good=comp(""),
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
    summary="A timed element (data-start) has no data-track-index.",
    explanation="""
The renderer shows the clip either way (render case `timed_element_missing_track_index`: frame-identical with
and without the attribute). What the track index protects is editing and the timing checks: Studio puts each
clip on a lane by its index, and same-track overlap (`track_clip_overlap`) can only be checked for clips that say
which track they are on. Give every timed element of a composition its lane.
""",
    bad=comp(
        '<h1 id="t" class="clip" data-start="0" data-duration="2">Hi</h1>', js='tl.from("#t", { opacity: 0 }, 0);'
    ),
    good=comp(
        '<h1 id="t" class="clip" data-start="0" data-duration="2" data-track-index="1">Hi</h1>',
        js='tl.from("#t", { opacity: 0 }, 0);',
    ),
    fix_hint='Add data-track-index="N" (one lane per set of clips that never overlap).',
)
def timed_element_missing_track_index(doc: Document):
    for element in doc.elements:
        if element is doc.root or "data-start" not in element.attrs or "data-track-index" in element.attrs:
            continue
        if doc.is_inert(element) or "data-layer" in element.attrs or "data-track" in element.attrs:
            continue  # deprecated_data_layer reports the legacy spelling
        yield Hit(element.start, f"timed element {element.label()} has no data-track-index", element)


REMOTE_URL = lazy_compile(r"^(?:https?:)?//", re.I)


@rule(
    "remote_dependency_offline",
    "info",
    G,
    summary="A script, stylesheet or font is loaded from the network (CDN).",
    explanation="""
Renders need the network for it: offline, behind a proxy, or when the CDN is down, a remote GSAP script fails to
load, the composition script throws and the render fails (render case `remote_gsap_offline`: the renderer gives
up waiting for the timeline); a remote font falls back to another face. Online it works, and the docs' own
examples load GSAP from a CDN, so this is information: for offline or reproducible renders copy the file into the
project (`npm install gsap` then `assets/gsap.min.js`; fonts as local @font-face files).
""",
    bad=project(
        {
            "index.html": composition('<h1 id="t">Hi</h1>')
            .replace(GSAP_CDN, "assets/gsap.min.js")
            .replace("</head>", '<link rel="stylesheet" href="https://fonts.example.org/brand.css">\n</head>'),
            "assets/gsap.min.js": "/* local copy */",
        },
        '<link rel="stylesheet" href="https://fonts.example.org/brand.css">',
    ),
    good=project(
        {
            "index.html": composition('<h1 id="t">Hi</h1>').replace(GSAP_CDN, "assets/gsap.min.js"),
            "assets/gsap.min.js": "/* local copy */",
        },
        '<script src="assets/gsap.min.js"></script>  <!-- copied from npm gsap -->',
    ),
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
        for m in re.finditer(r"""@import\s+(?:url\()?\s*["']?((?:https?:)?//[^"')\s;]+)""", style.text):
            yield Hit(style.start, f"@import loads {m.group(1)} from the network")
