"""`skillbox lint --json` / `--format sarif` text is written by lint/json_text.py instead of the json package (start-up
cost): it must stay byte-identical to `json.dumps(value, indent=2, ensure_ascii=False)`, which users' tools and
the earlier releases' output were written by."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from skillbox.lint import json_text
from skillbox.lint.engine import Selection, lint_paths
from skillbox.lint.formats import to_json, to_sarif
from skillbox.lint.registry import all_rules

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "lint" / "corpus"


def nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def reference(value) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def written_without_json(value) -> bool:
    """True when json_text wrote `value` itself (no fallback to the json package)."""
    from _json import encode_basestring

    try:
        json_text._write(value, [], encode_basestring, 0)
    except json_text._NotPlain:
        return False
    return True


def test_every_corpus_projects_findings_are_written_as_json_dumps_writes_them():
    rules = all_rules()
    projects = sorted(p for p in CORPUS.iterdir() if p.is_dir())
    assert len(projects) >= 40
    findings = 0
    for target in [*projects, CORPUS]:
        result = lint_paths([str(target)], Selection(None, set(), {}))
        findings += len(result.findings)
        for payload in (to_json(result), to_sarif(result, rules)):
            assert written_without_json(payload), target  # the corpus never needs the fallback
            assert json_text.dumps(payload) == reference(payload), target
    assert findings > 100


EDGES = [
    {},
    [],
    "",
    {"a": {}, "b": [], "c": [[]], "d": [{}]},
    {"zh": "中文的消息", "emoji": "🎬 ✓", "accents": "café naïve"},
    {"controls": "".join(chr(c) for c in range(32)) + "\x7f\x80\x9f", "quote": '"\\/'},
    {"separators": "\u2028\u2029\ufeff\ufffe\U0010ffff"},
    {"ints": [0, -1, 2**31, -(2**63), 2**64 - 1, 2**64, -(2**63) - 1, 10**40]},
    {"bools": [True, False, None]},
    (1, (2, ("x",))),
    [[[[[["deep"]]]]]],
    # only json.dumps knows these: the whole payload goes to it
    {"floats": [0.1, 1e-7, 1e16, -0.0, 1.5, 2.0, 1e300, float("inf"), float("nan")]},
    {1: "int key", "b": 2},
    {None: 1, True: 2, 2.5: 3},
    {"surrogate": "bad\udcff name"},
    [[[]]] * 3,
    {"deeper than the limit": nested(250)},
]


def test_edge_values_are_written_as_json_dumps_writes_them():
    for value in EDGES:
        assert json_text.dumps(value) == reference(value), value


def test_values_outside_the_plain_shapes_fall_back_to_json():
    class Text(str):
        pass

    class Number(int):
        pass

    for value in ({"x": Text("a")}, [Number(3)], {"f": 0.5}, {1: 1}, [[0], nested(201)]):
        assert not written_without_json(value)
        assert json_text.dumps(value) == reference(value)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(max_size=6), children, max_size=4)
        | st.dictionaries(st.integers(), children, max_size=2)
    ),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(json_values)
def test_any_json_value_is_written_as_json_dumps_writes_it(value):
    assert json_text.dumps(value) == reference(value)
