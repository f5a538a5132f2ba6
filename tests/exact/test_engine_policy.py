"""The portfolio that runs a policy's engines (:mod:`noughts.exact.engines`): engines behind one
protocol, interleaved with doubling time slices, each resuming where it stopped; a declining
engine hands the position on; the engine that answered goes first next time; a row's weight
stretches its slices; the whole budget still bounds the whole. Fake engines (which keep their
own work between slices, as the real ones keep their tables) make every slice visible; no test
here reads a clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

import noughts
from noughts.core import Budget, LimitExceeded, NoughtsError, Outcome, Position
from noughts.core.values import Value
from noughts.exact.engines import FIRST_SLICE, Engine, EngineRow, Portfolio
from noughts.solving import POLICY, choose_engine, solve


@dataclass
class _Slow:
    """An engine that needs ``work`` seconds of slices in all (kept between slices: it resumes),
    then answers a draw; ``None`` work: it never answers. Records each slice it was given.
    """

    name: str
    work: float | None
    certificate: str | None = None
    distances: bool = False
    instant: bool = False
    progress: object = None
    nodes: int = 0
    done: float = 0.0
    slices: list[float | None] = field(default_factory=list)

    def value(self, position: Position, budget: Budget) -> Value | None:
        self.slices.append(budget.max_seconds)
        self.nodes += 10_000  # past the loading allowance: a slice of real search
        if self.work is not None and budget.max_seconds is None:
            return Value(Outcome.DRAW, None)
        self.done += budget.max_seconds or 0.0
        if self.work is not None and self.done >= self.work:
            return Value(Outcome.DRAW, None)
        raise LimitExceeded("slice over")


@dataclass
class _Declines(_Slow):
    def value(self, position: Position, budget: Budget) -> Value | None:
        self.slices.append(budget.max_seconds)
        return None


def _rows(*engines: _Slow, weight: float = 1.0) -> tuple[EngineRow, ...]:
    return tuple(EngineRow(e.name, e.name, (lambda g, b, e=e: e), weight=lambda g: weight) for e in engines)  # type: ignore[misc]


G = noughts.game("mnk(4,4,4)")


def test_a_fake_engine_is_an_engine() -> None:
    assert isinstance(_Slow("a", 1.0), Engine)


def test_the_engines_are_interleaved_with_doubling_slices_and_resume() -> None:
    a, b = _Slow("a", None), _Slow("b", 3.0)  # b needs 3 s of slices in all: 0.5 + 1 + 2
    value, name = Portfolio(G, _rows(a, b)).value(G.start(), Budget(max_seconds=None))
    assert name == "b" and value.outcome is Outcome.DRAW
    assert b.slices == [FIRST_SLICE, 2 * FIRST_SLICE, 4 * FIRST_SLICE]
    assert a.slices == b.slices  # a got as much as b, no more: the portfolio costs 2x the best here


def test_a_declining_engine_hands_the_position_on_and_the_last_one_gets_the_rest() -> None:
    d, b = _Declines("d", None), _Slow("b", 100.0)
    _, name = Portfolio(G, _rows(d, b)).value(G.start(), Budget(max_seconds=None))
    assert name == "b" and d.slices == [FIRST_SLICE] and b.slices == [None]  # alone: the whole budget


def test_the_engine_that_answered_goes_first_on_the_next_position() -> None:
    a, b = _Slow("a", 2 * FIRST_SLICE), _Slow("b", FIRST_SLICE)
    portfolio = Portfolio(G, _rows(a, b))
    assert portfolio.value(G.start(), Budget(max_seconds=None))[1] == "b"
    b.done, a.slices, b.slices = 0.0, [], []
    assert portfolio.value(G.start().play(0), Budget(max_seconds=None))[1] == "b"
    assert a.slices == [] and b.slices == [FIRST_SLICE]  # b first, and it answered


def test_a_weight_stretches_a_rows_slices() -> None:
    a = _Slow("a", None)
    b = _Slow("b", FIRST_SLICE * 3)
    rows = (*_rows(a, weight=3.0), *_rows(b))
    assert Portfolio(G, rows).value(G.start(), Budget(max_seconds=None))[1] == "b"
    assert a.slices == [3 * FIRST_SLICE, 6 * FIRST_SLICE] and b.slices == [FIRST_SLICE, 2 * FIRST_SLICE]


def test_the_whole_budget_bounds_the_portfolio() -> None:
    a, b = _Slow("a", None), _Slow("b", None)
    budget = Budget(max_seconds=0.0)
    with pytest.raises(LimitExceeded):
        Portfolio(G, _rows(a, b)).value(G.start(), budget)
    assert len(a.slices) == 1 and not b.slices  # the first slice found the budget spent


def test_the_policy_misere_weight_and_rows() -> None:
    (alpha_beta,) = (r for r in POLICY if r.name == "alpha-beta")
    assert alpha_beta.weight(noughts.game("misere(mnk(5,5,4))")) == 3.0
    assert alpha_beta.weight(noughts.game("mnk(5,5,4)")) == 1.0
    assert choose_engine("notakto(boards=16)") == "quotient"
    assert choose_engine("veto(tictactoe)") == "python"
    assert choose_engine("mnk(6,6,5)") == "alpha-beta"


def test_certificates_come_only_from_rows_that_certify(tmp_path: Path) -> None:
    with pytest.raises(NoughtsError, match="certificates come from"):
        solve("tictactoe", engine="alpha-beta", certificate=tmp_path / "c")
    r = solve("tictactoe", value_only=True, certificate=tmp_path / "t")  # the proof row certifies
    assert r.engine == "proof" and r.certificate is not None


def test_unknown_engines_are_refused_before_any_work() -> None:
    with pytest.raises(
        NoughtsError, match="unknown engine 'nonesuch': choose auto, alpha-beta, breaker, proof, python"
    ):
        solve("tictactoe", engine="nonesuch")


@dataclass
class _Full(_Slow):
    """An engine whose tables are full: every slice stops at the memory budget."""

    def value(self, position: Position, budget: Budget) -> Value | None:
        self.slices.append(budget.max_seconds)
        raise LimitExceeded("stopped at 1 KiB (the memory budget); 12 positions searched")


def test_an_engine_out_of_memory_leaves_the_portfolio() -> None:
    full, b = _Full("full", None), _Slow("b", 100.0)
    assert Portfolio(G, _rows(full, b)).value(G.start(), Budget(max_seconds=None))[1] == "b"
    assert full.slices == [FIRST_SLICE] and b.slices == [None]  # then b alone, with the whole budget
    other = _Full("other", None)
    with pytest.raises(LimitExceeded, match="the memory budget"):  # no engine left: said, not a loop
        Portfolio(G, _rows(_Full("full", None), other)).value(G.start(), Budget(max_seconds=None))
