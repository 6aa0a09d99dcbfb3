"""Every registered language: its query compiles, and its fixture project gives the reviewed golden graph.

Golden files (`tests/fixtures/graph/<lang>.golden`) list every node and edge of the fixture's graph in a
readable form. They were reviewed by hand once; regenerate with SKILLBOX_UPDATE_GOLDEN=1 and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skillbox.graph import ts
from skillbox.graph.build import build_graph
from skillbox.graph.languages import LANGUAGES

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "graph"
UPDATE = os.environ.get("SKILLBOX_UPDATE_GOLDEN") == "1"
QUERY_LANGS = sorted({spec.query or spec.name for spec in LANGUAGES})


def render_golden(data: dict) -> str:
    lines = []
    for node in data["nodes"]:
        where = f" @{node['line']}" if "line" in node else ""
        extra = ""
        if node.get("doc"):
            extra += f"  doc={node['doc']!r}"
        if node.get("notes"):
            extra += f"  notes={node['notes']!r}"
        lines.append(f"node {node['kind']:<9} {node['id']}{where}{extra}")
    for link in data["links"]:
        if link["relation"] == "contains":
            continue  # implied by the ids; kept out so the golden stays readable
        score = "" if link["confidence"] == "EXTRACTED" else f" {link['score']}"
        context = f" ({link['context']})" if link.get("context") else ""
        lines.append(
            f"edge {link['source']} -{link['relation']}-> {link['target']}"
            f"  [{link['confidence']}{score}] @{link.get('line', '-')}{context}"
        )
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("spec", LANGUAGES, ids=lambda s: s.name)
def test_query_compiles_against_its_grammar(spec):
    assert ts.query(spec).pattern_count > 0


def test_at_least_seventeen_languages_each_with_a_fixture():
    names = {spec.name for spec in LANGUAGES}
    assert len(names) >= 17
    fixture_langs = {p.name for p in FIXTURES.iterdir() if p.is_dir()}
    assert names - {"typescript", "tsx"} <= fixture_langs | {"javascript"}
    assert {"typescript", "tsx"} <= fixture_langs


@pytest.mark.parametrize("lang", sorted(p.name for p in FIXTURES.iterdir() if p.is_dir()))
def test_golden_graph(lang, tmp_path):
    result = build_graph(FIXTURES / lang, tmp_path / "out", jobs=1)
    text = render_golden(result.data())
    golden = FIXTURES / f"{lang}.golden"
    if UPDATE:
        golden.write_text(text)
    assert golden.exists(), f"no golden for {lang}: run with SKILLBOX_UPDATE_GOLDEN=1 and review it"
    assert text == golden.read_text()
    # Every language resolves at least one call and one import of its own fixture.
    assert " -calls-> " in text and "[EXTRACTED] " in text
    assert " -imports-> " in text
