"""Python value flow through parameters, decorators and loops: real tree-sitter parsing of small projects.

Each case is one a user relies on when asking "who calls this": a callback passed by name, a decorator that
calls the function it wraps, a `for` loop over an instance, a generator's yielded callable. Every edge drawn by
following a value through a parameter is INFERRED and names the call site it came from.
"""

from __future__ import annotations

from skillbox.graph.build import build_graph
from tests.graph.conftest import read_graph
from tests.graph.test_incremental import age, cold_bytes
from tests.graph.test_incremental_reach import _edit


def _calls(g, source: str) -> dict[str, dict]:
    return {e["target"]: e for e in g.edges("calls", source)}


def _graph(project, files: dict[str, str]):
    root = project(files)
    return read_graph(build_graph(root).out_dir)


def test_a_function_passed_by_position_keyword_or_default_is_what_the_parameter_calls(project):
    g = _graph(
        project,
        {
            "app.py": (
                "def on_done():\n    pass\n"
                "def on_fail():\n    pass\n"
                "def fallback():\n    pass\n"
                "def run(job, done, fail=fallback):\n    done()\n    fail()\n"
                "def unused(cb):\n    cb()\n"
                "run(1, on_done)\n"
                "run(2, on_done, fail=on_fail)\n"
            )
        },
    )
    called = _calls(g, "app.py::run")
    assert {"app.py::on_done", "app.py::on_fail", "app.py::fallback"} <= called.keys()
    done = called["app.py::on_done"]
    assert done["confidence"] == "INFERRED"
    assert "passed to run as done at app.py:" in done["reason"]
    assert "the default of fail" in called["app.py::fallback"]["reason"]
    # A parameter nobody passes anything to stays unresolved: no guess.
    assert _calls(g, "app.py::unused") == {}


def test_a_parameter_shadows_a_module_level_alias_of_the_same_name(project):
    g = _graph(
        project,
        {"m.py": "def real():\n    pass\ndef wrong():\n    pass\ndef call(a):\n    a()\na = wrong\ncall(real)\n"},
    )
    assert set(_calls(g, "m.py::call")) == {"m.py::real"}


def test_an_instance_passed_to_a_constructor_types_the_attribute_it_is_stored_in(project):
    g = _graph(
        project,
        {
            "engine.py": "class Engine:\n    def start(self):\n        pass\n",
            "car.py": (
                "class Car:\n"
                "    def __init__(self, engine):\n        self.engine = engine\n"
                "    def go(self):\n        self.engine.start()\n"
            ),
            "main.py": "from engine import Engine\nfrom car import Car\nCar(Engine()).go()\ne = Engine()\nCar(e)\n",
        },
    )
    start = g.edge("car.py::Car.go", "engine.py::Engine.start", "calls")
    assert start["confidence"] == "INFERRED"
    assert "passed to Car.__init__ as engine at main.py:5" in start["reason"]
    assert "attribute engine set in Car.__init__" in start["reason"]


def test_a_bound_method_passed_on_lands_at_the_parameter_after_self(project):
    g = _graph(
        project,
        {
            "k.py": (
                "class K:\n"
                "    def target(self):\n        pass\n"
                "    def apply(self, fn):\n        fn()\n"
                "k = K()\n"
                "k.apply(k.target)\n"
            )
        },
    )
    assert g.edge("k.py::K.apply", "k.py::K.target", "calls")["confidence"] == "INFERRED"


def test_a_decorator_calls_the_function_it_decorates_and_its_call_runs_in_the_outer_scope(project):
    g = _graph(
        project,
        {
            "d.py": (
                "def register(f):\n    f()\n    return f\n"
                "def route(path):\n    return register\n"
                "@register\ndef handler():\n    pass\n"
                "@route('/')\ndef page():\n    pass\n"
            )
        },
    )
    assert g.edge("d.py::register", "d.py::handler", "calls")["confidence"] == "INFERRED"
    # `route('/')` is evaluated by the module, not by `page`.
    assert g.edges("calls", "d.py", "d.py::route")
    assert not g.edges("calls", "d.py::page", "d.py::route")


def test_a_for_loop_calls_the_iteration_methods_and_binds_what_next_returns(project):
    g = _graph(
        project,
        {
            "it.py": (
                "def job():\n    pass\n"
                "class Jobs:\n"
                "    def __iter__(self):\n        return self\n"
                "    def __next__(self):\n        return job\n"
                "def gen():\n    yield job\n"
                "def loop():\n    for j in Jobs():\n        j()\n"
                "def loop_gen():\n    for j in gen():\n        j()\n"
            )
        },
    )
    called = _calls(g, "it.py::loop")
    assert called["it.py::Jobs.__iter__"]["confidence"] == "EXTRACTED"
    assert called["it.py::Jobs.__next__"]["confidence"] == "INFERRED"  # on what __iter__ returns
    assert "it.py::job" in called
    yielded = _calls(g, "it.py::loop_gen")["it.py::job"]
    assert yielded["confidence"] == "INFERRED" and "yielded by gen" in yielded["reason"]


def test_a_chained_assignment_binds_both_names(project):
    g = _graph(project, {"c.py": "def f():\n    pass\ndef main():\n    a = b = f\n    a()\n    b()\n"})
    assert len(g.edges("calls", "c.py::main", "c.py::f")) == 2


PASSING = {
    "lib.py": "def run(cb):\n    cb()\n",
    "jobs.py": "def first():\n    pass\n\n\ndef second():\n    pass\n",
    "main.py": "from lib import run\nfrom jobs import first, second\n\n\ndef go():\n    run(first)\n",
    "other.py": "def unrelated():\n    return 1\n",
}


def test_editing_a_call_site_re_resolves_the_function_it_passes_to_and_equals_a_cold_build(project, tmp_path):
    root = project(PASSING)
    age(root)
    build_graph(root)
    for what, rel, old, new in [
        ("another callable passed", "main.py", "run(first)", "run(second)"),
        ("the passed function renamed", "jobs.py", "def second():", "def second_renamed():"),
    ]:
        _edit(root / rel, old, new)
        result = build_graph(root)
        assert (root / "skillbox-out" / "graph.json").read_bytes() == cold_bytes(root, tmp_path, what), what
        assert result.summary["resolved_again"] < result.summary["files"], what
    g = read_graph(root / "skillbox-out")
    assert not g.edges("calls", "lib.py::run")  # `second` is gone: nothing left to call
    # A function added next to a followed parameter reaches no one through it: only its own file is resolved.
    _edit(root / "lib.py", None, "\n\ndef helper():\n    return 2\n")
    result = build_graph(root)
    assert (root / "skillbox-out" / "graph.json").read_bytes() == cold_bytes(root, tmp_path, "helper added")
    assert result.summary["resolved_again"] == 1


def test_calling_a_decorated_name_also_reaches_the_wrapper_its_decorator_returns(project):
    g = _graph(
        project,
        {
            "w.py": (
                "def logged(f):\n"
                "    def inner():\n        return f()\n"
                "    return inner\n"
                "def keep(f):\n    return f\n"
                "@logged\ndef work():\n    pass\n"
                "@keep\ndef plain():\n    pass\n"
                "def main():\n    work()\n    plain()\n"
            )
        },
    )
    called = _calls(g, "w.py::main")
    assert called["w.py::work"]["confidence"] == "EXTRACTED"  # the name itself stays the fact
    wrapper = called["w.py::logged.inner"]
    assert wrapper["confidence"] == "INFERRED" and "@logged returns logged.inner" in wrapper["reason"]
    assert g.edge("w.py::logged.inner", "w.py::work", "calls")["confidence"] == "INFERRED"
    # A decorator that hands the function back adds nothing.
    assert set(called) == {"w.py::work", "w.py::logged.inner", "w.py::plain"}


def test_builtins_that_call_their_argument_draw_the_call(project):
    g = _graph(
        project,
        {
            "b.py": (
                "def double(x):\n    return x\n"
                "def size(x):\n    return x\n"
                "def main(xs):\n    map(double, xs)\n    sorted(xs, key=size)\n    print(double)\n"
            )
        },
    )
    called = _calls(g, "b.py::main")
    assert set(called) == {"b.py::double", "b.py::size"}  # `print` does not call what it is given
    assert called["b.py::double"]["reason"] == "called by the builtin map"


def test_dict_update_nested_tuples_and_called_values_held_in_a_dict(project):
    g = _graph(
        project,
        {
            "h.py": (
                "def old():\n    pass\n"
                "def new():\n    pass\n"
                "def make():\n    return new\n"
                "def f():\n    pass\n"
                "def g():\n    pass\n"
                "def by_update():\n"
                "    d = {'a': old}\n    d.update({'a': new})\n    d['a']()\n"
                "def by_call():\n"
                "    d = {'a': make()}\n    d['a']()\n"
                "def by_tuple():\n"
                "    a, (b, c) = old, (f, g)\n    b()\n    c()\n"
            )
        },
    )
    assert set(_calls(g, "h.py::by_update")) == {"h.py::new"}
    assert "h.py::new" in _calls(g, "h.py::by_call")
    assert {"h.py::f", "h.py::g"} <= set(_calls(g, "h.py::by_tuple"))


def test_decorating_a_function_re_resolves_its_callers_and_equals_a_cold_build(project, tmp_path):
    files = {
        "deco.py": "def logged(f):\n    def inner():\n        return f()\n    return inner\n",
        "work.py": "from deco import logged\n\n\ndef work():\n    pass\n",
        "use.py": "from work import work\n\n\ndef main():\n    work()\n",
        "other.py": "def unrelated():\n    return 1\n",
    }
    root = project(files)
    age(root)
    build_graph(root)
    _edit(root / "work.py", "def work():", "@logged\ndef work():")
    result = build_graph(root)
    assert (root / "skillbox-out" / "graph.json").read_bytes() == cold_bytes(root, tmp_path, "decorated")
    assert result.summary["resolved_again"] < result.summary["files"]
    assert read_graph(root / "skillbox-out").edges("calls", "use.py::main", "deco.py::logged.inner")
