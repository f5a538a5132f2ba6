"""Shared cases for the engine's tests: running positions along random games."""

from __future__ import annotations


def random_positions(game, count, rng, most=None):
    """``count`` running positions along random games (up to ``most`` moves in; the whole board
    by default), drawn from ``rng``."""
    out = []
    while len(out) < count:
        p = game.start()
        stop = int(rng.integers(0, most or game.board.num_cells))
        for _ in range(stop):
            if p.is_terminal():
                break
            moves = p.legal_moves()
            p = p.play(moves[int(rng.integers(len(moves)))])
        if not p.is_terminal():
            out.append(p)
    return out
