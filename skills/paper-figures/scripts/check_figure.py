"""Check a figure against submission rules: print-size fonts, size, colour-blind safety, vector export, fonts.

Given a plotting script, runs it (headless, Agg backend, with the script's folder on sys.path so it can import its
own helpers), records every figure it saves and inspects the figure objects themselves, so the verdict is about
what the script really produces, not about its source text. Given a finished file (PDF, SVG, PNG, JPEG, TIFF),
audits the file itself: page size, embedded fonts and their families, the smallest and largest glyph at print size,
raster resolution, and the colours it can recover (as warnings: a file does not say which colours encode data).

    skillbox-python check_figure.py make_fig2.py [--min-pt 5] [--max-pt 7] [--width-mm 183] [--json]
    skillbox-python check_figure.py fig2.pdf|fig2.svg|fig2.png [--width-mm 89]

Exit 0: no errors (warnings may remain). Exit 1: at least one error. Exit 2: the script could not be run.
Why these rules: journals print figures at column width, so a 10 pt label on a 30 cm canvas ends up tiny; about
1 in 12 men cannot separate red from green; and bitmaps or Type 3 fonts get bounced by production systems.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import json
import math
import os
import re
import runpy
import struct
import sys
import xml.etree.ElementTree as ET
from dataclasses import asdict, dataclass, field
from pathlib import Path

os.environ.setdefault("MPLBACKEND", "Agg")

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.text import Text

VECTOR_FORMATS = {"pdf", "svg", "eps", "ps"}
RAINBOW_MAPS = {"jet", "rainbow", "hsv", "gist_rainbow", "nipy_spectral", "gist_ncar", "turbo", "spectral"}
MM_PER_INCH = 25.4
PT_PER_INCH = 72.0
MAX_HEIGHT_MM = 247.0  # Nature's full-page height, legend included; most journals are close to it
# Panel letters are set larger than labels by the skill's own rule (8 pt bold); a lone letter may go up to this.
PANEL_LETTER_PT = 8.0
PANEL_LETTER = re.compile(r"^\(?[A-Za-z]\)?\.?$")
# matplotlib's last-resort family: reached silently when none of the requested fonts is installed.
FALLBACK_FAMILY = "DejaVu Sans"
RASTER_FORMATS = {"png", "jpg", "jpeg", "tif", "tiff", "bmp", "gif", "webp"}
# Two colours closer than this (CIE76 delta E) look alike; 10 is a conservative "clearly different" floor.
MIN_DELTA_E = 10.0

# Machado, Oliveira & Fernandes (2009) full-severity simulation matrices, applied to linear RGB.
CVD_MATRICES = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


@dataclass
class Finding:
    severity: str  # "error" | "warning"
    code: str
    message: str
    figure: str


@dataclass
class SaveRecord:
    path: str
    fmt: str
    dpi: float
    pdf_fonttype: int
    svg_fonttype: str


@dataclass
class Report:
    script: str
    figures: int = 0
    findings: list[Finding] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return sum(f.severity == "error" for f in self.findings)


# --- colour science -------------------------------------------------------------------------------------------


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(linear_rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = (min(max(v, 0.0), 1.0) for v in linear_rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def simulate(rgb: tuple[float, float, float], deficiency: str) -> tuple[float, float, float]:
    """Linear-RGB colour as seen with `deficiency` ("normal" returns it unchanged)."""
    lin = tuple(_linear(c) for c in rgb)
    if deficiency == "normal":
        return lin
    m = CVD_MATRICES[deficiency]
    return tuple(sum(m[i][j] * lin[j] for j in range(3)) for i in range(3))


def delta_e(a: tuple[float, float, float], b: tuple[float, float, float], deficiency: str = "normal") -> float:
    la, lb = _lab(simulate(a, deficiency)), _lab(simulate(b, deficiency))
    return math.dist(la, lb)


def confusable_pairs(colours: list[str], min_delta: float = MIN_DELTA_E) -> list[tuple[str, str, str, float]]:
    """(colour, colour, who confuses them, delta E) for every pair that looks alike to someone."""
    out = []
    for i, a in enumerate(colours):
        for b in colours[i + 1 :]:
            for who in ("normal", *CVD_MATRICES):
                d = delta_e(to_rgb(a), to_rgb(b), who)
                if d < min_delta:
                    out.append((a, b, who, round(d, 1)))
                    break
    return out


# --- findings shared by scripts and files ---------------------------------------------------------------------


def size_findings(width_mm: float, height_mm: float, args, label: str) -> tuple[float, list[Finding]]:
    """The print scale (figures wider than the column are shrunk to it) and the size findings that follow."""
    findings = []
    scale = min(1.0, args.width_mm / width_mm) if width_mm > 0 else 1.0
    if scale < 1.0:
        findings.append(
            Finding(
                "warning",
                "figure_too_wide",
                f"figure is {width_mm:.0f} mm wide; it will be shrunk to {args.width_mm:.0f} mm, scaling text by "
                f"{scale:.2f}. Build it at print size instead.",
                label,
            )
        )
    printed_height = height_mm * scale
    if printed_height > args.max_height_mm + 0.5:
        findings.append(
            Finding(
                "error",
                "figure_too_tall",
                f"figure is {printed_height:.0f} mm tall at print size; the page allows {args.max_height_mm:.0f} mm "
                "(legend included): reduce the height or split the figure",
                label,
            )
        )
    return scale, findings


def text_size_findings(texts: list[tuple[float, str]], args, label: str) -> list[Finding]:
    """`texts` holds (size at print size in pt, text). A lone panel letter may be up to PANEL_LETTER_PT (the skill's
    own 8 pt rule); everything else must lie within --min-pt..--max-pt."""
    small, large = [], []
    for size, text in texts:
        ceiling = max(args.max_pt, PANEL_LETTER_PT) if PANEL_LETTER.match(text.strip()) else args.max_pt
        if size < args.min_pt - 1e-6:
            small.append((size, text))
        elif size > ceiling + 1e-6:
            large.append((size, text))
    findings = []
    if small:
        size, sample = min(small)
        findings.append(
            Finding(
                "error",
                "font_too_small",
                f"{len(small)} text item(s) below {args.min_pt} pt at print size (smallest {size:.1f} pt: {sample!r})",
                label,
            )
        )
    if large:
        size, sample = max(large)
        findings.append(
            Finding(
                "warning",
                "font_too_large",
                f"{len(large)} text item(s) above {args.max_pt} pt at print size (largest {size:.1f} pt: {sample!r}; "
                f"panel letters may be up to {PANEL_LETTER_PT:g} pt)",
                label,
            )
        )
    return findings


def fallback_finding(requested: list[str], used: set[str], label: str) -> Finding | None:
    """matplotlib (and a PDF it wrote) silently sets text in DejaVu Sans when no requested family is installed;
    a journal that asks for Arial/Helvetica then gets another typeface without anyone having chosen it."""
    if FALLBACK_FAMILY not in used or FALLBACK_FAMILY in requested[:1]:
        return None
    wanted = ", ".join(f for f in requested if f != FALLBACK_FAMILY) or "another family"
    return Finding(
        "warning",
        "font_fallback",
        f"text is set in {FALLBACK_FAMILY} because none of {wanted} is installed here; install one of them "
        "(Liberation Sans is metric-compatible with Arial) or name an installed family in the style",
        label,
    )


# --- figure inspection ----------------------------------------------------------------------------------------


def _hex(colour) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(round(v * 255) for v in to_rgb(colour)))


def _spans_axes(ax, patch) -> bool:
    """A shaded band across the whole axes (axvspan/axhspan, a background panel) marks a region, not a series."""
    try:
        box = patch.get_window_extent().transformed(ax.transAxes.inverted())
    except (ValueError, RuntimeError):
        return False
    return box.height >= 0.99 or box.width >= 0.99


def data_series(ax) -> list[tuple[str, tuple]]:
    """(colour, other cues) for each artist that encodes data in one axes: lines (line style, marker), filled
    patches (hatch) and scatter points that are not colour-mapped (marker shape). Two series whose colours look
    alike are still told apart when their other cues differ, which is the fix the checker suggests."""
    found: list[tuple[str, tuple]] = []
    for line in ax.get_lines():
        if line.get_visible():
            found.append((_hex(line.get_color()), ("line", line.get_linestyle(), str(line.get_marker()))))
    for patch in ax.patches:
        if patch.get_visible() and patch.get_fill() and not _spans_axes(ax, patch):
            found.append((_hex(patch.get_facecolor()), ("patch", patch.get_hatch() or "")))
    for coll in ax.collections:
        if coll.get_array() is not None:
            continue
        paths = coll.get_paths()
        shape = tuple(map(tuple, paths[0].vertices.round(2))) if len(paths) else ()
        for face in coll.get_facecolors()[:50]:
            if face[3] > 0:
                found.append((_hex(face), ("points", shape)))
    return sorted(set(found), key=found.index)


def confusable_series(series: list[tuple[str, tuple]]) -> list[tuple[str, str, str, float]]:
    """Confusable colour pairs among series that have no other cue to tell them apart."""
    cues: dict[str, set[tuple]] = {}
    for colour, cue in series:
        cues.setdefault(colour, set()).add(cue)
    out = []
    for a, b, who, d in confusable_pairs(list(cues)):
        if cues[a] & cues[b]:  # some series of each differ by colour alone
            out.append((a, b, who, d))
    return out


def colormaps(ax) -> list[str]:
    names = []
    for artist in [*ax.images, *ax.collections]:
        if getattr(artist, "get_array", None) and artist.get_array() is not None and hasattr(artist, "get_cmap"):
            names.append(artist.get_cmap().name)
    return names


def _families(fig: Figure) -> tuple[list[str], set[str]]:
    """Families the figure's text asks for (generic names expanded through rcParams) and those really used."""
    from matplotlib import font_manager

    requested: list[str] = []
    used: set[str] = set()
    for text in fig.findobj(Text):
        if not text.get_visible() or not text.get_text().strip():
            continue
        prop = text.get_fontproperties()
        for family in prop.get_family():
            generic = family in font_manager.font_family_aliases
            key = "sans-serif" if family in {"sans", "sans serif"} else family
            names = list(matplotlib.rcParams[f"font.{key}"]) if generic else [family]
            requested += [n for n in names if n not in requested]
        try:
            used.add(font_manager.get_font(font_manager.findfont(prop)).family_name)
        except (OSError, RuntimeError, ValueError):
            continue
    return requested, used


def check_figure(fig: Figure, label: str, saves: list[SaveRecord], args) -> list[Finding]:
    width_mm, height_mm = fig.get_figwidth() * MM_PER_INCH, fig.get_figheight() * MM_PER_INCH
    scale, findings = size_findings(width_mm, height_mm, args, label)
    texts = [
        (text.get_fontsize() * scale, text.get_text())
        for text in fig.findobj(Text)
        if text.get_visible() and text.get_text().strip()
    ]
    findings += text_size_findings(texts, args, label)
    fallback = fallback_finding(*_families(fig), label)
    if fallback:
        findings.append(fallback)
    for index, ax in enumerate(fig.axes):
        for a, b, who, d in confusable_series(data_series(ax)):
            viewer = "anyone" if who == "normal" else f"readers with {who}"
            findings.append(
                Finding(
                    "error",
                    "colours_confusable",
                    f"axes {index}: {a} and {b} look alike to {viewer} (delta E {d}); use the Okabe-Ito cycle, "
                    "or give the two series different markers, line styles or hatches",
                    label,
                )
            )
        for name in colormaps(ax):
            if name.lower().removesuffix("_r") in RAINBOW_MAPS:
                findings.append(
                    Finding(
                        "error",
                        "rainbow_colormap",
                        f"axes {index}: colormap '{name}' is not perceptually uniform and fails colour-blind readers; "
                        "use viridis, cividis or a diverging map such as RdBu",
                        label,
                    )
                )
    if not saves:
        findings.append(Finding("error", "not_saved", "the script never saves this figure", label))
        return findings
    if not any(s.fmt in VECTOR_FORMATS for s in saves):
        findings.append(
            Finding(
                "error",
                "no_vector_export",
                "saved only as bitmap (" + ", ".join(s.path for s in saves) + "); also save PDF or SVG",
                label,
            )
        )
    for s in saves:
        if s.fmt not in VECTOR_FORMATS and s.dpi < 300:
            findings.append(
                Finding("error", "raster_dpi_low", f"{s.path} saved at {s.dpi:.0f} dpi; use at least 300", label)
            )
        if s.fmt in {"pdf", "eps", "ps"} and s.pdf_fonttype != 42:
            findings.append(
                Finding(
                    "warning",
                    "type3_fonts",
                    f"{s.path}: fonts embedded as Type {s.pdf_fonttype}; set pdf.fonttype/ps.fonttype to 42",
                    label,
                )
            )
        if s.fmt == "svg" and s.svg_fonttype != "none":
            findings.append(
                Finding("warning", "svg_text_as_paths", f"{s.path}: text outlined; set svg.fonttype to 'none'", label)
            )
    return findings


# --- finished files -------------------------------------------------------------------------------------------
# A file does not say which of its colours encode data (axes, text and decoration share the palette), so colour
# findings from files are warnings; sizes, fonts and resolution are facts of the file and keep their severity.


def _colour_findings(colours: list[str], label: str) -> list[Finding]:
    findings = []
    for a, b, who, d in confusable_pairs(colours):
        viewer = "anyone" if who == "normal" else f"readers with {who}"
        findings.append(
            Finding(
                "warning",
                "colours_confusable",
                f"{a} and {b} both appear and look alike to {viewer} (delta E {d}); if both encode data, use the "
                "Okabe-Ito cycle or add markers/line styles (a file does not say which colours are data)",
                label,
            )
        )
    return findings


def _chromatic(colours: dict[str, float], min_share: float = 0.0) -> list[str]:
    """Colours worth comparing: not grey (text, axes, background) and, with `min_share`, not rare (anti-aliased
    edges blend every colour with its background)."""
    keep = []
    for colour, share in sorted(colours.items(), key=lambda kv: -kv[1]):
        r, g, b = to_rgb(colour)
        if max(r, g, b) - min(r, g, b) < 0.12 or share < min_share:
            continue
        if all(delta_e(to_rgb(colour), to_rgb(k)) >= 3 for k in keep):  # one colour, several AA shades
            keep.append(colour)
    return keep[:12]


def _raster_dpi_finding(pixels: tuple[int, int], printed_mm: float, where: str, label: str) -> Finding | None:
    dpi = pixels[0] / (printed_mm / MM_PER_INCH) if printed_mm > 0 else float("inf")
    if dpi < 300 - 0.5:
        return Finding(
            "error",
            "raster_dpi_low",
            f"{where}: {pixels[0]}x{pixels[1]} px printed {printed_mm:.0f} mm wide is {dpi:.0f} dpi; use at least 300 "
            "(600 for line art)",
            label,
        )
    return None


def _is_data_array(pixels: tuple[int, int], crisp: bool) -> bool:
    """A data array (imshow with interpolation "none", a colour bar) is drawn as crisp cells at any size: its pixel
    count is the data's, not a resolution, so it has no dpi to be too low."""
    return crisp or min(pixels) < 64


def _matrix_scale(m) -> float:
    return math.hypot(float(m[0]), float(m[1]))


def audit_pdf(path: Path, args) -> list[Finding]:
    try:
        import logging

        logging.getLogger("pypdf").setLevel(logging.ERROR)  # its warnings would precede our one-line error
        from pypdf import PdfReader
        from pypdf.generic import IndirectObject
    except ImportError:
        raise SystemExit("Error: auditing a PDF needs pypdf: install skillbox[paper]") from None
    label = str(path)
    reader = PdfReader(str(path))
    if not reader.pages:
        return [Finding("error", "empty_file", "the PDF has no pages", label)]
    page = reader.pages[0]
    width_mm = float(page.mediabox.width) / PT_PER_INCH * MM_PER_INCH
    height_mm = float(page.mediabox.height) / PT_PER_INCH * MM_PER_INCH
    scale, findings = size_findings(width_mm, height_mm, args, label)
    if len(reader.pages) > 1:
        findings.append(Finding("warning", "multi_page", f"{len(reader.pages)} pages; only page 1 is audited", label))

    texts: list[tuple[float, str]] = []

    def on_text(text, cm, tm, font, size):
        if text.strip() and size:
            effective = size * _matrix_scale(tm) * _matrix_scale(cm)
            texts.append((effective * scale, text.strip()))

    images: list[tuple[str, float]] = []  # (xobject name, placed width in pt)
    colours: dict[str, float] = {}

    def on_operator(op, args_, cm, tm):
        if op == b"Do" and args_:
            images.append((str(args_[0]), _matrix_scale(cm)))
        elif op in (b"rg", b"RG") and len(args_) == 3:
            colour = "#{:02x}{:02x}{:02x}".format(*(max(0, min(255, round(float(v) * 255))) for v in args_))
            colours[colour] = colours.get(colour, 0) + 1

    page.extract_text(visitor_text=on_text, visitor_operand_before=on_operator)
    findings += text_size_findings(texts, args, label)

    resources = page.get("/Resources") or {}
    if isinstance(resources, IndirectObject):
        resources = resources.get_object()
    fonts = (resources.get("/Font") or {}) if resources else {}
    families: set[str] = set()
    for ref in fonts.values():
        font = ref.get_object()
        subtype = str(font.get("/Subtype", ""))
        base = re.sub(r"^[A-Z]{6}\+", "", str(font.get("/BaseFont", "")).lstrip("/"))
        descriptor = font.get("/FontDescriptor")
        if subtype == "/Type0" and font.get("/DescendantFonts"):
            descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
        descriptor = descriptor.get_object() if descriptor is not None else None
        embedded = descriptor is not None and any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
        if subtype == "/Type3":
            findings.append(
                Finding(
                    "warning", "type3_fonts", f"font {base or '?'} is Type 3; re-export with pdf.fonttype 42", label
                )
            )
        elif not embedded:
            findings.append(
                Finding(
                    "error", "font_not_embedded", f"font {base} is not embedded; production will substitute it", label
                )
            )
        families.add(re.sub(r"[-,](Bold|Italic|Oblique|Regular|BoldItalic|BoldOblique)$", "", base))
    if any(f.replace(" ", "").startswith("DejaVuSans") for f in families):
        findings.append(
            Finding(
                "warning",
                "font_fallback",
                f"text is set in {FALLBACK_FAMILY} (matplotlib's silent fallback), not Arial/Helvetica; install the "
                "journal's font or Liberation Sans and re-export",
                label,
            )
        )
    xobjects = (resources.get("/XObject") or {}) if resources else {}
    placed = dict(images)
    for name, ref in xobjects.items():
        image = ref.get_object()
        if str(image.get("/Subtype")) != "/Image":
            continue
        width_pt = placed.get(str(name))
        pixels = (int(image.get("/Width", 0)), int(image.get("/Height", 0)))
        data_array = _is_data_array(pixels, str(image.get("/Interpolate", "true")).lower() == "false")
        if width_pt and not data_array:
            finding = _raster_dpi_finding(pixels, width_pt / PT_PER_INCH * MM_PER_INCH * scale, f"image {name}", label)
            if finding:
                findings.append(finding)
    findings += _colour_findings(_chromatic(colours), label)
    return findings


# CSS px per unit: an SVG's user unit is one px unless a viewBox maps it to the stated width.
_CSS_PX = {"": 1.0, "px": 1.0, "pt": 4 / 3, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0}


def _svg_px(value: str | None) -> float | None:
    """An SVG length in CSS px (= user units where no viewBox rescales them)."""
    match = re.fullmatch(r"\s*([0-9.]+)\s*([a-z]*)\s*", value or "")
    if not match or match.group(2) not in _CSS_PX:
        return None
    return float(match.group(1)) * _CSS_PX[match.group(2)]


def _svg_style(element) -> dict[str, str]:
    style = {k: v for k, v in element.attrib.items() if k in {"font-size", "font-family", "fill", "stroke"}}
    for part in (element.get("style") or "").split(";"):
        key, _, value = part.partition(":")
        if key.strip():
            style[key.strip()] = value.strip()
    if "font" in style:  # shorthand as matplotlib writes it: "font: 7px 'Arial'"
        match = re.match(r"(?:[a-z-]+\s+)*([0-9.]+[a-z]*)\s+(.+)", style["font"])
        if match:
            style.setdefault("font-size", match.group(1))
            style.setdefault("font-family", match.group(2))
    return style


def audit_svg(path: Path, args) -> list[Finding]:
    label = str(path)
    root = ET.parse(path).getroot()
    width, height = _svg_px(root.get("width")), _svg_px(root.get("height"))  # physical size, CSS px
    box = [float(v) for v in re.split(r"[\s,]+", root.get("viewBox", "").strip()) if v] or None
    if width is None and box:
        width, height = box[2], box[3]
    if width is None or height is None:
        return [Finding("warning", "size_unknown", "the SVG states no width/height; sizes cannot be checked", label)]
    px_to_pt = 0.75
    user_to_pt = (width / box[2] if box and box[2] else 1.0) * px_to_pt
    to_mm = px_to_pt / PT_PER_INCH * MM_PER_INCH
    scale, findings = size_findings(width * to_mm, height * to_mm, args, label)
    texts, families, colours = [], set(), {}
    ns_text = "{http://www.w3.org/2000/svg}text"
    for element in root.iter():
        style = _svg_style(element)
        for key in ("fill", "stroke"):
            value = style.get(key, "")
            if re.fullmatch(r"#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}", value):
                colour = _hex(value)
                colours[colour] = colours.get(colour, 0) + 1
        if element.tag == ns_text:
            content = "".join(element.itertext()).strip()
            size = _svg_px(style.get("font-size"))
            if content and size:
                texts.append((size * user_to_pt * scale, content))
            if style.get("font-family"):
                families.add(style["font-family"].split(",")[0].strip().strip("'\""))
        elif element.tag.endswith("}image"):
            href = element.get("{http://www.w3.org/1999/xlink}href") or element.get("href") or ""
            pixels = _data_uri_png_size(href)
            placed = _svg_px(element.get("width"))
            crisp = re.search(
                r"image-rendering\s*:\s*(pixelated|optimizespeed|crisp-edges)", (element.get("style") or "").lower()
            )
            if pixels and placed and not _is_data_array(pixels, bool(crisp)):
                mm = placed * user_to_pt / PT_PER_INCH * MM_PER_INCH * scale
                finding = _raster_dpi_finding(pixels, mm, "embedded image", label)
                if finding:
                    findings.append(finding)
    if not texts and root.find(".//{http://www.w3.org/2000/svg}use") is not None:
        findings.append(
            Finding(
                "warning",
                "svg_text_as_paths",
                "text is outlined (glyph paths, no <text>): it is not editable and its size cannot be checked; "
                "export with svg.fonttype 'none'",
                label,
            )
        )
    findings += text_size_findings(texts, args, label)
    if FALLBACK_FAMILY in families:
        findings.append(
            Finding(
                "warning",
                "font_fallback",
                f"text names {FALLBACK_FAMILY} (matplotlib's silent fallback), not Arial/Helvetica",
                label,
            )
        )
    findings += _colour_findings(_chromatic(colours), label)
    return findings


def _data_uri_png_size(href: str) -> tuple[int, int] | None:
    """Pixel size of an embedded PNG from its first bytes (the XML parser turns the line breaks inside a data URI
    into spaces, so all white space goes first)."""
    compact = re.sub(r"\s+", "", href[:200])
    match = re.match(r"data:image/png;base64,([A-Za-z0-9+/]{32})", compact)
    if not match:
        return None
    try:
        head = base64.b64decode(match.group(1))
    except binascii.Error:
        return None
    if head[:8] != b"\x89PNG\r\n\x1a\n" or len(head) < 24:
        return None
    return struct.unpack(">II", head[16:24])


def audit_raster(path: Path, args) -> list[Finding]:
    from PIL import Image

    label = str(path)
    with Image.open(path) as image:
        pixels = image.size
        dpi = image.info.get("dpi")
        rgb = image.convert("RGB")
        # NEAREST keeps real pixel colours (a blending resize would invent shades between series and background)
        rgb.thumbnail((1200, 1200), Image.Resampling.NEAREST)
        counts = rgb.getcolors(maxcolors=rgb.width * rgb.height) or []
    findings = []
    if dpi and dpi[0] and dpi[0] > 1:
        width_mm = pixels[0] / float(dpi[0]) * MM_PER_INCH
        height_mm = pixels[1] / float(dpi[1] or dpi[0]) * MM_PER_INCH
        scale, findings = size_findings(width_mm, height_mm, args, label)
        printed = width_mm * scale
    else:
        printed = args.width_mm  # no resolution stored: it will be printed at the column width
        findings.append(
            Finding("warning", "dpi_unknown", f"no resolution stored; assuming it prints {printed:.0f} mm wide", label)
        )
        scale, more = size_findings(printed, pixels[1] / pixels[0] * printed, args, label)
        findings += [f for f in more if f.code != "figure_too_wide"]
    finding = _raster_dpi_finding(pixels, printed, path.name, label)
    if finding:
        findings.append(finding)
    findings.append(
        Finding(
            "warning",
            "bitmap_figure",
            "a bitmap: fine for photographs and micrographs; charts and diagrams should be submitted as PDF/SVG "
            "(text sizes and fonts cannot be checked in a bitmap)",
            label,
        )
    )
    chromatic = {"#{:02x}{:02x}{:02x}".format(*rgb_): n for n, rgb_ in counts if max(rgb_) - min(rgb_) >= 31}
    total = sum(chromatic.values()) or 1
    # a series fills a real share of the coloured pixels; anti-aliased edge shades are many, each rare
    shares = {colour: n / total for colour, n in chromatic.items()}
    findings += _colour_findings(_chromatic(shares, min_share=0.02), label)
    return findings


def audit_file(path: Path, args) -> Report:
    fmt = path.suffix.lstrip(".").lower()
    auditors = {"pdf": audit_pdf, "svg": audit_svg}
    auditor = auditors.get(fmt) or (audit_raster if fmt in RASTER_FORMATS else None)
    if auditor is None:
        raise ValueError(f"cannot audit .{fmt} files: give a plotting script (.py) or a PDF, SVG, PNG, JPEG or TIFF")
    return Report(str(path), 1, auditor(path, args))


def run_script(script: Path) -> tuple[list[Figure], dict[int, list[SaveRecord]]]:
    """Execute `script` as __main__ with savefig recorded; return every figure seen and its saves."""
    saves: dict[int, list[SaveRecord]] = {}
    seen: list[Figure] = []
    original = Figure.savefig

    def recording_savefig(self, fname, *a, **kw):
        fmt = kw.get("format") or (Path(str(fname)).suffix.lstrip(".").lower() if isinstance(fname, str | Path) else "")
        fmt = fmt or matplotlib.rcParams["savefig.format"]
        dpi = kw.get("dpi") or matplotlib.rcParams["savefig.dpi"]
        dpi = self.dpi if dpi == "figure" else float(dpi)
        key = "ps.fonttype" if fmt in {"eps", "ps"} else "pdf.fonttype"
        record = SaveRecord(str(fname), fmt, dpi, int(matplotlib.rcParams[key]), matplotlib.rcParams["svg.fonttype"])
        if self not in seen:
            seen.append(self)
        saves.setdefault(id(self), []).append(record)
        return original(self, fname, *a, **kw)

    Figure.savefig = recording_savefig
    old_argv, old_path = sys.argv, list(sys.path)
    try:
        # as `python script.py` would: the working folder stays the caller's (relative data paths resolve as they
        # do when the user runs the script), and the script's folder comes first on sys.path (`import helpers`)
        sys.argv = [str(script)]
        sys.path.insert(0, str(script.parent))
        runpy.run_path(str(script), run_name="__main__")
        for num in plt.get_fignums():
            fig = plt.figure(num)
            if fig not in seen:
                seen.append(fig)
    finally:
        Figure.savefig = original
        sys.argv = old_argv
        sys.path[:] = old_path
    return seen, saves


def check_script(script: Path, args) -> Report:
    figures, saves = run_script(script.resolve())
    report = Report(str(script), len(figures))
    for number, fig in enumerate(figures, 1):
        records = saves.get(id(fig), [])
        label = records[0].path if records else f"figure {number}"
        report.findings.extend(check_figure(fig, label, records, args))
    plt.close("all")
    return report


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "script", type=Path, help="Python script that draws and saves the figure(s), or a PDF/SVG/PNG/JPEG/TIFF file"
    )
    parser.add_argument("--min-pt", type=float, default=5.0, help="smallest text size at print size (default 5)")
    parser.add_argument("--max-pt", type=float, default=7.0, help="largest text size at print size (default 7)")
    parser.add_argument(
        "--width-mm", type=float, default=183.0, help="print width the figure must fit (89 single, 183 double column)"
    )
    parser.add_argument(
        "--max-height-mm", type=float, default=MAX_HEIGHT_MM, help="tallest printed figure (default 247, legend incl.)"
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not args.script.is_file():
        print(f"Error: no such file: {args.script}", file=sys.stderr)
        return 2
    if args.script.suffix.lower() != ".py":
        try:
            report = audit_file(args.script, args)
        except ValueError as err:
            print(f"Error: {err}", file=sys.stderr)
            return 2
        except Exception as err:  # a damaged or foreign file: one line, not a traceback
            print(f"Error: cannot read {args.script}: {type(err).__name__}: {err}", file=sys.stderr)
            return 2
    else:
        try:
            report = check_script(args.script, args)
        except Exception as err:  # the user's script failed: say so in one line, not a checker traceback
            print(f"Error: {args.script} failed while running: {type(err).__name__}: {err}", file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps({**asdict(report), "errors": report.errors}, indent=2))
    else:
        for f in report.findings:
            print(f"{f.figure}: {f.severity} {f.code}: {f.message}")
        warnings = len(report.findings) - report.errors
        print(f"{report.figures} figure(s), {report.errors} error(s), {warnings} warning(s)")
    return 1 if report.errors else 0


if __name__ == "__main__":
    sys.exit(main())
