"""A small hand-made project graph (a Flask-like web app) written next to real source files.

The graph is what `skillbox graph build` would produce for the files below, written by hand so the use side can be
tested on its own. It has: two `url_for` definitions (ambiguous name), an inheritance chain, imports, a docstring,
an INFERRED call, an import cycle, an isolated function and a node whose name is hostile HTML.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

SOURCES = {
    "src/app/core.py": "class App:\n    def dispatch(self, request):\n        return route(request)\n",
    "src/app/web.py": "from .core import App\nclass WebApp(App):\n    def url_for(self, name):\n        ...\n",
    "src/app/routing.py": "def route(request):\n    return url_for('x')\ndef url_for(name):\n    ...\n",
    "src/app/helpers.py": "from .routing import url_for\ndef redirect(target):\n    return url_for(target)\n",
    "src/app/unused.py": "def forgotten():\n    pass\n",
    "docs/guide.md": "# Routing\n",
}

HOSTILE = "</script><script>alert(1)</script>"


def _n(node_id, kind, name, file, line, **extra):
    return {"id": node_id, "kind": kind, "name": name, "file": file, "line": line, **extra}


def _l(source, target, relation, file, line, confidence="EXTRACTED"):
    return {
        "source": source,
        "target": target,
        "relation": relation,
        "confidence": confidence,
        "file": file,
        "line": line,
    }


def small_graph() -> dict:
    core, web, routing, helpers, unused = (f"src/app/{n}.py" for n in ("core", "web", "routing", "helpers", "unused"))
    nodes = [
        _n(core, "file", "core.py", core, 1),
        _n(web, "file", "web.py", web, 1),
        _n(routing, "file", "routing.py", routing, 1),
        _n(helpers, "file", "helpers.py", helpers, 1),
        _n(unused, "file", "unused.py", unused, 1),
        _n("docs/guide.md", "file", "guide.md", "docs/guide.md", 1),
        _n(f"{core}::App", "class", "App", core, 1, docstring="The central application object; owns the routes."),
        _n(f"{core}::App.dispatch", "method", "dispatch", core, 2, qualname="App.dispatch"),
        _n(f"{web}::WebApp", "class", "WebApp", web, 2),
        _n(f"{web}::WebApp.url_for", "method", "url_for", web, 3, qualname="WebApp.url_for"),
        _n(f"{routing}::route", "function", "route", routing, 1, docstring="Find the view for a request."),
        _n(f"{routing}::url_for", "function", "url_for", routing, 3, docstring="Build a URL for an endpoint."),
        _n(f"{helpers}::redirect", "function", "redirect", helpers, 2),
        _n(f"{unused}::forgotten", "function", "forgotten", unused, 1),
        _n("docs/guide.md::Routing", "heading", "Routing", "docs/guide.md", 1),
        _n(f"{helpers}::{HOSTILE}", "function", HOSTILE, helpers, 9, docstring="<img src=x onerror=alert(2)>"),
    ]
    links = [
        _l(core, f"{core}::App", "contains", core, 1),
        _l(f"{core}::App", f"{core}::App.dispatch", "contains", core, 2),
        _l(web, f"{web}::WebApp", "contains", web, 2),
        _l(f"{web}::WebApp", f"{web}::WebApp.url_for", "contains", web, 3),
        _l(routing, f"{routing}::route", "contains", routing, 1),
        _l(routing, f"{routing}::url_for", "contains", routing, 3),
        _l(helpers, f"{helpers}::redirect", "contains", helpers, 2),
        _l(helpers, f"{helpers}::{HOSTILE}", "contains", helpers, 9),
        _l(unused, f"{unused}::forgotten", "contains", unused, 1),
        _l("docs/guide.md", "docs/guide.md::Routing", "contains", "docs/guide.md", 1),
        _l(web, core, "imports", web, 1),
        _l(helpers, routing, "imports", helpers, 1),
        _l(routing, helpers, "imports", routing, 1),  # an import cycle routing <-> helpers
        _l(core, routing, "imports", core, 1),
        _l(f"{web}::WebApp", f"{core}::App", "inherits", web, 2),
        _l(f"{core}::App.dispatch", f"{routing}::route", "calls", core, 3),
        _l(f"{routing}::route", f"{routing}::url_for", "calls", routing, 2),
        _l(f"{helpers}::redirect", f"{routing}::url_for", "calls", helpers, 3),
        _l(f"{helpers}::{HOSTILE}", f"{helpers}::redirect", "calls", helpers, 10, "INFERRED"),
        _l("docs/guide.md::Routing", f"{routing}::route", "documents", "docs/guide.md", 1, "INFERRED"),
    ]
    return {"directed": True, "multigraph": True, "graph": {}, "nodes": nodes, "links": links}


def write_project(root: Path, graph: dict | None = None) -> Path:
    """Source files plus skillbox-out/graph.json newer than all of them; returns the graph path."""
    for rel, text in SOURCES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        os.utime(path, (1_700_000_000, 1_700_000_000))
    out = root / "skillbox-out" / "graph.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(graph or small_graph()))
    return out
