"""Shared cases for the exact-solver tests: the games held to the reference, cached references,
and deep random positions for the games too large to check from the start."""

from __future__ import annotations

import random
from functools import cache

import noughts
from noughts.core import Game, Position
from noughts.exact import Value, reference_values

EXTRA_SIDE = 'shape("###./####/###.",3)'  # 3x3 and a square beside an edge cell (004 Figure 2-3)
EXTRA_CORNER_SIDE = 'shape("####/###./###.",3)'  # beside a corner cell, in line with a row (Figure 2-4)
EXTRA_CORNER = 'shape("###./###./###./...#",3)'  # diagonally off a corner (Figure 2-5)

# the 3x3 games, one of each rules set (tests/agents/test_perfect.py keeps a copy of this list)
THREE_BY_THREE = [
    "tictactoe",
    "misere(tictactoe)",
    "maker_breaker(tictactoe)",
    "maker_breaker(tictactoe,breaker_first=true)",
    "cumulative(tictactoe)",
    "veto(tictactoe)",
    "notakto",
]

# every 3x3 game (and the added-square boards, and normal-play Notakto): held to the reference on
# every reachable position
SMALL_GAMES = [*THREE_BY_THREE, "notakto(misere=false)", EXTRA_SIDE, EXTRA_CORNER_SIDE, EXTRA_CORNER]

# the other veto wrappers: every reachable position too, but only in the slow run
SLOW_SMALL_GAMES = [
    "veto(misere(tictactoe))",
    "veto(cumulative(tictactoe))",
    "veto(maker_breaker(tictactoe))",
    "veto(maker_breaker(tictactoe,breaker_first=true))",
]

# (spec, plies played before the reference takes over, positions sampled)
DEEP_SAMPLES = [
    ("notakto(boards=2)", 6, 6),
    ("otrio", 12, 4),
    ("mnk(4,4,4)", 8, 4),
    ("hypercube(3,3)", 17, 4),
    ("misere(mnk(4,4,4))", 9, 3),
    ("cumulative(mnk(4,4,4))", 10, 3),
    ("maker_breaker(mnk(4,4,4))", 8, 3),
    ("veto(mnk(3,4,3))", 12, 3),
    ("notakto(boards=3)", 11, 3),
]


@cache
def game(spec: str) -> Game:
    return noughts.game(spec)


@cache
def reference(spec: str) -> dict[Position, Value]:
    """The reference's value of every position reachable from the start (cached per run)."""
    return reference_values(game(spec))


def deep_positions(spec: str, plies: int, count: int, seed: int = 2024) -> list[Position]:
    """``count`` distinct positions reached by ``plies`` random moves (games that end sooner are
    retried), so that the reference can solve everything reachable from them quickly."""
    g = game(spec)
    rng = random.Random(f"{spec}/{plies}/{seed}")
    found: list[Position] = []
    tries = 0
    while len(found) < count and tries < 1000:
        tries += 1
        p = g.start()
        for _ in range(plies):
            if p.is_terminal():
                break
            p = p.play(rng.choice(p.legal_moves()))
        if not p.is_terminal() and p not in found:
            found.append(p)
    assert len(found) == count, f"could not reach {count} running positions of {spec} at ply {plies}"
    return found
