"""Warm overhead of the `bin/skillbox` launcher, against running the venv's Python directly.

Memory hooks run `bin/skillbox mem hook <event>` on every tool call with a 60 ms p50 budget for the whole process,
so the launcher (shell start, stamp check, exec) must cost only a few milliseconds on top of Python itself.

    python bench/bootstrap.py [--runs 30]

The venv lives in ~/.cache/skillbox-bench/venv (built by the launcher on the first run, outside the repository).
Prints medians and the ratio of each launcher row to the same command without the launcher. "Direct" is exactly
what `bin/skillbox` execs for that venv: the fast start (`python -S -P .../skillbox/fast_start.py VENV SITE`, see
that file) for a regular install, else `python -P -m skillbox`; with the fast start, one more row times the old
`python -P -m skillbox` start (with `site` and runpy) against it.
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


def launched_command(python: str) -> tuple[list[str], str]:
    """What `bin/skillbox` execs for this venv, decided as the launcher decides it: the fast start
    (`python -S -P SITE/skillbox/fast_start.py VENV SITE`) for a regular install whose site-packages has no .pth
    file but the distutils shims, else `python -P -m skillbox` (with `site`)."""
    shims = {"distutils-precedence.pth", "_virtualenv.pth"}
    sites = [p for p in sorted(VENV.glob("lib/python3*/site-packages")) if (p / "skillbox" / "fast_start.py").is_file()]
    if sites and not os.environ.get("SKILLBOX_NO_FAST_START"):
        site = sites[-1]  # the launcher's loop keeps the last match
        if all(p.name in shims for p in site.glob("*.pth")):
            start = str(site / "skillbox" / "fast_start.py")
            return [python, "-S", "-P", start, str(VENV), str(site)], "fast start"
    return [python, "-P", "-m", "skillbox"], "python -P -m skillbox"


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
    if os.environ.get("SKILLBOX_NO_FAST_START"):  # the launcher then takes `python -P -m skillbox`, and so do we
        env["SKILLBOX_NO_FAST_START"] = os.environ["SKILLBOX_NO_FAST_START"]
    started = time.perf_counter()
    subprocess.run([str(REPO / "bin" / "skillbox"), "--bootstrap"], env=env, check=True)
    print(f"bootstrap check/build before timing: {time.perf_counter() - started:.1f} s (venv: {VENV})\n")

    python = str(VENV / "bin" / "python")
    direct, label = launched_command(python)
    print(f"the launcher execs: {' '.join(direct)} ARGS ({label})\n")
    cases = {
        "python -c pass (venv python, floor)": [python, "-c", "pass"],
        "bin/skillbox-python -c pass": [str(REPO / "bin" / "skillbox-python"), "-c", "pass"],
        f"{label} --version (direct)": [*direct, "--version"],
        "bin/skillbox --version": [str(REPO / "bin" / "skillbox"), "--version"],
        f"{label} mem hook stop (direct)": [*direct, "mem", "hook", "stop"],
        "bin/skillbox mem hook stop": [str(REPO / "bin" / "skillbox"), "mem", "hook", "stop"],
    }
    if label != "python -P -m skillbox":  # the old start, for comparison: `site` and runpy
        cases["python -P -m skillbox mem hook stop (site + runpy, not what the launcher runs)"] = [
            python,
            "-P",
            "-m",
            "skillbox",
            "mem",
            "hook",
            "stop",
        ]
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
    if len(names) > 6:  # the old start against the fast start the launcher runs
        pairs[names[6]] = names[4]
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
