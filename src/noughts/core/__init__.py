"""The game core: boards, rules, positions, notation, specs and symmetry.

Depends on the standard library and NumPy only.
"""

from noughts.core.board import Board, hypercube, mnk, shape
from noughts.core.budget import Budget
from noughts.core.claim import ClaimGame, CumulativeGame, MakerBreakerGame, MisereGame, StandardGame
from noughts.core.codes import Result, Rule
from noughts.core.common import Action, Cell, Move, NotaktoMove, Outcome, Player, Ring, Slide, Veto
from noughts.core.errors import IllegalMoveError, LimitExceeded, NotationError, NoughtsError, SpecError
from noughts.core.game import (
    TRUNCATION,
    FadingMarks,
    Game,
    GameProperties,
    Layout,
    MovingPieces,
    Position,
    require_bounded,
)
from noughts.core.loopy import FadingGame, ForgetGame, MorrisGame, VanishingGame
from noughts.core.notakto import NotaktoGame
from noughts.core.otrio import OtrioGame
from noughts.core.registry import ENTRIES, board, game, hypergraph
from noughts.core.veto import VetoGame

__all__ = [
    "ENTRIES",
    "TRUNCATION",
    "Action",
    "Board",
    "Budget",
    "Cell",
    "ClaimGame",
    "CumulativeGame",
    "FadingGame",
    "FadingMarks",
    "ForgetGame",
    "Game",
    "GameProperties",
    "IllegalMoveError",
    "Layout",
    "LimitExceeded",
    "MakerBreakerGame",
    "MisereGame",
    "MorrisGame",
    "Move",
    "MovingPieces",
    "NotaktoGame",
    "NotaktoMove",
    "NotationError",
    "NoughtsError",
    "OtrioGame",
    "Outcome",
    "Player",
    "Position",
    "Result",
    "Ring",
    "Rule",
    "Slide",
    "SpecError",
    "StandardGame",
    "VanishingGame",
    "Veto",
    "VetoGame",
    "board",
    "game",
    "hypercube",
    "hypergraph",
    "mnk",
    "require_bounded",
    "shape",
]
