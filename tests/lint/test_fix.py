"""`--fix` rewrites only the bytes a fix needs; `--fix --diff` shows the change and writes nothing."""

from __future__ import annotations

import builtins
import io
import json
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from skillbox.cli.root import cli
from skillbox.lint.fix import apply_edits, fix_paths
from skillbox.lint.registry import Edit
from skillbox.lint.samples import composition

VIDEO = '<video id="v" src="https://cdn.skillbox.dev/clip.mp4" data-start="0" data-duration="4" data-track-index="0"'


def broken() -> str:
    body = (
        f'{VIDEO} playsinline crossorigin="anonymous"></video>\n'
        '<h1 id="t" data-start="0" data-layer="2" data-duration="2">Ünïcødé — title</h1>'
    )
    text = composition(body, js='tl.from("#t", { opacity: 0 }, 0);')
    text = text.replace("gsap.timeline({ paused: true })", "gsap.timeline({ defaults: { ease: 'none' } })")
    return text.replace("window.__timelines = window.__timelines || {};\n", "")


def test_fix_applies_every_safe_fix_and_keeps_other_bytes(tmp_path):
    path = tmp_path / "index.html"
    original = broken().replace("\n", "\r\n").encode("utf-8")
    path.write_bytes(original)
    report = fix_paths([path])
    after = path.read_bytes()
    assert report.result.findings == []
    assert b"\r\n" in after and b"\n" not in after.replace(b"\r\n", b"")  # CRLF kept everywhere
    assert "Ünïcødé — title".encode() in after
    text = after.decode()
    assert "muted" in text and "crossorigin" not in text
    assert 'data-track-index="2"' in text and "data-layer" not in text
    assert 'class="clip"' in text
    assert "gsap.timeline({ paused: true, defaults: { ease: 'none' } })" in text
    assert 'window.__timelines = window.__timelines || {};\r\nwindow.__timelines["main"]' in text
    # Everything outside the edited spans is unchanged: undo the known insertions and compare.
    restored = (
        text.replace(" muted", "", 1)
        .replace(" paused: true,", "", 1)
        .replace("window.__timelines = window.__timelines || {};\r\n", "", 1)
        .replace(' class="clip"', "", 1)
        .replace('data-track-index="2"', 'data-layer="2"', 1)
    )
    assert restored.encode() == original.replace(b' crossorigin="anonymous"', b"")


def test_fix_diff_writes_nothing_and_exits_one(tmp_path):
    path = tmp_path / "index.html"
    path.write_text(broken(), encoding="utf-8")
    before = path.read_bytes()
    result = CliRunner().invoke(cli, ["lint", str(path), "--fix", "--diff"])
    assert result.exit_code == 1
    assert path.read_bytes() == before
    assert "+++ b/" in result.output and "+" in result.output and "muted" in result.output


def test_fix_diff_on_clean_file_exits_zero(tmp_path):
    path = tmp_path / "index.html"
    path.write_text(composition(""), encoding="utf-8")
    result = CliRunner().invoke(cli, ["lint", str(path), "--fix", "--diff"])
    assert result.exit_code == 0 and result.output == ""


def test_cli_fix_reports_remaining_findings(tmp_path):
    path = tmp_path / "index.html"
    path.write_text(broken().replace("tl.from(", "tl.play();\ntl.from("), encoding="utf-8")
    result = CliRunner().invoke(cli, ["lint", str(path), "--fix", "--json"])
    data = json.loads(result.stdout)
    assert [f["code"] for f in data["findings"]] == ["timeline_play_called"]  # not auto-fixable
    assert result.exit_code == 0  # what remains is a warning (render-identical, see its explain page)
    assert "fixed" in result.stderr


def test_overlapping_edits_are_applied_once():
    out, count = apply_edits(b"abcdef", [Edit(1, 3, "X"), Edit(2, 4, "Y"), Edit(5, 5, "!")])
    assert out == b"aXde!f" and count == 2


def test_self_closing_video_fix(tmp_path):
    path = tmp_path / "index.html"
    path.write_text(composition(f"{VIDEO} muted playsinline />"), encoding="utf-8")
    fix_paths([path])
    assert "playsinline></video>" in path.read_text()


def test_fix_never_pauses_a_child_timeline_that_a_parent_adds(tmp_path):
    """A paused child never plays inside its parent (render case paused_child_added_to_parent): the fix pauses
    the registered timeline only."""
    js = (
        "const child = gsap.timeline();\n"
        'child.fromTo("#t", { x: 0 }, { x: 200, duration: 2 }, 0);\n'
        "function build() {\n  const inner = gsap.timeline({ defaults: { ease: 'none' } });\n"
        '  inner.to("#t", { y: 10, duration: 1 }, 0);\n  return inner;\n}\n'
        'tl.add(child, 0);\ntl.add(build(), 1);\ntl.add(gsap.timeline().to("#t", { scale: 2 }), 2);'
    )
    text = composition('<h1 id="t">x</h1>', js=js).replace("gsap.timeline({ paused: true })", "gsap.timeline()", 1)
    path = tmp_path / "index.html"
    path.write_text(text, encoding="utf-8")
    report = fix_paths([path])
    after = path.read_text()
    assert after.count("paused: true") == 1 and "const tl = gsap.timeline({ paused: true })" in after
    assert "const child = gsap.timeline();" in after and "gsap.timeline({ defaults: { ease: 'none' } })" in after
    assert not [f for f in report.result.findings if f.code == "timeline_not_paused"]


def test_fix_keeps_the_file_mode_and_the_symlink(tmp_path):
    real = tmp_path / "real.html"
    real.write_text(broken(), encoding="utf-8")
    real.chmod(0o754)
    link = tmp_path / "index.html"
    link.symlink_to(real)
    fix_paths([link])
    assert link.is_symlink() and link.resolve() == real
    assert "muted" in real.read_text(encoding="utf-8")
    assert stat.S_IMODE(real.stat().st_mode) == 0o754


def test_ctrl_c_while_writing_a_fix_leaves_the_file_whole(tmp_path, monkeypatch):
    """The fixed bytes are interrupted half-way (as Ctrl-C or a full disk would): the user's file must stay as it
    was, not be cut short."""
    path = tmp_path / "index.html"
    original = broken().encode("utf-8")
    path.write_bytes(original)
    real_open = builtins.open

    class HalfWriter:
        def __init__(self, handle):
            self.handle = handle

        def write(self, data):
            self.handle.write(bytes(data)[: len(data) // 2])
            self.handle.flush()
            raise KeyboardInterrupt

        def __getattr__(self, name):
            return getattr(self.handle, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

    def interrupted_open(file, mode="r", *args, **kwargs):
        handle = real_open(file, mode, *args, **kwargs)
        writing = "w" in mode and Path(file).parent == tmp_path
        return HalfWriter(handle) if writing else handle

    monkeypatch.setattr(builtins, "open", interrupted_open)
    monkeypatch.setattr(io, "open", interrupted_open)
    with pytest.raises(KeyboardInterrupt):
        fix_paths([path])
    monkeypatch.undo()
    assert path.read_bytes() == original
    assert [p.name for p in tmp_path.iterdir()] == ["index.html"]  # no temporary file left behind
