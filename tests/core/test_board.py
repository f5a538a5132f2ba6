"""Boards: cells, winning lines and symmetries, checked against independent computations."""

from __future__ import annotations

import itertools

import pytest
from core_cases import BOARD_SPECS
from hypothesis import given, settings
from hypothesis import strategies as st

import noughts
from noughts import Board, LimitExceeded, SpecError, hypercube, mnk, shape
from noughts.core.board import MAX_CELLS


def _lines_by_brute_force(board: Board) -> set[frozenset[int]]:
    """Every set of k cells c, c+v, ..., c+(k-1)v on the board, straight from the definition."""
    index = {coord: cell for cell, coord in enumerate(board.coords)}
    found = set()
    for v in itertools.product((-1, 0, 1), repeat=board.dims):
        if not any(v):
            continue
        for start in board.coords:
            coords = [tuple(s + i * d for s, d in zip(start, v, strict=True)) for i in range(board.k)]
            if all(c in index for c in coords):
                found.add(frozenset(index[c] for c in coords))
    return found


def _mnk_line_count(m: int, n: int, k: int) -> int:
    if k == 1:
        return m * n
    rows = m * max(0, n - k + 1)
    cols = n * max(0, m - k + 1)
    diagonals = 2 * max(0, m - k + 1) * max(0, n - k + 1)
    return rows + cols + diagonals


@st.composite
def masks(draw: st.DrawFn) -> str:
    height = draw(st.integers(1, 5))
    width = draw(st.integers(1, 5))
    rows = draw(
        st.lists(st.text(alphabet="#.", min_size=width, max_size=width), min_size=height, max_size=height)
    )
    mask = "/".join(rows)
    return mask if "#" in mask else "#" + mask[1:]


# -- lines ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", BOARD_SPECS)
def test_lines_match_the_definition(spec: str) -> None:
    board = noughts.board(spec)
    assert {frozenset(line) for line in board.lines} == _lines_by_brute_force(board)
    assert len({frozenset(line) for line in board.lines}) == len(board.lines), "a line is listed twice"
    for line in board.lines:
        assert len(line) == board.k
        # cells in order along the line: equal steps in {-1, 0, 1}^d between neighbours
        coords = [board.coords[c] for c in line]
        steps = {tuple(b - a for a, b in zip(p, q, strict=True)) for p, q in itertools.pairwise(coords)}
        assert len(steps) <= 1
        assert all(all(x in (-1, 0, 1) for x in step) and any(step) for step in steps)


@pytest.mark.parametrize(
    ("m", "n", "k"), [(m, n, k) for m in range(1, 8) for n in range(1, 8) for k in range(1, 8)]
)
def test_mnk_line_count(m: int, n: int, k: int) -> None:
    if k > max(m, n):
        with pytest.raises(SpecError):
            mnk(m, n, k)
        return
    assert len(mnk(m, n, k).lines) == _mnk_line_count(m, n, k)


@given(mask=masks(), k=st.integers(1, 4))
@settings(max_examples=150, deadline=None)
def test_shape_lines_match_the_definition(mask: str, k: int) -> None:
    try:
        board = shape(mask, k)
    except SpecError as e:
        assert "no line" in str(e)
        cells = {(r, c) for r, row in enumerate(mask.split("/")) for c, ch in enumerate(row) if ch == "#"}
        trimmed = Board("shape", "probe", (5, 5), sorted(cells), k)
        assert not _lines_by_brute_force(trimmed)
        return
    assert {frozenset(line) for line in board.lines} == _lines_by_brute_force(board)
    assert board.num_cells == mask.count("#")


@pytest.mark.parametrize("spec", BOARD_SPECS)
def test_precomputed_tables_agree(spec: str) -> None:
    board = noughts.board(spec)
    assert board.num_cells == len(board.coords)
    assert board.full_mask == (1 << board.num_cells) - 1
    assert board.line_masks == tuple(sum(1 << c for c in line) for line in board.lines)
    for cell in range(board.num_cells):
        through = [j for j, line in enumerate(board.lines) if cell in line]
        assert list(board.lines_through[cell]) == through
        assert list(board.masks_through[cell]) == [board.line_masks[j] for j in through]
        assert board.cell_at(board.coords[cell]) == cell
    assert board.max_lines_through_cell == max(len(t) for t in board.lines_through)
    assert board.cell_at((-1,) * board.dims) is None
    assert board.cell_at(tuple(board.grid)) is None
    assert all(0 <= x < g for coord in board.coords for x, g in zip(coord, board.grid, strict=True))


# -- symmetries -----------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", BOARD_SPECS)
def test_symmetries_form_a_group_of_line_preserving_permutations(spec: str) -> None:
    board = noughts.board(spec)
    n = board.num_cells
    group = board.symmetries
    identity = tuple(range(n))
    assert group[0] == identity
    lines = set(board.line_masks)
    for perm in group:
        assert sorted(perm) == list(range(n)), "a symmetry is not a permutation of the cells"
        assert {board.transform_mask(m, perm) for m in board.line_masks} == lines
    as_set = set(group)
    if len(group) <= 48:
        for p, q in itertools.product(as_set, repeat=2):
            assert tuple(q[p[c]] for c in range(n)) in as_set, "not closed under composition"


@pytest.mark.parametrize("spec", BOARD_SPECS)
def test_symmetries_are_distinct_and_counted(spec: str) -> None:
    board = noughts.board(spec)
    group = board.symmetries
    assert len(set(group)) == len(group)
    assert board.symmetry_count == len(group)
    assert noughts.game(spec).symmetry_count == len(group)


@pytest.mark.parametrize(
    ("spec", "order"),
    [
        ("mnk(1,1,1)", 1),
        ("mnk(1,4,2)", 2),
        ('shape("###",3)', 2),
        ("hypercube(1,12)", 1),
        ("hypercube(3,1)", 2),
    ],
)
def test_a_side_of_length_1_adds_no_symmetry(spec: str, order: int) -> None:
    """Flipping a side of length 1 is the identity: it must not be listed again."""
    board = noughts.board(spec)
    assert len(board.symmetries) == len(set(board.symmetries)) == board.symmetry_count == order


def test_groups_too_large_to_list_are_counted_not_listed() -> None:
    board = hypercube(3, 6)  # 2^6·6! = 46,080 symmetries of 729 cells
    assert board.symmetry_count == 46_080
    with pytest.raises(LimitExceeded, match="too large to list"):
        board.symmetries  # noqa: B018
    assert len(hypercube(2, 6).symmetries) == 46_080  # 64 cells: still listed


@given(bits=st.integers(0, (1 << 27) - 1), which=st.integers(0, 47))
@settings(max_examples=200)
def test_transform_mask_maps_each_cell(bits: int, which: int) -> None:
    board = hypercube(3, 3)
    perm = board.symmetries[which]
    expected = sum(1 << perm[c] for c in range(27) if bits >> c & 1)
    assert board.transform_mask(bits, perm) == expected


_MASK_BOARDS = [mnk(1, 1, 1), hypercube(3, 3), mnk(3, 30, 3), mnk(64, 64, 1)]


@given(data=st.data(), board=st.sampled_from(_MASK_BOARDS))
@settings(max_examples=200, deadline=None)
def test_cells_in_lists_the_bits_in_order(data: st.DataObject, board: Board) -> None:
    mask = data.draw(st.integers(0, board.full_mask))
    assert board.cells_in(mask) == [c for c in range(board.num_cells) if mask >> c & 1]


# -- identity and limits --------------------------------------------------------------------------


def test_boards_compare_by_spec() -> None:
    assert mnk(3, 3, 3) == noughts.board("tictactoe")
    assert hash(mnk(3, 3, 3)) == hash(noughts.board("tictactoe"))
    assert mnk(3, 3, 3) != hypercube(3, 2)  # the same geometry, a different spec
    assert mnk(3, 3, 3) != "mnk(3,3,3)"
    assert str(mnk(3, 4, 3)) == "mnk(3,4,3)"
    assert repr(mnk(3, 4, 3)) == "Board('mnk(3,4,3)')"
    assert hypercube(3, 3, k=3) == hypercube(3, 3)
    assert str(hypercube(4, 2, k=3)) == "hypercube(4,2,k=3)"


def test_board_geometry() -> None:
    b = mnk(3, 4, 3)
    assert (b.dims, b.grid, b.num_cells, b.k) == (2, (3, 4), 12, 3)
    assert b.coords[5] == (1, 1)  # row-major: row 1, column 1
    h = hypercube(3, 3)
    assert (h.dims, h.grid, h.num_cells) == (3, (3, 3, 3), 27)
    assert h.coords[13] == (1, 1, 1)


def test_shape_trims_empty_border_rows_and_columns() -> None:
    assert shape("..../.##./....", 2).spec == 'shape("##",2)'
    assert shape(" ###. / #### / ###. ", 3).spec == 'shape("###./####/###.",3)'
    assert shape("#.#/.#./#.#", 2).num_cells == 5


def test_largest_board() -> None:
    assert mnk(64, 64, 1).num_cells == MAX_CELLS
    with pytest.raises(SpecError, match="at most 4096"):
        mnk(64, 65, 1)
    with pytest.raises(SpecError):
        hypercube(2, 13)
    with pytest.raises(SpecError):
        hypercube(2, 12)  # 4096 cells, but too many directions to enumerate
    with pytest.raises(SpecError):
        hypercube(17, 3)


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: mnk(0, 3, 3), "m must be at least 1"),
        (lambda: mnk(3, -1, 3), "n must be at least 1"),
        (lambda: mnk(3, 3, 0), "k must be at least 1"),
        (lambda: mnk(3, 3, 4), "larger than the board"),
        (lambda: hypercube(0, 2), "n must be at least 1"),
        (lambda: hypercube(3, 0), "d must be at least 1"),
        (lambda: hypercube(3, 2, k=4), "larger than the side"),
        (lambda: shape("", 1), "no cells"),
        (lambda: shape("..../....", 1), "no cells"),
        (lambda: shape("##/#", 1), "different lengths"),
        (lambda: shape("#x#", 1), "unexpected 'x'"),
        (lambda: shape("#.#", 2), "no line"),
        (lambda: shape("###", 0), "k must be at least 1"),
    ],
)
def test_impossible_boards(make: object, words: str) -> None:
    with pytest.raises(SpecError, match=words):
        make()  # type: ignore[operator]
