"""tinycss2 loaded without its byte-decoding half (lint/css_library.py): the linter must parse CSS exactly as the
whole package does, and any other code in the same process must still get the whole, real package."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def run(code: str) -> subprocess.CompletedProcess:
    """A fresh interpreter: what is imported, and in which order, is the point of each test."""
    env = dict(os.environ, PYTHONPATH=str(TOOLS))
    return subprocess.run([sys.executable, "-P", "-c", code], env=env, capture_output=True, text=True)


def test_the_linter_loads_the_parser_without_webencodings():
    proc = run(
        "import sys\n"
        "from skillbox.lint.css import parse_stylesheet\n"
        "sheet = parse_stylesheet('@font-face { font-family: A; src: url(a.woff2) } #t { COLOR: Red }', 0)\n"
        "assert [d.name for r in sheet.rules for d in r.declarations] == ['color'], sheet\n"
        "assert sheet.font_faces == ['a'], sheet.font_faces\n"
        "assert 'webencodings' not in sys.modules and 'tinycss2.bytes' not in sys.modules\n"
        "assert 'tinycss2.parser' in sys.modules\n"
    )
    assert proc.returncode == 0, proc.stderr


def test_a_later_import_gets_the_whole_real_package_and_the_same_classes():
    proc = run(
        "from skillbox.lint import css\n"
        "import tinycss2, tinycss2.ast, webencodings\n"
        "assert tinycss2.__version__ and tinycss2.VERSION == tinycss2.__version__\n"
        "rules, encoding = tinycss2.parse_stylesheet_bytes(b'@charset \"utf-8\"; p { color: red }')\n"
        "assert encoding.name == 'utf-8' and isinstance(rules[-1], tinycss2.ast.QualifiedRule)\n"
        "assert webencodings.lookup('latin1').name == 'windows-1252'\n"
        "assert css.tinycss2 is tinycss2 and type(tinycss2) is type(css)\n"
        "from tinycss2 import parse_stylesheet_bytes, serialize\n"
        "assert tinycss2.parse_stylesheet is tinycss2.parser.parse_stylesheet\n"
    )
    assert proc.returncode == 0, proc.stderr


def test_a_from_import_of_a_name_the_linter_does_not_use_loads_the_rest():
    proc = run(
        "from skillbox.lint import css\n"
        "from tinycss2 import parse_stylesheet_bytes\n"
        "import sys\n"
        "assert 'webencodings' in sys.modules and hasattr(sys.modules['webencodings'], 'lookup')\n"
    )
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("first", ["tinycss2", "webencodings"])
def test_an_earlier_import_is_used_as_it_is(first):
    proc = run(
        f"import {first}, sys\n"
        "from skillbox.lint import css\n"
        "import tinycss2\n"
        "assert css.tinycss2 is tinycss2 and type(tinycss2) is type(sys)\n"
        "assert hasattr(sys.modules['webencodings'], 'lookup') and 'tinycss2.bytes' in sys.modules\n"
    )
    assert proc.returncode == 0, proc.stderr


def test_an_unexpected_layout_falls_back_to_the_plain_import(monkeypatch):
    from skillbox.lint import css_library

    def broken():
        raise ImportError("layout changed")

    for name in [n for n in sys.modules if n.split(".")[0] in ("tinycss2", "webencodings")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(css_library, "_load_parser_only", broken)
    package = css_library.load()
    assert package.parse_stylesheet_bytes and sys.modules["tinycss2"] is package
    assert hasattr(sys.modules["webencodings"], "lookup")


def test_the_stand_in_lowercases_as_webencodings_does():
    import webencodings

    from skillbox.lint.css_library import ascii_lower

    samples = ["COLOR", "Font-Family", "\u212a", "\u0130nherit", "ÉCOLE", "字体-Family", "", "ǅ"]
    assert [ascii_lower(s) for s in samples] == [webencodings.ascii_lower(s) for s in samples]
    assert ascii_lower("\u212aELVIN") == "\u212aelvin"  # only ASCII letters change, as the CSS spec asks
