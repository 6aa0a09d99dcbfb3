"""Markdown and reStructuredText: headings, links and backticked mentions, as records.

Docs are prose, so there is no grammar to lean on; line patterns cover what matters for the graph (the heading
outline, relative links, inline code that names a symbol) and fenced/literal blocks are skipped so code samples
do not masquerade as mentions.

For speed each pattern runs once over the whole text rather than line by line: the few lines that shape the
outline are found first, and then each link or mention is kept or dropped by the region of text it falls in.
The records are the same as a line-by-line reading with `str.splitlines` would give.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from operator import attrgetter

from skillbox.graph.records import DocLink, FileRecord, Heading, Mention

# The Markdown patterns run over the whole text at once (see _joined_lines), so none may cross a "\n". _SPACE is
# `\s` without "\n", spelled out so the regex engine tests a bitmap instead of a Unicode category (a test pins it
# to str.isspace). Possessive repeats are used only where giving characters back could never lead to a match.
_SPACE = r"[\t\x0b\x0c\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
_OTHER_LINE_BREAKS = ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")  # str.splitlines
# A line that may change the outline: fence (1), ATX heading (2: hashes, 3: the rest of the line) or setext
# underline (4). It starts at the "\n" before the line, so the engine only wakes up at line starts.
MD_STRUCTURE = re.compile(
    rf"\n(?: {{0,3}}+(?:(`{{3,}}+|~{{3,}}+)|(#{{1,6}}+){_SPACE}++(.*))|{_SPACE}*+(={{2,}}+|-{{2,}}+){_SPACE}*+$)",
    re.MULTILINE,
)
_TARGET = rf"[^)>\n{_SPACE[1:-1]}]"  # a character of a link target
# Starting at the "[" rather than an optional "!" before it cannot change which targets are found; the target is
# the longest run of _TARGET characters, read as a byte-table run of printable ASCII first.
MD_LINK = re.compile(
    rf"\[[^\]\n]*+\]\({_SPACE}*+<?((?={_TARGET})[!-(*-=?-~]*+{_TARGET}*+)>?(?:{_SPACE}+\"[^\"\n]*+\")?{_SPACE}*+\)"
)
MD_REF_DEF = re.compile(rf"\n {{0,3}}\[[^\]\n]+\]:{_SPACE}*<?(\S+?)>?(?:{_SPACE}+.*)?$", re.MULTILINE)
# A code span (the lookbehind sees the char before the opening "`"); group 1 is set when the span is a mention:
# a name, perhaps with "()" (dropped) or "()()" (one kept), inside optional whitespace.
CODE_SPAN = re.compile(
    r"`(?<!``)(?=[^`\n]{2,100}+`(?!`))(?:\s*+([A-Za-z_][\w.:/-]*+(?:\(\))??)(?:\(\))?\s*+`|[^`\n]*+`)"
)
# The rst patterns also run over the whole joined text and never cross a "\n".
RST_ADORN = re.compile(rf"\n([=\-`:'\"~^_*+#<>.])\1{{2,}}+{_SPACE}*+$", re.MULTILINE)  # a whole adornment line
RST_LITERAL_START = re.compile(rf"::{_SPACE}*+$", re.MULTILINE)  # with RST_CODE_START: may open a literal block
RST_CODE_START = re.compile(r"\.\. (?:code|sourcecode)")
RST_RESUME = re.compile(rf"\n(?![ \t]){_SPACE}*+\S")  # a non-blank, non-indented line: a literal block ends
RST_LINK = re.compile(r"`[^`<\n]*+<([^>`\n]++)>`__?")
RST_ROLE = re.compile(r":(?:py:)?(func|class|meth|mod|attr|obj|exc|data|doc|ref)?:`~?([^`\n]++)`")
# An inline literal; group 1 is set when it is a mention, as in CODE_SPAN.
RST_LITERAL = re.compile(r"``(?=[^`\n]{2,100}+``)(?:\s*+([A-Za-z_][\w.:/-]*+(?:\(\))??)(?:\(\))?\s*+``|[^`\n]*+``)")
RST_INCLUDE = re.compile(rf"\.\. (?:include|literalinclude|image|figure)::{_SPACE}*+(\S+)")  # first on its line
MENTION_OK = re.compile(r"^[A-Za-z_][\w.:/-]*(?:\(\))?$")
EXTERNAL = ("http://", "https://", "mailto:", "ftp://", "//", "data:")
_BY_LINE = attrgetter("line")
_NOT_LOCAL = (*EXTERNAL, "#")
# A slug keeps word characters, "-" and spaces, but not "_". For ASCII titles that is a byte table.
_NOT_SLUG = re.compile(r"[^\w\- ]|_")
_NOT_SLUG_ASCII = bytes(c for c in range(128) if not (chr(c).isalnum() or chr(c) in "- "))


def slugify(title: str) -> str:
    text = title.lower()
    text = text.encode().translate(None, _NOT_SLUG_ASCII).decode() if text.isascii() else _NOT_SLUG.sub("", text)
    return text.strip().replace(" ", "-") or "section"


def _mention(text: str) -> str | None:
    text = text.strip()
    if text.endswith("()"):
        text = text[:-2]
    if len(text) < 3 or not MENTION_OK.match(text):
        return None
    return text


class _Outline:
    def __init__(self):
        self.headings: list[Heading] = []
        self.stack: list[int] = []  # the open headings, outermost first
        self.levels: list[int] = []  # their levels
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
        stack, levels = self.stack, self.levels
        while levels and levels[-1] >= level:
            stack.pop()
            levels.pop()
        self.headings.append(Heading(level, title, slug, line, stack[-1] if stack else -1))
        stack.append(len(self.headings) - 1)
        levels.append(level)
        return True

    @property
    def current(self) -> int:
        return len(self.headings) - 1


def _joined_lines(data: bytes) -> str:
    """The lines exactly as `str.splitlines` cuts them, each behind one "\n" (so line N starts after the N-th "\n"
    and a whole-text pass sees the same lines: CRLF, a lone CR, form feeds, U+2028 ... are all one "\n")."""
    text = data.decode("utf-8", "replace")
    if any(brk in text for brk in _OTHER_LINE_BREAKS):
        return "\n" + "\n".join(text.splitlines())
    return "\n" + (text[:-1] if text.endswith("\n") else text)


def _atx_title(rest: str) -> str:
    """The title of an ATX heading from what follows its hashes and spaces: a closing run of "#" only counts
    after whitespace (outer whitespace is dropped later anyway)."""
    title = rest.rstrip()
    if title.endswith("#"):
        bare = title.rstrip("#")
        if bare[-1:].isspace():
            return bare
    return title


class _Regions:
    """Which heading governs each stretch of the text, and which stretches yield no links or mentions (fenced
    code, heading lines, setext underlines); stretches begin at the "\n" that starts a line."""

    def __init__(self):
        self.starts = [0]
        self.headings: list[int | None] = [-1]

    def add(self, start: int, heading: int | None) -> None:
        self.starts.append(start)
        self.headings.append(heading)


FRONT_MATTER = re.compile(rf"\n---{_SPACE}*+\n(?:.*\n)*?(?:---|\.\.\.){_SPACE}*+(?=\n|$)")


def _front_matter_end(text: str) -> int:
    """Where a YAML front matter block (`---` on the first line, up to the next `---` or `...` line) ends, or 0.
    Its keys are metadata, not an outline: `layout: home` above the closing `---` is no setext heading."""
    if not text.startswith("\n---"):
        return 0
    match = FRONT_MATTER.match(text)
    return match.end() if match else 0


class _Lines:
    """Line numbers of positions met in increasing order during one whole-text pass, counted incrementally."""

    def __init__(self, text: str):
        self.count = text.count
        self.line = self.counted = 0

    def line_of(self, pos: int) -> int:
        self.line += self.count("\n", self.counted, pos)
        self.counted = pos
        return self.line


class _Places(_Lines):
    """`_Lines` plus the heading that governs a position (None inside skipped stretches)."""

    def __init__(self, text: str, regions: _Regions):
        super().__init__(text)
        self.starts, self.headings = regions.starts, regions.headings

    def heading(self, pos: int) -> int | None:
        return self.headings[bisect_right(self.starts, pos) - 1]


def _markdown_outline(text: str) -> tuple[_Outline, _Regions]:
    outline = _Outline()
    regions = _Regions()
    fence = None
    dead_end = -1  # where the last heading, underline or fence line ended: the next line has no setext title
    lines = _Lines(text)
    skip_to = _front_matter_end(text)
    if skip_to:
        regions.add(0, None)
        regions.add(skip_to, -1)
        dead_end = skip_to
    for match in MD_STRUCTURE.finditer(text, skip_to):
        start = match.start()
        marker, hashes, rest, rule = match.groups()
        if fence:
            # A closing fence is the opening one's character, at least as long, and nothing else on its line.
            if (
                marker
                and marker[0] == fence[0]
                and len(marker) >= len(fence)
                and not text[match.end() : _line_end(text, match.end())].strip()
            ):
                fence = None
                dead_end = text.find("\n", match.end())
                if dead_end < 0:
                    dead_end = len(text)
                regions.add(dead_end, outline.current)
            continue
        if marker:
            fence = marker
            regions.add(start, None)
            continue
        line = lines.line_of(start + 1)
        if hashes:
            outline.add(len(hashes), _atx_title(rest), line)
        elif start and dead_end != start:
            # An underline only counts under a plain line that is neither blank nor indented.
            previous = text[text.rfind("\n", 0, start) + 1 : start]
            title = previous.strip()
            if not title or previous.startswith(("    ", "\t")):
                continue
            outline.add(1 if rule[0] == "=" else 2, title, line - 1)
        else:
            continue
        dead_end = match.end()
        regions.add(start, None)
        regions.add(dead_end, outline.current)
    return outline, regions


def _line_end(text: str, pos: int) -> int:
    end = text.find("\n", pos)
    return len(text) if end < 0 else end


def extract_markdown(data: bytes) -> FileRecord:
    text = _joined_lines(data)
    outline, regions = _markdown_outline(text)
    links: list[DocLink] = []
    if "](" in text:
        places = _Places(text, regions)
        for match in MD_LINK.finditer(text):
            target = match.group(1)
            if target.startswith(_NOT_LOCAL):
                continue
            start = match.start()
            heading = places.heading(start)
            if heading is not None:
                links.append(DocLink(target, places.line_of(start), heading))
    if "]:" in text:
        ref_defs = []
        places = _Places(text, regions)
        for match in MD_REF_DEF.finditer(text):
            target = match.group(1)
            if target.startswith(_NOT_LOCAL):
                continue
            start = match.start() + 1
            heading = places.heading(start)
            if heading is not None:
                ref_defs.append(DocLink(target, places.line_of(start), heading))
        if ref_defs:  # a line's inline links come before its reference definition (the sort is stable)
            links = sorted(links + ref_defs, key=_BY_LINE)
    mentions: list[Mention] = []
    if "`" in text:
        places = _Places(text, regions)
        for match in CODE_SPAN.finditer(text):
            name = match.group(1)
            if name is None or len(name) < 3:
                continue
            start = match.start()
            heading = places.heading(start)
            if heading is not None:
                mentions.append(Mention(name, places.line_of(start), heading))
    return FileRecord(lang="markdown", headings=tuple(outline.headings), links=tuple(links), mentions=tuple(mentions))


def _opens_literal_block(line: str) -> bool:
    stripped = line.strip()
    return (line.rstrip().endswith("::") and not stripped.startswith(".. ")) or stripped.startswith(
        (".. code", ".. sourcecode")
    )


def _rst_outline(text: str) -> tuple[_Outline, _Regions]:
    """Titles and skipped literal blocks. Only lines that can start either are visited: adornment lines, the lines
    just above them, and lines that may open a literal block; a literal block is skipped in one regex search."""
    outline = _Outline()
    regions = _Regions()
    levels: dict[tuple[str, bool], int] = {}
    find, rfind = text.find, text.rfind
    adorned = {match.start() for match in RST_ADORN.finditer(text)}
    opening = {rfind("\n", 0, match.start()) for match in RST_LITERAL_START.finditer(text)}
    if ".. " in text:
        opening.update(rfind("\n", 0, match.start()) for match in RST_CODE_START.finditer(text))
    candidates = sorted({*adorned, *(rfind("\n", 0, start) for start in adorned if start), *opening})
    size = len(text)
    lines = _Lines(text)
    pos = 0  # the "\n" that starts the next line to read
    skipping = False
    while pos < size:
        if skipping:
            skipping = False
            regions.add(pos, None)
            match = RST_RESUME.search(text, pos)
            if match is None:
                break
            pos = match.start()
            regions.add(pos, outline.current)
        index = bisect_left(candidates, pos)
        if index == len(candidates):
            break
        start = candidates[index]
        second = find("\n", start + 1)
        if second < 0:
            second = size
        third = find("\n", second + 1)
        if third < 0:
            third = size
        if start in adorned and third in adorned and text[second + 1 : third].strip():
            # Over- and underlined title.
            level = levels.setdefault((text[start + 1], True), len(levels) + 1)
            outline.add(level, text[second + 1 : third], lines.line_of(second + 1))
            regions.add(start, None)
            pos = find("\n", third + 1)
            if pos < 0:
                pos = size
            regions.add(pos, outline.current)
            continue
        if second in adorned:
            current = text[start + 1 : second]
            stripped = current.strip()
            if stripped and current[:1] not in " \t" and len(text[second + 1 : third].strip()) >= len(stripped):
                # Underlined title.
                level = levels.setdefault((text[second + 1], False), len(levels) + 1)
                outline.add(level, current, lines.line_of(start + 1))
                regions.add(start, None)
                pos = third
                regions.add(pos, outline.current)
                continue
        if start in opening and _opens_literal_block(text[start + 1 : second]):
            skipping = True
        pos = second
    return outline, regions


def extract_rst(data: bytes) -> FileRecord:
    text = _joined_lines(data)
    outline, regions = _rst_outline(text)
    links: list[DocLink] = []
    mentions: list[Mention] = []
    sources = 0
    if ".. " in text:
        places = _Places(text, regions)
        for match in RST_INCLUDE.finditer(text):
            target = match.group(1)
            start = match.start()
            before = text[text.rfind("\n", 0, start) + 1 : start]
            if (before and not before.isspace()) or target.startswith(_NOT_LOCAL):
                continue
            heading = places.heading(start)
            if heading is not None:
                links.append(DocLink(target, places.line_of(start), heading))
        sources += bool(links)
    if ">`_" in text:
        found = len(links)
        places = _Places(text, regions)
        for match in RST_LINK.finditer(text):
            target = match.group(1).strip()
            if target.startswith(_NOT_LOCAL):
                continue
            start = match.start()
            heading = places.heading(start)
            if heading is not None:
                links.append(DocLink(target, places.line_of(start), heading))
        sources += len(links) > found
    if ":`" in text:
        found = len(links)
        places = _Places(text, regions)
        for match in RST_ROLE.finditer(text):
            role, target = match.groups()
            if role == "ref":
                continue
            start = match.start()
            heading = places.heading(start)
            if heading is None:
                continue
            target = target.strip()
            if "<" in target and target.endswith(">"):
                target = target[target.rindex("<") + 1 : -1]
            name = target if role == "doc" else _mention(target)
            if name is None:
                continue
            if role == "doc":
                links.append(DocLink(target, places.line_of(start), heading))  # Sphinx adds the suffix
            else:
                mentions.append(Mention(name, places.line_of(start), heading))
        sources += len(links) > found
    if sources > 1:  # on one line: includes, then explicit links, then :doc: roles (the sort is stable)
        links.sort(key=_BY_LINE)
    if "``" in text:
        found = len(mentions)
        places = _Places(text, regions)
        for match in RST_LITERAL.finditer(text):
            name = match.group(1)
            if name is None or len(name) < 3:
                continue
            start = match.start()
            heading = places.heading(start)
            if heading is not None:
                mentions.append(Mention(name, places.line_of(start), heading))
        if found and len(mentions) > found:  # a line's role mentions come before its literals
            mentions.sort(key=_BY_LINE)
    return FileRecord(lang="rst", headings=tuple(outline.headings), links=tuple(links), mentions=tuple(mentions))
