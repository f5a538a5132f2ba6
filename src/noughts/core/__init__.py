"""The game core: boards, rules, positions, notation, specs and symmetry.

Depends on the standard library and NumPy only.
"""

from noughts.core.board import Board, hypercube, mnk, shape
from noughts.core.budget import Budget
from noughts.core.claim import ClaimGame, CumulativeGame, MakerBreakerGame, MisereGame, StandardGame
from noughts.core.codes import Result, Rule
from noughts.core.common import Action, Cell, Move, NotaktoMove, Outcome, Player, Ring, Veto
from noughts.core.errors import IllegalMoveError, LimitExceeded, NotationError, NoughtsError, SpecError
from noughts.core.game import Game, GameProperties, Position
from noughts.core.notakto import NotaktoGame
from noughts.core.otrio import OtrioGame
from noughts.core.registry import ENTRIES, board, game, hypergraph
from noughts.core.veto import VetoGame

__all__ = [
    "ENTRIES",
    "Action",
    "Board",
    "Budget",
    "Cell",
    "ClaimGame",
    "CumulativeGame",
    "Game",
    "GameProperties",
    "IllegalMoveError",
    "LimitExceeded",
    "MakerBreakerGame",
    "MisereGame",
    "Move",
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
    "SpecError",
    "StandardGame",
    "Veto",
    "VetoGame",
    "board",
    "game",
    "hypercube",
    "hypergraph",
    "mnk",
    "shape",
]
