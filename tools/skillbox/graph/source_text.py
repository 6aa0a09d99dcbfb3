"""A source file's bytes as the UTF-8 tree-sitter parses: byte-order marks and PEP 263 coding lines honoured.

Tree-sitter reads UTF-8, and its query predicates decode node text strictly, so one Latin-1 `é` in a docstring
used to abort the whole build. Here a file is turned into UTF-8 once, before parsing:
- pure ASCII (almost every file) is returned as it is, after one C-level `isascii()`;
- a UTF-8 BOM is dropped; UTF-16 and UTF-32 with a BOM are transcoded (without the BOM they look binary, and
  are skipped as binary, as before);
- a Python file's PEP 263 coding line (`# -*- coding: latin-1 -*-`, on line 1, or line 2 below a comment line)
  decides its codec; a declared codec that is unknown, fails on the bytes or contradicts a UTF-8 BOM makes the
  file *undecodable*: it is skipped and reported under that reason, never parsed as garbage (CPython's
  `tokenize.detect_encoding` is the oracle in tests/graph/test_encodings.py);
- anything else that is not valid UTF-8 is parsed with U+FFFD for the bad bytes and counted in the build's
  `invalid_utf8` warning (most of such a file is still code worth having).
Line numbers are unchanged by all of this (only the bytes within a line change), so records still point at the
right lines of the file on disk.
"""

from __future__ import annotations

import codecs
import re

UNDECODABLE = "undecodable"
# utf-32 first: its little-endian BOM begins with utf-16's
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_BOM_FIRST_BYTES = frozenset(bom[0] for bom, _codec in _BOMS)
# PEP 263: the regex the tokenizer uses, on one of the first two lines
_CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")
_COMMENT_OR_BLANK = re.compile(rb"^[ \t\f]*(?:[#\r\n]|$)")
_UTF8_NAMES = frozenset({"utf-8", "utf8", "utf_8", "u8", "utf-8-sig"})


def declared_coding(data: bytes) -> str | None:
    """The codec a Python file declares on line 1 or 2 (PEP 263), lower-case, or None."""
    end = data.find(b"\n")
    first = data if end < 0 else data[:end]  # two short slices, never a copy of the whole file
    match = _CODING.match(first)
    if match is None and end >= 0 and _COMMENT_OR_BLANK.match(first):
        second_end = data.find(b"\n", end + 1)
        match = _CODING.match(data[end + 1 : second_end if second_end >= 0 else len(data)])
    return match.group(1).decode("ascii").lower() if match else None


def as_utf8(data: bytes, lang: str) -> tuple[bytes, int] | str:
    """(UTF-8 bytes to parse, 1 when invalid UTF-8 bytes were replaced else 0), or the reason to skip the file."""
    if data.isascii():
        return data, 0
    utf8_bom = False
    if data[0] in _BOM_FIRST_BYTES:
        for bom, codec in _BOMS:
            if data.startswith(bom):
                if codec == "utf-8":
                    data = data[len(bom) :]
                    utf8_bom = True
                    break
                try:
                    return data.decode(codec).encode("utf-8"), 0
                except UnicodeError:
                    return UNDECODABLE
    declared = declared_coding(data) if lang == "python" else None
    if declared is not None and declared not in _UTF8_NAMES:
        if utf8_bom:
            return UNDECODABLE  # a UTF-8 BOM and another codec declared: Python refuses such a file too
        try:
            return data.decode(declared).encode("utf-8"), 0
        except (LookupError, UnicodeError):
            return UNDECODABLE
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        if declared is not None:
            return UNDECODABLE  # it says UTF-8 and is not: Python itself would refuse to run it
        return data.decode("utf-8", "replace").encode("utf-8"), 1
    return data, 0
