"""What the arena offers before anything is asked: the games of the sources for the game
picker (:data:`PRESETS`), the built-in agents (:data:`BUILT_IN`) and the page's files
(:data:`STATIC`).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["BUILT_IN", "PRESETS", "STATIC"]

BUILT_IN = [
    "perfect",
    "perfect:tie=random",
    "random",
    "minimax:depth=1",
    "minimax:depth=2",
    "minimax:depth=4",
    "mcts:sims=200",
    "mcts:sims=2000",
    "engine",
    "pairing",
    "qlearning:reflexes=true,depth=2",
]
"""The built-in agents the page offers (``GET /api/agents``), in its order."""

STATIC = Path(__file__).parent / "static"

PRESETS: tuple[tuple[str, str, str, str], ...] = (
    ("tictactoe", "Tic-tac-toe", "3x3, three in a row; a draw with perfect play", "perfect"),
    ("mnk(4,4,4)", "4x4", "four in a row on 4x4 (004 §2.3); a draw", "perfect"),
    (
        "mnk(15,15,5)",
        "Gomoku 15x15",
        "five in a row on 15x15 (free-style: six or more counts too)",
        "engine",
    ),
    ("hypercube(3,3)", "3x3x3", "the cube (002, 004 §3.1); the first player wins at once", "perfect"),
    ("hypercube(4,3)", "4x4x4", "Qubic, the 4^3 cube (002)", "perfect"),
    ("maker_breaker(hypercube(7,3))", "7x7x7 Maker-Breaker", "Breaker wins by a pairing (002)", "pairing"),
    ("hypercube(7,3)", "7x7x7", "the 7^3 cube, 193 lines (002)", "engine"),
    ("misere(tictactoe)", "Misère", "three in a row loses (004 §4.2)", "perfect"),
    ("maker_breaker(tictactoe)", "Maker-Breaker", "Maker needs a line, Breaker one mark in each", "perfect"),
    ("cumulative(tictactoe)", "Cumulative", "fill the board, most lines wins (000)", "perfect"),
    ("veto(tictactoe)", "Veto", "forbid one cell before each claim (004 §4.3)", "perfect"),
    ("notakto", "Notakto", "both play x; completing a line loses (004 §4.4)", "perfect"),
    ("notakto(boards=2)", "Notakto, 2 boards", "the last live board's killer loses", "perfect"),
    ("notakto(boards=3)", "Notakto, 3 boards", "", "perfect"),
    ("otrio", "Otrio", "rings of three sizes (004 §3.2)", "perfect"),
    (
        'shape("###./####/###.",3)',
        "3x3 + side square",
        "an extra square beside an edge (004 §2.2)",
        "perfect",
    ),
    ('shape("####/###./###.",3)', "3x3 + corner-side square", "beside a corner square (004 §2.2)", "perfect"),
    (
        'shape("###./###./###./...#",3)',
        "3x3 + diagonal square",
        "diagonally off a corner (004 §2.2)",
        "perfect",
    ),
    (
        "forget(tictactoe)",
        "Tic-Tac-Toe Forget",
        "a mark leaves after three of its owner's turns (004 ch. 6)",
        "perfect",
    ),
    (
        'forget(tictactoe,count="plies")',
        "Forget (plies)",
        "a mark leaves after three plies: no line is possible",
        "perfect",
    ),
    ("vanishing(tictactoe)", "Vanishing marks", "three marks each; a fourth removes your oldest", "perfect"),
    ("morris", "Three Men's Morris", "place three, then slide along the lines (diagonals too)", "perfect"),
    (
        "morris(diagonals=false)",
        "Three Men's Morris (Murray)",
        "no moves along the diagonals (Murray 1913)",
        "perfect",
    ),
    (
        "morris(diagonals=false,diagonal_mills=false)",
        "Three Men's Morris, no diagonals",
        "rows and columns only",
        "perfect",
    ),
)
"""The games of the sources, for the game picker: spec, name, note, and the default opponent:
the perfect player where it answers (proven, or its fallback's move within the time limit), a
pairing where Breaker has one, the engine (alpha-beta with threat search and proofs under the
move's clock) on the big boards, where the perfect player would only ever fall back to it.
"""
