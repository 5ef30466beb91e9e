"""Time how long short pbnkit commands take from start to end, as a user runs them.

    python benchmarks/bench_startup.py [--repeat R]

A command that has little to do costs what its imports cost: ``pbnkit --version`` should
load next to nothing, and ``pbnkit validate`` on a one-board file only what checking a game
needs. Each line is the best wall time of R runs (the machine's other work only ever adds
time), with the bare interpreter's start for comparison, against the aim of 0.2 s, and the
best processor time of the command (user and system): on a shared, busy machine the wall
time waits for a core, the processor time much less.

The commands may write their bytecode (``__pycache__``, as an installed wheel has it) even
when ``PYTHONDONTWRITEBYTECODE`` is set: else every run would compile pbnkit from source.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.2  # seconds: the aim for --version and a validate of a tiny file
TINY = '[Event "x"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'


def best(argv: list[str], repeat: int) -> tuple[float, float]:
    """The best wall time and the best processor time of ``repeat`` runs."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))  # the checkout, not an installed pbnkit
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    times, processor = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                       cwd=ROOT, check=False)
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        processor.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(times), min(processor)


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
        print(f"{'command':<28} {'best s':>7} {'cpu s':>7}  aim")
        for label, command in lines.items():
            seconds, cpu = best(command, args.repeat)
            aim = "" if label.startswith("python") else (
                f"{TARGET:.1f} s {'ok' if seconds < TARGET else 'over'}")
            print(f"{label:<28} {seconds:7.3f} {cpu:7.3f}  {aim}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
