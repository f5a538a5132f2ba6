"""The positional-game toolkit: pairing search and Erdős-Selfridge simulations, side by side
with their plain references, in one run.

1. Pairing search (002 §3): ``find_pairing`` (SciPy's Hopcroft-Karp, plus the Hall violator
   when there is none) against ``reference_matching_size`` (Kuhn's augmenting paths in pure
   Python, the reference the tests hold SciPy to) and, where the hypergraph is small, the
   brute-force Hall check ``check_bigamy``. Each on the same residual hypergraphs; median of
   repeated runs; peak memory of one run by ``tracemalloc``.
2. Greedy Maker against potential Breaker on 5^3, 6^3, 7^3 (002 §6.1): ``simulate`` (NumPy over
   the line x cell incidence matrix, exact integer weights) against the same game played with
   ``potential_move_reference`` (exact fractions over the position API) for both sides; the
   two must play the same game.

Run it as ``.venv/bin/python bench/pairing.py`` (``--quick`` for fewer repetitions).
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np

import noughts
from _common import commit, machine, versions  # bench/ is sys.path[0] when a script runs
from noughts.core import Player, Position
from noughts.pairing.bigamy import check_bigamy
from noughts.pairing.hypergraph import Residual, residual
from noughts.pairing.matching import find_pairing, reference_matching_size
from noughts.pairing.potential import potential_move_reference, simulate


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, int, Any]:
    """Median seconds over ``repeat`` runs, peak traced bytes of one run, and the result."""
    tracemalloc.start()
    result = fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), peak, result


def random_position(spec: str, moves: int, seed: int) -> Position:
    game = noughts.game(spec)
    rng = np.random.default_rng(seed)
    p = game.start()
    for _ in range(moves):
        legal = p.legal_moves()
        p = p.play(legal[int(rng.integers(len(legal)))])
    return p


def cases() -> list[tuple[str, list[Residual]]]:
    out = [
        (
            "4x4 Maker-Breaker after one round (002 Fig. 2), 3 positions",
            [
                residual(noughts.game("maker_breaker(mnk(4,4,4))").parse(t))
                for t in ("..../..o./..../x...", "..../..o./x.../....", "..../..o./.x../....")
            ],
        ),
        ("5x5 empty", [residual(noughts.game("mnk(5,5,5)").start())]),
        ("8x8 empty", [residual(noughts.game("mnk(8,8,8)").start())]),
        ("8^3 empty (244 lines, 512 cells)", [residual(noughts.game("hypercube(8,3)").start())]),
        ("7^3 empty (no pairing: 193 lines, 343 cells)", [residual(noughts.game("hypercube(7,3)").start())]),
        (
            "7^3 Maker-Breaker after 4 random rounds, 20 positions",
            [residual(random_position("maker_breaker(hypercube(7,3))", 8, s)) for s in range(20)],
        ),
    ]
    return out


def pairing_table(repeat: int) -> list[str]:
    rows = [
        "| hypergraphs | survivors | free cells | pairing? | SciPy find_pairing | Kuhn reference | brute-force Hall | Kuhn / SciPy | peak memory SciPy / Kuhn (KiB) |",
        "| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for label, residuals in cases():
        fast_t, fast_m, results = timed(lambda rs=residuals: [find_pairing(r) for r in rs], repeat)
        ref_t, ref_m, sizes = timed(lambda rs=residuals: [reference_matching_size(r) for r in rs], repeat)
        assert [r.matched for r in results] == sizes, label  # the two agree
        small = all(len(r.survivors) <= 16 for r in residuals)
        hall = ""
        if small:
            hall_t, _, reports = timed(lambda rs=residuals: [check_bigamy(r) for r in rs], repeat)
            assert [rep.holds for rep in reports] == [r.exists for r in results]
            hall = f"{hall_t / len(residuals) * 1e6:,.0f} µs"
        n = len(residuals)
        surv = statistics.median(len(r.survivors) for r in residuals)
        free = statistics.median(len(r.free_cells) for r in residuals)
        exists = sum(r.exists for r in results)
        rows.append(
            f"| {label} | {surv:g} | {free:g} | {exists}/{n} | {fast_t / n * 1e6:,.0f} µs | "
            f"{ref_t / n * 1e6:,.0f} µs | {hall or 'n/a (too many sets)'} | {ref_t / fast_t:.1f}x | "
            f"{fast_m / 1024:,.0f} / {ref_m / 1024:,.0f} |"
        )
    return rows


def reference_game(n: int) -> list[int]:
    """Greedy Maker against potential Breaker with the exact-fraction reference for both."""
    game = noughts.game(f"maker_breaker(hypercube({n},3))")
    p = game.start()
    moves = []
    while not p.is_terminal():
        cell = potential_move_reference(p, Player.SECOND)
        moves.append(cell)
        p = p.play(cell)
    return moves


def potential_table(repeat: int) -> list[str]:
    rows = [
        "| board | rounds | winner | first i with D_i < 1/2 | first i with D_i < 1 | NumPy simulate | exact reference | reference / NumPy |",
        "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for n in (5, 6, 7):
        game = noughts.game(f"hypercube({n},3)")
        fast_t, _, sim = timed(lambda g=game: simulate(g), repeat)
        ref_t, _, moves = timed(lambda n=n: reference_game(n), max(1, repeat // 5))
        played = [c for r in sim.rounds for c in (r.maker_move, r.breaker_move) if c is not None]
        assert played == moves, n  # the same game, move for move
        rows.append(
            f"| {n}^3 | {len(sim.rounds)} | {sim.winner} | {sim.first_below_half} | {sim.first_below_one} | "
            f"{fast_t * 1e3:,.1f} ms | {ref_t * 1e3:,.0f} ms | {ref_t / fast_t:,.0f}x |"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args()
    repeat = 3 if args.quick else 15
    print(f"Date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC. Machine: {machine()}.")
    print(f"noughts commit {commit()}; {versions(('numpy', 'scipy'))}. Medians of {repeat} runs.\n")
    print("\n".join(pairing_table(repeat)))
    print()
    print("\n".join(potential_table(repeat)))


if __name__ == "__main__":
    main()
