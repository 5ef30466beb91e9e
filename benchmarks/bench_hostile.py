"""Time stays linear in the input: time hostile inputs at doubling sizes, in CPU time.

    python benchmarks/bench_hostile.py [--calls N] [--line-mb M] [--repeat R]

Two inputs once took time out of proportion to their size:

* one record whose Auction holds N calls (every one an insufficient ``1C`` after the
  first, which the replay records after reporting it), checked by ``validate_file`` at
  N/4, N/2 and N calls: ``Auction`` used to copy its calls on every call;
* a file of one line of M MiB with no line end, cut into lines by
  ``pbnkit.pbn.split.whole_lines`` at M/4, M/2 and M MiB: the open line used to be
  joined again to every chunk read.

Each line gives the best CPU time of R runs at each size and the ratio of each time to
the one before it: about 2 where time is linear in the input, 4 where it is quadratic.
Run it before and after a change, on one machine.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Benchmark the checkout this script lives in, not whatever pbnkit happens to be installed.
sys.path.insert(1, str(HERE.parent))

from bench_replay import best_cpu_seconds  # noqa: E402  (benchmarks/ is sys.path[0])

RECORD = """[Event "hostile"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKJ84.K7.A93.852 97.JT9.QJ65.KQJT QT63.A842.K74.97 52.Q653.T82.A643"]
[Auction "N"]
"""


def report(name: str, unit: str, sizes: list[int], seconds: list[float]) -> None:
    steps = [f"{size:,} {unit} {taken:.2f} s" for size, taken in zip(sizes, seconds)]
    ratios = [f"{after / before:.2f}" for before, after in zip(seconds, seconds[1:])
              if before > 0]
    print(f"{name}: {'  '.join(steps)}  ratio per doubling {' '.join(ratios)} "
          "(2 is linear, 4 quadratic)")


def auction_seconds(calls: int, repeat: int) -> float:
    from pbnkit.pipeline.validate import validate_file

    rows = "\n".join(["1C 1C 1C 1C"] * (calls // 4))
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "auction.pbn"
        path.write_text(RECORD + rows + "\n", encoding="ascii")
        return best_cpu_seconds(lambda: validate_file(path), repeat)


def line_seconds(mebibytes: int, repeat: int) -> float:
    from pbnkit.pbn.split import whole_lines

    data = b"x" * (mebibytes << 20)
    return best_cpu_seconds(lambda: sum(map(len, whole_lines(io.BytesIO(data)))), repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200_000)
    parser.add_argument("--line-mb", type=int, default=256)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    calls = [args.calls // 4, args.calls // 2, args.calls]
    report("auction", "calls", calls, [auction_seconds(n, args.repeat) for n in calls])
    sizes = [args.line_mb // 4, args.line_mb // 2, args.line_mb]
    report("one line", "MiB", sizes, [line_seconds(n, args.repeat) for n in sizes])


if __name__ == "__main__":
    main()
