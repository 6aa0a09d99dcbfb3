"""The `paper` tour step runs the paper skills' scripts on the bundled sample and reports honestly."""

from __future__ import annotations

from pptx import Presentation

from skillbox.skills.paper_tour import run
from skillbox.tour import TOUR_STEPS, load_step


def test_paper_step_is_registered():
    assert load_step(TOUR_STEPS["paper"]) is run


def test_sample_figure_becomes_a_checked_deck(tmp_path):
    report = run(tmp_path)
    assert report.ok, report.lines
    assert report.lines[0] == "check_figure.py: 1 figure(s), 0 error(s)"
    assert any(line == "check_deck.py: 0 error(s), 0 warning(s)" for line in report.lines)
    assert any(line.startswith("trigger evals:") and line.endswith("0 picked the wrong skill") for line in report.lines)
    assert [p.name for p in report.outputs] == ["fig1.pdf", "journal-club.pptx"]
    slides = Presentation(str(tmp_path / "journal-club.pptx")).slides
    assert len(slides) == 4
    assert any(shape.shape_type == 13 for shape in slides[2].shapes)  # the checked figure is on the figure slide
