"""The engine's strength: matches on the issue's boards, with the points it takes and the time
it spends per move.

* ``engine:seconds=0.5`` against ``mcts:sims=2000`` and against ``minimax:depth=2`` on
  mnk(15,15,5), colours swapped game by game;
* ``engine:seconds=1`` as first player on hypercube(4,3) (Qubic, a first-player win) against
  ``mcts:sims=20000``;
* ``engine:seconds=0.5`` against OpenSpiel's C++ ``MCTSBot`` on its ``mnk(m=15,n=15,k=5)``
  (random rollouts, c = 2), given the same time a move: its simulations per move are set from
  its measured rate on the board after a centre move.

Points: a win 1, a draw 1/2. The matches of a row alternate colours (A first, then B first...);
rows run one after another. Run it as ``python bench/engine.py`` (``--games`` sets the games of
each row; ``--quick``: two games a row).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from _common import command_line, commit, machine, versions
from noughts.agents import make_agent
from noughts.arena.match import play_match
from noughts.core import Move, Player, Position

ROOT = Path(__file__).resolve().parent.parent


class OpenSpielMCTS:
    """OpenSpiel's C++ ``MCTSBot`` playing noughts' mnk(15,15,5) through its own
    ``mnk(m=15,n=15,k=5)``: the position's marks are replayed into a fresh OpenSpiel state
    (cell ``c`` is OpenSpiel's action ``c``: both number the cells row by row; the board is
    square, so even a transposed numbering is the same game)."""

    def __init__(self, seconds: float):
        import pyspiel

        self.game = pyspiel.load_game("mnk(m=15,n=15,k=5)")
        evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
        probe = pyspiel.MCTSBot(self.game, evaluator, 2.0, 200, 1 << 30, False, 0, False)
        state = self.game.new_initial_state()
        state.apply_action(112)
        t = time.perf_counter()
        probe.mcts_search(state)
        rate = 200 / (time.perf_counter() - t)
        self.sims = max(10, int(rate * seconds))
        self.bot = pyspiel.MCTSBot(self.game, evaluator, 2.0, self.sims, 1 << 30, False, 1, False)
        self.name = f"openspiel-mcts:sims={self.sims}"

    def choose(self, position: Position, rng: np.random.Generator) -> Move:
        first, second = position.owned(Player.FIRST), position.owned(Player.SECOND)
        xs = [c for c in range(225) if first >> c & 1]
        os_ = [c for c in range(225) if second >> c & 1]
        state = self.game.new_initial_state()
        for i in range(max(len(xs), len(os_))):
            if i < len(xs):
                state.apply_action(xs[i])
            if i < len(os_):
                state.apply_action(os_[i])
        return int(self.bot.step(state))


def _row(spec: str, a: Any, b: Any, games: int, swap: bool, seed: int) -> dict[str, Any]:
    t = time.perf_counter()
    r = play_match(spec, a, b, games=games, swap=swap, seed=seed)
    seconds = time.perf_counter() - t
    moves = sum(len(g.moves) for g in r.played) if r.played and hasattr(r.played[0], "moves") else None
    points = r.a_wins + 0.5 * r.draws
    return {
        "game": spec,
        "a": r.agent_a,
        "b": r.agent_b,
        "games": r.games,
        "wins": r.a_wins,
        "draws": r.draws,
        "losses": r.a_losses,
        "points": points / max(1, r.games),
        "seconds": seconds,
        "moves": moves,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--games", type=int, default=100, help="games per row (the issue asks 100; 20 vs OpenSpiel)"
    )
    parser.add_argument("--minimax-games", type=int, default=None, help="games against minimax (slow)")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--only", nargs="*", default=None, help="rows to run: mcts minimax qubic openspiel")
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "results" / "engine.json")
    args = parser.parse_args(argv)
    games = 2 if args.quick else args.games
    mm_games = 2 if args.quick else (args.minimax_games or games)
    engine = f"engine:seconds={args.seconds:g}"
    rows = []
    wanted = set(args.only or ["mcts", "minimax", "qubic", "openspiel"])
    plan: list[tuple[str, Any]] = []
    if "mcts" in wanted:
        plan.append(("mcts", lambda: _row("mnk(15,15,5)", engine, "mcts:sims=2000", games, True, 1)))
    if "minimax" in wanted:
        plan.append(("minimax", lambda: _row("mnk(15,15,5)", engine, "minimax:depth=2", mm_games, True, 2)))
    if "qubic" in wanted:
        plan.append(
            ("qubic", lambda: _row("hypercube(4,3)", "engine:seconds=1", "mcts:sims=20000", games, False, 3))
        )
    if "openspiel" in wanted:
        plan.append(
            (
                "openspiel",
                lambda: _row(
                    "mnk(15,15,5)",
                    make_agent(engine),
                    OpenSpielMCTS(args.seconds),
                    min(games, 20),
                    True,
                    4,
                ),
            )
        )
    for name, run in plan:
        try:
            rows.append(run())
        except ImportError as e:
            rows.append({"game": name, "error": f"not installed: {e}"})
        print(json.dumps(rows[-1]), file=sys.stderr)
    print("The engine's matches (points: win 1, draw 1/2; measured under load)\n")
    print(f"{machine()}; {versions(('numba', 'numpy', 'open-spiel'))}; commit {commit()}\n")
    print(f"`{command_line('bench/engine.py', argv)}`\n")
    print("| game | engine | opponent | games | W-D-L | engine's points | seconds per game |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    for r in rows:
        if "error" in r:
            print(f"| {r['game']} | | | | {r['error']} | | |")
            continue
        print(
            f"| {r['game']} | {r['a']} | {r['b']} | {r['games']} | {r['wins']}-{r['draws']}-{r['losses']} "
            f"| {100 * r['points']:.0f}% | {r['seconds'] / max(1, r['games']):.1f} |"
        )
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"machine": machine(), "commit": commit(), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
