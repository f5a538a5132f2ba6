"""Review a game against the truth: the exact value before and after every move (an engine's
labelled estimate where the solver does not finish in time), each move classed best,
inaccuracy or mistake, and each player's accuracy.

>>> import noughts
>>> from noughts.review import review
>>> r = review("tictactoe", ["b2", "b1", "a1", "c1"])
>>> [(m.move, m.judgement) for m in r.moves]
[('b2', 'best'), ('b1', 'mistake'), ('a1', 'best'), ('c1', 'inaccuracy')]
>>> r.moves[3].best, r.players[noughts.Player.SECOND].accuracy
(('c3',), 0.0)
"""

from noughts.review.analysis import (
    BEST,
    INACCURACY,
    MISTAKE,
    MoveReview,
    PlayerSummary,
    Review,
    ReviewStopped,
    review,
)
from noughts.review.estimators import (
    ESTIMATORS,
    Estimator,
    MCTSEstimator,
    MinimaxEstimator,
    MoveEstimate,
    make_estimator,
)
from noughts.review.evaluation import Evaluation

__all__ = [
    "BEST",
    "ESTIMATORS",
    "INACCURACY",
    "MISTAKE",
    "Estimator",
    "Evaluation",
    "MCTSEstimator",
    "MinimaxEstimator",
    "MoveEstimate",
    "MoveReview",
    "PlayerSummary",
    "Review",
    "ReviewStopped",
    "make_estimator",
    "review",
]
