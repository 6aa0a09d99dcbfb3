"""What `skillbox lint explain` shows for the gsap rules (lint/rules/gsap.py): summary, explanation and
the bad and good examples, keyed by rule code. See lint/registry.py for why they live apart from the checks."""

from __future__ import annotations

from skillbox.lint.libraries import GSAP_CDN
from skillbox.lint.samples import comp, composition, raw

DOCS: dict[str, dict] = {}
BOX = '<div id="box" class="clip" data-start="0" data-duration="4" data-track-index="1"></div>'
DOCS["missing_gsap_script"] = {
    "summary": "The script uses gsap but no GSAP <script src> (or inlined copy) is loaded.",
    "explanation": "`gsap` is undefined: the script throws at the first call and no timeline exists. Sub-compositions "
    "inherit GSAP from their host and are exempt.",
    "bad": raw(
        composition("").replace(f'<script src="{GSAP_CDN}"></script>\n', ""),
        "<head>\n  <!-- no gsap script -->\n</head>",
    ),
    "good": comp(""),
}
DOCS["gsap_infinite_repeat"] = {
    "summary": "repeat: -1 makes a timeline or tween infinite.",
    "explanation": "An infinite timeline has no length, so the render length cannot be inferred and seeks past the "
    "end loop unpredictably. Error without a root data-duration, warning with one.",
    "bad": raw(
        composition(BOX, js='tl.from("#box", { opacity: 0, repeat: -1, yoyo: true }, 0);').replace(
            ' data-start="0" data-duration="4">', ' data-start="0">'
        ),
        'tl.from("#box", { opacity: 0, repeat: -1, yoyo: true }, 0);',
    ),
    "good": comp(BOX, js='tl.from("#box", { opacity: 0, repeat: 3, yoyo: true }, 0);'),
}
DOCS["gsap_repeat_ceil_overshoot"] = {
    "summary": "A repeat count computed with Math.ceil overshoots the clip.",
    "explanation": "repeat counts extra cycles; Math.ceil(d / c) cycles plus the first run end after the clip.",
    "bad": comp(BOX, js='tl.from("#box", { opacity: 0, duration: 1, repeat: Math.ceil(4 / 1) }, 0);'),
    "good": comp(
        BOX, js='tl.from("#box", { opacity: 0, duration: 1, repeat: Math.max(0, Math.floor(4 / 1) - 1) }, 0);'
    ),
}
DOCS["gsap_repeat_floor_unclamped"] = {
    "summary": "repeat: Math.floor(...) - 1 is not clamped with Math.max(0, ...).",
    "explanation": "When the clip is shorter than one cycle the count becomes -1, which GSAP reads as infinite.",
    "bad": comp(BOX, js='tl.from("#box", { opacity: 0, duration: 1, repeat: Math.floor(4 / 1) - 1 }, 0);'),
    "good": comp(
        BOX, js='tl.from("#box", { opacity: 0, duration: 1, repeat: Math.max(0, Math.floor(4 / 1) - 1) }, 0);'
    ),
}
DOCS["gsap_timeline_not_registered"] = {
    "summary": "A gsap.timeline() is created but never assigned to window.__timelines (nor added to one that is).",
    "explanation": "Only registered timelines are seeked. A second, unregistered timeline plays on the wall clock in "
    "preview and stays at 0 in the render.",
    "bad": comp(BOX, js='const intro = gsap.timeline({ paused: true });\nintro.from("#box", { opacity: 0 }, 0);'),
    "good": comp(
        BOX,
        js='const intro = gsap.timeline({ paused: true });\nintro.from("#box", { opacity: 0 }, 0);\ntl.add(intro, 0);',
    ),
}
DOCS["gsap_animates_clip_element"] = {
    "summary": "A tween sets visibility (error) or display (warning) on a .clip element.",
    "explanation": """
The runtime owns the visibility of `.clip` elements: on every frame it sets `style.visibility` from the clip's
data-start/data-duration window. A tween that writes visibility is overwritten: render case
`visibility_hidden_on_clip` hides a moving clip with `tl.set(box, { visibility: "hidden" }, 1)` and the box
stays on screen for the rest of its window (4 of 8 frames differ from hiding it with opacity) — an error.
`display` is not what the runtime writes, and a `display: "none"` / `"block"` pair renders frame-identical to
the same opacity pair with one worker and with two (render case `display_none_on_clip`), so that shape is a
warning: it protects Studio editing and preview, where the clip's window is what shows and hides it. Animate
opacity (or autoAlpha on a wrapper that is not .clip).
""",
    "bad": comp(BOX, js='tl.from("#box", { opacity: 0 }, 0);\ntl.set("#box", { visibility: "hidden" }, 3.5);'),
    "good": comp(BOX, js='tl.from("#box", { opacity: 0 }, 0);\ntl.to("#box", { opacity: 0, duration: 0.3 }, 3.5);'),
}
DOCS["gsap_non_transform_motion"] = {
    "summary": "A tween animates layout properties (left/top/margin/fontSize/letterSpacing) or uses roundProps.",
    "explanation": "Layout properties reflow the page each frame and snap to whole pixels, so motion judders in the "
    "render: render case `left_vs_x_slow_tween` (3 px over 2 s at 4 fps) gives 4 distinct frames of 8 with `left` "
    "and 8 of 8 with `x`. Animate transforms (x, y, scale) instead. Elements drawn by html-in-canvas "
    "(`<canvas layoutsubtree>`) are exempt for position props, as upstream.",
    "bad": comp(BOX, js='tl.from("#box", { left: -200 }, 0);'),
    "good": comp(BOX, js='tl.from("#box", { x: -200 }, 0);'),
}
DOCS["gsap_from_opacity_noop"] = {
    "summary": "from({opacity: 0}) on an element whose CSS opacity is already 0 animates 0 → 0.",
    "explanation": "`from` animates from the given value to the current CSS value; with CSS opacity 0 the element "
    "never becomes visible.",
    "bad": comp(BOX, css="#box { opacity: 0; }", js='tl.from("#box", { opacity: 0 }, 0);'),
    "good": comp(BOX, css="#box { opacity: 0; }", js='tl.fromTo("#box", { opacity: 0 }, { opacity: 1 }, 0);'),
}
DOCS["gsap_fullscreen_overlay_starts_visible"] = {
    "summary": "A full-frame opaque overlay (flash, wipe) is visible from t = 0 and only later faded in and out.",
    "explanation": """
A transition flash is a full-frame, opaque layer (`position: fixed|absolute; inset: 0; background: #fff`) that a
tween brings up at a scene cut and fades out again. Without a hidden start state in CSS it is visible from the
first frame until its first tween runs, so it covers every earlier frame: render case
`fullscreen_flash_starts_visible` gives a white frame for the whole first second (4 of 8 frames) where the
intended composition shows the scene. A `from({ opacity: 0 })` reveal is not reported: from() seats its start
value at build time, so the overlay is already hidden at t = 0 (upstream's rule makes the same exception). Nor
is a reveal at t = 0 — a full-frame scene shown from the first frame and faded out later covers no earlier
frame (upstream reports that shape too, e.g. its producer test pip-video-late-host; we judge it intended).
""",
    "bad": comp(
        '<div id="flash" style="position: fixed; inset: 0; background: #fff"></div>',
        js='tl.to("#flash", { opacity: 1, duration: 0.1 }, 1.9);\ntl.to("#flash", { opacity: 0, duration: 0.2 }, 2);',
    ),
    "good": comp(
        '<div id="flash" style="position: fixed; inset: 0; background: #fff; opacity: 0"></div>',
        js='tl.to("#flash", { opacity: 1, duration: 0.1 }, 1.9);\ntl.to("#flash", { opacity: 0, duration: 0.2 }, 2);',
    ),
}
DOCS["gsap_css_transform_conflict"] = {
    "summary": "CSS transform (translate/scale) on an element a tween also moves or scales.",
    "explanation": """
GSAP parses the element's CSS transform into its own x/y/scale once and owns it from then on. With GSAP 3.14 the
renderer keeps a `translate(-50%, -50%)` centring through y and scale tweens (render case
`transform_conflict_translate_y` / `_scale` in bench/lint_render_cases.py: frames identical to the xPercent
version), so this is a warning, not an error. What it protects is editing: the CSS transform and the tween now
describe one property in two places, so a later change to either (a CSS class swap, Studio moving the element,
a `clearProps`) moves the element unexpectedly. Keep the centring in GSAP (xPercent/yPercent) or on a wrapper.
""",
    "bad": comp(
        BOX,
        css="#box { transform: translate(-50%, -50%); }",
        js='tl.from("#box", { opacity: 0 }, 0);\ntl.to("#box", { y: 40 }, 1);',
    ),
    "good": comp(
        BOX,
        js='tl.set("#box", { xPercent: -50, yPercent: -50 }, 0);\ntl.from("#box", { opacity: 0 }, 0);\n'
        'tl.to("#box", { y: 40 }, 1);',
    ),
}
DOCS["missing_gsap_plugin"] = {
    "summary": "A tween uses a plugin property (motionPath, drawSVG, morphSVG, text...) whose plugin is not loaded.",
    "explanation": "Without the plugin GSAP treats the key as a plain property: nothing moves, and no error is shown.",
    "bad": comp(BOX, js='tl.from("#box", { opacity: 0 }, 0);\ntl.to("#box", { motionPath: "#path" }, 1);'),
    "good": comp(
        BOX,
        head='<script src="https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/MotionPathPlugin.min.js"></script>\n',
        js='gsap.registerPlugin(MotionPathPlugin);\ntl.from("#box", { opacity: 0 }, 0);\n'
        'tl.to("#box", { motionPath: "#path" }, 1);',
    ),
}
DOCS["overlapping_gsap_tweens"] = {
    "summary": "Two tweens on the same target animate the same property over overlapping time.",
    "explanation": """
Both tweens write the property during the overlap; which one wins depends on creation order, and seeking
backwards into the overlap (Studio scrubbing, a distributed worker starting mid-way) can land on the other
one's value. Only tweens whose window is known statically are compared: top-level calls with a literal target
(or the same variable), an absolute numeric position and a literal duration (no stagger, repeat or keyframes).
A warning, as upstream: what it protects is scrubbing and cold seeks, not a sequential render.
""",
    "bad": comp(BOX, js='tl.to("#box", { x: 100, duration: 1 }, 0);\ntl.to("#box", { x: 300, duration: 1 }, 0.5);'),
    "good": comp(BOX, js='tl.to("#box", { x: 100, duration: 0.5 }, 0);\ntl.to("#box", { x: 300, duration: 1 }, 0.5);'),
}
DOCS["gsap_size_tween_reflows"] = {
    "summary": "A tween animates width/height (layout), not scaleX/scaleY.",
    "explanation": """
Width and height tweens re-run layout on every frame: the content inside reflows (text re-wraps, flex children
move) and edges snap to whole pixels, so slow tweens step. It renders, and it is often what a progress bar wants
(its label must not stretch), so this is advice, not a defect: when the content should not reflow, tween
scaleX/scaleY (with transformOrigin) instead.
""",
    "bad": comp(BOX, js='tl.to("#box", { width: 400, duration: 2 }, 0);'),
    "good": comp(BOX, js='tl.to("#box", { scaleX: 2, transformOrigin: "left center", duration: 2 }, 0);'),
}
DOCS["gsap_repeat_refresh_relative_value"] = {
    "summary": "repeatRefresh: true with a relative (+=/-=) value.",
    "explanation": "Each repeat re-reads the relative value from wherever the previous cycle ended; seeking out of "
    "order (distributed renders) gives different positions per worker: render case "
    '`repeat_refresh_relative_two_workers` (x: "+=60", repeat 3) differs in 4 of 8 frames between one worker '
    "and two.",
    "bad": comp(BOX, js='tl.to("#box", { x: "+=100", repeat: 2, repeatRefresh: true }, 0);'),
    "good": comp(BOX, js='tl.to("#box", { x: 100, repeat: 2, yoyo: true }, 0);'),
}
DOCS["gsap_timeline_registered_before_async_build"] = {
    "summary": "The timeline is registered synchronously but its tweens are added later in a callback.",
    "explanation": """
The timeline is registered empty and filled later (after `document.fonts.ready`, in a promise). The upstream
linter calls this an error: a host that nests the sub-composition as soon as the key exists would nest it empty.
The renderer (hyperframes 0.8.170) did not show that: a mounted sub-composition registered before its
fonts.ready build renders frame-identical to one registered after it (render case
`sub_registered_before_fonts_ready_build`). It stays a warning because it depends on the runtime's readiness
timing — preview and Studio may read the timeline before it is built. Register after the build.
""",
    "bad": comp(BOX, js='document.fonts.ready.then(() => {\n  tl.from("#box", { opacity: 0 }, 0);\n});'),
    "good": comp(BOX, js='tl.from("#box", { opacity: 0 }, 0);'),
}
DOCS["gsap_undefined_css_variable"] = {
    "summary": "A tween value uses var(--name) that no stylesheet declares.",
    "explanation": "An undefined custom property resolves to nothing; the tween animates to the initial value.",
    "bad": comp(BOX, js='tl.from("#box", { opacity: 0 }, 0);\ntl.to("#box", { backgroundColor: "var(--brand)" }, 1);'),
    "good": comp(
        BOX,
        css=":root { --brand: #ff3366; }",
        js='tl.from("#box", { opacity: 0 }, 0);\ntl.to("#box", { backgroundColor: "var(--brand)" }, 1);',
    ),
}
DOCS["gsap_function_value_hazard"] = {
    "summary": "A function-valued tween property treats its index argument as the element, or measures the DOM.",
    "explanation": """
GSAP calls a function value with (index, target, targets). `(el) => el.dataset.x` reads a property of a number:
it throws when the tween first renders and the render fails ("HyperFrames runtime failed: TypeError", render case
`function_value_index_as_element`; with `(i, el) =>` it renders) — an error. A function value that measures the
DOM (offsetWidth, getBoundingClientRect) is a warning: it runs at each worker's first seek, and with a layout
that is settled before the timeline is built two workers computed the same value (render case
`function_value_measures_dom`: 0 of 8 frames differ between one and two workers). What the warning protects
is preview and Studio editing, where the layout at the first render is not pinned down (resizing, late fonts);
compute the value once, before building the timeline.
""",
    "bad": comp(BOX, js='tl.to("#box", { x: (el) => Number(el.dataset.x) }, 0);'),
    "good": comp(BOX, js='tl.to("#box", { x: (i, el) => Number(el.dataset.x) }, 0);'),
}
DOCS["gsap_callback_dom_measurement"] = {
    "summary": "An onUpdate/onStart/onComplete callback measures the DOM.",
    "explanation": "Callbacks re-fire on every seek (suppressEvents=false); measuring layout there forces a reflow "
    "per frame and gives worker-dependent values.",
    "bad": comp(BOX, js='tl.to("#box", { x: 100, onUpdate: () => document.getElementById("box").offsetWidth }, 0);'),
    "good": comp(BOX, js='tl.to("#box", { x: 100 }, 0);'),
}
DOCS["gsap_tween_not_on_timeline"] = {
    "summary": "gsap.to/from/fromTo is called directly instead of on the composition timeline.",
    "explanation": """
A tween created with `gsap.to(...)` lives on GSAP's global timeline instead of the registered one. One browser
rendering every frame in order happens to replay it (render case `global_tween_not_on_timeline`: identical with
1 worker), but a render split between workers — each seeking its chunk cold, as `--workers 2` and distributed
renders do — shows it at the wrong time: 4 of 8 frames differ with 2 workers. Preview and Studio scrub only the
registered timeline. Put every tween on it (`tl.to(...)`); `gsap.set` for initial state is fine.
""",
    "bad": comp(BOX, js='gsap.from("#box", { opacity: 0, duration: 1 });'),
    "good": comp(BOX, js='tl.from("#box", { opacity: 0, duration: 1 }, 0);'),
}
DOCS["gsap_target_not_found"] = {
    "summary": "A tween's selector (#id or .class) matches no element in the file.",
    "explanation": "GSAP logs a quiet console warning and animates nothing — typically a typo or a renamed id. "
    "Only plain `#id` / `.class` selectors are checked.",
    "bad": comp(BOX, js='tl.from("#bx", { opacity: 0 }, 0);'),
    "good": comp(BOX, js='tl.from("#box", { opacity: 0 }, 0);'),
}
PATH_BODY = '<svg width="320" height="180"><path id="wire" stroke="#fff" fill="none"></path></svg>'
DOCS["svg_measure_before_path_d"] = {
    "summary": "getTotalLength() on a <path> that has no d attribute yet (and gets none before the measure).",
    "explanation": """
Chrome returns 0 for the length of a path without geometry, so a stroke-dash draw-on built from that length is
dead: the line never draws. Render case `svg_measure_before_path_d` (bench/lint_render_cases.py): with d set
right after the measure the draw-on renders 1 distinct frame of 8 (nothing moves); with d set first, 8 of 8.
When the only `d` assignment sits in another function (a timeline callback, say), the finding is a warning: it
depends on which runs first.
""",
    "bad": comp(
        PATH_BODY,
        js='const wire = document.getElementById("wire");\nconst len = wire.getTotalLength();\n'
        "tl.fromTo(wire, { strokeDashoffset: len }, { strokeDashoffset: 0, duration: 1 }, 0);",
    ),
    "good": comp(
        PATH_BODY,
        js='const wire = document.getElementById("wire");\nwire.setAttribute("d", "M10 90 L300 90");\n'
        "const len = wire.getTotalLength();\n"
        "tl.fromTo(wire, { strokeDashoffset: len }, { strokeDashoffset: 0, duration: 1 }, 0);",
    ),
}
DASHED_PATH = (
    '<svg width="320" height="180"><path id="wire" d="M10 90 L300 90" stroke="#fff" fill="none" '
    'style="stroke-dasharray: 10 10"></path></svg>'
)
DOCS["svg_drawon_css_dasharray_conflict"] = {
    "summary": "GSAP writes a one-number strokeDasharray (a draw-on) over a CSS stroke-dasharray with two components.",
    "explanation": """
GSAP merges dash lists component by component, so `strokeDasharray: 290` over CSS `stroke-dasharray: 10 10`
computes to `290px, 10px`: the CSS gap survives, the hide-then-draw-on trick hides only one gap's worth and the
line is visible from the first frame. Render case `svg_drawon_over_css_dashes`: with CSS `10 10` the undrawn
rest of the line shows after a 10 px gap in 8 of 8 frames, where the intended draw-on shows only the drawn
part. Only CSS rules without combinators (and inline styles) are matched, as upstream; a two-component GSAP
value (`${len} ${len}`) is the fix and is not reported.
""",
    "bad": comp(
        DASHED_PATH,
        js='tl.set("#wire", { strokeDasharray: 290, strokeDashoffset: 290 }, 0);\n'
        'tl.to("#wire", { strokeDashoffset: 0, duration: 1 }, 0);',
    ),
    "good": comp(
        DASHED_PATH,
        js='tl.set("#wire", { strokeDasharray: "290 290", strokeDashoffset: 290 }, 0);\n'
        'tl.to("#wire", { strokeDashoffset: 0, duration: 1 }, 0);',
    ),
}
