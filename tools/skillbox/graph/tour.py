"""The graph step of `skillbox tour`: build the bundled sample project, then rebuild it incrementally."""

from __future__ import annotations

import shutil
from pathlib import Path

from skillbox.tour import TourReport

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "graph" / "shop"


def run(workdir: Path) -> TourReport:
    project = workdir / "shop"
    shutil.rmtree(project, ignore_errors=True)
    shutil.copytree(SAMPLE, project)

    from skillbox.graph.build import build_graph

    first = build_graph(project)
    s = first.summary
    lines = [
        f"skillbox graph build {project}: {s['files']} files ({', '.join(s['languages'])}), "
        f"{s['nodes']} nodes, {s['edges']} edges",
        "edges: " + ", ".join(f"{k} {v}" for k, v in s["edges_by_relation"].items()),
        "confidence: " + ", ".join(f"{k} {v}" for k, v in s["confidence"].items()),
    ]
    data = first.data()
    nodes = {n["id"]: n for n in data["nodes"]}
    # One edge that needs real resolution: main.py calls Cart through the package's re-export.
    for link in data["links"]:
        if link["relation"] == "calls" and link["source"] == "main.py::main" and link["target"].endswith("::Cart"):
            lines.append(f"resolved: {link['source']} -calls-> {link['target']} [{link['confidence']}]")
    why = nodes.get("shop/pricing.py::with_tax", {}).get("notes")
    if why:
        lines.append(f"kept the why: with_tax {why[0]!r}")

    (project / "shop" / "pricing.py").write_text(
        (project / "shop" / "pricing.py").read_text() + "\n\ndef discount(amount):\n    return with_tax(amount) * 0.9\n"
    )
    second = build_graph(project)
    cache = second.summary["cache"]
    lines.append(
        f"after editing one file: re-parsed {cache['misses']}, reused {cache['hits']} from the cache, "
        f"{second.summary['nodes']} nodes"
    )
    ok = second.summary["nodes"] == s["nodes"] + 1 and cache["misses"] == 1
    used, use_ok = _use_side(second.graph_path)
    lines.extend(used)
    out = second.graph_path.parent
    outputs = [second.graph_path, out / "GRAPH_REPORT.md", out / "graph.html"]
    return TourReport("Code knowledge graph", lines, outputs, ok and use_ok)


def _use_side(graph_path: Path) -> tuple[list[str], bool]:
    """What the build wrote for people and agents, and the answers an agent gets from it."""
    from skillbox.graph.index import GraphIndex
    from skillbox.graph.query import affected, explain, query

    out = graph_path.parent
    report = (out / "GRAPH_REPORT.md").read_text(encoding="utf-8")
    communities = next((line for line in report.splitlines() if line.startswith("- Communities:")), "")
    index = GraphIndex.open(graph_path)
    try:
        answer = query(index, "how is the cart total computed", budget=120)
        what = explain(index, "with_tax")
        blast = affected(index, "with_tax")
    finally:
        index.close()
    lines = [
        f"GRAPH_REPORT.md: {communities.removeprefix('- ')}",
        f"graph.html: {(out / 'graph.html').stat().st_size // 1024} kB, one offline file (open it in a browser)",
        f'skillbox graph query "how is the cart total computed" --budget 120 -> {answer["tokens"]} tokens:',
        *[f"  {line}" for line in answer["lines"][:4]],
        f"skillbox graph explain with_tax -> {what['text'].splitlines()[0]}",
        f"skillbox graph affected with_tax -> {blast['text'].splitlines()[0]}",
    ]
    return lines, bool(answer["lines"]) and blast["count"] > 0
