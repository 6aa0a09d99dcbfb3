"""lint/paths.py spells and compares paths exactly as pathlib does (the lint dropped pathlib for start-up time)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skillbox.lint import paths as fs
from skillbox.lint.engine import _rglob_html, composition_files
from skillbox.lint.rules.project import _root_html_files

SPELLINGS = [
    "", ".", "./", "a", "a/", "a//b", "./a/./b/", "a/../b", "../x", "/", "//", "///", "//a/b", "///a//b/",
    "/a/b.tar.gz", "a/.hidden", "a/b.", "a/.", "a/..", "x/y/z.HTML", "/.", "..",
]  # fmt: skip


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_each_helper_matches_pathlib(spelling: str) -> None:
    path = Path(spelling)
    cleaned = fs.clean(spelling)
    assert cleaned == str(path)
    assert fs.clean(path) == str(path)  # PathLike in, same string out
    assert fs.parent(cleaned) == str(path.parent)
    assert fs.name(cleaned) == path.name
    assert fs.suffix(cleaned) == path.suffix
    assert tuple(fs.parts(cleaned)) == path.parts
    assert fs.parents(cleaned) == [str(p) for p in path.parents]
    for name in ("c", "/abs", "", "d/e/"):
        assert fs.join(cleaned, name) == str(path / name)


@pytest.mark.parametrize("path", SPELLINGS)
@pytest.mark.parametrize("folder", [".", "a", "a/b", "/", "/a", "//", "..", "b"])
def test_relative_and_is_under_match_pathlib(path: str, folder: str) -> None:
    p, f = Path(path), Path(folder)
    assert fs.is_under(fs.clean(path), fs.clean(folder)) == p.is_relative_to(f)
    try:
        expected = str(p.relative_to(f))
    except ValueError:
        expected = None
    assert fs.relative(fs.clean(path), fs.clean(folder)) == expected


def test_sort_key_orders_like_path_objects() -> None:
    names = ["a-b/x.html", "a/b.html", "a/b/c.html", "a.html", "A/z.html", "a b/y.html", "/r/x", "/r-s/y", "/r/x/y"]
    assert sorted(names, key=fs.sort_key) == [str(p) for p in sorted(Path(n) for n in names)]


def _tree(root: Path) -> None:
    for rel in (
        "index.html", "b.html", ".hidden.html", "compositions/intro.html", "compositions/sub/x.html",
        "compositions/components/c.html", "compositions/.dot/y.html", "compositions/dir.html/z.html",
        "compositions/notes.txt", "compositions/UPPER.HTML", "assets/a.mp3", "node_modules/p/q.mp3",
    ):  # fmt: skip
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("<div></div>")
    outside = root.parent / f"{root.name}-outside"
    outside.mkdir()
    (outside / "linked.html").write_text("<p></p>")
    os.symlink(outside, root / "compositions" / "linked")  # pathlib 3.11 does not descend into symlinked folders
    os.symlink(root / "missing.html", root / "compositions" / "broken.html")


def test_walks_match_pathlib_globs(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    _tree(root)
    folder = root / "compositions"
    assert _rglob_html(str(folder)) == [str(p) for p in sorted(folder.rglob("*.html"))]
    assert sorted(fs.walk(str(root))) == sorted(str(p) for p in root.rglob("*"))
    assert _root_html_files(str(root)) == [str(p) for p in sorted(p for p in root.glob("*.html") if p.is_file())]
    # The old pathlib spelling of composition_files, kept here as the reference.
    old = [
        str(p)
        for p in sorted(folder.rglob("*.html"))
        if p.relative_to(folder).parts[0] != "components" and not p.name.startswith("._") and not _snippet(p)
    ]
    assert composition_files(root) == composition_files(str(root)) == old
    assert str(folder / ".dot" / "y.html") in old and str(folder / "linked" / "linked.html") not in old


def _snippet(path: Path) -> bool:
    try:
        return "data-hf-snippet" in path.read_text()
    except OSError:
        return False
