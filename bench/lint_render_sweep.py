"""Render every error rule's own bad and good example (the samples `skillbox lint explain` prints).

A screen, not a verdict: the examples are minimal and often draw nothing visible, so identical frames prove
little. What the sweep does establish is the strongest kind of render case — the bad example makes the renderer
fail while the good one renders — and frames that differ between the two. Rules with neither are listed in
bench/README.md as having no render case yet.

    python bench/lint_render_sweep.py [--severity error] [CODE...]   # one JSON line per rule
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "lint"))

from lint_render import RenderError, available, frames_differ, render_frames

MEDIA = {  # placeholder bytes in the examples become real files of that kind (ffmpeg), so renders can load them
    ".mp4": ["-f", "lavfi", "-i", "testsrc=size=320x180:rate=10", "-t", "4", "-pix_fmt", "yuv420p"],
    ".webm": ["-f", "lavfi", "-i", "testsrc=size=320x180:rate=10", "-t", "4"],
    ".mp3": ["-f", "lavfi", "-i", "sine=frequency=440:duration=4"],
    ".wav": ["-f", "lavfi", "-i", "sine=frequency=440:duration=4"],
    ".png": ["-f", "lavfi", "-i", "testsrc=size=64x64", "-frames:v", "1"],
    ".jpg": ["-f", "lavfi", "-i", "testsrc=size=64x64", "-frames:v", "1"],
}
_made: dict[str, bytes] = {}


def _real(suffix: str) -> bytes | None:
    import subprocess

    if suffix not in MEDIA:
        return None
    if suffix not in _made:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / f"x{suffix}"
            subprocess.run(["ffmpeg", "-loglevel", "error", "-y", *MEDIA[suffix], str(out)], check=False)
            _made[suffix] = out.read_bytes() if out.is_file() else b""
    return _made[suffix] or None


def write(sample, folder: Path) -> Path:
    for rel, content in sample.files.items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes) and len(content) < 16 and (real := _real(target.suffix.lower())):
            target.write_bytes(real)
        elif isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    return folder


def sweep(codes: list[str], severity: str) -> None:
    from skillbox.lint.registry import all_rules

    rules = all_rules()
    chosen = [r for c, r in sorted(rules.items()) if (not codes or c in codes) and r.severity == severity]
    with tempfile.TemporaryDirectory(prefix="skillbox-sweep-") as tmp:
        for r in chosen:
            row: dict = {"code": r.code}
            frames = {}
            for label, sample in (("bad", r.bad), ("good", r.good)):
                folder = write(sample, Path(tmp) / r.code / label)
                try:
                    frames[label] = render_frames(folder, fps=1, timeout=240, ready_timeout_ms=10000)
                except RenderError as exc:
                    frames[label] = None
                    row[f"{label}_error"] = str(exc)[:300]
            bad, good = frames["bad"], frames["good"]
            row["bad_fails"], row["good_fails"] = bad is None, good is None
            row["differ"] = None if bad is None or good is None else frames_differ(bad, good)
            row["verdict"] = (
                "render fails" if bad is None and good is not None
                else "frames differ" if row["differ"]
                else "both fail" if bad is None
                else "no visible difference"
            )  # fmt: skip
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    reason = available()
    if reason:
        print(f"skipped: {reason}")
        sys.exit(0)
    args = sys.argv[1:]
    sev = "error"
    if "--severity" in args:
        i = args.index("--severity")
        sev = args[i + 1]
        del args[i : i + 2]
    sweep(args, sev)
