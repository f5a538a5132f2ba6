"""Threat-space search: the numba kernel held to the plain reference, and both held to the exact
value (a win by threats is a win)."""

from __future__ import annotations

import pytest
from exact_cases import deep_positions, game, reference

import noughts
from noughts.core import Player, Position
from noughts.exact.fast import FastSolver
from noughts.proving.threats import supports_threats, threat_sides, threat_win, threat_win_kernel

# (spec, plies, positions, order, depth): random positions where both searches run quickly
CASES = [
    ("mnk(4,4,4)", 8, 40, 1, 20),
    ("mnk(4,4,4)", 7, 30, 2, 4),
    ("hypercube(3,3)", 8, 40, 1, 20),
    ("hypercube(3,3)", 6, 25, 2, 3),
    ("mnk(5,5,4)", 12, 40, 1, 30),
    ("mnk(5,5,4)", 10, 15, 2, 3),
    ("maker_breaker(mnk(4,4,4))", 8, 40, 1, 20),
    ("maker_breaker(mnk(5,5,4))", 8, 12, 2, 3),
    ("maker_breaker(mnk(4,4,4),breaker_first=true)", 7, 30, 1, 20),
    ("hypercube(4,3)", 18, 8, 1, 12),
]


def _attackers(position: Position) -> list[Player]:
    return [p for p in (Player.FIRST, Player.SECOND) if supports_threats(position.game, p)]


def _replays(position: Position, attacker: Player, line: tuple[int, ...]) -> bool:
    """Whether ``line`` (fours only) is a game the attacker wins: each attacker claim makes a
    four (or blocks the defender's four), each defender claim is the forced block, and the
    line ends with a completed line or a double four."""
    lines = position.game.board.line_masks
    a = position.owned(attacker)
    d = position.owned(attacker.other)

    def winning_cells(mine: int, theirs: int) -> set[int]:
        return {m & ~mine for m in lines if not m & theirs and (m & ~mine).bit_count() == 1}

    for i, c in enumerate(line):
        if (a | d) >> c & 1:
            return False
        if i % 2 == 0:
            a |= 1 << c
            if any(m & a == m for m in lines):
                return True
            wins = winning_cells(a, d)
            if len(wins) >= 2:
                return True
            if i + 1 < len(line) and wins != {1 << line[i + 1]}:
                return False
        else:
            d |= 1 << c
    return False


@pytest.mark.parametrize(("spec", "plies", "count", "order", "depth"), CASES)
def test_the_kernel_finds_a_win_exactly_where_the_reference_does(
    spec: str, plies: int, count: int, order: int, depth: int
) -> None:
    found = 0
    for position in deep_positions(spec, plies, count, seed=11):
        for attacker in _attackers(position):
            ref = threat_win(position, attacker, max_order=order, max_depth=depth)
            fast = threat_win_kernel(position, attacker, max_order=order, max_depth=depth)
            assert (ref is None) == (fast is None), (spec, position.text(), attacker, order, depth)
            if fast is not None:
                found += 1
                assert fast.null_move == (position.to_move is not attacker)
                if order == 1:
                    assert _replays(position, attacker, fast.line), (position.text(), fast.line)
                    assert _replays(position, attacker, ref.line), (position.text(), ref.line)  # type: ignore[union-attr]
    assert found > 0  # the cases do contain wins


@pytest.mark.parametrize("spec", ["tictactoe", "maker_breaker(tictactoe)", 'shape("###./###./###./...#",3)'])
def test_every_reachable_position_of_the_small_games(spec: str) -> None:
    """Kernel and reference agree everywhere, and a win by threats of the side to move is a win."""
    values = reference(spec)
    g = game(spec)
    for position, value in values.items():
        if position.is_terminal():
            continue
        for attacker in _attackers(position):
            for order in (1, 2):
                ref = threat_win(position, attacker, max_order=order)
                fast = threat_win_kernel(position, attacker, max_order=order)
                assert (ref is None) == (fast is None), (position.text(), attacker, order)
                if ref is not None and attacker is position.to_move:
                    assert value.outcome.winner is attacker, (position.text(), value)
    assert threat_sides(g)


@pytest.mark.parametrize(
    ("spec", "plies"), [("mnk(5,5,4)", 9), ("hypercube(3,3)", 6), ("maker_breaker(mnk(4,4,4))", 6)]
)
def test_a_win_by_threats_is_a_win(spec: str, plies: int) -> None:
    g = noughts.game(spec)
    solver = FastSolver(g)
    wins = 0
    for position in deep_positions(spec, plies, 40, seed=3):
        found = threat_win_kernel(position, max_order=2, max_depth=6)
        if found is not None:
            wins += 1
            assert solver.value(position).outcome.winner is position.to_move, position.text()
    assert wins > 0


def test_threats_apply_where_lines_win() -> None:
    assert threat_sides(noughts.game("tictactoe")) == (Player.FIRST, Player.SECOND)
    assert threat_sides(noughts.game("maker_breaker(tictactoe,breaker_first=true)")) == (Player.SECOND,)
    assert threat_sides(noughts.game("misere(tictactoe)")) == ()
    p = noughts.game("misere(tictactoe)").start()
    with pytest.raises(ValueError, match="threat-space search"):
        threat_win(p)
    with pytest.raises(ValueError, match="order"):
        threat_win(noughts.game("tictactoe").start(), max_order=3)


def test_a_null_move_search_asks_what_the_other_side_threatens() -> None:
    g = noughts.game("mnk(5,5,4)")
    p = g.parse("...../.xx../.o.../...o./x....")  # o to move; x would win by d2 if o passed
    assert p.to_move is Player.SECOND
    w = threat_win(p, Player.FIRST)
    assert w is not None and w.null_move
    assert threat_win_kernel(p, Player.FIRST) is not None


def test_the_node_limit_stops_the_kernel() -> None:
    g = noughts.game("hypercube(4,3)")
    p = g.parse("x.../..../..../....|..../.o../..../....|..../..../..x./....|..../..../..../...o")
    assert threat_win_kernel(p, node_limit=1) is None  # stopped: no answer


@pytest.mark.parametrize(("spec", "plies", "order"), [("hypercube(4,3)", 12, 1), ("mnk(5,5,4)", 9, 2)])
def test_the_table_of_refuted_positions_only_cuts_repeated_work(spec: str, plies: int, order: int) -> None:
    """The kernel with its table of refuted positions (the default) finds the same first win,
    on the same principal line, as without it, never looking at more positions; and on some
    position it looks at fewer (independent threats searched in one order, not all)."""
    fewer = 0
    for position in deep_positions(spec, plies, 30, seed=7):
        for attacker in _attackers(position):
            plain = threat_win_kernel(position, attacker, max_order=order, max_depth=8, memo_slots=0)
            kept = threat_win_kernel(position, attacker, max_order=order, max_depth=8)
            assert (plain is None) == (kept is None), position.text()
            if plain is not None and kept is not None:
                assert kept.line == plain.line, position.text()
                assert kept.nodes <= plain.nodes, position.text()
                fewer += kept.nodes < plain.nodes
    assert fewer > 0


def test_a_workspace_reused_forgets_the_last_search() -> None:
    """The engine reuses one workspace for every search: a refutation kept from one search must
    not answer the next (each search stamps its entries)."""
    import numpy as np

    from noughts.proving import _tss_kernels as T

    g = noughts.game("hypercube(4,3)")
    tables = g.board.tables
    shared = T.workspace(g.board.num_cells, 8)
    for position in deep_positions("hypercube(4,3)", 12, 20, seed=9):
        own = np.full(g.board.num_cells, -1, dtype=np.int8)
        for p in (Player.FIRST, Player.SECOND):
            for c in g.board.cells_in(position.owned(p)):
                own[c] = int(p)
        cnt = np.zeros((tables.num_lines, 2), dtype=np.int32)
        for j, line in enumerate(g.board.lines):
            for c in line:
                if own[c] >= 0:
                    cnt[j, own[c]] += 1
        nempty = g.board.num_cells - position.occupied().bit_count()
        answers = []
        for ws in (shared, T.workspace(g.board.num_cells, 8)):
            result = np.zeros(2, dtype=np.int64)
            status = T.threat_search(
                tables.line_cells, tables.through, tables.nthrough, cnt, own, g.board.k,
                int(position.to_move), T.DEF_LINES, 1, 8, 1 << 30, nempty, *ws, result,
            )  # fmt: skip
            answers.append((status, int(result[0]), tuple(ws[2][: int(result[1])])))
        assert answers[0] == answers[1], position.text()
