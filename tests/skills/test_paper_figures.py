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


def style_font_installed() -> bool:
    from matplotlib import font_manager

    try:
        font_manager.findfont(
            font_manager.FontProperties(family=["Arial", "Helvetica", "Liberation Sans"]), fallback_to_default=False
        )
    except ValueError:
        return False
    return True


def write(tmp_path, body: str):
    path = tmp_path / "make_fig.py"
    path.write_text(dedent(body))
    return path


def run(path, *extra, cwd=None):
    """The checker as a user runs it: from the folder the script is run from (its own, unless `cwd`)."""
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(path), "--json", *extra],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd or path.parent,
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
    # the style asks for Arial, Helvetica or Liberation Sans; where none is installed the checker says so
    assert codes(result) == ([] if style_font_installed() else ["font_fallback"])
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


def test_a_script_can_import_its_own_helper_module(tmp_path):
    (tmp_path / "plot_helpers.py").write_text("MM = 1 / 25.4\n")
    path = write(
        tmp_path,
        f"""
        import matplotlib.pyplot as plt
        from plot_helpers import MM
        plt.style.use({str(STYLE)!r})
        fig, ax = plt.subplots(figsize=(89 * MM, 60 * MM))
        ax.plot([0, 1], [0, 1]); fig.savefig("f.pdf")
        """,
    )
    result = run(path)
    assert result.returncode == 0, result.stderr


def test_markers_clear_colours_confusable_as_its_hint_says(tmp_path):
    body = """
        import matplotlib.pyplot as plt
        plt.style.use({style!r})
        fig, ax = plt.subplots(figsize=(3.5, 2.5))
        ax.plot([0, 1], [0, 1], color="red"{a}); ax.plot([0, 1], [1, 0], color="#00aa00"{b})
        fig.savefig("f.pdf")
        """
    plain = write(tmp_path, body.format(style=str(STYLE), a="", b=""))
    assert "colours_confusable" in codes(run(plain))
    for a, b in (('marker="o"', 'marker="s"'), ('linestyle="-"', 'linestyle="--"')):
        fixed = write(tmp_path, body.format(style=str(STYLE), a=", " + a, b=", " + b))
        result = run(fixed)
        assert "colours_confusable" not in codes(result), result.stdout
        assert result.returncode == 0


def test_hatches_clear_confusable_bars(tmp_path):
    path = write(
        tmp_path,
        f"""
        import matplotlib.pyplot as plt
        plt.style.use({str(STYLE)!r})
        fig, ax = plt.subplots(figsize=(3.5, 2.5))
        ax.bar([0], [1], color="red", hatch="//"); ax.bar([1], [2], color="#00aa00")
        fig.savefig("f.pdf")
        """,
    )
    assert "colours_confusable" not in codes(run(path))


def test_panel_letters_at_the_skills_8pt_rule_pass_and_9pt_does_not(tmp_path):
    body = """
        import matplotlib.pyplot as plt
        plt.style.use({style!r})
        fig, axes = plt.subplots(1, 2, figsize=(183 / 25.4, 50 / 25.4))
        for ax, letter in zip(axes, "ab"):
            ax.plot([0, 1], [0, 1])
            ax.text(-0.25, 1.05, letter, transform=ax.transAxes, fontsize={size}, fontweight="bold")
        fig.savefig("f.pdf")
        """
    assert "font_too_large" not in codes(run(write(tmp_path, body.format(style=str(STYLE), size=8))))
    assert "font_too_large" in codes(run(write(tmp_path, body.format(style=str(STYLE), size=9))))


def test_figure_taller_than_the_page_is_an_error(tmp_path):
    path = write(
        tmp_path,
        f"""
        import matplotlib.pyplot as plt
        plt.style.use({str(STYLE)!r})
        fig, ax = plt.subplots(figsize=(183 / 25.4, 260 / 25.4))
        ax.plot([0, 1], [0, 1]); fig.savefig("f.pdf")
        """,
    )
    result = run(path)
    assert result.returncode == 1 and "figure_too_tall" in codes(result)


def test_silent_dejavu_fallback_is_reported(tmp_path):
    path = write(
        tmp_path,
        f"""
        import matplotlib, matplotlib.pyplot as plt
        plt.style.use({str(STYLE)!r})
        matplotlib.rcParams["font.sans-serif"] = ["No Such Grotesk", "DejaVu Sans"]
        fig, ax = plt.subplots(figsize=(3.5, 2.5))
        ax.plot([0, 1], [0, 1]); fig.savefig("f.pdf")
        """,
    )
    result = run(path)
    finding = next(f for f in json.loads(result.stdout)["findings"] if f["code"] == "font_fallback")
    assert "No Such Grotesk" in finding["message"] and finding["severity"] == "warning"


# --- auditing finished files --------------------------------------------------------------------------------


def _make(tmp_path, body: str, name: str):
    """Produce a figure file with a real matplotlib run (in a subprocess, as a user's script would)."""
    script = tmp_path / f"make_{name.replace('.', '_')}.py"
    script.write_text(dedent(body))
    subprocess.run([sys.executable, str(script)], cwd=tmp_path, check=True, capture_output=True, timeout=120)
    return tmp_path / name


GOOD = f"""
    import matplotlib.pyplot as plt
    plt.style.use({str(STYLE)!r})
    fig, ax = plt.subplots(figsize=(89 / 25.4, 60 / 25.4))
    ax.plot([0, 1, 2], [0, 1, 4]); ax.set_xlabel("Time (h)")
    fig.savefig(NAME)
    """


@pytest.mark.parametrize("name", ["good.pdf", "good.svg"])
def test_a_good_vector_file_passes_its_audit(tmp_path, name):
    figure = _make(tmp_path, GOOD.replace("NAME", repr(name)), name)
    result = run(figure, "--width-mm", "89")
    assert result.returncode == 0, result.stdout + result.stderr
    allowed = {"font_fallback"} if not style_font_installed() else set()
    assert set(codes(result)) <= allowed


@pytest.mark.parametrize("name", ["tiny.pdf", "tiny.svg"])
def test_audit_finds_tiny_text_in_an_oversized_vector_file(tmp_path, name):
    body = f"""
        import matplotlib, matplotlib.pyplot as plt
        matplotlib.rcParams["svg.fonttype"] = "none"  # live text (outlined text has no size to read)
        fig, ax = plt.subplots(figsize=(12, 8))
        ax.plot([0, 1], [0, 1]); ax.set_xlabel("Time (h)", fontsize=10)
        fig.savefig({name!r})
        """
    result = run(_make(tmp_path, body, name), "--width-mm", "89")
    assert result.returncode == 1
    assert {"figure_too_wide", "font_too_small"} <= set(codes(result))
    small = next(f for f in json.loads(result.stdout)["findings"] if f["code"] == "font_too_small")
    assert "2.9 pt" in small["message"]  # 10 pt on a 305 mm canvas printed 89 mm wide


def test_audit_reports_type3_fonts_in_a_pdf(tmp_path):
    body = f"""
        import matplotlib, matplotlib.pyplot as plt
        plt.style.use({str(STYLE)!r})
        matplotlib.rcParams["pdf.fonttype"] = 3
        fig, ax = plt.subplots(figsize=(3.5, 2.5)); ax.plot([0, 1]); fig.savefig("t3.pdf")
        """
    assert "type3_fonts" in codes(run(_make(tmp_path, body, "t3.pdf")))


def test_audit_of_a_low_resolution_png_and_its_height(tmp_path):
    body = """
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(7.2, 11))
        ax.plot([0, 1], [0, 1], color="red"); ax.plot([0, 1], [1, 0], color="#00aa00", linewidth=8)
        fig.savefig("low.png", dpi=100)
        """
    result = run(_make(tmp_path, body, "low.png"))
    found = codes(result)
    assert result.returncode == 1
    assert {"raster_dpi_low", "figure_too_tall", "bitmap_figure"} <= set(found)
    assert "colours_confusable" in found  # recovered from the pixels, as a warning
    confusable = next(f for f in json.loads(result.stdout)["findings"] if f["code"] == "colours_confusable")
    assert confusable["severity"] == "warning"


def test_audit_refuses_what_it_cannot_read_in_one_line(tmp_path):
    notes = tmp_path / "fig.docx"
    notes.write_text("x")
    result = run(notes)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "cannot audit .docx" in result.stderr
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4 nonsense")
    result = run(broken)
    assert (
        result.returncode == 2 and result.stderr.startswith("Error: cannot read") and "Traceback" not in result.stderr
    )


def test_audit_of_outlined_svg_text_says_sizes_cannot_be_checked(tmp_path):
    body = """
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(3.5, 2.5)); ax.plot([0, 1]); fig.savefig("outlined.svg")
        """
    result = run(_make(tmp_path, body, "outlined.svg"))
    finding = next(f for f in json.loads(result.stdout)["findings"] if f["code"] == "svg_text_as_paths")
    assert "cannot be checked" in finding["message"]


HEATMAP = f"""
    import numpy as np, matplotlib.pyplot as plt
    plt.style.use({str(STYLE)!r})
    fig, ax = plt.subplots(figsize=(89 / 25.4, 70 / 25.4))
    image = ax.imshow(np.random.default_rng(0).random((12, 12)), interpolation="none")
    fig.colorbar(image)
    fig.savefig(NAME, dpi=300)
    """


@pytest.mark.parametrize("name", ["heat.pdf", "heat.svg"])
def test_a_correct_heatmap_with_a_colour_bar_audits_clean(tmp_path, name):
    result = run(_make(tmp_path, HEATMAP.replace("NAME", repr(name)), name))
    assert result.returncode == 0, result.stdout + result.stderr  # no crash on the SVG's data URI, no false dpi error
    assert "raster_dpi_low" not in codes(result)


def test_a_shaded_band_behind_the_bars_is_not_a_data_colour(tmp_path):
    path = write(
        tmp_path,
        f"""
        import matplotlib.pyplot as plt
        plt.style.use({str(STYLE)!r})
        fig, ax = plt.subplots(figsize=(89 / 25.4, 60 / 25.4))
        ax.axvspan(-0.5, 0.5, color="0.92"); ax.bar([0, 1], [1, 2], color="white", edgecolor="black")
        fig.savefig("bars.pdf")
        """,
    )
    assert "colours_confusable" not in codes(run(path))


def test_the_script_runs_from_the_callers_folder_like_python_does(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "x.csv").write_text("0,1\n1,3\n")
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    path = write(
        scripts,
        f"""
        import matplotlib.pyplot as plt
        plt.style.use({str(STYLE)!r})
        rows = [line.split(",") for line in open("data/x.csv").read().split()]
        fig, ax = plt.subplots(figsize=(89 / 25.4, 60 / 25.4))
        ax.plot([float(a) for a, _ in rows], [float(b) for _, b in rows]); fig.savefig("out.pdf")
        """,
    )
    result = run(path, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out.pdf").exists()
