"""Tour step for the graph's use side: build the bundled shop sample, then read the report, viewer and answers."""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

from skillbox.tour import TourReport


def run(workdir: Path) -> TourReport:
    from skillbox.graph.build import build_graph
    from skillbox.graph.index import GraphIndex
    from skillbox.graph.query import affected, explain, query

    project = workdir / "shop-project"
    if project.exists():
        shutil.rmtree(project)
    sample = resources.files("skillbox.samples").joinpath("graph-use")
    with resources.as_file(sample) as source:
        shutil.copytree(source, project)
    result = build_graph(project)
    out = result.out_dir
    index = GraphIndex.open(result.graph_path)
    answer = query(index, "how is the cart total computed", budget=200)
    what = explain(index, "Cart.total")
    blast = affected(index, "with_tax")
    report_lines = (out / "GRAPH_REPORT.md").read_text().splitlines()
    summary = next((line for line in report_lines if line.startswith("- **")), "")
    lines = [
        f"built {result.summary['nodes']} nodes, {result.summary['edges']} edges from the shop sample",
        f"GRAPH_REPORT.md {summary.lstrip('- ')}",
        f'query "how is the cart total computed" -> {len(answer["lines"])} lines, {answer["tokens"]} tokens:',
        *[f"  {line}" for line in answer["lines"][:4]],
        f"explain Cart.total -> {what['text'].splitlines()[0]}",
        f"affected with_tax -> {blast['text'].splitlines()[0]}",
        "open graph.html in a browser (works offline)",
    ]
    index.close()
    outputs = [out / "GRAPH_REPORT.md", out / "graph.html", result.graph_path]
    return TourReport(title="code graph: report, viewer, queries", lines=lines, outputs=outputs)
