"""Benchmark of graph communities (skillbox.graph.cluster): CPU seconds on real graphs, and stability.

    python bench/graph_communities.py [GRAPH_JSON ...] [--runs N] [--edits K]

Graphs default to ~/.cache/skillbox-graphuse/bench-out/{django,vite,flask}/graph.json (written by
bench/graph_use.py). Each graph is measured in a fresh process, as a build would run it:
- import: importing igraph + leidenalg;
- first call: cold detect + write right after loading, garbage collector as it is (a full collection owed by the
  loading of ~500k objects may land in it: it is shown, not hidden);
- cold / seeded: detect + write (seeded also reads the previous communities.json), best of N, after the loaded
  graph was moved out of the collector's way (gc.freeze), so the figure is this module's own work;
- edits: K one-file edits (drop a file's outgoing calls, add a function calling three other files), each seeded
  from the unchanged graph's partition; the largest share of nodes that changed community.
The target (issue #4): detect + describe + write <= 0.25 s on Django; the ratio column is seconds / 0.25.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))
DEFAULTS = [
    Path.home() / ".cache" / "skillbox-graphuse" / "bench-out" / n / "graph.json" for n in ("django", "vite", "flask")
]
TARGET_S = 0.25


def cpu(fn):
    started = time.process_time()
    result = fn()
    return time.process_time() - started, result


def measure(graph_path: Path, runs: int, edits: int) -> dict:
    import orjson

    from skillbox.graph.code_graph import from_node_link

    started = time.process_time()
    data = orjson.loads(graph_path.read_bytes())
    graph = from_node_link(data, graph_path)
    row = {"graph": str(graph_path), "nodes": len(graph.nodes), "edges": len(graph.edges)}
    row["load_s"] = time.process_time() - started

    from skillbox.graph import cluster

    row["import_s"], _ = cpu(cluster.import_clustering)
    out = Path(tempfile.mkdtemp()) / "communities.json"
    row["first_call_s"], partition = cpu(lambda: cluster.write_communities(cluster.detect_communities(graph), out))
    gc.collect()
    gc.freeze()
    colds, seededs, writes = [], [], []
    for _ in range(runs):
        seconds, partition = cpu(lambda: cluster.detect_communities(graph, {}))
        write_s, _ = cpu(lambda p=partition: cluster.write_communities(p, out))
        colds.append(seconds + write_s)
        writes.append(write_s)
        seconds, seeded = cpu(lambda: _seeded_run(cluster, graph, out))
        seededs.append(seconds)
    row.update(cold_s=min(colds), seeded_s=min(seededs), write_s=min(writes), moved_unchanged=seeded.moved)
    row["communities"] = len([c for c in seeded.communities if not c.isolated])
    row["edit_moved_max_pct"] = _edits(data, seeded.membership(), edits) if edits else None
    return row


def _seeded_run(cluster, graph, out: Path):
    """What a later build does: read the previous partition, cluster from it, write."""
    partition = cluster.detect_communities(graph, cluster.read_previous(out))
    cluster.write_communities(partition, out)
    return partition


def _edits(data: dict, previous: dict[str, int], count: int) -> float:
    """Largest share of nodes (in %) that changed community after one simulated one-file edit."""
    from skillbox.graph.cluster import detect_communities
    from skillbox.graph.code_graph import from_node_link

    rng = random.Random(7)
    by_file: dict[str, list[str]] = {}
    for node in data["nodes"]:
        if node.get("file") and node.get("kind") != "file":
            by_file.setdefault(node["file"], []).append(node["id"])
    files = sorted(by_file)
    worst = 0.0
    for _ in range(count):
        edited = rng.choice(files)
        fresh = f"{edited}::bench_edit"
        nodes = [*data["nodes"], {"id": fresh, "kind": "function", "name": "bench_edit", "file": edited, "line": 1}]
        links = [link for link in data["links"] if not (link.get("file") == edited and link.get("relation") == "calls")]
        links.append({"source": edited, "target": fresh, "relation": "contains", "confidence": "EXTRACTED"})
        for other in rng.sample(files, 3):
            target = rng.choice(by_file[other])
            links.append({"source": fresh, "target": target, "relation": "calls", "confidence": "EXTRACTED"})
        moved = detect_communities(from_node_link({"nodes": nodes, "links": links}), previous).moved or 0
        worst = max(worst, 100 * moved / len(data["nodes"]))
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("graphs", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.one, args.runs, args.edits)))
        return
    graphs = args.graphs or [p for p in DEFAULTS if p.is_file()]
    if not graphs:
        sys.exit("no graph.json given and none under ~/.cache/skillbox-graphuse/bench-out (run bench/graph_use.py)")
    print(
        "| graph | nodes / edges | import s | first call s (GC as is) | cold s | seeded s | of which write s "
        "| seeded / 0.25 s | communities | moved, unchanged | moved, one-file edit (max %) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for graph in graphs:
        cmd = [sys.executable, __file__, "--one", str(graph), "--runs", str(args.runs), "--edits", str(args.edits)]
        row = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
        name = graph.parent.name if graph.name == "graph.json" else graph.name
        edit = f"{row['edit_moved_max_pct']:.2f}" if row["edit_moved_max_pct"] is not None else "-"
        print(
            f"| {name} | {row['nodes']} / {row['edges']} | {row['import_s']:.3f} | {row['first_call_s']:.3f} "
            f"| {row['cold_s']:.3f} | {row['seeded_s']:.3f} | {row['write_s']:.3f} | {row['seeded_s'] / TARGET_S:.2f} "
            f"| {row['communities']} | {row['moved_unchanged']} | {edit} |"
        )


if __name__ == "__main__":
    main()
