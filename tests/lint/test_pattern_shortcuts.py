"""The regular expressions the lint avoids compiling: each shortcut gives exactly the answer of its pattern.

Compiling a pattern runs `re`'s compiler in Python (50-450 us each), so the lint skips patterns whose trigger text
a subject lacks (`lazy_compile(..., needs=...)`) and answers the simplest ones with str methods. These tests
hold each shortcut to the pattern it replaces, on the corpus and on edge strings (Unicode case folding, `$`
before a final newline, unclosed comments).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from skillbox.lint import patterns
from skillbox.lint.css import _compound_matches_by_pattern, compound_matches
from skillbox.lint.patterns import CONDITIONAL, has_word
from skillbox.lint.registry import all_rules
from skillbox.lint.rules.composition import _without_leading_comments
from skillbox.lint.rules.gsap import _simple_selector
from skillbox.lint.rules.project import REMOTE, is_remote

CORPUS = Path(__file__).parent.parent / "fixtures" / "lint" / "corpus"
ODD = "K\u212a\u017fs\u0131\u0130i\n\t \u00a0_-:#.{$/"  # case-folding specials, spaces, punctuation


def _texts() -> list[str]:
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in sorted(CORPUS.rglob("*")) if p.is_file()]
    for r in all_rules().values():  # every rule's documented examples
        for sample in (r.bad, r.good):
            texts.extend(v if isinstance(v, str) else v.decode("utf-8", "replace") for v in sample.files.values())
    lines = [line for text in texts for line in text.splitlines()]
    return texts + lines + ["", "\n", ODD, "CAPT\u0130ON", "capt\u0131on", ".CAPTION-GROUP", "x\u212a"]


TEXTS = _texts()


def test_every_conditional_pattern_keeps_its_promise() -> None:
    """Every match contains one of the pattern's `needs`, so a subject without them cannot match (for a
    case-insensitive pattern: every match in an ASCII subject, lower-cased; others go to the pattern)."""
    all_rules()
    assert len(CONDITIONAL) >= 15
    for lazy in CONDITIONAL:
        compiled = lazy.compiled()
        folded = bool(compiled.flags & re.IGNORECASE)
        assert not compiled.fullmatch(""), lazy  # an empty match would contain none of them
        for text in TEXTS:
            if folded and not text.isascii():
                assert not lazy._absent(text)
                continue
            for match in compiled.finditer(text):
                found = match.group(0).lower() if folded else match.group(0)
                assert any(n in found for n in lazy.needs), (lazy, match.group(0))


@pytest.mark.parametrize("method", ["search", "match", "fullmatch", "findall", "split"])
def test_conditional_answers_equal_the_compiled_pattern(method: str) -> None:
    all_rules()
    for lazy in CONDITIONAL:
        compiled = lazy.compiled()
        for text in [*TEXTS[:400], ODD, "CAPT\u0130ON", ""]:
            ours, theirs = getattr(lazy, method)(text), getattr(compiled, method)(text)
            if method in ("search", "match", "fullmatch"):
                assert (ours and ours.span()) == (theirs and theirs.span()), (lazy, text[:80])
            else:
                assert ours == theirs, (lazy, text[:80])
        assert lazy.sub("X", ODD) == compiled.sub("X", ODD)


def test_a_subject_without_the_trigger_compiles_nothing() -> None:
    lazy = patterns.lazy_compile(r"\blottie\.play\b", needs=("lottie.",))
    assert lazy.search("gsap.timeline(); tl.play();") is None
    assert lazy.findall("no trigger here") == [] and list(lazy.finditer("x")) == []
    assert lazy.sub("y", "plain") == "plain" and lazy.split("plain") == ["plain"]
    assert lazy._compiled is None
    assert lazy.search("lottie.play()") is not None and lazy._compiled is not None
    folded = patterns.lazy_compile("caption", re.I, needs=("caption",))
    assert folded.search("TITLE") is None and folded._compiled is None
    assert folded.search("CAPT\u0130ON")  # non-ASCII: decided by the pattern itself (İ folds to i)


URLS = [
    "", "a", "assets/x.png", "/abs/x.png", "./x", "../x", "//cdn.example/x.js", "#frag", "{{src}}", "${src}",
    "__VIDEO_SRC__", "__VIDEO_SRC__\n", "__x__", "____", "_____", "__a-b__", "__A__x", "_A__", "https://x", "HTTPS:x",
    "data:image/png;base64,AA", "blob:x", "mailto:a@b", "c++:x", "1http://x", "h.t-t+p:x", "a b:c", ":x", "x:",
    "\u212aey:x", "\u017fip:x", "\u0131d:x", "\u0130d:x", "__\u212a__", "__\u0131__", "\u00e9t\u00e9:x", "a\u00e9:x",
    "$", "{", "#", "//", "/", "C:\\x", " x:y",
]  # fmt: skip


@pytest.mark.parametrize("url", URLS)
def test_is_remote_equals_the_remote_pattern(url: str) -> None:
    assert is_remote(url) == bool(REMOTE.compiled().match(url))


WORD_CASES = [
    ("tl", "window.__timelines['a'] = tl;"), ("tl", "tl2"), ("tl", "_tl"), ("tl", "a.tl.b"), ("tl", "tl"),
    ("tl", "été_tl"), ("tl", "ötl"), ("tl", "tlö"), ("tl", "x tl"), ("a.b", "xa.b"), ("a.b", "a.bc"),
    ("$tl", "x$tl"), ("$tl", " $tl "), ("tl$", "tl$x"), ("tl$", "tl$ "), ("", "abc"), ("", ""), ("", "  "),
    ("x", ""), ("tl", "tl tl2"), ("tl", "tl2 tl"), ("１", "a１b"), ("tl", "tl\u00b2"),
]  # fmt: skip


@pytest.mark.parametrize(("word", "text"), WORD_CASES)
def test_has_word_equals_the_word_boundary_pattern(word: str, text: str) -> None:
    assert has_word(text, word) == (re.search(rf"\b{re.escape(word)}\b", text) is not None)


SELECTORS = [
    "#a", ".a", "#a-b_c", ".été", "#", ".", "a", "#a.b", "#a b", "#a\n", "#a\n\n", ".a:hover", "#１", "div",
    "*", "#a\u00b2", "", "\n", "#a-", ".-",
]  # fmt: skip


@pytest.mark.parametrize("selector", SELECTORS)
def test_simple_selector_equals_its_pattern(selector: str) -> None:
    assert _simple_selector(selector) == bool(re.match(r"^[#.][\w-]+$", selector))


COMMENTED = [
    "", "<!-- a --><template>", "  <!-- a -->\n <!--b-->x", "<!-- open", " <!-- a --> <!-- open", "<!---->x",
    "<!-->x-->y", "\u00a0<!--a-->z", "x<!--a-->", "<!--a--><!--b-->", "<!--a-->\n", "<!--a---->b",
]  # fmt: skip


@pytest.mark.parametrize("text", COMMENTED)
def test_without_leading_comments_equals_its_pattern(text: str) -> None:
    assert _without_leading_comments(text) == re.sub(r"^(?:\s*<!--.*?-->)*", "", text, flags=re.S)


COMPOUNDS = [
    "#a", ".a", "div", "DIV", "*", "#b", ".b", "span", "#a.a", "div.a", ".a.b", "#a:hover", "div::before", "a",
    "#été", ".été", "é", "#a-b", "[id=a]", "#", ".", "1a", "#a\u00b2",
]  # fmt: skip
ELEMENTS = [
    ("div", {"id": "a", "class": "a b"}),
    ("span", {"id": "été", "class": "été"}),
    ("a", {}),
    ("div", {"id": "a-b", "class": ""}),
    ("div", {"id": "a\u00b2", "class": "a"}),
]


@pytest.mark.parametrize("compound", COMPOUNDS)
def test_simple_compounds_match_like_the_pattern_loop(compound: str) -> None:
    for tag, attrs in ELEMENTS:
        assert compound_matches(compound, tag, attrs) == (
            bool(compound) and _compound_matches_by_pattern(compound, tag, attrs)
        ), (compound, tag, attrs)


PYPROJECTS = [
    "", "tool.skillbox", "tool . skillbox", "'tool'.'skillbox'", "\"tool\" .\n \"skillbox\"", "tool..skillbox",
    "tool.\"\"skillbox", "[tool.skillbox.lint]", "tool\u00a0.\u2003skillbox", "tools.skillbox", "xtool.skillbox",
    "[tool]\nskillbox = {}", "  [ 'tool' ]\n", "\n\n   \n[tool]", "tool = {skillbox = {}}", "'tool' =", "\"tool\"=",
    "x = 1\n  tool =", "x = [tool]", "[tool.x]", "[ tool ]", "[tool ] # c", "[tool]]", "\r[tool]", "a\r\n[tool]",
    "[\ttool\t]", "[\ntool\n]", "tool\n=", "[tool", "tool", "\n" * 50 + "[tool]", "a\n" * 30 + "b = tool =",
    "''tool''=", "[''tool'']", "[tool.setuptools]\nname = 'skillbox'",
]  # fmt: skip


@pytest.mark.parametrize("text", PYPROJECTS)
def test_pyproject_table_tests_equal_their_patterns(text: str) -> None:
    from skillbox.lint.config import _dotted_tool_skillbox, _tool_table_line

    assert _dotted_tool_skillbox(text) == bool(re.search(r"""tool["']?\s*\.\s*["']?skillbox""", text))
    table = re.search(r"""^\s*(?:\[\s*["']?tool["']?\s*\]|["']?tool["']?\s*=)""", text, re.MULTILINE)
    assert _tool_table_line(text) == bool(table)


def test_the_repository_pyproject_reads_the_same() -> None:
    from skillbox.lint.config import _dotted_tool_skillbox, _tool_table_line

    text = (Path(__file__).parents[2] / "pyproject.toml").read_text()
    for variant in (text, text.replace("[tool.", "[ 'tool' ]\n[tool."), text + "\ntool.skillbox.lint = {}\n"):
        assert _dotted_tool_skillbox(variant) == bool(re.search(r"""tool["']?\s*\.\s*["']?skillbox""", variant))
        table = re.search(r"""^\s*(?:\[\s*["']?tool["']?\s*\]|["']?tool["']?\s*=)""", variant, re.MULTILINE)
        assert _tool_table_line(variant) == bool(table)


def test_pyproject_table_tests_on_random_token_soup() -> None:
    """Seeded random strings made of the patterns' own pieces: thousands of near misses."""
    import random

    from skillbox.lint.config import _dotted_tool_skillbox, _tool_table_line

    pieces = ["tool", "skillbox", "[", "]", "=", ".", "'", '"', " ", "\n", "\t", "\r", "x", "\u00a0", "#"]
    rng = random.Random(12)
    dotted = re.compile(r"""tool["']?\s*\.\s*["']?skillbox""")
    table = re.compile(r"""^\s*(?:\[\s*["']?tool["']?\s*\]|["']?tool["']?\s*=)""", re.MULTILINE)
    hits = 0
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        assert _dotted_tool_skillbox(text) == bool(dotted.search(text)), repr(text)
        assert _tool_table_line(text) == bool(table.search(text)), repr(text)
        hits += bool(table.search(text)) + bool(dotted.search(text))
    assert hits > 200  # the soup does reach both patterns


@pytest.mark.parametrize(
    "selector",
    [
        "",
        "#a",
        "#a #b",
        "#a#a",
        "div#x.y #z",
        "#",
        "##a",
        "#-",
        "#été#a",
        "a#b:hover #b",
        "#a\u00b2 #b",
        "# a",
        "#a_b-c",
    ],
)
def test_selector_ids_equal_the_id_pattern(selector: str) -> None:
    from skillbox.lint.rules.core import selector_ids

    assert selector_ids(selector) == re.findall(r"#([\w-]+)", selector)
