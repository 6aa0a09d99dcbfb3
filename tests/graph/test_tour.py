"""The tour step builds the bundled sample for real and rebuilds it incrementally."""

from __future__ import annotations

from skillbox.tour import TOUR_STEPS, run_tour


def test_graph_tour_step(tmp_path):
    assert TOUR_STEPS["graph"] == "skillbox.graph.tour:run"
    (outcome,) = run_tour(tmp_path, {"graph": TOUR_STEPS["graph"]})
    report = outcome.report
    assert report.ok, report.lines
    text = "\n".join(report.lines)
    assert "main.py::main -calls-> shop/cart.py::Cart [EXTRACTED]" in text
    assert "kept the why: with_tax 'WHY: tax is applied once" in text
    assert "re-parsed 1" in text
    assert report.outputs[0].name == "graph.json" and report.outputs[0].is_file()
