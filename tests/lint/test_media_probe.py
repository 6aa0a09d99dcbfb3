"""Track kinds read from real files (ffmpeg-made when ffmpeg is installed) and the rule that relies on them."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from skillbox.lint.engine import lint_paths
from skillbox.lint.media_probe import track_kinds
from skillbox.lint.samples import composition

needs_ffmpeg = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="ffmpeg not installed")


def make(path, audio: bool):
    cmd = ["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=64x36:rate=5"]
    if audio:
        cmd += ["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-shortest"]
    subprocess.run([*cmd, "-t", "1", "-pix_fmt", "yuv420p", str(path)], check=True)


@needs_ffmpeg
@pytest.mark.parametrize("suffix", [".mp4", ".mov", ".webm"])
def test_track_kinds_of_real_files(tmp_path, suffix):
    silent, sound = tmp_path / f"a{suffix}", tmp_path / f"b{suffix}"
    make(silent, False)
    make(sound, True)
    if suffix == ".webm" and shutil.which("ffprobe") is None:
        pytest.skip("webm needs ffprobe")
    assert track_kinds(silent) == {"video"} and track_kinds(sound) == {"video", "audio"}


def test_unreadable_or_junk_files_are_unknown(tmp_path):
    junk = tmp_path / "x.mp4"
    junk.write_bytes(b"\x00\x00\x00\x01moov" + b"\xff" * 40)
    assert track_kinds(junk) in (None, set())
    assert track_kinds(tmp_path / "missing.mp4") is None


@needs_ffmpeg
def test_declared_audio_on_a_silent_clip(tmp_path):
    (tmp_path / "assets").mkdir()
    make(tmp_path / "assets" / "v.mp4", False)
    video = (
        '<video id="v" src="assets/v.mp4" data-has-audio="true" data-start="0" data-duration="1" '
        'data-track-index="1"></video>'
    )
    (tmp_path / "index.html").write_text(composition(video), encoding="utf-8")
    codes = [f.code for f in lint_paths([tmp_path]).findings]
    assert "video_declared_audio_missing_track" in codes
    make(tmp_path / "assets" / "v.mp4", True)
    assert "video_declared_audio_missing_track" not in [f.code for f in lint_paths([tmp_path]).findings]
