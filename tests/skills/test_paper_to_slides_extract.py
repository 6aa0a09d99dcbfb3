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
    manifest = extract_figures.extract(paper_pdf, tmp_path / "figs")
    assert manifest["pages"] == 3
    assert manifest["images"] == [{"file": "p1_1.png", "page": 1, "width": 640, "height": 400}]
    with Image.open(tmp_path / "figs" / "p1_1.png") as image:
        assert image.size == (640, 400)
    assert json.loads((tmp_path / "figs" / "manifest.json").read_text()) == manifest


def test_captions_are_listed_per_page_and_vector_figures_are_flagged(paper_pdf, tmp_path, capsys):
    assert extract_figures.main([str(paper_pdf), str(tmp_path / "figs")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "page 1: p1_1.png (640x400)" in out
    assert "page 1: Figure 1 Responders carry more Bifidobacterium." in out
    assert "page 2: Fig. 2 Transfer into mice reproduces the effect.  [no bitmap on this page: vector figure?]" in out
    assert any(line.startswith("page 3: Extended Data Fig. 3") for line in out)
    assert out[-1] == "1 image(s), 3 caption(s) from 3 page(s)"


def test_small_images_are_skipped(paper_pdf, tmp_path):
    assert extract_figures.extract(paper_pdf, tmp_path / "figs", min_px=500)["images"] == []


def test_a_file_that_is_not_a_pdf_is_a_one_line_error(tmp_path, capsys):
    bad = tmp_path / "paper.pdf"
    bad.write_text("not a pdf")
    assert extract_figures.main([str(bad), str(tmp_path / "figs")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"Error: cannot read {bad} as a PDF") and err.count("\n") == 1
