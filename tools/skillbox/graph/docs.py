"""Markdown and reStructuredText: headings, links and backticked mentions, as records.

Docs are prose, so there is no grammar to lean on; line patterns cover what matters for the graph (the heading
outline, relative links, inline code that names a symbol) and fenced/literal blocks are skipped so code samples
do not masquerade as mentions.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate
from operator import attrgetter

from skillbox.graph.records import DocLink, FileRecord, Heading, Mention

# The Markdown patterns run over the whole text (see _line_text), so none may cross a "\\n": `[^\\S\\n]` is `\\s`
# within a line. Each starts with a literal so the regex engine can skip ahead to candidates.
# A line that may change the outline: fence (1), ATX heading (2: hashes, 3: title) or setext underline (4).
MD_STRUCTURE = re.compile(
    r"\n(?: {0,3}(?:(`{3,}|~{3,})|(#{1,6})[^\S\n]+(.*?)(?:[^\S\n]+#+)?[^\S\n]*$)|[^\S\n]*(={2,}|-{2,})[^\S\n]*$)",
    re.MULTILINE,
)
# An optional "!" before the "[" cannot change which targets are found, so the pattern starts at the "[".
MD_LINK = re.compile(r"\[[^\]\n]*\]\([^\S\n]*<?([^)\s>]+)>?(?:[^\S\n]+\"[^\"\n]*\")?[^\S\n]*\)")
MD_REF_DEF = re.compile(r"\n {0,3}\[[^\]\n]+\]:[^\S\n]*<?(\S+?)>?(?:[^\S\n]+.*)?$", re.MULTILINE)
CODE_SPAN = re.compile(r"`(?<!``)([^`\n]{2,100})`(?!`)")  # the lookbehind sees the char before the opening "`"
RST_ADORN = re.compile(r"^([=\-`:'\"~^_*+#<>.])\1{2,}\s*$")
RST_LINK = re.compile(r"`[^`<]*<([^>`]+)>`__?")
RST_ROLE = re.compile(r":(?:py:)?(func|class|meth|mod|attr|obj|exc|data|doc|ref)?:`~?([^`]+)`")
RST_LITERAL = re.compile(r"``([^`\n]{2,100})``")
RST_INCLUDE = re.compile(r"^\s*\.\. (?:include|literalinclude|image|figure)::\s*(\S+)")
MENTION_OK = re.compile(r"^[A-Za-z_][\w.:/-]*(?:\(\))?$")
EXTERNAL = ("http://", "https://", "mailto:", "ftp://", "//", "data:")
_PLUS_ONE = (1).__add__
_BY_LINE = attrgetter("line")


def slugify(title: str) -> str:
    text = re.sub(r"[`*_~\[\]()<>]", "", title.lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.strip().replace(" ", "-") or "section"


def _mention(text: str) -> str | None:
    text = text.strip()
    if text.endswith("()"):
        text = text[:-2]
    if len(text) < 3 or not MENTION_OK.match(text):
        return None
    return text


def _link(target: str) -> str | None:
    if target.startswith(EXTERNAL) or target.startswith("#"):
        return None
    return target


class _Outline:
    def __init__(self):
        self.headings: list[Heading] = []
        self.stack: list[int] = []
        self.slugs: dict[str, int] = {}

    def add(self, level: int, title: str, line: int) -> bool:
        title = " ".join(title.split())
        if not title:
            return False
        slug = slugify(title)
        count = self.slugs.get(slug, 0)
        self.slugs[slug] = count + 1
        if count:
            slug = f"{slug}-{count}"
        while self.stack and self.headings[self.stack[-1]].level >= level:
            self.stack.pop()
        parent = self.stack[-1] if self.stack else -1
        self.headings.append(Heading(level, title, slug, line, parent))
        self.stack.append(len(self.headings) - 1)
        return True

    @property
    def current(self) -> int:
        return len(self.headings) - 1


def _line_text(data: bytes) -> tuple[list[str], str, list[int]]:
    """Lines as `str.splitlines` cuts them, rejoined behind a leading "\\n" so whole-text regex passes see exactly
    those lines (CRLF, lone CR, form feeds, U+2028 ... all become one "\\n"), plus the offset of the newline that
    opens each line: `bisect_right(starts, offset)` is the 1-based line of any offset inside the text."""
    lines = data.decode("utf-8", "replace").splitlines()
    starts = list(accumulate(map(_PLUS_ONE, map(len, lines)), initial=0))
    starts.pop()
    return lines, "\n" + "\n".join(lines), starts


def _heading_by_line(line_count: int, made: list[int]) -> list[int | None]:
    """Index of the heading in force on each line (1-based; -1 before the first), from the lines that created
    each heading in order; a heading governs the lines after the one that created it."""
    head: list[int | None] = []
    before = 0
    for index, line in enumerate(made):
        head += [index - 1] * (line + 1 - before)
        before = line + 1
    head += [len(made) - 1] * (line_count + 1 - before)
    return head


def extract_markdown(data: bytes) -> FileRecord:
    lines, text, starts = _line_text(data)
    outline = _Outline()
    made: list[int] = []  # line whose processing created each heading (the underline, for setext)
    dead: list[int] = []  # heading and consumed underline lines: no links or mentions there
    fenced: list[tuple[int, int]] = []  # first and last line of each fenced block, fence lines included
    fence = None
    fence_line = last_dead = 0
    # One pass over the few lines that can change the structure; prose lines never enter Python.
    for match in MD_STRUCTURE.finditer(text):
        line = bisect_right(starts, match.start())
        marker, hashes, title, rule = match.groups()
        if fence:
            if marker and marker[0] == fence[0] and len(marker) >= len(fence):
                fenced.append((fence_line, line))
                fence = None
                last_dead = line
            continue
        if marker:
            fence, fence_line = marker, line
        elif hashes:
            if outline.add(len(hashes), title, line):
                made.append(line)
            dead.append(line)
            last_dead = line
        elif last_dead < line - 1 and line > 1:
            # A setext underline only counts under a plain, non-indented, non-blank line.
            previous = lines[line - 2]
            stripped = previous.strip()
            if stripped and not previous.startswith(("    ", "\t")):
                if outline.add(1 if rule[0] == "=" else 2, stripped, line - 1):
                    made.append(line)
                dead.append(line)
                last_dead = line
    if fence:
        fenced.append((fence_line, len(lines)))
    head = _heading_by_line(len(lines), made)
    for first, last in fenced:
        head[first : last + 1] = [None] * (last + 1 - first)
    for line in dead:
        head[line] = None

    links: list[DocLink] = []
    if "](" in text:
        for match in MD_LINK.finditer(text):
            line = bisect_right(starts, match.start())
            heading = head[line]
            target = match.group(1)
            if heading is not None and _link(target):
                links.append(DocLink(target, line, heading))
    if "]:" in text:
        ref_defs = []
        for match in MD_REF_DEF.finditer(text):
            line = bisect_right(starts, match.start())
            heading = head[line]
            target = match.group(1)
            if heading is not None and _link(target):
                ref_defs.append(DocLink(target, line, heading))
        if ref_defs:  # a line's inline links come before its reference definition (the sort is stable)
            links = sorted(links + ref_defs, key=_BY_LINE)
    mentions: list[Mention] = []
    if "`" in text:
        for match in CODE_SPAN.finditer(text):
            line = bisect_right(starts, match.start())
            heading = head[line]
            if heading is not None:
                name = _mention(match.group(1))
                if name:
                    mentions.append(Mention(name, line, heading))
    return FileRecord(lang="markdown", headings=tuple(outline.headings), links=tuple(links), mentions=tuple(mentions))


def extract_rst(data: bytes) -> FileRecord:
    text = data.decode("utf-8", "replace")
    lines = text.splitlines()
    outline = _Outline()
    levels: dict[tuple[str, bool], int] = {}
    links: list[DocLink] = []
    mentions: list[Mention] = []
    skip_until_dedent = False
    index = 0
    while index < len(lines):
        line = lines[index]
        number = index + 1
        if skip_until_dedent:
            if line.strip() and not line.startswith((" ", "\t")):
                skip_until_dedent = False
            else:
                index += 1
                continue
        nxt = lines[index + 1] if index + 1 < len(lines) else ""
        # Over- and underlined title, or underlined title.
        if (
            RST_ADORN.match(line)
            and index + 2 < len(lines)
            and RST_ADORN.match(lines[index + 2])
            and lines[index + 1].strip()
        ):
            key = (line.strip()[0], True)
            level = levels.setdefault(key, len(levels) + 1)
            outline.add(level, lines[index + 1], index + 2)
            index += 3
            continue
        if (
            line.strip()
            and not line.startswith((" ", "\t"))
            and RST_ADORN.match(nxt)
            and len(nxt.strip()) >= len(line.strip())
        ):
            key = (nxt.strip()[0], False)
            level = levels.setdefault(key, len(levels) + 1)
            outline.add(level, line, number)
            index += 2
            continue
        include = RST_INCLUDE.match(line)
        if include and _link(include.group(1)):
            links.append(DocLink(include.group(1), number, outline.current))
        for target in RST_LINK.findall(line):
            target = _link(target.strip())
            if target:
                links.append(DocLink(target, number, outline.current))
        for role, target in RST_ROLE.findall(line):
            target = target.strip()
            if "<" in target and target.endswith(">"):
                target = target[target.rindex("<") + 1 : -1]
            if role == "doc":
                links.append(DocLink(target, number, outline.current))  # Sphinx adds the suffix
            elif role != "ref":
                name = _mention(target)
                if name:
                    mentions.append(Mention(name, number, outline.current))
        for literal in RST_LITERAL.findall(line):
            name = _mention(literal)
            if name:
                mentions.append(Mention(name, number, outline.current))
        if (
            (line.rstrip().endswith("::") and not line.strip().startswith(".. "))
            or line.strip().startswith(".. code")
            or line.strip().startswith(".. sourcecode")
        ):
            skip_until_dedent = True
        index += 1
    return FileRecord(lang="rst", headings=tuple(outline.headings), links=tuple(links), mentions=tuple(mentions))
