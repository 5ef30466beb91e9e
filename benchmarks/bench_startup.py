"""Time how long short pbnkit commands take from start to end, as a user runs them.

    python benchmarks/bench_startup.py [--repeat R]

A command that has little to do costs what its imports cost: ``pbnkit --version`` should
load next to nothing, and ``pbnkit validate`` on a one-board file only what checking a game
needs. Each line is the best wall time of R runs (the machine's other work only ever adds
time), with the bare interpreter's start for comparison, against the aim of 0.2 s.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.2  # seconds: the aim for --version and a validate of a tiny file
TINY = '[Event "x"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'


def best(argv: list[str], repeat: int) -> float:
    env = dict(os.environ, PYTHONPATH=str(ROOT))  # the checkout, not an installed pbnkit
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                       cwd=ROOT, check=False)
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10, metavar="R",
                        help="runs of each command; the best counts (default 10)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as directory:
        tiny = Path(directory, "tiny.pbn")
        tiny.write_text(TINY)
        pbnkit = [sys.executable, "-m", "pbnkit"]
        lines = {
            "python (bare interpreter)": [sys.executable, "-c", "pass"],
            "pbnkit --version": [*pbnkit, "--version"],
            "pbnkit codes SC020": [*pbnkit, "codes", "SC020"],
            "pbnkit validate tiny.pbn": [*pbnkit, "validate", "-q", str(tiny)],
        }
        print(f"{'command':<28} {'best s':>7}  aim")
        for label, command in lines.items():
            seconds = best(command, args.repeat)
            aim = "" if label.startswith("python") else (
                f"{TARGET:.1f} s {'ok' if seconds < TARGET else 'over'}")
            print(f"{label:<28} {seconds:7.3f}  {aim}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
