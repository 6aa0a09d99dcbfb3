"""Sources in other encodings, undecodable files, unwritable --out, and staleness after a touch.

Every case is a real file on disk built by the real build (real tree-sitter), read back through the CLI or the
graph.json a user gets.
"""

from __future__ import annotations

import codecs
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from skillbox.cli.root import cli
from skillbox.graph.build import build_graph
from skillbox.graph.source_text import declared_coding
from tests.graph.conftest import read_graph, write_tree

CAFE = "caf\u00e9 \u00e0 la cr\u00e8me"
SOURCE = f'def brew():\n    """{CAFE}."""\n    return pour()\n\n\ndef pour():\n    return 1\n'


def _built(tmp_path: Path, files: dict[str, bytes]):
    root = write_tree(tmp_path / "p", files)
    result = build_graph(root)
    return result, read_graph(result.out_dir)


def _docstring_and_call(g, rel: str, lines_above: int = 0) -> None:
    """The docstring reads as written, lines match the file on disk, and the call inside is resolved."""
    brew = g.nodes[f"{rel}::brew"]
    assert CAFE in brew["doc"]
    assert brew["line"] == 1 + lines_above
    assert g.nodes[f"{rel}::pour"]["line"] == 6 + lines_above
    g.edge(f"{rel}::brew", f"{rel}::pour", "calls")


def test_latin1_with_pep263_coding_line(tmp_path):
    data = ("# -*- coding: latin-1 -*-\n# \u00e9t\u00e9\n" + SOURCE).encode("latin-1")
    result, g = _built(tmp_path, {"lat.py": data})
    _docstring_and_call(g, "lat.py", 2)
    assert result.summary["skipped"] == {}
    assert result.summary["warnings"]["invalid_utf8"] == 0


def test_coding_line_on_line_two_below_a_shebang(tmp_path):
    data = ("#!/usr/bin/env python\n# vim: set fileencoding=cp1252 :\n" + SOURCE).encode("cp1252")
    _result, g = _built(tmp_path, {"cp.py": data})
    _docstring_and_call(g, "cp.py", 2)


def test_utf8_bom(tmp_path):
    _result, g = _built(tmp_path, {"bom.py": codecs.BOM_UTF8 + SOURCE.encode("utf-8")})
    _docstring_and_call(g, "bom.py")


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be", "utf-32"])
def test_utf16_and_utf32_with_bom(tmp_path, codec):
    data = SOURCE.encode(codec)
    if codec == "utf-16-be":
        data = codecs.BOM_UTF16_BE + data
    result, g = _built(tmp_path, {"wide.py": data})
    _docstring_and_call(g, "wide.py")
    assert result.summary["skipped"] == {}


def test_a_declared_codec_that_fails_skips_the_file_and_reports_it(tmp_path):
    files = {
        "ascii.py": "# coding: ascii\nx = '\u00e9'\n".encode(),
        "unknown.py": b"# coding: no-such-codec\nx = '\xe9'\n",
        "good.py": b"def fine():\n    pass\n",
    }
    result, g = _built(tmp_path, files)
    assert result.summary["skipped"] == {"undecodable": 2}
    assert result.summary["skipped_files"] == {"undecodable": ["ascii.py", "unknown.py"]}
    assert "good.py::fine" in g.nodes and "ascii.py" not in {n.get("file") for n in g.nodes.values()}


def test_undecodable_bytes_in_a_docstring_never_abort_the_build(tmp_path):
    # Latin-1 bytes without a coding line: not UTF-8; parsed with U+FFFD and counted as a warning, once.
    data = SOURCE.encode("latin-1")
    result, g = _built(tmp_path, {"plain.py": data, "other.js": "function other() { return '\xe9'; }\n".encode()})
    assert "plain.py::brew" in g.nodes and "other.js::other" in g.nodes
    assert "\ufffd" in g.nodes["plain.py::brew"]["doc"]
    assert result.summary["warnings"]["invalid_utf8"] == 1
    cli_run = subprocess.run(
        [sys.executable, "-m", "skillbox", "graph", "build", str(tmp_path / "p"), "--force"],
        capture_output=True,
        text=True,
    )
    assert cli_run.returncode == 0 and "Traceback" not in cli_run.stderr
    assert "warnings 1" in cli_run.stdout


def test_declared_coding_follows_pep263():
    assert declared_coding(b"# -*- coding: latin-1 -*-\n") == "latin-1"
    assert declared_coding(b"#!/usr/bin/python\n# vim: set fileencoding=UTF-8 :\n") == "utf-8"
    assert declared_coding(b"import os\n# coding: latin-1\n") is None  # line 2 counts only below a comment
    assert declared_coding(b"x = 1\n") is None


def _unwritable(tmp_path: Path) -> Path:
    if os.geteuid() != 0:
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o555)
        return ro / "out"
    if not Path("/sys/kernel").is_dir():
        pytest.skip("running as root without /sys: no folder root cannot write")
    return Path("/sys/kernel/skillbox-out")


@pytest.mark.parametrize("where", ["missing", "under_a_file", "read_only"])
def test_out_problems_are_one_line_errors(tmp_path, where):
    root = write_tree(tmp_path / "p", {"a.py": "def f():\n    pass\n"})
    (tmp_path / "plain").write_text("x")
    out = {
        "missing": Path("/proc/skillbox-no-such-dir/out"),
        "under_a_file": tmp_path / "plain" / "out",
        "read_only": _unwritable(tmp_path),
    }[where]
    fast = subprocess.run(
        [sys.executable, "-m", "skillbox", "graph", "build", str(root), "--out", str(out)],
        capture_output=True,
        text=True,
    )
    assert fast.returncode == 1, fast.stderr
    assert fast.stderr.startswith("Error: cannot write the graph to ") and fast.stderr.count("\n") == 1
    slow = CliRunner().invoke(cli, ["graph", "build", str(root), "--out", str(out), "--json"])
    assert slow.exit_code == 1 and "cannot write the graph to" in slow.output
    assert not isinstance(slow.exception, OSError)


def test_touched_but_unchanged_file_clears_the_staleness_warning(tmp_path):
    root = write_tree(tmp_path / "p", {"a.py": "def f():\n    pass\n", "b.py": "def g():\n    pass\n"})
    graph = root / "skillbox-out" / "graph.json"

    def query_stderr() -> str:
        return CliRunner().invoke(cli, ["graph", "query", "f", "--graph", str(graph)]).stderr

    build_graph(root)
    assert "older than its sources" not in query_stderr()
    time.sleep(0.05)
    os.utime(root / "a.py")  # touched, content unchanged
    assert "older than its sources (a.py)" in query_stderr()
    before = graph.stat().st_mtime_ns
    assert build_graph(root).summary["up_to_date"]
    assert graph.stat().st_mtime_ns == before  # graph.json itself rightly untouched
    assert "older than its sources" not in query_stderr()
    time.sleep(0.05)
    (root / "b.py").write_text("def g():\n    return 2\n")
    assert "older than its sources (b.py)" in query_stderr()


CODING_LINES = [
    "# -*- coding: latin-1 -*-\n",
    "# vim: set fileencoding=cp1252 :\n",
    "# This Python file uses the following encoding: iso-8859-15\n",
    "#!/usr/bin/env python\n# -*- coding: latin-1 -*-\n",
    "\n# coding=latin-1\n",
    "import os\n# coding: latin-1\n",  # line 2 below code: not a declaration
    "# coding: utf-8\n",
    "# just a comment\n# a second one\n# coding: latin-1\n",  # line 3: too late
    "",
]


@pytest.mark.parametrize("head", CODING_LINES)
def test_source_text_decodes_like_pythons_own_tokenizer(head):
    """The oracle is CPython's `tokenize.detect_encoding` (PEP 263 and BOM rules) followed by a decode."""
    import io
    import tokenize

    from skillbox.graph.source_text import as_utf8

    body = "def f():\n    return 'caf\u00e9 \u00e0 \u00fc'\n"
    for codec in ("latin-1", "utf-8"):
        data = head.encode("ascii") + body.encode(codec)
        for candidate in (data, codecs.BOM_UTF8 + data):
            try:
                encoding, _lines = tokenize.detect_encoding(io.BytesIO(candidate).readline)
                want = candidate.decode(encoding).removeprefix("\ufeff")
            except (SyntaxError, UnicodeDecodeError):
                want = None  # Python refuses the file
            got = as_utf8(candidate, "python")
            if want is None:  # skipped as undecodable, or parsed with U+FFFD and counted as invalid UTF-8
                assert isinstance(got, str) or got[1] == 1, (head, codec)
            else:
                assert got == (want.encode("utf-8"), 0), (head, codec)
