"""Writing a file so that a reader sees the old file or the whole new one, never half of it.

The data goes to a temporary file in the target's folder (same filesystem, so the final rename is atomic) and is
renamed over the target only when everything was written; on any failure — an exception, a full disk, Ctrl-C —
the temporary file is removed and the previous file stays as it was. The one home of this pattern: graph.json
and its use outputs, the graph caches, the query index, exports, `mem export` and the installer's config edits
all write through it.

Modes: a replaced file keeps its mode (a private 0600 config stays private); a new file gets what a plain
`open(..., "w")` would give, 0o666 minus the umask (mkstemp alone would give 0600, a forced 0644 would ignore a
user's umask 077). A caller that knows better passes `mode`. A symlink at `path` is written through: its target
gets the new content and the link stays (a dotfiles checkout linked into ~/.codex keeps being the one file).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO


def _umask() -> int:
    """The process umask, read without changing it where Linux allows (os.umask sets it, racing other threads)."""
    with contextlib.suppress(OSError, ValueError), open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_target(path: Path | str) -> Path:
    """The file a write to `path` must replace: the link's final target when `path` is a symlink."""
    path = Path(path)
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def mode_for(path: Path | str) -> int:
    """The mode a write to `path` gives: the existing file's, else 0o666 minus the umask."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return 0o666 & ~_umask()


@contextlib.contextmanager
def atomic_path(path: Path | str, *, mode: int | None = None) -> Iterator[Path]:
    """A temporary path beside `path` for the caller to fill (e.g. a SQLite database); renamed onto `path` when
    the block ends normally, removed when it raises. Creates `path`'s folder. `mode`: see the module docstring."""
    path = write_target(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    final_mode = mode_for(path) if mode is None else mode
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)  # 0600 while filled
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, final_mode)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


@contextlib.contextmanager
def atomic_open(
    path: Path | str, binary: bool = True, *, buffering: int = -1, fsync: bool = False, mode: int | None = None
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


def atomic_write(path: Path | str, data: bytes | str, *, mode: int | None = None, fsync: bool = False) -> Path:
    """Replace `path` with `data` (str is written as UTF-8)."""
    with atomic_open(path, binary=isinstance(data, bytes), mode=mode, fsync=fsync) as handle:
        handle.write(data)
    return Path(path)
