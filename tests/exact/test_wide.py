"""The multi-word kernel (noughts.exact._kernels, W words per mask) held to the reference and to the one-word kernel.

Forced on the small games (``FastSolver(game, words=W)``) it must give the reference's value and
distance on every reachable position, with one word per mask and with two (the second word
then always empty); on boards of more than 64 cells (two and three words, cells in every word)
it is held to the reference on every position reachable from sampled deep positions.
"""

from __future__ import annotations

import random

import pytest
from exact_cases import EXTRA_CORNER, EXTRA_SIDE, game, reference

from noughts import LimitExceeded, Outcome, Position
from noughts.core.values import Value
from noughts.exact import Budget, fast, reference_values
from noughts.exact.fast import WORD_CELLS, FastSolver, entry_bytes, supports, words_needed

WIDE_SMALL_GAMES = [
    "tictactoe",
    "misere(tictactoe)",
    "maker_breaker(tictactoe)",
    "maker_breaker(tictactoe,breaker_first=true)",
    "cumulative(tictactoe)",
    EXTRA_SIDE,
    EXTRA_CORNER,
    "mnk(2,2,2)",
    "mnk(1,3,1)",
]


def _wrong(solver: FastSolver, expected: dict[Position, Value]) -> list[tuple[str, Value, Value]]:
    out = []
    for p, v in expected.items():
        got = solver.value(p)
        if got != v:
            out.append((p.text(), v, got))
    return out


@pytest.mark.parametrize("words", [1, 2])
@pytest.mark.parametrize("spec", WIDE_SMALL_GAMES)
def test_every_reachable_position_of_the_small_games(spec: str, words: int) -> None:
    solver = FastSolver(game(spec), words=words)
    assert solver.words == words
    wrong = _wrong(solver, reference(spec))
    assert not wrong, f"{len(wrong)} wrong, e.g. {wrong[:3]}"


def test_every_position_backwards_with_a_tiny_table() -> None:
    """Deepest positions first through a table of 4 entries: replacement never corrupts a value."""
    expected = reference("tictactoe")
    solver = FastSolver(game("tictactoe"), tt_bytes=4 * entry_bytes(2), words=2)
    assert solver.tt_bytes == 4 * entry_bytes(2)
    order = sorted(expected, key=lambda p: -(p.state[0] | p.state[1]).bit_count())
    assert not _wrong(solver, {p: expected[p] for p in order})


def _deep(spec: str, empty: int, count: int, seed: int) -> list[Position]:
    """``count`` running positions with ``empty`` empty cells, reached by random moves that do
    not end the game (so that play gets that deep on a large board)."""
    g = game(spec)
    rng = random.Random(f"{spec}/{seed}")
    out: list[Position] = []
    tries = 0
    while len(out) < count and tries < 200:
        tries += 1
        p = g.start()
        while g.board.num_cells - (p.state[0] | p.state[1]).bit_count() > empty:
            moves = p.legal_moves()
            rng.shuffle(moves)
            for m in moves:
                child = p.play(m)
                if not child.is_terminal():
                    p = child
                    break
            else:
                break
        if not p.is_terminal() and g.board.num_cells - (p.state[0] | p.state[1]).bit_count() == empty:
            out.append(p)
    assert len(out) == count, f"only {len(out)} deep positions of {spec}"
    return out


@pytest.mark.parametrize(
    ("spec", "empty", "count"),
    [
        ("mnk(9,9,4)", 8, 3),  # 81 cells: two words
        ("misere(mnk(9,9,4))", 8, 2),
        ("maker_breaker(mnk(9,9,4))", 9, 2),
        ("maker_breaker(mnk(9,9,4),breaker_first=true)", 9, 2),
        ("cumulative(mnk(9,9,4))", 7, 2),
        ("hypercube(5,3)", 8, 2),  # 125 cells, 48 symmetries
        ("mnk(12,11,5)", 8, 2),  # 132 cells: three words
    ],
)
def test_deep_positions_of_boards_over_64_cells(spec: str, empty: int, count: int) -> None:
    g = game(spec)
    assert g.board.num_cells > WORD_CELLS and supports(g)
    shared = FastSolver(g)
    assert shared.words == words_needed(g) >= 2
    for start in _deep(spec, empty, count, seed=11):
        expected = reference_values(g, start)
        wrong = _wrong(shared, expected)
        assert not wrong, f"{len(wrong)} of {len(expected)} wrong, e.g. {wrong[:3]}"
        assert FastSolver(g).value(start) == expected[start]


@pytest.mark.parametrize(
    "spec",
    ["mnk(4,4,4)", "hypercube(3,3)", "mnk(6,5,4)", "maker_breaker(mnk(4,4,4))", "cumulative(mnk(4,3,3))"],
)
def test_both_kernels_agree_on_the_start_and_the_first_moves(spec: str) -> None:
    """Two kernels (different keys, so different tables and search orders) give equal values."""
    g = game(spec)
    start = g.start()
    one, wide = FastSolver(g), FastSolver(g, words=2)
    assert one.words is None
    assert one.value(start) == wide.value(start)
    if g.board.num_cells <= 16:
        for m in start.legal_moves():
            assert one.value(start.play(m)) == wide.value(start.play(m))


@pytest.mark.slow
def test_both_kernels_agree_on_every_first_move_of_6x5() -> None:
    """mnk(6,5,4), a first-player win in 11: every first move's value and distance, both kernels."""
    g = game("mnk(6,5,4)")
    start = g.start()
    one, wide = FastSolver(g), FastSolver(g, words=1)
    values = {g.format_move(m): one.value(start.play(m)) for m in start.legal_moves()}
    assert values == {g.format_move(m): wide.value(start.play(m)) for m in start.legal_moves()}
    assert one.value(start) == Value(Outcome.FIRST, 11)


def test_large_boards_settle_fast() -> None:
    """mnk(9,9,3) and mnk(11,11,3): the first player wins in 5 plies (three in a row on a board
    this open cannot be stopped: two open twos)."""
    for spec in ("mnk(9,9,3)", "mnk(11,11,3)"):
        g = game(spec)
        assert FastSolver(g).value(g.start()) == Value(Outcome.FIRST, 5)


def test_words_must_hold_the_board() -> None:
    with pytest.raises(ValueError, match="words"):
        FastSolver(game("mnk(9,9,3)"), words=1)


class _StopAfter(Budget):
    """A budget that runs out at its n-th check (without depending on the clock)."""

    def __init__(self, checks: int) -> None:
        super().__init__(max_seconds=None)
        self.left = checks

    def check(self, memory: int = 0, progress: str = "") -> None:
        self.left -= 1
        if self.left < 0:
            raise LimitExceeded(f"stopped; {progress}")


def test_slices_budget_and_table_growth(monkeypatch: pytest.MonkeyPatch) -> None:
    """The multi-word search pauses between slices (the budget stops it, the same solver goes
    on exactly), and its table grows from 16 entries by rehashing without losing a value."""
    monkeypatch.setattr(fast, "SLICE_NODES", 500)
    monkeypatch.setattr(fast, "FIRST_ENTRIES", 16)
    g = game("mnk(9,9,4)")
    seen: list[int] = []
    solver = FastSolver(g, _StopAfter(3), progress=seen.append)
    with pytest.raises(LimitExceeded, match=r"[0-9,]+ positions searched"):
        solver.value(g.start())
    assert len(seen) == 2 and seen == sorted(set(seen))  # checks: the table, the start, two slices
    solver.budget = None
    assert solver.value(g.start()) == Value(Outcome.FIRST, 11)
    assert solver.table_bytes > 16 * entry_bytes(2)
    start = _deep("mnk(9,9,4)", 9, 1, seed=5)[0]
    expected = reference_values(g, start)
    assert not _wrong(solver, expected)
