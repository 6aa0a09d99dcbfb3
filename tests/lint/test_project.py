"""Project-level behaviour: paths relative to sub-compositions, nested timeline ids, project discovery."""

from __future__ import annotations

from skillbox.lint.engine import lint_paths
from skillbox.lint.samples import HOST, SUB, composition


def write(root, files):
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return root


def codes(path):
    return [(f.code, f.file.rsplit("/", 1)[-1]) for f in lint_paths([path]).findings]


def test_parent_path_from_a_sub_composition_stays_inside_the_project(tmp_path):
    sub = SUB.replace(
        '<h1 id="intro-title">Intro</h1>', '<h1 id="intro-title">Intro</h1><img id="l" src="../logo.png" alt="">'
    )
    project = write(tmp_path / "p", {"index.html": composition(HOST), "compositions/intro.html": sub})
    assert codes(project) == [("missing_local_asset", "intro.html")]
    (project / "logo.png").write_bytes(b"\x00")
    assert codes(project) == []


def test_parent_path_from_index_leaves_the_project(tmp_path):
    project = write(tmp_path / "p", {"index.html": composition('<img id="l" src="../logo.png" alt="">')})
    (tmp_path / "logo.png").write_bytes(b"\x00")
    assert codes(project) == [("invalid_parent_traversal_in_asset_path", "index.html")]


def test_nested_timeline_key_must_match_the_host(tmp_path):
    sub = SUB.replace('data-composition-id="intro"', 'data-composition-id="opening"').replace(
        '__timelines["intro"]', '__timelines["opening"]'
    )
    project = write(tmp_path / "p", {"index.html": composition(HOST), "compositions/intro.html": sub})
    assert sorted(codes(project)) == [("timeline_id_mismatch", "intro.html")] * 2


def test_single_sub_composition_file_is_linted_as_one(tmp_path):
    project = write(tmp_path / "p", {"index.html": composition(HOST), "compositions/intro.html": SUB})
    result = lint_paths([project / "compositions" / "intro.html"])
    assert result.files_scanned == 1 and result.findings == []


def test_snippets_and_components_are_skipped(tmp_path):
    project = write(
        tmp_path / "p",
        {
            "index.html": composition(""),
            "compositions/components/button.html": "<div>not a composition</div>",
            "compositions/snippet.html": '<div data-hf-snippet="x">snippet</div>',
        },
    )
    assert lint_paths([project]).files_scanned == 1
