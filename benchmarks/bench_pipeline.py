"""Time the whole pbnkit pipeline against endplay's bare reader, on one generated file, in
one run.

    python benchmarks/bench_pipeline.py [--boards N] [--repeat R] [--seed S] [--memory]
                                        [--jobs-boards M] [--files-of B]

Every line runs as its own process, the way a user runs it, and is measured in CPU seconds
(user + system, workers included) through ``wait4``; wall seconds are printed for the
``-j`` lines, where wall time is the point, beside their CPU seconds in total (what the
workers cost on top of the work). Each ratio is boards per CPU-second over
endplay's ``pbn.load`` boards per CPU-second on the same file, each line's runs taking
turns with endplay's, so the noise of a shared machine mostly cancels out. ``--memory``
adds the peak RSS of each command at N and 10 N boards (flat memory: the larger run
should need little more than the smaller). pbnkit runs from this checkout.
``--jobs-boards M`` measures the ``-j`` lines on a file of M boards instead (the serial
start-up of a run weighs less on a larger file; the targets are for 40,000 boards). ``--files-of B`` measures them
also on as many boards in a folder of files of B boards each, as BBO's hand records come
(a board a file): there the cost of handing each file to a worker counts.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(1, str(ROOT))

from generate import write_file  # noqa: E402  (benchmarks/ is sys.path[0] when run as a script)

#: ratio to endplay's bare read, in CPU seconds, that each line aims at at -j 1
TARGETS = {"read": 2.0, "validate": 2.0, "convert": 1.5, "convert --no-check": 3.0,
           "score": 3.5}
#: -j 2 against -j 1, for the commands that aim at it: at least this much faster in wall
#: time, with at most this much more CPU time in total (workers included)
JOBS_SPEEDUP = 1.6
JOBS_CPU = 1.15
JOBS_TARGETED = ("validate", "convert", "score")

ENDPLAY = "from endplay.parsers import pbn; import sys; pbn.load(open(sys.argv[1]))"
READ = "import pbnkit, sys; sum(1 for _ in pbnkit.read(sys.argv[1]))"


@dataclass(frozen=True)
class Run:
    cpu: float    # user + system seconds, the process and the children it waited for
    wall: float
    peak_kb: int  # the largest resident set of the process or any of its children


#: where pbnkit is imported from: the checkout (not an installed pbnkit). Bytecode is
#: written and used, as an installed pbnkit has it: with ``PYTHONDONTWRITEBYTECODE`` set,
#: every run would compile pbnkit's sources again.
ENV = dict(os.environ, PYTHONPATH=str(ROOT))
ENV.pop("PYTHONDONTWRITEBYTECODE", None)


def run(argv: list[str]) -> Run:
    """Run one command to the end with its output discarded; fail loudly if it fails."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env=ENV, cwd=ROOT)
    assert process.stderr is not None
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):  # 1: validate found errors, which is not a failure
        raise SystemExit(f"{' '.join(argv)} failed ({process.returncode}):\n{errors.decode()}")
    return Run(usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss)


def best(argv: list[str], repeat: int) -> Run:
    return best_of([run(argv) for _ in range(repeat)])


def best_of(runs: list[Run]) -> Run:
    return Run(min(r.cpu for r in runs), min(r.wall for r in runs), max(r.peak_kb for r in runs))


def pbnkit(*args: str) -> list[str]:
    return [sys.executable, "-m", "pbnkit", *args, "-q"]


def commands(path: str, out: str, jobs: int) -> dict[str, list[str]]:
    j = ("-j", str(jobs))
    return {
        "read": [sys.executable, "-c", READ, path],
        "validate": pbnkit("validate", path, *j),
        "convert": pbnkit("convert", path, "-o", f"{out}/c.parquet", "--force", *j),
        "convert --no-check": pbnkit("convert", path, "-o", f"{out}/n.parquet", "--force",
                                     "--no-check", *j),
        "score": pbnkit("score", path, *j),
        "rescore": pbnkit("rescore", f"{out}/n.parquet", "--profile", "duplicate", *j),
    }


def speed_table(path: str, out: str, boards: int, repeat: int) -> list[str]:
    """CPU seconds of each line at ``-j 1``, and its ratio to endplay's bare read. The runs
    of a line take turns with as many runs of endplay, and the line's ratio is over those:
    a change in the machine's load during the benchmark (minutes long) then slows both
    sides of a ratio, not one line and not endplay's one measurement."""
    endplay = [sys.executable, "-c", ENDPLAY, path]
    measured: dict[str, tuple[Run, Run]] = {}
    for name, argv in commands(path, out, 1).items():
        theirs, ours = [], []
        for _ in range(repeat):
            theirs.append(run(endplay))
            ours.append(run(argv))
        measured[name] = (best_of(theirs), best_of(ours))
    fastest = min(endplay_run.cpu for endplay_run, _ in measured.values())
    lines = [f"{'work':<24}{'CPU s':>8}{'boards/CPU-s':>14}{'endplay s':>11}{'ratio':>8}  target",
             f"{'endplay pbn.load':<24}{fastest:>8.2f}{boards / fastest:>14.0f}"
             "   (its fastest run of all)"]
    for name, (theirs, ours) in measured.items():
        ratio = theirs.cpu / ours.cpu
        target = TARGETS.get(name)
        verdict = "" if target is None else (
            f">= {target:g}x {'met' if ratio >= target else 'NOT met'}")
        lines.append(f"{name + ' -j 1':<24}{ours.cpu:>8.2f}{boards / ours.cpu:>14.0f}"
                     f"{theirs.cpu:>11.2f}{ratio:>7.2f}x  {verdict}")
    return lines


#: a loop of pure Python that shares nothing: what the machine gives N processes at once
LOOP = "s = 0\nfor i in range(12_000_000): s += i * i"


def together(argv: list[str], copies: int) -> float:
    """The wall seconds of ``copies`` runs of a command started at once, to the last end."""
    start = time.perf_counter()
    processes = [subprocess.Popen(argv, env=ENV) for _ in range(copies)]
    for process in processes:
        process.wait()
    return time.perf_counter() - start


def jobs_table(path: str, out: str, repeat: int) -> list[str]:
    """Wall and CPU seconds at -j 1 and -j N, the two taking turns (a burst of other work
    on the machine then slows one run of each, not every run of one), with first the
    same for N copies of a loop that shares nothing: the speed-up the machine gives at
    best. CPU seconds count the workers too: the ratio is what running in parallel costs
    on top of the work (start-up of the workers, handing units and results over)."""
    cores = len(os.sched_getaffinity(0))
    lines = [f"{'work':<22}{'-j 1 wall':>10}{f'-j {cores} wall':>11}{'speedup':>9}"
             f"{'-j 1 CPU':>10}{f'-j {cores} CPU':>10}{'CPU':>7}  target"]
    loop = [sys.executable, "-c", LOOP]
    alone, at_once = [], []
    for _ in range(repeat):
        alone.append(run(loop).wall)
        at_once.append(together(loop, cores))
    # the same work done by N processes at once as by one, N times over: cores x alone
    lines.append(f"{f'{cores} loops (ceiling)':<22}{cores * min(alone):>10.2f}"
                 f"{min(at_once):>11.2f}{cores * min(alone) / min(at_once):>8.2f}x  "
                 "what the machine gives a job that shares nothing")
    serial, parallel = commands(path, out, 1), commands(path, out, cores)
    for name in ("validate", "convert", "convert --no-check", "score", "rescore"):
        ones, manys = [], []
        for _ in range(repeat):
            ones.append(run(serial[name]))
            manys.append(run(parallel[name]))
        one, many = best_of(ones), best_of(manys)
        speedup, cpu = one.wall / many.wall, many.cpu / one.cpu
        verdict = ""
        if cores == 2 and name in JOBS_TARGETED:
            met = speedup >= JOBS_SPEEDUP and cpu <= JOBS_CPU
            verdict = (f">= {JOBS_SPEEDUP:g}x, CPU <= {JOBS_CPU:g}x "
                       f"{'met' if met else 'NOT met'}")
        lines.append(f"{name:<22}{one.wall:>10.2f}{many.wall:>11.2f}{speedup:>8.2f}x"
                     f"{one.cpu:>10.2f}{many.cpu:>10.2f}{cpu:>6.2f}x  {verdict}")
    return lines


def small_files(folder: str, boards: int, each: int, seed: int) -> str:
    """A folder of ``boards`` generated boards, in files of ``each`` (the last smaller)."""
    os.mkdir(folder)
    for number, first in enumerate(range(0, boards, each)):
        write_file(f"{folder}/{number:06}.pbn", min(each, boards - first), seed + number)
    return folder


def files_table(folder: str, path: str, out: str, repeat: int) -> list[str]:
    """CPU seconds at -j 1 of the folder of small files and of the one file of as many
    boards: what a file costs beside its boards."""
    lines = [f"{'work':<22}{'one file':>10}{'files':>10}{'ratio':>9}"]
    for name in ("validate", "convert", "convert --no-check", "score"):
        one = best(commands(path, out, 1)[name], repeat).cpu
        many = best(commands(folder, out, 1)[name], repeat).cpu
        lines.append(f"{name + ' -j 1':<22}{one:>10.2f}{many:>10.2f}{many / one:>8.2f}x")
    return lines


def memory_table(small: str, large: str, out: str, boards: int) -> list[str]:
    lines = [f"{'peak RSS (MB)':<22}{boards:>10}{boards * 10:>11}{'growth':>9}"]
    for name in ("validate", "convert", "score", "rescore"):
        peaks = []
        for path in (small, large):
            if name == "rescore":  # rescore reads the archive that convert --no-check wrote
                run(commands(path, out, 1)["convert --no-check"])
            peaks.append(run(commands(path, out, 1)[name]).peak_kb / 1024)
        lines.append(f"{name + ' -j 1':<22}{peaks[0]:>10.0f}{peaks[1]:>11.0f}"
                     f"{peaks[1] / peaks[0]:>8.2f}x")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("--boards", type=int, default=10_000, metavar="N",
                        help="boards in the generated file (default 10000)")
    parser.add_argument("--repeat", type=int, default=3, metavar="R",
                        help="runs per line; the fastest counts (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    parser.add_argument("--memory", action="store_true",
                        help="also peak RSS at N and 10 N boards (generates a 10 N file)")
    parser.add_argument("--jobs-boards", type=int, metavar="M",
                        help="boards in the file of the -j lines (default: N)")
    parser.add_argument("--files-of", type=int, metavar="B",
                        help="also the -j lines on those boards in files of B boards each")
    args = parser.parse_args(argv)
    if min(args.boards, args.repeat, args.jobs_boards or 1, args.files_of or 1) < 1:
        parser.error("--boards, --repeat, --jobs-boards and --files-of must be at least 1")
    try:
        import endplay  # noqa: F401
    except ImportError:
        parser.error("endplay is not installed: pip install -e '.[bench]'")

    with tempfile.TemporaryDirectory(prefix="pbnkit-bench-") as tmp:
        path = f"{tmp}/bench-{args.boards}.pbn"
        write_file(path, args.boards, args.seed)
        print(f"file: {args.boards} boards with full auction and play, "
              f"{Path(path).stat().st_size / 1e6:.1f} MB, seed {args.seed}; "
              f"{os.cpu_count()} cores, Python {sys.version.split()[0]}; best of {args.repeat}")
        # convert --no-check first: rescore reads what it wrote.
        run(commands(path, tmp, 1)["convert --no-check"])
        for line in speed_table(path, tmp, args.boards, args.repeat):
            print(line)
        print()
        jobs_path = path
        if args.jobs_boards and args.jobs_boards != args.boards:
            jobs_path = f"{tmp}/bench-{args.jobs_boards}.pbn"
            write_file(jobs_path, args.jobs_boards, args.seed)
            run(commands(jobs_path, tmp, 1)["convert --no-check"])  # what rescore reads
            print(f"-j lines: {args.jobs_boards} boards, "
                  f"{Path(jobs_path).stat().st_size / 1e6:.1f} MB")
        for line in jobs_table(jobs_path, tmp, args.repeat):
            print(line)
        if args.files_of:
            folder = small_files(f"{tmp}/files", args.jobs_boards or args.boards,
                                 args.files_of, args.seed)
            run(commands(folder, tmp, 1)["convert --no-check"])  # what rescore reads
            print(f"\nas many boards in {len(os.listdir(folder))} files of {args.files_of}, "
                  "CPU s")
            for line in files_table(folder, jobs_path, tmp, args.repeat):
                print(line)
            print(f"\n-j lines: as many boards in {len(os.listdir(folder))} files of "
                  f"{args.files_of}")
            for line in jobs_table(folder, tmp, args.repeat):
                print(line)
        if args.memory:
            large = f"{tmp}/bench-{args.boards * 10}.pbn"
            write_file(large, args.boards * 10, args.seed)
            print()
            for line in memory_table(path, large, tmp, args.boards):
                print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
