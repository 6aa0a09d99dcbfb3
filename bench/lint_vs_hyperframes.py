"""Compare `skillbox lint` with the HyperFrames CLI linter (`hyperframes lint`, npm hyperframes@0.8.170).

Agreement: over the corpus in tests/fixtures/lint/corpus/ (one project per folder), findings of the codes both
linters define are matched per (project, file, code): "both" = min(ours, peer), the rest is "only us" / "only
peer". Speed, three modes, each labelled in the output:
  1. per project, one process each (what a user runs: `skillbox lint DIR` vs `hyperframes lint DIR`), the two
     interleaved project by project with a bare `python -I -c pass` (the interpreter floor); median wall and CPU
     (user+sys, from each child's rusage) per project — the headline figure, always cold (no result cache);
 1b. the same with `--cache` when the cache holds the unchanged result: an additional, labelled mode;
  2. whole corpus: one `skillbox lint` process over every project vs the sum of the peer's per-project processes
     (the peer accepts one project per run) — a batch figure, not what one user run costs;
  3. in-process per file: parse + every rule, best of N runs per file, median over files.

Setup (outside the repository):
    mkdir -p ~/.cache/skillbox-bench/hyperframes && cd ~/.cache/skillbox-bench/hyperframes
    npm init -y && npm install --ignore-scripts hyperframes@0.8.170
Run: python bench/lint_vs_hyperframes.py [--corpus DIR] [--peer-dir DIR] [--repeat N] [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))

from skillbox.lint.document import parse_document  # noqa: E402
from skillbox.lint.engine import composition_files, lint_document  # noqa: E402
from skillbox.lint.registry import all_rules  # noqa: E402

PEER_ENV = {"HYPERFRAMES_NO_TELEMETRY": "1", "DO_NOT_TRACK": "1", "HYPERFRAMES_NO_UPDATE_CHECK": "1", "CI": "1"}


def peer_codes(peer_dir: Path) -> set[str]:
    """Every finding code the peer's bundled linter can emit (string literals `code: "..."`)."""
    import re

    codes: set[str] = set()
    for chunk in (peer_dir / "node_modules" / "hyperframes" / "dist").glob("*.js"):
        text = chunk.read_text(encoding="utf-8", errors="replace")
        if "lintHyperframeHtml" in text or "lintProject" in text:
            codes |= set(re.findall(r'code: "([a-z0-9_]+)"', text))
    return codes


def _timed(cmd: list[str], **kwargs) -> tuple[str, float, float]:
    """(stdout, wall seconds, CPU seconds of the child: user + sys). CPU comes from the child's own rusage
    (`os.wait4`, microseconds), not `os.times()`, whose 10 ms clock ticks are too coarse for a 40 ms process."""
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, **kwargs)
    out = proc.stdout.read()
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0  # reaped by wait4 above
    wall = time.perf_counter() - started
    return out, wall, usage.ru_utime + usage.ru_stime


def _ours_env() -> dict:
    """An installed skillbox has its bytecode cached; PYTHONDONTWRITEBYTECODE (set in some dev shells) would make
    every run recompile every module, which is not what a user runs."""
    env = {**os.environ, "PYTHONPATH": str(REPO / "tools")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def launcher_command() -> list[str]:
    """What `bin/skillbox` execs for a regular install: `python -S -P skillbox/fast_start.py VENV SITE-PACKAGES`
    (see that file). The dev venv's skillbox comes from PYTHONPATH (tools/, see `_ours_env`) instead of
    site-packages; the interpreter, its flags, the dependencies and the start script are the same."""
    import site

    packages = site.getsitepackages()[0]  # a venv has one
    return [sys.executable, "-S", "-P", str(REPO / "tools" / "skillbox" / "fast_start.py"), sys.prefix, packages]


def per_project_speed(peer_dir: Path, projects: list[Path], rounds: int = 1) -> dict:
    """Mode 1: for each project one skillbox process and one peer process, interleaved with one bare interpreter
    start (`python -I -c pass`, the floor no Python CLI can go below), so shared-machine load hits all alike.
    Ours runs as `launcher_command() lint DIR --json`, exactly what the `bin/skillbox` launcher execs, cold.
    Mode 1b, labelled apart and never the headline: the same with `--cache` when the cache holds the project's
    unchanged result (a priming run first; the cache lives in a temporary folder)."""
    import tempfile

    cli = peer_dir / "node_modules" / "hyperframes" / "dist" / "cli.js"
    ours_env = _ours_env()
    ours = [*launcher_command(), "lint"]
    _timed([*ours, str(projects[0]), "--json"], env=ours_env)  # writes the bytecode cache, as an install has
    rows: dict[str, list[float]] = {k: [] for k in ("ours_wall", "ours_cpu", "peer_wall", "peer_cpu")}
    rows.update(floor_wall=[], floor_cpu=[], cached_wall=[], cached_cpu=[])
    with tempfile.TemporaryDirectory(prefix="skillbox-lint-cache-") as cache:
        cached_env = {**ours_env, "SKILLBOX_LINT_CACHE_DIR": cache}
        for project in [p for _ in range(rounds) for p in projects]:
            _, wall, cpu = _timed([*ours, str(project), "--json"], env=ours_env)
            rows["ours_wall"].append(wall)
            rows["ours_cpu"].append(cpu)
            _, wall, cpu = _timed(["node", str(cli), "lint", str(project), "--json"],
                                  env={**os.environ, **PEER_ENV}, cwd=peer_dir)  # fmt: skip
            rows["peer_wall"].append(wall)
            rows["peer_cpu"].append(cpu)
            _, wall, cpu = _timed([sys.executable, "-I", "-c", "pass"], env=ours_env)
            rows["floor_wall"].append(wall)
            rows["floor_cpu"].append(cpu)
            cold, _, _ = _timed([*ours, str(project), "--json", "--cache"], env=cached_env)  # primes the cache
            hit, wall, cpu = _timed([*ours, str(project), "--json", "--cache"], env=cached_env)
            if hit != cold:
                raise SystemExit(f"--cache printed something else than the cold run for {project}")
            rows["cached_wall"].append(wall)
            rows["cached_cpu"].append(cpu)
    return {k: statistics.median(v) for k, v in rows.items()}


def run_peer(peer_dir: Path, project: Path) -> tuple[list[dict], float]:
    cli = peer_dir / "node_modules" / "hyperframes" / "dist" / "cli.js"
    started = time.perf_counter()
    proc = subprocess.run(
        ["node", str(cli), "lint", str(project), "--json", "--verbose"],
        capture_output=True,
        text=True,
        env={**os.environ, **PEER_ENV},
        cwd=peer_dir,
    )
    elapsed = time.perf_counter() - started
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return [{"code": "__peer_crash__", "file": str(project), "message": proc.stderr[-300:]}], elapsed
    return data.get("findings", []), elapsed


def run_ours(corpus: Path) -> tuple[list[dict], float]:
    started = time.perf_counter()
    proc = subprocess.run(
        [*launcher_command(), "lint", str(corpus), "--json"],
        capture_output=True,
        text=True,
        env=_ours_env(),
    )
    elapsed = time.perf_counter() - started
    return json.loads(proc.stdout)["findings"], elapsed


def key_of(finding: dict, corpus: Path) -> tuple[str, str, str]:
    path = Path(finding.get("file") or "")
    if not path.is_absolute():
        path = (Path.cwd() / path).resolve()
    try:
        rel = path.relative_to(corpus.resolve())
        project, rest = rel.parts[0], "/".join(rel.parts[1:]) or "index.html"
    except ValueError:
        project, rest = "?", str(path)
    return project, rest, finding["code"]


def in_process_median(corpus: Path, repeat: int) -> tuple[float, float, int]:
    files = []
    for project in sorted(p for p in corpus.iterdir() if p.is_dir()):
        if (project / "index.html").is_file():
            files.append((project / "index.html", False))
        files.extend((Path(p), True) for p in composition_files(project))
    sources = [(path.read_bytes(), sub, str(path)) for path, sub in files]
    for source, sub, name in sources:  # warm-up: imports, grammar loading
        lint_document(parse_document(source, name, is_subcomposition=sub))
    per_file = []
    for source, sub, name in sources:
        times = []
        for _ in range(repeat):
            started = time.perf_counter()
            lint_document(parse_document(source, name, is_subcomposition=sub))
            times.append(time.perf_counter() - started)
        per_file.append(min(times))  # best of N: the machine is shared, slower runs measure other load
    return statistics.median(per_file) * 1000, max(per_file) * 1000, len(sources)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=REPO / "tests" / "fixtures" / "lint" / "corpus")
    parser.add_argument("--peer-dir", type=Path, default=Path.home() / ".cache" / "skillbox-bench" / "hyperframes")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=1, help="mode 1: time every project this many times")
    parser.add_argument("--out", type=Path, default=Path.home() / ".cache" / "skillbox-bench" / "lint-compare.json")
    args = parser.parse_args()
    corpus = args.corpus.resolve()
    projects = sorted(p for p in corpus.iterdir() if p.is_dir())

    peer_findings: list[dict] = []
    peer_times = []
    for project in projects:
        findings, elapsed = run_peer(args.peer_dir, project)
        real = str(project.resolve())
        for finding in findings:  # project-level findings carry no file: they belong to the project's index.html
            if "file" not in finding:
                finding["_project_level"] = True
                finding["file"] = str(project / "index.html")
            if finding["file"].startswith(real):  # the peer reports resolved paths; map back through symlinks
                finding["file"] = str(project) + finding["file"][len(real) :]
        peer_findings.extend(findings)
        peer_times.append(elapsed)
    ours, ours_time = run_ours(corpus)

    rules = all_rules()
    peer_known = peer_codes(args.peer_dir)
    shared = {code for code, r in rules.items() if r.peer_code}
    missing_in_peer = sorted(c for c in shared if c not in peer_known)
    # Codes the peer reports per project (no file): compare them per project, whichever file we attach them to.
    per_project = {f["code"] for f in peer_findings if f.get("_project_level")}

    def key(finding: dict) -> tuple[str, str, str]:
        project, file, code = key_of(finding, corpus)
        return (project, "*", code) if code in per_project else (project, file, code)

    ours_count = Counter(key(f) for f in ours if f["code"] in shared)
    peer_count = Counter(key(f) for f in peer_findings if f["code"] in shared)
    rows: dict[str, list[int]] = {}
    disagreements = []
    for key in sorted(set(ours_count) | set(peer_count)):
        both = min(ours_count[key], peer_count[key])
        only_us, only_peer = ours_count[key] - both, peer_count[key] - both
        row = rows.setdefault(key[2], [0, 0, 0])
        row[0] += both
        row[1] += only_us
        row[2] += only_peer
        if only_us or only_peer:
            disagreements.append((key, only_us, only_peer))

    total_both = sum(r[0] for r in rows.values())
    total_peer = sum(r[0] + r[2] for r in rows.values())
    total_us_only = sum(r[1] for r in rows.values())
    print(f"## HyperFrames lint: skillbox vs hyperframes@0.8.170 ({len(projects)} projects)\n")
    print("| code | both | only skillbox | only peer |")
    print("|---|---:|---:|---:|")
    for code in sorted(rows):
        print(f"| `{code}` | {rows[code][0]} | {rows[code][1]} | {rows[code][2]} |")
    reproduced = total_both / total_peer if total_peer else 1.0
    print(f"| **total** | {total_both} | {total_us_only} | {total_peer - total_both} |\n")
    print(f"Peer's shared-code findings reproduced: {total_both}/{total_peer} = {reproduced:.1%} (target >= 95%)\n")
    if disagreements:
        print("Disagreements (project / file / code: only skillbox, only peer):\n")
        for (project, file, code), only_us, only_peer in disagreements:
            print(f"- {project}/{file} `{code}`: +{only_us} skillbox, +{only_peer} peer")
        print()
    ours_only_codes = Counter(f["code"] for f in ours if f["code"] not in shared)
    peer_only_codes = Counter(f["code"] for f in peer_findings if f["code"] not in shared)
    if missing_in_peer:
        print("Shared codes not found as literals in the peer bundle (built dynamically):", missing_in_peer)
    print("Findings under codes only skillbox has:", dict(sorted(ours_only_codes.items())))
    print("Findings under codes only the peer has:", dict(sorted(peer_only_codes.items())), "\n")

    median_ms, max_ms, files = in_process_median(corpus, args.repeat)
    speed = per_project_speed(args.peer_dir, projects, args.rounds)
    peer_total = sum(peer_times)
    print("| speed mode | skillbox | hyperframes | ratio |")
    print("|---|---:|---:|---:|")
    print(
        f"| 1. per project, one process each (median of {len(projects) * args.rounds}, wall) | "
        f"{speed['ours_wall'] * 1000:.0f} ms | "
        f"{speed['peer_wall'] * 1000:.0f} ms | {speed['peer_wall'] / speed['ours_wall']:.1f}x (target >= 10x) |"
    )
    print(
        f"| 1. per project, one process each (median, CPU user+sys) | {speed['ours_cpu'] * 1000:.1f} ms | "
        f"{speed['peer_cpu'] * 1000:.0f} ms | {speed['peer_cpu'] / max(speed['ours_cpu'], 1e-6):.1f}x (target >= 10x) |"
    )
    print(
        f"| 1. floor: bare interpreter start `python -I -c pass` (wall / CPU) | {speed['floor_wall'] * 1000:.0f} ms / "
        f"{speed['floor_cpu'] * 1000:.1f} ms | — | skillbox above the floor: "
        f"{(speed['ours_cpu'] - speed['floor_cpu']) * 1000:.1f} ms CPU |"
    )
    print(
        f"| 1b. additional mode, `--cache` hit (files unchanged since the last run), median wall / CPU | "
        f"{speed['cached_wall'] * 1000:.0f} ms / {speed['cached_cpu'] * 1000:.1f} ms | "
        f"{speed['peer_wall'] * 1000:.0f} ms / {speed['peer_cpu'] * 1000:.0f} ms | "
        f"{speed['peer_wall'] / speed['cached_wall']:.1f}x / "
        f"{speed['peer_cpu'] / max(speed['cached_cpu'], 1e-6):.1f}x |"
    )
    print(
        f"| 2. whole corpus: 1 skillbox process vs {len(projects)} peer processes | {ours_time:.2f} s | "
        f"{peer_total:.2f} s ({statistics.mean(peer_times):.2f} s each) | {peer_total / ours_time:.1f}x |"
    )
    print(
        f"| 3. in-process per file (parse + every rule), median over {files} files of best-of-{args.repeat} | "
        f"{median_ms:.2f} ms (max {max_ms:.1f}) | — | target <= 1 ms |"
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"ours": ours, "peer": peer_findings}, indent=1))
    print(f"\nraw findings: {args.out}")


if __name__ == "__main__":
    main()
