"""Check a matplotlib figure script against submission rules: print-size fonts, colour-blind safety, vector export.

Runs the plotting script (headless, Agg backend), records every figure it saves and inspects the figure objects
themselves, so the verdict is about what the script really produces, not about its source text.

    skillbox-python check_figure.py make_fig2.py [--min-pt 5] [--max-pt 7] [--width-mm 183] [--json]

Exit 0: no errors (warnings may remain). Exit 1: at least one error. Exit 2: the script could not be run.
Why these rules: journals print figures at column width, so a 10 pt label on a 30 cm canvas ends up tiny; about
1 in 12 men cannot separate red from green; and bitmaps or Type 3 fonts get bounced by production systems.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import runpy
import sys
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


# --- figure inspection ----------------------------------------------------------------------------------------


def _hex(colour) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(round(v * 255) for v in to_rgb(colour)))


def data_colours(ax) -> list[str]:
    """Colours that encode data in one axes: lines, bars/patches, scatter points (not colour-mapped ones)."""
    found: list[str] = []
    for line in ax.get_lines():
        if line.get_visible():
            found.append(_hex(line.get_color()))
    for patch in ax.patches:
        if patch.get_visible() and patch.get_fill():
            found.append(_hex(patch.get_facecolor()))
    for coll in ax.collections:
        if coll.get_array() is not None:
            continue
        for face in coll.get_facecolors()[:50]:
            if face[3] > 0:
                found.append(_hex(face))
    return sorted(set(found), key=found.index)


def colormaps(ax) -> list[str]:
    names = []
    for artist in [*ax.images, *ax.collections]:
        if getattr(artist, "get_array", None) and artist.get_array() is not None and hasattr(artist, "get_cmap"):
            names.append(artist.get_cmap().name)
    return names


def check_figure(fig: Figure, label: str, saves: list[SaveRecord], args) -> list[Finding]:
    findings: list[Finding] = []
    width_mm = fig.get_figwidth() * MM_PER_INCH
    scale = min(1.0, args.width_mm / width_mm)
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
    small, large = [], []
    for text in fig.findobj(Text):
        if not text.get_visible() or not text.get_text().strip():
            continue
        size = text.get_fontsize() * scale
        if size < args.min_pt - 1e-6:
            small.append((size, text.get_text()))
        elif size > args.max_pt + 1e-6:
            large.append((size, text.get_text()))
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
                f"{len(large)} text item(s) above {args.max_pt} pt at print size (largest {size:.1f} pt: {sample!r})",
                label,
            )
        )
    for index, ax in enumerate(fig.axes):
        for a, b, who, d in confusable_pairs(data_colours(ax)):
            viewer = "anyone" if who == "normal" else f"readers with {who}"
            findings.append(
                Finding(
                    "error",
                    "colours_confusable",
                    f"axes {index}: {a} and {b} look alike to {viewer} (delta E {d}); use the Okabe-Ito cycle "
                    "or add markers/line styles",
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
    old_cwd, old_argv = Path.cwd(), sys.argv
    try:
        os.chdir(script.parent)
        sys.argv = [str(script)]
        runpy.run_path(str(script), run_name="__main__")
        for num in plt.get_fignums():
            fig = plt.figure(num)
            if fig not in seen:
                seen.append(fig)
    finally:
        Figure.savefig = original
        os.chdir(old_cwd)
        sys.argv = old_argv
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
    parser.add_argument("script", type=Path, help="Python script that draws and saves the figure(s)")
    parser.add_argument("--min-pt", type=float, default=5.0, help="smallest text size at print size (default 5)")
    parser.add_argument("--max-pt", type=float, default=7.0, help="largest text size at print size (default 7)")
    parser.add_argument(
        "--width-mm", type=float, default=183.0, help="print width the figure must fit (89 single, 183 double column)"
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not args.script.is_file():
        print(f"Error: no such script: {args.script}", file=sys.stderr)
        return 2
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
