"""Split a markdown file into YAML frontmatter and body, and parse the frontmatter the strict way.

The Agent Skills reference validator parses frontmatter with strictyaml: no flow lists (`[a, b]`), no unquoted
`: ` inside a value, no anchors, tags or duplicate keys, and every scalar stays a string. Claude Code's own parser
is more lenient, so a file that loads fine in Claude Code can still fail other agents; we use strictyaml itself so
both verdicts agree. Line numbers are kept so every finding points at the right line of the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import strictyaml

BOM = "\ufeff"
FENCE = "---"


class FrontmatterError(Exception):
    """The frontmatter cannot be read at all; carries the problem code and the 1-based file line."""

    def __init__(self, code: str, line: int, message: str):
        super().__init__(message)
        self.code = code
        self.line = line


@dataclass
class Document:
    """A markdown file with frontmatter: parsed data, where each top-level key sits, and the body."""

    data: dict
    key_lines: dict[str, int] = field(default_factory=dict)
    body: str = ""
    body_first_line: int = 1

    @property
    def body_line_count(self) -> int:
        return len(self.body.splitlines())


def split_frontmatter(text: str) -> tuple[str, str, int]:
    """Return (frontmatter text, body text, file line of the body's first line).

    The frontmatter opens with a `---` line as the very first line and closes at the next `---` line.
    """
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip("\r\n").rstrip() != FENCE:
        raise FrontmatterError("frontmatter_missing", 1, "file must start with YAML frontmatter: a first line '---'")
    for index in range(1, len(lines)):
        if lines[index].rstrip("\r\n").rstrip() == FENCE:
            return "".join(lines[1:index]), "".join(lines[index + 1 :]), index + 2
    raise FrontmatterError("frontmatter_unclosed", 1, "frontmatter is not closed with a '---' line")


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split())


def parse_document(text: str) -> Document:
    """Parse a frontmatter + markdown document (BOM already removed by the caller)."""
    front, body, body_first_line = split_frontmatter(text)
    try:
        parsed = strictyaml.load(front)
    except strictyaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = 2 + (mark.line if mark is not None else 0)
        problem = _one_line(getattr(err, "problem", None)) or _one_line(str(err))
        duplicate = re.match(r"Duplicate key '(.+)' found", problem)
        if duplicate:  # raised after strictyaml re-serializes, so its line can drift; find the repeat ourselves
            line = _repeat_line(front, duplicate.group(1)) or line
        raise FrontmatterError("yaml_invalid", line, f"invalid YAML in frontmatter: {problem}") from None
    if not isinstance(parsed.data, dict):
        raise FrontmatterError("frontmatter_not_mapping", 2, "frontmatter must be a YAML mapping of keys to values")
    return Document(parsed.data, top_level_key_lines(front), body, body_first_line)


_TOP_LEVEL_KEY = re.compile(r"""^(?:"([^"]+)"|'([^']+)'|([^\s#'"][^:]*?))\s*:(?:\s|$)""")


def _repeat_line(front: str, key: str) -> int | None:
    seen = 0
    for offset, line in enumerate(front.splitlines()):
        match = _TOP_LEVEL_KEY.match(line)
        if match and key in match.groups():
            seen += 1
            if seen == 2:
                return 2 + offset
    return None


def top_level_key_lines(front: str) -> dict[str, int]:
    """File line of each top-level key (frontmatter line 1 is file line 2).

    Read from the text rather than from strictyaml's node positions, which drift after lines long enough for its
    serializer to wrap.
    """
    lines: dict[str, int] = {}
    for offset, line in enumerate(front.splitlines()):
        match = _TOP_LEVEL_KEY.match(line)
        if match:
            key = next(group for group in match.groups() if group is not None)
            lines.setdefault(key, 2 + offset)
    return lines
