"""``ProofSearch.prove_cells`` (what the strategy writer asks of positions its table no longer
answers) gives :meth:`ProofSearch.prove`'s answer on every unfinished position of the small
claim games, for both attackers and both goals, in fresh searches and in searches whose table
already holds the answers."""

from __future__ import annotations

import numpy as np
import pytest

import noughts
from noughts.core import Player, Position
from noughts.proving.proof import DRAW, WIN, ProofSearch


def _positions(game: noughts.Game, limit: int) -> list[Position]:
    seen = {game.start()}
    frontier = [game.start()]
    while frontier and len(seen) < limit:
        nxt = []
        for p in frontier:
            for m in p.legal_moves():
                c = p.play(m)
                if c not in seen and not c.is_terminal():
                    seen.add(c)
                    nxt.append(c)
        frontier = nxt
    return sorted(seen, key=lambda p: p.text())[:limit]


def _own(position: Position) -> np.ndarray:
    own = np.full(position.game.board.num_cells, -1, dtype=np.int8)
    for p in (Player.FIRST, Player.SECOND):
        for c in position.game.board.cells_in(position.owned(p)):
            own[c] = int(p)
    return own


@pytest.mark.parametrize(
    "spec", ["tictactoe", "misere(tictactoe)", "maker_breaker(tictactoe)", "hypercube(3,3)"]
)
@pytest.mark.parametrize(
    ("attacker", "goal"), [(Player.FIRST, WIN), (Player.SECOND, WIN), (Player.FIRST, DRAW)]
)
def test_prove_cells_answers_as_prove(spec: str, attacker: Player, goal: int) -> None:
    game = noughts.game(spec)
    positions = _positions(game, 400)
    reference = ProofSearch(game, attacker, goal)
    answers = [reference.prove(p) for p in positions]
    fresh = ProofSearch(game, attacker, goal)
    for position, answer in zip(positions, answers, strict=True):
        proved, move = fresh.prove_cells(_own(position))
        assert proved == answer.proved, position.text()
        # the same search, asked again: the move kept where the table holds one is a legal one
        again, kept = reference.prove_cells(_own(position))
        assert again == answer.proved
        if kept is not None:
            assert kept in position.legal_moves()
        if move is not None:
            assert move in position.legal_moves()
