"""Extraction of one batch of files, run in a worker process (or in-process for a handful of files).

A worker reads, hashes and extracts; it returns each record already sealed for the cache pack (bytes pickle
cheaply across the process boundary, and the parent stores them without re-serialising). Trees never leave it.
"""

from __future__ import annotations

import os
import re

from skillbox.graph.cache import content_key, language_epoch, seal
from skillbox.graph.extract import extract_source
from skillbox.graph.languages import by_name
from skillbox.graph.languages.js_project import PROJECT_LANG
from skillbox.graph.records import finish_plain, to_plain
from skillbox.graph.source_text import UNDECODABLE, as_utf8

BINARY_PROBE = 8192
GENERATED_PROBE = 600
READ_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0)
# A comment near the top that says so: Go's "Code generated ... DO NOT EDIT.", "@generated", "auto-generated".
GENERATED = re.compile(
    rb"(?mi)^\s*(?://|#|/\*+|\*|--|<!--)\s*(?:code generated\b.*do not edit|@generated\b|"
    rb"(?:this file (?:is|was) )?(?:automatically |auto-?)generated\b)"
)


def classify(data: bytes) -> str | None:
    """A reason to skip content that is not hand-written source, or None."""
    if data.find(b"\0", 0, BINARY_PROBE) >= 0:
        return "binary"
    head = data[:GENERATED_PROBE]
    # Every form GENERATED accepts contains the word (case-insensitively): most files skip the regex.
    if b"generated" in head.lower() and GENERATED.search(head):
        return "generated"
    return None


def extract_bytes(data: bytes, lang: str):
    """(record in the plain layout of `records.to_plain` or None, skip reason or None) for one file's bytes."""
    text = as_utf8(data, lang)
    if isinstance(text, str):
        return None, text
    data, replaced = text
    reason = classify(data)
    if reason:
        return None, reason
    if lang == "markdown":
        from skillbox.graph.docs import extract_markdown

        record = to_plain(extract_markdown(data))
    elif lang == PROJECT_LANG:  # package.json, tsconfig.json: a few fields, no tree-sitter
        from skillbox.graph.languages.js_project import extract_project

        return extract_project(data)
    elif lang == "rst":
        from skillbox.graph.docs import extract_rst

        record = to_plain(extract_rst(data))
    else:
        try:
            record = extract_source(data, by_name()[lang])
        except UnicodeDecodeError:  # as_utf8 hands over valid UTF-8; should a grammar still choke, skip the file
            return None, UNDECODABLE
    return finish_plain(record, replaced), None


def warm(languages) -> None:
    """Parsers and compiled queries of `languages`, made before the pool forks: every worker inherits them
    instead of building its own (~20-50 ms per language and worker)."""
    from skillbox.graph.extract import _engine

    specs = by_name()
    for lang in sorted(languages):
        if lang in specs:
            _engine(specs[lang])


def read_bytes(path: str) -> bytes:
    """The whole file, as `open().read()` gives it without building a buffered file object (~15% cheaper)."""
    fd = os.open(path, READ_FLAGS)
    try:
        size = os.fstat(fd).st_size
        chunks = [os.read(fd, size + 1)]  # one byte more than the size: a file that grew is read on
        while chunks[-1]:
            chunks.append(os.read(fd, max(size, 65536)))
    finally:
        os.close(fd)
    return chunks[0] if len(chunks) == 2 else b"".join(chunks)


def extract_batch(root: str, known: dict[str, bytes], batch: list[tuple[str, str]]) -> list[tuple]:
    """[(rel, lang)] -> [(rel, key, sealed entry or None)]; `known` maps keys the cache already holds to None.

    A file whose content key is already cached (a touched file, a copy of another file) is not re-extracted.
    """
    out = []
    for rel, lang in batch:
        try:
            data = read_bytes(os.path.join(root, rel))
        except OSError:
            out.append((rel, None, None))
            continue
        key = f"{content_key(data)}-{language_epoch(lang)}"
        if key in known:
            out.append((rel, key, None))
            continue
        out.append((rel, key, seal(extract_bytes(data, lang))))
    return out
