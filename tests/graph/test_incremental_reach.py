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


def _replace(path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1))


def _append(path, text: str) -> None:
    path.write_text(path.read_text() + text)


def test_interface_edits_reuse_unreached_files_and_equal_cold(flask_tree, tmp_path):
    root = tmp_path / "flask"
    shutil.copytree(flask_tree, root)
    src = root / "src" / "flask"
    age(root)
    build_graph(root)
    edits = [
        # (what, edit, selective: re-resolves only some files)
        (
            "new uniquely named function",
            lambda: _append(src / "helpers.py", "\n\ndef brand_new_helper():\n    return url_for('x')\n"),
            True,
        ),
        (
            "function named like one elsewhere",
            lambda: _append(src / "ctx.py", "\n\ndef get_debug_flag():\n    return False\n"),
            True,
        ),
        (
            "method added to a base class",
            lambda: _replace(
                src / "sansio" / "scaffold.py",
                "    def __repr__(self) -> str:",
                "    def dispatch_request(self):\n        return None\n\n    def __repr__(self) -> str:",
            ),
            True,
        ),
        (
            "method renamed",
            lambda: _replace(
                src / "sansio" / "app.py", "    def iter_blueprints(self)", "    def iter_blueprints_gone(self)"
            ),
            True,
        ),
        (
            "function removed",
            lambda: _replace(src / "helpers.py", "def get_load_dotenv(", "def get_load_dotenv_moved("),
            True,
        ),
        (
            "function inserted before the others (every later index shifts)",
            lambda: _replace(
                src / "cli.py",
                "\nclass NoAppException(",
                "\ndef inserted_first():\n    return ScriptInfo()\n\n\nclass NoAppException(",
            ),
            True,
        ),
        (
            "a doc mentions a name nothing defines yet",
            lambda: _append(root / "README.md", "\nSee `mentioned_later`.\n"),
            True,
        ),
        (
            "the mentioned name gets defined",
            lambda: _append(src / "helpers.py", "\n\ndef mentioned_later():\n    pass\n"),
            True,
        ),
        (
            "bases changed",
            lambda: _replace(src / "sansio" / "app.py", "class App(Scaffold):", "class App(Scaffold, object):"),
            False,
        ),
        (
            "import added",
            lambda: _replace(src / "helpers.py", "import importlib.util\n", "import importlib.util\nimport json\n"),
            False,
        ),
    ]
    for what, edit, selective in edits:
        edit()
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
