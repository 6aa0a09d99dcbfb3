"""Writing a file so that a reader sees the old file or the whole new one, never half of it.

The data goes to a temporary file in the target's folder (same filesystem, so the final rename is atomic) and is
renamed over the target only when everything was written; on any failure — an exception, a full disk, Ctrl-C —
the temporary file is removed and the previous file stays as it was. The one home of this pattern: graph.json
and its use outputs, the graph caches, the query index, exports and `mem export` all write through it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

FILE_MODE = 0o644  # what a plain `open(..., "w")` gives under the usual umask; mkstemp alone would give 0o600


@contextlib.contextmanager
def atomic_path(path: Path | str, *, mode: int = FILE_MODE) -> Iterator[Path]:
    """A temporary path beside `path` for the caller to fill (e.g. a SQLite database); renamed onto `path` when
    the block ends normally, removed when it raises. Creates `path`'s folder."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


@contextlib.contextmanager
def atomic_open(
    path: Path | str, binary: bool = True, *, buffering: int = -1, fsync: bool = False, mode: int = FILE_MODE
) -> Iterator[IO]:
    """An open file (bytes, or UTF-8 text) whose content replaces `path` when the block ends normally.

    `fsync`: flush to the disk before the rename, for a file whose loss after a power cut costs more than a
    rebuild (graph.json)."""
    with atomic_path(path, mode=mode) as tmp:
        kwargs = {} if binary else {"encoding": "utf-8"}
        with open(tmp, "wb" if binary else "w", buffering=buffering, **kwargs) as handle:
            yield handle
            if fsync:
                handle.flush()
                os.fsync(handle.fileno())


def atomic_write(path: Path | str, data: bytes | str, *, mode: int = FILE_MODE) -> Path:
    """Replace `path` with `data` (str is written as UTF-8)."""
    with atomic_open(path, binary=isinstance(data, bytes), mode=mode) as handle:
        handle.write(data)
    return Path(path)
