"""Extract the bitmap figures embedded in a paper PDF, with page numbers and the figure captions on each page.

The deck builder needs figure panels as image files; most journal PDFs embed photographs, micrographs and many
charts as bitmaps that can be saved losslessly instead of screenshotted. Vector-only figures (drawn with PDF
paths) are not bitmaps: the manifest lists their captions with no image so you can ask for the file or export the
page region by hand instead of guessing.

    skillbox-python extract_figures.py paper.pdf figs/ [--min-px 300] [--json]

Writes figs/p<page>_<n>.png and figs/manifest.json ({"images": [...], "captions": [...]}); prints a summary.
Exit 0 on success, 2 when the PDF cannot be read.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

from pypdf import PdfReader

CAPTION = re.compile(r"^\s*((?:Extended Data )?(?:Fig\.?|Figure|FIGURE|图)\s*\d+[a-z]?)\s*[|:.]?\s*(.{0,160})", re.M)


def page_captions(text: str) -> list[str]:
    """Caption starts on a page: "Figure 2 | Title…", "Fig. 3. Title…", "图 4 …" (first 160 characters)."""
    return [" ".join(f"{label} {rest}".split()) for label, rest in CAPTION.findall(text or "")]


def extract(pdf: Path, out: Path, min_px: int = 300) -> dict:
    reader = PdfReader(str(pdf))
    out.mkdir(parents=True, exist_ok=True)
    images, captions, seen = [], [], set()
    for number, page in enumerate(reader.pages, 1):
        for caption in page_captions(page.extract_text() or ""):
            captions.append({"page": number, "caption": caption})
        count = 0
        for image in page.images:
            digest = hashlib.sha256(image.data).hexdigest()
            if digest in seen:  # logos and repeated headers appear on every page
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
            images.append({"file": name, "page": number, "width": picture.size[0], "height": picture.size[1]})
    manifest = {"pdf": str(pdf), "pages": len(reader.pages), "images": images, "captions": captions}
    (out / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=2), encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdf", type=Path)
    parser.add_argument("out", type=Path, help="folder for the images and manifest.json")
    parser.add_argument("--min-px", type=int, default=300, help="skip images whose shorter side is smaller (icons)")
    parser.add_argument("--json", action="store_true", help="print the manifest instead of a summary")
    args = parser.parse_args(argv)
    try:
        manifest = extract(args.pdf, args.out, args.min_px)
    except Exception as err:  # pypdf raises many types for broken or encrypted files
        print(f"Error: cannot read {args.pdf} as a PDF: {type(err).__name__}: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(manifest, ensure_ascii=False, indent=2))
    else:
        for image in manifest["images"]:
            print(f"page {image['page']}: {image['file']} ({image['width']}x{image['height']})")
        pages_with_images = {i["page"] for i in manifest["images"]}
        for caption in manifest["captions"]:
            mark = "" if caption["page"] in pages_with_images else "  [no bitmap on this page: vector figure?]"
            print(f"page {caption['page']}: {caption['caption']}{mark}")
        counts = len(manifest["images"]), len(manifest["captions"]), manifest["pages"]
        print("{} image(s), {} caption(s) from {} page(s)".format(*counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
