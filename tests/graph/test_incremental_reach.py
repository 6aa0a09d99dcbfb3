"""Interface edits re-resolve only the files a changed name can reach, and the graph still equals a cold build.

Each edit below changes some file's interface (what other files can see of it). The build re-resolves the edited
files plus every file that mentions a changed name, and copies every other file's block from the previous
graph.json. The invariant that makes this safe to ship: after every edit, graph.json is byte for byte what a cold
build of the same tree writes.
"""

from __future__ import annotations

import shutil

from skillbox.graph.build import build_graph
from tests.graph.conftest import read_graph
from tests.graph.test_incremental import age, cold_bytes

# (what, file, text replaced or None to append, new text, selective: re-resolves only some files)
EDITS = [
    (
        "new uniquely named function",
        "src/flask/helpers.py",
        None,
        "\n\ndef brand_new_helper():\n    return url_for('x')\n",
        True,
    ),
    (
        "function named like one elsewhere",
        "src/flask/ctx.py",
        None,
        "\n\ndef get_debug_flag():\n    return False\n",
        True,
    ),
    (
        "method added to a base class",
        "src/flask/sansio/scaffold.py",
        "    def __repr__(self) -> str:",
        "    def dispatch_request(self):\n        return None\n\n    def __repr__(self) -> str:",
        True,
    ),
    (
        "method renamed",
        "src/flask/sansio/app.py",
        "    def iter_blueprints(self)",
        "    def iter_blueprints_gone(self)",
        True,
    ),
    ("function removed", "src/flask/helpers.py", "def get_load_dotenv(", "def get_load_dotenv_moved(", True),
    (
        "function inserted before the others (every later index shifts)",
        "src/flask/cli.py",
        "\nclass NoAppException(",
        "\ndef inserted_first():\n    return ScriptInfo()\n\n\nclass NoAppException(",
        True,
    ),
    ("a doc mentions a name nothing defines yet", "README.md", None, "\nSee `mentioned_later`.\n", True),
    ("the mentioned name gets defined", "src/flask/helpers.py", None, "\n\ndef mentioned_later():\n    pass\n", True),
    ("bases changed", "src/flask/sansio/app.py", "class App(Scaffold):", "class App(Scaffold, object):", False),
    ("import added", "src/flask/helpers.py", "import importlib.util\n", "import importlib.util\nimport json\n", False),
]


def _edit(path, old: str | None, new: str) -> None:
    text = path.read_text()
    if old is None:
        path.write_text(text + new)
    else:
        assert old in text, (path, old)
        path.write_text(text.replace(old, new, 1))


def test_interface_edits_reuse_unreached_files_and_equal_cold(flask_tree, tmp_path):
    root = tmp_path / "flask"
    shutil.copytree(flask_tree, root)
    age(root)
    build_graph(root)
    for what, rel, old, new, selective in EDITS:
        _edit(root / rel, old, new)
        result = build_graph(root)
        files, again = result.summary["files"], result.summary["resolved_again"]
        assert (root / "skillbox-out" / "graph.json").read_bytes() == cold_bytes(root, tmp_path, what), what
        if what == "the mentioned name gets defined":
            links = read_graph(root / "skillbox-out").links
            assert [
                e
                for e in links
                if e["source"].startswith("README.md")
                and e["target"] == "src/flask/helpers.py::mentioned_later"
                and e["relation"] == "documents"
            ]
        if selective:
            assert again < files / 2, (what, again, files)
        else:
            assert again == files, (what, again, files)


FLOW = {
    "pkg/__init__.py": "",
    "pkg/engine.py": (
        "class Engine:\n    def start(self):\n        pass\n\n\nclass Motor:\n    def start(self):\n        pass\n"
    ),
    "pkg/factory.py": (
        "from pkg.engine import Engine, Motor\n\n\n"
        "def make():\n    return Engine()\n\n\n"
        "class Car:\n    def __init__(self):\n        self.engine = Engine()\n"
    ),
    "pkg/use.py": (
        "from pkg.factory import make, Car\n\n\ndef run(car: Car):\n    make().start()\n    car.engine.start()\n"
    ),
    "pkg/other.py": "def unrelated():\n    return 1\n",
}

FLOW_EDITS = [
    ("a function returns another class", "pkg/factory.py", "    return Engine()", "    return Motor()"),
    ("an attribute holds another class", "pkg/factory.py", "self.engine = Engine()", "self.engine = Motor()"),
    ("lines shift above the attribute", "pkg/factory.py", "class Car:\n", "# moved\n\n\nclass Car:\n"),
]


def test_value_flow_edits_in_one_file_reach_the_files_that_use_them(project, tmp_path):
    """What `use.py`'s calls resolve to depends on what `factory.py` returns and assigns: editing those must
    re-resolve `use.py` (the graph equals a cold build), while a file that names none of it is reused."""
    root = project(FLOW)
    age(root)
    build_graph(root)
    for what, rel, old, new in FLOW_EDITS:
        _edit(root / rel, old, new)
        result = build_graph(root)
        assert (root / "skillbox-out" / "graph.json").read_bytes() == cold_bytes(root, tmp_path, what), what
        assert result.summary["resolved_again"] < result.summary["files"], what
    links = read_graph(root / "skillbox-out").links
    targets = {e["target"] for e in links if e["source"] == "pkg/use.py::run" and e["relation"] == "calls"}
    assert "pkg/engine.py::Motor.start" in targets and "pkg/engine.py::Engine.start" not in targets
