"""Patterns rewritten for query speed keep their records: positions counted in Python (`@position.item`, Python
`unpack_pairs`), JS/TS methods typed by their parent (`@definition.member`), TS callbacks checked in Python
(`@argument.cbarg`). The expected refs are what the anchored patterns they replaced gave (checked against them on
these inputs, Django and svelte): comments count as positions, an ERROR before a position ends the pairing."""

from __future__ import annotations

from skillbox.graph.extract import extract_source
from skillbox.graph.languages import by_name

PYTHON = b"""a = [f, g.h, i, j, k]
b = (f, # c
  g, h, i)
e = [f, ) g]
a, b, c, d = f, g.h, k(), m.n()
a, (b, c) = f(), (g.x, h())
a, b = (f  # c
  ), g
a, b, c = f, ), g
"""

JS = b"""class A { m() {} #p() {} }
const o = { a() {}, get d() { return 2 } };
export default class B {}
export default function f(x) {}
stream(c, async (s) => s.onAbort());
stream(c, (s: T) => s.x(), (u) => u.y());
new Foo((v) => v.z());
obj.m((w) => w.q());
"""


def test_python_positions():
    record = extract_source(PYTHON, by_name()["python"])
    refs = [r for r in record[2] if r[0] in ("alias", "assign") or r[0].startswith("item")]
    assert refs == [
        ("item0", "f", "a", -1, 1),
        ("item1", "g.h", "a", -1, 1),
        ("item2", "i", "a", -1, 1),
        ("item3", "j", "a", -1, 1),
        ("item0", "f", "b", -1, 2),
        ("item2", "g", "b", -1, 3),
        ("item3", "h", "b", -1, 3),
        ("item0", "f", "e", -1, 4),
        ("alias", "a", "f", -1, 5),
        ("alias", "b", "g.h", -1, 5),
        ("assign", "c", "k", -1, 5),
        ("assign", "a", "f", -1, 6),
        ("alias", "b", "g.x", -1, 6),
        ("alias", "b", "g", -1, 7),
        ("alias", "a", "f", -1, 9),
    ]


def test_js_ts_members_defaults_callbacks():
    defs = [
        ("class", "A", "A"),
        ("method", "A.m", "m"),
        ("method", "A.#p", "#p"),
        ("objmethod", "a", "a"),
        ("objmethod", "d", "d"),
        ("class", "B", "B"),
        ("function", "f", "f"),
    ]
    defaults = [("exportdefault", "B", None, 5, 3), ("exportdefault", "f", None, 6, 4)]
    for lang, callbacks in (
        ("javascript", []),
        ("typescript", [("cbarg", "s", "stream", -1, 5), ("cbarg", "u", "stream", -1, 6)]),
        ("tsx", [("cbarg", "s", "stream", -1, 5), ("cbarg", "u", "stream", -1, 6)]),
    ):
        record = extract_source(JS, by_name()[lang])
        assert [d[:3] for d in record[1]] == defs, lang
        assert [r for r in record[2] if r[0] in ("cbarg", "exportdefault")] == defaults + callbacks, lang
