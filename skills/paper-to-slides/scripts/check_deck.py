"""Self-check a .pptx deck before it is shown: layout faults, unreadable text, missing notes and sources.

Reads the deck with python-pptx and reports findings a presenter would otherwise find on the projector: shapes off
the slide, stretched or cropped figures, figures too coarse for their size on the slide (including thumbnails that
were upscaled before insertion), text too small or too dense for its box, bullets typed as characters instead of
paragraph bullets, edges that almost but not quite line up, titles that jump between slides, mostly empty slides,
figures without a source line, content slides without speaker notes, and stock "AI template" phrasing in English or
Chinese.

    skillbox-python check_deck.py talk.pptx [--json] [--fail-on error|warning]

Exit 0: nothing at or above --fail-on (default error). Exit 1: findings at that level. Exit 2: unreadable file.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # slide_text.py, shared with build_deck.py

from PIL import Image, ImageChops, ImageStat
from pptx import Presentation
from pptx.enum.shapes import MSO_SHAPE_TYPE
from pptx.oxml.ns import qn
from pptx.util import Emu
from slide_text import CJK, paragraph_height_pt

EMU_PER_PT = 12700
MIN_PT_ERROR, MIN_PT_WARN = 10, 12
MAX_WORDS, MAX_CJK_CHARS, MAX_BULLETS = 60, 110, 6
ASPECT_TOLERANCE = 0.02
EMU_PER_INCH = 914400
# Pixels per inch of slide at which a figure still looks sharp on a 1080p projector (13.33 in = 1920 px -> 144).
MIN_PPI_WARN, MIN_PPI_ERROR = 96, 48
# Edges closer than this but not equal look like a mistake; further apart they are a choice.
ALIGN_NEAR, ALIGN_EXACT = 0.25 * EMU_PER_INCH, 0.01 * EMU_PER_INCH
MIN_COVERAGE = 0.18  # share of the slide's body area that content slides should use
TYPED_BULLETS = ("\u2022", "\u00b7", "- ", "\u2013 ", "* ", "\u25cf", "\u25aa")
SOURCE_HINT = re.compile(r"\b(fig\.?|figure|table|et al\.?|doi|source|adapted|ref\.?)\b|图|表|来源|引自", re.IGNORECASE)
# Stock phrasing that makes a deck read as machine-written; a presenter says what the data show instead.
TEMPLATE_PHRASES = [
    r"\bin conclusion\b",
    r"\bdelves? into\b",
    r"\bgame[- ]changer\b",
    r"\bparadigm shift\b",
    r"\bunlock(s|ing)? the (power|potential)\b",
    r"\bin today'?s (fast-paced )?world\b",
    r"\bit is worth noting\b",
    r"\bkey takeaways?\b",
    r"\bthe power of\b",
    r"\bnot (just|only) .{1,40}, but\b",
    r"一句话总结",
    r"不是.{1,20}而是",
    r"值得注意的是",
    r"综上所述",
    r"划重点",
    r"赋能",
    r"颠覆性",
]


@dataclass
class Finding:
    slide: int
    severity: str  # error | warning
    code: str
    message: str


def _shape_text(shape) -> str:
    return shape.text_frame.text if shape.has_text_frame else ""


def _run_sizes(shape):
    if not shape.has_text_frame:
        return
    for para in shape.text_frame.paragraphs:
        for run in para.runs:
            if run.font.size is not None and run.text.strip():
                yield run.font.size.pt, run.text


def _needed_height_pt(shape) -> float:
    """Height the text needs, wrapped into the box (paragraph indents taken off the width)."""
    frame = shape.text_frame
    width_pt = (shape.width - frame.margin_left - frame.margin_right) / EMU_PER_PT
    total = 0.0
    for para in frame.paragraphs:
        text = "".join(r.text for r in para.runs) or para.text
        sizes = [r.font.size.pt for r in para.runs if r.font.size is not None] or [18.0]
        ppr = para._p.pPr
        indent = int(ppr.get("marL", "0")) / EMU_PER_PT if ppr is not None else 0.0
        space = para.space_after.pt if para.space_after is not None else 0.0
        total += paragraph_height_pt(text, max(sizes), width_pt - indent, space)
    return total


def _table_findings(number: int, shape, slide_height: int) -> list[Finding]:
    """A table's text is in its cells, not a text frame: check its sizes and whether its rows fit on the slide."""
    out = []
    table = shape.table
    widths = [col.width / EMU_PER_PT for col in table.columns]
    need = 0.0
    smallest = None
    for row in table.rows:
        tallest = 0.0
        for width, cell in zip(widths, row.cells, strict=False):
            for para in cell.text_frame.paragraphs:
                sizes = [r.font.size.pt for r in para.runs if r.font.size is not None] or [18.0]
                smallest = min(sizes + ([smallest] if smallest else []))
                tallest = max(tallest, paragraph_height_pt(para.text, max(sizes), width - 14))
        need += max(tallest + 7, row.height / EMU_PER_PT)
    if smallest is not None and smallest < MIN_PT_ERROR:
        out.append(Finding(number, "error", "font_too_small", f"{smallest:g} pt text in table '{shape.name}'"))
    if (shape.top or 0) + need * EMU_PER_PT > slide_height:
        out.append(
            Finding(
                number,
                "error",
                "table_off_slide",
                f"table '{shape.name}' needs {need / 72:.1f} in and runs off the slide: split it (build_deck.py does)",
            )
        )
    return out


def _has_bullet(para) -> bool:
    ppr = para._p.pPr
    return ppr is not None and (ppr.find(qn("a:buChar")) is not None or ppr.find(qn("a:buAutoNum")) is not None)


def _typed_bullet(para) -> bool:
    return not _has_bullet(para) and para.text.lstrip().startswith(TYPED_BULLETS)


def upscale_factor(img: Image.Image) -> int:
    """How many times the picture was enlarged (bicubic/bilinear, as editors do) before it was inserted; 1 = it has
    the detail its pixel size claims. Shrinking a picture by k and enlarging it again loses the detail finer than
    k pixels: a picture enlarged f times loses almost nothing for k <= f. The loss is compared with the loss at
    k = 16, so the measure does not depend on how busy the picture is; real charts and photos lose about 0.3 of it
    already at k = 2, enlarged ones under 0.15 up to their factor (measured on rendered charts and noise)."""
    grey = img.convert("L")
    if min(grey.size) < 256:
        return 1

    def loss(k: float) -> float:
        small = grey.resize((max(1, round(grey.width / k)), max(1, round(grey.height / k))), Image.Resampling.BICUBIC)
        return ImageStat.Stat(ImageChops.difference(grey, small.resize(grey.size, Image.Resampling.BICUBIC))).mean[0]

    reference = loss(16)
    if reference < 0.5:  # a flat picture: nothing to judge
        return 1
    found = 1
    for k in (2, 3, 4, 6, 8):
        if loss(k) / reference >= 0.15:
            break
        found = k
    return found


def _picture_findings(number: int, shape) -> list[Finding]:
    out = []
    crops = [shape.crop_left, shape.crop_right, shape.crop_top, shape.crop_bottom]
    if any(abs(c) > 0.001 for c in crops):
        out.append(Finding(number, "warning", "image_cropped", f"'{shape.name}' is cropped; make sure no data is cut"))
    try:
        with Image.open(io.BytesIO(shape.image.blob)) as img:
            w_px, h_px = img.size
    except Exception:  # linked or unreadable image: nothing to compare against
        return out
    visible_w = w_px * (1 - shape.crop_left - shape.crop_right)
    visible_h = h_px * (1 - shape.crop_top - shape.crop_bottom)
    native, shown = visible_w / visible_h, shape.width / shape.height
    if abs(shown / native - 1) > ASPECT_TOLERANCE:
        out.append(
            Finding(
                number, "error", "image_distorted", f"'{shape.name}' is stretched ({shown:.2f} shown vs {native:.2f})"
            )
        )
    with Image.open(io.BytesIO(shape.image.blob)) as img:
        factor = upscale_factor(img)
    ppi = visible_w / factor / (shape.width / EMU_PER_INCH)
    if ppi < MIN_PPI_WARN:
        source = (
            f"{visible_w:.0f} px"
            if factor == 1
            else f"{visible_w:.0f} px upscaled {factor}x from ~{visible_w / factor:.0f} px"
        )
        severity = "error" if ppi < MIN_PPI_ERROR else "warning"
        out.append(
            Finding(
                number,
                severity,
                "image_low_resolution",
                f"'{shape.name}': {source} shown {shape.width / EMU_PER_INCH:.1f} in wide is {ppi:.0f} ppi; "
                "use the original figure file or extract_figures.py's crop",
            )
        )
    return out


def _near_misses(edges: list[tuple[int, str]]) -> list[tuple[str, str, float]]:
    out = []
    for i, (a, name_a) in enumerate(edges):
        for b, name_b in edges[i + 1 :]:
            if ALIGN_EXACT < abs(a - b) < ALIGN_NEAR:
                out.append((name_a, name_b, abs(a - b) / EMU_PER_INCH))
    return out


def _alignment_findings(number: int, shapes) -> list[Finding]:
    """Left edges (and top edges of side-by-side blocks) that almost line up: the eye sees the 0.1 in step."""
    content = [s for s in shapes if s.name not in {"Page", "Accent"} and s.width and s.height]
    findings = []
    lefts = [(int(s.left), s.name) for s in content]
    for a, b, gap in _near_misses(lefts)[:1]:
        findings.append(
            Finding(number, "warning", "misaligned", f"left edges of '{a}' and '{b}' differ by {gap:.2f} in")
        )
    return findings


def _coverage(shapes, body_top: int, width: int, height: int) -> float:
    """Share of the body area (below the title) that content occupies; text counts by the height it needs."""
    area = 0.0
    for shape in shapes:
        if shape.name in {"Title", "Page", "Source"} or not shape.width:
            continue
        h = shape.height
        if shape.has_text_frame and shape.shape_type != MSO_SHAPE_TYPE.AUTO_SHAPE:
            h = min(h, int(_needed_height_pt(shape) * EMU_PER_PT)) if shape.text_frame.text.strip() else 0
        area += shape.width * h
    return area / max(1, width * (height - body_top))


def check_deck(path: Path) -> list[Finding]:
    prs = Presentation(str(path))
    width, height = prs.slide_width, prs.slide_height
    findings: list[Finding] = []
    title_spots: dict[tuple[int, int], list[int]] = {}
    for number, slide in enumerate(prs.slides, 1):
        texts, has_picture, bullet_count, typed = [], False, 0, 0
        for shape in slide.shapes:
            left, top = shape.left or Emu(0), shape.top or Emu(0)
            if left < 0 or top < 0 or left + (shape.width or 0) > width or top + (shape.height or 0) > height:
                findings.append(
                    Finding(number, "error", "shape_out_of_bounds", f"'{shape.name}' extends off the slide")
                )
            if shape.shape_type == MSO_SHAPE_TYPE.PICTURE:
                has_picture = True
                findings.extend(_picture_findings(number, shape))
            if shape.has_table:
                findings.extend(_table_findings(number, shape, height))
            if shape.name == "Title" and number > 1:
                title_spots.setdefault((int(left), int(top)), []).append(number)
            if shape.has_text_frame and shape.text_frame.text.strip():
                texts.append(_shape_text(shape))
                paragraphs = [p for p in shape.text_frame.paragraphs if p.text.strip()]
                bullet_count += sum(1 for p in paragraphs if _has_bullet(p) or _typed_bullet(p))
                typed += sum(1 for p in paragraphs if _typed_bullet(p))
                for size, text in _run_sizes(shape):
                    if size < MIN_PT_ERROR:
                        findings.append(Finding(number, "error", "font_too_small", f"{size:g} pt text: {text[:40]!r}"))
                    elif size < MIN_PT_WARN and shape.name != "Page":
                        findings.append(Finding(number, "warning", "font_small", f"{size:g} pt text: {text[:40]!r}"))
                if _needed_height_pt(shape) > shape.height / EMU_PER_PT * 1.05:
                    findings.append(
                        Finding(number, "warning", "text_overflow_risk", f"'{shape.name}' likely overflows its box")
                    )
        if typed:
            findings.append(
                Finding(
                    number,
                    "warning",
                    "typed_bullets",
                    f"{typed} bullet(s) typed as characters: the glyph and indent change with the line's script and "
                    "wrapped lines do not hang; use paragraph bullets (build_deck.py does)",
                )
            )
        findings.extend(_alignment_findings(number, list(slide.shapes)))
        names = {shape.name for shape in slide.shapes if not shape.has_text_frame or shape.text_frame.text.strip()}
        if number > 1 and names <= {"Title", "Page", "Accent"}:
            findings.append(
                Finding(number, "warning", "slide_mostly_empty", "only a title: give a section its question/agenda")
            )
        elif (
            number > 1
            and not {shape.name for shape in slide.shapes} & {"Accent", "Agenda"}
            and _coverage(slide.shapes, int(height * 0.19), width, height) < MIN_COVERAGE
        ):
            findings.append(
                Finding(number, "warning", "slide_mostly_empty", "content fills under a fifth of the slide")
            )
        joined = "\n".join(texts)
        words = len(re.findall(r"[A-Za-z0-9]+", joined))
        cjk = len(CJK.findall(joined))
        if words > MAX_WORDS or cjk > MAX_CJK_CHARS:
            findings.append(
                Finding(number, "warning", "too_much_text", f"{words} words / {cjk} CJK characters on one slide")
            )
        if bullet_count > MAX_BULLETS:
            findings.append(
                Finding(number, "warning", "too_many_bullets", f"{bullet_count} bullets (max {MAX_BULLETS})")
            )
        if has_picture and not SOURCE_HINT.search(joined):
            findings.append(
                Finding(number, "warning", "missing_source", "figure without a source line (Fig. N | Author, Journal)")
            )
        notes = slide.notes_slide.notes_text_frame.text.strip() if slide.has_notes_slide else ""
        if number > 1 and not notes:
            findings.append(Finding(number, "warning", "missing_notes", "no speaker notes"))
        for pattern in TEMPLATE_PHRASES:
            match = re.search(pattern, joined + "\n" + notes, re.IGNORECASE)
            if match:
                findings.append(
                    Finding(number, "warning", "template_phrase", f"stock phrasing {match.group()!r}: say the finding")
                )
    if len(title_spots) > 1:
        usual = max(title_spots, key=lambda spot: len(title_spots[spot]))
        for spot, numbers in title_spots.items():
            if spot != usual and abs(spot[0] - usual[0]) + abs(spot[1] - usual[1]) < 2 * ALIGN_NEAR:
                for number in numbers:
                    findings.append(
                        Finding(number, "warning", "title_position_varies", "title sits off the other slides' spot")
                    )
    return findings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deck", type=Path)
    parser.add_argument("--json", action="store_true", help="print findings as JSON")
    parser.add_argument("--fail-on", choices=["error", "warning"], default="error")
    args = parser.parse_args(argv)
    try:
        findings = check_deck(args.deck)
    except Exception as err:
        print(f"Error: cannot read {args.deck} as a .pptx deck: {type(err).__name__}: {err}", file=sys.stderr)
        return 2
    errors = sum(f.severity == "error" for f in findings)
    if args.json:
        print(json.dumps({"errors": errors, "findings": [asdict(f) for f in findings]}, ensure_ascii=False, indent=2))
    else:
        for f in findings:
            print(f"slide {f.slide}: {f.severity} {f.code}: {f.message}")
        print(f"{errors} error(s), {len(findings) - errors} warning(s)")
    failing = findings if args.fail_on == "warning" else [f for f in findings if f.severity == "error"]
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
