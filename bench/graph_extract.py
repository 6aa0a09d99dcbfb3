"""Benchmark: the CPU cost of per-file extraction, split into tree-sitter's share and ours.

Extraction is what a cold `skillbox graph build` spends most of its CPU on. This measures, per corpus, with
process CPU time (not wall time: the machine is shared) and the garbage collector off (as in a build):

- parse:       `Parser.parse` of every source file (the floor `graph_vs_graphify.py` divides by);
- query:       `QueryCursor.matches` on those trees;
- worker:      everything else a worker does per file (read, hash, walk the matches, hooks, docstrings, interface
               digest, seal), measured by replaying the parsed trees and matches so parse and query are not in it;
- parent:      what the build process does with each fresh result (unseal + `from_plain`).

With `--base DIR` the same figures are taken for another checkout's `tools/` (e.g. a `git worktree` of main)
in the same run, alternating, and the table shows new / base ratios. Corpora are read from
~/.cache/skillbox-graph/corpora/<name> (see graph_vs_graphify.py), never written to.

    python bench/graph_extract.py [--corpora vite,django] [--rounds 5] [--base /tmp/main-checkout]

With `--stage` it measures instead the whole extraction stage of a cold build, as `build_graph` runs it (the
process pool or the shared extraction, warm-up, imports, the records): wall time, the build process's CPU and
its children's (the workers), each cold run in a fresh process, versions interleaved, medians of `--repeat`
runs. That is where the time around the workers' own CPU shows (pool start, serial warm-up, the records).

    python bench/graph_extract.py --stage --corpora django,svelte --repeat 3 --base /tmp/main-checkout
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPORA = Path.home() / ".cache" / "skillbox-graph" / "corpora"
STAGES = ("parse", "query", "worker", "parent")


def measure(corpus: Path, rounds: int) -> dict:
    """Runs inside a subprocess whose PYTHONPATH selects the code under test."""
    from skillbox.graph import ts, worker
    from skillbox.graph.cache import unseal
    from skillbox.graph.languages import by_name
    from skillbox.graph.records import from_plain
    from skillbox.graph.source_text import as_utf8
    from skillbox.graph.walk import walk_tree

    specs = by_name()
    code, items = [], []
    for rel, lang, _size, _mtime in walk_tree(corpus).files:
        if lang not in specs:
            continue
        # The bytes the worker hands the parser (a BOM dropped, another encoding re-encoded), and only the files it
        # parses at all: the replay below is keyed by them.
        text = as_utf8((corpus / rel).read_bytes(), lang)
        if isinstance(text, str) or worker.classify(text[0]):
            continue
        code.append((rel, lang))
        items.append((text[0], specs[lang]))

    def best(fn) -> float:
        times = []
        for _ in range(rounds):
            gc.collect()
            gc.disable()
            started = time.process_time()
            fn()
            times.append(time.process_time() - started)
            gc.enable()
        return min(times)

    def parse():
        for data, spec in items:
            ts.parser(spec).parse(data)

    def parse_and_query():
        for data, spec in items:
            ts.run_query(ts.query(spec), ts.parser(spec).parse(data).root_node)

    worker.extract_batch(str(corpus), {}, code[:20])  # imports, compiled queries
    parse_s = best(parse)
    query_s = max(best(parse_and_query) - parse_s, 0.0)

    # Replay: the worker gets the trees and matches computed here instead of parsing and querying again.
    replay = {}
    for data, spec in items:
        tree = ts.parser(spec).parse(data)
        replay[(data, spec.name)] = (tree, ts.run_query(ts.query(spec), tree.root_node))
    current: dict = {}

    class ReplayParser:
        def __init__(self, spec):
            self.name = spec.name

        def parse(self, data):
            current["key"] = (data, self.name)
            return replay[current["key"]][0]

    real_parser, real_run = ts.parser, ts.run_query
    ts.parser = ReplayParser
    ts.run_query = lambda _query, _node: replay[current["key"]][1]
    try:
        # A fresh engine cache: engines built now hold the replaying parser.
        from skillbox.graph import extract

        getattr(extract, "_ENGINES", {}).clear()
        blobs: list = []

        def work():
            blobs[:] = []
            blobs[:] = worker.extract_batch(str(corpus), {}, code)

        worker_s = best(work)
    finally:
        ts.parser, ts.run_query = real_parser, real_run
        getattr(extract, "_ENGINES", {}).clear()

    def parent():
        for _rel, _key, blob in blobs:
            if blob is not None:
                plain, _reason = unseal(blob)
                from_plain(plain)

    parent_s = best(parent)
    return {"files": len(items), "parse": parse_s, "query": query_s, "worker": worker_s, "parent": parent_s}


def measure_stage(corpus: Path) -> dict:
    """One cold extraction stage in this fresh process: the plan (walk) first, then `build.extract` timed."""
    import resource

    from skillbox.graph import build

    def cpu(who) -> float:
        usage = resource.getrusage(who)
        return usage.ru_utime + usage.ru_stime

    out = Path(tempfile.mkdtemp(prefix="skillbox-bench-stage-"))
    try:
        plan = build.make_plan(corpus, out, True, build.DEFAULT_MAX_BYTES, {}, lambda *a: None)
        gc.disable()  # as `build_graph` does
        parent, children, started = cpu(resource.RUSAGE_SELF), cpu(resource.RUSAGE_CHILDREN), time.perf_counter()
        extracted = build.extract(plan, None, {}, lambda *a: None)
        wall = time.perf_counter() - started
        parent = cpu(resource.RUSAGE_SELF) - parent
        children = cpu(resource.RUSAGE_CHILDREN) - children
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return {"files": len(extracted.records), "wall": wall, "parent": parent, "children": children}


def run_one(tools: Path, corpus: Path, rounds: int, stage: bool = False) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tools)}
    cmd = [sys.executable, __file__, "--measure", str(corpus), "--rounds", str(rounds)]
    if stage:
        cmd.append("--stage")
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpora", default="vite,django")
    ap.add_argument("--rounds", type=int, default=5, help="best of this many passes per stage")
    ap.add_argument("--repeat", type=int, default=2, help="alternating runs per version (best is kept)")
    ap.add_argument("--base", help="another checkout whose tools/ to measure alongside")
    ap.add_argument("--stage", action="store_true", help="the whole extraction stage of cold builds (see above)")
    ap.add_argument("--measure", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.measure:
        corpus = Path(args.measure)
        print(json.dumps(measure_stage(corpus) if args.stage else measure(corpus, args.rounds)))
        return
    # Snapshots of the code under test: edits to a working tree during a long run do not mix versions.
    snapshots = Path(tempfile.mkdtemp(prefix="skillbox-bench-extract-"))
    versions = {"this": REPO / "tools"}
    if args.base:
        versions = {"base": Path(args.base) / "tools", **versions}
    for version, tools in list(versions.items()):
        versions[version] = snapshots / version
        shutil.copytree(tools, versions[version], ignore=shutil.ignore_patterns("__pycache__"))
    try:
        (report_stage if args.stage else report)(args, versions)
    finally:
        shutil.rmtree(snapshots, ignore_errors=True)


def report(args, versions: dict[str, Path]) -> None:
    print("| corpus | code | files | parse | query | worker Python | parent | Python / parse |")
    print("|---|---|---|---|---|---|---|---|")
    for name in args.corpora.split(","):
        corpus = CORPORA / name
        best: dict[str, dict] = {}
        for _ in range(args.repeat):
            for version, tools in versions.items():
                row = run_one(tools, corpus, args.rounds)
                kept = best.setdefault(version, row)
                for stage in STAGES:
                    kept[stage] = min(kept[stage], row[stage])
        for version, row in best.items():
            python = row["worker"] + row["parent"]
            cells = " | ".join(f"{row[stage]:.3f} s" for stage in STAGES)
            print(f"| {name} | {version} | {row['files']} | {cells} | {python / row['parse']:.2f}x |")
        if "base" in best:
            base, this = best["base"], best["this"]
            ratios = " | ".join(f"{this[stage] / base[stage]:.2f}" for stage in STAGES)
            python = (this["worker"] + this["parent"]) / (base["worker"] + base["parent"])
            print(f"| {name} | this / base | | {ratios} | {python:.2f} |")


def report_stage(args, versions: dict[str, Path]) -> None:
    import statistics

    fields = ("wall", "parent", "children")
    print(f"medians of {args.repeat} cold runs per version, interleaved; CPU = user + system")
    print("| corpus | code | files | extract stage wall | build process CPU | children CPU | total CPU |")
    print("|---|---|---|---|---|---|---|")
    for name in args.corpora.split(","):
        corpus = CORPORA / name
        runs: dict[str, list[dict]] = {version: [] for version in versions}
        for _ in range(args.repeat):
            for version, tools in versions.items():
                runs[version].append(run_one(tools, corpus, 1, stage=True))
        medians = {}
        for version, rows in runs.items():
            row = {field: statistics.median(r[field] for r in rows) for field in fields}
            row["total"] = statistics.median(r["parent"] + r["children"] for r in rows)
            medians[version] = row
            cells = " | ".join(f"{row[field]:.3f} s" for field in (*fields, "total"))
            print(f"| {name} | {version} | {rows[0]['files']} | {cells} |")
        if "base" in medians:
            base, this = medians["base"], medians["this"]
            ratios = " | ".join(f"{this[f] / base[f]:.2f}" if base[f] else "-" for f in (*fields, "total"))
            print(f"| {name} | this / base | | {ratios} |")


if __name__ == "__main__":
    main()
