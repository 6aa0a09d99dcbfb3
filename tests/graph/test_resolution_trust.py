"""Edges an agent can trust: literal and builtin receivers never bind to repository methods, object-literal
methods stay in their object, value flow (aliases, constructors, returns, attributes, held callables, C3 method
order) resolves calls, and every guess carries its reason. Real tree-sitter parsing of small sources."""

from __future__ import annotations

from tests.graph.conftest import calls, graph_of


def test_python_literal_and_builtin_receivers_do_not_bind_to_repo_methods(project):
    g = graph_of(
        project,
        {
            "text.py": "class Text:\n    def join(self, parts):\n        pass\n    def get(self, key):\n        pass\n",
            "use.py": (
                "def render(parts, mapping, raw):\n"
                "    a = ', '.join(parts)\n"
                "    b = [1, 2].index(1)\n"
                "    c = mapping.get('k')\n"
                "    d = str.join('-', parts)\n"
                "    return raw.join(parts)\n"
            ),
        },
    )
    assert not calls(g, target="text.py::Text.join")
    assert not calls(g, target="text.py::Text.get")


def test_python_value_flow_resolves_aliases_instances_returns_and_attributes(project):
    g = graph_of(
        project,
        {
            "main.py": (
                "class Engine:\n"
                "    def start(self):\n"
                "        pass\n"
                "class Car:\n"
                "    def __init__(self):\n"
                "        self.engine = Engine()\n"
                "    def drive(self):\n"
                "        self.engine.start()\n"
                "def helper():\n"
                "    pass\n"
                "def make():\n"
                "    return Engine()\n"
                "def pick():\n"
                "    return helper\n"
                "def main():\n"
                "    a = helper\n"
                "    a()\n"
                "    car = Car()\n"
                "    car.drive()\n"
                "    make().start()\n"
                "    f = pick()\n"
                "    f()\n"
            ),
        },
    )
    alias = g.edge("main.py::main", "main.py::helper", "calls")
    assert alias["confidence"] == "EXTRACTED" and alias["line"] == 17
    assert g.edge("main.py::main", "main.py::Car.drive", "calls")["confidence"] == "EXTRACTED"
    attr = g.edge("main.py::Car.drive", "main.py::Engine.start", "calls")
    assert attr["confidence"] == "INFERRED" and "attribute engine" in attr["reason"]
    returned = [e for e in calls(g, "main.py::main", "main.py::Engine.start")]
    assert returned and returned[0]["confidence"] == "INFERRED" and "returned by make" in returned[0]["reason"]
    through = [e for e in calls(g, "main.py::main", "main.py::helper") if e["line"] == 22]
    assert through and "returned by pick" in through[0]["reason"]


def test_python_held_callables_and_c3_method_order(project):
    g = graph_of(
        project,
        {
            "main.py": (
                "def on_a():\n"
                "    pass\n"
                "handlers = {'a': on_a}\n"
                "handlers['a']()\n"
                "class A:\n"
                "    def func(self):\n"
                "        pass\n"
                "class B(A):\n"
                "    pass\n"
                "class C(A):\n"
                "    def func(self):\n"
                "        pass\n"
                "class D(B, C):\n"
                "    pass\n"
                "D().func()\n"
            ),
        },
    )
    held = g.edge("main.py", "main.py::on_a", "calls")
    assert held["confidence"] == "INFERRED" and "handlers" in held["reason"]
    # Python's C3 order for D(B, C) is D, B, C, A: C.func, not A.func (depth-first would pick A).
    assert calls(g, "main.py", "main.py::C.func")
    assert not calls(g, "main.py", "main.py::A.func")


def test_every_inferred_or_ambiguous_call_has_a_reason(project):
    g = graph_of(
        project,
        {
            "a.py": "class A:\n    def run(self):\n        pass\n",
            "b.py": "class B:\n    def run(self):\n        pass\n",
            "c.py": "def go(x):\n    x.run()\n",
        },
    )
    guesses = [e for e in g.links if e["confidence"] != "EXTRACTED"]
    assert guesses
    assert all(e.get("reason") for e in guesses)
    assert all("reason" not in e for e in g.links if e["confidence"] == "EXTRACTED")


def test_javascript_object_literal_methods_stay_in_their_object(project):
    g = graph_of(
        project,
        {
            "suite.js": (
                "import { test } from 'vitest';\n"
                "const runner = {\n"
                "  test() { return 1; },\n"
                "};\n"
                "test('adds', () => {});\n"
                "test('subtracts', () => {});\n"
            ),
        },
    )
    method = g.nodes["suite.js::test"]
    assert method["kind"] == "method"
    assert not calls(g, target="suite.js::test")


def test_javascript_builtin_methods_and_literals_do_not_bind(project):
    g = graph_of(
        project,
        {
            "money.js": "export class Money {\n  toString() { return 'x'; }\n  trim() { return 1; }\n}\n",
            "use.js": (
                "export function show(value, items) {\n"
                "  const s = value.toString();\n"
                "  const t = `a ${s}`.trim();\n"
                "  return JSON.stringify(items) + Object.keys(items).join(',');\n"
                "}\n"
            ),
        },
    )
    assert not calls(g, target="money.js::Money.toString")
    assert not calls(g, target="money.js::Money.trim")


def test_typescript_constructor_parameter_property_types_this_member(project):
    g = graph_of(
        project,
        {
            "repo.ts": "export class Repo {\n  get(id: string) { return id; }\n}\n",
            "service.ts": (
                "import { Repo } from './repo';\n"
                "export class Service {\n"
                "  constructor(private repo: Repo) {}\n"
                "  find(id: string) { return this.repo.get(id); }\n"
                "}\n"
            ),
        },
    )
    edge = g.edge("service.ts::Service.find", "repo.ts::Repo.get", "calls")
    assert edge["confidence"] == "INFERRED" and "attribute repo" in edge["reason"]


def test_typescript_type_alias_is_not_a_call_target(project):
    g = graph_of(
        project,
        {
            "types.ts": "export type Ok = { ok: true };\n",
            "use.ts": "import { Ok } from './types';\nexport function f(): unknown {\n  return Ok(1);\n}\n",
        },
    )
    assert not calls(g, target="types.ts::Ok")


def test_rust_prelude_and_literals_do_not_bind(project):
    g = graph_of(
        project,
        {
            "src/lib.rs": (
                "pub mod error;\n"
                "use crate::error::Ok;\n"
                "pub struct Name;\n"
                "impl Name {\n"
                "    pub fn to_string(&self) -> String { String::new() }\n"
                "}\n"
                "pub fn parse() -> Result<u8, ()> {\n"
                '    let s = "x".to_string();\n'
                "    Ok(1)\n"
                "}\n"
            ),
            "src/error.rs": "pub type Ok = std::result::Result<u8, ()>;\n",
        },
    )
    assert not calls(g, target="src/error.rs::Ok")
    assert not calls(g, target="src/lib.rs::Name.to_string")


def test_python_keyed_containers_tuples_returned_calls_and_raise(project):
    """The PyCG categories this resolver follows (dicts, lists, assignments, direct_calls, exceptions), on
    sources of our own."""
    g = graph_of(
        project,
        {
            "main.py": (
                "def first():\n"
                "    pass\n"
                "def second():\n"
                "    pass\n"
                "def third():\n"
                "    pass\n"
                "def factory():\n"
                "    return third\n"
                "class Failure(Exception):\n"
                "    def __init__(self):\n"
                "        pass\n"
                "table = {'a': first}\n"
                "table['a'] = second\n"
                "table['a']()\n"
                "steps = [first, second]\n"
                "steps[0]()\n"
                "x, y = first, third\n"
                "y()\n"
                "factory()()\n"
                "raise Failure\n"
            ),
        },
    )
    keyed = [e for e in calls(g, "main.py") if e["line"] == 14]
    assert [e["target"] for e in keyed] == ["main.py::second"]  # the last value stored under 'a'
    assert "table" in keyed[0]["reason"] and keyed[0]["confidence"] == "INFERRED"
    assert [e["target"] for e in calls(g, "main.py") if e["line"] == 16] == ["main.py::first"]
    assert [e["target"] for e in calls(g, "main.py") if e["line"] == 18] == ["main.py::third"]
    returned = [e for e in calls(g, "main.py") if e["line"] == 19 and e["target"] == "main.py::third"]
    assert returned and "returned by factory" in returned[0]["reason"]
    assert [e["target"] for e in calls(g, "main.py") if e["line"] == 20] == ["main.py::Failure"]


def test_javascript_export_aliases_and_default_exports_bind_importers(project):
    g = graph_of(
        project,
        {
            "base.ts": "class Base {\n  mount() { return 1; }\n}\nexport { Base as AppBase };\n",
            "app.ts": "import { AppBase } from './base';\nexport class App extends AppBase {}\n",
            "plugin.js": "export default function register() {\n  return 1;\n}\n",
            "main.ts": (
                "import { App } from './app';\n"
                "import register from './plugin';\n"
                "export function start() {\n"
                "  const app = new App();\n"
                "  app.mount();\n"
                "  register();\n"
                "}\n"
            ),
        },
    )
    assert g.edge("app.ts::App", "base.ts::Base", "inherits")["confidence"] == "EXTRACTED"
    mount = g.edge("main.ts::start", "base.ts::Base.mount", "calls")
    assert mount["confidence"] == "INFERRED" and "inherited" in mount["reason"]
    assert g.edge("main.ts::start", "plugin.js::register", "calls")["confidence"] == "EXTRACTED"


def test_python_with_targets_and_module_level_instances(project):
    g = graph_of(
        project,
        {
            "client.py": (
                "class Client:\n"
                "    def __enter__(self):\n"
                "        return self\n"
                "    def get(self, url):\n"
                "        pass\n"
                "DEFAULT = Client()\n"
            ),
            "use.py": (
                "import client\n"
                "from client import Client\n"
                "def fetch():\n"
                "    with Client() as c:\n"
                "        c.get('/')\n"
                "    client.DEFAULT.get('/x')\n"
            ),
        },
    )
    edges = {e["line"]: e for e in calls(g, "use.py::fetch", "client.py::Client.get")}
    assert edges[5]["confidence"] == "INFERRED" and "__enter__" in edges[5]["reason"]
    assert edges[6]["confidence"] == "EXTRACTED"  # `DEFAULT = Client()` at module level: an instance


def test_csharp_using_picks_the_type_of_the_namespace_in_use(project):
    g = graph_of(
        project,
        {
            "Zoo/Cat.cs": "namespace Zoo\n{\n    public class Cat { }\n}\n",
            "Toys/Cat.cs": "namespace Toys;\npublic class Cat { }\n",
            "App/Program.cs": (
                "using System;\nusing Toys;\n\nnamespace App\n{\n    public class Program\n    {\n"
                "        public static void Main()\n        {\n            var c = new Cat();\n        }\n    }\n}\n"
            ),
        },
    )
    edge = g.edge("App/Program.cs::Program.Main", "Toys/Cat.cs::Cat", "calls")
    assert edge["confidence"] == "EXTRACTED"
    assert not calls(g, "App/Program.cs::Program.Main", "Zoo/Cat.cs::Cat")


def test_swift_import_of_an_in_repo_module_resolves_to_its_folder(project):
    g = graph_of(
        project,
        {
            "Sources/Core/Parser.swift": "public struct Parser {\n    public func run() {}\n}\n",
            "Sources/App/main.swift": "import Foundation\nimport Core\n\nfunc start() {\n    Core.Parser().run()\n}\n",
        },
    )
    imports = {e["target"] for e in g.edges("imports", source="Sources/App/main.swift")}
    assert "Sources/Core/Parser.swift" in imports
    assert "external:swift:Foundation" in imports and "external:swift:Core" not in imports


def test_typescript_monorepo_self_imports_and_source_root_alias_are_inferred(project):
    g = graph_of(
        project,
        {
            "packages/core/src/index.ts": "export function boot() { return 1; }\n",
            "packages/core/src/util/strings.ts": "export function pad() { return 1; }\n",
            "apps/web/src/lib/math.ts": "export function add() { return 1; }\n",
            "apps/web/main.ts": (
                "import { boot } from '@acme/core';\n"
                "import { pad } from '@acme/core/util/strings';\n"
                "import React from 'react';\n"
                "import { add } from '@/lib/math';\n"
                "export function start() { boot(); pad(); }\n"
            ),
        },
    )
    imports = {e["target"]: e for e in g.edges("imports", source="apps/web/main.ts")}
    core = imports["packages/core/src/index.ts"]
    assert core["confidence"] == "INFERRED" and "package folder core" in core["reason"]
    assert imports["packages/core/src/util/strings.ts"]["confidence"] == "INFERRED"
    assert "external:typescript:react" in imports
    alias = imports["apps/web/src/lib/math.ts"]
    assert alias["confidence"] == "INFERRED" and "source root apps/web/src/" in alias["reason"]
    assert g.edge("apps/web/main.ts::start", "packages/core/src/index.ts::boot", "calls")
