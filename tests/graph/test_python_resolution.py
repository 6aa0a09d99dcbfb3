"""Python extraction and resolution on a small project: ids, imports, scopes, self methods, confidence."""

from __future__ import annotations

from skillbox.graph.build import build_graph
from tests.graph.conftest import read_graph

PKG = {
    "pkg/__init__.py": '"""The package."""\nfrom .helpers import url_for\nfrom .app import App\n',
    "pkg/helpers.py": (
        "import os\n"
        "def url_for(endpoint):\n"
        '    """Build a URL."""\n'
        "    return _join(endpoint)\n"
        "def _join(x):\n"
        "    # NOTE: keeps slashes\n"
        "    return os.path.join('/', x)\n"
    ),
    "pkg/app.py": (
        "from . import helpers\n"
        "from .base import Base\n"
        "class App(Base):\n"
        "    def run(self):\n"
        "        self.setup()\n"
        "        self.inherited()\n"
        "        return helpers.url_for('x')\n"
        "    def setup(self):\n"
        "        pass\n"
        "    @property\n"
        "    def name(self) -> 'str':\n"
        "        return 'app'\n"
    ),
    "pkg/base.py": "class Base:\n    def inherited(self):\n        pass\n",
    "pkg/cli.py": "def main():\n    pass\n",
    "other/cli.py": (
        "from pkg import url_for, App\n"
        "import pkg.helpers as h\n"
        "import requests\n"
        "def main():\n"
        "    url_for('index')\n"
        "    h.url_for('a')\n"
        "    App().run()\n"
        "    requests.get('u')\n"
        "    undefined_thing()\n"
        "    len([])\n"
    ),
}


def test_python_project_graph(project):
    root = project(PKG)
    result = build_graph(root)
    g = read_graph(result.out_dir)

    # Ids: files by path, symbols by path::qualname; two cli.py never collide.
    assert g.nodes["pkg/cli.py::main"]["kind"] == "function"
    assert g.nodes["other/cli.py::main"]["kind"] == "function"
    assert g.nodes["pkg/app.py::App.run"]["kind"] == "method"
    assert g.nodes["pkg/app.py::App"]["line"] == 3
    assert g.nodes["pkg/helpers.py::url_for"]["doc"] == "Build a URL."
    assert g.nodes["pkg/helpers.py::_join"]["notes"] == ["NOTE: keeps slashes"]
    assert g.nodes["pkg/__init__.py"]["doc"] == "The package."

    # Imports: relative, absolute, aliased, to a package's __init__, and external kept apart.
    g.edge("pkg/__init__.py", "pkg/helpers.py", "imports")
    g.edge("pkg/app.py", "pkg/helpers.py", "imports")  # from . import helpers -> the submodule
    g.edge("other/cli.py", "pkg/__init__.py", "imports")
    g.edge("other/cli.py", "pkg/helpers.py", "imports")
    ext = g.nodes["external:python:requests"]
    assert ext["kind"] == "external" and ext["stdlib"] is False
    assert g.nodes["external:python:os"]["stdlib"] is True
    g.edge("other/cli.py", "external:python:requests", "imports")

    # Calls through a re-export, a module alias, a constructor, self and an inherited method.
    call = g.edge("other/cli.py::main", "pkg/helpers.py::url_for", "calls")
    assert call["confidence"] == "EXTRACTED" and call["line"] == 5 and call["file"] == "other/cli.py"
    assert any(e["line"] == 6 for e in g.edges("calls", "other/cli.py::main", "pkg/helpers.py::url_for"))
    assert g.edge("other/cli.py::main", "pkg/app.py::App", "calls")["confidence"] == "EXTRACTED"
    assert g.edge("pkg/app.py::App.run", "pkg/app.py::App.setup", "calls")["confidence"] == "EXTRACTED"
    inherited = g.edge("pkg/app.py::App.run", "pkg/base.py::Base.inherited", "calls")
    assert inherited["confidence"] == "INFERRED" and inherited["score"] < 1
    assert g.edge("pkg/app.py::App.run", "pkg/helpers.py::url_for", "calls")["confidence"] == "EXTRACTED"
    assert g.edge("pkg/helpers.py::url_for", "pkg/helpers.py::_join", "calls")["confidence"] == "EXTRACTED"
    # Inheritance through an import.
    assert g.edge("pkg/app.py::App", "pkg/base.py::Base", "inherits")["confidence"] == "EXTRACTED"
    # Nothing invented for externals, builtins or undefined names.
    targets = {e["target"] for e in g.edges("calls", "other/cli.py::main")}
    assert not any("requests" in t or "len" in t or "undefined" in t for t in targets)
    # Every edge carries a confidence; every non-structural one a file and line.
    for link in g.links:
        assert link["confidence"] in ("EXTRACTED", "INFERRED", "AMBIGUOUS")
        if link["relation"] != "contains":
            assert link["file"] and link["line"] >= 1


def test_name_guesses_are_never_extracted(project):
    root = project(
        {
            "a.py": "class A:\n    def save(self):\n        pass\n",
            "b.py": "class B:\n    def save(self):\n        pass\n",
            "c.py": "class C:\n    def unique_m(self):\n        pass\n",
            "use.py": "def f(x):\n    x.save()\n    x.unique_m()\n",
        }
    )
    g = read_graph(build_graph(root).out_dir)
    saves = g.edges("calls", "use.py::f")
    by_target = {e["target"]: e["confidence"] for e in saves}
    assert by_target["a.py::A.save"] == "AMBIGUOUS"
    assert by_target["b.py::B.save"] == "AMBIGUOUS"
    # One method of that name, on a receiver of unknown type: still a name-only match, so a candidate.
    unique = [e for e in saves if e["target"] == "c.py::C.unique_m"]
    assert unique[0]["confidence"] == "AMBIGUOUS" and "only method of that name" in unique[0]["reason"]


def test_scopes_shadowing_and_class_scope(project):
    root = project(
        {
            "m.py": (
                "def helper():\n    pass\n"
                "def outer():\n"
                "    def helper():\n        pass\n"
                "    helper()\n"
                "class K:\n"
                "    def helper(self):\n        pass\n"
                "    def use(self):\n"
                "        helper()\n"
            )
        }
    )
    g = read_graph(build_graph(root).out_dir)
    # A nested def shadows the module-level one.
    assert g.edges("calls", "m.py::outer", "m.py::outer.helper")
    assert not g.edges("calls", "m.py::outer", "m.py::helper")
    # A method body does not see class-level names: `helper()` is the module function.
    assert g.edges("calls", "m.py::K.use", "m.py::helper")
    assert not g.edges("calls", "m.py::K.use", "m.py::K.helper")


def test_graph_json_is_node_link_of_a_directed_multigraph(project):
    import networkx as nx

    result = build_graph(project(PKG))
    data = result.data()
    assert data["directed"] is True and data["multigraph"] is True
    g = result.graph()
    assert isinstance(g, nx.MultiDiGraph)
    assert g.number_of_nodes() == len(data["nodes"]) == result.summary["nodes"]
    assert g.number_of_edges() == len(data["links"]) == result.summary["edges"]
    # Two calls from one function to another on different lines are two parallel edges, not one.
    assert g.number_of_edges("other/cli.py::main", "pkg/helpers.py::url_for") == 2
    for node_id, attrs in g.nodes(data=True):
        assert {"kind", "name"} <= attrs.keys(), node_id
        if attrs["kind"] != "external":
            assert attrs["file"] and attrs["line"] >= 1
