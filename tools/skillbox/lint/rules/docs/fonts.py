"""What `skillbox lint explain` shows for the fonts rules (lint/rules/fonts.py): summary, explanation and
the bad and good examples, keyed by rule code. See lint/registry.py for why they live apart from the checks."""

from __future__ import annotations

from skillbox.lint.samples import comp

DOCS: dict[str, dict] = {}
TITLE = '<h1 id="title">Hello</h1>'
DOCS["font_family_without_font_face"] = {
    "summary": "font-family names a font that is neither bundled with the renderer nor declared with @font-face.",
    "explanation": "Render workers do not have your desktop fonts; the text falls back to a different face with "
    "different metrics, so line breaks and layout change in the video. Render case "
    "`font_without_font_face_falls_back`: `'Brand Sans', serif` renders in the system's Times-like serif (not even "
    "the renderer's bundled face a plain `serif` gets).",
    "bad": comp(TITLE, css='#title { font-family: "Brand Sans", sans-serif; }'),
    "good": comp(
        TITLE,
        css='@font-face { font-family: "Brand Sans"; src: url("assets/brand.woff2"); }\n'
        '#title { font-family: "Brand Sans", sans-serif; }',
        assets=("assets/brand.woff2",),
    ),
}
DOCS["system_font_will_alias"] = {
    "summary": "A system font (Arial, Helvetica, Segoe UI...) is aliased to a look-alike on render workers.",
    "explanation": "Linux render workers substitute metric-compatible fonts for desktop system fonts; the result is "
    "close but not identical to your preview. Opt-in (it matters for distributed renders, where system-font "
    "capture is off): `skillbox lint --select system_font_will_alias` or select it in [tool.skillbox.lint].",
    "bad": comp(TITLE, css="#title { font-family: Helvetica, sans-serif; }"),
    "good": comp(TITLE, css="#title { font-family: Inter, sans-serif; }"),
}
DOCS["font_file_not_found"] = {
    "summary": "An @font-face src url() points at a local file that does not exist.",
    "explanation": "The font silently fails to load and the text renders in the fallback family (render case "
    "`font_file_missing`: 8 of 8 frames differ from the same project with the font file present).",
    "bad": comp(
        TITLE,
        css='@font-face { font-family: "Brand Sans"; src: url("assets/brand.woff2"); }\n'
        '#title { font-family: "Brand Sans", sans-serif; }',
    ),
    "good": DOCS["font_family_without_font_face"]["good"],
}
