"""The per-file record cache and the stat index behind incremental builds.

- Records are stored by *content*: key = hash(file bytes) + the language's epoch (extractor version, grammar
  version, query file, hook source). Changing a query file invalidates exactly that language's entries.
- Every entry carries a checksum of its payload; an entry that does not verify is deleted and rebuilt, never
  trusted.
- The stat index maps path -> (size, mtime_ns, key) so an unchanged file is not even read. Files modified within
  `RACY_NS` of the index write are re-hashed anyway (the "racy git" problem: same size, same mtime tick).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import sys
from functools import cache
from pathlib import Path

from skillbox.graph.records import EXTRACTOR_VERSION

MAGIC = b"SBXR1"
DIGEST = 16
RACY_NS = 2_000_000_000
INDEX_NAME = "index.pkl"


def content_key(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


@cache
def language_epoch(lang: str) -> str:
    """Everything besides the file's bytes that decides its record."""
    from importlib import metadata

    from skillbox.graph.languages import by_name

    h = hashlib.blake2b(digest_size=8)
    h.update(f"{EXTRACTOR_VERSION}|{sys.version_info[0]}.{sys.version_info[1]}|{lang}".encode())
    here = Path(__file__).resolve().parent
    for module in ("extract.py", "records.py", "docs.py"):
        with contextlib.suppress(OSError):
            h.update((here / module).read_bytes())
    spec = by_name().get(lang)
    if spec is not None:
        try:
            h.update(metadata.version(spec.module.replace("_", "-")).encode())
        except metadata.PackageNotFoundError:
            h.update(spec.module.encode())
        h.update(spec.query_text().encode())
        if spec.hooks:
            h.update((here / "languages" / (spec.hooks.rsplit(".", 1)[1] + ".py")).read_bytes())
    return h.hexdigest()


def seal(obj) -> bytes:
    payload = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return MAGIC + hashlib.blake2b(payload, digest_size=DIGEST).digest() + payload


def unseal(blob: bytes):
    """The object, or raise ValueError when the blob is truncated, foreign or tampered with."""
    head = len(MAGIC)
    if len(blob) < head + DIGEST or not blob.startswith(MAGIC):
        raise ValueError("not a skillbox cache entry")
    payload = blob[head + DIGEST :]
    if hashlib.blake2b(payload, digest_size=DIGEST).digest() != blob[head : head + DIGEST]:
        raise ValueError("checksum mismatch")
    return pickle.loads(payload)


def write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


class RecordCache:
    def __init__(self, directory: Path):
        self.directory = directory
        self.records_dir = directory / "records"

    def prepare(self) -> None:
        self.records_dir.mkdir(parents=True, exist_ok=True)
        ignore = self.directory / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# skillbox graph cache: rebuilt on demand, never committed\n*\n")

    def entry_path(self, key: str) -> Path:
        return self.records_dir / key[:2] / f"{key}.bin"

    def load(self, key: str):
        """(found, value): a verified entry, or (False, None); a corrupt entry is deleted."""
        path = self.entry_path(key)
        try:
            blob = path.read_bytes()
        except OSError:
            return False, None
        try:
            value = unseal(blob)
        except Exception:
            with contextlib.suppress(OSError):
                path.unlink()
            return False, "corrupt"
        return True, value

    def store(self, key: str, value) -> None:
        path = self.entry_path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, seal(value))

    def load_index(self) -> dict | None:
        try:
            return unseal((self.directory / INDEX_NAME).read_bytes())
        except Exception:
            return None

    def save_index(self, index: dict) -> None:
        self.prepare()
        write_atomic(self.directory / INDEX_NAME, seal(index))

    def prune(self, keep: set[str]) -> int:
        """Delete entries no current file uses; the cache never grows past the tree it describes."""
        removed = 0
        if not self.records_dir.is_dir():
            return 0
        for sub in self.records_dir.iterdir():
            if not sub.is_dir():
                continue
            for entry in sub.iterdir():
                if entry.name.endswith(".bin") and entry.name[:-4] not in keep:
                    try:
                        entry.unlink()
                        removed += 1
                    except OSError:
                        pass
        return removed
