"""The numba solver (noughts.exact.fast) held to the reference on every position of the small games.

Values and distances must match exactly. The reference is ``noughts.exact.reference`` (a plain
memoised minimax over the public API); where it is missing, a local brute force of the same
definition stands in.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import numpy as np
import pytest
from numba import njit

import noughts
from noughts import Game, LimitExceeded, Outcome, Player, Position
from noughts.core.budget import Budget
from noughts.core.values import WIN, Value, from_int
from noughts.exact import _kernels, fast
from noughts.exact.fast import ENTRY_BYTES, FastSolver, count_lines, supports

try:
    from noughts.exact.reference import reference_values
except ImportError:  # the shared reference is not there: the same definition, brute force

    def reference_values(game: Game, start: Position | None = None) -> dict[Position, Value]:
        scored = game.properties.is_scored
        memo: dict[Position, int] = {}

        def value(p: Position) -> int:
            known = memo.get(p)
            if known is not None:
                return known
            if p.is_terminal():
                score = p.score()
                if scored and score is not None:
                    v = (score[0] - score[1]) * (1 if p.to_move is Player.FIRST else -1)
                else:
                    winner = p.outcome().winner  # type: ignore[union-attr]
                    v = 0 if winner is None else WIN if winner is p.to_move else -WIN
            else:
                children = (value(p.play(m)) for m in p.legal_moves())
                v = max(-c if scored else -(c - (c > 0) + (c < 0)) for c in children)
            memo[p] = v
            return v

        value(game.start() if start is None else start)
        cells = game.board.num_cells
        out = {}
        for p, v in memo.items():
            empty = 0 if p.is_terminal() else cells - (p.state[0] | p.state[1]).bit_count()
            out[p] = from_int(v, p.to_move, empty, scored)
            if p.is_terminal():
                out[p] = Value(out[p].outcome, 0, out[p].score)
        return out


EXTRA_SIDE = 'shape("###./####/###.",3)'  # 004 §2.2, Figure 2-3
EXTRA_CORNER_SIDE = 'shape("####/###./###.",3)'  # Figure 2-4
EXTRA_CORNER = 'shape("###./###./###./...#",3)'  # Figure 2-5

EVERY_POSITION = [
    "tictactoe",
    "misere(tictactoe)",
    "maker_breaker(tictactoe)",
    "maker_breaker(tictactoe,breaker_first=true)",
    "cumulative(tictactoe)",
    EXTRA_SIDE,
    EXTRA_CORNER_SIDE,
    EXTRA_CORNER,
    f"misere({EXTRA_SIDE})",
    f"maker_breaker({EXTRA_CORNER})",
    f"cumulative({EXTRA_CORNER_SIDE})",
    # corner cases of the kernel: k = 1 and 2, lines through holes, a cube, a 1 x n strip
    "mnk(1,3,1)",
    "mnk(2,2,2)",
    'shape("#.#/.#./#.#",2)',
    "hypercube(2,3)",
    "misere(hypercube(2,3))",
    "maker_breaker(mnk(1,5,3),breaker_first=true)",
    "cumulative(mnk(2,3,2))",
]


def _game(spec: str) -> Game:
    return noughts.game(spec)


def _check(
    solver: FastSolver, expected: dict[Position, Value], positions: list[Position] | None = None
) -> None:
    wrong = []
    for p in expected if positions is None else positions:
        got = solver.value(p)
        if got != expected[p]:
            wrong.append((p.text(), expected[p], got))
    assert not wrong, f"{len(wrong)} of {len(expected)} wrong, e.g. {wrong[:3]}"


@pytest.mark.parametrize("spec", EVERY_POSITION)
def test_every_reachable_position_one_table(spec: str) -> None:
    """One solver (its table kept across calls, as the API uses it) on every reachable position."""
    game = _game(spec)
    expected = reference_values(game)
    _check(FastSolver(game), expected)


@pytest.mark.parametrize("spec", ["tictactoe", "misere(tictactoe)", "maker_breaker(tictactoe)"])
def test_every_position_backwards_with_a_tiny_table(spec: str) -> None:
    """Deepest positions first, through a table of 4 entries: replacement never corrupts a value."""
    game = _game(spec)
    expected = reference_values(game)
    order = sorted(expected, key=lambda p: -(p.state[0] | p.state[1]).bit_count())
    solver = FastSolver(game, tt_bytes=4 * ENTRY_BYTES)
    assert solver.tt_bytes == 4 * ENTRY_BYTES
    _check(solver, expected, order)


def _deep_positions(game: Game, empty: int, count: int, seed: int) -> list[Position]:
    """``count`` positions with ``empty`` empty cells, reached by random play (unfinished ones)."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        p = game.start()
        while not p.is_terminal() and game.board.num_cells - (p.state[0] | p.state[1]).bit_count() > empty:
            p = p.play(rng.choice(p.legal_moves()))
        if not p.is_terminal():
            out.append(p)
    return out


@pytest.mark.parametrize(
    ("spec", "empty", "count"),
    [
        ("mnk(4,4,4)", 9, 6),
        ("misere(mnk(4,4,4))", 9, 4),
        ("maker_breaker(mnk(4,4,4))", 9, 4),
        ("cumulative(mnk(4,4,4))", 8, 4),
        ("mnk(5,5,4)", 8, 4),
        ("mnk(6,5,4)", 8, 4),
        ("hypercube(3,3)", 8, 4),
        ("maker_breaker(hypercube(4,2,k=3),breaker_first=true)", 9, 4),
        ("mnk(8,8,4)", 8, 3),  # 64 cells: every bit of the word
        ("misere(hypercube(4,3))", 8, 2),
        ("cumulative(hypercube(4,3))", 7, 2),
    ],
)
def test_sampled_deep_positions(spec: str, empty: int, count: int) -> None:
    """Random positions deep in larger games, and everything reachable from them, fresh solvers
    and one shared solver alike."""
    game = _game(spec)
    shared = FastSolver(game)
    for start in _deep_positions(game, empty, count, seed=7):
        expected = reference_values(game, start)
        _check(shared, expected)
        assert FastSolver(game).value(start) == expected[start]


def _after(v: Value) -> Callable[[Player], tuple[int, int]]:
    """How a move leading to value ``v`` ranks for its mover (faster wins, slower losses)."""

    def key(mover: Player) -> tuple[int, int]:
        if v.score is not None:
            return (v.score if mover is Player.FIRST else -v.score, 0)
        if v.outcome is Outcome.DRAW:
            return (0, 0)
        good = WIN - (v.plies + 1)
        return (good if v.outcome.winner is mover else -good, 0)

    return key


def _first_move_values(spec: str) -> tuple[Value, dict[str, Value]]:
    game = _game(spec)
    solver = FastSolver(game)
    start = game.start()
    moves = {game.format_move(m): solver.value(start.play(m)) for m in start.legal_moves()}
    return solver.value(start), moves


def _consistent(root: Value, moves: dict[str, Value], mover: Player) -> bool:
    """The root's value is its best move's, one ply further on."""
    best = max(moves.values(), key=lambda v: _after(v)(mover))
    return root == Value(best.outcome, best.plies + 1, best.score)


# -- known results --------------------------------------------------------------------------------


def test_tictactoe_is_a_draw_and_every_first_move_draws() -> None:
    """004 §4.1: 3x3 is a draw; so is every first move."""
    root, moves = _first_move_values("tictactoe")
    assert root == Value(Outcome.DRAW, 9)
    assert all(v == Value(Outcome.DRAW, 8) for v in moves.values())


def test_misere_tictactoe_only_the_centre_does_not_lose() -> None:
    """004 §4.2: misère 3x3 is a draw, and the centre is the only first move that does not lose."""
    root, moves = _first_move_values("misere(tictactoe)")
    assert root.outcome is Outcome.DRAW
    assert [m for m, v in moves.items() if v.outcome is not Outcome.SECOND] == ["b2"]
    assert _consistent(root, moves, Player.FIRST)


def test_cumulative_tictactoe_is_a_draw() -> None:
    """000 Theorem 2: cumulative 3x3 is a draw (final score difference 0)."""
    assert FastSolver(_game("cumulative(tictactoe)")).value(_game("cumulative(tictactoe)").start()) == Value(
        Outcome.DRAW, 9, 0
    )


def test_maker_wins_tictactoe() -> None:
    root, moves = _first_move_values("maker_breaker(tictactoe)")
    assert root.outcome is Outcome.FIRST
    assert _consistent(root, moves, Player.FIRST)


def test_mnk_4_4_4_is_a_draw() -> None:
    game = _game("mnk(4,4,4)")
    assert FastSolver(game).value(game.start()) == Value(Outcome.DRAW, 16)


def test_3x3x3_is_a_first_player_win() -> None:
    """004 §3.1: 3x3x3 is a first-player win (in 7 plies: the distance is the kernel's own)."""
    root, moves = _first_move_values("hypercube(3,3)")
    assert root.outcome is Outcome.FIRST
    assert _consistent(root, moves, Player.FIRST)


def test_mnk_5_5_4_is_a_draw() -> None:
    game = _game("mnk(5,5,4)")
    assert FastSolver(game).value(game.start()) == Value(Outcome.DRAW, 25)


@pytest.mark.parametrize("spec", ["mnk(6,5,4)", "mnk(7,6,4)", "mnk(8,8,4)"])
def test_four_in_a_row_on_6x5_and_larger_is_a_first_player_win(spec: str) -> None:
    game = _game(spec)
    assert FastSolver(game).value(game.start()).outcome is Outcome.FIRST


@pytest.mark.slow
@pytest.mark.parametrize(
    "spec", ["mnk(5,5,4)", "mnk(6,5,4)", "misere(mnk(4,4,4))", "maker_breaker(mnk(4,4,4))"]
)
def test_root_value_is_its_best_first_move(spec: str) -> None:
    """Every first move solved: the root's value (and distance) is the best of them, one ply on."""
    root, moves = _first_move_values(spec)
    assert _consistent(root, moves, Player.FIRST)


# -- the interface --------------------------------------------------------------------------------


def test_supports() -> None:
    for spec in (
        "tictactoe",
        "misere(mnk(8,8,5))",
        "maker_breaker(hypercube(4,3))",
        "cumulative(mnk(4,4,3))",
        "mnk(9,9,5)",  # boards over 64 cells: the multi-word kernel (tests/exact/test_wide.py)
        "hypercube(3,4)",
    ):
        assert supports(_game(spec)), spec
    for spec in ("otrio", "notakto", "veto(tictactoe)", "veto(mnk(9,9,5))"):
        assert not supports(_game(spec)), spec
    with pytest.raises(ValueError, match="fast solver"):
        FastSolver(_game("otrio"))


def test_finished_positions_and_wrong_game() -> None:
    game = _game("tictactoe")
    solver = FastSolver(game)
    assert solver.value(game.parse("xxx/oo./...")) == Value(Outcome.FIRST, 0)
    assert solver.value(game.parse("xox/xoo/oxx")) == Value(Outcome.DRAW, 0)
    cumulative = _game("cumulative(tictactoe)")
    assert FastSolver(cumulative).value(cumulative.parse("xxx/oox/oox")) == Value(Outcome.FIRST, 0, 2)
    with pytest.raises(ValueError, match="position"):
        solver.value(_game("misere(tictactoe)").start())


def test_nodes_count_up_and_the_table_is_kept() -> None:
    game = _game("mnk(4,4,4)")
    solver = FastSolver(game)
    solver.value(game.start())
    first = solver.nodes
    assert first > 0
    solver.value(game.start())
    assert solver.nodes - first < 10  # the root's exact value is in the table


class _StopAfter(Budget):
    """A budget that runs out at its n-th check (time budgets, without depending on the clock)."""

    def __init__(self, checks: int) -> None:
        super().__init__(max_seconds=None)
        self.left = checks

    def check(self, memory: int = 0, progress: str = "") -> None:
        self.left -= 1
        if self.left < 0:
            raise LimitExceeded(f"stopped; {progress}")


def test_budget_is_checked_between_slices_and_the_solver_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast, "SLICE_NODES", 1000)
    monkeypatch.setattr(
        fast, "FIRST_WORK", 1 << 60
    )  # slices otherwise start small and grow with the speed seen
    game = _game("mnk(5,5,4)")
    budget = _StopAfter(5)  # the table's size, before the search, three slices; stop after the 4th
    seen: list[int] = []
    solver = FastSolver(game, budget, progress=seen.append)
    with pytest.raises(LimitExceeded, match=r"[0-9,]+ positions searched"):
        solver.value(game.start())
    assert len(seen) == 4 and seen[0] >= 1000 and seen == sorted(set(seen))
    solver.budget = None  # the same solver, stopped mid-search, still answers exactly
    assert solver.value(game.start()) == Value(Outcome.DRAW, 25)
    tictactoe = _game("tictactoe")
    small = FastSolver(tictactoe, _StopAfter(1))  # stops before searching
    with pytest.raises(LimitExceeded):
        small.value(tictactoe.start())
    small.budget = None
    _check(small, reference_values(tictactoe))


def test_time_budget_is_checked_before_searching() -> None:
    game = _game("tictactoe")
    with pytest.raises(LimitExceeded, match="time budget"):
        FastSolver(game, Budget(max_seconds=0.0)).value(game.start())
    budget = Budget(max_seconds=None)
    solver = FastSolver(game, budget)
    budget.max_seconds = 0.0
    with pytest.raises(LimitExceeded, match="0 positions searched"):
        solver.value(game.start())


def test_memory_budget() -> None:
    game = _game("mnk(4,4,4)")
    with pytest.raises(LimitExceeded, match="memory"):
        FastSolver(game, Budget(max_memory=1 << 20), tt_bytes=1 << 24)
    small = FastSolver(game, Budget(max_memory=1 << 20))  # the default table shrinks to fit
    assert small.tt_bytes <= 1 << 19
    assert small.value(game.start()) == Value(Outcome.DRAW, 16)


# -- the kernel's pieces --------------------------------------------------------------------------


@njit
def _kernel_paired(prm, lines, cnt, side, empty, seen, scratch, stats):  # type: ignore[no-untyped-def]
    return _kernels._paired(prm, lines, cnt, side, empty, seen, scratch, stats)  # callable from numba only


def _paired(position: Position, side: Player) -> bool:
    from noughts.exact import _kernels as K

    board = position.game.board
    lines = np.array(board.line_masks, dtype=np.uint64)
    cnt = np.zeros((len(lines), 2), dtype=np.int64)
    b0, b1 = position.state[0], position.state[1]
    prm = np.array([0, board.k, board.num_cells, len(lines)] + [0] * (K.NUM_PARAMS - 4))
    count_lines(lines, np.uint64(b0), np.uint64(b1), cnt)
    empty = np.uint64(board.full_mask & ~(b0 | b1))
    scratch = np.zeros(64 + 6 * len(lines) + 3, dtype=np.int64)
    stats = np.zeros(K.NUM_STATS, dtype=np.int64)
    found = bool(_kernel_paired(prm, lines, cnt, int(side), empty, np.uint64(0), scratch, stats))
    assert stats[K.S_WORK] >= len(lines)  # it counted its work
    return found


@pytest.mark.parametrize("spec", ["tictactoe", EXTRA_SIDE, EXTRA_CORNER])
def test_a_pairing_means_that_side_cannot_win(spec: str) -> None:
    """Where the kernel finds a pairing against a side, the reference says that side never wins."""
    game = _game(spec)
    found = 0
    for p, v in reference_values(game).items():
        if p.is_terminal():
            continue
        for side in Player:
            if _paired(p, side):
                found += 1
                assert v.outcome.winner is not side, (p.text(), side, v)
    assert found > 0


def test_no_pairing_against_a_threat_or_too_many_lines() -> None:
    game = _game("tictactoe")
    assert not _paired(game.parse("xx./o../..o"), Player.FIRST)  # x's top row waits on c1 alone
    assert not _paired(game.start(), Player.FIRST)  # 8 lines need 16 cells
    assert _paired(game.parse("x../.o./ox."), Player.FIRST)  # x: top row {b1, c1}, right column {c2, c3}


def test_slices_follow_the_work_of_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    # a node near the root of 7x7x7 costs milliseconds, one deep in a narrow line microseconds, and
    # slices sized in nodes from the last one's speed ran 17.5 s on a 0.5 s budget: slices are
    # sized in the kernel's work, which grows at most GROWTH-fold from one slice to the next
    game = _game("hypercube(7,3)")
    seen: list[int] = []
    solver = FastSolver(game, Budget(max_seconds=0.5, max_memory=2**26), progress=seen.append)
    with pytest.raises(LimitExceeded, match=r"[0-9,]+ positions searched"):
        solver.value(game.start())
    slices = solver.slices
    assert slices and len(seen) == len(slices)  # the budget was checked after each slice
    assert sum(s.nodes for s in slices) <= solver.nodes and sum(s.work for s in slices) <= solver.work
    assert slices[0].limit == fast.FIRST_WORK and slices[0].nodes < 64  # small at first
    assert all(s.work >= s.limit or s.nodes == fast.SLICE_NODES for s in slices)  # each ran to its limit
    assert all(b.limit <= fast.GROWTH * a.limit for a, b in itertools.pairwise(slices))
    # five slices growing GROWTH-fold whatever the clock says (checks: the table, the start, then
    # one after each slice): the work of a node varies by a hundred times here, and the slices'
    # nodes follow it
    monkeypatch.setattr(fast, "SLICE_SECONDS", 1e9)
    solver = FastSolver(game, _StopAfter(6), tt_bytes=2**25)
    with pytest.raises(LimitExceeded, match=r"[0-9,]+ positions searched"):
        solver.value(game.start())
    assert [s.limit for s in solver.slices] == [fast.FIRST_WORK * fast.GROWTH**i for i in range(5)]
    per_node = [s.work / s.nodes for s in solver.slices]
    assert max(per_node) > 50 * min(per_node)
