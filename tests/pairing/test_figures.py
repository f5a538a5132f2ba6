"""The sources' pairing figures, computed and checked: 002 Figures 1-2 and §3.1, 004 Figures
2-6 to 2-8 and 2-12 (Levine's 4x4 grids), pairings on n x n and 8^3.

Figures are typed in as the source text shows them (rows separated by '/', '.' a blank cell).
"""

from __future__ import annotations

import itertools

import pytest

import noughts
from noughts.pairing.files import pairing_from_grid
from noughts.pairing.matching import find_pairing
from noughts.pairing.verify import check_structure, search_pairing

MB44 = noughts.game("maker_breaker(mnk(4,4,4))")

# 002 Figure 2: Breaker's pairing on 4x4 after Maker's opening X (corner, edge, interior) and
# Breaker's O at c2, which blocks three lines.
FIGURE_2 = {
    "corner": "7 5 1 1/4 5 o 6/4 2 2 6/x 3 3 7",
    "edge": "7 5 1 1/4 5 o 6/x 2 2 6/4 3 3 7",
    "interior": "7 5 1 1/4 5 o 6/2 x 2 6/4 3 3 7",
}


@pytest.mark.parametrize("case", FIGURE_2)
def test_002_figure_2_each_case_is_a_winning_pairing_for_breaker(case: str) -> None:
    pairing = pairing_from_grid(MB44, FIGURE_2[case])
    assert len(pairing.pairs) == 7
    assert check_structure(pairing).holds
    report = search_pairing(pairing)  # every Maker reply, Breaker keeping to the pairing rule
    assert report.secures and report.outcome is noughts.Outcome.SECOND
    # and the matching finds a pairing of its own for the same position
    assert find_pairing(pairing.position).exists


def test_002_figure_2_cases_are_the_three_opening_classes() -> None:
    board = MB44.board
    openings = [pairing_from_grid(MB44, t).position.state[0] for t in FIGURE_2.values()]
    orbits = {min(board.transform_mask(bits, p) for p in board.symmetries) for bits in openings}
    assert len(orbits) == 3  # corner, edge and interior are different up to symmetry


def test_002_breaker_pairs_after_one_round_whatever_maker_opens() -> None:
    # 002 §3: after any Maker opening, a Breaker move blocking three lines leaves a pairing
    for x in range(16):
        start = MB44.start().play(x)
        replies = [o for o in start.legal_moves() if find_pairing(start.play(o)).exists]
        assert replies, MB44.format_move(x)
        assert all(sum(1 for m in MB44.board.masks_through[o] if m) == 3 for o in replies)


def test_002_section_3_1_worked_example() -> None:
    # x at b2, o at c3; the letters a-g of the text, as numbers 1-7
    grid = "1 5 1 7/4 x 2 2/4 5 o 6/7 3 3 6"
    pairing = pairing_from_grid(MB44, grid)
    res = find_pairing(pairing.position).residual
    assert (len(res.survivors), len(res.free_cells)) == (7, 14)
    assert sorted(len(e) for e in res.edges) == [3, 3, 4, 4, 4, 4, 4]  # "three or four vertices"
    assert check_structure(pairing).holds


# 002 Figure 1, left panel (5x5) as its text shows it: the blank ends row 3.
FIGURE_1_5X5_AS_PRINTED = "2 6 8 5 8/11 10 3 1 10/11 4 4 12 ./9 1 9 5 12/7 6 3 7 2"
FIGURE_1_5X5_BLANK_AT_D3 = "2 6 8 5 8/11 10 3 1 10/11 4 4 . 12/9 1 9 5 12/7 6 3 7 2"


def test_002_figure_1_5x5_as_printed_leaves_column_e_unpaired() -> None:
    game = noughts.game("mnk(5,5,5)")
    report = check_structure(pairing_from_grid(game, FIGURE_1_5X5_AS_PRINTED))
    assert not report.holds
    assert [game.board.lines[j] for j in report.uncovered] == [
        tuple(game.board.cell_at((r, 4)) for r in range(5))
    ]
    # with the blank one cell to the left (d3) and 12 at e3, every line holds a pair
    assert check_structure(pairing_from_grid(game, FIGURE_1_5X5_BLANK_AT_D3)).holds


# 004 Figures 2-6, 2-7, 2-8 (Levine's n x n pairings)
FIGURE_2_6 = "1 5 1 6 2/8 9 10 11 8/4 12 . 12 2/7 11 10 9 7/4 5 3 6 3"
FIGURE_2_7 = "1 7 8 8 10 2/3 . 11 12 . 3/4 . 13 14 . 4/5 . 14 13 . 5/6 . 11 12 . 6/1 7 9 9 10 2"
FIGURE_2_8 = (
    "1 8 9 10 9 12 2/3 . 13 . 14 . 3/4 . 15 . 16 . 4/5 . . . . . 5/"
    "6 . 16 . 15 . 6/7 . 13 . 14 . 7/1 8 11 10 11 12 2"
)


@pytest.mark.parametrize(("n", "grid"), [(5, FIGURE_2_6), (6, FIGURE_2_7), (7, FIGURE_2_8)])
def test_004_levine_nxn_figures_are_pairings(n: int, grid: str) -> None:
    game = noughts.game(f"mnk({n},{n},{n})")
    pairing = pairing_from_grid(game, grid)
    assert len(pairing.pairs) == 2 * n + 2  # one pair per line
    assert check_structure(pairing).holds
    assert n * n - 2 * len(pairing.pairs) == {5: 1, 6: 8, 7: 17}[n]  # the blanks 004 counts: s^2 - (4s + 4)


def levine_formula(s: int, column_rule: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """004 §2.4's equations (1-based). ``column_rule`` "printed": C_n = (1,n)&(n,n) as the
    text prints it; "figure": (1,n)&(s,n), as Figures 2-7 and 2-8 draw it."""
    pairs = []
    for n in range(2, s):
        pairs.append(((n, 1), (n, s)))
    if s % 2 == 0:
        pairs += [((1, s // 2), (1, s // 2 + 1)), ((s, s // 2), (s, s // 2 + 1))]
        middle = {s // 2, s // 2 + 1}
        pairs += [((s // 2, s // 2), (s // 2 + 1, s // 2 + 1)), ((s // 2, s // 2 + 1), (s // 2 + 1, s // 2))]
    else:
        a, b = (s - 1) // 2, (s + 3) // 2
        pairs += [((1, a), (1, b)), ((s, a), (s, b))]
        middle = {a, b}
        pairs += [((a, a), (b, b)), ((a, b), (b, a))]
    pairs += [((1, 1), (s, 1)), ((1, s), (s, s))]
    for n in range(2, s):
        if n in middle:
            pairs.append(((2, n), (s - 1, n)))
        else:
            pairs.append(((1, n), (n, n) if column_rule == "printed" else (s, n)))
    return pairs


def _formula_report(s: int, rule: str) -> tuple[bool, bool]:
    """(disjoint, every line holds a pair) for the formula's pairs on s x s."""
    game = noughts.game(f"mnk({s},{s},{s})")
    cells = [
        (game.board.cell_at((a[0] - 1, a[1] - 1)), game.board.cell_at((b[0] - 1, b[1] - 1)))
        for a, b in levine_formula(s, rule)
    ]
    flat = [c for pair in cells for c in pair]
    if len(set(flat)) != len(flat):
        return False, False
    from noughts.pairing.matching import pairing_of

    return True, check_structure(pairing_of(game.start(), noughts.Player.SECOND, cells)).holds


@pytest.mark.parametrize("s", range(6, 13))
def test_004_levine_equations_give_pairings_from_6x6(s: int) -> None:
    # the equations as printed and as the figures draw the columns both work for s >= 6
    assert _formula_report(s, "printed") == (True, True)
    assert _formula_report(s, "figure") == (True, True)


def test_004_levine_equations_match_figures_2_7_and_2_8_only_with_the_figure_column_rule() -> None:
    for s, grid in ((6, FIGURE_2_7), (7, FIGURE_2_8)):
        game = noughts.game(f"mnk({s},{s},{s})")
        drawn = set(pairing_from_grid(game, grid).pairs)

        def cells(rule: str, game: noughts.Game = game, s: int = s) -> set[tuple[int, int]]:
            out = set()
            for a, b in levine_formula(s, rule):
                x, y = game.board.cell_at((a[0] - 1, a[1] - 1)), game.board.cell_at((b[0] - 1, b[1] - 1))
                assert x is not None and y is not None
                out.add((min(x, y), max(x, y)))
            return out

        assert cells("figure") == drawn
        assert cells("printed") != drawn


def test_004_levine_equations_fail_on_5x5() -> None:
    # "each of these squares is unique for boards of size 6 by 6 or greater": on 5x5 the
    # column pairs (2,2)&(4,2) and the diagonal pair (2,2)&(4,4) share a cell
    assert _formula_report(5, "figure")[0] is False


@pytest.mark.parametrize("n", range(5, 9))
def test_nxn_has_a_pairing_for_every_n_from_5(n: int) -> None:
    result = find_pairing(noughts.game(f"mnk({n},{n},{n})").start())
    assert result.exists and result.pairing is not None
    assert len(result.pairing.pairs) == 2 * n + 2
    assert check_structure(result.pairing).holds


def test_4x4_and_3x3_have_none_with_a_hall_violator() -> None:
    for spec in ("mnk(4,4,4)", "tictactoe"):
        game = noughts.game(spec)
        result = find_pairing(game.start())
        assert not result.exists
        lines = result.deficient_lines
        union = {c for j in lines for c in game.board.lines[j]}
        assert set(result.deficient_cells) == union
        assert len(union) < 2 * len(lines)


def test_8_cubed_has_a_pairing_from_the_start() -> None:
    game = noughts.game("hypercube(8,3)")
    assert (game.board.num_cells, len(game.board.lines)) == (512, 244)  # 512 >= 2 * 244
    result = find_pairing(game.start())
    assert result.exists and result.pairing is not None and len(result.pairing) == 244
    assert check_structure(result.pairing).holds


def test_7_cubed_has_none_from_the_start() -> None:
    result = find_pairing(noughts.game("hypercube(7,3)").start())
    assert not result.exists  # 343 cells < 2 * 193 lines
    assert len(result.deficient_cells) < 2 * len(result.deficient_lines)


# 004 Figure 2-12: Levine's ten 4x4 grids (O at b2 and c2), in the order printed:
# six "2+ Edges", "2 Middle", three "2+ Corners or 1 of Each".
LEVINE_4X4 = [
    "4 5 5 2/4 o o ./. 1 1 ./3 3 . 2",
    "3 . 4 4/3 o o 5/. 1 1 5/2 . . 2",
    "4 . 5 5/. o o 2/4 1 1 ./3 3 . 2",
    "2 . 3 3/. o o ./. 1 1 4/2 5 5 4",
    "2 . . 2/5 o o ./5 1 1 3/4 4 . 3",
    "5 2 . 2/5 o o ./. 1 1 3/4 . 4 3",
    ". 2 2 ./5 o o 3/1 . . 1/5 4 4 3",
    ". 2 2 3/5 o o 3/5 . 1 1/. 4 4 .",
    "5 2 2 ./5 o o 3/1 1 . 3/. 4 4 .",
    ". 2 2 ./5 o o 3/1 . . 1/5 4 4 3",
]
STD44 = noughts.game("mnk(4,4,4)")


def _with_x(grid: str) -> str:
    """The grid with X's two moves on its first two blanks (a position X has reached)."""
    tokens = grid.split(" ")
    out, placed = [], 0
    for token in grid.replace("/", " / ").split():
        if token == "." and placed < 2:
            token, placed = "x", placed + 1
        out.append(token)
    assert len(tokens) and placed == 2
    return " ".join(out).replace(" / ", "/")


def _levine(grid: str) -> tuple[int, set[tuple[int, int]]]:
    """(blank cells as a mask, pairs) of one of Levine's grids."""
    pairing = pairing_from_grid(STD44, _with_x(grid), noughts.Player.SECOND)
    paired = {c for p in pairing.pairs for c in p}
    o_cells = pairing.position.state[1]
    blanks = sum(1 << c for c in range(16) if c not in paired and not o_cells >> c & 1)
    return blanks, set(pairing.pairs)


def test_004_levine_grids_each_pair_every_surviving_line() -> None:
    for grid in LEVINE_4X4:
        pairing = pairing_from_grid(STD44, _with_x(grid), noughts.Player.SECOND)
        report = check_structure(pairing)
        assert report.holds and report.survivors == 5 and len(pairing.pairs) == 5
        assert bin(_levine(grid)[0]).count("1") == 4  # four blanks: 14 cells, five pairs


def test_004_levine_last_grid_is_the_2_middle_grid_and_there_are_ten_not_nine() -> None:
    grids = [_levine(g) for g in LEVINE_4X4]
    assert grids[-1] == grids[6]  # "the last pairing strategy shown is the same as the '2 Middle' grid"
    distinct = {(b, frozenset(p)) for b, p in grids}
    assert len(LEVINE_4X4) == 10 and len(distinct) == 9  # "nine grids" counts distinct ones


def _formations() -> dict[int, list[int]]:
    """O's formation (two side-by-side centre cells) -> the blank masks of Levine's grids
    carried onto it by the board's symmetries."""
    board = STD44.board
    base = (1 << board.cell_at((1, 1))) | (1 << board.cell_at((1, 2)))  # type: ignore[operator]
    blanks = [_levine(g)[0] for g in LEVINE_4X4]
    out: dict[int, list[int]] = {}
    for perm in board.symmetries:
        image = board.transform_mask(base, perm)
        out.setdefault(image, []).extend(board.transform_mask(b, perm) for b in blanks)
    return out


def test_004_levine_second_player_reaches_a_grid_whatever_x_plays() -> None:
    """004 §2.5: O can always take two side-by-side centre cells with its first two moves, and
    then X's first three moves put at least two X's on the blanks of one of the grids (the
    condition for using it). Decided by searching X1, O1, X2, O2, X3."""
    formations = _formations()
    assert len(formations) == 4

    def usable(o: int, x: int) -> bool:
        return any(bin(b & x).count("1") >= 2 for b in formations[o])

    cells = range(16)
    ok = all(
        any(
            all(
                any(
                    (1 << o1 | 1 << o2) in formations
                    and all(
                        usable(1 << o1 | 1 << o2, 1 << x1 | 1 << x2 | 1 << x3)
                        for x3 in cells
                        if x3 not in (x1, x2, o1, o2)
                    )
                    for o2 in cells
                    if o2 not in (x1, o1, x2)
                )
                for x2 in cells
                if x2 not in (x1, o1)
            )
            for o1 in cells
            if o1 != x1
        )
        for x1 in cells
    )
    assert ok


def test_4x4_every_two_x_beside_o_at_b2_c2_leaves_a_pairing() -> None:
    # stronger than the grids need: whatever two cells X holds, the matching pairs the rest
    base = STD44.board
    o_cells = {base.cell_at((1, 1)), base.cell_at((1, 2))}
    free = [c for c in range(16) if c not in o_cells]
    for x1, x2 in itertools.combinations(free, 2):
        marks = ["o" if c in o_cells else "x" if c in (x1, x2) else "." for c in range(16)]
        text = "/".join("".join(marks[4 * r : 4 * r + 4]) for r in range(4))
        assert find_pairing(STD44.parse(text)).exists, text


def test_002_figure_1_6x6_lost_its_blanks_but_fits_a_pairing() -> None:
    # The text of 002 Figure 1 (middle, 6x6) keeps the numbers but not where the two blanks of
    # rows 2-5 stand. Of the 15^4 ways to put them back, count those that make a pairing.
    rows = ["13 1 9 10 1 14", "7 2 2 12", "3 8 11 3", "4 8 11 4", "7 5 5 12", "14 6 9 10 6 13"]
    game = noughts.game("mnk(6,6,6)")
    line_masks = game.board.line_masks
    # each row's possible layouts: number -> bit mask of its cells in that row
    layouts: list[list[dict[str, int]]] = []
    for r, row in enumerate(rows):
        tokens = row.split()
        options = []
        for blanks in itertools.combinations(range(6), 6 - len(tokens)):
            where: dict[str, int] = {}
            cols = [c for c in range(6) if c not in blanks]
            for token, c in zip(tokens, cols, strict=True):
                where[token] = where.get(token, 0) | 1 << (6 * r + c)
            options.append(where)
        layouts.append(options)
    fits = 0
    for choice in itertools.product(*layouts):
        pairs: dict[str, int] = {}
        for where in choice:
            for token, bits in where.items():
                pairs[token] = pairs.get(token, 0) | bits
        masks = list(pairs.values())
        assert len(masks) == 14 and all(m.bit_count() == 2 for m in masks)
        fits += all(any(m & line == m for m in masks) for line in line_masks)
    assert fits == 36
