"""The text helpers extraction uses on every docstring, receiver and comment.

They were rewritten for speed against simpler definitions (`inspect.cleandoc` then a paragraph split; two regex
matches per receiver; NOTE_RE on every decoded comment). Records are cached by content, so a helper that drifts
from its definition silently changes graphs: each one is checked against that definition on tricky inputs.
"""

from __future__ import annotations

import inspect
import random
import re

import pytest

from skillbox.graph.extract import (
    DOC_LIMIT,
    NOTE_PROBE,
    NOTE_RE,
    SIMPLE_RECEIVER,
    clean_docstring,
    recorded_receiver,
)


def docstring_by_definition(raw: str) -> str | None:
    body = raw.lstrip("rRbBuUfF")
    for quote in ('"""', "'''", '"', "'"):
        if body.startswith(quote) and body.endswith(quote) and len(body) >= 2 * len(quote):
            body = body[len(quote) : -len(quote)]
            break
    text = inspect.cleandoc(body).strip()
    if not text:
        return None
    return " ".join(text.split("\n\n", 1)[0].split())[:DOC_LIMIT]


DOCSTRINGS = [
    '"""Return the thing."""',
    '"""\n    Summary line.\n\n    Details that are dropped.\n    """',
    '"""Summary\n    continues here.\n\n    Body."""',
    # A whitespace-only line no longer than the margin is a paragraph break; a longer one is not.
    '"""Summary.\n    \n    Second."""',
    '"""Summary.\n      \n    Second."""',
    '"""Summary.\n  \n    Second.\n  Third at margin two."""',
    # Tabs are expanded before the margin is measured.
    '"""Summary.\n\tindented by a tab\n\t\n\tmore"""',
    '"""Summary.\n  \tmixed\n        \n  \tmore"""',
    # Windows line endings: "\r" stays on the line.
    '"""Summary.\r\n    more\r\n\r\n    Second.\r\n"""',
    '"""Summary.\r\n\r\nSecond."""',
    # Blank first lines, text only on the first line, nothing at all.
    '"""\n\n\n   First real line.\n   next\n\n   dropped"""',
    '"""Only the first line.\n\n\n"""',
    '""""""',
    '"""   \n   \n"""',
    "''",
    # Prefixes and single quotes.
    "r'''Raw \\d docstring.\n\n    More.'''",
    'b"bytes doc"',
    "f'formatted {x}'",
    # Unicode whitespace counts as indentation, like str.lstrip() does.
    '"""Summary.\n\u3000\u3000indented by ideographic spaces\n\u3000\u3000\n\u3000\u3000next"""',
    '"""Summary.\n\u00a0\n    Second."""',
    '"""Form\x0cfeed.\n    \x0c\n    next"""',
    # Longer than the limit.
    '"""' + "word " * 200 + '"""',
    # Not a quoted string at all (a language whose doc capture is a comment or plain text).
    "plain text\n  with lines\n\n  and more",
]


@pytest.mark.parametrize("raw", DOCSTRINGS)
def test_clean_docstring_matches_cleandoc_definition(raw):
    assert clean_docstring(raw) == docstring_by_definition(raw)


def test_clean_docstring_matches_definition_on_random_layouts():
    rng = random.Random(7)
    pieces = ["word", "two words", "", " ", "  ", "    ", "\t", " \t", "\u3000", "\r", "x\ty", "'", '"']
    for _ in range(3000):
        lines = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 4))) for _ in range(rng.randint(1, 7))]
        for line_index in range(len(lines)):
            lines[line_index] = " " * rng.choice([0, 0, 1, 2, 4, 8]) + lines[line_index]
        raw = '"""' + "\n".join(lines) + '"""'
        assert clean_docstring(raw) == docstring_by_definition(raw), raw


def receiver_by_definition(receiver: str) -> str:
    if len(receiver) <= 80 and SIMPLE_RECEIVER.match(receiver):
        return receiver
    if not receiver.startswith("new"):
        squashed = "".join(receiver.split())
        if len(squashed) <= 80 and SIMPLE_RECEIVER.match(squashed):
            return squashed
    # Arguments dropped, by repeatedly emptying innermost parentheses (no quotes in these inputs).
    text = re.sub(r"^new\s+", "", receiver)
    text = re.sub(r"<[^()]*>(?=\()", "", text)
    while True:
        emptied = re.sub(r"\([^()]*\)", "\0", text)
        if emptied == text:
            break
        text = emptied
    text = "".join(text.replace("\0", "()").split())
    chain = re.fullmatch(r"[A-Za-z_$@][\w$]*(\(\))?((\.|::|->)[A-Za-z_$][\w$]*(\(\))?)*", text)
    return text if len(text) <= 80 and chain else "?"


@pytest.mark.parametrize(
    ("receiver", "recorded"),
    [
        ("self.app", "self.app"),
        ("os.path", "os.path"),
        ("super()", "super()"),
        ("Foo::Bar", "Foo::Bar"),
        ("$this->db", "$this->db"),
        ("this.server\n      .config", "this.server.config"),
        ("a . b", "a.b"),
        ("foo(bar).baz", "foo().baz"),
        ("a.b(x, f(y)).c(z)", "a.b().c()"),
        ("new Foo<Bar<T>>(x)", "Foo()"),
        ("new GsonBuilder()\n    .setPrettyPrinting()", "GsonBuilder().setPrettyPrinting()"),
        ("Foo::new(1)", "Foo::new()"),
        ("$this->db->query($q)", "$this->db->query()"),
        ("items[0]", "?"),
        ("items[0].x(1)", "?"),
        ("a < b", "?"),
        ("new TypeToken<List<X>>() {}", "?"),
        ("a" * 81, "?"),
        ("a.\n" + "b" * 79, "?"),
        ("", "?"),
    ],
)
def test_receiver_is_recorded_as_a_chain_of_names_and_calls(receiver, recorded):
    assert recorded_receiver(receiver) == recorded
    assert recorded == receiver_by_definition(receiver)


def test_arguments_with_quotes_and_nesting_are_dropped_whole():
    assert recorded_receiver("foo(\")\", g('(')).bar(`${x})`)") == "foo().bar()"
    assert recorded_receiver("foo(a).bar(") == "?"  # unbalanced: nothing is guessed
    assert recorded_receiver("foo(a)).bar") == "?"


@pytest.mark.parametrize(
    "comment",
    [
        "# NOTE: keep this",
        "// WHY: because",
        "/* HACK(bob) - temporary */",
        "-- NOTE keep",
        "# \u2014 NOTE: after an em dash",
        "# \u00e9 NOTE: after a letter that is not ASCII",
        "# NOTE",
        "# NOTES: plural is not a note",
        "# note: lower case is not a note",
        "# a NOTE: not first",
        "#\xa0NOTE: after a no-break space",
        "# NOTE\u00e9: followed by a letter",
    ],
)
def test_note_probe_never_misses_a_note(comment):
    """The probe runs on raw bytes and may say yes too often, never too rarely."""
    data = b"x = 1\n" + comment.encode("utf-8") + b"\ny = 2\n"
    start = data.index(comment.encode("utf-8"))
    end = start + len(comment.encode("utf-8"))
    if NOTE_RE.match(comment):
        assert NOTE_PROBE.match(data, start, end)
