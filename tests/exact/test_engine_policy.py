"""``solve``'s engine policy as a parameter: rows that bring their own engines (``make``), engines
that decline a position, rows limited to a share of the budget, and the rows that certify. These
are what :mod:`noughts.solving` uses to add the Breaker prover from the layer above ``exact``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import noughts
from noughts.core import Budget, Game, LimitExceeded, NoughtsError, Outcome, Position
from noughts.exact.api import ENGINE_POLICY, MISERE_SHARE, EngineRule, choose_engine, solve
from noughts.exact.result import Value


class _Declines:
    """An engine that declines every position, and counts the questions."""

    engine = "declines"

    def __init__(self, game: Game, budget: Budget) -> None:
        self.budget = budget
        self.asked = 0

    def value(self, position: Position) -> Value | None:
        self.asked += 1
        return None


class _Stalls:
    """An engine that always runs out of its budget after many nodes."""

    def __init__(self, game: Game, budget: Budget) -> None:
        self.budget = budget
        self.nodes = 0
        self.limits: list[float | None] = []

    def value(self, position: Position) -> Value:
        self.limits.append(self.budget.max_seconds)
        self.nodes += 10_000
        raise LimitExceeded("stalled")


class _Draws:
    engine = "draws"

    def __init__(self, game: Game, budget: Budget) -> None:
        self.budget = budget

    def value(self, position: Position) -> Value:
        return Value(Outcome.DRAW, None)

    def argument(self) -> str:
        return "because it says so"


def _row(name: str, make: object, **kw: object) -> EngineRule:
    return EngineRule(name, name, lambda g, p: True, make=make, **kw)  # type: ignore[arg-type]


def test_a_declining_engine_hands_the_position_to_the_next_row() -> None:
    made: list[_Declines] = []

    def make(g: Game, b: Budget) -> _Declines:
        made.append(_Declines(g, b))
        return made[-1]

    r = solve("tictactoe", policy=(_row("declines", make), *ENGINE_POLICY))
    assert r.engine == "python" and r.value.outcome is Outcome.DRAW and r.value.plies == 9  # small: Python
    assert len(made) == 1 and made[0].asked == 1 + 9  # the position and each move, one engine


def test_a_row_with_a_share_gets_that_share_of_the_budget_left() -> None:
    made: list[_Stalls] = []

    def make(g: Game, b: Budget) -> _Stalls:
        made.append(_Stalls(g, b))
        return made[-1]

    r = solve(
        "tictactoe",
        value_only=True,
        max_seconds=40,
        policy=(_row("stalls", make, share=0.25), *ENGINE_POLICY),
    )
    assert r.engine == "python"
    (limit,) = made[0].limits  # searched past the loading allowance: no second try
    assert limit is not None and 9.0 < limit <= 10.0


def test_a_made_engine_answers_and_names_its_argument() -> None:
    r = solve("mnk(4,4,4)", value_only=True, policy=(_row("draws", _Draws),))
    assert r.engine == "draws" and r.argument == "because it says so"
    assert r.to_json()["argument"] == "because it says so"
    assert choose_engine(r.game, policy=(_row("draws", _Draws),)) == "draws"
    assert (
        solve("tictactoe", engine="draws", policy=(*ENGINE_POLICY, _row("draws", _Draws))).engine == "draws"
    )


def test_certificates_come_only_from_rows_that_certify(tmp_path: Path) -> None:
    with pytest.raises(NoughtsError, match="certificates come from"):
        solve("tictactoe", certificate=tmp_path / "c", policy=(_row("draws", _Draws),))
    with pytest.raises(NoughtsError, match="certificates come from"):
        solve("tictactoe", engine="alpha-beta", certificate=tmp_path / "c")
    r = solve("tictactoe", value_only=True, certificate=tmp_path / "t")  # the proof row certifies
    assert r.engine == "proof" and r.certificate is not None


def test_a_trial_once_row_that_ran_out_on_the_position_skips_its_moves() -> None:
    made: list[_Stalls] = []

    def make(g: Game, b: Budget) -> _Stalls:
        made.append(_Stalls(g, b))
        return made[-1]

    every = solve("tictactoe", policy=(_row("stalls", make, trial=5.0), *ENGINE_POLICY))
    assert len(made[0].limits) == 1 + 9  # tried on the position and on each move
    made.clear()
    once = solve("tictactoe", policy=(_row("stalls", make, trial=5.0, trial_once=True), *ENGINE_POLICY))
    assert len(made[0].limits) == 1  # tried on the position only
    assert once.value == every.value and [mv.value for mv in once.moves] == [mv.value for mv in every.moves]


def test_a_row_may_take_a_share_of_the_budget_on_some_games() -> None:
    # the alpha-beta row takes MISERE_SHARE of the budget left on misère games (its misère
    # pruning), its trial on the others
    made: list[_Stalls] = []

    def make(g: Game, b: Budget) -> _Stalls:
        made.append(_Stalls(g, b))
        return made[-1]

    def misere(g: Game) -> float | None:
        return 0.5 if "misere" in str(g) else None

    for spec, low, high in (("misere(tictactoe)", 19.0, 20.0), ("tictactoe", 2.0, 2.0)):
        made.clear()
        row = _row("stalls", make, trial=2.0, share_for=misere)
        assert solve(spec, value_only=True, max_seconds=40, policy=(row, *ENGINE_POLICY)).engine == "python"
        (limit,) = made[0].limits
        assert limit is not None and low <= limit <= high, (spec, limit)
    (alpha_beta,) = (r for r in ENGINE_POLICY if r.name == "alpha-beta")
    assert alpha_beta.share_for is not None
    assert alpha_beta.share_for(noughts.game("misere(mnk(5,5,4))")) == MISERE_SHARE
    assert alpha_beta.share_for(noughts.game("mnk(5,5,4)")) is None
