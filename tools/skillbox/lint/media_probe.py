"""Which kinds of tracks (video, audio) a media file holds, read from its container without decoding.

MP4/MOV/M4V: the `hdlr` box of each `moov/trak/mdia` names the track kind (`vide`, `soun`); the boxes are walked
with seeks, so a large `mdat` costs nothing. Other containers go to `ffprobe` when it is installed; otherwise the
answer is None (unknown) and callers stay silent.
"""

from __future__ import annotations

import os
import struct

from skillbox.lint import paths as fs

MP4_EXT = {".mp4", ".m4v", ".mov", ".m4a", ".3gp"}
HANDLERS = {b"vide": "video", b"soun": "audio"}
CONTAINERS = {b"moov", b"trak", b"mdia"}
MAX_BOXES = 4096  # per level: real files have a handful; hostile ones (8-byte boxes over 20 MB) stay bounded


def track_kinds(path) -> set[str] | None:
    """{"video", "audio"} subset (path: str or os.PathLike), or None when the file cannot be read or probed."""
    path = fs.clean(path)
    if fs.suffix(path).lower() in MP4_EXT:
        try:
            with open(path, "rb") as fh:
                size = os.stat(path).st_size
                kinds: set[str] = set()
                if _walk(fh, 0, size, kinds, depth=0):
                    return kinds
        except OSError:
            return None
        return None  # every MP4 (fragmented ones too) has a moov box: without one it is not a playable file
    return _ffprobe(path)


def _walk(fh, start: int, end: int, kinds: set[str], depth: int) -> bool:
    """Walk boxes in [start, end); True when a `moov` box was found (at depth 0) or the level parsed."""
    pos, found, boxes = start, False, 0
    while pos + 8 <= end and depth < 6 and boxes < MAX_BOXES:
        boxes += 1
        fh.seek(pos)
        header = fh.read(16)
        if len(header) < 8:
            break
        size, kind = struct.unpack(">I4s", header[:8])
        head = 8
        if size == 1 and len(header) >= 16:
            size, head = struct.unpack(">Q", header[8:16])[0], 16
        elif size == 0:
            size = end - pos
        if size < head or pos + size > end + 8:
            return found  # corrupt or truncated: keep what we have
        if kind in CONTAINERS:
            _walk(fh, pos + head, pos + size, kinds, depth + 1)
            found = found or kind == b"moov"
        elif kind == b"hdlr":
            fh.seek(pos + head + 8)  # version/flags (4) + pre_defined (4)
            handler = fh.read(4)
            if handler in HANDLERS:
                kinds.add(HANDLERS[handler])
        pos += size
    return found or depth > 0


FFPROBE_ARGS = ("-v", "error", "-probesize", "1000000", "-show_entries", "stream=codec_type", "-of", "csv=p=0")


def _ffprobe(path: str) -> set[str] | None:
    import shutil
    import subprocess

    exe = shutil.which("ffprobe")
    if exe is None:
        return None
    try:
        proc = subprocess.run(
            [exe, *FFPROBE_ARGS, path],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    return {line.strip() for line in proc.stdout.splitlines() if line.strip() in ("video", "audio")}
