"""The engine as the review's estimator on boards past the solver: every move graded, the
estimates marked, no corner recommended on an open gomoku board."""

from __future__ import annotations

import pytest

import noughts
from noughts.core import Budget, NoughtsError
from noughts.review import make_estimator, review
from noughts.review.estimators import AutoEstimator, EngineEstimator

GOMOKU = noughts.game("mnk(15,15,5)")
CORNERS = {"a1", "o1", "a15", "o15"}
X_MOVES = ["d2", "c15", "f10", "k2", "j7", "i11"]  # the game: x's moves
O_MOVES = ["h8", "i9", "g7", "h10", "j9", "g9"]


def test_review_of_a_short_gomoku_game_grades_every_move_without_corners() -> None:
    moves = [m for pair in zip(X_MOVES, O_MOVES, strict=True) for m in pair]
    r = review(GOMOKU, moves, budget=Budget(120), position_seconds=0.2, estimator="engine:seconds=0.2")
    assert r.complete and r.estimator == "engine:seconds=0.2"
    assert len(r.moves) == 12
    for m in r.moves:
        assert m.reviewed and m.judgement is not None, m
        assert m.best and not set(m.best) & CORNERS, m
        assert m.before is not None and m.after is not None
    assert any(not m.exact for m in r.moves)  # graded by the engine: marked as not exact
    assert all(d["exact"] == m.exact for d, m in zip(r.to_json()["moves"], r.moves, strict=True))
    assert all(v is not None for v in r.values)
    estimated = [v for v in r.values if v is not None and not v.is_exact]
    assert estimated and all(v.by == "engine:seconds=0.2" for v in estimated)


def test_auto_uses_the_engine_on_a_wide_claim_board() -> None:
    p = GOMOKU.start().play(GOMOKU.parse_move("h8"))
    out = AutoEstimator().estimate(p, Budget(0.5))
    assert {e.move for e in out} == set(p.legal_moves())
    assert all(e.value.by == "engine:seconds=1" for e in out)
    # the engine's estimates keep next to the centre, not in a corner
    best = max(out, key=lambda e: -e.value.eval)  # o to move: lower is better for o
    assert GOMOKU.format_move(best.move) not in CORNERS


def test_engine_estimator_spec_and_its_errors() -> None:
    e = make_estimator("engine:seconds=0.5")
    assert isinstance(e, EngineEstimator) and e.seconds == 0.5
    for bad in ("engine:seconds=0", "engine:seconds=1000", "engine:depth=3"):
        with pytest.raises(NoughtsError):
            make_estimator(bad)
    with pytest.raises(NoughtsError, match="claim games"):
        EngineEstimator(0.1).estimate(noughts.game("otrio").start(), Budget(1))
