"""The render oracle on a small subset: the real HyperFrames renderer (npm hyperframes + Debian chromium +
ffmpeg) decides whether a rule's prediction holds and whether an autofix changes a correct render. Skips cleanly
when the renderer is not installed (.ci/deps-lint installs it)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import lint_render  # noqa: E402
import lint_render_cases  # noqa: E402

from skillbox.lint.fix import fix_paths  # noqa: E402

pytestmark = pytest.mark.skipif(lint_render.available() is not None, reason=str(lint_render.available()))


def case(name):
    return next(c for c in lint_render_cases.CASES if c.name == name)


def test_an_error_rule_predicts_a_broken_render(tmp_path):
    """gsap_from_opacity_noop stays an error: the flagged pattern never shows the element."""
    out = lint_render_cases.run(case("from_opacity_zero_onto_css_zero"), tmp_path)
    assert out["flagged_lint"] == ["gsap_from_opacity_noop"]
    assert out["intended_distinct_frames"] > 1 and out["differ"] > 0


def test_a_downgraded_rule_renders_identically(tmp_path):
    """gsap_css_transform_conflict is a warning: GSAP keeps the CSS centring through a y tween."""
    out = lint_render_cases.run(case("transform_conflict_translate_y"), tmp_path)
    assert out["flagged_lint"] == ["gsap_css_transform_conflict"]
    assert out["intended_distinct_frames"] > 1 and out["differ"] == 0


def test_fix_keeps_a_nested_timeline_render_identical(tmp_path):
    """--fix pauses the registered timeline and leaves the child a parent adds playing: same frames."""
    c = lint_render_cases
    js = (
        "const child = gsap.timeline();\n"
        'child.fromTo("#box", { x: 0 }, { x: 200, duration: 2, ease: "none" }, 0);\ntl.add(child, 0);'
    )
    project = tmp_path / "p"
    project.mkdir()
    html = c.scene(script=c.registered(js, timeline="gsap.timeline()"))
    (project / "index.html").write_text(html, encoding="utf-8")
    before = lint_render.render_frames(project)
    report = fix_paths([project])
    assert report.applied == 1 and "gsap.timeline({ paused: true })" in (project / "index.html").read_text()
    after = lint_render.render_frames(project)
    assert len(set(before)) > 1 and lint_render.frames_differ(before, after) == 0


def test_full_frame_flash_that_starts_visible_covers_the_first_frames(tmp_path):
    """gsap_fullscreen_overlay_starts_visible (from upstream) is an error: until its first tween the flash is
    white, where the intended composition (CSS opacity 0) shows the scene."""
    out = lint_render_cases.run(case("fullscreen_flash_starts_visible"), tmp_path)
    assert out["flagged_lint"] == ["gsap_fullscreen_overlay_starts_visible"] and out["intended_lint"] == []
    assert out["intended_distinct_frames"] > out["flagged_distinct_frames"] and out["differ"] >= 3


def test_a_visibility_tween_on_a_clip_is_overwritten_by_the_runtime(tmp_path):
    """gsap_animates_clip_element errors on visibility: the hide is lost and the clip keeps moving on screen."""
    out = lint_render_cases.run(case("visibility_hidden_on_clip"), tmp_path)
    assert out["flagged_lint"] == ["gsap_animates_clip_element"]
    assert out["flagged_distinct_frames"] > out["intended_distinct_frames"] and out["differ"] > 0
