"""The Python search's pairing bounds, and the alpha-beta engine's trial of the Python search
before the kernel on boards of 13 to 16 cells (``exact.engines.PYTHON_TRIAL_CELLS``): the first
``noughts solve "mnk(4,4,4)"`` on a new machine compiles no kernel.

The bounds' values are held to the reference by ``tests/exact/test_search.py`` (every
reachable position of the small games, positions reachable from deep 4x4 and 3x3x3 ones);
here, that they prune, and that the hand-over to the kernel keeps the value.
"""

from __future__ import annotations

import pytest

import noughts
from noughts.core import Budget
from noughts.exact import Searcher
from noughts.exact import engines as exact_engines
from noughts.exact.engines import AlphaBeta
from noughts.exact.search import NodesExceeded


def test_the_pairing_bounds_settle_4x4_at_once_and_tictactoe_with_fewer_positions() -> None:
    g = noughts.game("mnk(4,4,4)")
    s = Searcher(g)
    assert s.value(g.start()).describe(g) == "draw"
    assert s.nodes < 1_000  # without the bounds: 328,375 positions
    t = noughts.game("tictactoe")
    with_bounds = Searcher(t)
    without = Searcher(t)
    without._rules.bounds = None
    assert with_bounds.value(t.start()) == without.value(t.start())
    assert with_bounds.nodes < without.nodes


def test_a_pairing_needs_two_empty_cells_of_its_own_for_each_line() -> None:
    from noughts.exact.search import _paired

    # lines {0,1,2} and {2,3,4}: four cells of their own; three empty cells are too few
    assert _paired([[0, 1, 2], [2, 3, 4]], 0b11111)
    assert not _paired([[0, 1, 2], [2, 3, 4]], 0b00111)
    assert not _paired([[0, 1], [0, 1]], 0b11)  # two lines on the same two cells


def test_the_searcher_stops_past_its_max_nodes() -> None:
    g = noughts.game("maker_breaker(mnk(4,4,4))")
    s = Searcher(g, Budget(max_seconds=None))
    s.max_nodes = 600
    with pytest.raises(NodesExceeded, match="600 positions"):
        s.value(g.start())


def test_the_python_search_answers_4x4_without_the_kernel() -> None:
    g = noughts.game("mnk(4,4,4)")
    engine = AlphaBeta(g, Budget(max_seconds=None))
    assert engine.trying
    value = engine.value(g.start(), Budget(max_seconds=None))
    assert value is not None and value.describe(g) == "draw"
    assert engine.name == "python" and engine.trying  # no hand-over: the kernel was never made
    assert noughts.solve("mnk(4,4,4)", value_only=True).engine == "python"


def test_past_the_trial_the_kernel_answers_with_the_same_value(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exact_engines, "PYTHON_TRIAL_NODES", 1_024)
    g = noughts.game("maker_breaker(mnk(4,4,4))")
    p = g.start().play(g.parse_move("b2"))
    engine = AlphaBeta(g, Budget(max_seconds=None))
    value = engine.value(p, Budget(max_seconds=None))
    assert engine.name == "alpha-beta" and not engine.trying
    assert engine.nodes >= 1_024  # the trial's positions are counted too
    kernel = AlphaBeta(g, Budget(max_seconds=None), prefer_fast=True)
    assert not kernel.trying
    assert value == kernel.value(p, Budget(max_seconds=None))
