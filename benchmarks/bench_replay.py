"""Time the rules on generated boards: ``check_game`` alone (tags, deal, and the replay of
auction and play) and ``validate_file`` (read, check, score checks), in CPU time.

    python benchmarks/bench_replay.py [--boards N] [--repeat R] [--seed S] [--full-replay]

Every generated board has a full legal auction and 13 tricks of play and is clean, so the
checks take the fast path for clean records (pbnkit.replay.clean); ``--full-replay``
also times the replay alone both ways, the fast path's and the full replay of every call
and card (pbnkit.replay.game.full_replay). Run it before and after a change, on one
machine.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Benchmark the checkout this script lives in, not whatever pbnkit happens to be installed.
sys.path.insert(1, str(HERE.parent))

from generate import write_file  # noqa: E402  (benchmarks/ is sys.path[0] when run as a script)


def best_cpu_seconds(run: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--full-replay", action="store_true",
                        help="also time the fast path and the full replay alone")
    args = parser.parse_args()

    import pbnkit
    from pbnkit.replay.clean import replay_clean
    from pbnkit.replay.game import full_replay
    from pbnkit.rules import check_game
    from pbnkit.pipeline.validate import validate_file

    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "boards.pbn"
        write_file(str(path), args.boards, args.seed)
        games = list(pbnkit.read(path))
        check = best_cpu_seconds(lambda: [check_game(game) for game in games], args.repeat)
        validate = best_cpu_seconds(lambda: validate_file(path), args.repeat)
        if args.full_replay:
            fast = best_cpu_seconds(lambda: [replay_clean(game) for game in games], args.repeat)
            full = best_cpu_seconds(lambda: [full_replay(game) for game in games], args.repeat)
    print(f"check_game {len(games) / check:.0f} boards/CPU-s ({check / len(games) * 1e6:.0f} us "
          f"a board)  validate_file {len(games) / validate:.0f} boards/CPU-s")
    if args.full_replay:
        print(f"replay alone: fast path {fast / len(games) * 1e6:.0f} us a board, full replay "
              f"{full / len(games) * 1e6:.0f} us a board")


if __name__ == "__main__":
    main()
