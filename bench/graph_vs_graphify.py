"""Benchmark: `skillbox graph build` against graphify (graphifyy 0.9.96) and the plain tree-sitter parse floor.

Side by side in one run, on the same copies of the corpora:
- cold: output folder removed first;
- edit1: a comment appended to one file, then a build (the protocol of shared/facts/graphify.md; the graph does
  not change, so skillbox keeps graph.json and its outputs);
- edit1-body: a new function calling existing code appended to the same file (the graph changes: the use outputs
  are rewritten, the query index updated);
- nochange: an immediate re-run;
- peak RSS (from `/usr/bin/time -v`) of the cold build.
skillbox's cold build runs `--cold-runs` times (default 3) and its median counts; graphify's runs once (its
cold builds take 30-200 s and move by a few percent).
The floor is a single-process `Parser.parse` of every file skillbox parses, pre-read into memory, measured in
rounds between skillbox's cold builds (median of the rounds).

Corpora live in a cache folder outside the repository (default ~/.cache/skillbox-graph): flask and vite are
unpacked from git directories (`--flask-git`, `--vite-git`, `--svelte-git`: any clone/mirror at the pinned commits;
svelte is the TS/JS corpus of many small files), Django from
its PyPI sdist. The peer is installed into its own venv there and runs with a throwaway HOME and
GRAPHIFY_BACKEND=none (no LLM).

    python bench/graph_vs_graphify.py --flask-git PATH --vite-git PATH [--corpora flask,vite,django] [--no-peer]
    python bench/graph_vs_graphify.py --svelte-git PATH --corpora svelte
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))

PINS = {"flask": "2ac89889f4cc", "vite": "a98c8d95d552", "svelte": "15720b16a5"}
DJANGO = "django==5.2.19"
PEER = "graphifyy==0.9.96"
EDIT = {
    "flask": "src/flask/app.py",
    "vite": "packages/vite/src/node/config.ts",
    "svelte": "packages/svelte/src/internal/client/runtime.js",
    "django": "django/db/models/query.py",
}
BODY_EDIT = {
    "flask": b"\n\ndef bench_edit_fn():\n    return Flask(__name__)\n",
    "vite": b"\n\nexport function benchEditFn(): unknown {\n  return resolveConfig\n}\n",
    "svelte": b"\n\nexport function bench_edit_fn() {\n  return get(null)\n}\n",
    "django": b"\n\ndef bench_edit_fn():\n    return QuerySet()\n",
}
SECRETS = (
    "ANTHROPIC_API_KEY",
    "OPENAI_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "MOONSHOT_API_KEY",
    "DEEPSEEK_API_KEY",
)


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def ensure_corpus(name: str, cache: Path, git_dirs: dict[str, str | None]) -> Path:
    target = cache / "corpora" / name
    if target.is_dir() and any(target.iterdir()):
        return target
    if name == "django":
        dl = cache / "dl"
        dl.mkdir(parents=True, exist_ok=True)
        sh([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:", DJANGO, "-d", str(dl)])
        tmp = cache / "corpora" / "_django"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        sh(["tar", "xzf", str(dl / "django-5.2.19.tar.gz"), "-C", str(tmp)])
        (tmp / "django-5.2.19").rename(target)
        tmp.rmdir()
        return target
    git_dir = git_dirs.get(name)
    if not git_dir:
        raise SystemExit(f"corpus {name} missing: pass --{name}-git with a clone of it (commit {PINS[name]})")
    target.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "--git-dir", git_dir, "archive", PINS[name]], check=True, capture_output=True)
    subprocess.run(["tar", "x", "-C", str(target)], input=archive.stdout, check=True)
    return target


def ensure_peer(cache: Path) -> Path:
    venv = cache / "graphify-venv"
    exe = venv / "bin" / "graphify"
    if not exe.exists():
        sh([sys.executable, "-m", "venv", str(venv)])
        sh([str(venv / "bin" / "pip"), "install", "-q", PEER])
    return exe


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, int, str]:
    """(wall seconds, peak RSS MB, stdout) via GNU time."""
    proc = subprocess.run(["/usr/bin/time", "-v", *cmd], cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed in {cwd}: {proc.stderr[-800:]}")
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", proc.stderr)
    hours = int(wall.group(1) or 0)
    seconds = hours * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr).group(1)) // 1024
    return seconds, rss, proc.stdout


def protocol(run, reset, edit_path: Path, body: bytes, cold_runs: int = 1, between=None) -> dict:
    """cold, nochange, edit1, edit1-body for one tool; the corpus is restored afterwards.

    With `cold_runs` > 1 the cold build runs that many times (output removed before each) and counts with its
    median: a two-second build moves by ±10% between runs on this machine, and so does the floor, which is why
    `between` (one round of the floor) runs right after each cold build: both see the same machine."""
    colds = []
    for _ in range(cold_runs):
        reset()
        seconds, rss, _ = run()
        colds.append((seconds, rss))
        if between is not None:
            between()
    cold = statistics.median(seconds for seconds, _rss in colds)
    rss = max(rss for _seconds, rss in colds)
    nochange, _, _ = run()
    original = edit_path.read_bytes()
    try:
        edit_path.write_bytes(original + b"\n// edit\n" if edit_path.suffix != ".py" else original + b"\n# edit\n")
        edit1, _, _ = run()
        edit_path.write_bytes(original + body)
        edit1_body, _, _ = run()
    finally:
        edit_path.write_bytes(original)
    return {
        "cold": cold,
        "cold_runs": [seconds for seconds, _rss in colds],
        "nochange": nochange,
        "edit1": edit1,
        "edit1-body": edit1_body,
        "rss": rss,
    }


class ParseFloor:
    """Parsing every file skillbox parses, in this one process, sources pre-read into memory.

    `round()` parses them all twice and keeps the faster pass (the first warms the parsers up); the floor is the
    median of the rounds, which the bench takes between skillbox's cold builds."""

    def __init__(self, root: Path):
        from skillbox.graph import ts
        from skillbox.graph.languages import by_name
        from skillbox.graph.walk import walk_tree

        walked = walk_tree(root, exclude=(root / "skillbox-out", root / "graphify-out"))
        specs = by_name()
        self.items = []
        for rel, lang, _size, _mtime in walked.files:
            spec = specs.get(lang)
            if spec is not None:
                self.items.append((ts.parser(spec), (root / rel).read_bytes()))
        self.rounds: list[float] = []

    @property
    def files(self) -> int:
        return len(self.items)

    @property
    def bytes(self) -> int:
        return sum(len(data) for _parser, data in self.items)

    def round(self) -> float:
        best = float("inf")
        for _ in range(2):
            started = time.perf_counter()
            for parser, data in self.items:
                parser.parse(data)
            best = min(best, time.perf_counter() - started)
        self.rounds.append(best)
        return best

    @property
    def seconds(self) -> float:
        return statistics.median(self.rounds)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", default=str(Path.home() / ".cache" / "skillbox-graph"))
    ap.add_argument("--corpora", default="flask,vite,django")
    ap.add_argument("--flask-git")
    ap.add_argument("--vite-git")
    ap.add_argument("--svelte-git", help="a clone of sveltejs/svelte (commit 15720b16a5), many small JS files")
    ap.add_argument("--no-peer", action="store_true", help="skip graphify (ours and the floor only)")
    ap.add_argument("--json", help="also write the raw figures to this file")
    ap.add_argument("--cold-runs", type=int, default=3, help="skillbox cold builds per corpus (median counts)")
    args = ap.parse_args()
    cache = Path(args.cache)
    peer = None if args.no_peer else ensure_peer(cache)
    home = cache / "home"
    home.mkdir(parents=True, exist_ok=True)
    base_env = {k: v for k, v in os.environ.items() if k not in SECRETS}
    # This run's own folder for the code snapshot and the corpus copies: two runs sharing a cache (two checkouts
    # compared in turn, or at once by two sessions) must not replace each other's code or corpus mid-run.
    (cache / "runs").mkdir(parents=True, exist_ok=True)
    run_dir = Path(tempfile.mkdtemp(prefix="run-", dir=cache / "runs"))
    try:
        _run(args, cache, run_dir, peer, base_env, home)
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)


def _run(args, cache: Path, run_dir: Path, peer: Path | None, base_env: dict, home: Path) -> None:
    # A snapshot of the code under test: edits to the working tree during a long run do not mix versions.
    snapshot = run_dir / "tools"
    shutil.copytree(REPO / "tools", snapshot, ignore=shutil.ignore_patterns("__pycache__"))
    # Byte-compiled like an installed package: the first cold build must not pay for compiling our modules.
    sh([sys.executable, "-m", "compileall", "-q", str(snapshot)])
    ours_env = {**base_env, "PYTHONPATH": str(snapshot)}
    peer_env = {**base_env, "HOME": str(home), "GRAPHIFY_BACKEND": "none", "GRAPHIFY_NO_TIPS": "1"}

    results = {}
    for name in args.corpora.split(","):
        git_dirs = {"flask": args.flask_git, "vite": args.vite_git, "svelte": args.svelte_git}
        source = ensure_corpus(name, cache, git_dirs)
        results[name] = bench_corpus(name, source, run_dir, peer, ours_env, peer_env, args.cold_runs)
        print_table({name: results[name]})
    print()
    print_table(results)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2, default=str))


def bench_corpus(
    name: str, source: Path, run_dir: Path, peer: Path | None, ours_env: dict, peer_env: dict, cold_runs: int = 1
) -> dict:
    work = run_dir / "work" / name
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(source, work, symlinks=True)
    edit_path = work / EDIT[name]
    row: dict = {}
    build = [sys.executable, "-m", "skillbox", "graph", "build", ".", "--json"]

    def ours():
        seconds, rss, out = timed(build, work, ours_env)
        summary = json.loads(out)
        row.setdefault("ours_summary", summary)
        row.setdefault("ours_stages", []).append(summary.get("seconds"))
        return seconds, rss, out

    body = BODY_EDIT[name]
    floor = ParseFloor(work)
    row["ours"] = protocol(
        ours, lambda: shutil.rmtree(work / "skillbox-out", ignore_errors=True), edit_path, body, cold_runs, floor.round
    )
    # Neither tool may see the other's outputs: graphify would scan skillbox-out's report and viewer as documents.
    shutil.rmtree(work / "skillbox-out", ignore_errors=True)
    if peer is not None:
        row["peer"] = protocol(
            lambda: timed([str(peer), "update", "."], work, peer_env),
            lambda: shutil.rmtree(work / "graphify-out", ignore_errors=True),
            edit_path,
            body,
        )
    if len(floor.rounds) < 3:
        for _ in range(3 - len(floor.rounds)):
            floor.round()
    row["floor"], row["floor_rounds"], row["floor_files"], row["floor_bytes"] = (
        floor.seconds,
        floor.rounds,
        floor.files,
        floor.bytes,
    )
    shutil.rmtree(work, ignore_errors=True)
    return row


def print_table(results: dict) -> None:
    print("| corpus | files (MB) | run | skillbox | graphify | graphify / skillbox | skillbox / parse floor |")
    print("|---|---|---|---|---|---|---|")
    for name, row in results.items():
        ours, peer, floor = row["ours"], row.get("peer"), row["floor"]
        size = f"{row['floor_files']} ({row['floor_bytes'] / 1e6:.1f})"
        for run in ("cold", "edit1", "edit1-body", "nochange"):
            theirs = f"{peer[run]:.2f} s" if peer else "-"
            ratio = f"{peer[run] / ours[run]:.1f}x" if peer else "-"
            vs_floor = f"{ours[run] / floor:.2f}x (floor {floor:.2f} s)" if run == "cold" else "-"
            print(f"| {name} | {size} | {run} | {ours[run]:.2f} s | {theirs} | {ratio} | {vs_floor} |")
        theirs = f"{peer['rss']} MB" if peer else "-"
        ratio = f"{peer['rss'] / ours['rss']:.1f}x" if peer else "-"
        print(f"| {name} | {size} | peak RSS (cold) | {ours['rss']} MB | {theirs} | {ratio} | - |")
    for name, row in results.items():
        colds = row["ours"].get("cold_runs", [])
        if len(colds) > 1:
            print(f"  skillbox {name} cold runs (s): {', '.join(f'{c:.2f}' for c in colds)} (median counts)")
        rounds = row.get("floor_rounds", [])
        if rounds:
            best = min(colds) / min(rounds) if colds else 0
            print(
                f"  parse floor {name} rounds (s): {', '.join(f'{r:.3f}' for r in rounds)} (median counts; "
                f"fastest build / fastest floor: {best:.2f}x)"
            )
        runs = [*(["cold"] * max(1, len(colds))), "nochange", "edit1", "edit1-body"]
        for run, stages in zip(runs, row.get("ours_stages", []), strict=False):
            print(f"  skillbox {name} {run} stages (s): {stages}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
