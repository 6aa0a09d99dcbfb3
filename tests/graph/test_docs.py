"""Docs become part of the graph: heading outline, links between files, backticked mentions of code."""

from __future__ import annotations

from skillbox.graph.build import build_graph
from skillbox.graph.docs import extract_markdown, extract_rst
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
