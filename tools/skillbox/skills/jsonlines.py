"""Line numbers for the members of a JSON document, so manifest findings point at the offending line.

The standard decoder does the parsing; this only walks the already-valid text once, recording where each
object member and array item starts, keyed by its path (a tuple of keys and indexes, as jsonschema reports).
"""

from __future__ import annotations

import json
from json.decoder import scanstring

_WHITESPACE = " \t\n\r"
_DECODER = json.JSONDecoder()

JsonPath = tuple[str | int, ...]


def _skip(text: str, index: int) -> int:
    while index < len(text) and text[index] in _WHITESPACE:
        index += 1
    return index


def _line(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def _walk(text: str, index: int, path: JsonPath, lines: dict[JsonPath, int]) -> int:
    index = _skip(text, index)
    lines.setdefault(path, _line(text, index))
    opener = text[index]
    if opener not in "{[":
        return _DECODER.raw_decode(text, index)[1]
    closer = "}" if opener == "{" else "]"
    index = _skip(text, index + 1)
    position = 0
    while text[index] != closer:
        if opener == "{":
            key_start = index
            key, index = scanstring(text, index + 1)
            member: JsonPath = (*path, key)
            lines.setdefault(member, _line(text, key_start))
            index = _skip(text, index) + 1  # past ':'
        else:
            member = (*path, position)
            position += 1
        index = _skip(text, _walk(text, index, member, lines))
        if text[index] == ",":
            index = _skip(text, index + 1)
    return index + 1


def member_lines(text: str) -> dict[JsonPath, int]:
    """Map every path in a valid JSON text to the 1-based line where it starts (the key's line for members)."""
    lines: dict[JsonPath, int] = {}
    _walk(text, 0, (), lines)
    return lines


def line_of(lines: dict[JsonPath, int], path: JsonPath) -> int:
    """The line of `path`, or of its nearest ancestor that exists (a missing key is reported on its parent)."""
    path = tuple(path)
    while path and path not in lines:
        path = path[:-1]
    return lines.get(path, 1)
