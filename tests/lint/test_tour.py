from __future__ import annotations

from skillbox.tour import TOUR_STEPS, load_step


def test_lint_tour_step_fixes_the_sample(tmp_path):
    assert TOUR_STEPS["lint"] == "skillbox.lint.tour:run"
    report = load_step(TOUR_STEPS["lint"])(tmp_path)
    assert report.ok
    index = (tmp_path / "launch-video" / "index.html").read_text()
    assert "gsap.timeline({ paused: true })" in index and "muted" in index
    assert any("timeline_play_called" in line for line in report.lines)
    assert all(path.exists() for path in report.outputs)
