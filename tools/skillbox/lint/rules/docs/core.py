"""What `skillbox lint explain` shows for the core rules (lint/rules/core.py): summary, explanation and
the bad and good examples, keyed by rule code. See lint/registry.py for why they live apart from the checks."""

from __future__ import annotations

from skillbox.lint.samples import HOST, SUB, comp, composition, project, raw

DOCS: dict[str, dict] = {}
PARSE_BAD = raw("This is a plain text note, not a composition.\n")
DOCS["parse_error"] = {
    "summary": "The file cannot be read as an HTML composition (binary, empty, not HTML, too large).",
    "explanation": """
Every other rule needs a parsed document. Binary files, empty files, text without a single HTML element and
files over 10 MB are reported with this code instead of being linted (nothing else is reported for that file).
""",
    "bad": PARSE_BAD,
    "good": comp('<h1 id="title" class="clip" data-start="0" data-duration="4" data-track-index="1">Hello</h1>'),
}
DOCS["root_missing_composition_id"] = {
    "summary": "The root element has no data-composition-id.",
    "explanation": """
The root is the `<body>` when it carries composition attributes, else the first element in `<body>` (a leading
`<svg>` defs block without composition attributes is skipped). Its `data-composition-id` is the key the renderer
looks up in `window.__timelines`; without it nothing is seeked and the video renders frozen.
""",
    "bad": raw(
        composition("").replace(' data-composition-id="main"', ""),
        '<div id="root" data-width="1920" data-height="1080" data-start="0" data-duration="4"></div>',
    ),
    "good": comp(""),
}
DOCS["root_missing_dimensions"] = {
    "summary": "The root element lacks data-width or data-height.",
    "explanation": """
`data-width` and `data-height` set the capture viewport in pixels. Without them the renderer falls back to a
default size and the layout you designed is cropped or letterboxed.
""",
    "bad": raw(
        composition("").replace(' data-height="1080"', ""),
        '<div id="root" data-composition-id="main" data-width="1920"></div>',
    ),
    "good": comp(""),
}
DOCS["missing_timeline_registry"] = {
    "summary": "No window.__timelines registration anywhere in a standalone composition.",
    "explanation": """
The renderer finds the timeline to seek in `window.__timelines["<composition id>"]`. A composition that builds
a timeline but never registers it renders its first frame for the whole video; one without any timeline makes
the producer wait 45 s for a registration. Sub-compositions, template files and roots marked `data-no-timeline`
are exempt.
""",
    "bad": raw(
        composition("", js="")
        .replace('window.__timelines["main"] = tl;\n', "")
        .replace("window.__timelines = window.__timelines || {};\n", ""),
        "<script>\nconst tl = gsap.timeline({ paused: true });\n</script>",
    ),
    "good": comp(""),
}
DOCS["timeline_id_mismatch"] = {
    "summary": "A window.__timelines key does not match any data-composition-id (including a nested host's id).",
    "explanation": """
The runtime looks up `window.__timelines[id]` for each element with `data-composition-id="id"`. With a single
timeline under the wrong key the renderer still found and seeked it (render case `timeline_id_mismatch`:
frame-identical to the right key), so this is a warning. What it protects: compositions with several timelines
(which one drives which scene), a sub-composition loaded by a host (`data-composition-src`, whose root id and
timeline key must both equal the host's `data-composition-id`; not render-verified here), and Studio, which
addresses timelines by id.
""",
    "bad": raw(
        composition("").replace('window.__timelines["main"]', 'window.__timelines["intro"]'),
        '<div id="root" data-composition-id="main" ...>\n<script>window.__timelines["intro"] = tl;</script>',
    ),
    "good": comp(""),
}
DOCS["css_parse_error"] = {
    "summary": "A <style> block has a CSS syntax error (unbalanced braces, stray tokens).",
    "explanation": """
The browser drops everything after an unclosed block, so later rules silently stop applying in the render.
""",
    "bad": comp(css="#title { color: white;\n.sub { color: gray; }", body='<p id="sub" class="sub">Hi</p>'),
    "good": comp(css="#title { color: white; }\n.sub { color: gray; }", body='<p id="sub" class="sub">Hi</p>'),
}
DOCS["repeated_id_descendant_selector"] = {
    "summary": "A selector such as `#a #a` repeats one id as its own descendant and can never match.",
    "explanation": "An id is unique, so `#a #a` matches nothing; the styles meant for the element never apply.",
    "bad": comp('<p id="a">Hi</p>', css="#a #a { color: red; }"),
    "good": comp('<p id="a">Hi</p>', css="#a { color: red; }"),
}
DOCS["visible_markup_comment"] = {
    "summary": "A `/* ... */` comment written in HTML text renders on screen.",
    "explanation": "CSS/JS comment syntax is plain text in HTML and shows up in the video. Use `<!-- ... -->`.",
    "bad": comp('<div id="card">/* title card */<h1>Hi</h1></div>'),
    "good": comp('<div id="card"><!-- title card --><h1>Hi</h1></div>'),
}
DOCS["invalid_inline_script_syntax"] = {
    "summary": "An inline <script> has a JavaScript syntax error, so none of it runs.",
    "explanation": "One syntax error stops the whole script: no timeline is built or registered.",
    "bad": comp(js='tl.to("#root", { opacity: 1 }, 0;'),
    "good": comp(js='tl.to("#root", { opacity: 1 }, 0);'),
}
DOCS["host_missing_composition_id"] = {
    "summary": "An element with data-composition-src has no data-composition-id.",
    "explanation": "The runtime mounts the sub-composition under the host's id and seeks the timeline of that id. "
    "hyperframes 0.8.170 falls back to the sub-composition's own root id: a host without the attribute rendered "
    "frame-identical (render case `host_missing_composition_id`). A warning: it protects hosts that mount one file "
    "twice or under another id, and Studio, which addresses the mount by id.",
    "bad": project(
        {"index.html": composition(HOST.replace(' data-composition-id="intro"', "")), "compositions/intro.html": SUB},
        '<div id="intro" data-composition-src="compositions/intro.html" data-start="0" ...></div>',
    ),
    "good": project(
        {"index.html": composition(HOST), "compositions/intro.html": SUB},
        '<div id="intro" data-composition-id="intro" data-composition-src="compositions/intro.html" ...></div>',
    ),
}
DOCS["scoped_css_missing_wrapper"] = {
    "summary": 'CSS scoped with [data-composition-id="x"] but no element has that id.',
    "explanation": "The scoped rules never match anything, usually after renaming a composition.",
    "bad": comp('<p id="t">Hi</p>', css='[data-composition-id="intro"] #t { color: red; }'),
    "good": comp('<p id="t">Hi</p>', css='[data-composition-id="main"] #t { color: red; }'),
}
DOCS["studio_missing_editable_id"] = {
    "summary": "A timed element (data-start / data-track-index / data-composition-src) has no id.",
    "explanation": "Editors and the render pipeline address clips by id; a clip without one cannot be edited or "
    "tracked across re-renders.",
    "bad": comp('<h1 class="clip" data-start="0" data-duration="2" data-track-index="1">Hi</h1>'),
    "good": comp('<h1 id="title" class="clip" data-start="0" data-duration="2" data-track-index="1">Hi</h1>'),
}
DOCS["non_deterministic_code"] = {
    "summary": "The script reads the wall clock or an unseeded random source (Math.random, Date.now, new Date()).",
    "explanation": """
Frames are rendered out of order, in several processes. A value that changes between runs makes frames disagree:
render case `math_random_twice` (bench/lint_render_cases.py) places a box with `Math.random()`, and two renders of
the same file differ in 8 of 8 frames. The clock is different: the renderer freezes it at the Unix epoch, so
`Date.now()` / `new Date()` are the same in every render but wrong — render case `new_date_twice` shows
`new Date().toISOString()` as 1970-01-01T00:00:00.000Z in every frame. A "today's date" card shows 1970. Use a
seeded PRNG, times derived from the timeline, and dates passed in as literals or composition variables.
""",
    "bad": comp('<p id="n">0</p>', js='tl.to("#n", { x: Math.random() * 100 }, 0);'),
    "good": comp('<p id="n">0</p>', js='tl.to("#n", { x: 42 }, 0);'),
}
DOCS["id_requires_css_escape"] = {
    "summary": "An id starts with a digit, so `#1abc` is not a valid selector.",
    "explanation": "`document.querySelector('#1abc')` throws; GSAP selectors and CSS rules silently fail. When such "
    "a selector is actually used the finding is an error.",
    "bad": comp('<p id="1st">Hi</p>'),
    "good": comp('<p id="first">Hi</p>'),
}
DOCS["css_transition_used"] = {
    "summary": "A CSS `transition` runs on the browser clock and is not seekable.",
    "explanation": "The renderer seeks frames; CSS transitions progress in wall time, so frames show random "
    "in-between states. Animate with the GSAP timeline instead.",
    "bad": comp('<p id="t">Hi</p>', css="#t { transition: opacity 0.3s; }"),
    "good": comp('<p id="t">Hi</p>', css="#t { opacity: 1; }"),
}
DOCS["duplicate_id"] = {
    "summary": "The same id appears on two elements (SVG defs included).",
    "explanation": """
`getElementById`, GSAP selectors and SVG references such as `fill="url(#grad)"` bind to the first element with
the id; the second scene silently uses the first scene's gradient, mask or clip (render case
`duplicate_svg_gradient_id`: two SVGs each defining gradient "g" paint the second shape with the first one's
colours, 8 of 8 frames differ from unique ids). Ids must be unique across the assembled page, including inline
SVG `<defs>`. (Duplicate ids on two media elements are reported as
`duplicate_media_id`.)
""",
    "bad": comp(
        '<svg id="a"><defs><linearGradient id="g"></linearGradient></defs></svg>\n'
        '<svg id="b"><defs><linearGradient id="g"></linearGradient></defs></svg>'
    ),
    "good": comp(
        '<svg id="a"><defs><linearGradient id="g1"></linearGradient></defs></svg>\n'
        '<svg id="b"><defs><linearGradient id="g2"></linearGradient></defs></svg>'
    ),
}
DOCS["timeline_not_paused"] = {
    "summary": "A composition timeline is created without { paused: true } (children added to a parent are exempt).",
    "explanation": """
The renderer pauses and seeks the registered timeline itself: an unpaused registered timeline rendered
frame-identical to a paused one (render case `unpaused_registered_timeline`), so this is a warning. What it
protects is the preview: opened in a browser or the Studio player, an unpaused timeline starts playing on the wall
clock at load, ahead of the scrub position. A child timeline that is `tl.add(child)`-ed into a parent (or returned
from a builder) must stay unpaused — a paused child never plays inside its parent (render case
`paused_child_added_to_parent`: 7 of 8 frames differ) — so the rule and its fix skip those.
""",
    "bad": raw(
        composition("").replace("gsap.timeline({ paused: true })", "gsap.timeline()"),
        "<script>\nconst tl = gsap.timeline();\n</script>",
    ),
    "good": comp(""),
}
DOCS["timeline_play_called"] = {
    "summary": "The script calls tl.play() (or resume/restart/reverse) on a composition timeline.",
    "explanation": """
HyperFrames owns playback: it seeks the timeline for every frame, and a render with `tl.play()` came out
frame-identical to one without (render case `unpaused_timeline_and_play`). What it protects is the preview and
Studio: there the call starts wall-clock playback that runs ahead of the scrub position. Delete the call.
""",
    "bad": comp('<p id="t">Hi</p>', js='tl.from("#t", { opacity: 0 }, 0);\ntl.play();'),
    "good": comp('<p id="t">Hi</p>', js='tl.from("#t", { opacity: 0 }, 0);'),
}
DOCS["timeline_created_async"] = {
    "summary": "The timeline is created or registered inside setTimeout, a promise callback or an event handler.",
    "explanation": """
The renderer waits for `window.__timelines` to be filled (it polls its readiness gate), so a timeline built and
registered in `setTimeout(..., 50)` or `document.fonts.ready.then` rendered frame-identical to a synchronous one
(render cases `built_in_set_timeout`, `built_in_fonts_ready`). It is a warning: what it protects is a race —
a callback that never fires or fires after the readiness timeout (a slow `fetch`, an event that never comes)
leaves the composition unregistered, and Studio reads the registry at load. Build and register synchronously
at the top level when nothing needs to wait.
""",
    "bad": raw(
        composition("", js="").replace(
            'const tl = gsap.timeline({ paused: true });\n\nwindow.__timelines["main"] = tl;\n',
            'setTimeout(() => {\n  const tl = gsap.timeline({ paused: true });\n  window.__timelines["main"] = tl;\n'
            "}, 0);\n",
        ),
        'setTimeout(() => {\n  const tl = gsap.timeline({ paused: true });\n  window.__timelines["main"] = tl;\n}, 0);',
    ),
    "good": comp(""),
}
DOCS["timeline_registry_missing_init"] = {
    "summary": "window.__timelines[...] is assigned without first initialising window.__timelines.",
    "explanation": """
The HyperFrames runtime creates `window.__timelines` before it runs composition scripts, so inside HyperFrames
this is harmless (the official blank template relies on it). Opened any other way — the file straight in a
browser, a test harness, another player — the assignment throws `TypeError` and the rest of the script stops.
Initialising defensively costs one line: `window.__timelines = window.__timelines || {};`.
""",
    "bad": raw(
        composition("").replace("window.__timelines = window.__timelines || {};\n", ""),
        'const tl = gsap.timeline({ paused: true });\nwindow.__timelines["main"] = tl;',
    ),
    "good": comp(""),
}
DOCS["unbalanced_style_tags"] = {
    "summary": "A <style> element is never closed, or a stray </style> appears.",
    "explanation": "An unclosed `<style>` swallows the markup after it as CSS text: those elements vanish.",
    "bad": raw(
        composition("").replace("</head>", "<style>\n#root { color: white; }\n</head>"),
        "<style>\n#root { color: white; }\n</head>",
    ),
    "good": comp(css="#root { color: white; }"),
}
DOCS["root_dimensions_mismatch"] = {
    "summary": "html/body CSS size disagrees with the root's data-width/data-height.",
    "explanation": "The capture viewport is data-width × data-height; a body sized differently is cropped or shows "
    "an empty band.",
    "bad": comp(css="body { width: 1280px; height: 720px; }"),
    "good": comp(css="body { width: 1920px; height: 1080px; }"),
}
DOCS["html_dir_attribute_breaks_render"] = {
    "summary": '<html dir="rtl"> has produced blank renders.',
    "explanation": "Right-to-left direction on the document flips the capture origin; renders came out blank "
    "(HyperFrames issue #1934). Set `direction: rtl` on the text elements instead.",
    "bad": raw(composition("").replace('<html lang="en">', '<html lang="ar" dir="rtl">'), '<html lang="ar" dir="rtl">'),
    "good": comp('<p id="t" dir="rtl">مرحبا</p>'),
}
DOCS["unclosed_tag_swallowed_element"] = {
    "summary": "A start tag is missing its `>`, so the next element is swallowed as attribute text.",
    "explanation": '`<div class="card"<p>Hi</p>` makes the browser read `<p` as an attribute name: the paragraph '
    "never exists and everything that targets it silently fails.",
    "bad": comp('<div id="card" class="card"<p id="t">Hi</p></div>'),
    "good": comp('<div id="card" class="card"><p id="t">Hi</p></div>'),
}
