"""Render oracle for lint rules: render a composition with the real HyperFrames renderer and hash its frames.

The renderer is ground truth for "this breaks a video" (shared oracles): npm `hyperframes` (0.8.170) on Node 20,
Debian `chromium` (HYPERFRAMES_BROWSER_PATH) and `ffmpeg`. CDN GSAP `<script src>` tags are pointed at a local copy
from npm `gsap`, so renders run offline. Frames come out as a PNG sequence at a low fps and are compared by SHA-256
(a seek grid of 1/fps steps); two renders, or before/after an autofix, are equal when every frame hash is.

    python bench/lint_render.py PROJECT_DIR [--fps 4]        # prints one hash per frame
    python bench/lint_render.py --cases                      # runs the rule render cases (bench/README.md)

Locating the tools: SKILLBOX_HYPERFRAMES_NPM (a folder whose node_modules holds hyperframes and gsap; default
/work/cache/npm, then ~/.cache/skillbox-lint-render), `chromium` on PATH, `ffmpeg` on PATH. `available()` says
why rendering cannot run, so tests skip cleanly.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

NPM_CANDIDATES = (Path("/work/cache/npm"), Path.home() / ".cache" / "skillbox-lint-render")
CDN_SCRIPT = re.compile(
    r"""(<script\b[^>]*\bsrc\s*=\s*["'])https?://[^"']*?/(?:npm/)?gsap(?:@[^/"']*)?/dist/([\w.-]+\.js)(["'])""", re.I
)


class RenderError(RuntimeError):
    """The renderer failed (non-zero exit, no frames); the message holds its last output lines."""


@dataclass
class Tools:
    npm_dir: Path
    chromium: str
    node: str

    @property
    def cli(self) -> Path:
        return self.npm_dir / "node_modules" / "hyperframes" / "dist" / "cli.js"

    @property
    def gsap_dist(self) -> Path:
        return self.npm_dir / "node_modules" / "gsap" / "dist"


def find_tools() -> Tools | str:
    """The tools, or a one-line reason they are missing."""
    env = os.environ.get("SKILLBOX_HYPERFRAMES_NPM")
    candidates = [Path(env)] if env else list(NPM_CANDIDATES)
    npm_dir = next((c for c in candidates if (c / "node_modules" / "hyperframes" / "dist" / "cli.js").is_file()), None)
    if npm_dir is None:
        return "npm hyperframes not installed (run .ci/deps-lint or set SKILLBOX_HYPERFRAMES_NPM)"
    if not (npm_dir / "node_modules" / "gsap" / "dist" / "gsap.min.js").is_file():
        return f"npm gsap not installed under {npm_dir}"
    chromium = (
        os.environ.get("HYPERFRAMES_BROWSER_PATH") or shutil.which("chromium") or shutil.which("chromium-browser")
    )
    node = shutil.which("node")
    if not chromium:
        return "chromium not found"
    if not node:
        return "node not found"
    if not shutil.which("ffmpeg"):
        return "ffmpeg not found"
    return Tools(npm_dir, chromium, node)


def available() -> str | None:
    """None when renders can run, else why not."""
    tools = find_tools()
    return tools if isinstance(tools, str) else None


def localize_gsap(project: Path, tools: Tools) -> None:
    """Point CDN GSAP scripts (core and plugins) at copies in the project so the render needs no network."""
    local = project / "assets" / "_gsap"
    for html in project.rglob("*.html"):
        text = html.read_text(encoding="utf-8", errors="surrogateescape")

        def swap(m: re.Match) -> str:
            name = m.group(2)
            source = tools.gsap_dist / name
            if not source.is_file():
                return m.group(0)
            local.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, local / name)
            return f"{m.group(1)}assets/_gsap/{name}{m.group(3)}"

        new = CDN_SCRIPT.sub(swap, text)
        if new != text:
            html.write_text(new, encoding="utf-8", errors="surrogateescape")


def _env(tools: Tools, tmp: Path) -> dict[str, str]:
    return {
        **os.environ,
        "HYPERFRAMES_BROWSER_PATH": tools.chromium,
        "HYPERFRAMES_NO_TELEMETRY": "1",
        "DO_NOT_TRACK": "1",
        "HYPERFRAMES_NO_UPDATE_CHECK": "1",
        "CI": "1",
        "HOME": str(tmp / "home"),
    }


@contextlib.contextmanager
def _render(project: Path, args: list[str], out_name: str, *, timeout: float, localize: bool = True):
    """Copy `project` into a temporary folder (GSAP localized unless told not to), run `hyperframes render` on it
    with `args` writing to `out_name` there, and give (the output path, the process) while the folder exists.
    A render that times out or exits non-zero is a RenderError with the last lines it printed."""
    tools = find_tools()
    if isinstance(tools, str):
        raise RenderError(tools)
    with tempfile.TemporaryDirectory(prefix="skillbox-render-") as tmp:
        work = Path(tmp) / "project"
        shutil.copytree(project, work)
        if localize:
            localize_gsap(work, tools)
        out = Path(tmp) / out_name
        cmd = [tools.node, str(tools.cli), "render", str(work), "-o", str(out), *args]
        cmd += ["--quality", "draft", "--quiet", "--no-browser-gpu"]
        try:
            proc = subprocess.run(cmd, env=_env(tools, Path(tmp)), capture_output=True, text=True, timeout=timeout,
                                  check=False)  # fmt: skip
        except subprocess.TimeoutExpired as exc:
            raise RenderError(f"render timed out after {timeout:.0f} s") from exc
        yield out, proc


def _failed(proc: subprocess.CompletedProcess) -> RenderError:
    tail = " | ".join((proc.stdout + proc.stderr).strip().splitlines()[-4:])
    return RenderError(f"render failed (exit {proc.returncode}): {tail}")


def render_frames(
    project: Path,
    *,
    fps: int = 4,
    workers: int = 1,
    timeout: float = 180,
    localize: bool = True,
    ready_timeout_ms: int | None = None,
    keep: Path | None = None,
) -> list[str]:
    """Render `project` (a folder with index.html) and return the SHA-256 of every frame, in order.

    `workers=2` splits the frames between two browser processes that each seek their chunk cold — what a
    distributed render does, so it shows seek-order dependence a one-worker render hides. `keep` copies the PNGs
    into that folder (to look at them, not only compare them)."""
    args = ["--fps", str(fps), "--format", "png-sequence", "--workers", str(workers)]
    if ready_timeout_ms is not None:  # a composition that never registers fails after this, not after 45 s
        args += ["--player-ready-timeout", str(ready_timeout_ms)]
    with _render(project, args, "frames", timeout=timeout, localize=localize) as (out, proc):
        frames = sorted(out.rglob("*.png")) if out.exists() else []
        if proc.returncode != 0 or not frames:
            raise _failed(proc)
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            for f in frames:
                shutil.copyfile(f, keep / f.name)
        return [hashlib.sha256(f.read_bytes()).hexdigest() for f in frames]


def render_audio_db(project: Path, *, timeout: float = 180) -> float | None:
    """Render `project` to mp4 and return the mean volume of its sound in dB (ffmpeg volumedetect); None when the
    output has no audio stream or only silence. For rules about media that should (not) sound."""
    with _render(project, ["--fps", "4", "--workers", "1"], "out.mp4", timeout=timeout) as (out, proc):
        if proc.returncode != 0 or not out.is_file():
            raise _failed(proc)
        probe = subprocess.run(["ffmpeg", "-hide_banner", "-i", str(out), "-map", "0:a?", "-af", "volumedetect",
                                "-f", "null", "-"], capture_output=True, text=True, check=False)  # fmt: skip
        m = re.search(r"mean_volume:\s*(-?[\d.]+|-inf) dB", probe.stderr)
        if m is None or m.group(1) == "-inf" or float(m.group(1)) <= -90:
            return None
        return float(m.group(1))


def frames_differ(a: list[str], b: list[str]) -> int:
    """How many seek-grid frames differ (a length mismatch counts every missing frame)."""
    return sum(1 for x, y in zip(a, b, strict=False) if x != y) + abs(len(a) - len(b))


def main(argv: list[str]) -> int:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("project", nargs="?", type=Path)
    ap.add_argument("--fps", type=int, default=4)
    ap.add_argument("--cases", action="store_true", help="run the rule render cases")
    args = ap.parse_args(argv)
    reason = available()
    if reason:
        print(f"skipped: {reason}", file=sys.stderr)
        return 0
    if args.cases:
        from lint_render_cases import run_all

        return run_all()
    if args.project is None:
        ap.error("PROJECT or --cases")
    try:
        for i, digest in enumerate(render_frames(args.project, fps=args.fps)):
            print(f"{i:04d} {digest}")
    except RenderError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
