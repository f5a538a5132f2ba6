"""Alpha-beta nodes per move with and without move ordering, against 003 §6.2's claim.

003 §6.2 says that on 4x4 boards at depth 4, sorting moves by distance to the centre cuts the
nodes evaluated per move from 1,287 to 743 (1.73x). It does not say which positions or which win
length; this benchmark takes every position where minimax moved in ``--games`` games of
``minimax:depth=4`` against ``random`` (seeded, sides alternating) on mnk(4,4,3) and mnk(4,4,4),
and searches each of them twice at depth 4: with noughts' move ordering (completing cells,
blocking cells, then centre distance) and in ``legal_moves()`` order. Reflexes are off, so
every move is searched. The table shows nodes per move (mean and median over the same
positions) and the median time per move.

Run it as ``python bench/minimax.py``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import noughts
from _common import commit, machine  # bench/ is sys.path[0] when a script runs
from noughts.agents import RandomAgent
from noughts.agents.minimax import MinimaxAgent
from noughts.core import Position


def positions(spec: str, games: int, depth: int) -> list[Position]:
    """Every position where minimax was to move in ``games`` seeded games against random."""
    game = noughts.game(spec)
    player = MinimaxAgent(depth, reflexes=False, tie_break="random")
    out = []
    for i in range(games):
        rng = np.random.default_rng([7, i])
        p = game.start()
        minimax_side = p.to_move if i % 2 == 0 else p.to_move.other
        while not p.is_terminal():
            if p.to_move is minimax_side:
                out.append(p)
                p = p.play(player.choose(p, rng))
            else:
                p = p.play(RandomAgent().choose(p, rng))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--depth", type=int, default=4)
    args = parser.parse_args()
    print(f"Alpha-beta nodes per move at depth {args.depth}, with and without move ordering\n")
    print(f"{machine()}; commit {commit()}\n")
    print("| game | ordering | positions | mean nodes | median nodes | median ms per move |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for spec in ("mnk(4,4,3)", "mnk(4,4,4)"):
        ps = positions(spec, args.games, args.depth)
        for ordering in (False, True):
            agent = MinimaxAgent(args.depth, reflexes=False, ordering=ordering, tie_break="first")
            nodes, times = [], []
            for p in ps:
                agent.nodes = 0
                t = time.perf_counter()
                agent.best_moves(p)
                times.append(time.perf_counter() - t)
                nodes.append(agent.nodes)
            label = "centre-first (noughts)" if ordering else "legal_moves() order"
            print(
                f"| {spec} | {label} | {len(ps)} | {statistics.mean(nodes):,.0f} | "
                f"{statistics.median(nodes):,.0f} | {1000 * statistics.median(times):.2f} |"
            )


if __name__ == "__main__":
    main()
