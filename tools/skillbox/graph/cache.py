"""The record cache and the stat index behind incremental builds.

- Records are stored by *content*: key = hash(file bytes) + the language's epoch (extractor version, grammar
  version, query file, hook source, Python version). Changing a query file invalidates exactly that language.
- All entries live in one pack file (`cache/records.bin`), rewritten whole after a build that changed anything:
  creating thousands of small files cost more than parsing them. Each entry is sealed with its own checksum; an
  entry that does not verify is discarded and its file re-extracted, never trusted. A pack that cannot be read at
  all is treated as empty (a full rebuild, still correct).
- The stat index maps path -> (size, mtime_ns, key) so an unchanged file is not even read. Files modified within
  `RACY_NS` of the index write are re-hashed anyway (the "racy git" problem: same size, same mtime tick).
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import sys
from functools import cache
from pathlib import Path

from skillbox.atomic import atomic_write
from skillbox.graph.records import EXTRACTOR_VERSION

MAGIC = b"SBXR2"
DIGEST = 16
RACY_NS = 2_000_000_000
INDEX_NAME = "index.bin"
PACK_NAME = "records.bin"
BLOCKS_NAME = "blocks.bin"


def content_key(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


@cache
def language_epoch(lang: str) -> str:
    """Everything besides the file's bytes that decides its record."""
    from skillbox.graph.languages import by_name

    h = hashlib.blake2b(digest_size=8)
    h.update(f"{EXTRACTOR_VERSION}|{sys.version_info[0]}.{sys.version_info[1]}|{lang}".encode())
    h.update(_extractor_source())
    here = Path(__file__).resolve().parent
    spec = by_name().get(lang)
    if lang == "jsproject":  # languages/js_project.PROJECT_LANG: package.json, tsconfig.json
        h.update((here / "languages" / "js_project.py").read_bytes())
    if spec is not None:
        h.update(grammar_build(spec.module).encode())
        h.update(spec.query_text().encode())
        if spec.hooks:
            h.update((here / "languages" / (spec.hooks.rsplit(".", 1)[1] + ".py")).read_bytes())
    return h.hexdigest()


@cache
def _extractor_source() -> bytes:
    """The code every language's records come from (read once, not once per language)."""
    here = Path(__file__).resolve().parent
    parts = []
    for module in ("extract.py", "records.py", "docs.py", "ts.py", "source_text.py"):
        with contextlib.suppress(OSError):
            parts.append((here / module).read_bytes())
    return b"".join(parts)


@cache
def grammar_build(module: str) -> str:
    """Which release of a grammar package is installed: the name of its dist-info folder ("tree_sitter_python-
    0.23.6"), or, without one, its compiled files' names, sizes and mtimes (a reinstall changes them).

    Not `importlib.metadata.version`: importing it and scanning sys.path costs ~40 ms in every extracting
    process, more than parsing a hundred files."""
    import importlib.util

    try:
        found = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        found = None
    if found is None or not found.origin:
        return module
    package_dir = os.path.dirname(found.origin)
    site = os.path.dirname(package_dir)
    prefix = module.lower() + "-"
    try:
        releases = sorted(
            name[: -len(".dist-info")]
            for name in os.listdir(site)
            if name.endswith(".dist-info") and name.lower().startswith(prefix)
        )
        if releases:
            return ";".join(releases)
        builds = sorted(
            f"{entry.name}:{entry.stat().st_size}:{entry.stat().st_mtime_ns}"
            for entry in os.scandir(package_dir)
            if entry.name.endswith((".so", ".pyd", ".dylib"))
        )
    except OSError:
        return module
    return ";".join([module, *builds])


def seal(obj) -> bytes:
    # marshal: plain tuples/dicts only and the fastest to load; its format is tied to the Python version, which
    # is part of every language epoch.
    payload = marshal.dumps(obj)
    return MAGIC + hashlib.blake2b(payload, digest_size=DIGEST).digest() + payload


def unseal(blob: bytes, verify: bool = True):
    """The object, or raise ValueError when the blob is truncated, foreign or tampered with.

    `verify=False` skips the checksum, for a blob a worker of this very build just sealed (it never was on disk).
    """
    head = len(MAGIC)
    if len(blob) < head + DIGEST or not blob.startswith(MAGIC):
        raise ValueError("not a skillbox cache entry")
    payload = blob[head + DIGEST :]
    if verify and hashlib.blake2b(payload, digest_size=DIGEST).digest() != blob[head : head + DIGEST]:
        raise ValueError("checksum mismatch")
    return marshal.loads(payload)


class RecordCache:
    def __init__(self, directory: Path):
        self.directory = directory
        self.pack_path = directory / PACK_NAME
        self._pack: dict[str, bytes] | None = None

    def prepare(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        ignore = self.directory / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# skillbox graph cache: rebuilt on demand, never committed\n*\n")

    def pack(self) -> dict[str, bytes]:
        if self._pack is None:
            try:
                self._pack = marshal.loads(self.pack_path.read_bytes())
                if not isinstance(self._pack, dict):
                    self._pack = {}
            except Exception:  # missing, truncated, foreign: start empty
                self._pack = {}
        return self._pack

    def save_pack(self, entries: dict[str, bytes]) -> None:
        """Replace the pack with exactly `entries`: files no longer in the tree leave the cache with it."""
        self.prepare()
        atomic_write(self.pack_path, marshal.dumps(entries))
        self._pack = entries

    def load_blocks(self) -> tuple[str | None, dict]:
        """The previous build's graph.json blocks per file and the interface digest they were resolved against.

        Blocks are reused under the same digest (or, file by file, when the interface changes cannot reach them),
        and compared byte for byte under any digest: that is how a build tells which files' part of the graph
        really changed."""
        try:
            stored = unseal((self.directory / BLOCKS_NAME).read_bytes())
        except Exception:
            return None, {}
        if not isinstance(stored, dict) or not isinstance(stored.get("files"), dict):
            return None, {}
        return stored.get("digest"), stored["files"]

    def save_blocks(self, digest: str, blocks: dict) -> None:
        self.prepare()
        atomic_write(self.directory / BLOCKS_NAME, seal({"digest": digest, "files": blocks}))

    def load_index(self) -> dict | None:
        try:
            return unseal((self.directory / INDEX_NAME).read_bytes())
        except Exception:
            return None

    def save_index(self, index: dict) -> None:
        self.prepare()
        atomic_write(self.directory / INDEX_NAME, seal(index))
