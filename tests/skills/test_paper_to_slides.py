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
            {
                "layout": "section",
                "title": "背景：为什么免疫治疗只对部分病人有效",
                "subtitle": "只有约三成病人对 PD-1 抑制剂有反应",
                "notes": "两分钟讲清问题。",
            },
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
    spec["slides"][4]["bullets"] = [
        f"Point number {i} with several extra words to read aloud, and then a second clause that wraps the line"
        for i in range(14)
    ]
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


# --- bullets, layouts and the checks that keep a deck readable ---------------------------------------------

A_NS = "{http://schemas.openxmlformats.org/drawingml/2006/main}"


def _body_paragraphs(slide):
    body = next(s for s in slide.shapes if s.name == "Body")
    return [p for p in body.text_frame.paragraphs if p.text.strip()]


def test_bullets_are_paragraph_bullets_with_hanging_indents_in_both_scripts(spec_dir):
    out = spec_dir / "talk.pptx"
    spec = json.loads((spec_dir / "deck.json").read_text())
    spec["slides"][4]["bullets"] = [
        "Why do only a third of melanoma patients respond to anti-PD-1 therapy, even when tumours look alike?",
        "肠道菌群是否决定了免疫治疗的效果？这是一个跨越多个队列、多个国家的问题",
        ["Two cohorts, 42 and 112 patients"],
    ]
    build_deck.build_deck(spec, out, spec_dir)
    paragraphs = _body_paragraphs(Presentation(str(out)).slides[5])
    glyphs, margins = [], []
    for para in paragraphs:
        ppr = para._p.pPr
        assert not para.text.startswith(("•", "–"))  # the glyph is not typed into the text
        glyphs.append(ppr.find(f"{A_NS}buChar").get("char"))
        assert ppr.find(f"{A_NS}buFont").get("typeface") == "Arial"  # same glyph font for Chinese and English
        margin, indent = int(ppr.get("marL")), int(ppr.get("indent"))
        assert indent < 0 and margin >= -indent  # the glyph hangs left of the text, inside the box
        margins.append(margin)
    assert glyphs == ["•", "•", "–"]
    assert margins[0] == margins[1] < margins[2]  # both scripts at one indent; the sub-level deeper


def test_body_text_grows_to_use_the_slide_and_shrinks_to_fit(spec_dir):
    spec = json.loads((spec_dir / "deck.json").read_text())
    out = spec_dir / "talk.pptx"
    spec["slides"][4]["bullets"] = ["Diet?", "Antibiotics?"]
    build_deck.build_deck(spec, out, spec_dir)
    few = _body_paragraphs(Presentation(str(out)).slides[5])[0].runs[0].font.size.pt
    spec["slides"][4]["bullets"] = [
        f"Point {i}: a longer sentence that needs most of one line, then some more" for i in range(7)
    ]
    build_deck.build_deck(spec, out, spec_dir)
    many = _body_paragraphs(Presentation(str(out)).slides[5])[0].runs[0].font.size.pt
    assert few == 28 and 18 <= many < few


def test_section_key_result_and_table_layouts_carry_content(spec_dir):
    spec = json.loads((spec_dir / "deck.json").read_text())
    spec["slides"] += [
        {"layout": "section", "title": "Results", "subtitle": "Three experiments", "notes": "n"},
        {"layout": "key_result", "title": "Three times more", "result": "3.0×", "detail": "p = 0.002", "notes": "n"},
        {
            "layout": "table",
            "title": "Cohorts",
            "table": {"header": ["Cohort", "n"], "rows": [["Chicago", "42"], ["Houston", "112"]]},
            "caption": "Table 1 | Lee et al.",
            "notes": "n",
        },
    ]
    out = spec_dir / "talk.pptx"
    build_deck.build_deck(spec, out, spec_dir)
    slides = Presentation(str(out)).slides
    agenda = next(s for s in slides[6].shapes if s.name == "Agenda").text_frame
    assert [p.text for p in agenda.paragraphs] == ["1  背景：为什么免疫治疗只对部分病人有效", "2  Results"]
    assert agenda.paragraphs[1].runs[0].font.bold and not agenda.paragraphs[0].runs[0].font.bold
    callout = next(s for s in slides[7].shapes if s.name == "Callout").text_frame
    assert callout.paragraphs[0].text == "3.0×" and callout.paragraphs[0].runs[0].font.size.pt == 54
    table = next(s for s in slides[8].shapes if s.has_table).table
    assert [[table.cell(r, c).text for c in range(2)] for r in range(3)] == [
        ["Cohort", "n"],
        ["Chicago", "42"],
        ["Houston", "112"],
    ]
    assert check_deck.check_deck(out) == []


def test_a_ragged_table_is_a_one_line_spec_error(spec_dir):
    spec = json.loads((spec_dir / "deck.json").read_text())
    spec["slides"].append({"layout": "table", "title": "T", "table": {"header": ["a", "b"], "rows": [["1"]]}})
    with pytest.raises(build_deck.SpecError, match="slide 7: every table row needs 2 cells"):
        build_deck.validate_spec(spec)


def _deck_with(tmp_path, build):
    prs = Presentation()
    prs.slide_width, prs.slide_height = Inches(13.333), Inches(7.5)
    for _ in range(2):
        prs.slides.add_slide(prs.slide_layouts[6])
    build(prs.slides[1])
    prs.slides[1].notes_slide.notes_text_frame.text = "notes"
    path = tmp_path / "made.pptx"
    prs.save(str(path))
    return {f.code: f for f in check_deck.check_deck(path) if f.slide == 2}


def test_typed_bullets_are_flagged(tmp_path):
    def build(slide):
        box = slide.shapes.add_textbox(Inches(0.6), Inches(1.5), Inches(12), Inches(5))
        box.text_frame.text = "• First point with data\n• 第二点\n• Third"

    found = _deck_with(tmp_path, build)
    assert "typed_bullets" in found and "3 bullet(s)" in found["typed_bullets"].message


def _noise(size):
    import numpy as np

    return Image.fromarray((np.random.default_rng(1).random((size[1], size[0], 3)) * 255).astype("uint8"))


def test_an_upscaled_thumbnail_is_caught_and_a_real_figure_is_not(tmp_path):
    _noise((1600, 900)).save(tmp_path / "real.png")
    _noise((300, 169)).resize((1600, 900), Image.Resampling.BICUBIC).save(tmp_path / "upscaled.png")

    def place(name):
        return lambda slide: slide.shapes.add_picture(
            str(tmp_path / name), Inches(0.6), Inches(1.0), Inches(12.1), Inches(6.8)
        )

    assert "image_low_resolution" not in _deck_with(tmp_path, place("real.png"))
    found = _deck_with(tmp_path, place("upscaled.png"))
    assert "upscaled" in found["image_low_resolution"].message
    assert found["image_low_resolution"].severity == "error"  # ~300 px of detail across 11 in


def test_a_small_image_blown_up_on_the_slide_is_caught(tmp_path):
    _noise((300, 169)).save(tmp_path / "thumb.png")
    found = _deck_with(
        tmp_path,
        lambda slide: slide.shapes.add_picture(str(tmp_path / "thumb.png"), Inches(1), Inches(1.5), Inches(6)),
    )
    assert found["image_low_resolution"].severity == "warning" and "50 ppi" in found["image_low_resolution"].message


def test_edges_that_almost_line_up_are_flagged(tmp_path):
    def build(slide):
        slide.shapes.add_textbox(Inches(0.6), Inches(1.5), Inches(6), Inches(1)).text_frame.text = "A claim"
        slide.shapes.add_textbox(Inches(0.72), Inches(3.0), Inches(6), Inches(1)).text_frame.text = "Its evidence"

    assert "misaligned" in _deck_with(tmp_path, build)


def test_a_title_only_slide_is_mostly_empty(tmp_path):
    def build(slide):
        box = slide.shapes.add_textbox(Inches(0.6), Inches(0.35), Inches(12), Inches(0.95))
        box.name = "Title"
        box.text_frame.text = "Methods"

    assert "slide_mostly_empty" in _deck_with(tmp_path, build)


def test_text_measure_treats_cjk_as_twice_as_wide_as_latin(capsys):
    slide_text = load_script("paper-to-slides", "slide_text")
    latin = slide_text.paragraph_height_pt("a" * 40, 20, 200)  # 20 em in a 10 em line: two lines
    cjk = slide_text.paragraph_height_pt("肠" * 20, 20, 200)  # 20 em of CJK: also two lines
    assert latin == cjk == 2 * 20 * slide_text.LINE_SPACING
    assert slide_text.main(["The question the paper asks", "--size", "32", "--width-in", "12.1"]) == 0
    assert capsys.readouterr().out.startswith("1 line(s)")


def test_a_long_table_continues_on_further_slides_and_a_pasted_one_is_caught(spec_dir):
    rows = [
        [f"Author {i} et al., 199{i % 10}", "Hippocampal astrocytes", "Mechanical, local glutamate"] for i in range(44)
    ]
    spec = json.loads((spec_dir / "deck.json").read_text())
    spec["slides"] = [
        {
            "layout": "table",
            "title": "All cohorts",
            "table": {"header": ["Ref", "Prep", "Stimulus"], "rows": rows},
            "caption": "Table 1 | Lee et al.",
            "notes": "n",
        }
    ]
    out = spec_dir / "long.pptx"
    build_deck.build_deck(spec, out, spec_dir)
    prs = Presentation(str(out))
    tables = [next(s for s in slide.shapes if s.has_table).table for slide in list(prs.slides)[1:]]
    assert len(tables) > 1
    assert sum(len(t.rows) - 1 for t in tables) == 44 and all(t.cell(0, 0).text == "Ref" for t in tables)
    titles = [next(sh for sh in slide.shapes if sh.name == "Title").text_frame.text for slide in list(prs.slides)[1:]]
    assert titles[0] == "All cohorts" and titles[1] == f"All cohorts (cont. 2/{len(tables)})"
    assert not [f for f in check_deck.check_deck(out) if f.severity == "error"]
    # the same 44 rows pasted into one slide by hand run off it, and the checker says so
    slide = prs.slides[1]
    shape = next(s for s in slide.shapes if s.has_table)
    pasted = slide.shapes.add_table(45, 3, shape.left, shape.top, shape.width, Inches(1))
    pasted.name = "Pasted"
    for r in range(45):
        for c in range(3):
            pasted.table.cell(r, c).text = "x"
    prs.save(str(out))
    assert (2, "table_off_slide") in {(f.slide, f.code) for f in check_deck.check_deck(out)}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s["slides"].append("just a title"), "slide 7: a slide is an object"),
        (lambda s: s["slides"][4].update(bullets="Diet? Antibiotics?"), "slide 6: 'bullets' is a list of strings"),
        (lambda s: s["slides"][4].update(bullets=[{"text": "x"}]), "slide 6: 'bullets' is a list of strings"),
    ],
)
def test_malformed_slides_are_one_line_spec_errors(spec_dir, change, message):
    spec = json.loads((spec_dir / "deck.json").read_text())
    change(spec)
    with pytest.raises(build_deck.SpecError, match=message):
        build_deck.validate_spec(spec)


def test_numbers_as_bullets_are_written_as_text(spec_dir):
    spec = json.loads((spec_dir / "deck.json").read_text())
    spec["slides"][4]["bullets"] = [42, [3.5]]
    out = spec_dir / "n.pptx"
    build_deck.build_deck(spec, out, spec_dir)
    assert [p.text for p in _body_paragraphs(Presentation(str(out)).slides[5])] == ["42", "3.5"]
