"""Extract a paper's figures and tables as image files, with page numbers, captions and (for tables) cell text.

The deck builder needs figure panels as image files. Most journal PDFs embed photographs, micrographs and many
charts as bitmaps, which are saved losslessly instead of screenshotted. Vector figures (drawn with PDF paths) and
tables are not bitmaps: they are found from their caption ("Figure 2 |", "Fig. 3.", "Table 1", "图 4", "表 2") and the
drawing objects next to it, and that region of the page is rendered at --dpi. A table's cells are also read
(pdfplumber's table finder), so the deck can show it as a native, editable table. Every crop is a heuristic:
look at it before it goes on a slide.

    skillbox-python extract_figures.py paper.pdf figs/ [--min-px 300] [--dpi 300] [--json]

Writes figs/p<page>_<n>.png (bitmaps), figs/p<page>_fig<N>.png / p<page>_table<N>.png (rendered regions) and
figs/manifest.json ({"images": [...], "captions": [...]}); each image has "kind" bitmap | figure | table, and
rendered ones their "caption", "bbox" (PDF points) and, for tables, "rows" with "rows_quality" (clean | review).
Exit 0 on success, 2 when the PDF cannot be read.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import re
import sys
from pathlib import Path

from pypdf import PdfReader

LABEL = r"(?:Extended Data |Supplementary )?(?:Fig\.?|Figure|FIGURE|Table|TABLE|图|表)"
# A caption starts a line with its label and number, then a separator or a capitalised title; a mention in running
# text ("Fig. 3), it did", "Table 1 shows the") continues in lower case or with closing punctuation.
CAPTION = re.compile(
    rf"^\s*({LABEL}\s*(\d+)(?!\d)[a-z]?)(?!\s*[),;]|\s+[a-z]|\s+[A-Za-z]\s+[a-z])\s*[|:.]?\s*(.{{0,160}})", re.M
)
GAP_PT = 24.0  # drawing objects closer than this belong to one figure
LABEL_REACH_PT = 16.0  # tick labels and axis titles sit just outside the drawn axes
SEARCH_PT = 96.0  # how far from its caption a figure or table may start


def page_captions(text: str) -> list[str]:
    """Caption starts on a page: "Figure 2 | Title…", "Fig. 3. Title…", "图 4 …" (first 160 characters)."""
    return [" ".join(f"{label} {rest}".split()) for label, _, rest in CAPTION.findall(text or "")]


def _text_lines(page) -> list[dict]:
    """Runs of words on one baseline with word-sized gaps: a body-text line, a caption line, or an axis label."""
    rows: dict[int, list[dict]] = {}
    for word in page.extract_words(x_tolerance=1.5, use_text_flow=True):
        rows.setdefault(round(word["top"] / 3), []).append(word)
    lines = []
    for words in rows.values():
        words.sort(key=lambda w: w["x0"])
        run = [words[0]]
        for word in words[1:]:
            if word["x0"] - run[-1]["x1"] > max(6.0, 1.2 * (word["bottom"] - word["top"])):  # a column gutter
                lines.append(run)
                run = []
            run.append(word)
        lines.append(run)
    return [
        {
            "text": " ".join(w["text"] for w in run),
            "x0": min(float(w["x0"]) for w in run),
            "x1": max(float(w["x1"]) for w in run),
            "top": min(float(w["top"]) for w in run),
            "bottom": max(float(w["bottom"]) for w in run),
        }
        for run in lines
    ]


def _caption_lines(lines: list[dict]) -> list[dict]:
    """Lines that start a caption, with their box: the anchor a rendered figure or table is found from."""
    found = []
    for line in lines:
        match = CAPTION.match(line["text"])
        if match:
            table = re.match(r"(?:Extended Data |Supplementary )?(?:Table|TABLE|表)", match.group(1))
            found.append(
                {
                    **line,
                    "text": " ".join(line["text"].split())[:160],
                    "kind": "table" if table else "figure",
                    "number": match.group(2),
                }
            )
    return sorted(found, key=lambda c: c["top"])


def _graphics(page) -> list[tuple[float, float, float, float]]:
    """Boxes of what is drawn on the page (paths, rules, curves, images), minus page-sized backgrounds."""
    area = float(page.width) * float(page.height)
    boxes = []
    for obj in [*page.rects, *page.lines, *page.curves, *page.images]:
        box = (float(obj["x0"]), float(obj["top"]), float(obj["x1"]), float(obj["bottom"]))
        if (box[2] - box[0]) * (box[3] - box[1]) < 0.9 * area:
            boxes.append(box)
    return boxes


def _union(a, b):
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _cluster(boxes, start, limit_top: float, limit_bottom: float):
    """Grow `start` by every box within GAP_PT of it that stays between the limits (the neighbouring captions)."""
    region = start
    grown = True
    while grown:
        grown = False
        for box in boxes:
            if box[1] < limit_top or box[3] > limit_bottom or box == region:
                continue
            near = box[1] <= region[3] + GAP_PT and box[3] >= region[1] - GAP_PT
            if near and (box[0] < region[0] or box[1] < region[1] or box[2] > region[2] or box[3] > region[3]):
                new = _union(region, box)
                if new != region:
                    region, grown = new, True
    return region


def _region_for(caption: dict, boxes, captions: list[dict], page_height: float, prefer_above: bool):
    """The cluster of drawing next to the caption: above it first for figures, below it first for tables."""
    index = captions.index(caption)
    upper = captions[index - 1]["bottom"] if index else 0.0
    lower = captions[index + 1]["top"] if index + 1 < len(captions) else page_height
    sides = ("above", "below") if prefer_above else ("below", "above")
    for side in sides:
        if side == "above":
            near = [
                b for b in boxes if b[3] <= caption["top"] + 2 and b[3] >= caption["top"] - SEARCH_PT and b[1] >= upper
            ]
            seed = max(near, key=lambda b: b[3], default=None)
            limits = (upper, caption["top"] + 2)
        else:
            near = [
                b
                for b in boxes
                if b[1] >= caption["bottom"] - 2 and b[1] <= caption["bottom"] + SEARCH_PT and b[3] <= lower
            ]
            seed = min(near, key=lambda b: b[1], default=None)
            limits = (caption["bottom"] - 2, lower)
        if seed is not None:
            return _cluster(boxes, seed, *limits), limits
    return None, None


def _with_labels(lines: list[dict], region, limits):
    """Add the text that belongs to the drawing: lines inside it, and label-sized lines just outside its edges
    (ticks, axis titles, panel letters). A line as wide as the drawing next to it is running text, not a label."""
    width = region[2] - region[0]
    grown = region
    for line in lines:
        if line["top"] < limits[0] or line["bottom"] > limits[1]:
            continue
        if line["x0"] < region[0] - LABEL_REACH_PT or line["x1"] > region[2] + LABEL_REACH_PT:
            continue  # reaches into another column
        inside = line["bottom"] > region[1] and line["top"] < region[3]
        near = line["bottom"] >= region[1] - LABEL_REACH_PT and line["top"] <= region[3] + LABEL_REACH_PT
        if inside or (near and line["x1"] - line["x0"] < 0.6 * width):
            grown = _union(grown, (line["x0"], line["top"], line["x1"], line["bottom"]))
    return grown


def _rules(page) -> list[tuple[float, float, float, float]]:
    """Horizontal rules (thin, at least 60 pt wide) of ruled tables; a rule drawn cell by cell as touching segments
    on one line counts as one."""
    segments = sorted(
        (float(o["x0"]), float(o["top"]), float(o["x1"]), float(o["bottom"]))
        for o in [*page.lines, *page.rects]
        if float(o["bottom"]) - float(o["top"]) <= 2.0
    )
    merged: list[list[float]] = []
    for box in sorted(segments, key=lambda b: (round(b[1]), b[0])):
        last = merged[-1] if merged else None
        if last and abs(last[1] - box[1]) <= 1.0 and box[0] <= last[2] + 2.0:
            last[2] = max(last[2], box[2])
            last[3] = max(last[3], box[3])
        else:
            merged.append(list(box))
    return sorted((tuple(b) for b in merged if b[2] - b[0] >= 60), key=lambda b: b[1])


def _ruled_table(rules, caption: dict, limits_below, limits_above):
    """The run of aligned rules nearest the caption (below it, or above it when nearer): a ruled table spans from
    its first rule to its last, however far apart the rows put them."""
    candidates = []
    for side, (low, high) in (("below", limits_below), ("above", limits_above)):
        inside = [r for r in rules if r[1] >= low and r[3] <= high]
        if not inside:
            continue
        seed = inside[0] if side == "below" else inside[-1]
        run = [r for r in inside if abs(r[0] - seed[0]) <= 12 and abs(r[2] - seed[2]) <= 12]
        if len(run) < 2:
            continue
        distance = seed[1] - caption["bottom"] if side == "below" else caption["top"] - seed[3]
        if distance <= SEARCH_PT:
            box = (min(r[0] for r in run), run[0][1], max(r[2] for r in run), run[-1][3])
            candidates.append((distance, box, (low, high)))
    if not candidates:
        return None, None
    _, box, limits = min(candidates)
    return box, limits


def _tabular(lines: list[dict], region) -> bool:
    """Whether the text in `region` is laid out in cells: at least two baselines split into two or more runs."""
    rows: dict[int, int] = {}
    for line in lines:
        within_y = line["top"] >= region[1] - 1 and line["bottom"] <= region[3] + 1
        if within_y and line["x0"] >= region[0] - 1 and line["x1"] <= region[2] + 1:
            key = round(line["top"] / 3)
            rows[key] = rows.get(key, 0) + 1
    return sum(1 for count in rows.values() if count >= 2) >= 2


def _line_boxes(lines: list[dict], limits) -> list[tuple[float, float, float, float]]:
    return [
        (line["x0"], line["top"], line["x1"], line["bottom"])
        for line in lines
        if line["top"] >= limits[0] and line["bottom"] <= limits[1]
    ]


def _table_rows(page, region) -> list[list[str]] | None:
    """Cell text of the table in `region`: columns and rows from the word layout (booktabs tables have no
    vertical rules for a line-based finder), empty spacer rows dropped."""
    rows = page.crop(region).extract_table({"vertical_strategy": "text", "horizontal_strategy": "text"}) or []
    rows = [[(cell or "").strip() for cell in row] for row in rows if any((cell or "").strip() for cell in row)]
    return rows if len(rows) >= 2 and max(len(r) for r in rows) >= 2 else None


def _rows_quality(rows: list[list[str]]) -> str:
    """ "clean" when every header cell and nearly every body cell has text; else "review": wrapped cells split into
    rows of their own, or words merged across columns (PDFs without space characters) need a human look before the
    rows become a native table."""
    cells = [cell for row in rows for cell in row]
    empty = sum(1 for cell in cells if not cell) / max(1, len(cells))
    return "clean" if all(rows[0]) and empty <= 0.1 else "review"


def render_regions(pdf: Path, out: Path, dpi: int) -> list[dict]:
    """Rendered crops of every captioned figure (vector panels, and bitmaps with their labels) and table."""
    import pdfplumber

    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    crops = []
    with pdfplumber.open(str(pdf)) as doc:
        for number, page in enumerate(doc.pages, 1):
            lines = _text_lines(page)
            captions = _caption_lines(lines)
            if not captions:
                continue
            boxes = _graphics(page)
            for caption in captions:
                rows = None
                if caption["kind"] == "table":
                    index = captions.index(caption)
                    upper = captions[index - 1]["bottom"] if index else 0.0
                    lower = captions[index + 1]["top"] if index + 1 < len(captions) else float(page.height)
                    region, limits = _ruled_table(
                        _rules(page), caption, (caption["bottom"] - 1, lower), (upper, caption["top"] + 1)
                    )
                    if region is None:  # no rules: the side of the caption whose text is laid out in cells
                        cells = boxes + _line_boxes(lines, (upper, lower))
                        sides = [
                            _region_for(caption, cells, captions, float(page.height), prefer_above=above)
                            for above in (False, True)
                        ]
                        sides = [side for side in sides if side[0] is not None]
                        tabular = [side for side in sides if _tabular(lines, side[0])]
                        region, limits = (tabular or sides or [(None, None)])[0]
                else:  # also on pages with a bitmap: many figures mix vector panels and a photo
                    region, limits = _region_for(caption, boxes, captions, float(page.height), prefer_above=True)
                if region is None:
                    continue
                region = _with_labels(lines, region, limits)
                pad = 4.0
                region = (
                    max(0.0, region[0] - pad),
                    max(0.0, region[1] - pad),
                    min(float(page.width), region[2] + pad),
                    min(float(page.height), region[3] + pad),
                )
                if region[2] - region[0] < 36 or region[3] - region[1] < 18:
                    continue
                stem = f"p{number}_{'table' if caption['kind'] == 'table' else 'fig'}{caption['number']}"
                name, n = f"{stem}.png", 1
                while (out / name).exists() and any(c["file"] == name for c in crops):
                    n += 1
                    name = f"{stem}_{n}.png"
                picture = page.crop(region).to_image(resolution=dpi).original
                picture.save(out / name)
                entry = {
                    "file": name,
                    "page": number,
                    "width": picture.size[0],
                    "height": picture.size[1],
                    "kind": caption["kind"],
                    "caption": caption["text"],
                    "bbox": [round(v, 1) for v in region],
                }
                rows = _table_rows(page, region) if caption["kind"] == "table" else None
                if rows:
                    entry["rows"] = rows
                    entry["rows_quality"] = _rows_quality(rows)
                crops.append(entry)
    return crops


def extract(pdf: Path, out: Path, min_px: int = 300, dpi: int = 300, render: bool = True) -> dict:
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    reader = PdfReader(str(pdf))
    out.mkdir(parents=True, exist_ok=True)
    images, captions, seen, repeated = [], [], set(), []
    for number, page in enumerate(reader.pages, 1):
        for caption in page_captions(page.extract_text() or ""):
            captions.append({"page": number, "caption": caption})
        count = 0
        for image in page.images:
            digest = hashlib.sha256(image.data).hexdigest()
            if digest in seen:  # logos and repeated headers appear on every page
                repeated.append(number)
                continue
            seen.add(digest)
            picture = image.image
            if picture is None or min(picture.size) < min_px:
                continue
            count += 1
            name = f"p{number}_{count}.png"
            if picture.mode not in ("RGB", "RGBA", "L"):
                picture = picture.convert("RGB")
            picture.save(out / name)
            images.append(
                {"file": name, "page": number, "width": picture.size[0], "height": picture.size[1], "kind": "bitmap"}
            )
    if render:
        images += render_regions(pdf, out, dpi)
    manifest = {
        "pdf": str(pdf),
        "pages": len(reader.pages),
        "images": images,
        "captions": captions,
        "repeated_bitmap_pages": sorted(set(repeated)),
    }
    (out / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=2), encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdf", type=Path)
    parser.add_argument("out", type=Path, help="folder for the images and manifest.json")
    parser.add_argument("--min-px", type=int, default=300, help="skip images whose shorter side is smaller (icons)")
    parser.add_argument("--dpi", type=int, default=300, help="resolution of rendered vector figures and tables")
    parser.add_argument("--no-render", action="store_true", help="save embedded bitmaps only")
    parser.add_argument("--json", action="store_true", help="print the manifest instead of a summary")
    args = parser.parse_args(argv)
    try:
        manifest = extract(args.pdf, args.out, args.min_px, args.dpi, render=not args.no_render)
    except ImportError as err:
        print(
            f"Error: rendering figures needs {err.name}: install skillbox[paper] (or pass --no-render)", file=sys.stderr
        )
        return 2
    except Exception as err:  # pypdf/pdfminer raise many types for broken or encrypted files
        print(f"Error: cannot read {args.pdf} as a PDF: {type(err).__name__}: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(manifest, ensure_ascii=False, indent=2))
        return 0
    for image in manifest["images"]:
        what = "" if image["kind"] == "bitmap" else f" [{image['kind']}, rendered: {image['caption'][:60]}]"
        print(f"page {image['page']}: {image['file']} ({image['width']}x{image['height']}){what}")
    covered = {(i["page"], i.get("caption", "")[:40]) for i in manifest["images"] if i["kind"] != "bitmap"}
    pages_with_images = {i["page"] for i in manifest["images"]}
    for caption in manifest["captions"]:
        rendered = any(page == caption["page"] and caption["caption"].startswith(text[:20]) for page, text in covered)
        mark = ""
        if caption["page"] in manifest["repeated_bitmap_pages"] and caption["page"] not in pages_with_images:
            mark = "  [its bitmap repeats one saved from an earlier page]"
        elif caption["page"] not in pages_with_images and not rendered:
            mark = "  [no figure found on this page: ask for the figure file]"
        print(f"page {caption['page']}: {caption['caption']}{mark}")
    counts = len(manifest["images"]), len(manifest["captions"]), manifest["pages"]
    print("{} image(s), {} caption(s) from {} page(s)".format(*counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
