"""A file's edges may not depend on which other files were resolved before it. The resolver memoises lookups
(`module_attr`, `mro`, `_expression`, `_passed`, decorated values) and cuts them at a depth limit or where they
loop back into a lookup still under way; a memo that kept such a cut (partial) answer handed it to every later
lookup, so the same call resolved or not depending on the order files were resolved in."""

from __future__ import annotations

import pytest

from skillbox.graph.build import DEFAULT_MAX_BYTES, extract, make_plan
from skillbox.graph.resolve import Resolver

# A re-export chain longer than the lookup's depth limit: m22 -> m21 -> ... -> m00, which defines `x`.
CHAIN = {"m00.py": "def x():\n    return 0\n"}
CHAIN.update({f"m{k:02d}.py": f"from m{k - 1:02d} import x\n" for k in range(1, 23)})
CHAIN["far.py"] = "from m22 import x\n\n\ndef use():\n    x()\n"
CHAIN["near.py"] = "from m05 import x\n\n\ndef use():\n    x()\n"

# Star imports in a cycle: a sees b's names, b sees a's and c's; c defines `y`.
CYCLE = {
    "a.py": "from b import *\n",
    "b.py": "from a import *\nfrom c import *\n",
    "c.py": "def y():\n    return 1\n",
    "use_a.py": "from a import y\n\n\ndef use():\n    y()\n",
    "use_b.py": "from b import y\n\n\ndef use():\n    y()\n",
}

# Parameter flow through a mutual recursion: what `cb` holds in `ping` depends on `pong`'s parameter and back.
FLOW = {
    "lib.py": (
        "def ping(cb, n):\n    cb()\n    return pong(cb, n)\n\n\ndef pong(cb, n):\n    cb()\n    return ping(cb, n)\n"
    ),
    "app.py": "from lib import ping\n\n\ndef hello():\n    return 1\n\n\nping(hello, 1)\n",
}


def _records(tmp_path, files):
    tree = tmp_path / "tree"
    tree.mkdir()
    for name, text in files.items():
        (tree / name).write_text(text)
    seconds: dict = {}
    plan = make_plan(tree, tmp_path / "out", True, DEFAULT_MAX_BYTES, seconds, lambda *a: None)
    return extract(plan, 1, seconds, lambda *a: None).records


def _edges(records, order):
    """Each file's call edges when the files are resolved in `order`, against one set of tables."""
    resolver = Resolver(records, frozenset())
    resolver.prepare()
    resolver.resolve_files(order)
    return {path: sorted(e[:3] for e in resolver.file_edges[path] if e[2] == "calls") for path in sorted(order)}


@pytest.mark.parametrize(
    "files, first, then",
    [(CHAIN, "far.py", "near.py"), (CYCLE, "use_b.py", "use_a.py"), (FLOW, "lib.py", "app.py")],
    ids=["depth-limit", "star-cycle", "parameter-cycle"],
)
def test_edges_do_not_depend_on_the_order_files_are_resolved(tmp_path, files, first, then):
    records = _records(tmp_path, files)
    rest = [p for p in sorted(records) if p not in (first, then)]
    one = _edges(records, [*rest, first, then])
    other = _edges(records, [*rest, then, first])
    assert one == other


def test_a_cut_lookup_does_not_hide_a_short_one(tmp_path):
    """`near.py` imports `x` five re-exports from its definition: found, whatever ran before it. `far.py`'s chain
    of 22 is past the re-export limit of one lookup; the value flow then goes on from where the lookup stopped
    (an imported name with no definition: `_imported_value`), and gives the same answer either way."""
    records = _records(tmp_path, CHAIN)
    far = []
    for order in (["far.py", "near.py"], ["near.py", "far.py"]):
        edges = _edges(records, order)
        assert edges["near.py"] == [("near.py::use", "m00.py::x", "calls")]
        far.append(edges["far.py"])
    assert far[0] == far[1]


def test_names_seen_through_a_star_cycle_resolve_from_both_sides(tmp_path):
    records = _records(tmp_path, CYCLE)
    for order in (["use_a.py", "use_b.py"], ["use_b.py", "use_a.py"]):
        edges = _edges(records, order)
        assert edges["use_a.py"] == [("use_a.py::use", "c.py::y", "calls")]
        assert edges["use_b.py"] == [("use_b.py::use", "c.py::y", "calls")]
