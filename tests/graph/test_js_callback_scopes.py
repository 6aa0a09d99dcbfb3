"""JS/TS callback bodies are scopes: a helper defined again in each test callback is a node of its own, and a call
binds to the one its callback can see (EXTRACTED), never to another callback's. Real tree-sitter parsing."""

from __future__ import annotations

from skillbox.graph.build import build_graph
from tests.graph.conftest import read_graph

SPEC = """import { describe, it } from 'vitest'

describe('first', () => {
  const encode = (text: string) => text + '1'
  it('encodes', () => {
    encode('a')
  })
})

describe('second', () => {
  const encode = (text: string) => text + '2'
  function helper() { return encode('b') }
  it('encodes again', () => {
    helper()
  })
})

describe('third', () => {
  it('shadows', () => {
    const [encode] = [(t: string) => t]
    encode('c')
  })
})

describe('fourth', () => {
  // NOTE: a note in a callback stays with what holds the callback
  const unused = () => 0
})
"""


def test_same_named_helpers_in_callbacks_are_separate_nodes_bound_by_scope(project):
    root = project({"codec.test.ts": SPEC, "plain.js": SPEC.replace(": string", "").replace("import {", "// {")})
    g = read_graph(build_graph(root, jobs=1).out_dir)
    for path in ("codec.test.ts", "plain.js"):
        first, second = f"{path}::encode", f"{path}::encode@11"
        assert first in g.nodes and second in g.nodes
        assert g.nodes[second]["line"] == 11
        by_line = {e["line"]: e for e in g.edges("calls", target=first)}
        assert by_line[6]["source"] == path and by_line[6]["confidence"] == "EXTRACTED"
        assert set(by_line) == {6}, "the other callbacks' calls do not reach the first helper"
        again = g.edge(f"{path}::helper", second, "calls")
        assert again["confidence"] == "EXTRACTED" and again["line"] == 12
        # `helper` is defined in the second callback; the call inside the nested `it` callback finds it.
        assert g.edge(path, f"{path}::helper", "calls")["line"] == 14
        # The third callback's `encode` is a local the graph does not hold: no edge to either helper.
        assert not [e for e in g.edges("calls") if e["line"] == 21 and e["source"].startswith(path)]
        # The callbacks themselves make no nodes.
        helpers = {first, second, f"{path}::helper", f"{path}::unused"}
        assert {n for n in g.nodes if n.startswith(f"{path}::")} == helpers
        assert "NOTE: a note in a callback stays with what holds the callback" in g.nodes[path]["notes"]


def test_callback_parameter_typed_by_the_callee_gives_the_receiver_type(project):
    root = project(
        {
            "stream.ts": (
                "export class StreamingApi {\n  onAbort(fn: () => void) {}\n}\n"
                "export function stream(c: unknown, cb: (s: StreamingApi) => Promise<void>) {\n"
                "  return cb(new StreamingApi())\n}\n"
                "export function twice(a: (s: StreamingApi) => void, b: (e: Error) => void) {}\n"
            ),
            "use.ts": (
                "import { stream, twice } from './stream'\n"
                "export function handler(c: unknown) {\n"
                "  stream(c, async (s) => { s.onAbort(() => {}) })\n"
                "  twice((x) => x.onAbort(() => {}), (e) => {})\n"
                "}\n"
            ),
        }
    )
    g = read_graph(build_graph(root, jobs=1).out_dir)
    edges = {e["line"]: e for e in g.edges("calls", source="use.ts::handler", target="stream.ts::StreamingApi.onAbort")}
    assert edges[3]["confidence"] == "INFERRED"
    assert edges[3]["reason"] == "the callback parameter of stream is typed StreamingApi"
    # Two callback parameters of different types: which one `x` is stays unknown (at most a name-only candidate).
    assert 4 not in edges or edges[4]["confidence"] == "AMBIGUOUS"
