"""The parsed view: root detection as the format defines it, positions, GSAP calls from the syntax tree."""

from __future__ import annotations

from skillbox.lint.document import parse_document
from skillbox.lint.engine import lint_document
from skillbox.lint.samples import SUB, composition


def test_leading_svg_defs_block_is_not_the_root():
    html = composition("").replace("<body>\n", '<body>\n<svg width="0" height="0"><defs></defs></svg>\n')
    doc = parse_document(html.encode())
    assert doc.root is not None and doc.root.attrs["data-composition-id"] == "main"


def test_template_wrapped_sub_composition_root():
    doc = parse_document(SUB.encode(), is_subcomposition=True)
    assert doc.root_in_template and doc.root.attrs["data-composition-id"] == "intro"
    assert lint_document(doc) == []


def test_body_with_composition_attributes_is_the_root():
    doc = parse_document(b'<html><body data-composition-id="b" data-width="10" data-height="10"><p>x</p></body></html>')
    assert doc.root is doc.body


def test_positions_are_one_based_characters():
    doc = parse_document('<p>é</p>\n<div id="x">'.encode())
    div = next(e for e in doc.elements if e.tag == "div")
    assert doc.position(div.start) == (2, 1)
    assert doc.position(len("<p>é".encode())) == (1, 5)


def test_gsap_calls_come_from_the_syntax_tree():
    js = (
        "// tl.play() in a comment is not a call\n"
        'const s = "tl.play()";\n'
        'tl.to("#a", { x: 10, opacity: 0 }, 0.5).fromTo(".b", { y: 0 }, { y: 5 }, "<");\n'
    )
    doc = parse_document(composition('<p id="a">a</p><p class="b">b</p>', js=js).encode())
    calls = [(c.method, c.target_selector, c.position.text if c.position else None) for c in doc.gsap_calls]
    assert calls == [("to", "#a", "0.5"), ("fromTo", ".b", '"<"')]
    assert {c.code for c in lint_document(doc)} == set()


def test_inlined_vendor_library_is_not_linted_as_composition_code():
    library = "/*!\n * GSAP 3.14.2\n * @license Copyright 2025, GreenSock.\n */\n" + "var t=Date.now();" * 3000
    html = composition("").replace("</head>", f"<script>{library}</script>\n</head>")
    html = html.replace('<script src="https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js"></script>\n', "")
    findings = lint_document(parse_document(html.encode()))
    assert [f.code for f in findings] == []


def test_google_fonts_import_counts_as_loaded():
    css = '@import url("https://fonts.googleapis.com/css2?family=Press+Start+2P&display=swap");\n'
    css += '#t { font-family: "Press Start 2P", monospace; }'
    html = composition('<p id="t">x</p>', css=css)
    assert lint_document(parse_document(html.encode())) == []
