"""Incremental builds: the same bytes as a cold build, no ghosts, corrupt caches detected and rebuilt."""

from __future__ import annotations

import marshal
import os
import shutil
import time

import pytest

from skillbox.graph.build import build_graph
from skillbox.graph.graph_json import write_graph
from tests.graph.conftest import read_graph

FILES = {
    "pkg/__init__.py": "from .core import run, Engine\n",
    "pkg/core.py": (
        "from .util import helper\n"
        "class Engine:\n"
        "    def start(self):\n"
        "        return helper(self.stop())\n"
        "    def stop(self):\n"
        "        pass\n"
        "def run():\n"
        "    return Engine().start()\n"
    ),
    "pkg/util.py": "def helper(x):\n    return x\n\ndef unused():\n    pass\n",
    "app.py": "from pkg import run\nfrom pkg.util import unused\n\ndef main():\n    run()\n    unused()\n",
    "README.md": "# Project\n\nCall `run` from `pkg`. See [util](pkg/util.py).\n",
}


def age(root):
    """Put every file's mtime safely in the past so the stat index may trust it (no racy-mtime re-hash)."""
    past = time.time() - 60
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            os.utime(os.path.join(dirpath, name), (past, past))


def cold_bytes(root, tmp_path, name="cold") -> bytes:
    out = tmp_path / name
    shutil.rmtree(out, ignore_errors=True)
    build_graph(root, out)
    return (out / "graph.json").read_bytes()


def test_two_cold_builds_are_byte_identical_in_process_and_pooled(flask_tree, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    stages = []
    build_graph(flask_tree, a, jobs=1)
    build_graph(flask_tree, b, jobs=2, progress=lambda stage, done, total: stages.append((stage, done, total)))
    assert (a / "graph.json").read_bytes() == (b / "graph.json").read_bytes()
    # Progress is reported per stage, extraction batch by batch, ending with every file done.
    names = [stage for stage, _done, _total in stages]
    assert names[0] == "walk" and names.index("resolve") < names.index("write")
    extract = [(done, total) for stage, done, total in stages if stage == "extract"]
    assert len(extract) > 1 and extract[-1][0] == extract[-1][1] > 100


def test_incremental_after_edits_equals_cold(tmp_path, project):
    root = project(FILES)
    age(root)
    first = build_graph(root)
    assert first.summary["cache"]["misses"] == len(FILES)

    # Edit one file (new function, changed calls), delete one, add one.
    (root / "pkg" / "util.py").write_text(
        "def helper(x):\n    return brand_new(x)\n\ndef brand_new(y):\n    return y\n"
    )
    (root / "README.md").unlink()
    (root / "pkg" / "extra.py").write_text("from .util import brand_new\n\ndef more():\n    brand_new(1)\n")
    result = build_graph(root)
    assert result.summary["cache"] == {"hits": 3, "misses": 2, "corrupt": 0}
    incremental = (root / "skillbox-out" / "graph.json").read_bytes()
    assert incremental == cold_bytes(root, tmp_path)

    g = read_graph(root / "skillbox-out")
    # No ghosts: nothing from the deleted file or the removed function survives.
    assert "README.md" not in g.nodes
    assert "pkg/util.py::unused" not in g.nodes
    assert not [e for e in g.links if "README.md" in (e["source"], e["target"]) or e.get("file") == "README.md"]
    assert not [e for e in g.links if e["target"] == "pkg/util.py::unused"]
    g.edge("pkg/extra.py::more", "pkg/util.py::brand_new", "calls")


def test_no_change_build_reads_nothing_and_touch_does_not_rebuild(tmp_path, project):
    root = project(FILES)
    age(root)
    build_graph(root)
    before = (root / "skillbox-out" / "graph.json").stat().st_mtime_ns
    again = build_graph(root)
    assert again.up_to_date and again.summary["cache"]["misses"] == 0
    # Touching a file (same content) re-hashes it but keeps the graph file as it was.
    os.utime(root / "pkg" / "core.py")
    touched = build_graph(root)
    assert touched.up_to_date
    assert touched.summary["cache"]["misses"] == 0
    assert (root / "skillbox-out" / "graph.json").stat().st_mtime_ns == before
    # A hand-edited or deleted graph.json is rebuilt.
    (root / "skillbox-out" / "graph.json").unlink()
    rebuilt = build_graph(root)
    assert not rebuilt.up_to_date
    assert (root / "skillbox-out" / "graph.json").read_bytes() == cold_bytes(root, tmp_path)


def test_force_reextracts_everything(tmp_path, project):
    root = project(FILES)
    build_graph(root)
    forced = build_graph(root, force=True)
    assert forced.summary["cache"]["misses"] == len(FILES)
    assert forced.summary["cache"]["hits"] == 0


def corrupt_one_entry(pack_path) -> None:
    pack = marshal.loads(pack_path.read_bytes())
    key = sorted(pack)[0]
    blob = bytearray(pack[key])
    blob[-3] ^= 0xFF  # flip bits inside the payload: the checksum must catch it
    pack[key] = bytes(blob)
    pack_path.write_bytes(marshal.dumps(pack))


@pytest.mark.parametrize("damage", ["flip", "truncate", "garbage", "index"])
def test_corrupt_cache_is_detected_discarded_and_rebuilt(tmp_path, project, damage):
    root = project(FILES)
    age(root)
    build_graph(root)
    cache = root / "skillbox-out" / "cache"
    if damage == "flip":
        corrupt_one_entry(cache / "records.bin")
    elif damage == "truncate":
        data = (cache / "records.bin").read_bytes()
        (cache / "records.bin").write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        (cache / "records.bin").write_bytes(b"\x00not a pack")
    else:
        (cache / "index.bin").write_bytes(b"SBXR2" + b"\x01" * 40)
    # An edit elsewhere forces a real (non no-change) build that must consult the damaged cache.
    (root / "app.py").write_text("from pkg import run\n\ndef main():\n    run()\n")
    result = build_graph(root)
    if damage == "flip":
        assert result.summary["cache"]["corrupt"] == 1
    assert (root / "skillbox-out" / "graph.json").read_bytes() == cold_bytes(root, tmp_path)
    # And the cache is healthy again afterwards.
    again = build_graph(root, force=False)
    assert again.summary["cache"]["corrupt"] == 0


def test_failed_write_leaves_previous_graph_intact(tmp_path):
    out = tmp_path / "graph.json"
    write_graph(out, [{"id": "a", "kind": "file", "name": "a"}], [])
    before = out.read_bytes()
    with pytest.raises(TypeError):
        write_graph(out, [{"id": "b", "bad": object()}], [])
    assert out.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["graph.json"]


def test_edit_on_real_tree_equals_cold(flask_tree, tmp_path):
    root = tmp_path / "flask"
    shutil.copytree(flask_tree, root)
    age(root)
    build_graph(root)
    helpers = root / "src" / "flask" / "helpers.py"
    text = helpers.read_text()
    helpers.write_text(text.replace("def url_for(", "def url_for_renamed(", 1) + "\n\ndef url_for(*a):\n    pass\n")
    (root / "src" / "flask" / "logging.py").unlink()
    result = build_graph(root)
    assert result.summary["cache"]["misses"] == 1
    assert (root / "skillbox-out" / "graph.json").read_bytes() == cold_bytes(root, tmp_path)


def test_body_edit_resolves_only_that_file_and_still_equals_cold(flask_tree, tmp_path):
    root = tmp_path / "flask"
    shutil.copytree(flask_tree, root)
    age(root)
    build_graph(root)
    helpers = root / "src" / "flask" / "helpers.py"
    text = helpers.read_text()
    # A body edit: new calls and shifted lines, same definitions and imports.
    helpers.write_text(text.replace("def url_for(", "# moved down a line\ndef url_for(", 1) + "\n# trailing note\n")
    assert "def get_debug_flag(" in text
    result = build_graph(root)
    assert result.summary["cache"]["misses"] == 1
    assert result.summary["resolved_again"] == 1
    assert (root / "skillbox-out" / "graph.json").read_bytes() == cold_bytes(root, tmp_path)


def test_a_returned_local_is_part_of_the_interface(tmp_path, project):
    """`connect()` returns its local `c`: when the body gives `c` another class, the files that call
    `connect().send()` are resolved again (an edit that moves no definition nor import)."""
    files = {
        "lib/client.ts": (
            "export class Client {\n  send() {}\n}\nexport class Other {\n  send() {}\n}\n"
            "export function connect() {\n  const c = new Client();\n  return c;\n}\n"
        ),
        "lib/use.ts": "import { connect } from './client';\nexport function run() {\n  connect().send();\n}\n",
    }
    root = project(files)
    age(root)
    build_graph(root)
    client = root / "lib" / "client.ts"
    client.write_text(client.read_text().replace("new Client()", "new Other()"))
    result = build_graph(root)
    assert result.summary["resolved_again"] == 2
    graph = read_graph(root / "skillbox-out")
    assert graph.edges("calls", "lib/use.ts::run", "lib/client.ts::Other.send")
    assert (root / "skillbox-out" / "graph.json").read_bytes() == cold_bytes(root, tmp_path)


def test_a_grammar_upgrade_invalidates_that_language_only(tmp_path, project, monkeypatch):
    """The record cache is keyed by the installed grammar release (read from its dist-info folder, without
    importlib.metadata): a new tree-sitter-python re-extracts the Python files and nothing else."""
    from importlib import metadata

    import skillbox.graph.cache as cache_mod

    expected = f"tree_sitter_python-{metadata.version('tree-sitter-python')}"
    assert cache_mod.grammar_build("tree_sitter_python") == expected
    assert cache_mod.grammar_build("no_such_grammar_module") == "no_such_grammar_module"

    root = project(FILES)
    age(root)
    build_graph(root)
    real = cache_mod.grammar_build
    monkeypatch.setattr(
        cache_mod, "grammar_build", lambda module: real(module) + ("+upgrade" if module == "tree_sitter_python" else "")
    )
    cache_mod.language_epoch.cache_clear()
    try:
        again = build_graph(root)
    finally:
        cache_mod.language_epoch.cache_clear()
    python_files = sum(1 for rel in FILES if rel.endswith(".py"))
    assert not again.up_to_date
    assert again.summary["cache"] == {"hits": len(FILES) - python_files, "misses": python_files, "corrupt": 0}
    assert (root / "skillbox-out" / "graph.json").read_bytes() == cold_bytes(root, tmp_path)
