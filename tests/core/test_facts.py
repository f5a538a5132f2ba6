"""Golden facts from the sources, computed by the code (python-chess's perft, OpenSpiel's playthroughs).

Each test names the source and section of the figure it checks. Where a source's figure is wrong,
the test checks the true value and says so.
"""

from __future__ import annotations

import itertools
from collections import Counter
from math import factorial

import pytest
from core_cases import EXTRA_CORNER, EXTRA_CORNER_SIDE, EXTRA_SIDE, HOLES, ODD_SHAPE, reachable

import noughts
from noughts import Outcome, Position, hypercube, mnk

# -- 002 §2: the n^d board ------------------------------------------------------------------------

SMALL_ENOUGH = [(n, d) for n in range(2, 8) for d in range(1, 5) if n**d <= 4096]


@pytest.mark.parametrize(("n", "d"), SMALL_ENOUGH)
def test_number_of_lines_lemma_2_1(n: int, d: int) -> None:
    """002 Lemma 2.1: the n^d board has ((n+2)^d - n^d)/2 winning lines."""
    assert len(hypercube(n, d).lines) == ((n + 2) ** d - n**d) // 2


@pytest.mark.parametrize(("n", "d", "k"), [(n, d, k) for n, d in SMALL_ENOUGH if n <= 5 for k in range(2, n)])
def test_number_of_k_segments(n: int, d: int, k: int) -> None:
    """Lemma 2.1's count generalised to lines of k < n cells: a line of direction v with j non-zero
    entries starts at one of n^(d-j) (n-k+1)^j cells, so there are ((n + 2(n-k+1))^d - n^d)/2."""
    assert len(hypercube(n, d, k=k).lines) == ((n + 2 * (n - k + 1)) ** d - n**d) // 2


def test_line_counts_named_in_002() -> None:
    assert len(hypercube(4, 3).lines) == 76  # Patashnik's 4x4x4 (002 §2.3)
    assert len(hypercube(7, 3).lines) == 193  # 002 §4
    assert len(hypercube(8, 3).lines) == 244  # 002 §2.3, the 8^3 board: 512 cells >= 2 * 244
    assert len(mnk(3, 3, 3).lines) == 8


def test_4x4_hypergraph_002_section_3_1() -> None:
    """002 §3.1: 4x4 has 16 vertices and 10 edges, 4-uniform, almost disjoint, maximum degree 3."""
    board = mnk(4, 4, 4)
    assert board.num_cells == 16 and len(board.lines) == 10
    assert all(len(line) == 4 for line in board.lines)
    assert all(len(set(a) & set(b)) <= 1 for a, b in itertools.combinations(board.lines, 2))
    assert board.max_lines_through_cell == 3


@pytest.mark.parametrize(("n", "d"), [(n, d) for n, d in SMALL_ENOUGH if n % 2 == 1])
def test_most_lines_through_a_cell_odd_n_lemma_2_2(n: int, d: int) -> None:
    """002 Lemma 2.2, odd n: at most (3^d - 1)/2 lines through a cell, attained only at the centre
    (for d = 1 the one line passes through every cell)."""
    board = hypercube(n, d)
    most = (3**d - 1) // 2
    assert board.max_lines_through_cell == most
    centre = board.cell_at(((n - 1) // 2,) * d)
    attained = {c for c in range(board.num_cells) if len(board.lines_through[c]) == most}
    assert centre in attained
    if d > 1:
        assert attained == {centre}


@pytest.mark.parametrize(("n", "d"), [(n, d) for n, d in SMALL_ENOUGH if n % 2 == 0])
def test_most_lines_through_a_cell_even_n_lemma_2_2(n: int, d: int) -> None:
    """002 Lemma 2.2, even n: at most 2^d - 1 lines through a cell, attained exactly where every
    coordinate (1-based) is j or n+1-j for one common j: the cells on the long diagonals."""
    board = hypercube(n, d)
    most = 2**d - 1
    assert board.max_lines_through_cell == most
    attained = {c for c in range(board.num_cells) if len(board.lines_through[c]) == most}
    diagonal = {
        c
        for c, coord in enumerate(board.coords)
        if any(all(x + 1 in (j, n + 1 - j) for x in coord) for j in range(1, n + 1))
    }
    assert attained == diagonal


@pytest.mark.parametrize("d", [1, 2, 3, 4])
def test_lines_through_each_cell_of_the_3_cube(d: int) -> None:
    """On 3^d, a cell with a middle coordinates and b edge coordinates lies on (3^a - 1)/2 lines
    that only move its middle coordinates and 2^b - 1 that only move its edge ones."""
    board = hypercube(3, d)
    for cell, coord in enumerate(board.coords):
        a = sum(1 for x in coord if x == 1)
        b = d - a
        assert len(board.lines_through[cell]) == (3**a - 1) // 2 + 2**b - 1


def test_3x3x3_lines_through_cells_004_section_3_1() -> None:
    """004 §3.1: "the middle square gives the first player thirteen ways to get three in a row".

    The same paragraph's other counts do not hold: a corner of the cube lies on 7 lines (3 rows,
    3 face diagonals, 1 long diagonal), not 5, and an edge square of the middle layer on 5, not 3.
    004's conclusion counts 45 lines in all; there are 49 (Lemma 2.1).
    """
    board = hypercube(3, 3)
    through = {coord: len(board.lines_through[c]) for c, coord in enumerate(board.coords)}
    assert through[(1, 1, 1)] == 13
    assert through[(0, 0, 0)] == 7  # a corner of the cube
    assert through[(0, 1, 1)] == 5  # the middle of layer one
    assert through[(0, 0, 1)] == 4  # an edge square of layer one
    assert through[(1, 0, 0)] == 4  # a corner square of layer two
    assert through[(1, 0, 1)] == 5  # an edge square of layer two
    assert len(board.lines) == 49


# -- symmetry groups ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "order"),
    [
        *[(f"mnk({n},{n},{k})", 8) for n in range(2, 7) for k in range(2, n + 1)],
        ("mnk(3,4,3)", 4),
        ("mnk(2,5,2)", 4),
        ("mnk(6,4,4)", 4),
        *[(f"hypercube({n},{d})", 2**d * factorial(d)) for n in (2, 3, 4) for d in (1, 2, 3)],
        ("hypercube(3,4)", 384),
        ("hypercube(7,3)", 48),
        ("hypercube(4,2,k=3)", 8),
        ("hypercube(5,3,k=3)", 48),
        (EXTRA_SIDE, 2),  # a mirror across the middle row
        (EXTRA_CORNER_SIDE, 1),
        (EXTRA_CORNER, 2),  # a mirror across the long diagonal
        (ODD_SHAPE, 1),
        (HOLES, 8),
    ],
)
def test_symmetry_group_order(spec: str, order: int) -> None:
    board = noughts.board(spec)
    assert len(board.symmetries) == order
    assert len(set(board.symmetries)) == order


def test_added_square_boards_004_section_2_2() -> None:
    """004 §2.2: 3x3 with one added square; the lines it adds, counted by hand."""
    assert len(noughts.board(EXTRA_SIDE).lines) == 9  # one more row of three through the new square
    assert len(noughts.board(EXTRA_CORNER_SIDE).lines) == 10  # a row and an anti-diagonal
    assert len(noughts.board(EXTRA_CORNER).lines) == 9  # the long diagonal extended
    for spec in (EXTRA_SIDE, EXTRA_CORNER_SIDE, EXTRA_CORNER):
        assert noughts.board(spec).num_cells == 10


# -- 004 §4.1: every game of tic-tac-toe ----------------------------------------------------------


def _walk(p: Position) -> tuple[Counter[Outcome], int]:
    """Complete games below p by outcome, and the number of positions in the game tree below p."""
    if p.is_terminal():
        outcome = p.outcome()
        assert outcome is not None
        return Counter({outcome: 1}), 1
    games: Counter[Outcome] = Counter()
    nodes = 1
    for move in p.legal_moves():
        below, size = _walk(p.play(move))
        games += below
        nodes += size
    return games, nodes


def test_every_game_of_tictactoe_004_section_4_1() -> None:
    """004 §4.1: "there are 255,168 end positions for the game, with 131,184 games where the first
    player wins"; the rest split 77,904 second-player wins and 46,080 draws, and the game tree has
    549,946 positions. A plain walk over legal_moves and play, no symmetry, no memo."""
    games, nodes = _walk(noughts.game("tictactoe").start())
    assert sum(games.values()) == 255_168
    assert games == Counter({Outcome.FIRST: 131_184, Outcome.SECOND: 77_904, Outcome.DRAW: 46_080})
    assert nodes == 549_946


def test_tictactoe_positions() -> None:
    """5,478 distinct legal positions, 765 up to symmetry: well-known counts for 3x3."""
    positions = list(reachable(noughts.game("tictactoe")))
    assert len(positions) == 5478
    assert len({p.canonical_key() for p in positions}) == 765


def test_notakto_ends_by_the_seventh_move_004_section_4_4() -> None:
    """004 §4.4: seven x's on 3x3 always hold a line, so one-board Notakto ends by move 7; and it
    can last that long (six x's can avoid every line)."""
    g = noughts.game("notakto")
    lengths = {p.text().count("x") for p in reachable(g) if p.is_terminal()}
    assert max(lengths) == 7
    assert g.properties.max_length >= 7


# -- 000 §3.1.2: cumulative tic-tac-toe -----------------------------------------------------------

_CUMULATIVE_PAIRS = {(0, 0), (1, 0), (2, 0), (0, 1), (1, 1)}


def test_cumulative_scores_over_every_play_000_section_3_1_2() -> None:
    """000 §3.1.2: every play of cumulative tic-tac-toe fills the board (nine moves) and ends with
    0 <= |T1| <= 2, 0 <= |T2| <= 1, |T1| + |T2| <= 2; the pair (|T1|, |T2|) takes exactly the five
    values (0,0), (1,0), (2,0), (0,1), (1,1). A walk over all 9! orders, memoised by position."""
    g = noughts.game("cumulative(tictactoe)")
    memo: dict[Position, Counter[tuple[int, int]]] = {}

    def plays(p: Position, depth: int) -> Counter[tuple[int, int]]:
        if p.is_terminal():
            assert depth == 9 and p.text().count(".") == 0
            score = p.score()
            assert score is not None
            return Counter({score: 1})
        if p not in memo:
            total: Counter[tuple[int, int]] = Counter()
            for move in p.legal_moves():
                total += plays(p.play(move), depth + 1)
            memo[p] = total
        return memo[p]

    pairs = plays(g.start(), 0)
    assert sum(pairs.values()) == factorial(9)
    for t1, t2 in pairs:
        assert 0 <= t1 <= 2 and 0 <= t2 <= 1 and t1 + t2 <= 2
    assert set(pairs) == _CUMULATIVE_PAIRS


def test_cumulative_final_boards_000_section_3_1_2() -> None:
    """The same from the other end: every final board (five x, four o) is reachable in cumulative
    play, and the outcome partitions the five score pairs as 000 §3.1.2 says."""
    g = noughts.game("cumulative(tictactoe)")
    seen: dict[tuple[int, int], set[Outcome]] = {}
    boards = 0
    for xs in itertools.combinations(range(9), 5):
        text = "/".join("".join("x" if 3 * r + c in xs else "o" for c in range(3)) for r in range(3))
        p = g.parse(text)
        boards += 1
        assert p.is_terminal()
        score = p.score()
        outcome = p.outcome()
        assert score is not None and outcome is not None
        seen.setdefault(score, set()).add(outcome)
    assert boards == 126
    assert set(seen) == _CUMULATIVE_PAIRS
    assert seen == {
        (0, 0): {Outcome.DRAW},
        (1, 1): {Outcome.DRAW},
        (1, 0): {Outcome.FIRST},
        (2, 0): {Outcome.FIRST},
        (0, 1): {Outcome.SECOND},
    }


# -- 004 §3.2: Otrio ------------------------------------------------------------------------------


def test_otrio_symmetries_and_lines() -> None:
    """Otrio is 3x3x3 with per-size quotas: 49 winning lines (24 of one size in a row, 9 of one
    cell, 16 ordered small-medium-large), and 16 symmetries: the 8 of the square, with or without
    reversing the sizes."""
    g = noughts.game("otrio")
    assert len(g.board.lines) == 49
    assert len(g.symmetries) == 16 and len(set(g.symmetries)) == 16
    kinds = Counter()
    for line in g.board.lines:
        coords = [g.board.coords[c] for c in line]
        same_cell = len({(r, c) for r, c, _ in coords}) == 1
        same_size = len({s for _, _, s in coords}) == 1
        kinds["cell" if same_cell else "size" if same_size else "ordered"] += 1
    assert kinds == Counter({"size": 24, "cell": 9, "ordered": 16})
    # every symmetry keeps the size layers as layers (the quotas are per size)
    layers = [{3 * c + s for c in range(9)} for s in range(3)]
    for perm in g.symmetries:
        assert sorted(sorted(perm[x] for x in layer) for layer in layers) == sorted(sorted(x) for x in layers)
