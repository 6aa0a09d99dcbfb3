"""Find what a markdown body points at: `skillbox ...` command lines and file paths, each with its line.

Skills and slash commands are prose for an agent, and the agent will run the commands and open the paths they
mention. These helpers pull those mentions out so validators can check them against reality. They are public so
later checks (lint codes cited, graph node kinds named, ...) can reuse the same scanning.

What counts as a mention:
- commands: inside code (fenced blocks or `inline spans`) only, a shell segment whose program is `skillbox`
  (also `.../bin/skillbox` and `python -m skillbox`); usage notation like `[--json]` is understood.
- paths: markdown link targets that are not URLs; anything after `${CLAUDE_PLUGIN_ROOT}/`; and, in code or prose,
  tokens starting with the Agent Skills folders `references/`, `scripts/`, `assets/`, or with `../`. Other
  relative-looking tokens (`./src`, `out/graph.json`) are usually the user's files, not ours, and are ignored.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import unquote

PLUGIN_ROOT_VAR = "${CLAUDE_PLUGIN_ROOT}"
SKILL_FOLDERS = ("references/", "scripts/", "assets/")

_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_INLINE_CODE = re.compile(r"(`+)(.+?)\1")
_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+[\"'(][^)]*)?\)")
_PLUGIN_ROOT_PATH = re.compile(r"\$\{CLAUDE_PLUGIN_ROOT\}/([^\s\"'`)\]>|;,]*)")
_FOLDER_PATH = re.compile(r"(?<![\w./${}-])((?:references|scripts|assets|\.\.)/[^\s\"'`)\]>|;,]*)")
_SEPARATORS = {"|", "||", "&&", ";", "&"}
_TRAILING = ".,:;!?"


@dataclass(frozen=True)
class CodeSnippet:
    line: int
    text: str
    fenced: bool


@dataclass(frozen=True)
class CommandMention:
    """`argv` is what follows the program name, with usage brackets removed; `fenced`: in a fenced code block."""

    line: int
    argv: tuple[str, ...]
    text: str
    fenced: bool = False


@dataclass(frozen=True)
class PathMention:
    """`from_plugin_root` marks `${CLAUDE_PLUGIN_ROOT}/...` paths; others are relative to the markdown file."""

    line: int
    path: str
    from_plugin_root: bool = False


def iter_lines(text: str, first_line: int = 1) -> Iterator[tuple[int, str, bool]]:
    """Yield (line number, line, inside a fenced code block), fence lines themselves excluded."""
    fence: str | None = None
    for offset, line in enumerate(text.splitlines()):
        match = _FENCE.match(line)
        if match and (fence is None or (match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence))):
            fence = match.group(1) if fence is None else None
            continue
        yield first_line + offset, line, fence is not None


def iter_code(text: str, first_line: int = 1) -> Iterator[CodeSnippet]:
    """Every piece of code: whole lines of fenced blocks, and inline code spans of prose lines."""
    for number, line, fenced in iter_lines(text, first_line):
        if fenced:
            yield CodeSnippet(number, line, True)
            continue
        for match in _INLINE_CODE.finditer(line):
            yield CodeSnippet(number, match.group(2).strip(), False)


def _tokens(snippet: str) -> list[str]:
    try:
        return shlex.split(snippet, comments=False)
    except ValueError:  # unbalanced quotes in usage text: fall back to whitespace
        return snippet.split()


def _strip_usage(token: str) -> str:
    """`[--json]` -> `--json`; `[ID` / `...]` -> `ID` / `...`: brackets mark optional parts in usage text."""
    return token.strip("[]") if token not in ("[", "]") else ""


def _split_segments(tokens: list[str]) -> Iterator[list[str]]:
    segment: list[str] = []
    for token in tokens:
        if token in _SEPARATORS:
            yield segment
            segment = []
        elif token.endswith(";") and len(token) > 1:
            segment.append(token[:-1])
            yield segment
            segment = []
        else:
            segment.append(token)
    yield segment


def _program_index(segment: list[str], program: str) -> int | None:
    """Where the program name sits if this segment runs it: after a `$` prompt, env assignments or `python -m`."""
    index = 0
    while index < len(segment) and (
        segment[index] == "$" or re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", segment[index])
    ):
        index += 1
    if index >= len(segment):
        return None
    head = segment[index]
    if head == program or head.endswith("/" + program):
        return index
    if re.fullmatch(r"(.*/)?python(3(\.\d+)?)?", head) and segment[index + 1 : index + 3] == ["-m", program]:
        return index + 2
    return None


def find_command_mentions(text: str, first_line: int = 1, program: str = "skillbox") -> list[CommandMention]:
    """Every `skillbox ...` command line inside the code of a markdown text."""
    found = []
    for snippet in iter_code(text, first_line):
        if program not in snippet.text:
            continue
        for segment in _split_segments(_tokens(snippet.text)):
            start = _program_index(segment, program)
            if start is None:
                continue
            argv = tuple(part for part in (_strip_usage(token) for token in segment[start + 1 :]) if part)
            found.append(CommandMention(snippet.line, argv, " ".join(segment[start:]), snippet.fenced))
    return found


def _clean_path(raw: str) -> str:
    path = raw.split("#", 1)[0].split("?", 1)[0]
    return path.rstrip(_TRAILING)


def _is_placeholder(path: str) -> bool:
    return not path or any(mark in path for mark in ("<", ">", "*", "{", "}", "$", "...")) or path.endswith("...")


def find_path_mentions(text: str, first_line: int = 1) -> list[PathMention]:
    """Every file path a markdown text points at (see the module docstring for what counts)."""
    found: list[PathMention] = []
    seen: set[tuple[int, str, bool]] = set()

    def add(line: int, raw: str, from_root: bool) -> None:
        path = _clean_path(raw)
        key = (line, path, from_root)
        if _is_placeholder(path) or key in seen:
            return
        seen.add(key)
        found.append(PathMention(line, path, from_root))

    for number, line, fenced in iter_lines(text, first_line):
        for match in _PLUGIN_ROOT_PATH.finditer(line):
            add(number, match.group(1), True)
        without_root = _PLUGIN_ROOT_PATH.sub(" ", line)
        if not fenced:
            for match in _LINK.finditer(without_root):
                target = match.group(1)
                if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", target) or target.startswith(("#", "/")):
                    continue
                add(number, unquote(target), False)
            without_root = _LINK.sub(" ", without_root)
        for match in _FOLDER_PATH.finditer(without_root):
            add(number, match.group(1), False)
    return found
