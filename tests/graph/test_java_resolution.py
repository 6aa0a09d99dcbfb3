"""Java calls resolved the way javac resolves them (bench/graph_oracles.py `java` is the outside check): receivers
typed by declarations (locals, parameters, fields, `var x = new C()`), same-package types without an import,
declared return types through builder chains, static and nested-class imports, inherited members by bare name,
enum constants; library and java.lang receivers never bound to repository methods; overloads across a class
hierarchy said to be a guess. Plus the rules every language shares: a local variable shadows a function of the
same name as a receiver, and an instance of a library type is the library's. Real tree-sitter parsing."""

from __future__ import annotations

from tests.graph.conftest import calls, graph_of

MAIN = "src/main/java/com/acme/"
TEST = "src/test/java/com/acme/"


def one(g, source, target):
    found = calls(g, source, target)
    assert len(found) == 1, (source, target, found)
    return found[0]


BUILDER = (
    "package com.acme;\n"
    "public class Builder {\n"
    "  public Builder name(String n) { return this; }\n"
    "  public Builder size(int s) { return this; }\n"
    "  public Widget build() { return new Widget(); }\n"
    "}\n"
)
WIDGET = (
    "package com.acme;\n"
    "public class Widget {\n"
    "  public static final Widget EMPTY = new Widget();\n"
    "  public void draw() {}\n"
    "  public void put(String k) {}\n"
    '  public String toString() { return "w"; }\n'
    "}\n"
)


def test_typed_fields_locals_and_same_package_types_resolve_for_sure(project):
    g = graph_of(
        project,
        {
            MAIN + "Builder.java": BUILDER,
            MAIN + "Widget.java": WIDGET,
            # Same package, another source root, no import: the package makes Widget visible.
            TEST + "WidgetTest.java": (
                "package com.acme;\n"
                "class WidgetTest {\n"
                "  private Widget widget;\n"
                "  void drawsTheField() { widget.draw(); }\n"
                "  void drawsALocal() { Widget w = new Widget(); w.draw(); }\n"
                "  void drawsAVar() { var v = new Widget(); v.draw(); }\n"
                "  void drawsAParameter(Widget p) { p.draw(); }\n"
                "  void drawsTheConstant() { Widget.EMPTY.draw(); }\n"
                "}\n"
            ),
        },
    )
    draw = MAIN + "Widget.java::Widget.draw"
    for method in ("drawsTheField", "drawsALocal", "drawsAVar", "drawsAParameter", "drawsTheConstant"):
        assert one(g, f"{TEST}WidgetTest.java::WidgetTest.{method}", draw)["confidence"] == "EXTRACTED", method
    assert one(g, TEST + "WidgetTest.java::WidgetTest.drawsALocal", MAIN + "Widget.java::Widget")["confidence"] == (
        "EXTRACTED"
    )


def test_builder_chains_follow_declared_return_types(project):
    g = graph_of(
        project,
        {
            MAIN + "Builder.java": BUILDER,
            MAIN + "Widget.java": WIDGET,
            MAIN + "App.java": (
                "package com.acme;\n"
                "class App {\n"
                "  void run() {\n"
                "    new Builder()\n"
                '        .name("a")\n'
                "        .size(compute(1, 2))\n"
                "        .build()\n"
                "        .draw();\n"
                "  }\n"
                "  int compute(int a, int b) { return a + b; }\n"
                "}\n"
            ),
        },
    )
    run = MAIN + "App.java::App.run"
    assert one(g, run, MAIN + "Builder.java::Builder.name")["confidence"] == "EXTRACTED"
    size = one(g, run, MAIN + "Builder.java::Builder.size")
    assert size["confidence"] == "INFERRED" and "returned by Builder.name" in size["reason"]
    assert "returned by Builder.build" in one(g, run, MAIN + "Widget.java::Widget.draw")["reason"]


def test_library_and_java_lang_receivers_never_bind_to_repository_methods(project):
    g = graph_of(
        project,
        {
            MAIN + "Widget.java": WIDGET,
            MAIN + "Use.java": (
                "package com.acme;\n"
                "import java.util.Map;\n"
                "import java.util.HashMap;\n"
                "import static org.junit.Assert.assertEquals;\n"
                "class Use {\n"
                "  private final Map<String, Widget> byName = new HashMap<>();\n"
                "  void fill(Object o, String s) {\n"
                '    byName.put("a", null);\n'
                "    Map.of();\n"
                "    s.toString();\n"
                "    o.toString();\n"
                "    String.valueOf(1);\n"
                "    assertEquals(1, 1);\n"
                "  }\n"
                "}\n"
            ),
        },
    )
    assert not calls(g, target=MAIN + "Widget.java::Widget.put")
    assert not calls(g, target=MAIN + "Widget.java::Widget.toString")
    assert not calls(g, source=MAIN + "Use.java::Use.fill")


def test_a_local_variable_shadows_a_method_of_the_same_name(project):
    g = graph_of(
        project,
        {
            MAIN + "Widget.java": WIDGET,
            MAIN + "Reader.java": (
                "package com.acme;\n"
                "class Reader {\n"
                "  static Widget widget(String s) { return new Widget(); }\n"
                "  void run() {\n"
                '    Widget widget = widget("x");\n'
                "    widget.draw();\n"
                "  }\n"
                "}\n"
            ),
        },
    )
    assert one(g, MAIN + "Reader.java::Reader.run", MAIN + "Widget.java::Widget.draw")["confidence"] == "EXTRACTED"


def test_static_and_nested_class_imports_and_inherited_members(project):
    g = graph_of(
        project,
        {
            MAIN + "util/Strings.java": (
                "package com.acme.util;\n"
                "public class Strings {\n"
                "  public static String trimAll(String s) { return s; }\n"
                '  public static class Joiner { public String join() { return ""; } }\n'
                "}\n"
            ),
            MAIN + "Base.java": (
                "package com.acme;\n"
                "import com.acme.util.Strings.Joiner;\n"
                "class Base {\n"
                "  protected Joiner joiner = new Joiner();\n"
                "  void check(int x) {}\n"
                "}\n"
            ),
            MAIN + "Child.java": (
                "package com.acme;\n"
                "import static com.acme.util.Strings.trimAll;\n"
                "class Child extends Base {\n"
                "  void run() {\n"
                '    trimAll(" a ");\n'
                "    check(1);\n"
                "    joiner.join();\n"
                "  }\n"
                "}\n"
            ),
        },
    )
    run = MAIN + "Child.java::Child.run"
    assert one(g, run, MAIN + "util/Strings.java::Strings.trimAll")["confidence"] == "EXTRACTED"
    inherited = one(g, run, MAIN + "Base.java::Base.check")
    assert inherited["confidence"] == "INFERRED" and inherited["reason"] == "inherited method"
    assert one(g, run, MAIN + "util/Strings.java::Strings.Joiner.join")["confidence"] == "EXTRACTED"


def test_overloads_across_a_hierarchy_are_a_guess_and_overrides_are_not(project):
    g = graph_of(
        project,
        {
            MAIN + "Shape.java": (
                "package com.acme;\n"
                "class Shape {\n"
                "  static Shape get(int sides) { return null; }\n"
                "  static Shape get(String name) { return null; }\n"
                "  void draw() {}\n"
                "}\n"
            ),
            MAIN + "Square.java": (
                "package com.acme;\n"
                "class Square extends Shape {\n"
                "  static Square get(double side) { return null; }\n"
                "  void draw() {}\n"
                "  void area(int a) {}\n"
                "  void area(int a, int b) {}\n"
                "}\n"
            ),
            MAIN + "Use.java": (
                "package com.acme;\n"
                "class Use {\n"
                "  void run(Square s) {\n"
                '    Square.get("x");\n'
                "    s.draw();\n"
                "    s.area(1);\n"
                "  }\n"
                "}\n"
            ),
        },
    )
    run = MAIN + "Use.java::Use.run"
    overloaded = one(g, run, MAIN + "Square.java::Square.get")
    assert overloaded["confidence"] == "INFERRED" and "overloaded in a base class" in overloaded["reason"]
    assert one(g, run, MAIN + "Square.java::Square.draw")["confidence"] == "EXTRACTED"  # an override
    assert one(g, run, MAIN + "Square.java::Square.area")["confidence"] == "EXTRACTED"  # overloads of one class


def test_python_local_shadows_a_function_and_library_instances_stay_the_librarys(project):
    g = graph_of(
        project,
        {
            "store.py": "class Store:\n    def mount(self):\n        pass\n    def fetch(self):\n        pass\n",
            "use.py": (
                "import requests\n"
                "from store import Store\n"
                "def store():\n"
                "    return Store()\n"
                "def run():\n"
                "    store = Store()\n"
                "    store.fetch()\n"
                "    session = requests.Session()\n"
                "    session.mount('x', None)\n"
            ),
        },
    )
    assert one(g, "use.py::run", "store.py::Store.fetch")["confidence"] == "EXTRACTED"
    assert not calls(g, target="store.py::Store.mount")


def test_javascript_builtin_instances_and_argument_chains(project):
    g = graph_of(
        project,
        {
            "cache.js": (
                "export class Cache {\n"
                "  set(k, v) { return this; }\n"
                "  has(k) { return false; }\n"
                "}\n"
                "export function make(size) { return new Cache(); }\n"
            ),
            "use.js": (
                "import { Cache, make } from './cache.js';\n"
                "export function run() {\n"
                "  const seen = new Map();\n"
                "  seen.set('a', 1);\n"
                "  new Cache(10).has('a');\n"
                "}\n"
            ),
        },
    )
    assert not calls(g, target="cache.js::Cache.set")
    assert one(g, "use.js::run", "cache.js::Cache.has")["confidence"] == "EXTRACTED"  # was "?", a guess
