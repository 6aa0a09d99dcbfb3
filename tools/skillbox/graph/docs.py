"""Markdown and reStructuredText: headings, links and backticked mentions, as records.

Docs are prose, so there is no grammar to lean on; line patterns cover what matters for the graph (the heading
outline, relative links, inline code that names a symbol) and fenced/literal blocks are skipped so code samples
do not masquerade as mentions.
"""

from __future__ import annotations

import re

from skillbox.graph.records import DocLink, FileRecord, Heading, Mention

ATX = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
MD_LINK = re.compile(r"!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
MD_REF_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
CODE_SPAN = re.compile(r"(?<!`)`([^`\n]{2,100})`(?!`)")
RST_ADORN = re.compile(r"^([=\-`:'\"~^_*+#<>.])\1{2,}\s*$")
RST_LINK = re.compile(r"`[^`<]*<([^>`]+)>`__?")
RST_ROLE = re.compile(r":(?:py:)?(func|class|meth|mod|attr|obj|exc|data|doc|ref)?:`~?([^`]+)`")
RST_LITERAL = re.compile(r"``([^`\n]{2,100})``")
RST_INCLUDE = re.compile(r"^\s*\.\. (?:include|literalinclude|image|figure)::\s*(\S+)")
MENTION_OK = re.compile(r"^[A-Za-z_][\w.:/-]*(?:\(\))?$")
EXTERNAL = ("http://", "https://", "mailto:", "ftp://", "//", "data:")


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

    def add(self, level: int, title: str, line: int) -> None:
        title = " ".join(title.split())
        if not title:
            return
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

    @property
    def current(self) -> int:
        return len(self.headings) - 1


def extract_markdown(data: bytes) -> FileRecord:
    text = data.decode("utf-8", "replace")
    lines = text.splitlines()
    outline = _Outline()
    links: list[DocLink] = []
    mentions: list[Mention] = []
    fence = None
    previous = ""
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        # Cheap prefilters first: most prose lines have no fence, heading, link or code span.
        match = FENCE.match(line) if stripped[:1] in ("`", "~") else None
        if fence:
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence):
                fence = None
            continue
        if match:
            fence = match.group(1)
            previous = ""
            continue
        heading = ATX.match(line) if stripped[:1] == "#" else None
        if heading:
            outline.add(len(heading.group(1)), heading.group(2), number)
            previous = ""
            continue
        if previous and stripped and set(stripped) <= {"="} | {"-"} and len(set(stripped)) == 1 and len(stripped) >= 2:
            outline.add(1 if stripped[0] == "=" else 2, previous, number - 1)
            previous = ""
            continue
        if "](" in line:
            for target in MD_LINK.findall(line):
                target = _link(target)
                if target:
                    links.append(DocLink(target, number, outline.current))
        ref_def = MD_REF_DEF.match(line) if stripped[:1] == "[" else None
        if ref_def and _link(ref_def.group(1)):
            links.append(DocLink(ref_def.group(1), number, outline.current))
        if "`" in line:
            for span in CODE_SPAN.findall(line):
                name = _mention(span)
                if name:
                    mentions.append(Mention(name, number, outline.current))
        previous = stripped if stripped and not line.startswith(("    ", "\t")) else ""
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
