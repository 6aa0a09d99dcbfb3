"""Docs become part of the graph: heading outline, links between files, backticked mentions of code."""

from __future__ import annotations

import re
import sys

from skillbox.graph.build import build_graph
from skillbox.graph.docs import _OTHER_LINE_BREAKS, _SPACE, extract_markdown, extract_rst
from tests.graph.conftest import read_graph

MD = """# Guide

Intro mentions `Engine.start` and `helper()`.

## Install

See [the API](api.rst#reference) and [util](pkg/util.py).

```python
# not a heading
`not_a_mention`
```

Setext title
------------

Use `pkg.util.helper` or `nothing_like_this`. [external](https://example.com)
"""

RST = """=========
API pages
=========

Reference
---------

:func:`pkg.util.helper` and ``Engine``.

.. code-block:: python

   ``hidden``

Back to :doc:`guide`.
"""


def test_markdown_records():
    rec = extract_markdown(MD.encode())
    assert [(h.level, h.title, h.slug, h.line, h.parent) for h in rec.headings] == [
        (1, "Guide", "guide", 1, -1),
        (2, "Install", "install", 5, 0),
        (2, "Setext title", "setext-title", 14, 0),
    ]
    assert [(link.target, link.line, link.heading) for link in rec.links] == [
        ("api.rst#reference", 7, 1),
        ("pkg/util.py", 7, 1),
    ]
    assert [m.text for m in rec.mentions] == ["Engine.start", "helper", "pkg.util.helper", "nothing_like_this"]


def test_rst_records():
    rec = extract_rst(RST.encode())
    assert [(h.level, h.title, h.line) for h in rec.headings] == [(1, "API pages", 2), (2, "Reference", 5)]
    assert [m.text for m in rec.mentions] == ["pkg.util.helper", "Engine"]
    assert [link.target for link in rec.links] == ["guide"]


def test_docs_in_the_graph(project):
    root = project(
        {
            "guide.md": MD,
            "api.rst": RST,
            "pkg/__init__.py": "",
            "pkg/util.py": "def helper():\n    pass\n",
            "pkg/engine.py": "class Engine:\n    def start(self):\n        pass\n",
        }
    )
    g = read_graph(build_graph(root).out_dir)
    assert g.nodes["guide.md::#install"]["kind"] == "heading"
    assert g.nodes["guide.md::#install"]["level"] == 2
    g.edge("guide.md", "guide.md::#guide", "contains")
    g.edge("guide.md::#guide", "guide.md::#install", "contains")
    link = g.edge("guide.md::#install", "api.rst::#reference", "references")
    assert link["confidence"] == "INFERRED"
    g.edge("guide.md::#install", "pkg/util.py", "references")
    g.edge("api.rst::#reference", "guide.md", "references")
    for source, target in [
        ("guide.md::#guide", "pkg/engine.py::Engine.start"),
        ("guide.md::#guide", "pkg/util.py::helper"),
        ("guide.md::#setext-title", "pkg/util.py::helper"),
        ("api.rst::#reference", "pkg/util.py::helper"),
        ("api.rst::#reference", "pkg/engine.py::Engine"),
    ]:
        assert g.edge(source, target, "documents")["confidence"] == "INFERRED"
    assert not [e for e in g.links if "nothing_like_this" in e["target"] or "hidden" in e["target"]]


def _outline(rec):
    return [(h.level, h.title, h.line, h.parent) for h in rec.headings]


def test_markdown_lines_are_counted_as_splitlines_counts_them():
    # U+2028, CRLF, \v, \x1c and a lone CR each end a line, as in every other tool that reads the file.
    text = "intro\u2028# Title\r\nsee `pkg.mod` here\x0b## Sub\x1c[doc](a.md)\rSetext\r\n---\r\n`tail.name`"
    rec = extract_markdown(text.encode())
    assert _outline(rec) == [(1, "Title", 2, -1), (2, "Sub", 4, 0), (2, "Setext", 6, 0)]
    assert [(m.text, m.line, m.heading) for m in rec.mentions] == [("pkg.mod", 3, 0), ("tail.name", 8, 2)]
    assert [(link.target, link.line, link.heading) for link in rec.links] == [("a.md", 5, 1)]


def test_markdown_fences_close_only_on_their_own_kind():
    text = "~~~~\n```\n# not a heading\n~~~~\n# Real\n````\n```\n`in.side`\n````\n`out.side`\n```\n`never.closed`"
    rec = extract_markdown(text.encode())
    assert _outline(rec) == [(1, "Real", 5, -1)]
    assert [m.text for m in rec.mentions] == ["out.side"]


def test_markdown_front_matter_is_metadata_and_a_fence_with_an_info_string_does_not_close():
    """VitePress/Jekyll front matter is no outline (its last key above the closing `---` used to become a
    heading), and "```python" inside an open fence is code, not the end of it (CommonMark)."""
    text = "---\ntitle: Vite\nsee: `fm.name`\nlayout: home\n---\n\n# Start\n\n```js\nx()\n```python\n"
    text += "# not a heading\n`code.name`\n```  \n`after.fence`\n"
    rec = extract_markdown(text.encode())
    assert _outline(rec) == [(1, "Start", 7, -1)]
    assert [(m.text, m.line) for m in rec.mentions] == [("after.fence", 15)]
    # Front matter starts on the first line and needs its closing line; elsewhere "---" keeps its meanings.
    assert _outline(extract_markdown(b"Intro\n\n---\nTitle\n---\n")) == [(2, "Title", 4, -1)]
    assert _outline(extract_markdown(b"---\n# Not front matter\n")) == [(1, "Not front matter", 2, -1)]


def test_markdown_heading_closing_hashes_and_setext_rules():
    text = "# Title ##\n#\tTabbed #x\n## \n\n    Indented\n---\nPlain\n===\n---\n==="
    rec = extract_markdown(text.encode())
    # An indented line is no setext title; an underline cannot also be the title of the next underline, but the
    # "---" that follows it is plain text again and so can be one.
    assert _outline(rec) == [(1, "Title", 1, -1), (1, "Tabbed #x", 2, -1), (1, "Plain", 7, -1), (1, "---", 9, -1)]


def test_rst_lines_literal_blocks_and_titles_across_line_breaks():
    text = "Title\r\n=====\r\n\r\nText::\r\n\r\n   ``hidden.name``\r\nback ``shown.name``\u2028Sub\u2028---\x0c"
    text += ":doc:`guide`"
    rec = extract_rst(text.encode())
    assert _outline(rec) == [(1, "Title", 1, -1), (2, "Sub", 8, 0)]
    assert [(m.text, m.line, m.heading) for m in rec.mentions] == [("shown.name", 7, 0)]
    assert [(link.target, link.line, link.heading) for link in rec.links] == [("guide", 10, 1)]


def test_docs_patterns_agree_with_str_whitespace_and_line_breaks():
    # The whole-text patterns spell out "whitespace within a line" and the extra line breaks; records only match
    # str.strip / str.splitlines (and so stay the same) while these sets are exactly Python's.
    every = "".join(map(chr, range(sys.maxunicode + 1)))
    assert set(re.findall(_SPACE, every)) == {c for c in every if c.isspace()} - {"\n"}
    assert set(_OTHER_LINE_BREAKS) == {c for c in every if len(f"a{c}b".splitlines()) == 2} - {"\n"}


def test_empty_and_undecodable_docs():
    assert extract_markdown(b"") == extract_rst(b"")._replace(lang="markdown")
    rec = extract_markdown(b"# Caf\xe9\n`ok.name`")
    assert _outline(rec) == [(1, "Caf\ufffd", 1, -1)]
    assert [m.text for m in rec.mentions] == ["ok.name"]
