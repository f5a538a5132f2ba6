"""Notakto on many boards: the misère quotient against the search, in one run.

Three measurements:

1. **Quotients.** The time to compute each board's quotient (``noughts.cgt.notakto_quotient``):
   the 3x3 board ``--repeats`` times (a fresh computation each time; median and spread), then
   4x4 (k = 3, 4) and 5x5 (k = 3, 4, 5) once each within ``--budget`` seconds and
   ``--memory`` MiB: the size and P-portion reached, or the figures where it stopped.
2. **Perfect moves on 16 boards.** ``--games`` games of ``notakto(boards=16)`` (the perfect
   player against random moves, seeded); at every position, interleaved: the perfect player's
   move from the quotient (``PerfectAgent``, engine kept as in play), then the perfect move from
   the search (``noughts.exact.api.best_moves`` over a ``Searcher`` kept for the game,
   ``--search-seconds`` per move; a move it cannot finish counts as not finished). Medians over the positions where both
   finished, and how many the search did not.
3. **Whole process.** ``noughts solve "notakto(boards=16)"`` as a user runs it (the installed
   script, a fresh process each time, warm caches): ``--repeats`` times, the median.

Run it as ``.venv/bin/python bench/notakto_quotient.py``; ``--quick`` is a smoke test.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from _common import ROOT, commit, machine, peak_rss_mib, versions, write_raw  # bench/ is sys.path[0]

BOARDS = ("mnk(4,4,3)", "mnk(4,4,4)", "mnk(5,5,3)", "mnk(5,5,4)", "mnk(5,5,5)")


def _quotients(repeats: int, budget: float, memory: int, boards: tuple[str, ...]) -> list[dict[str, Any]]:
    import noughts
    from noughts.cgt import QuotientStopped, notakto_quotient
    from noughts.core import Budget

    rows = []
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        q = notakto_quotient(noughts.board("mnk(3,3,3)"))
        times.append(time.perf_counter() - started)
    rows.append(
        {
            "board": "mnk(3,3,3)",
            "positions": len(q.positions),
            "complete": True,
            "size": len(q.quotient.monoid),
            "p_portion": len(q.quotient.p_portion),
            "seconds": statistics.median(times),
            "spread": (max(times) - min(times)) / 2 / statistics.median(times),
            "runs": repeats,
        }
    )
    for spec in boards:
        started = time.perf_counter()
        try:
            q = notakto_quotient(noughts.board(spec), budget=Budget(budget, memory * 2**20))
        except QuotientStopped as stop:
            rows.append(
                {
                    "board": spec,
                    "complete": False,
                    "seconds": time.perf_counter() - started,
                    "stopped": str(stop),
                    **{
                        k: stop.reached.get(k) for k in ("positions", "positions_placed", "size", "p_portion")
                    },
                }
            )
            continue
        rows.append(
            {
                "board": spec,
                "positions": len(q.positions),
                "complete": True,
                "size": len(q.quotient.monoid),
                "p_portion": len(q.quotient.p_portion),
                "seconds": time.perf_counter() - started,
                "runs": 1,
            }
        )
    return rows


def _moves(games: int, search_seconds: float, seed: int) -> dict[str, Any]:
    import noughts
    from noughts.agents import RandomAgent
    from noughts.agents.perfect import PerfectAgent
    from noughts.core import Budget, LimitExceeded
    from noughts.exact import Searcher
    from noughts.exact.api import best_moves

    game = noughts.game("notakto(boards=16)")
    rng = np.random.default_rng(seed)
    quotient = PerfectAgent(game)
    assert quotient.engine(game).engine == "quotient"
    q_times: list[float] = []
    s_times: list[float] = []
    pairs: list[tuple[float, float]] = []
    unfinished = 0
    positions = 0
    for g in range(games):
        searcher = Searcher(
            game, Budget(max_seconds=search_seconds, max_memory=2 * 2**30)
        )  # kept for the game
        p = game.start()
        perfect_side = g % 2  # the perfect player moves first in even games
        while not p.is_terminal():
            if int(p.to_move) == perfect_side:
                positions += 1
                started = time.perf_counter()
                move = quotient.choose(p, rng)
                q = time.perf_counter() - started
                q_times.append(q)
                searcher.budget = Budget(max_seconds=search_seconds, max_memory=2 * 2**30)
                started = time.perf_counter()
                try:
                    best_moves(searcher, p)
                    s = time.perf_counter() - started
                    s_times.append(s)
                    pairs.append((q, s))
                except LimitExceeded:
                    unfinished += 1
            else:
                move = RandomAgent().choose(p, rng)
            p = p.play(move)
    both_q = [q for q, _ in pairs]
    both_s = [s for _, s in pairs]
    return {
        "positions": positions,
        "quotient_median_ms": 1000 * statistics.median(q_times),
        "quotient_p90_ms": 1000 * float(np.percentile(q_times, 90)),
        "search_finished": len(pairs),
        "search_unfinished": unfinished,
        "search_seconds_limit": search_seconds,
        "both_quotient_median_ms": 1000 * statistics.median(both_q) if pairs else None,
        "both_search_median_ms": 1000 * statistics.median(both_s) if pairs else None,
        "ratio_search_over_quotient": statistics.median(s / q for q, s in pairs) if pairs else None,
    }


def _process(repeats: int) -> dict[str, Any]:
    import resource

    script = Path(sys.executable).with_name("noughts")
    times = []
    cpu = []
    for _ in range(repeats + 1):  # the first run warms the caches and is not counted
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(
            [str(script), "solve", "notakto(boards=16)", "--json"], capture_output=True, text=True, check=True
        )
        times.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
        assert json.loads(done.stdout)["engine"] == "quotient"
    return {
        "median_s": statistics.median(times[1:]),
        "min_s": min(times[1:]),
        "cpu_median_s": statistics.median(cpu[1:]),
        "runs": repeats,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke test: small budgets, one game")
    parser.add_argument(
        "--repeats", type=int, default=7, help="repetitions of the 3x3 quotient and the process"
    )
    parser.add_argument("--budget", type=float, default=600.0, help="seconds per larger board's quotient")
    parser.add_argument("--memory", type=int, default=4096, help="MiB per larger board's quotient")
    parser.add_argument("--games", type=int, default=4, help="games of notakto(boards=16) timed")
    parser.add_argument("--search-seconds", type=float, default=5.0, help="the search's limit per move")
    parser.add_argument("--boards", nargs="*", default=list(BOARDS), help="larger boards (specs)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "notakto_quotient.json")
    args = parser.parse_args(argv)
    if args.quick:
        args.repeats, args.budget, args.games, args.search_seconds, args.boards = (
            2,
            5.0,
            1,
            0.5,
            args.boards[:1],
        )
    payload: dict[str, Any] = {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "commit": commit(),
        "versions": versions(("noughts", "numpy")),
        "command": " ".join(["bench/notakto_quotient.py", *(argv if argv is not None else sys.argv[1:])]),
    }
    payload["quotients"] = _quotients(args.repeats, args.budget, args.memory, tuple(args.boards))
    print("| board | positions | quotient | P | seconds |")
    print("| --- | ---: | --- | ---: | ---: |")
    for r in payload["quotients"]:
        size = (
            f"{r['size']} elements"
            if r["complete"]
            else f"stopped: {r['size']} elements for {r['positions_placed']:,} positions"
        )
        spread = f" (±{100 * r['spread']:.0f}%, {r['runs']} runs)" if r.get("spread") is not None else ""
        positions = "" if r.get("positions") is None else f"{r['positions']:,}"
        print(f"| {r['board']} | {positions} | {size} | {r['p_portion']} | {r['seconds']:.3f}{spread} |")
    payload["moves"] = _moves(args.games, args.search_seconds, seed=0)
    m = payload["moves"]
    print(
        f"\n16 boards: {m['positions']} positions; quotient {m['quotient_median_ms']:.2f} ms per perfect move "
        f"(median; p90 {m['quotient_p90_ms']:.2f} ms); the search finished {m['search_finished']} of them within "
        f"{m['search_seconds_limit']:g} s"
        + (
            f" (median {m['both_search_median_ms']:.1f} ms against the quotient's {m['both_quotient_median_ms']:.2f} ms "
            f"on those; search ÷ quotient {m['ratio_search_over_quotient']:.0f}×)"
            if m["search_finished"]
            else ""
        )
    )
    payload["process"] = _process(args.repeats)
    print(
        f'noughts solve "notakto(boards=16)" --json: {payload["process"]["median_s"]:.3f} s whole process (median)'
    )
    payload["peak_rss_mib"] = peak_rss_mib()
    print(f"peak RSS {payload['peak_rss_mib']:.0f} MiB")
    write_raw(args.out, payload)


if __name__ == "__main__":
    main()
