"""Indented JSON text exactly as `json.dumps(value, indent=2, ensure_ascii=False)` writes it, without the json package.

The lint's `--json` and SARIF output is JSON text a per-project process prints once. Importing the stdlib `json`
package for it (`json.decoder`, `json.scanner`, `json.encoder` and six patterns compiled at import) was about 7 M
instructions of a ~115 M process; orjson is no way out: its import pulls in `json` itself, `dataclasses`,
`inspect`, `uuid` and `datetime` (98.6 M instructions, measured with callgrind, bench/README.md "lint speed per
project, session 7").

So the lint writes the payload's few shapes itself, with the stdlib's own string escaper: `_json.encode_basestring`
is the C function `json.dumps(..., ensure_ascii=False)` calls for every string (same escapes, non-ASCII as-is).
The layout is `json.encoder`'s for `indent=2`: one item a line ending in `,`, `": "` after keys, `[]`/`{}` when
empty.
Anything else goes to `json.dumps` for the whole payload: floats (its `repr` rules, NaN), subclasses of the basic
types, non-str keys, other objects, nesting past 200 levels (cycles included), or a CPython without `_json`.
tests/lint/test_json_text.py compares both on every corpus project's findings and on edge values.
"""

from __future__ import annotations

_MAX_DEPTH = 200


class _NotPlain(Exception):
    """The value holds something only `json.dumps` knows how to write the same way."""


def dumps(value) -> str:
    """`json.dumps(value, indent=2, ensure_ascii=False)`, byte for byte."""
    try:
        from _json import encode_basestring
    except ImportError:  # pragma: no cover - CPython always builds it
        encode_basestring = None
    if encode_basestring is not None:
        chunks: list[str] = []
        try:
            _write(value, chunks, encode_basestring, 0)
        except _NotPlain:
            pass
        else:
            return "".join(chunks)
    import json

    return json.dumps(value, indent=2, ensure_ascii=False)


def _write(value, out: list[str], quote, level: int) -> None:
    kind = type(value)
    if kind is str:
        out.append(quote(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif kind is int:
        out.append(int.__repr__(value))
    elif kind is dict or kind is list or kind is tuple:
        if level >= _MAX_DEPTH:
            raise _NotPlain
        if not value:
            out.append("{}" if kind is dict else "[]")
            return
        inner = "\n" + "  " * (level + 1)
        if kind is dict:
            out.append("{")
            first = True
            for key, child in value.items():
                if type(key) is not str:
                    raise _NotPlain
                out.append(inner if first else "," + inner)
                first = False
                out.append(quote(key))
                out.append(": ")
                _write(child, out, quote, level + 1)
            out.append("\n" + "  " * level + "}")
        else:
            out.append("[")
            first = True
            for child in value:
                out.append(inner if first else "," + inner)
                first = False
                _write(child, out, quote, level + 1)
            out.append("\n" + "  " * level + "]")
    else:
        raise _NotPlain
