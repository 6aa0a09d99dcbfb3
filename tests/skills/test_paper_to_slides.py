"""paper-to-slides: the builder writes a real deck that passes its own check; the check catches broken decks."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from PIL import Image
from pptx import Presentation
from pptx.util import Inches

from tests.skills.conftest import SKILLS, load_script

build_deck = load_script("paper-to-slides", "build_deck")
check_deck = load_script("paper-to-slides", "check_deck")
SCRIPTS = SKILLS / "paper-to-slides" / "scripts"


@pytest.fixture
def spec_dir(tmp_path):
    Image.new("RGB", (1600, 900), "white").save(tmp_path / "fig1.png")
    Image.new("RGB", (600, 900), "white").save(tmp_path / "fig2.png")  # tall: must not be stretched
    spec = {
        "title": "Gut microbes shape the response to checkpoint blockade",
        "subtitle": "Journal club",
        "presenter": "A. Chen",
        "date": "2026-11-30",
        "language": "zh",
        "slides": [
            {"layout": "section", "title": "背景：为什么免疫治疗只对部分病人有效", "notes": "两分钟讲清问题。"},
            {
                "layout": "figure",
                "title": "Responders carry more Bifidobacterium",
                "image": "fig1.png",
                "caption": "Fig. 1b | Lee et al., Nature 2024",
                "takeaway": "16S profiling of 42 patients",
                "notes": "Point at the two clusters.",
            },
            {
                "layout": "figure_bullets",
                "title": "Transfer into mice reproduces the effect",
                "image": "fig2.png",
                "bullets": ["Germ-free mice, n = 8 per arm", ["Faecal transfer from responders"]],
                "caption": "Fig. 3a | Lee et al., Nature 2024",
                "notes": "Causality claim rests on this slide.",
            },
            {
                "layout": "two_figures",
                "title": "Limits: one cohort, one tumour type",
                "images": ["fig1.png", "fig2.png"],
                "caption": "Extended Data Fig. 2 | Lee et al.",
                "notes": "Discuss confounders.",
            },
            {
                "layout": "bullets",
                "title": "Questions for discussion",
                "bullets": ["Diet?", "Antibiotics?"],
                "notes": "Q&A",
            },
        ],
    }
    (tmp_path / "deck.json").write_text(json.dumps(spec, ensure_ascii=False))
    return tmp_path


def test_built_deck_has_every_slide_notes_and_undistorted_figures(spec_dir):
    out = spec_dir / "talk.pptx"
    result = subprocess.run(
        [sys.executable, str(SCRIPTS / "build_deck.py"), str(spec_dir / "deck.json"), str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    prs = Presentation(str(out))
    assert len(prs.slides) == 6
    assert prs.slides[2].notes_slide.notes_text_frame.text == "Point at the two clusters."
    pictures = [s for s in prs.slides[3].shapes if s.shape_type == 13]
    assert len(pictures) == 1
    assert pictures[0].width / pictures[0].height == pytest.approx(600 / 900, rel=0.01)
    assert check_deck.check_deck(out) == []


def test_check_exit_code_is_zero_on_the_built_deck(spec_dir):
    out = spec_dir / "talk.pptx"
    build_deck.build_deck(json.loads((spec_dir / "deck.json").read_text()), out, spec_dir)
    result = subprocess.run(
        [sys.executable, str(SCRIPTS / "check_deck.py"), str(out), "--fail-on", "warning"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout
    assert result.stdout.strip().endswith("0 error(s), 0 warning(s)")


def test_check_finds_stretched_offslide_tiny_and_template_text(spec_dir):
    out = spec_dir / "talk.pptx"
    build_deck.build_deck(json.loads((spec_dir / "deck.json").read_text()), out, spec_dir)
    prs = Presentation(str(out))
    slide = prs.slides[2]
    picture = next(s for s in slide.shapes if s.shape_type == 13)
    picture.width = picture.width * 2  # stretch and push off the right edge
    box = slide.shapes.add_textbox(Inches(1), Inches(1), Inches(3), Inches(0.3))
    box.text_frame.text = "一句话总结：这是一个颠覆性的发现"
    box.text_frame.paragraphs[0].runs[0].font.size = Inches(0.1)  # 7.2 pt
    prs.slides[5].notes_slide.notes_text_frame.text = ""
    prs.save(str(out))
    codes = {(f.slide, f.code) for f in check_deck.check_deck(out)}
    assert {(3, "image_distorted"), (3, "shape_out_of_bounds"), (3, "font_too_small"), (3, "template_phrase")} <= codes
    assert (6, "missing_notes") in codes
    assert check_deck.main([str(out)]) == 1


def test_figure_without_source_and_overfull_slide_are_flagged(spec_dir):
    spec = json.loads((spec_dir / "deck.json").read_text())
    spec["slides"][1].pop("caption")
    spec["slides"][4]["bullets"] = [f"Point number {i} with several extra words to read aloud" for i in range(14)]
    out = spec_dir / "busy.pptx"
    build_deck.build_deck(spec, out, spec_dir)
    codes = {(f.slide, f.code) for f in check_deck.check_deck(out)}
    assert (3, "missing_source") in codes
    assert {(6, "too_many_bullets"), (6, "too_much_text"), (6, "text_overflow_risk")} <= codes


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s.pop("title"), "spec needs a top-level 'title'"),
        (lambda s: s["slides"][1].pop("image"), "slide 3: layout figure needs 'image'"),
        (lambda s: s["slides"][0].update(layout="poster"), "slide 2: layout must be one of"),
    ],
)
def test_bad_spec_is_a_one_line_error(spec_dir, change, message):
    spec = json.loads((spec_dir / "deck.json").read_text())
    change(spec)
    bad = spec_dir / "bad.json"
    bad.write_text(json.dumps(spec))
    result = subprocess.run(
        [sys.executable, str(SCRIPTS / "build_deck.py"), str(bad), str(spec_dir / "x.pptx")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert result.stderr.startswith(f"Error: {message}")
    assert not (spec_dir / "x.pptx").exists()
