"""Self-check a .pptx deck before it is shown: layout faults, unreadable text, missing notes and sources.

Reads the deck with python-pptx and reports findings a presenter would otherwise find on the projector: shapes off
the slide, stretched or cropped figures, text too small or too dense for its box, figures without a source line,
content slides without speaker notes, and stock "AI template" phrasing in English or Chinese.

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

from PIL import Image
from pptx import Presentation
from pptx.enum.shapes import MSO_SHAPE_TYPE
from pptx.util import Emu

EMU_PER_PT = 12700
MIN_PT_ERROR, MIN_PT_WARN = 10, 12
MAX_WORDS, MAX_CJK_CHARS, MAX_BULLETS = 60, 110, 6
ASPECT_TOLERANCE = 0.02
SOURCE_HINT = re.compile(r"\b(fig\.?|figure|table|et al\.?|doi|source|adapted|ref\.?)\b|图|表|来源|引自", re.IGNORECASE)
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
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
    """Rough height the text needs: wrapped lines x 1.2 x font size (CJK glyphs ~1 em wide, Latin ~0.5 em)."""
    frame = shape.text_frame
    width_pt = (shape.width - frame.margin_left - frame.margin_right) / EMU_PER_PT
    total = 0.0
    for para in frame.paragraphs:
        text = "".join(r.text for r in para.runs) or para.text
        sizes = [r.font.size.pt for r in para.runs if r.font.size is not None] or [18.0]
        size = max(sizes)
        em = sum(1.0 if CJK.match(ch) else 0.5 for ch in text)
        per_line = max(width_pt / size, 1.0)
        lines = max(1, -(-int(em) // int(per_line))) if text else 1
        total += lines * size * 1.2 + (para.space_after.pt if para.space_after is not None else 0)
    return total


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
    return out


def check_deck(path: Path) -> list[Finding]:
    prs = Presentation(str(path))
    width, height = prs.slide_width, prs.slide_height
    findings: list[Finding] = []
    for number, slide in enumerate(prs.slides, 1):
        texts, has_picture, bullet_count = [], False, 0
        for shape in slide.shapes:
            left, top = shape.left or Emu(0), shape.top or Emu(0)
            if left < 0 or top < 0 or left + (shape.width or 0) > width or top + (shape.height or 0) > height:
                findings.append(
                    Finding(number, "error", "shape_out_of_bounds", f"'{shape.name}' extends off the slide")
                )
            if shape.shape_type == MSO_SHAPE_TYPE.PICTURE:
                has_picture = True
                findings.extend(_picture_findings(number, shape))
            if shape.has_text_frame and shape.text_frame.text.strip():
                texts.append(_shape_text(shape))
                bullet_count += sum(1 for p in shape.text_frame.paragraphs if p.text.strip()[:1] in {"•", "-", "–"})
                for size, text in _run_sizes(shape):
                    if size < MIN_PT_ERROR:
                        findings.append(Finding(number, "error", "font_too_small", f"{size:g} pt text: {text[:40]!r}"))
                    elif size < MIN_PT_WARN and shape.name != "Page":
                        findings.append(Finding(number, "warning", "font_small", f"{size:g} pt text: {text[:40]!r}"))
                if _needed_height_pt(shape) > shape.height / EMU_PER_PT * 1.05:
                    findings.append(
                        Finding(number, "warning", "text_overflow_risk", f"'{shape.name}' likely overflows its box")
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
