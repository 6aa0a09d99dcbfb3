"""The argument facts of Python calls (`arg0`, `arg1`, `argkw`), read off each call node by the python hook.

Parameter flow (resolve.py) follows a function passed to another; these facts are what it follows. Checked on
real tree-sitter parses: which arguments are recorded, under which callee, and which callees never are.
"""

from __future__ import annotations

from skillbox.graph.worker import extract_bytes

SOURCE = b"""
def handler():
    pass


def other():
    pass


run(handler)
run(1, handler)
run("x", handler, other)
run(on_done=handler, retries=3)
app.routes.add(  # a comment between the parentheses
    handler,
)
outer(inner(handler))
len(handler)
isinstance(handler, object)


class T:
    def test(self):
        self.assertEqual(handler, other)
        self.check(handler)
"""


def _args() -> list[tuple]:
    record, reason = extract_bytes(SOURCE, "python")
    assert reason is None
    refs = record[2]
    return [(r[0], r[1], r[2], r[4]) for r in refs if r[0] in ("arg0", "arg1", "argkw")]


def test_positions_keywords_and_callees_are_recorded():
    args = _args()
    assert ("arg0", "handler", "run", 10) in args
    assert ("arg1", "handler", "run", 11) in args
    assert ("arg1", "handler", "run", 12) in args
    assert not any(a[1] == "other" and a[3] == 12 for a in args)  # the third position is not followed
    assert ("argkw", "on_done=handler", "run", 13) in args
    assert ("arg0", "handler", "app.routes.add", 15) in args  # the comment is no argument position
    assert ("arg0", "handler", "inner", 17) in args
    assert not any(a[2] == "outer" for a in args)  # a call passed is no name
    assert ("arg0", "handler", "self.check", 25) in args


def test_builtins_and_assertions_record_no_arguments():
    callees = {a[2] for a in _args()}
    assert not callees & {"len", "isinstance", "self.assertEqual"}
