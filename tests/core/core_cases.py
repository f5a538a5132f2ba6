"""Shared cases for the core tests: the specs every conformance check runs on, and helpers.

Kept in one place so that a new board kind or rules family is added to every check at once.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import noughts
from noughts.core import Game, Move, Position

# -- boards of every kind -------------------------------------------------------------------------

# 3x3 with one added square, the three boards of 004 §2.2, plus the odd shape the brief names
EXTRA_SIDE = 'shape("###./####/###.",3)'  # next to an edge square (Figure 2-3)
EXTRA_CORNER_SIDE = 'shape("####/###./###.",3)'  # beside a corner square (Figure 2-4)
EXTRA_CORNER = 'shape("###./###./###./...#",3)'  # diagonally off a corner (Figure 2-5)
ODD_SHAPE = 'shape("###./###./...#",3)'
HOLES = 'shape("#.#/.#./#.#",2)'  # a board with holes inside its grid

BOARD_SPECS = [
    "tictactoe",
    "mnk(4,4,4)",
    "mnk(3,4,3)",
    "mnk(5,5,4)",
    "mnk(2,5,2)",
    "mnk(1,4,2)",
    "mnk(1,1,1)",
    "hypercube(3,3)",
    "hypercube(4,3)",
    "hypercube(3,4)",
    "hypercube(4,2,k=3)",
    "hypercube(3,1)",
    "hypercube(2,3)",
    EXTRA_SIDE,
    EXTRA_CORNER_SIDE,
    EXTRA_CORNER,
    ODD_SHAPE,
    HOLES,
]

# boards given by their lines (the planes, a torus, a user's hypergraph): no grid geometry to
# check their lines against, but every conformance check runs on them
LINE_BOARD_SPECS = ["affine(3)", "projective(2)", "torus(3,3,3)", 'hypergraph("a b c / c d e / e f a")']

# one board of each kind for the rules wrappers (kept small enough to play many games)
WRAPPED_BOARDS = ["mnk(3,3,3)", "mnk(3,4,3)", "hypercube(3,3)", "hypercube(4,2,k=3)", EXTRA_SIDE, HOLES]

WRAPPERS = ["misere({})", "maker_breaker({})", "maker_breaker({},breaker_first=true)", "cumulative({})"]

VETO_SPECS = [
    "veto(tictactoe)",
    "veto(misere(mnk(3,3,3)))",
    "veto(cumulative(mnk(3,3,3)))",
    "veto(maker_breaker(mnk(3,3,3)))",
    "veto(maker_breaker(mnk(3,3,3),breaker_first=true))",
    "veto(mnk(3,4,3))",
    "veto(hypercube(4,2,k=3))",
    f"veto(misere({EXTRA_SIDE}))",
    "veto(cumulative(hypercube(3,3)))",
]

NOTAKTO_SPECS = [
    "notakto",
    "notakto(boards=2)",
    "notakto(boards=3)",
    "notakto(mnk(4,4,4),boards=2)",
    "notakto(hypercube(3,2))",
    f"notakto({EXTRA_CORNER},boards=2)",
]

# rules under which marks vanish or move: games that need not end (played with a move cap)
LOOPY_SPECS = [
    "forget(tictactoe)",
    'forget(tictactoe,count="plies")',
    'forget(tictactoe,judge="before")',
    'forget(mnk(3,4,3),turns=2,count="plies",judge="before")',
    "forget(tictactoe,turns=5)",  # marks outlive the board: plain tic-tac-toe, bounded
    "forget(hypercube(3,3),turns=4)",
    f"forget({HOLES},turns=1)",
    "vanishing(tictactoe)",
    'vanishing(tictactoe,judge="before")',
    "vanishing(mnk(4,4,4),keep=4)",
    "vanishing(hypercube(4,2,k=3),keep=2)",
    f"vanishing({EXTRA_SIDE})",
    "vanishing(hypercube(3,3))",
    "morris",
    "morris(diagonals=false)",
    'morris(judge="before")',
    'morris(blocked="passes")',
    'morris(mnk(3,4,3),diagonals=false,judge="before",blocked="passes")',
    "morris(diagonals=false,diagonal_mills=false)",
    "morris(jump=true,diagonal_mills=false)",
    "morris(mnk(4,4,4),pieces=4)",
    "morris(hypercube(3,3),pieces=5)",
    f"morris({EXTRA_SIDE},pieces=2)",
    "morris(mnk(1,4,2),pieces=1)",
]

CONFORMANCE_SPECS = (
    BOARD_SPECS
    + LINE_BOARD_SPECS
    + [w.format(b) for b in WRAPPED_BOARDS for w in WRAPPERS]
    + VETO_SPECS
    + NOTAKTO_SPECS
    + ["otrio"]
    + LOOPY_SPECS
)


# -- helpers --------------------------------------------------------------------------------------


def all_moves(game: Game) -> list[Move]:
    """Every move the game can name: one per integer action."""
    return [game.move(a) for a in range(game.num_actions)]


def random_game(game: Game, rng: random.Random, cap: int | None = None) -> list[Position]:
    """The positions of one random game played to its end, the start first; a game that need not
    end stops after ``cap`` plies (default ``game.properties.move_cap``).
    """
    cap = game.properties.move_cap if cap is None else cap
    positions = [game.start()]
    while not positions[-1].is_terminal() and len(positions) <= cap:
        positions.append(positions[-1].play(rng.choice(positions[-1].legal_moves())))
    return positions


def reachable(game: Game) -> Iterator[Position]:
    """Every position reachable from the start (a walk with a seen set; small games only)."""
    start = game.start()
    seen = {start}
    stack = [start]
    while stack:
        p = stack.pop()
        yield p
        for m in p.legal_moves():
            q = p.play(m)
            if q not in seen:
                seen.add(q)
                stack.append(q)


def play_text(game: Game, moves: str) -> Position:
    """The position after ``moves``, written in people's notation and separated by spaces."""
    p = game.start()
    for word in moves.split():
        p = p.play(game.parse_move(word))
    return p


def game(spec: str) -> Game:
    return noughts.game(spec)
