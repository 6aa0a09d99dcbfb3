"""What `skillbox lint explain` shows for the composition rules (lint/rules/composition.py): summary, explanation and
the bad and good examples, keyed by rule code. See lint/registry.py for why they live apart from the checks."""

from __future__ import annotations

from skillbox.lint.libraries import GSAP_CDN
from skillbox.lint.rules.composition import MAX_LINES
from skillbox.lint.samples import SUB, comp, composition, project, raw

DOCS: dict[str, dict] = {}
TITLE = '<h1 id="title" class="clip" data-start="0" data-duration="2" data-track-index="1">Hello</h1>'
TITLE_IN = 'tl.from("#title", { opacity: 0, y: 40 }, 0);'
DOCS["deprecated_data_layer"] = {
    "summary": "data-layer is used instead of data-track-index.",
    "explanation": "`data-layer` is the legacy name; editors and the overlap checks read `data-track-index` (the lane "
    "used for temporal exclusivity). Paint order is CSS z-index. The renderer still honours it (the example renders "
    "frame-identical, bench/lint_render_sweep.py): a warning that protects Studio editing.",
    "bad": comp('<h1 id="title" class="clip" data-start="0" data-duration="2" data-layer="1">Hello</h1>', js=TITLE_IN),
    "good": comp(TITLE, js=TITLE_IN),
}
DOCS["deprecated_data_end"] = {
    "summary": "data-end is used without data-duration (or disagrees with it).",
    "explanation": "data-end is derived by the compiler from data-start + data-duration; written by hand it is legacy "
    "and can contradict the duration. The example (data-end alone) renders frame-identical to data-duration "
    "(bench/lint_render_sweep.py): a warning that protects editing (Studio reads data-duration).",
    "bad": comp('<h1 id="title" class="clip" data-start="0" data-end="2" data-track-index="1">Hello</h1>', js=TITLE_IN),
    "good": comp(TITLE, js=TITLE_IN),
}
DOCS["timed_element_missing_clip_class"] = {
    "summary": 'A timed element (data-start/data-duration) lacks class="clip".',
    "explanation": "The runtime shows and hides `.clip` elements at their window boundaries in preview; without the "
    "class the element flashes outside its window in the studio preview.",
    "bad": comp('<h1 id="title" data-start="0" data-duration="2" data-track-index="1">Hello</h1>', js=TITLE_IN),
    "good": comp(TITLE, js=TITLE_IN),
}
DOCS["duplicate_composition_id"] = {
    "summary": "The same data-composition-id appears on two elements in one file.",
    "explanation": "Timelines are looked up by composition id; two compositions with one id share (and fight over) "
    "one timeline: render case `duplicate_inline_composition_id` (two inline scenes both registered as "
    '"scene") leaves the first scene frozen, 7 of 8 frames differ from distinct ids. One sub-composition file '
    "mounted twice is fine (both mounts render).",
    "bad": comp(
        '<div id="a" data-composition-id="scene" data-start="0" data-duration="2" data-track-index="1" '
        'data-no-timeline></div>\n<div id="b" data-composition-id="scene" data-start="2" data-duration="2" '
        'data-track-index="1" data-no-timeline></div>'
    ),
    "good": comp(
        '<div id="a" data-composition-id="scene-a" data-start="0" data-duration="2" data-track-index="1" '
        'data-no-timeline></div>\n<div id="b" data-composition-id="scene-b" data-start="2" data-duration="2" '
        'data-track-index="1" data-no-timeline></div>'
    ),
}
DOCS["invalid_parent_traversal_in_asset_path"] = {
    "summary": "An asset path starts with ../ and escapes the project root.",
    "explanation": "Projects are bundled from their root folder; anything above it is not shipped to render workers.",
    "bad": comp('<img id="logo" src="../shared/logo.png" alt="">'),
    "good": comp('<img id="logo" src="assets/logo.png" alt="">', assets=("assets/logo.png",)),
}
DOCS["timeline_track_too_dense"] = {
    "summary": "More than 3 timed elements on one data-track-index in one file.",
    "explanation": "Dense tracks are hard to edit and usually mean clips should be grouped into a sub-composition.",
    "bad": comp(
        "\n".join(
            f'<p id="p{i}" class="clip" data-start="{i}" data-duration="1" data-track-index="1">{i}</p>'
            for i in range(4)
        ),
        js="\n".join(f'tl.from("#p{i}", {{ opacity: 0 }}, {i});' for i in range(4)),
    ),
    "good": comp(
        "\n".join(
            f'<p id="p{i}" class="clip" data-start="{i}" data-duration="1" data-track-index="{1 + i // 2}">{i}</p>'
            for i in range(4)
        ),
        js="\n".join(f'tl.from("#p{i}", {{ opacity: 0 }}, {i});' for i in range(4)),
    ),
}
DOCS["track_clip_overlap"] = {
    "summary": "Two clips on the same data-track-index overlap in time.",
    "explanation": """
A track is a lane of temporal exclusivity: one clip at a time. hyperframes 0.8.170 still renders both (render
case `track_clip_overlap`: frame-identical to the same clips on two tracks), so this is a warning that protects
editing: Studio reports overlapping clips on one lane as conflicts and may cut the later one when it compiles
the track. Put overlapping clips on different
tracks (paint order is CSS z-index, not the track). Audio overlaps are `duplicate_audio_track`.
""",
    "bad": comp(
        '<h1 id="a" class="clip" data-start="0" data-duration="3" data-track-index="1">A</h1>\n'
        '<h2 id="b" class="clip" data-start="2" data-duration="2" data-track-index="1">B</h2>',
        js='tl.from("#a", { opacity: 0 }, 0);\ntl.from("#b", { opacity: 0 }, 2);',
    ),
    "good": comp(
        '<h1 id="a" class="clip" data-start="0" data-duration="3" data-track-index="1">A</h1>\n'
        '<h2 id="b" class="clip" data-start="2" data-duration="2" data-track-index="2">B</h2>',
        js='tl.from("#a", { opacity: 0 }, 0);\ntl.from("#b", { opacity: 0 }, 2);',
    ),
}
DOCS["clip_start_reference_invalid"] = {
    "summary": 'data-start names a clip that does not exist, has no duration, or forms a cycle ("intro + 1").',
    "explanation": """
`data-start` is seconds or a reference `clipId`, `clipId + s`, `clipId - s` meaning "after that clip ends". The
referenced clip must exist in the same composition, have a data-duration, and references must not loop.
Otherwise the clip's start is undefined and it never shows.
""",
    "bad": comp(
        '<h1 id="title" class="clip" data-start="0" data-duration="2" data-track-index="1">Hi</h1>\n'
        '<h2 id="sub" class="clip" data-start="intro + 0.5" data-duration="1" data-track-index="2">Sub</h2>',
        js='tl.from("#title", { opacity: 0 }, 0);\ntl.from("#sub", { opacity: 0 }, 2.5);',
    ),
    "good": comp(
        '<h1 id="title" class="clip" data-start="0" data-duration="2" data-track-index="1">Hi</h1>\n'
        '<h2 id="sub" class="clip" data-start="title + 0.5" data-duration="1" data-track-index="2">Sub</h2>',
        js='tl.from("#title", { opacity: 0 }, 0);\ntl.from("#sub", { opacity: 0 }, 2.5);',
    ),
}
DOCS["element_missing_entrance"] = {
    "summary": "A visible clip that starts after 0 s is never animated in: it pops onto the screen.",
    "explanation": """
Every scene element should enter with an animation (fade, slide, scale) on the timeline. A clip that starts
later without any tween on itself, a child or a parent simply appears at its first frame, which reads as a
glitch. Media, audio, nested compositions and clips at 0 s are exempt; when a tween target cannot be resolved
statically the rule stays silent.
""",
    "bad": comp(
        TITLE + '\n<h2 id="sub" class="clip" data-start="2" data-duration="2" data-track-index="2">Sub</h2>',
        js=TITLE_IN,
    ),
    "good": comp(
        TITLE + '\n<h2 id="sub" class="clip" data-start="2" data-duration="2" data-track-index="2">Sub</h2>',
        js=TITLE_IN + '\ntl.from("#sub", { opacity: 0, y: 20 }, 2);',
    ),
}
DOCS["requestanimationframe_in_composition"] = {
    "summary": "The script runs an animation loop on requestAnimationFrame (rAF calling a named callback).",
    "explanation": """
A loop such as `function animate(ts) { requestAnimationFrame(animate); ... }` advances on the display clock,
not the seeked timeline: what a frame shows depends on how long the page has been open, so two renders of the
same composition differ (and distributed workers disagree). A one-shot deferral with an inline callback
(`requestAnimationFrame(() => { measure(); register(); })`, as registry blocks use to wait for paint before
building the timeline) is only a warning: it runs once before capture starts. Render case
`raf_loop_two_workers`: the loop breaks chunked renders (4 of 8 frames differ with 2 workers).
""",
    "bad": comp(
        '<p id="n">0</p>',
        js='let n = 0;\nfunction tick() {\n  document.getElementById("n").textContent = String(n++);\n'
        "  requestAnimationFrame(tick);\n}\nrequestAnimationFrame(tick);",
    ),
    "good": comp('<p id="n">0</p>', js='tl.to("#n", { x: 100 }, 0);'),
}
DOCS["invalid_variable_values_json"] = {
    "summary": "data-variable-values on a host is not valid JSON.",
    "explanation": "The runtime parses data-variable-values with JSON.parse; invalid JSON drops every value and the "
    'sub-composition shows its defaults (render case `variable_values_unquoted_keys`: `{title: "WORLD"}` '
    "renders the default text in 8 of 8 frames).",
    "bad": comp('<div id="card" data-variable-values=\'{title: "Hi"}\'></div>'),
    "good": comp('<div id="card" data-variable-values=\'{"title": "Hi"}\'></div>'),
}
_VARS_GOOD = '[{"id": "title", "type": "string", "label": "Title", "default": "Hello"}]'
_VARS_OBJECT = '{"title": {"type": "string", "label": "Title", "default": "Hello"}}'
DOCS["invalid_composition_variables_declaration"] = {
    "summary": "data-composition-variables is not a JSON array of {id, type, label, default} declarations.",
    "explanation": """
The runtime reads the declarations with JSON.parse and uses only an array: invalid JSON or an object drops every
declaration, so no default is applied (render case `variables_declared_as_object`: the `data-var-text` element
stays empty in 8 of 8 frames where the array shows its default) — an error. An array entry with an unknown
`type` or without an `id` is a warning: the runtime applies each entry's default whatever its type (render case
`variables_unknown_type`: frame-identical to type "string"); what it protects is Studio editing, whose
variables panel needs a known type and an id to offer the field.
""",
    "bad": raw(
        composition('<h1 id="title" data-var-text="title">Hello</h1>').replace(
            '<html lang="en">', f"<html lang=\"en\" data-composition-variables='{_VARS_OBJECT}'>"
        ),
        f"<html data-composition-variables='{_VARS_OBJECT}'>  <!-- an object, not an array -->",
    ),
    "good": raw(
        composition('<h1 id="title" data-var-text="title">Hello</h1>').replace(
            '<html lang="en">', f"<html lang=\"en\" data-composition-variables='{_VARS_GOOD}'>"
        ),
        f"<html data-composition-variables='{_VARS_GOOD}'>",
    ),
}
DOCS["unknown_variable_binding"] = {
    "summary": "data-var-text / data-var-src names a variable that is not declared.",
    "explanation": "Bindings are resolved against data-composition-variables; an unknown id never receives a value.",
    "bad": raw(
        composition('<h1 id="title" data-var-text="headline">Hello</h1>').replace(
            '<html lang="en">', f"<html lang=\"en\" data-composition-variables='{_VARS_GOOD}'>"
        ),
        '<h1 id="title" data-var-text="headline">Hello</h1>',
    ),
    "good": DOCS["invalid_composition_variables_declaration"]["good"],
}
DOCS["missing_data_no_timeline"] = {
    "summary": "A composition without any timeline is not marked data-no-timeline.",
    "explanation": "Without a timeline registration the producer waits up to 45 s for one before rendering a static "
    "composition. `data-no-timeline` on the root says there is none to wait for.",
    "bad": raw(
        composition("", timeline=False).replace(" data-no-timeline", ""),
        '<div id="root" data-composition-id="main" data-width="1920" data-height="1080" data-duration="4">',
    ),
    "good": comp("", timeline=False),
}
DOCS["split_data_attribute_selector"] = {
    "summary": 'A selector puts two attribute tests in one bracket: [data-a="x" data-b="y"].',
    "explanation": "That is a selector syntax error: CSS drops the rule (render case `split_attribute_selector_css`: "
    "the box keeps its old colour in 8 of 8 frames) and querySelector throws, so the script stops and the render "
    "fails (case `split_attribute_selector_query`: the timeline never registers). Write one bracket per attribute.",
    "bad": comp('<p id="t" data-role="x">Hi</p>', css='[data-composition-id="main" data-role="x"] { color: red; }'),
    "good": comp('<p id="t" data-role="x">Hi</p>', css='[data-composition-id="main"][data-role="x"] { color: red; }'),
}
DOCS["template_literal_selector"] = {
    "summary": "querySelector is given a template literal with ${...}.",
    "explanation": """
A selector built at runtime works in the render when the element exists: ``querySelector(`#box${n}`)`` renders
frame-identical to ``querySelector("#box1")`` (render case `template_literal_query`), so this is a warning. What
it protects is Studio editing and the linter itself: a built selector cannot be checked statically (target,
transform and overlap rules skip it) and breaks silently when an id is renamed (in the markup or in Studio),
leaving a `null` target.
""",
    "bad": comp('<p id="t1">Hi</p>', js="const n = 1;\ntl.to(document.querySelector(`#t${n}`), { x: 10 }, 0);"),
    "good": comp('<p id="t1">Hi</p>', js='tl.to(document.querySelector("#t1"), { x: 10 }, 0);'),
}
DOCS["composition_file_too_large"] = {
    "summary": "A composition file has more than 300 lines (not counting <style> contents).",
    "explanation": "Large files are hard for people and agents to edit safely; split scenes into sub-compositions.",
    "bad": comp("\n".join(f'<p id="l{i}">{i}</p>' for i in range(MAX_LINES))),
    "good": comp("\n".join(f'<p id="l{i}">{i}</p>' for i in range(10))),
}
DOCS["negative_z_index"] = {
    "summary": "z-index below 0 without a stacking context on the parent: the element hides behind the root.",
    "explanation": "A negative z-index paints under the nearest stacking context's background — usually the root's "
    "background colour — so the element is invisible. A parent that creates a stacking context (isolation: "
    "isolate, transform, filter, opacity below 1, a z-index on a positioned box, position fixed/sticky, "
    "clip-path, masks, blend modes, contain: paint, will-change) keeps the child above that parent's background, "
    "however the rule that gives it is written (a scoped `[data-composition-id] .cls` selector counts too).",
    "bad": comp('<div id="bg"></div>', css="#bg { position: absolute; z-index: -1; }"),
    "good": comp('<div id="bg"></div>', css="#root { isolation: isolate; }\n#bg { position: absolute; z-index: -1; }"),
}
DOCS["root_zoom_rescales_a_fixed_canvas"] = {
    "summary": "CSS zoom on html, body or the root rescales the fixed capture canvas.",
    "explanation": "The capture viewport is data-width × data-height; zoom changes layout size so content is cropped "
    "or shrunk in the render (render case `body_zoom`: body zoom 0.5 differs in 8 of 8 frames).",
    "bad": comp(css="body { zoom: 0.5; }"),
    "good": comp(css="body { margin: 0; }"),
}
DOCS["composition_exceeds_inspection_viewport_cap"] = {
    "summary": "data-width or data-height is above 4096 px.",
    "explanation": "Snapshot and check tools clamp the viewport at 4096 px, so what they inspect is not what renders.",
    "bad": raw(
        composition("").replace('data-width="1920" data-height="1080"', 'data-width="7680" data-height="4320"'),
        '<div id="root" data-composition-id="main" data-width="7680" data-height="4320">',
    ),
    "good": comp(""),
}
DOCS["root_composition_missing_duration_source"] = {
    "summary": "The root has no data-duration and nothing else defines the video's length.",
    "explanation": "The render length comes from data-duration, or is inferred from a registered timeline, CSS "
    "animations or timed clips. With none of them the renderer cannot know when to stop.",
    "bad": raw(
        composition("", timeline=False).replace(' data-start="0" data-duration="4"', ' data-start="0"'),
        '<div id="root" data-composition-id="main" data-width="1920" data-height="1080" data-no-timeline></div>',
    ),
    "good": comp("", timeline=False),
}
DOCS["standalone_composition_wrapped_in_template"] = {
    "summary": "A standalone composition (index.html) is wrapped in <template>.",
    "explanation": "Only sub-compositions mounted with data-composition-src use a <template> wrapper; the runtime "
    "cannot play a top-level composition whose content is inert template content.",
    "bad": raw(SUB, '<template>\n  <div data-composition-id="intro" ...>...</div>\n</template>'),
    "good": comp(""),
}
DOCS["root_composition_missing_html_wrapper"] = {
    "summary": "A standalone composition is a bare fragment without <!doctype html>/<html>.",
    "explanation": """
The renderer wraps a fragment itself: a bare `<div data-composition-id>` index.html with its style and script
renders frame-identical to the same content in a full document (render case `bare_fragment_root`), so this is
not an error. What it protects is preview and every tool that opens the file directly: a browser renders a
fragment in quirks mode (box sizes, line heights and table layout differ from the standards mode the renderer
uses), so what the author previews is not what renders. Write a full document.
""",
    "bad": raw(
        '<div id="root" data-composition-id="main" data-width="1920" data-height="1080" data-duration="4" '
        "data-no-timeline></div>\n"
    ),
    "good": comp(""),
}
DOCS["timed_element_missing_track_index"] = {
    "summary": "A timed element (data-start) has no data-track-index.",
    "explanation": """
The renderer shows the clip either way (render case `timed_element_missing_track_index`: frame-identical with
and without the attribute). What the track index protects is editing and the timing checks: Studio puts each
clip on a lane by its index, and same-track overlap (`track_clip_overlap`) can only be checked for clips that say
which track they are on. Give every timed element of a composition its lane.
""",
    "bad": comp(
        '<h1 id="t" class="clip" data-start="0" data-duration="2">Hi</h1>', js='tl.from("#t", { opacity: 0 }, 0);'
    ),
    "good": comp(
        '<h1 id="t" class="clip" data-start="0" data-duration="2" data-track-index="1">Hi</h1>',
        js='tl.from("#t", { opacity: 0 }, 0);',
    ),
}
DOCS["remote_dependency_offline"] = {
    "summary": "A script, stylesheet or font is loaded from the network (CDN).",
    "explanation": """
Renders need the network for it: offline, behind a proxy, or when the CDN is down, a remote GSAP script fails to
load, the composition script throws and the render fails (render case `remote_gsap_offline`: the renderer gives
up waiting for the timeline); a remote font falls back to another face. Online it works, and the docs' own
examples load GSAP from a CDN, so this is information: for offline or reproducible renders copy the file into the
project (`npm install gsap` then `assets/gsap.min.js`; fonts as local @font-face files).
""",
    "bad": project(
        {
            "index.html": composition('<h1 id="t">Hi</h1>')
            .replace(GSAP_CDN, "assets/gsap.min.js")
            .replace("</head>", '<link rel="stylesheet" href="https://fonts.example.org/brand.css">\n</head>'),
            "assets/gsap.min.js": "/* local copy */",
        },
        '<link rel="stylesheet" href="https://fonts.example.org/brand.css">',
    ),
    "good": project(
        {
            "index.html": composition('<h1 id="t">Hi</h1>').replace(GSAP_CDN, "assets/gsap.min.js"),
            "assets/gsap.min.js": "/* local copy */",
        },
        '<script src="assets/gsap.min.js"></script>  <!-- copied from npm gsap -->',
    ),
}
