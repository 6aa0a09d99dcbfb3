"""The text helpers extraction uses on every docstring, receiver and comment.

They were rewritten for speed against simpler definitions (`inspect.cleandoc` then a paragraph split; two regex
matches per receiver; NOTE_RE on every decoded comment). Records are cached by content, so a helper that drifts
from its definition silently changes graphs: each one is checked against that definition on tricky inputs.
"""

from __future__ import annotations

import inspect
import random

import pytest

from skillbox.graph.extract import (
    DOC_LIMIT,
    NOTE_PROBE,
    NOTE_RE,
    SIMPLE_RECEIVER,
    clean_docstring,
    receiver_form,
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
    if len(receiver) > 80 or not SIMPLE_RECEIVER.match(receiver):
        receiver = "".join(receiver.split())
        if len(receiver) > 80 or not SIMPLE_RECEIVER.match(receiver):
            receiver = "?"
    return receiver


@pytest.mark.parametrize(
    ("receiver", "form"),
    [
        ("self.app", 0),
        ("os.path", 0),
        ("super()", 0),
        ("Foo::Bar", 0),
        ("$this->db", 0),
        ("this.server\n      .config", 1),
        ("a . b", 1),
        ("foo(bar).baz", 2),
        ("items[0]", 2),
        ("a" * 81, 2),
        ("a.\n" + "b" * 79, 2),
        ("", 2),
    ],
)
def test_receiver_form_is_how_the_receiver_is_recorded(receiver, form):
    assert receiver_form(receiver) == form
    recorded = [receiver, "".join(receiver.split()), "?"][form]
    assert recorded == receiver_by_definition(receiver)


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
