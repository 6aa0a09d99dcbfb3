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
    assert any(line.startswith("trigger evals:") and line.endswith("right, BM25 proxy)") for line in report.lines)
    assert any(line.startswith("held-out sealed set: right skill ") for line in report.lines)
    assert [p.name for p in report.outputs] == ["fig1.pdf", "journal-club.pptx"]
    slides = Presentation(str(tmp_path / "journal-club.pptx")).slides
    assert len(slides) == 4
    assert any(shape.shape_type == 13 for shape in slides[2].shapes)  # the checked figure is on the figure slide


def test_without_a_plugin_folder_the_step_says_so_instead_of_pretending(tmp_path, monkeypatch):
    import skillbox.skills.paper_tour as paper_tour

    monkeypatch.delenv("CLAUDE_PLUGIN_ROOT", raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(paper_tour, "__file__", str(tmp_path / "site-packages" / "skillbox" / "skills" / "x.py"))
    report = paper_tour.run(tmp_path)
    assert report.ok is False
    assert report.lines == ["skills/ folder not found: run the tour from the plugin folder or set CLAUDE_PLUGIN_ROOT"]
