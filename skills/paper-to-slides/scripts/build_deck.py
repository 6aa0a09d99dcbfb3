"""Build a journal-club .pptx from a slide spec (JSON or YAML) with python-pptx.

The agent decides the story, the figures and the words; this script does the layout the same way every time:
16:9 slides, one title line that states the point, figures scaled to fit without cropping or stretching, a source
line under every figure, speaker notes on every slide. Bullets are real paragraph bullets (PowerPoint's own bullet
with a hanging indent, so wrapped lines align with the text and Chinese and English lines get the same glyph), and
body text is set at the largest size that fits its box, so a slide with three points uses the slide.

    skillbox-python build_deck.py deck.json talk.pptx [--base-dir DIR]

Spec: {"title", "subtitle", "presenter", "date", "language": "en"|"zh", "slides": [SLIDE, ...]} where SLIDE has
"layout" (section | bullets | figure | figure_bullets | two_figures | key_result | table), "title", and as the layout
needs "bullets" (strings; a nested list is a sub-level), "image" / "images" (paths relative to the spec or
--base-dir), "caption" (figure source, e.g. "Fig. 2b | Lee et al., Nature 2024"), "takeaway" (one line under the
figure) and "notes" (speaker notes).
- section: a divider that carries content: "subtitle" (what this part answers) and the talk's agenda (every
  section title, this one highlighted).
- key_result: "result" (the number or statement, large), "detail" (one line of context), optional "image" beside it.
- table: "table": {"header": [...], "rows": [[...], ...]} as a native, editable table (e.g. from the "rows" that
  extract_figures.py found in the paper), or "image" for a cropped table picture.
Exit 0 on success, 2 on a bad spec (one line on stderr).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # slide_text.py, shared with check_deck.py

from PIL import Image
from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.enum.text import MSO_ANCHOR, PP_ALIGN
from pptx.oxml.ns import qn
from pptx.util import Emu, Inches, Pt
from slide_text import paragraph_height_pt, text_em

LAYOUTS = {"section", "bullets", "figure", "figure_bullets", "two_figures", "key_result", "table"}
SLIDE_W, SLIDE_H = Inches(13.333), Inches(7.5)
MARGIN = Inches(0.6)
TITLE_TOP, TITLE_H = Inches(0.35), Inches(0.95)
BODY_TOP = Inches(1.45)
CAPTION_H = Inches(0.4)
FOOTER_TOP = SLIDE_H - Inches(0.45)
INK = RGBColor(0x1F, 0x1F, 0x1F)
MUTED = RGBColor(0x6B, 0x6B, 0x6B)
ACCENT = RGBColor(0x00, 0x72, 0xB2)
LIGHT = RGBColor(0xE8, 0xF1, 0xF8)
FONTS = {"en": ("Arial", None), "zh": ("Arial", "Microsoft YaHei")}
# Body text: the largest size that fits, never below the floor a back row can read.
BODY_SIZES = (28, 26, 24, 22, 20, 18)
SUB_RATIO = 0.85
BULLET_GLYPHS = ("\u2022", "\u2013")  # level 0, level 1: set in the bullet font, whatever the text's script
BULLET_FONT = "Arial"


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
        if not isinstance(slide, dict):
            raise SpecError(f"{where}: a slide is an object with 'layout' and 'title', got {type(slide).__name__}")
        layout = slide.get("layout")
        if layout not in LAYOUTS:
            raise SpecError(f"{where}: layout must be one of {sorted(LAYOUTS)}, got {layout!r}")
        if not slide.get("title"):
            raise SpecError(f"{where}: missing 'title'")
        if layout in {"bullets", "figure_bullets"} and not slide.get("bullets"):
            raise SpecError(f"{where}: layout {layout} needs 'bullets'")
        bullets = slide.get("bullets")
        if bullets is not None:
            ok = isinstance(bullets, list) and all(
                isinstance(b, str | int | float)
                or (isinstance(b, list) and all(isinstance(x, str | int | float) for x in b))
                for b in bullets
            )
            if not ok:
                raise SpecError(f"{where}: 'bullets' is a list of strings (a nested list is a sub-level)")
        if layout in {"figure", "figure_bullets"} and not slide.get("image"):
            raise SpecError(f"{where}: layout {layout} needs 'image'")
        if layout == "two_figures" and len(slide.get("images") or []) != 2:
            raise SpecError(f"{where}: layout two_figures needs exactly two 'images'")
        if layout == "key_result" and not slide.get("result"):
            raise SpecError(f"{where}: layout key_result needs 'result'")
        if layout == "table":
            table = slide.get("table")
            if table is None and not slide.get("image"):
                raise SpecError(f"{where}: layout table needs 'table' (header + rows) or 'image'")
            if table is not None:
                rows = table.get("rows") if isinstance(table, dict) else None
                if not isinstance(rows, list) or not rows or not all(isinstance(r, list) for r in rows):
                    raise SpecError(f"{where}: 'table' needs 'rows', a non-empty list of lists")
                width = len(table.get("header") or rows[0])
                if any(len(r) != width for r in rows):
                    raise SpecError(f"{where}: every table row needs {width} cells")


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

    def _title(self, slide, text: str, size: int | None = None) -> None:
        """Titles stay a step above the body: 32 pt when the line fits, else 28 pt (two lines at most)."""
        width = SLIDE_W - 2 * MARGIN
        if size is None:
            size = 32 if text_em(text) * 32 <= (width - Inches(0.1)) / 12700 else 28
        _, frame = self._textbox(slide, MARGIN, TITLE_TOP, width, TITLE_H, "Title")
        frame.vertical_anchor = MSO_ANCHOR.MIDDLE
        self._style(frame.paragraphs[0].add_run(), size, bold=True)
        frame.paragraphs[0].runs[0].text = text

    @staticmethod
    def _flatten(items: list) -> list[tuple[str, int]]:
        """(text, level) per bullet: a nested list is the sub-level of the bullet before it."""
        return [
            (str(t), lvl)
            for item in items
            for t, lvl in ([(sub, 1) for sub in item] if isinstance(item, list) else [(item, 0)])
        ]

    def _fit_size(self, lines: list[tuple[str, int]], width, height) -> int:
        """The largest body size at which every line fits the box (the estimate errs towards more room)."""
        width_pt, height_pt = (width - Inches(0.1)) / 12700, height / 12700
        for size in BODY_SIZES:
            need = 0.0
            for text, level in lines:
                run_size = size if level == 0 else size * SUB_RATIO
                indent = self._indent(level, size) / 12700
                need += paragraph_height_pt(text, run_size, width_pt - indent, run_size * 0.45)
            if need <= height_pt:
                return size
        return BODY_SIZES[-1]

    @staticmethod
    def _indent(level: int, size: int):
        """Left margin of a bullet paragraph: the glyph hangs in the first `hang` of it."""
        hang = Pt(size * 0.9)
        return Emu(int(hang + level * Pt(size * 1.2)))

    def _bullet_paragraph(self, para, level: int, size: int) -> None:
        """A real paragraph bullet: <a:buFont>/<a:buChar> with marL/indent, so wrapped lines hang under the text."""
        ppr = para._p.get_or_add_pPr()
        margin = self._indent(level, size)
        ppr.set("marL", str(int(margin)))
        ppr.set("indent", str(-int(Pt(size * 0.9))))
        for tag in ("a:buNone", "a:buAutoNum", "a:buChar", "a:buFont", "a:buClr"):
            for old in ppr.findall(qn(tag)):
                ppr.remove(old)
        colour = ppr.makeelement(qn("a:buClr"), {})
        colour.append(colour.makeelement(qn("a:srgbClr"), {"val": "0072B2" if level == 0 else "6B6B6B"}))
        ppr.append(colour)
        ppr.append(ppr.makeelement(qn("a:buFont"), {"typeface": BULLET_FONT}))
        ppr.append(ppr.makeelement(qn("a:buChar"), {"char": BULLET_GLYPHS[min(level, 1)]}))

    def _bullets(self, slide, items: list, left, top, width, height, anchor=MSO_ANCHOR.TOP) -> None:
        lines = self._flatten(items)
        size = self._fit_size(lines, width, height)
        _, frame = self._textbox(slide, left, top, width, height, "Body")
        frame.vertical_anchor = anchor
        for index, (text, level) in enumerate(lines):
            para = frame.paragraphs[0] if index == 0 else frame.add_paragraph()
            para.level = level
            run_size = size if level == 0 else round(size * SUB_RATIO)
            para.space_after = Pt(run_size * 0.45)
            self._bullet_paragraph(para, level, run_size)
            run = para.add_run()
            run.text = text
            self._style(run, run_size, color=INK if level == 0 else MUTED)

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

    def _accent_bar(self, slide, left, top, width, height) -> None:
        from pptx.enum.shapes import MSO_SHAPE

        bar = slide.shapes.add_shape(MSO_SHAPE.RECTANGLE, left, top, width, height)
        bar.name = "Accent"
        bar.fill.solid()
        bar.fill.fore_color.rgb = ACCENT
        bar.line.fill.background()

    def section_slide(self, slide, entry: dict) -> None:
        """A divider that still tells the audience something: where we are in the talk and what this part answers."""
        sections = [s["title"] for s in self.spec["slides"] if s["layout"] == "section"]
        self._accent_bar(slide, MARGIN, Inches(1.2), Inches(0.12), Inches(2.6))
        left = MARGIN + Inches(0.4)
        _, frame = self._textbox(slide, left, Inches(1.1), Inches(7.4), Inches(1.9), "Title")
        frame.vertical_anchor = MSO_ANCHOR.BOTTOM
        self._style(frame.paragraphs[0].add_run(), 36, bold=True)
        frame.paragraphs[0].runs[0].text = entry["title"]
        if entry.get("subtitle"):
            _, sub = self._textbox(slide, left, Inches(3.1), Inches(7.4), Inches(1.0), "Subtitle")
            self._style(sub.paragraphs[0].add_run(), 22, color=MUTED)
            sub.paragraphs[0].runs[0].text = entry["subtitle"]
        if len(sections) > 1:
            agenda_left = MARGIN + Inches(8.3)
            _, agenda = self._textbox(
                slide, agenda_left, Inches(1.1), SLIDE_W - MARGIN - agenda_left, Inches(5.0), "Agenda"
            )
            for index, title in enumerate(sections):
                para = agenda.paragraphs[0] if index == 0 else agenda.add_paragraph()
                para.space_after = Pt(10)
                current = title == entry["title"]
                self._style(para.add_run(), 18, bold=current, color=ACCENT if current else MUTED)
                para.runs[0].text = f"{index + 1}  {title}"

    def key_result_slide(self, slide, entry: dict, top, width, height) -> None:
        """One result the audience should remember, set large, with its context; a figure beside it if given."""
        text_w = int(width * 0.5) if entry.get("image") else width
        panel = slide.shapes.add_shape(1, MARGIN, top, text_w, height)  # 1 = rectangle
        panel.name = "Callout"
        panel.fill.solid()
        panel.fill.fore_color.rgb = LIGHT
        panel.line.fill.background()
        frame = panel.text_frame
        frame.word_wrap = True
        frame.vertical_anchor = MSO_ANCHOR.MIDDLE
        frame.margin_left = frame.margin_right = Inches(0.4)
        result = str(entry["result"])
        size = 54 if len(result) <= 12 else 40 if len(result) <= 40 else 30
        para = frame.paragraphs[0]
        para.alignment = PP_ALIGN.CENTER
        self._style(para.add_run(), size, bold=True, color=ACCENT)
        para.runs[0].text = result
        if entry.get("detail"):
            detail = frame.add_paragraph()
            detail.alignment = PP_ALIGN.CENTER
            detail.space_before = Pt(12)
            self._style(detail.add_run(), 22, color=INK)
            detail.runs[0].text = str(entry["detail"])
        if entry.get("image"):
            gap = Inches(0.4)
            self._picture(slide, entry["image"], MARGIN + text_w + gap, top, width - text_w - gap, height)

    @staticmethod
    def table_size(rows: list[list], header) -> int:
        body = ([header] if header else []) + rows
        longest = max(len(str(c)) for r in body for c in r)
        return 18 if len(body) <= 6 and longest <= 30 else 14 if len(body) <= 12 else 12

    def table_pages(self, entry: dict, height) -> list[list[list]]:
        """A long table split into slides of the rows that fit (the header repeats): a table never runs off."""
        table = entry["table"]
        header, rows = table.get("header"), table["rows"]
        width_pt = (SLIDE_W - 2 * MARGIN) / 12700 / max(1, len(rows[0]))
        size = self.table_size(rows, header)

        def row_pt(row) -> float:
            return max(paragraph_height_pt(str(c), size, width_pt - 10) for c in row) + size * 0.8

        budget = height / 12700 - (row_pt(header) if header else 0)
        pages, current, used = [], [], 0.0
        for row in rows:
            need = row_pt(row)
            if current and used + need > budget:
                pages.append(current)
                current, used = [], 0.0
            current.append(row)
            used += need
        pages.append(current)
        return pages

    def table_slide(self, slide, entry: dict, top, width, height) -> None:
        table = entry.get("table")
        if table is None:
            self._picture(slide, entry["image"], MARGIN, top, width, height)
            return
        header, rows = table.get("header"), table["rows"]
        body = ([header] if header else []) + rows
        cols = len(body[0])
        size = self.table_size(table.get("all_rows", rows), header)
        row_h = Pt(size * 2.0)
        shape = slide.shapes.add_table(len(body), cols, MARGIN, top, width, min(height, row_h * len(body)))
        shape.name = "Table"
        grid = shape.table
        grid.first_row = bool(header)
        for r, row in enumerate(body):
            for c, value in enumerate(row):
                cell = grid.cell(r, c)
                cell.text = ""
                para = cell.text_frame.paragraphs[0]
                self._style(para.add_run(), size, bold=bool(header) and r == 0, color=INK)
                para.runs[0].text = str(value)
                para.alignment = PP_ALIGN.LEFT if c == 0 else PP_ALIGN.CENTER

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
            self.section_slide(slide, entry)
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
            self._bullets(
                slide, entry["bullets"], MARGIN + fig_w + gap, BODY_TOP, full_w - fig_w - gap, body_h, MSO_ANCHOR.MIDDLE
            )
        elif layout == "two_figures":
            half = (full_w - Inches(0.3)) // 2
            self._picture(slide, entry["images"][0], MARGIN, BODY_TOP, half, body_h)
            self._picture(slide, entry["images"][1], MARGIN + half + Inches(0.3), BODY_TOP, half, body_h)
        elif layout == "key_result":
            self.key_result_slide(slide, entry, BODY_TOP, full_w, body_h)
        elif layout == "table":
            self.table_slide(slide, entry, BODY_TOP, full_w, body_h)
        if entry.get("caption"):
            self._caption(slide, entry["caption"])
        self._footer(slide, number)
        if entry.get("notes"):
            slide.notes_slide.notes_text_frame.text = entry["notes"]

    def _expanded(self) -> list[dict]:
        """The spec's slides, with a table too long for one slide continued on the next ones."""
        out = []
        for entry in self.spec["slides"]:
            if entry["layout"] != "table" or entry.get("table") is None:
                out.append(entry)
                continue
            body_h = FOOTER_TOP - (CAPTION_H if entry.get("caption") else 0) - Inches(0.1) - BODY_TOP
            pages = self.table_pages(entry, body_h)
            for index, rows in enumerate(pages):
                part = dict(entry, table={**entry["table"], "rows": rows, "all_rows": entry["table"]["rows"]})
                if index:
                    part["title"] = f"{entry['title']} (cont. {index + 1}/{len(pages)})"
                out.append(part)
        return out

    def build(self) -> Presentation:
        self.title_slide()
        for number, entry in enumerate(self._expanded(), 2):
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
