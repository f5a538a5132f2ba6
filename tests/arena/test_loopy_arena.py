"""The perfect player in games that need not end, against every agent of the arena.

At each of its turns the perfect player's position must be worth at least what it was worth at
its turn before (a won position stays won, a drawn one is never lost), and a game it holds won
must end in its win (winning moves make progress: the distance to the win falls every turn).
Matches stop at the move cap; a won position must be converted long before it.
"""

from __future__ import annotations

import functools

import pytest

import noughts
from noughts import Outcome, Player, Position
from noughts.agents import make_agent
from noughts.agents.perfect import PerfectAgent
from noughts.arena.match import game_rng, play_game
from noughts.core import Move
from noughts.retrograde import analysis as retro

GAMES = ["forget(tictactoe)", "vanishing(tictactoe)", "morris", "morris(diagonals=false)"]
OPPONENTS = ["random", "minimax:depth=2", "mcts:sims=60", "perfect:tie=random"]


@functools.cache
def table(spec: str) -> retro.RetroTable:
    return retro.solve_table(spec)


def _worth(t: retro.RetroTable, position: Position, player: Player) -> int:
    winner = t.value(position).outcome.winner
    return 0 if winner is None else 1 if winner is player else -1


def _play(spec: str, opponent: str, perfect_first: bool, index: int) -> None:
    t = table(spec)
    perfect = PerfectAgent(tie_break="random", table=t)
    other = make_agent(opponent)
    side = Player.FIRST if perfect_first else Player.SECOND
    first, second = (perfect, other) if perfect_first else (other, perfect)
    held: list[int] = []

    def watch(position: Position, move: Move) -> None:
        if position.to_move is side:
            held.append(_worth(t, position, side))
            assert held[-1] >= max(held), f"{spec}: the perfect player let {position.text()!r} slip"

    start = noughts.game(spec).start()
    outcome, moves = play_game(first, second, start, game_rng(index, int(perfect_first)), on_move=watch)
    best = max(held, default=_worth(t, start, side))
    result = 0 if outcome is Outcome.DRAW else 1 if outcome.winner is side else -1
    assert result >= best, f"{spec} vs {opponent}: held {best}, got {outcome} after {len(moves)} moves"
    if best == 1:
        assert outcome.winner is side and len(moves) < start.game.properties.move_cap


def test_the_perfect_player_keeps_what_it_holds_quick() -> None:
    for i in range(6):
        _play("morris", "random", i % 2 == 0, i)
        _play("forget(tictactoe)", "random", i % 2 == 1, i)


def test_grading_works_on_games_that_need_not_end() -> None:
    from noughts.arena.grade import grade

    running = int((retro.fast_graph("morris").outcome < 0).sum())
    g = grade("perfect:tie=random", "morris", games=2, seed=0)
    assert g.optimal_move_rate == 1.0 and g.positions == running
    sampled = grade("random", "forget(tictactoe)", sample=100, games=1, seed=1)
    assert sampled.positions == 100 and 0.0 < sampled.optimal_move_rate < 1.0


@pytest.mark.slow
@pytest.mark.parametrize("spec", GAMES)
@pytest.mark.parametrize("opponent", OPPONENTS)
def test_the_perfect_player_never_loses_what_it_holds(spec: str, opponent: str) -> None:
    # 4 games x 4 opponents x 64 games = 1,024 games, half with the perfect player first
    for i in range(64):
        _play(spec, opponent, i % 2 == 0, i)
