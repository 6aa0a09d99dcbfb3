"""Warm overhead of the `bin/skillbox` launcher, against running the venv's Python directly.

Memory hooks run `bin/skillbox mem hook <event>` on every tool call with a 60 ms p50 budget for the whole process,
so the launcher (shell start, stamp check, exec) must cost only a few milliseconds on top of Python itself.

    python bench/bootstrap.py [--runs 30]

The venv lives in ~/.cache/skillbox-bench/venv (built by the launcher on the first run, outside the repository).
Prints medians and the ratio of each launcher row to the same command without the launcher.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
VENV = Path(os.environ.get("SKILLBOX_BENCH_VENV", Path.home() / ".cache" / "skillbox-bench" / "venv"))


def timed(cmd: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    # stdin: an empty hook payload (hooks fail open on it, which is the path whose start-up cost is measured)
    subprocess.run(
        cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True
    )
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    runs = parser.parse_args().runs

    scratch = tempfile.mkdtemp(prefix="skillbox-bench-")  # the hook rows write their (empty) memory store here
    env = {
        "HOME": str(Path.home()),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "SKILLBOX_VENV": str(VENV),
        "SKILLBOX_HOME": scratch,
    }
    started = time.perf_counter()
    subprocess.run([str(REPO / "bin" / "skillbox"), "--bootstrap"], env=env, check=True)
    print(f"bootstrap check/build before timing: {time.perf_counter() - started:.1f} s (venv: {VENV})\n")

    python = str(VENV / "bin" / "python")
    cases = {
        "python -c pass (venv python, floor)": [python, "-c", "pass"],
        "bin/skillbox-python -c pass": [str(REPO / "bin" / "skillbox-python"), "-c", "pass"],
        "python -P -m skillbox --version (direct)": [python, "-P", "-m", "skillbox", "--version"],
        "bin/skillbox --version": [str(REPO / "bin" / "skillbox"), "--version"],
        "python -P -m skillbox mem hook stop (direct)": [python, "-P", "-m", "skillbox", "mem", "hook", "stop"],
        "bin/skillbox mem hook stop": [str(REPO / "bin" / "skillbox"), "mem", "hook", "stop"],
    }
    samples: dict[str, list[float]] = {name: [] for name in cases}
    for cmd in cases.values():  # warm the page cache
        timed(cmd, env)
    for _ in range(runs):  # interleaved, so drift in machine load hits every row alike
        for name, cmd in cases.items():
            samples[name].append(timed(cmd, env))
    median = {name: statistics.median(values) * 1000 for name, values in samples.items()}

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"machine: {os.cpu_count()} cores, load average {load}\n")
    names = list(cases)
    pairs = {names[1]: names[0], names[3]: names[2], names[5]: names[4]}
    print(f"| command ({runs} runs, median) | ms | vs. without launcher |")
    print("|---|---:|---:|")
    for name in names:
        if name in pairs:
            base = median[pairs[name]]
            extra = f"{median[name] / base:.2f}x ({median[name] - base:+.1f} ms)"
        else:
            extra = "baseline"
        print(f"| `{name}` | {median[name]:.1f} | {extra} |")


if __name__ == "__main__":
    main()
