"""Benchmark of the graph's use side: report + communities + html, query latency, MCP latency, viewer first draw.

    python bench/graph_use.py [--corpus NAME=DIR ...] [--synthetic FILES] [--graphify VENV] [--runs N]

For each corpus: a cold `skillbox graph build` (its extraction time is the yardstick), then
- report + communities + html seconds and their ratio to the extraction (target <= 20%);
- `skillbox graph query/path/explain` as separate processes (load included; target <= 300 ms), median of N;
- the same three as MCP tool calls over stdio in one warm server session (target <= 20 ms), median of N;
- graph.html time to first draw in headless Chromium (`performance.now()` at the first canvas paint: the
  community overview) and to ready (nodes and edges parsed: search and drill-down answer).
With `--graphify VENV` (graphifyy 0.9.96 installed there) and a graphify-out/graph.json in the corpus, graphify's
query/path/explain are timed the same way and ratios printed (ours / graphify: below 1 means faster).
`--synthetic FILES` benchmarks a generated Django-size graph (no extraction yardstick) instead of a corpus.
Corpora default to ~/.cache/skillbox-graphuse/corpora/{flask,django} when present.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))
CACHE = Path.home() / ".cache" / "skillbox-graphuse"
ENV = {**os.environ, "PYTHONPATH": str(REPO / "tools")}
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
QUESTIONS = {
    "flask": "how does a request get dispatched to a view function",
    "django": "how does the queryset filter build a where clause",
    "vite": "how does the dev server transform a module request",
}


def median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 1)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_process(args: list[str], runs: int, env=None, cwd=None) -> tuple[float, float]:
    """Median wall ms and median CPU ms (user + sys) of a process; CPU does not grow with the machine's load."""
    walls, cpus = [], []
    for _ in range(runs):
        cpu = children_cpu()
        started = time.perf_counter()
        subprocess.run(args, capture_output=True, env=env or ENV, cwd=cwd)
        walls.append(time.perf_counter() - started)
        cpus.append(children_cpu() - cpu)
    return median_ms(walls), median_ms(cpus)


def pick_targets(graph_path: Path) -> dict:
    """An explain target, a path pair and a query from the graph itself (the two most connected symbols)."""
    from skillbox.graph.index import GraphIndex
    from skillbox.graph.query import god_nodes

    index = GraphIndex.open(graph_path)
    gods = god_nodes(index, 12)
    non_test = [g for g in gods if "test" not in g["id"]] or gods
    return {"explain": non_test[0]["id"], "path": (non_test[0]["id"], non_test[1]["id"])}


def cli_latency(graph_path: Path, targets: dict, question: str, runs: int) -> dict:
    base = [sys.executable, "-m", "skillbox", "graph"]
    graph = ["--graph", str(graph_path)]
    subprocess.run([*base, "explain", targets["explain"], *graph], capture_output=True, env=ENV)  # warm the index
    return {
        "query": time_process([*base, "query", question, *graph], runs),
        "path": time_process([*base, "path", *targets["path"], *graph], runs),
        "explain": time_process([*base, "explain", targets["explain"], *graph], runs),
    }


def graphify_latency(venv: Path, corpus: Path, targets: dict, question: str, runs: int) -> dict | None:
    graph = corpus / "graphify-out" / "graph.json"
    exe = venv / "bin" / "graphify"
    if not graph.is_file() or not exe.exists():
        return None

    def label_for(node_id: str) -> str:  # graphify resolves bare names (labels) itself
        return node_id.rsplit("::", 1)[-1].rsplit(".", 1)[-1]

    env = {**os.environ, "GRAPHIFY_BACKEND": "none", "GRAPHIFY_NO_TIPS": "1"}
    g = ["--graph", str(graph)]
    return {
        "query": time_process([str(exe), "query", question, *g], runs, env=env, cwd=corpus),
        "path": time_process(
            [str(exe), "path", label_for(targets["path"][0]), label_for(targets["path"][1]), *g], runs, env, corpus
        ),
        "explain": time_process([str(exe), "explain", label_for(targets["explain"]), *g], runs, env=env, cwd=corpus),
    }


async def _mcp_latency(graph_path: Path, targets: dict, question: str, runs: int) -> dict:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "skillbox", "graph", "mcp", "--graph", str(graph_path)], env=ENV
    )
    calls = {
        "query": ("query", {"question": question}),
        "path": ("path", {"source": targets["path"][0], "target": targets["path"][1]}),
        "explain": ("explain", {"node": targets["explain"]}),
    }
    out = {}
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            for name, (tool, args) in calls.items():
                await session.call_tool(tool, args)  # first call opens the index
                samples = []
                for _ in range(runs):
                    started = time.perf_counter()
                    await session.call_tool(tool, args)
                    samples.append(time.perf_counter() - started)
                out[name] = median_ms(samples)
    return out


def viewer_first_draw(html: Path) -> dict:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        failed = []
        page.on("requestfailed", lambda r: failed.append(r.url))
        started = time.perf_counter()
        page.goto(html.as_uri())
        page.wait_for_selector("body[data-drawn='1']", timeout=120_000)
        wall = time.perf_counter() - started
        first_draw = page.evaluate("window.__firstDrawMs")
        # the overview draws before the nodes and edges are parsed; "ready" is when search and drill-down can answer
        page.wait_for_selector("body[data-ready='1']", timeout=120_000)
        ready = page.evaluate("window.__readyMs")
        # interactivity: open the largest community and time the redraw
        redraw = page.evaluate(
            "() => { const t = performance.now(); const c = window.skillboxViewer.data.communities[0];"
            " window.skillboxViewer.openCommunity(c.id); return performance.now() - t; }"
        )
        browser.close()
    return {
        "first_draw_ms": round(first_draw, 1),
        "ready_ms": round(ready, 1),
        "load_wall_ms": round(wall * 1000, 1),
        "drill_down_ms": round(redraw, 1),
        "failed_requests": len(failed),
        "html_mb": round(html.stat().st_size / 1e6, 1),
    }


def bench_corpus(name: str, corpus: Path, args) -> dict:
    from skillbox.graph.build import build_graph
    from skillbox.graph.code_graph import load_graph
    from skillbox.graph.outputs import write_use_outputs

    out_dir = CACHE / "bench-out" / name
    shutil.rmtree(out_dir, ignore_errors=True)  # cold: no cache, no previous partition
    cpu = time.process_time() + children_cpu()
    started = time.perf_counter()
    result = build_graph(corpus, out_dir, force=True)
    build_wall = time.perf_counter() - started
    build_cpu = time.process_time() + children_cpu() - cpu
    seconds = result.summary.get("seconds", {})
    use_keys = ("load", "communities", "report", "html", "index")
    if "communities" in seconds:
        use = {k: seconds[k] for k in use_keys if k in seconds}
    else:  # build does not write them (engine without the use side): time them here
        graph = load_graph(result.graph_path)
        use = write_use_outputs(graph, result.graph_path).seconds
    extraction = build_wall - sum(use.values())
    # CPU of the use side alone: the same work again in this process (seeded from the partition just written)
    # (in this process only: a forked child's CPU would not be counted)
    graph = load_graph(result.graph_path)
    os.environ["SKILLBOX_NO_FORK"] = "1"
    try:
        cpu = time.process_time()
        again = write_use_outputs(graph, result.graph_path).seconds
        use_cpu = time.process_time() - cpu
    finally:
        del os.environ["SKILLBOX_NO_FORK"]
    index_share = again.get("index", 0) / max(sum(again.values()), 1e-9)
    rch_cpu = use_cpu * (1 - index_share)
    extraction_cpu = build_cpu - use_cpu
    row = {
        "corpus": name,
        "nodes": result.summary.get("nodes"),
        "edges": result.summary.get("edges"),
        "extraction_s": round(extraction, 2),
        "use_s": {k: round(v, 2) for k, v in use.items()},
    }
    row["report_communities_html_s"] = round(sum(use.get(k, 0) for k in ("communities", "report", "html")), 2)
    row["ratio_to_extraction"] = round(row["report_communities_html_s"] / extraction, 3) if extraction else None
    row["extraction_cpu_s"] = round(extraction_cpu, 2)
    row["report_communities_html_cpu_s"] = round(rch_cpu, 2)
    row["cpu_ratio_to_extraction"] = round(rch_cpu / extraction_cpu, 3) if extraction_cpu > 0 else None
    return {**row, **bench_graph(result.graph_path, QUESTIONS.get(name, "main entry point"), args, corpus)}


def bench_graph(graph_path: Path, question: str, args, corpus: Path | None = None) -> dict:
    targets = pick_targets(graph_path)
    row = {"targets": targets, "cli_ms": cli_latency(graph_path, targets, question, args.runs)}
    row["mcp_ms"] = asyncio.run(_mcp_latency(graph_path, targets, question, args.runs * 4))
    html = graph_path.parent / "graph.html"
    if html.is_file() and Path("/usr/bin/chromium").exists():
        row["viewer"] = viewer_first_draw(html)
    if args.graphify and corpus is not None:
        theirs = graphify_latency(Path(args.graphify), corpus, targets, question, args.runs)
        if theirs:
            row["graphify_cli_ms"] = theirs
    return row


def bench_synthetic(files: int, args) -> dict:
    sys.path.insert(0, str(REPO / "tests" / "graph" / "use"))
    from synthetic import write_synthetic

    from skillbox.graph.code_graph import load_graph
    from skillbox.graph.outputs import write_use_outputs

    graph_path = write_synthetic(Path(tempfile.mkdtemp()) / "skillbox-out" / "graph.json", files)
    graph = load_graph(graph_path)
    use = write_use_outputs(graph, graph_path).seconds
    row = {"corpus": f"synthetic-{files}", "nodes": len(graph.nodes), "edges": len(graph.edges)}
    row["use_s"] = {k: round(v, 2) for k, v in use.items()}
    row["report_communities_html_s"] = round(sum(use.get(k, 0) for k in ("communities", "report", "html")), 2)
    return {**row, **bench_graph(graph_path, "cache request handler session", args)}


def print_table(rows: list[dict]) -> None:
    print(
        "\n| corpus | nodes / edges | extraction s (CPU s) | communities+report+html s (CPU s, CPU ratio) | index s |"
        " query / path / explain per process, ms (CPU ms) | same as warm MCP calls, ms | viewer first draw ms"
        " (ready ms; drill-down ms) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        cli, mcp = r["cli_ms"], r["mcp_ms"]
        ext = f"{r.get('extraction_s', 'n/a')} ({r.get('extraction_cpu_s', 'n/a')})"
        use = f"{r['report_communities_html_s']}"
        if r.get("cpu_ratio_to_extraction") is not None:
            use += f" ({r['report_communities_html_cpu_s']}, {100 * r['cpu_ratio_to_extraction']:.0f}%)"
        viewer = r.get("viewer")
        vtxt = f"{viewer['first_draw_ms']} ({viewer['ready_ms']}; {viewer['drill_down_ms']})" if viewer else "n/a"
        lat = " / ".join(f"{cli[k][0]:.0f} ({cli[k][1]:.0f})" for k in ("query", "path", "explain"))
        print(
            f"| {r['corpus']} | {r['nodes']} / {r['edges']} | {ext} | {use} | {r['use_s'].get('index', 'n/a')} | "
            f"{lat} | {mcp['query']} / {mcp['path']} / {mcp['explain']} | {vtxt} |"
        )
    theirs = [r for r in rows if "graphify_cli_ms" in r]
    if theirs:
        print("\n| corpus | graphify 0.9.96 query / path / explain per process, ms (CPU ms) | ours / graphify (wall) |")
        print("|---|---|---|")
        for r in theirs:
            g, o = r["graphify_cli_ms"], r["cli_ms"]
            ratios = " / ".join(f"{o[k][0] / g[k][0]:.2f}" for k in ("query", "path", "explain"))
            lat = " / ".join(f"{g[k][0]:.0f} ({g[k][1]:.0f})" for k in ("query", "path", "explain"))
            print(f"| {r['corpus']} | {lat} | {ratios} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", action="append", default=[], help="NAME=DIR (repeatable)")
    parser.add_argument("--synthetic", type=int, default=0, help="benchmark a synthetic graph of this many files")
    parser.add_argument("--graphify", default=str(CACHE / "graphify-venv"), help="venv with graphifyy 0.9.96")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print raw rows as JSON too")
    args = parser.parse_args()
    corpora = [tuple(c.split("=", 1)) for c in args.corpus]
    if not corpora and not args.synthetic:
        corpora = [
            (n, str(CACHE / "corpora" / n)) for n in ("flask", "django", "vite") if (CACHE / "corpora" / n).is_dir()
        ]
    rows = []
    for name, path in corpora:
        print(f"… {name}", file=sys.stderr)
        rows.append(bench_corpus(name, Path(path), args))
    if args.synthetic:
        rows.append(bench_synthetic(args.synthetic, args))
    if args.json:
        print(json.dumps(rows, indent=1))
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"\nmachine: {os.cpu_count()} cores, load average {load} at the end of the run (wall times scale with it)")
    print_table(rows)


if __name__ == "__main__":
    main()
