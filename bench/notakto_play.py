"""Perfect Notakto play from the saved quotients: the time of one perfect move on many boards.

For each board whose quotient noughts ships (``noughts/cgt/quotients``) and each number of
boards in ``--boards``: ``--games`` games of ``notakto(BOARD,boards=N)``, the perfect player
(``PerfectAgent``, its engine the board's quotient) against random moves, seeded. At every
position of the perfect player, interleaved: its move from the quotient (every winning move
found, one chosen), then the peer, the exact search (``noughts.exact.api.best_moves`` over a
``Searcher`` kept for the game, ``--search-seconds`` per move; a move it cannot finish counts as
not finished). Reported per row: the median, 90th percentile and largest time of a perfect move
(target: under 10 ms), the search's median on the positions it finished and how many it did
not, and the one-time cost of loading the saved quotient against computing it from the rules
(3x3 only; larger boards take minutes). Peak memory and the load average are recorded.

Run it as ``.venv/bin/python bench/notakto_play.py``; ``--quick`` is a smoke test.
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from _common import ROOT, commit, machine, peak_rss_mib, versions, write_raw  # bench/ is sys.path[0]


def _load_vs_compute(repeats: int) -> dict[str, Any]:
    import noughts
    from noughts.cgt import notakto_quotient
    from noughts.cgt.saved import read_quotient, saved_path

    board = noughts.board("mnk(3,3,3)")
    load, compute = [], []
    for _ in range(repeats):  # interleaved
        started = time.perf_counter()
        read_quotient(saved_path(board), board, True)
        load.append(time.perf_counter() - started)
        started = time.perf_counter()
        notakto_quotient(board)
        compute.append(time.perf_counter() - started)
    return {
        "load_median_ms": 1000 * statistics.median(load),
        "compute_median_ms": 1000 * statistics.median(compute),
        "ratio": statistics.median(compute) / statistics.median(load),
        "runs": repeats,
    }


def _row(board_spec: str, boards: int, games: int, search_seconds: float, seed: int) -> dict[str, Any]:
    import noughts
    from noughts.agents import RandomAgent
    from noughts.agents.perfect import PerfectAgent
    from noughts.cgt.notakto import one_board_spec
    from noughts.core import Budget, LimitExceeded
    from noughts.exact import Searcher
    from noughts.exact.api import best_moves

    one = one_board_spec(noughts.board(board_spec))
    spec = f"{one[:-1]},boards={boards})" if one.endswith(")") else f"notakto(boards={boards})"
    game = noughts.game(spec)
    rng = np.random.default_rng(seed)
    perfect = PerfectAgent(game)
    engines: set[str] = set()
    times: list[float] = []
    searched: list[float] = []
    unfinished = 0
    for g in range(games):
        searcher = Searcher(game, Budget(max_seconds=search_seconds, max_memory=2 * 2**30))
        p = game.start()
        side = g % 2  # the perfect player moves first in even games
        while not p.is_terminal():
            if int(p.to_move) == side:
                started = time.perf_counter()
                move = perfect.choose(p, rng)
                times.append(time.perf_counter() - started)
                engines.add(perfect.engine(game).engine)  # what answered (the quotient, or search)
                if search_seconds > 0:
                    searcher.budget = Budget(max_seconds=search_seconds, max_memory=2 * 2**30)
                    started = time.perf_counter()
                    try:
                        best_moves(searcher, p)
                        searched.append(time.perf_counter() - started)
                    except LimitExceeded:
                        unfinished += 1
            else:
                move = RandomAgent().choose(p, rng)
            p = p.play(move)
    return {
        "game": spec,
        "engine": "+".join(sorted(engines)),
        "moves": len(times),
        "median_ms": 1000 * statistics.median(times),
        "p90_ms": 1000 * float(np.percentile(times, 90)),
        "max_ms": 1000 * max(times),
        "under_10ms": sum(t < 0.010 for t in times),
        "search_seconds_limit": search_seconds,
        "search_finished": len(searched),
        "search_unfinished": unfinished,
        "search_median_ms": 1000 * statistics.median(searched) if searched else None,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke test: one game per row, no search")
    parser.add_argument(
        "--boards",
        type=int,
        nargs="*",
        default=[3, 8, 16],
        help="numbers of boards (Notakto takes at most 16)",
    )
    parser.add_argument("--games", type=int, default=3, help="games per row")
    parser.add_argument("--search-seconds", type=float, default=2.0, help="the search's limit per move")
    parser.add_argument("--repeats", type=int, default=7, help="loads and computations of the 3x3 quotient")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "notakto_play.json")
    args = parser.parse_args(argv)
    if args.quick:
        args.boards, args.games, args.search_seconds, args.repeats = [3], 1, 0.0, 1
    from noughts.cgt.saved import QUOTIENT_DIR

    shipped = []
    for path in sorted(QUOTIENT_DIR.glob("notakto-*-misere.json")):
        import json

        shipped.append(json.loads(path.read_text())["board"])
    load = os.getloadavg()
    payload: dict[str, Any] = {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "commit": commit(),
        "versions": versions(("noughts", "numpy")),
        "command": " ".join(["bench/notakto_play.py", *(argv if argv is not None else sys.argv[1:])]),
        "load_before": load,
        "load": _load_vs_compute(args.repeats),
        "rows": [],
    }
    for board in shipped:
        for n in args.boards:
            row = _row(board, n, args.games, args.search_seconds, args.seed)
            payload["rows"].append(row)
            print(
                f"{row['game']}: {row['moves']} perfect moves ({row['engine']}), median {row['median_ms']:.2f} ms, "
                f"p90 {row['p90_ms']:.2f} ms, max {row['max_ms']:.2f} ms; search ({args.search_seconds:g} s): "
                f"finished {row['search_finished']}, not {row['search_unfinished']}"
                + (
                    f", median {row['search_median_ms']:.1f} ms"
                    if row["search_median_ms"] is not None
                    else ""
                ),
                flush=True,
            )
    ld = payload["load"]
    print(
        f"the 3x3 quotient: loaded in {ld['load_median_ms']:.2f} ms, computed in {ld['compute_median_ms']:.1f} ms "
        f"({ld['ratio']:.0f}x), median of {ld['runs']}"
    )
    payload["load_after"] = os.getloadavg()
    payload["peak_rss_mib"] = peak_rss_mib()
    print(
        f"load average {payload['load_before'][0]:.1f} -> {payload['load_after'][0]:.1f}; peak RSS {payload['peak_rss_mib']} MiB"
    )
    write_raw(args.out, payload)


if __name__ == "__main__":
    main()
