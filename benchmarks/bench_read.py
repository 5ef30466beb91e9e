"""Time pbnkit's PBN reader against endplay's on the same generated file, in one run,
and pbnkit's LIN reader on a LIN file of as many boards: both keeping every game, and
both reading through, keeping none.

    python benchmarks/bench_read.py [--boards N] [--repeat R] [--seed S]

The target is pbnkit >= 2x endplay in boards per second, and the LIN reader about as
fast as the PBN reader. Machines are noisy, so only the ratios measured within one run
mean anything; absolute rates are for the log. pbnkit is read from this checkout.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Benchmark the checkout this script lives in, not whatever pbnkit happens to be installed.
sys.path.insert(1, str(HERE.parent))

from generate import write_file  # noqa: E402  (benchmarks/ is sys.path[0] when run as a script)
from generate_lin import write_file as write_lin_file  # noqa: E402

TARGET = 2.0


def read_with_pbnkit(path: str) -> int:
    import pbnkit

    games = list(pbnkit.read(path))
    return len(games)


def read_through_with_pbnkit(path: str) -> int:
    """pbnkit's reader with no game kept, as ``validate`` and ``convert`` read: kept
    games make the garbage collector's full passes, which come at counts of objects, so
    where they fall in a file differs between two readers whose games differ."""
    import pbnkit

    return sum(1 for _ in pbnkit.read(path))


def read_with_pbnkit_sections(path: str) -> int:
    """pbnkit's reader plus decoding every auction and play into calls and cards with
    their annotations: closer to the work endplay's loader does for each board."""
    import pbnkit
    from pbnkit.pbn.sections import section

    count = 0
    for game in pbnkit.read(path):
        section(game, "Auction")
        section(game, "Play")
        count += 1
    return count


def read_with_endplay(path: str) -> int:
    from endplay.parsers import pbn

    with open(path) as f:
        boards = pbn.load(f)
    return len(boards)


def best_times(readers: dict[str, tuple[Callable[[str], int], str]],
               repeat: int) -> dict[str, tuple[float, int]]:
    """Fastest of ``repeat`` whole-file reads per reader (each of its own file), in CPU
    seconds of this process (another program's load on a shared machine is not counted),
    and the games it found.

    The readers take turns within each round, so a slow patch of the machine hits them alike.
    """
    best = {name: (float("inf"), 0) for name in readers}
    for _ in range(repeat):
        for name, (read, path) in readers.items():
            gc.collect()
            start = time.process_time()
            count = read(path)
            best[name] = (min(best[name][0], time.process_time() - start), count)
    return best


def pbnkit_problem() -> str | None:
    """Why pbnkit.read cannot be benchmarked, or None when it can."""
    try:
        import pbnkit
    except ImportError as error:
        return f"cannot import pbnkit ({error})"
    if not callable(getattr(pbnkit, "read", None)):
        where = getattr(pbnkit, "__file__", None) or list(getattr(pbnkit, "__path__", []))
        return f"pbnkit has no read() yet (imported from {where})"
    return None


def endplay_version() -> str | None:
    """endplay's version, or None when it is not installed."""
    try:
        from importlib.metadata import PackageNotFoundError, version

        import endplay.parsers.pbn  # noqa: F401
    except ImportError:
        return None
    try:
        return version("endplay")
    except PackageNotFoundError:
        return "unknown version"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=2000, metavar="N",
                        help="boards in the generated file (default 2000)")
    parser.add_argument("--repeat", type=int, default=5, metavar="R",
                        help="timed reads per reader; the best one counts (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    args = parser.parse_args(argv)
    if args.boards < 1 or args.repeat < 1:
        parser.error("--boards and --repeat must be at least 1")
    problem = pbnkit_problem()
    endplay = endplay_version()
    if endplay is None:
        print("endplay is not installed (pip install 'endplay>=0.5'); timing pbnkit alone")

    with tempfile.TemporaryDirectory(prefix="pbnkit-bench-") as tmp:
        path = str(Path(tmp) / f"bench-{args.boards}.pbn")
        write_file(path, args.boards, args.seed)
        size = Path(path).stat().st_size
        print(f"file: {args.boards} boards, {size / 1e6:.2f} MB, seed {args.seed}, "
              f"best of {args.repeat}")

        lin_path = str(Path(tmp) / f"bench-{args.boards}.lin")
        write_lin_file(lin_path, args.boards, args.seed)
        readers: dict[str, tuple[Callable[[str], int], str]] = {}
        if problem is None:
            readers["pbnkit"] = (read_with_pbnkit, path)
            readers["pbnkit+sections"] = (read_with_pbnkit_sections, path)
            # the same kind of boards as LIN (generate_lin.py), in the same rounds
            readers["pbnkit-lin"] = (read_with_pbnkit, lin_path)
            readers["pbnkit-through"] = (read_through_with_pbnkit, path)
            readers["pbnkit-lin-through"] = (read_through_with_pbnkit, lin_path)
        if endplay is not None:
            readers["endplay"] = (read_with_endplay, path)
        results = best_times(readers, args.repeat)

    rates: dict[str, float] = {}
    for name, (seconds, count) in results.items():
        rates[name] = args.boards / seconds
        check_count(name if name.startswith("pbnkit") else f"endplay {endplay}", count,
                    args.boards)

    summary = "  ".join(f"{name} {rate:.0f} boards/s" for name, rate in rates.items())
    if "pbnkit" in rates and "endplay" in rates:
        ratio = rates["pbnkit"] / rates["endplay"]
        verdict = "met" if ratio >= TARGET else "NOT met"
        summary += f"  ratio {ratio:.2f}x (target >= {TARGET:g}x: {verdict})"
        sections = rates["pbnkit+sections"] / rates["endplay"]
        summary += f"\nwith auction and play decoded too: {sections:.2f}x endplay"
    if "pbnkit-lin" in rates:
        through = rates["pbnkit-lin-through"] / rates["pbnkit-through"]
        summary += (f"\nLIN reader: {rates['pbnkit-lin'] / rates['pbnkit']:.2f}x the PBN reader,"
                    f" every game kept; {through:.2f}x reading through, none kept")
    if summary:
        print(summary)
    if problem is not None:
        print(f"cannot benchmark pbnkit: {problem}", file=sys.stderr)
        return 1
    return 0


def check_count(reader: str, found: int, expected: int) -> None:
    """A reader that skips boards would look faster than it is; say so loudly."""
    if found != expected:
        print(f"warning: {reader} read {found} games, expected {expected}: "
              "the comparison is not fair", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
