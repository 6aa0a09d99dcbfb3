"""TypeScript and JavaScript calls through what functions return and what modules export (bench/graph_oracles.py
`ts` is the outside check: ky, got, h3, jotai): factories that build and return a function or an instance,
declared return types, module-level variables reached through imports and default exports, interface and type
properties, type aliases. And the rules every language shares: an imported module-level variable is followed to
its value (Python `from conf import settings`), `export *` passes no default export on. Real tree-sitter parsing."""

from __future__ import annotations

from tests.graph.conftest import calls, graph_of


def one(g, source, target):
    found = calls(g, source, target)
    assert len(found) == 1, (source, target, found)
    return found[0]


def test_a_factory_that_returns_a_local_function_is_followed_through_a_default_export(project):
    # ky's shape: `const ky = createInstance(); export default ky`, the instance a function built inside.
    g = graph_of(
        project,
        {
            "source/index.ts": (
                "import {validate} from './merge.js';\n"
                "const createInstance = (defaults?: object): KyInstance => {\n"
                "  const ky: Partial<KyInstance> = (input: string) => validate(input);\n"
                "  ky.extend = (more?: object) => {\n"
                "    return createOther(more);\n"  # an anonymous function's return: not createInstance's
                "  };\n"
                "  return ky as KyInstance;\n"
                "};\n"
                "const createOther = (d?: object) => 1;\n"
                "const ky = createInstance();\n"
                "export default ky;\n"
            ),
            "source/merge.ts": "export function validate(x: string) { return x; }\n",
            "test/main.ts": (
                "import ky from '../source/index.js';\ntest('get', async () => {\n  await ky('/a');\n});\n"
            ),
        },
    )
    edge = one(g, "test/main.ts", "source/index.ts::createInstance.ky")
    assert edge["confidence"] == "INFERRED" and "returned by createInstance" in edge["reason"]
    # without the rule that returns inside an anonymous function are its own, createInstance's returns disagree
    assert not calls(g, "test/main.ts", "source/index.ts::createOther")


def test_declared_return_types_and_this_types_type_the_result(project):
    g = graph_of(
        project,
        {
            "src/app.ts": (
                "export class App {\n"
                "  use(h: string): this { return this; }\n"
                "  listen(): void {}\n"
                "}\n"
                "export function createApp(): App { return make(); }\n"
                "declare function make(): any;\n"
            ),
            "src/main.ts": (
                "import { createApp } from './app';\n"
                "export function main() {\n"
                "  const app = createApp();\n"
                "  app.use('a').listen();\n"
                "}\n"
            ),
        },
    )
    use = one(g, "src/main.ts::main", "src/app.ts::App.use")
    assert use["confidence"] == "INFERRED" and "returned by createApp" in use["reason"]
    one(g, "src/main.ts::main", "src/app.ts::App.listen")


def test_interface_properties_and_type_aliases_carry_their_types(project):
    # h3's test context: `describeMatrix(..., (t) => t.app.get())` with `interface TestContext { app: H3 }`;
    # jotai's `type Store = InternalStore` with function-typed properties.
    g = graph_of(
        project,
        {
            "src/h3.ts": "export class H3 {\n  get(route: string) { return this; }\n}\n",
            "src/store.ts": (
                "type InternalStore = {\n"
                "  get: (key: string) => number\n"
                "  set: (key: string, value: number) => void\n"
                "}\n"
                "export type Store = InternalStore\n"
                "export function createStore(): Store { return {} as Store; }\n"
            ),
            "test/setup.ts": (
                "import { H3 } from '../src/h3';\n"
                "export interface TestContext {\n"
                "  app: H3;\n"
                "  fetch: (input: string) => Promise<Response>;\n"
                "}\n"
                "export function describeMatrix(title: string, fn: (ctx: TestContext) => void) {}\n"
            ),
            "test/app.test.ts": (
                "import { describeMatrix } from './setup';\n"
                "import { createStore } from '../src/store';\n"
                "describeMatrix('app', (t) => {\n"
                "  t.app.get('/');\n"
                "  t.fetch('/');\n"
                "  const store = createStore();\n"
                "  store.set('a', store.get('a'));\n"
                "});\n"
            ),
        },
    )
    one(g, "test/app.test.ts", "src/h3.ts::H3.get")
    one(g, "test/app.test.ts", "test/setup.ts::TestContext.fetch")
    assert g.nodes["src/store.ts::InternalStore.get"]["kind"] == "method"
    one(g, "test/app.test.ts", "src/store.ts::InternalStore.get")
    one(g, "test/app.test.ts", "src/store.ts::InternalStore.set")
    assert g.edges("inherits", "src/store.ts::Store", "src/store.ts::InternalStore")


def test_export_star_passes_no_default_on_and_an_exported_variable_stops_the_search(project):
    # got's index: `const got = create(defaults); export default got; export * from './options.js'` where
    # options.js has its own default export, a class: `got(...)` is no call of that class.
    g = graph_of(
        project,
        {
            "source/options.ts": "export default class Options {\n  merge() {}\n}\n",
            "source/create.ts": (
                "export type Got = {\n  extend(): Got\n}\n"
                "const create = (defaults: object): Got => {\n"
                "  const got: Got = ((url: string) => 1) as Got;\n"
                "  return got;\n"
                "};\n"
                "export default create;\n"
            ),
            "source/index.ts": (
                "import create from './create.js';\n"
                "const got = create({});\n"
                "export default got;\n"
                "export * from './options.js';\n"
            ),
            "test/create.ts": (
                "import got from '../source/index.js';\n"
                "test('extend', () => {\n  const a = got.extend();\n  a.extend();\n});\n"
            ),
        },
    )
    assert not calls(g, "test/create.ts", "source/options.ts::Options")
    assert len(calls(g, "test/create.ts", "source/create.ts::Got.extend")) == 2


def test_javascript_factories_return_instances(project):
    g = graph_of(
        project,
        {
            "lib/client.js": (
                "export class Client {\n  send() {}\n}\n"
                "export function connect() {\n  const c = new Client();\n  return c;\n}\n"
                "export const shared = connect();\n"
            ),
            "lib/use.js": (
                "import { connect, shared } from './client.js';\n"
                "export function run() {\n  const client = connect();\n  client.send();\n  shared.send();\n}\n"
            ),
        },
    )
    edges = calls(g, "lib/use.js::run", "lib/client.js::Client.send")
    assert len(edges) == 2 and {e["confidence"] for e in edges} == {"INFERRED"}


def test_python_imported_module_variables_are_followed(project):
    g = graph_of(
        project,
        {
            "conf.py": "class Settings:\n    def load(self):\n        return 1\n\nsettings = Settings()\n",
            "use.py": "from conf import settings\n\ndef main():\n    settings.load()\n",
        },
    )
    edge = one(g, "use.py::main", "conf.py::Settings.load")
    assert edge["confidence"] == "EXTRACTED"


def test_a_name_declared_in_several_callbacks_holds_each_callbacks_own_value(project):
    # svelte's motion tests: `const size = spring()` in one test callback, `const size = new Tween()` in another.
    # Callbacks without a definition inside were no scope, so every `size` was the file's, and `size.set()` after
    # `spring()` was an EXTRACTED call of Tween.set.
    g = graph_of(
        project,
        {
            "src/motion.js": (
                "export class Tween {\n  set(v) {}\n}\nexport class Spring {\n  set(v) {}\n}\n"
                "export function spring() {\n  return new Spring();\n}\n"
            ),
            "test/motion.test.js": (
                "import { spring, Tween } from '../src/motion.js';\n"
                "describe('motion', () => {\n"
                "  it('springs', () => {\n"
                "    const size = spring();\n"
                "    size.set(100);\n"
                "  });\n"
                "  it('tweens', () => {\n"
                "    const size = new Tween();\n"
                "    size.set(100);\n"
                "  });\n"
                "});\n"
            ),
        },
    )
    spring_set = calls(g, "test/motion.test.js", "src/motion.js::Spring.set")
    tween_set = calls(g, "test/motion.test.js", "src/motion.js::Tween.set")
    assert [(e["line"], e["confidence"]) for e in spring_set] == [(5, "INFERRED")]
    assert [(e["line"], e["confidence"]) for e in tween_set] == [(9, "EXTRACTED")]
