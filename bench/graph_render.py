"""Benchmark of GRAPH_REPORT.md and graph.html generation on a built graph (issue #4's use-side budget).

    python bench/graph_render.py --graph PATH/skillbox-out/graph.json [--runs 5] [--browser]

Nothing is written beside graph.json (the page goes to a temporary folder). Measured, best of `--runs`, CPU and
wall seconds:
- loading graph.json (the floor: any use of the graph pays it) and the communities (context, not ours);
- the report from a cold start (it builds the shared edge columns), then the viewer as `build` runs it (right after
  the report, reusing those columns), and the viewer alone from a cold start.
Each figure is printed as a ratio to its budget: report <= 0.35 s and viewer <= 0.45 s, so that report + communities
+ viewer stay within 20% of a cold extraction of Django (~7 s). `--browser` adds the page in headless Chromium:
time to first draw (the overview) and to ready (nodes and edges parsed: search and drill-down available).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

from skillbox.graph import columns
from skillbox.graph.cluster import detect_communities, read_previous
from skillbox.graph.code_graph import load_graph
from skillbox.graph.report import render_report
from skillbox.graph.viewer.render import write_html

BUDGET = {"report": 0.35, "html after report": 0.45, "html alone": 0.45}
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


def timed(fn) -> tuple[float, float, object]:
    cpu, wall = time.process_time(), time.perf_counter()
    result = fn()
    return time.process_time() - cpu, time.perf_counter() - wall, result


def best(samples: list[tuple[float, float]]) -> tuple[float, float]:
    return min(s[0] for s in samples), min(s[1] for s in samples)


def browser_times(html: Path, runs: int = 3) -> dict:
    from playwright.sync_api import sync_playwright

    first, ready = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS)
        for _ in range(runs):
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(html.as_uri())
            page.wait_for_selector("body[data-drawn='1']", timeout=120_000)
            page.wait_for_selector("body[data-ready='1']", timeout=120_000)
            first.append(page.evaluate("window.__firstDrawMs"))
            ready.append(page.evaluate("window.__readyMs"))
            page.close()
        browser.close()
    return {"first_draw_ms": statistics.median(first), "ready_ms": statistics.median(ready)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--graph", type=Path, required=True, help="a built graph.json (its communities.json seeds)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--browser", action="store_true", help="also time the page in headless Chromium")
    args = parser.parse_args()

    load = [timed(lambda: load_graph(args.graph))[:2] for _ in range(2)]
    graph = load_graph(args.graph)
    previous = read_previous(args.graph.parent / "communities.json")
    cpu, wall, partition = timed(lambda: detect_communities(graph, previous))
    rows = {"load graph.json (floor)": best(load), "communities (not ours)": (cpu, wall)}
    samples: dict[str, list] = {name: [] for name in BUDGET}
    with tempfile.TemporaryDirectory(prefix="skillbox-render-") as tmp:
        html = Path(tmp) / "graph.html"
        for _ in range(args.runs):
            columns._last = None  # cold: as `build` runs it, the report builds the shared columns
            samples["report"].append(timed(lambda: render_report(graph, partition, "bench"))[:2])
            samples["html after report"].append(timed(lambda: write_html(graph, partition, html, "bench"))[:2])
            columns._last = None
            samples["html alone"].append(timed(lambda: write_html(graph, partition, html, "bench"))[:2])
        page = browser_times(html) if args.browser else None
        size_mb = html.stat().st_size / 1e6
    rows.update({name: best(s) for name, s in samples.items()})

    print(f"graph: {args.graph} ({len(graph.nodes)} nodes, {len(graph.edges)} edges), best of {args.runs}")
    print(f"{'measure':28} {'CPU s':>7} {'wall s':>7} {'budget s':>8} {'CPU/budget':>10} {'CPU/load':>8}")
    floor = rows["load graph.json (floor)"][0]
    for name, (cpu, wall) in rows.items():
        budget = BUDGET.get(name)
        ratio = f"{cpu / budget:10.2f}" if budget else f"{'':10}"
        print(f"{name:28} {cpu:7.3f} {wall:7.3f} {budget or '':>8} {ratio} {cpu / floor:8.2f}")
    both = rows["report"][0] + rows["html after report"][0]
    print(f"{'report + html (build)':28} {both:7.3f} {'':7} {0.8:8} {both / 0.8:10.2f} {both / floor:8.2f}")
    print(f"graph.html: {size_mb:.1f} MB")
    if page:
        print(f"Chromium: first draw {page['first_draw_ms']:.0f} ms, ready {page['ready_ms']:.0f} ms (median of 3)")
    print(json.dumps({name: round(cpu, 3) for name, (cpu, _) in rows.items()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
