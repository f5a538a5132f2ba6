"""Alpha-beta nodes per move with and without move ordering, against 003 §6.2's claim.

003 §6.2 says that on 4x4 boards at depth 4, sorting moves by distance to the centre cuts the
nodes evaluated per move from 1,287 to 743 (1.73x). It does not say which positions or which win
length; this benchmark takes every position where minimax moved in ``--games`` games of
``minimax:depth=4`` against ``random`` (seeded, sides alternating) on mnk(4,4,3) and mnk(4,4,4),
and searches each of them twice at depth 4: with noughts' move ordering (completing cells,
blocking cells, then centre distance) and in ``legal_moves()`` order. Reflexes are off, so
every move is searched. The table shows nodes per move (mean and median over the same
positions) and the median time per move.

Run it as ``python bench/minimax.py`` (``--part ordering``, the default).

``--part kernel`` times the numba kernel of issue 13 against the Python search it is held to
(``minimax:kernel=false``, the reference), on boards the reference is slow on:

* **kernel against the reference**, interleaved (kernel, reference, kernel, reference, ... on each
  position, ``--repeats`` times; each search by a fresh agent, reflexes off, so every move is
  searched and no table is carried over), at depth 2 on mnk(15,15,5) and hypercube(7,3) and at
  depth 3 on mnk(9,9,5), after 0, 2 and 10 random moves (seeded): median seconds per move of
  each, their ratio, and a check that both rank the same moves best with the same scores;
* **the kernel alone** where the reference takes minutes: depths 2 and 3 on the three boards
  after 0, 2 and 10 random moves (median of ``--repeats``, fresh agents);
* **whole games** (``--games`` per board, one with each colour): ``minimax:depth=3`` against
  ``minimax:depth=2`` with one agent for the whole game (its table carried from move to move, as
  in a match), reflexes on: the median and the slowest move of the depth-3 player. The first
  search of the process (loading the compiled kernel from numba's cache) is timed apart.
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


def random_position(spec: str, plies: int, seed: int) -> Position:
    """The position after ``plies`` uniformly random moves from the start (seeded)."""
    rng = np.random.default_rng([11, plies, seed])
    p = noughts.game(spec).start()
    for _ in range(plies):
        moves = p.legal_moves()
        p = p.play(moves[int(rng.integers(len(moves)))])
    return p


def timed_search(p: Position, depth: int, kernel: bool) -> tuple[float, dict]:
    agent = MinimaxAgent(depth, reflexes=False, kernel=kernel)
    t = time.perf_counter()
    scores = agent.root_scores(p)
    return time.perf_counter() - t, scores


def kernel_part(args: argparse.Namespace) -> None:
    from _common import peak_rss_mib

    plies = (0, 2, 10)
    boards = ("mnk(15,15,5)", "mnk(9,9,5)", "hypercube(7,3)")
    t = time.perf_counter()
    MinimaxAgent(3).choose(noughts.game("mnk(15,15,5)").start(), np.random.default_rng(0))
    print(f"First search of the process (loads the compiled kernel): {time.perf_counter() - t:.2f} s\n")

    print(f"Kernel against the Python reference, interleaved, {args.repeats} repeats, fresh agents\n")
    print("| board | depth | random moves | kernel median s | reference median s | ratio | same scores |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for spec, depth in (("mnk(15,15,5)", 2), ("mnk(9,9,5)", 3), ("hypercube(7,3)", 2)):
        for n in plies:
            p = random_position(spec, n, 0)
            fast, slow = [], []
            same = True
            for _ in range(args.repeats):
                dt, a = timed_search(p, depth, True)
                fast.append(dt)
                dt, b = timed_search(p, depth, False)
                slow.append(dt)
                same = same and a == b
            kf, rf = statistics.median(fast), statistics.median(slow)
            print(
                f"| {spec} | {depth} | {n} | {kf:.4f} | {rf:.3f} | {rf / kf:,.0f}x | {'yes' if same else 'NO'} |"
            )

    print(f"\nThe kernel alone, median of {args.repeats}, fresh agents (nodes: positions searched)\n")
    print("| board | depth | random moves | median s per move | nodes |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for spec in boards:
        for depth in (2, 3):
            for n in plies:
                p = random_position(spec, n, 0)
                times = []
                nodes = 0
                for _ in range(args.repeats):
                    agent = MinimaxAgent(depth, reflexes=False)
                    s = time.perf_counter()
                    agent.best_moves(p)
                    times.append(time.perf_counter() - s)
                    nodes = agent.nodes
                print(f"| {spec} | {depth} | {n} | {statistics.median(times):.3f} | {nodes:,} |")

    print(
        f"\nWhole games: minimax:depth=3 against minimax:depth=2, {args.games} per board (colours alternate)\n"
    )
    print("| board | games | depth-3 moves | median s per move | slowest move s |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for spec in boards:
        game = noughts.game(spec)
        times = []
        for i in range(args.games):
            strong, weak = MinimaxAgent(3), MinimaxAgent(2)
            rng = np.random.default_rng([5, i])
            p = game.start()
            turn = 0
            while not p.is_terminal():
                agent = strong if turn % 2 == i % 2 else weak
                s = time.perf_counter()
                move = agent.choose(p, rng)
                if agent is strong:
                    times.append(time.perf_counter() - s)
                p = p.play(move)
                turn += 1
        print(f"| {spec} | {args.games} | {len(times)} | {statistics.median(times):.3f} | {max(times):.3f} |")
    peak = peak_rss_mib()
    print(f"\npeak RSS of the process: {'unknown' if peak is None else f'{peak:.0f} MiB'}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--part", choices=("ordering", "kernel"), default="ordering")
    parser.add_argument(
        "--games", type=int, default=None, help="games (default 10; kernel part: 2 per board)"
    )
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3, help="kernel part: timings per position")
    args = parser.parse_args()
    if args.part == "kernel":
        args.games = 2 if args.games is None else args.games
        print(f"{machine()}; commit {commit()}\n")
        kernel_part(args)
        return
    args.games = 10 if args.games is None else args.games
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
