"""Build a journal-club .pptx from a slide spec (JSON or YAML) with python-pptx.

The agent decides the story, the figures and the words; this script does the layout the same way every time:
16:9 slides, one title line that states the point, figures scaled to fit without cropping or stretching, a source
line under every figure, speaker notes on every slide.

    skillbox-python build_deck.py deck.json talk.pptx [--base-dir DIR]

Spec: {"title", "subtitle", "presenter", "date", "language": "en"|"zh", "slides": [SLIDE, ...]} where SLIDE has
"layout" (section | bullets | figure | figure_bullets | two_figures), "title", and as the layout needs "bullets"
(strings; a nested list is a sub-level), "image" / "images" (paths relative to the spec or --base-dir),
"caption" (figure source, e.g. "Fig. 2b | Lee et al., Nature 2024"), "takeaway" (one line under the figure) and
"notes" (speaker notes). Exit 0 on success, 2 on a bad spec (one line on stderr).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from PIL import Image
from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.enum.text import MSO_ANCHOR, PP_ALIGN
from pptx.oxml.ns import qn
from pptx.util import Emu, Inches, Pt

LAYOUTS = {"section", "bullets", "figure", "figure_bullets", "two_figures"}
SLIDE_W, SLIDE_H = Inches(13.333), Inches(7.5)
MARGIN = Inches(0.6)
TITLE_TOP, TITLE_H = Inches(0.35), Inches(0.95)
BODY_TOP = Inches(1.45)
CAPTION_H = Inches(0.4)
FOOTER_TOP = SLIDE_H - Inches(0.45)
INK = RGBColor(0x1F, 0x1F, 0x1F)
MUTED = RGBColor(0x6B, 0x6B, 0x6B)
ACCENT = RGBColor(0x00, 0x72, 0xB2)
FONTS = {"en": ("Arial", None), "zh": ("Arial", "Microsoft YaHei")}


class SpecError(ValueError):
    """The slide spec is unusable; the message names the slide and field."""


def load_spec(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() in {".yaml", ".yml"}:
        import yaml

        spec = yaml.safe_load(text)
    else:
        try:
            spec = json.loads(text)
        except json.JSONDecodeError as err:
            raise SpecError(f"{path}: invalid JSON ({err})") from None
    validate_spec(spec)
    return spec


def validate_spec(spec) -> None:
    if not isinstance(spec, dict) or not spec.get("title"):
        raise SpecError("spec needs a top-level 'title'")
    slides = spec.get("slides")
    if not isinstance(slides, list) or not slides:
        raise SpecError("spec needs a non-empty 'slides' list")
    if spec.get("language", "en") not in FONTS:
        raise SpecError(f"language must be one of {sorted(FONTS)}")
    for number, slide in enumerate(slides, 2):
        where = f"slide {number}"
        layout = slide.get("layout")
        if layout not in LAYOUTS:
            raise SpecError(f"{where}: layout must be one of {sorted(LAYOUTS)}, got {layout!r}")
        if not slide.get("title"):
            raise SpecError(f"{where}: missing 'title'")
        if layout in {"bullets", "figure_bullets"} and not slide.get("bullets"):
            raise SpecError(f"{where}: layout {layout} needs 'bullets'")
        if layout in {"figure", "figure_bullets"} and not slide.get("image"):
            raise SpecError(f"{where}: layout {layout} needs 'image'")
        if layout == "two_figures" and len(slide.get("images") or []) != 2:
            raise SpecError(f"{where}: layout two_figures needs exactly two 'images'")


class DeckBuilder:
    def __init__(self, spec: dict, base_dir: Path):
        self.spec = spec
        self.base_dir = base_dir
        self.latin, self.east_asian = FONTS[spec.get("language", "en")]
        self.prs = Presentation()
        self.prs.slide_width, self.prs.slide_height = SLIDE_W, SLIDE_H
        self.blank = self.prs.slide_layouts[6]

    # --- text helpers ---------------------------------------------------------------------------------------
    def _style(self, run, size: int, bold: bool = False, color: RGBColor = INK) -> None:
        run.font.size = Pt(size)
        run.font.bold = bold
        run.font.name = self.latin
        run.font.color.rgb = color
        if self.east_asian:
            rpr = run._r.get_or_add_rPr()
            ea = rpr.find(qn("a:ea"))
            if ea is None:
                ea = rpr.makeelement(qn("a:ea"), {})
                rpr.append(ea)
            ea.set("typeface", self.east_asian)

    def _textbox(self, slide, left, top, width, height, name: str):
        box = slide.shapes.add_textbox(left, top, width, height)
        box.name = name
        frame = box.text_frame
        frame.word_wrap = True
        frame.margin_left = frame.margin_right = Inches(0.05)
        return box, frame

    def _title(self, slide, text: str, size: int = 28) -> None:
        _, frame = self._textbox(slide, MARGIN, TITLE_TOP, SLIDE_W - 2 * MARGIN, TITLE_H, "Title")
        frame.vertical_anchor = MSO_ANCHOR.MIDDLE
        self._style(frame.paragraphs[0].add_run(), size, bold=True)
        frame.paragraphs[0].runs[0].text = text

    def _bullets(self, slide, items: list, left, top, width, height) -> None:
        _, frame = self._textbox(slide, left, top, width, height, "Body")
        first = True
        for item in items:
            for text, level in [(item, 0)] if isinstance(item, str) else [(sub, 1) for sub in item]:
                para = frame.paragraphs[0] if first else frame.add_paragraph()
                first = False
                para.level = level
                para.space_after = Pt(10)
                run = para.add_run()
                run.text = ("• " if level == 0 else "– ") + str(text)
                self._style(run, 20 if level == 0 else 17, color=INK if level == 0 else MUTED)

    def _picture(self, slide, image: str, left, top, width, height) -> None:
        """Fit the image inside the box keeping its aspect ratio (never crop, never stretch), centred."""
        path = (self.base_dir / image).resolve()
        if not path.is_file():
            raise SpecError(f"image not found: {image}")
        with Image.open(path) as img:
            w_px, h_px = img.size
        scale = min(width / w_px, height / h_px)
        w, h = int(w_px * scale), int(h_px * scale)
        pic = slide.shapes.add_picture(str(path), Emu(left + (width - w) // 2), Emu(top + (height - h) // 2), w, h)
        pic.name = f"Figure {Path(image).name}"

    def _caption(self, slide, text: str) -> None:
        top = FOOTER_TOP - CAPTION_H
        _, frame = self._textbox(slide, MARGIN, top, SLIDE_W - 2 * MARGIN - Inches(1), CAPTION_H, "Source")
        self._style(frame.paragraphs[0].add_run(), 12, color=MUTED)
        frame.paragraphs[0].runs[0].text = text

    def _takeaway(self, slide, text: str, top) -> None:
        _, frame = self._textbox(slide, MARGIN, top, SLIDE_W - 2 * MARGIN, Inches(0.5), "Takeaway")
        frame.paragraphs[0].alignment = PP_ALIGN.CENTER
        self._style(frame.paragraphs[0].add_run(), 18, bold=True, color=ACCENT)
        frame.paragraphs[0].runs[0].text = text

    def _footer(self, slide, number: int) -> None:
        _, frame = self._textbox(slide, SLIDE_W - MARGIN - Inches(0.8), FOOTER_TOP, Inches(0.8), Inches(0.35), "Page")
        frame.paragraphs[0].alignment = PP_ALIGN.RIGHT
        self._style(frame.paragraphs[0].add_run(), 11, color=MUTED)
        frame.paragraphs[0].runs[0].text = str(number)

    # --- slides ---------------------------------------------------------------------------------------------
    def title_slide(self) -> None:
        slide = self.prs.slides.add_slide(self.blank)
        _, frame = self._textbox(slide, MARGIN, Inches(2.2), SLIDE_W - 2 * MARGIN, Inches(1.6), "Title")
        frame.vertical_anchor = MSO_ANCHOR.BOTTOM
        self._style(frame.paragraphs[0].add_run(), 34, bold=True)
        frame.paragraphs[0].runs[0].text = self.spec["title"]
        lines = [
            self.spec.get("subtitle"),
            " · ".join(filter(None, [self.spec.get("presenter"), self.spec.get("date")])),
        ]
        _, sub = self._textbox(slide, MARGIN, Inches(4.0), SLIDE_W - 2 * MARGIN, Inches(1.4), "Subtitle")
        first = True
        for line in filter(None, lines):
            para = sub.paragraphs[0] if first else sub.add_paragraph()
            first = False
            self._style(para.add_run(), 20, color=MUTED)
            para.runs[0].text = line
        if self.spec.get("notes"):
            slide.notes_slide.notes_text_frame.text = self.spec["notes"]

    def content_slide(self, entry: dict, number: int) -> None:
        slide = self.prs.slides.add_slide(self.blank)
        layout = entry["layout"]
        body_bottom = FOOTER_TOP - (CAPTION_H if entry.get("caption") else 0) - Inches(0.1)
        if entry.get("takeaway"):
            body_bottom -= Inches(0.55)
            self._takeaway(slide, entry["takeaway"], body_bottom + Inches(0.05))
        body_h = body_bottom - BODY_TOP
        full_w = SLIDE_W - 2 * MARGIN
        if layout == "section":
            self._title(slide, entry["title"], size=36)
        else:
            self._title(slide, entry["title"])
        if layout == "bullets":
            self._bullets(slide, entry["bullets"], MARGIN, BODY_TOP, full_w, body_h)
        elif layout == "figure":
            self._picture(slide, entry["image"], MARGIN, BODY_TOP, full_w, body_h)
        elif layout == "figure_bullets":
            fig_w = int(full_w * 0.6)
            self._picture(slide, entry["image"], MARGIN, BODY_TOP, fig_w, body_h)
            gap = Inches(0.3)
            self._bullets(slide, entry["bullets"], MARGIN + fig_w + gap, BODY_TOP, full_w - fig_w - gap, body_h)
        elif layout == "two_figures":
            half = (full_w - Inches(0.3)) // 2
            self._picture(slide, entry["images"][0], MARGIN, BODY_TOP, half, body_h)
            self._picture(slide, entry["images"][1], MARGIN + half + Inches(0.3), BODY_TOP, half, body_h)
        if entry.get("caption"):
            self._caption(slide, entry["caption"])
        self._footer(slide, number)
        if entry.get("notes"):
            slide.notes_slide.notes_text_frame.text = entry["notes"]

    def build(self) -> Presentation:
        self.title_slide()
        for number, entry in enumerate(self.spec["slides"], 2):
            self.content_slide(entry, number)
        return self.prs


def build_deck(spec: dict, out: Path, base_dir: Path) -> int:
    """Write the deck; return the number of slides."""
    validate_spec(spec)
    prs = DeckBuilder(spec, base_dir).build()
    out.parent.mkdir(parents=True, exist_ok=True)
    prs.save(str(out))
    return len(prs.slides)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec", type=Path, help="slide spec, .json or .yaml")
    parser.add_argument("out", type=Path, help="where to write the .pptx")
    parser.add_argument("--base-dir", type=Path, help="folder image paths are relative to (default: the spec's)")
    args = parser.parse_args(argv)
    try:
        if not args.spec.is_file():
            raise SpecError(f"no such spec file: {args.spec}")
        spec = load_spec(args.spec)
        count = build_deck(spec, args.out, args.base_dir or args.spec.parent)
    except SpecError as err:
        print(f"Error: {err}", file=sys.stderr)
        return 2
    print(f"wrote {args.out} ({count} slides)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
