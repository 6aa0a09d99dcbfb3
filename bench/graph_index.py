"""Benchmark of the graph's query index on a built graph (Django's by default).

    python bench/graph_index.py [--graph-dir DIR] [--runs N] [--baseline TOOLS_DIR]

Works on a copy of DIR (graph.json + communities.json) in a temp folder, never on DIR itself. Prints:
- cold `write_index` (target <= 0.8 s);
- `update_index` after a one-file edit (a method deleted, a function added, lines shifted, one community member
  moved; target <= 0.1 s), and whether its answers equal a freshly written index's;
- warm in-process query/path/explain/affected on one open index, the way `skillbox graph mcp` serves them
  (the MCP target is <= 20 ms per call including the stdio round trip; bench/graph_use.py measures that).
Each figure is a median of N, wall and CPU (CPU does not grow with the machine's load). `--baseline DIR` times
another checkout's `tools/` folder (e.g. an export of main) on the same graph in the same run and prints ratios.
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_DIR = Path("/work/bench-data/django-out")
QUESTION = "how does the queryset filter build a where clause"
TOOLS = Path(__file__).resolve().parents[1] / "tools"


def load_tools(tools: Path):
    """Import skillbox from `tools` (dropping any skillbox already imported), return (index writer, index reader,
    query, code graph module); a tree from before the reader/writer split has both in `index`, and calls the
    code graph module `graphfile`."""
    for name in [m for m in sys.modules if m == "skillbox" or m.startswith("skillbox.")]:
        del sys.modules[name]
    sys.path.insert(0, str(tools))
    try:
        graph_module = "code_graph" if (tools / "skillbox/graph/code_graph.py").exists() else "graphfile"
        index, query, graphfile = (
            importlib.import_module(f"skillbox.graph.{m}") for m in ("index", "query", graph_module)
        )
        writer = (
            importlib.import_module("skillbox.graph.index_writer")
            if (tools / "skillbox/graph/index_writer.py").exists()
            else index
        )
        return writer, index, query, graphfile
    finally:
        sys.path.pop(0)


def timed(fn, runs: int) -> tuple[float, float, object]:
    """Median wall ms and CPU ms of `fn()` over `runs`, and its last result."""
    walls, cpus, result = [], [], None
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        result = fn()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return round(statistics.median(walls) * 1000, 1), round(statistics.median(cpus) * 1000, 1), result


def one_file_edit(graph, graphfile, out_dir: Path):
    """The graph after editing one file of it, the file, and a communities.json to match."""
    import orjson

    Edge, CodeGraph = graphfile.Edge, graphfile.CodeGraph
    file = "django/db/models/sql/where.py"
    nodes = {k: dict(v) for k, v in graph.nodes.items()}
    in_file = [n for n, d in nodes.items() if d.get("file") == file]
    victim = next(
        n
        for n in in_file
        if nodes[n]["kind"] in ("function", "method")
        and all(nodes[e.source].get("file") == file for e in graph.in_edges.get(n, []))
    )
    del nodes[victim]
    edges = [e for e in graph.edges if victim not in (e.source, e.target)]
    for n in in_file:
        if n in nodes and nodes[n].get("line", 0) > 50:
            nodes[n]["line"] += 3
    added = f"{file}::brand_new_helper"
    nodes[added] = {"id": added, "kind": "function", "name": "brand_new_helper", "file": file, "line": 9999}
    edges.append(Edge(file, added, "contains", "EXTRACTED", file, 9999, None))
    edges.append(Edge(added, "django/db/models/base.py::Model", "calls", "EXTRACTED", file, 10000, None))
    data = orjson.loads((out_dir / "communities.json").read_bytes())
    for community in data["communities"]:
        if victim in community["members"]:
            community["members"].remove(victim)
            community["members"].append(added)
    data["communities"][2]["members"].append(data["communities"][1]["members"].pop())
    return CodeGraph(path=graph.path, meta=graph.meta, nodes=nodes, edges=edges), file, orjson.dumps(data)


def answers(index_mod, query_mod, graph_path: Path, index_file: Path, names: list[str]) -> list:
    index = index_mod.GraphIndex(graph_path, sqlite3.connect(index_file))
    out = [query_mod.query(index, QUESTION)["text"]]
    for i, name in enumerate(names):
        out.append(query_mod.explain(index, name)["text"])
        out.append(query_mod.affected(index, name)["text"])
        out.append(query_mod.path(index, name, names[(i + 3) % len(names)])["text"])
    index.close()
    return out


def measure(tools: Path, source_dir: Path, runs: int) -> dict:
    writer_mod, index_mod, query_mod, graphfile = load_tools(tools)
    work = Path(tempfile.mkdtemp(prefix="skillbox-bench-index-"))
    try:
        for name in ("graph.json", "communities.json"):
            shutil.copy(source_dir / name, work / name)
        graph_path = work / "graph.json"
        graph = graphfile.load_graph(graph_path)
        fig: dict = {}
        fig["write"] = timed(lambda: writer_mod.write_index(graph, graph_path, work / "cold.sqlite"), runs)[:2]

        index = index_mod.GraphIndex.open(graph_path)
        gods = [g["id"] for g in query_mod.god_nodes(index, 12) if "test" not in g["id"]]
        calls = {
            "query": lambda: query_mod.query(index, QUESTION),
            "path": lambda: query_mod.path(index, gods[0], gods[1]),
            "explain": lambda: query_mod.explain(index, gods[0]),
            "affected": lambda: query_mod.affected(index, gods[0]),
        }
        for name, call in calls.items():
            call()  # the first call fills the warm caches
            fig[name] = timed(call, max(runs, 10))[:2]
        index.close()

        if hasattr(writer_mod, "update_index"):
            before = work / "before.sqlite"
            writer_mod.write_index(graph, graph_path, before)
            edited, file, communities = one_file_edit(graph, graphfile, work)
            (work / "communities.json").write_bytes(communities)
            samples = []
            for i in range(runs):
                target = work / f"update-{i}.sqlite"
                shutil.copy(before, target)
                samples.append(timed(lambda t=target: writer_mod.update_index(edited, graph_path, {file}, t), 1))
            fig["update"] = (
                statistics.median(s[0] for s in samples),
                statistics.median(s[1] for s in samples),
            )
            fresh = writer_mod.write_index(edited, graph_path, work / "fresh.sqlite")
            names = [*gods[:6], f"{file}::brand_new_helper"]
            updated = work / f"update-{runs - 1}.sqlite"
            same = answers(index_mod, query_mod, graph_path, updated, names) == answers(
                index_mod, query_mod, graph_path, fresh, names
            )
            fig["update_equal"] = same
            fig["update_size"] = round(updated.stat().st_size / fresh.stat().st_size, 3)
        return fig
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--graph-dir", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="another checkout's tools/ folder to compare with")
    args = parser.parse_args()
    ours = measure(TOOLS, args.graph_dir, args.runs)
    base = measure(args.baseline, args.graph_dir, args.runs) if args.baseline else None
    print(f"graph index on {args.graph_dir} (median of {args.runs}; ms wall / ms CPU)")
    header = f"{'step':<10} {'ours wall':>10} {'ours cpu':>9} {'target':>8}"
    if base:
        header += f" {'base wall':>10} {'base cpu':>9} {'cpu ratio':>9}"
    print(header)
    targets = {"write": 800, "update": 100, "query": 20, "path": 20, "explain": 20, "affected": None}
    for step, target in targets.items():
        if step not in ours:
            continue
        wall, cpu = ours[step]
        line = f"{step:<10} {wall:>10} {cpu:>9} {target or '-':>8}"
        if base and step in base:
            ratio = round(cpu / base[step][1], 2) if base[step][1] else "-"
            line += f" {base[step][0]:>10} {base[step][1]:>9} {ratio:>9}"
        print(line)
    if "update_equal" in ours:
        print(f"update answers equal a fresh index: {ours['update_equal']}; size vs fresh: {ours['update_size']}x")


if __name__ == "__main__":
    main()
