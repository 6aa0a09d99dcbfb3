"""The build's outputs, byte for byte, against the outputs recorded before the build was reshaped into stages.

Each fixture project of tests/fixtures/graph (and all of them together, as one polyglot tree) goes through the
build scenarios of `build_snapshot.run_scenarios` (cold, no change, touch, blank line, copied file, deleted file,
forced). graph.json, GRAPH_REPORT.md, communities.json, the query index and the build summary of every step
must hash to the recorded values in tests/fixtures/graph_bytes.json. A change that is meant to change output
(new resolution, a new report section) re-records them:
`SKILLBOX_UPDATE_GOLDEN=1 pytest tests/graph/test_build_bytes.py`,
and the diff of that file goes into review with the change that caused it.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.graph.build_snapshot import digests, run_scenarios

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "graph"
GOLDEN = FIXTURES.parent / "graph_bytes.json"
CORPORA = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())


def _recorded() -> dict:
    return json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}


def _check(name: str, corpus: Path, tmp_path: Path) -> None:
    taken = run_scenarios(corpus, tmp_path / "work")
    got = digests(taken)
    if os.environ.get("SKILLBOX_UPDATE_GOLDEN"):
        recorded = _recorded()
        recorded[name] = got
        GOLDEN.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    want = _recorded().get(name)
    assert want, f"no recorded outputs for {name}: run with SKILLBOX_UPDATE_GOLDEN=1 and review the diff"
    differing = sorted(k for k in want.keys() | got.keys() if want.get(k) != got.get(k))
    if differing:
        dump = tmp_path / "actual"
        for scenario, files in taken.items():
            (dump / scenario).mkdir(parents=True, exist_ok=True)
            for file, data in files.items():
                (dump / scenario / file).write_bytes(data)
        pytest.fail(f"{name}: outputs differ from the recorded ones in {differing[:8]} (actual outputs: {dump})")


@pytest.mark.parametrize("lang", CORPORA)
def test_fixture_outputs_are_the_recorded_bytes(lang, tmp_path):
    _check(lang, FIXTURES / lang, tmp_path)


def test_polyglot_tree_outputs_are_the_recorded_bytes(tmp_path):
    """All fixture projects in one tree: cross-language names, many files, the communities of a bigger graph."""
    tree = tmp_path / "polyglot"
    for lang in CORPORA:
        shutil.copytree(FIXTURES / lang, tree / lang)
    _check("polyglot", tree, tmp_path)


def test_a_changed_byte_is_caught(tmp_path):
    """The comparison is not vacuous: one byte more in a source file changes the recorded digests."""
    corpus = tmp_path / "python"
    shutil.copytree(FIXTURES / "python", corpus)
    main = corpus / "main.py"
    main.write_text(main.read_text() + "\n\ndef added_by_the_test():\n    return 1\n")
    got = digests(run_scenarios(corpus, tmp_path / "work"))
    want = _recorded()["python"]
    assert got["cold/graph.json"] != want["cold/graph.json"]
    assert got["cold/query-index"] != want["cold/query-index"]
    assert got["cold/summary"] != want["cold/summary"]
