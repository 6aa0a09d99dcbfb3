"""Extraction of one batch of files, run in a worker process (or in-process for a handful of files).

A worker reads, hashes, consults the cache by content key, extracts on a miss and stores the entry itself, so
the parent process never touches file contents and only receives compact records.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from skillbox.graph.cache import RecordCache, content_key, language_epoch

BINARY_PROBE = 8192
# A comment near the top that says so: Go's "Code generated ... DO NOT EDIT.", "@generated", "auto-generated".
GENERATED = re.compile(
    rb"(?mi)^\s*(?://|#|/\*+|\*|--|<!--)\s*(?:code generated\b.*do not edit|@generated\b|"
    rb"(?:this file (?:is|was) )?(?:automatically |auto-?)generated\b)"
)


def classify(data: bytes) -> str | None:
    """A reason to skip content that is not hand-written source, or None."""
    if b"\0" in data[:BINARY_PROBE]:
        return "binary"
    if GENERATED.search(data[:600]):
        return "generated"
    return None


def extract_bytes(data: bytes, lang: str):
    """(record or None, skip reason or None) for one file's bytes."""
    reason = classify(data)
    if reason:
        return None, reason
    if lang == "markdown":
        from skillbox.graph.docs import extract_markdown

        record = extract_markdown(data)
    elif lang == "rst":
        from skillbox.graph.docs import extract_rst

        record = extract_rst(data)
    else:
        from skillbox.graph.extract import extract_source
        from skillbox.graph.languages import by_name

        record = extract_source(data, by_name()[lang])
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        record = record._replace(encoding_errors=1)
    return record, None


def extract_batch(root: str, cache_dir: str, use_cache: bool, batch: list[tuple[str, str]]) -> list[tuple]:
    """[(rel, lang)] -> [(rel, key, record, skip_reason, cache_state)]; cache_state: hit | miss | corrupt."""
    cache = RecordCache(Path(cache_dir))
    out = []
    for rel, lang in batch:
        try:
            with open(os.path.join(root, rel), "rb") as handle:
                data = handle.read()
        except OSError:
            out.append((rel, None, None, "unreadable", "miss"))
            continue
        key = f"{content_key(data)}-{language_epoch(lang)}"
        state = "miss"
        if use_cache:
            found, value = cache.load(key)
            if found:
                out.append((rel, key, value[0], value[1], "hit"))
                continue
            if value == "corrupt":
                state = "corrupt"
        record, reason = extract_bytes(data, lang)
        cache.store(key, (record, reason))
        out.append((rel, key, record, reason, state))
    return out
