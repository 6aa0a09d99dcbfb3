"""paper-to-slides: figures embedded in a PDF come out as image files with their page and captions."""

from __future__ import annotations

import json

import matplotlib
import numpy as np
import pytest

from tests.skills.conftest import load_script

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.backends.backend_pdf import PdfPages
from PIL import Image

extract_figures = load_script("paper-to-slides", "extract_figures")


@pytest.fixture
def paper_pdf(tmp_path):
    """Three pages: a micrograph-like bitmap, a vector-only chart, and the same bitmap again (a repeated logo)."""
    bitmap = np.random.default_rng(0).random((400, 640))
    path = tmp_path / "paper.pdf"
    with PdfPages(path) as pdf:
        for caption, draw in (
            ("Figure 1 | Responders carry more Bifidobacterium.", lambda ax: ax.imshow(bitmap, interpolation="none")),
            ("Fig. 2. Transfer into mice reproduces the effect.", lambda ax: ax.plot([0, 1], [0, 2])),
            ("Extended Data Fig. 3 | Same image reused.", lambda ax: ax.imshow(bitmap, interpolation="none")),
        ):
            fig = plt.figure(figsize=(8.5, 11))
            fig.text(0.1, 0.92, caption)
            draw(fig.add_axes([0.1, 0.3, 0.8, 0.5]))
            pdf.savefig(fig)
            plt.close(fig)
    return path


def test_bitmaps_are_saved_once_with_page_and_size(paper_pdf, tmp_path):
    manifest = extract_figures.extract(paper_pdf, tmp_path / "figs", render=False)
    assert manifest["pages"] == 3
    assert manifest["images"] == [{"file": "p1_1.png", "page": 1, "width": 640, "height": 400, "kind": "bitmap"}]
    with Image.open(tmp_path / "figs" / "p1_1.png") as image:
        assert image.size == (640, 400)
    assert json.loads((tmp_path / "figs" / "manifest.json").read_text()) == manifest


def test_captions_are_listed_per_page_and_vector_figures_are_flagged(paper_pdf, tmp_path, capsys):
    assert extract_figures.main([str(paper_pdf), str(tmp_path / "figs")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "page 1: p1_1.png (640x400)" in out
    assert "page 1: Figure 1 Responders carry more Bifidobacterium." in out
    assert any(line.startswith("page 2: p2_fig2.png (") and "[figure, rendered: Fig. 2." in line for line in out)
    assert "page 2: Fig. 2 Transfer into mice reproduces the effect." in out
    assert "page 3: Extended Data Fig. 3 Same image reused.  [its bitmap repeats one saved from an earlier page]" in out
    assert out[-1] == "2 image(s), 3 caption(s) from 3 page(s)"


def test_small_images_are_skipped(paper_pdf, tmp_path):
    assert extract_figures.extract(paper_pdf, tmp_path / "figs", min_px=500, render=False)["images"] == []


def test_a_file_that_is_not_a_pdf_is_a_one_line_error(tmp_path, capsys):
    bad = tmp_path / "paper.pdf"
    bad.write_text("not a pdf")
    assert extract_figures.main([str(bad), str(tmp_path / "figs")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"Error: cannot read {bad} as a PDF") and err.count("\n") == 1


@pytest.fixture
def journal_page(tmp_path):
    """A journal-style page: body text, a vector chart with its caption BELOW it, more body text, then a
    booktabs table (three horizontal rules, no vertical ones) under its caption, then references."""
    from matplotlib.lines import Line2D

    path = tmp_path / "journal.pdf"
    with PdfPages(path) as pdf:
        fig = plt.figure(figsize=(8.5, 11))
        fig.text(0.1, 0.95, "Results. Responders differ from non-responders in ways we describe here.", fontsize=9)
        ax = fig.add_axes([0.15, 0.55, 0.7, 0.32])
        ax.plot([0, 1, 2, 3], [1, 3, 2, 5], marker="o")
        ax.set_xlabel("Day")
        ax.set_ylabel("Tumour volume")
        fig.text(0.1, 0.48, "Figure 2 | Transfer into mice reproduces the effect. a, Tumour growth.", fontsize=9)
        fig.text(0.1, 0.40, "Body text continues after the figure with more words about the methods.", fontsize=9)
        fig.text(0.1, 0.30, "Table 1 | Cohorts at a glance", fontsize=9)
        for y in (0.285, 0.262, 0.18):
            fig.add_artist(Line2D([0.1, 0.9], [y, y], color="black", linewidth=0.8))
        cells = [
            ("Cohort", "n", "Responders"),
            ("Chicago", "42", "16"),
            ("Houston", "112", "30"),
            ("Paris", "64", "21"),
        ]
        for row, values in enumerate(cells):
            for x, value in zip((0.12, 0.45, 0.7), values, strict=True):
                fig.text(x, 0.268 - row * 0.024, value, fontsize=9)
        fig.text(0.1, 0.1, "References 1. Lee et al.", fontsize=9)
        pdf.savefig(fig)
        plt.close(fig)
    return path


def test_vector_figure_and_table_are_cropped_from_the_page_by_caption(journal_page, tmp_path):
    manifest = extract_figures.extract(journal_page, tmp_path / "figs", dpi=100)
    figure, table = manifest["images"]
    points_to_px = 100 / 72
    # the chart's region: from the axes' top down to its x-axis title, none of the body text above or below
    top, bottom = 792 * (1 - 0.87), 792 * (1 - 0.48)
    assert (figure["kind"], figure["file"]) == ("figure", "p1_fig2.png")
    assert top - 25 < figure["bbox"][1] < top and figure["bbox"][3] < bottom
    assert figure["bbox"][1] > 792 * (1 - 0.95) + 12  # the "Results." line is left out
    assert table["kind"] == "table" and table["caption"] == "Table 1 | Cohorts at a glance"
    assert table["bbox"][3] >= 792 * (1 - 0.18)  # down to the bottom rule, past the widely spaced rows
    assert table["bbox"][3] < 792 * (1 - 0.1)  # but not the references
    assert table["rows"] == [
        ["Cohort", "n", "Responders"],
        ["Chicago", "42", "16"],
        ["Houston", "112", "30"],
        ["Paris", "64", "21"],
    ]
    with Image.open(tmp_path / "figs" / table["file"]) as image:
        width_pt = table["bbox"][2] - table["bbox"][0]
        assert abs(image.size[0] - width_pt * points_to_px) <= 2


def test_table_rows_go_straight_into_a_native_deck_table(journal_page, tmp_path):
    build_deck = load_script("paper-to-slides", "build_deck")
    manifest = extract_figures.extract(journal_page, tmp_path / "figs", dpi=100)
    rows = next(i for i in manifest["images"] if i["kind"] == "table")["rows"]
    spec = {
        "title": "t",
        "slides": [
            {"layout": "table", "title": "Cohorts", "table": {"header": rows[0], "rows": rows[1:]}, "notes": "n"}
        ],
    }
    build_deck.validate_spec(spec)
