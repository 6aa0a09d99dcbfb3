"""tree-sitter's binding initialised with stand-in `collections.namedtuple` and `enum.IntEnum`
(lint/binding_stand_ins.py): the `Point` and `LogType` types they make behave as the real ones do wherever the
binding or code in the same process uses them, and a binding that asks for anything else gets the real modules."""

from __future__ import annotations

import collections
import copy
import enum
import os
import subprocess
import sys
from pathlib import Path

import pytest

from skillbox.lint import binding_stand_ins

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def run(code: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(TOOLS))
    return subprocess.run([sys.executable, "-P", "-c", code], env=env, capture_output=True, text=True)


@pytest.fixture(params=["Point", "Range3"])
def pair(request):
    fields = ["row", "column"] if request.param == "Point" else "start, end step"
    real = collections.namedtuple(request.param, fields, module="tree_sitter")
    ours = binding_stand_ins.namedtuple(request.param, fields, module="tree_sitter")
    return real, ours


def test_a_stand_in_namedtuple_behaves_as_the_real_one(pair):
    real, ours = pair
    arity = len(real._fields)
    a, b = real(*range(3, 3 + arity)), ours(*range(3, 3 + arity))
    assert ours._fields == real._fields and ours.__match_args__ == real.__match_args__
    assert (repr(b), str(b), b, hash(b), tuple(b), len(b)) == (repr(a), str(a), a, hash(a), tuple(a), len(a))
    assert [getattr(b, f) for f in ours._fields] == [getattr(a, f) for f in real._fields]
    assert b._asdict() == a._asdict() and b[-1] == a[-1] and b[:1] == a[:1]
    assert b._replace(**{ours._fields[0]: 9}) == a._replace(**{real._fields[0]: 9})
    assert type(b._replace()) is ours and type(ours._make(range(arity))) is ours
    assert ours(**dict(zip(ours._fields, range(arity), strict=True))) == real(*range(arity))
    assert copy.copy(b) == b and copy.deepcopy(b) == b and b.__getnewargs__() == a.__getnewargs__()
    assert (ours.__module__, ours.__name__, ours.__slots__) == (real.__module__, real.__name__, real.__slots__)
    assert ours.__basicsize__ == tuple.__basicsize__  # the binding gives plain tuples this type
    for wrong in (lambda: ours(*range(arity + 1)), lambda: ours._make(range(arity + 1))):
        with pytest.raises(TypeError):
            wrong()
    with pytest.raises(ValueError):
        b._replace(nope=1)
    with pytest.raises(AttributeError):
        b.row = 5 if "row" in ours._fields else b.start


def test_a_stand_in_int_enum_behaves_as_the_real_one():
    real = enum.IntEnum("LogType", {"PARSE": 0, "LEX": 1})
    ours = binding_stand_ins.IntEnum("LogType", {"PARSE": 0, "LEX": 1})
    for name, number in (("PARSE", 0), ("LEX", 1)):
        a, b = getattr(real, name), getattr(ours, name)
        assert (b.name, b.value, int(b), b == number, hash(b)) == (a.name, a.value, int(a), True, hash(a))
        assert (repr(b), str(b), f"{b}", f"{b:>3}") == (repr(a), str(a), f"{a}", f"{a:>3}")
        assert ours(number) is b and isinstance(b, ours) and isinstance(b, int)
    assert list(ours.__members__) == list(real.__members__)
    with pytest.raises(ValueError):
        ours(7)


def test_stand_ins_never_replace_a_module_already_imported():
    with binding_stand_ins.stand_ins() as stand_ins:  # collections and enum are imported in this process
        assert stand_ins.modules == [] and sys.modules["collections"] is collections


def test_graph_code_after_a_lint_gets_working_points_log_types_and_match_predicates():
    proc = run(
        "import sys\n"
        "from skillbox.lint import grammars\n"
        "assert not {'collections', 'enum', 'functools', 're'} & set(sys.modules), sorted(sys.modules)\n"
        "import tree_sitter, tree_sitter_python\n"
        "parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_python.language()))\n"
        "seen = []\n"
        "parser.logger = lambda log_type, message: seen.append(log_type)\n"
        "tree = parser.parse(b'def f():\\n    return g(1)\\n')\n"
        "call = tree.root_node.children[0].children[-1].children[0].children[1]\n"
        "assert call.type == 'call' and call.start_point == (1, 11) and call.end_point.row == 1, call.start_point\n"
        "row, column = call.end_point\n"
        "assert type(call.start_point) is tree_sitter.Point\n"
        "assert seen and {t.name for t in seen} <= {'PARSE', 'LEX'}\n"
        "assert all(isinstance(t, tree_sitter.LogType) and t == tree_sitter.LogType(int(t)) for t in seen)\n"
        "query = tree_sitter.Query(parser.language, '((identifier) @n (#match? @n \"^g$\"))')\n"
        "names = tree_sitter.QueryCursor(query).captures(tree.root_node)['n']\n"
        "assert [n.text for n in names] == [b'g'], names\n"
        "print('ok')\n"
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


def test_a_binding_that_asks_a_stand_in_for_more_gets_the_real_modules():
    proc = run(
        "import sys\n"
        "from skillbox.lint import binding_stand_ins\n"
        "def asks_more(*args, **kwargs):\n"
        "    raise AttributeError('enum.Flag: a stand-in while the binding initialises')\n"
        "binding_stand_ins.IntEnum = asks_more  # every binding in the pinned range makes LogType\n"
        "from skillbox.lint import grammars\n"
        "import enum\n"
        "assert isinstance(grammars.tree_sitter.LogType, enum.EnumMeta), grammars.tree_sitter.LogType\n"
        "from skillbox.lint.document import parse_document\n"
        "doc = parse_document(b'<div id=\"a\"></div><script>gsap.to(\"#a\", {x: 1})</script>', 'a.html')\n"
        "assert doc.scripts and doc.scripts[0].text.startswith('gsap.to')\n"
        "print('ok')\n"
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr
