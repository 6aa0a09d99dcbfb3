"""paper-figures: the shipped style yields a clean figure; the checker catches the usual submission faults."""

from __future__ import annotations

import json
import subprocess
import sys
from textwrap import dedent

import pytest

from tests.skills.conftest import SKILLS, load_script

check_figure = load_script("paper-figures", "check_figure")
STYLE = SKILLS / "paper-figures" / "assets" / "nature.mplstyle"
SCRIPT = SKILLS / "paper-figures" / "scripts" / "check_figure.py"


def write(tmp_path, body: str):
    path = tmp_path / "make_fig.py"
    path.write_text(dedent(body))
    return path


def run(path, *extra):
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(path), "--json", *extra], capture_output=True, text=True, timeout=120
    )


def codes(result) -> list[str]:
    return [f["code"] for f in json.loads(result.stdout)["findings"]]


def test_figure_made_with_the_shipped_style_passes(tmp_path):
    path = write(
        tmp_path,
        f"""
        import matplotlib.pyplot as plt
        plt.style.use({str(STYLE)!r})
        fig, (a, b) = plt.subplots(1, 2, figsize=(183 / 25.4, 60 / 25.4))
        for k in range(4):
            a.plot([0, 1, 2], [k, k + 1, k * 2], label=f"group {{k}}")
        a.set_xlabel("Time (h)"); a.set_ylabel("Signal (a.u.)"); a.legend()
        b.bar(["ctrl", "drug"], [1.0, 2.0], color=["#0072B2", "#E69F00"])
        fig.savefig("fig1.pdf"); fig.savefig("fig1.png", dpi=600)
        """,
    )
    result = run(path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert codes(result) == []
    assert (tmp_path / "fig1.pdf").exists()


def test_default_matplotlib_figure_fails_on_size_colour_and_export(tmp_path):
    path = write(
        tmp_path,
        """
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(12, 8))
        ax.plot([0, 1], [0, 1], color="red"); ax.plot([0, 1], [1, 0], color="#00aa00")
        ax.set_title("Results", fontsize=9)
        fig.savefig("fig.png", dpi=100)
        """,
    )
    result = run(path, "--width-mm", "89")  # single column: 12 in shrinks to 29 %, 10 pt ticks to 2.9 pt
    assert result.returncode == 1
    found = codes(result)
    for code in ("figure_too_wide", "font_too_small", "colours_confusable", "no_vector_export", "raster_dpi_low"):
        assert code in found


def test_rainbow_colormap_and_unsaved_figure_are_errors(tmp_path):
    path = write(
        tmp_path,
        """
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(3.5, 3))
        ax.imshow([[0, 1], [2, 3]], cmap="jet")
        """,
    )
    found = codes(run(path))
    assert "rainbow_colormap" in found
    assert "not_saved" in found


def test_type3_pdf_fonts_and_outlined_svg_text_are_warnings(tmp_path):
    path = write(
        tmp_path,
        f"""
        import matplotlib, matplotlib.pyplot as plt
        plt.style.use({str(STYLE)!r})
        matplotlib.rcParams["pdf.fonttype"] = 3
        matplotlib.rcParams["svg.fonttype"] = "path"
        fig, ax = plt.subplots()
        ax.plot([0, 1], [0, 1])
        fig.savefig("a.pdf"); fig.savefig("a.svg")
        """,
    )
    result = run(path)
    assert result.returncode == 0  # warnings only
    assert {"type3_fonts", "svg_text_as_paths"} <= set(codes(result))


def test_a_failing_plot_script_is_a_one_line_error(tmp_path):
    path = write(tmp_path, "raise ValueError('no data file')\n")
    result = run(path)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [f"Error: {path} failed while running: ValueError: no data file"]


@pytest.mark.parametrize(
    ("a", "b", "confused"),
    [("#ff0000", "#00aa00", True), ("#0072B2", "#E69F00", False), ("#2ca02c", "#d62728", True)],
)
def test_colour_vision_simulation_separates_safe_and_unsafe_pairs(a, b, confused):
    assert bool(check_figure.confusable_pairs([a, b])) is confused
