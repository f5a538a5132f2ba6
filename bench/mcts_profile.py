"""Where an MCTS simulation's time goes on mnk(15,15,5): the figures behind the kernel's design.

Prints, in one process and in CPU seconds (a loaded machine's wall time counts other work):

- **random playouts** from the start with :func:`noughts.envs.batch.random_playouts` (the
  line-count kernel: boards past 64 cells): their mean length in moves, about what an MCTS
  rollout plays (from a node a few moves deep), and that kernel's own speed (it keeps its list
  of empty cells in increasing order, closing it up after each claim, to make the reference's
  choices: slower a move than the MCTS rollout, which moves the last cell into the gap);
- **MCTS searches** after a centre move, c = 2, at several budgets: simulations per CPU second,
  microseconds per simulation, and the children each simulation scores on its way down (read
  from the tree: a node's selections times its children, summed, over the simulations), the
  part of a simulation that grows with the tree.

Run it as ``python bench/mcts_profile.py`` (``--repeats``: searches per budget, the best kept).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import noughts
from noughts.agents.mcts import _Kernel
from noughts.envs.batch import random_playouts

SPEC = "mnk(15,15,5)"


def scored_per_simulation(kernel: _Kernel, nodes: int, sims: int) -> float:
    """Children scored per simulation: at each fully expanded node, its selections (visits not
    spent expanding it or ending there) times its children."""
    tree = kernel.tree[1][:nodes]
    nkids = tree["nkids"].astype(np.int64)
    selections = np.maximum(tree["visits"] - 1 - nkids, 0)
    return float((selections * nkids).sum() / sims)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    game = noughts.game(SPEC)
    random_playouts(game, 100, seed=0)  # compile or load
    best = None
    for r in range(args.repeats):
        t = time.process_time()
        res = random_playouts(game, args.games, seed=r + 1)
        dt = time.process_time() - t
        moves = int(res.lengths.sum())
        best = min(best or dt, dt)
        length = moves / args.games
    assert best is not None
    print(f"{SPEC}, random playouts from the start, {args.games:,} games (CPU time, best of {args.repeats}):")
    print(
        f"  {args.games / best:,.0f} games/s, mean length {length:.1f} moves, {best / moves * 1e9:.1f} ns a move\n"
    )
    start = game.start().play(game.board.num_cells // 2)
    kernel = _Kernel(game)
    kernel.search(start, 1000, 2.0, False, 0)  # compile or load
    print(f"{SPEC}, MCTS searches after a centre move, c = 2 (CPU time, best of {args.repeats}):")
    print("| simulations | sims per CPU second | us per simulation | children scored per simulation |")
    print("| ---: | ---: | ---: | ---: |")
    for sims in (10_000, 100_000):
        dt = None
        for r in range(args.repeats):
            t = time.process_time()
            result = kernel.search(start, sims, 2.0, False, r)
            took = time.process_time() - t
            dt = min(dt or took, took)
        assert dt is not None
        scored = scored_per_simulation(kernel, result.nodes, result.sims)
        print(f"| {sims:,} | {sims / dt:,.0f} | {dt / sims * 1e6:.2f} | {scored:.0f} |")


if __name__ == "__main__":
    main()
