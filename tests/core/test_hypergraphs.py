"""Boards given by their lines (core/hypergraphs.py) and their automorphism groups computed from
the lines (core/automorphism.py): the finite planes' axioms and their groups' known orders, the
torus against a plain construction, a user's lines and every way to write them wrong.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

import noughts
from noughts.core.automorphism import close_group, maps_lines_onto_lines
from noughts.core.errors import SpecError
from noughts.core.hypergraphs import Field, prime_power, user_files
from noughts.core.size import spec_size
from noughts.testing import check_game

# -- the field --------------------------------------------------------------------------------------


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9, 16])
def test_field_axioms(q: int) -> None:
    f = Field(q)
    elems = range(q)
    for a, b in itertools.product(elems, repeat=2):
        assert f.add[a][b] == f.add[b][a] and f.mul[a][b] == f.mul[b][a]
        assert f.add[a][0] == a and f.mul[a][1] == a and f.mul[a][0] == 0
    for a in elems:
        assert sorted(f.add[a]) == list(elems)  # a + x takes every value: additive inverses
        if a:
            assert sorted(f.mul[a][1:]) == list(range(1, q))  # no zero divisors, inverses
    for a, b, c in itertools.product(range(min(q, 5)), repeat=3):
        assert f.mul[a][f.add[b][c]] == f.add[f.mul[a][b]][f.mul[a][c]]
        assert f.mul[f.mul[a][b]][c] == f.mul[a][f.mul[b][c]]


def test_prime_powers() -> None:
    assert [q for q in range(2, 30) if prime_power(q)] == [
        2,
        3,
        4,
        5,
        7,
        8,
        9,
        11,
        13,
        16,
        17,
        19,
        23,
        25,
        27,
        29,
    ]


# -- the planes --------------------------------------------------------------------------------------


def _pairs_on_one_line(board: noughts.Board) -> bool:
    count: dict[tuple[int, int], int] = {}
    for line in board.lines:
        for pair in itertools.combinations(sorted(line), 2):
            count[pair] = count.get(pair, 0) + 1
    n = board.num_cells
    return len(count) == n * (n - 1) // 2 and set(count.values()) == {1}


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9])
def test_affine_plane(q: int) -> None:
    b = noughts.board(f"affine({q})")
    assert (b.num_cells, len(b.lines), b.k) == (q * q, q * q + q, q)
    assert _pairs_on_one_line(b)
    assert all(len(t) == q + 1 for t in b.lines_through)
    # parallel classes: q + 1 classes of q disjoint lines
    lines = [frozenset(line) for line in b.lines]
    disjoint = sum(1 for a, c in itertools.combinations(lines, 2) if not a & c)
    assert disjoint == (q + 1) * math.comb(q, 2)


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8])
def test_projective_plane(q: int) -> None:
    b = noughts.board(f"projective({q})")
    n = q * q + q + 1
    assert (b.num_cells, len(b.lines), b.k) == (n, n, q + 1)
    assert _pairs_on_one_line(b)
    lines = [frozenset(line) for line in b.lines]
    assert all(len(a & c) == 1 for a, c in itertools.combinations(lines, 2))  # any two lines meet


# -- groups -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "order"),
    [
        ("affine(2)", 24),  # AG(2,2) is K4: every pair a line, S4
        ("affine(3)", 432),  # AGL(2,3): 9 * |GL(2,3)| = 9 * 48
        ("affine(4)", 5760),  # AΓL(2,4): 16 * |GL(2,4)| * 2 = 16 * 180 * 2
        ("affine(5)", 12000),  # AGL(2,5): 25 * 480
        ("projective(2)", 168),  # PGL(3,2), the Fano plane
        ("projective(3)", 5616),  # PGL(3,3)
        ("projective(4)", 120960),  # PΓL(3,4) = 60480 * 2
    ],
)
def test_known_group_orders(spec: str, order: int) -> None:
    b = noughts.board(spec)
    g = b.line_group
    assert g.order == order
    assert all(maps_lines_onto_lines(p, b.lines) for p in g.generators)
    assert g.complete == (order <= len(b.symmetries) and len(b.symmetries) == order)
    assert b.symmetry_count == len(b.symmetries) == g.chain[-1]


def _torus_affine_automorphisms(m: int, k: int) -> int:
    """A plain reference: the maps x -> Ax + b over Z_m² mapping every line onto a line."""
    b = noughts.board(f"torus({m},{m},{k})")
    lines = {frozenset(line) for line in b.lines}
    found = 0
    for a, c, d, e in itertools.product(range(m), repeat=4):
        if math.gcd((a * e - c * d) % m, m) != 1:
            continue
        for s, t in itertools.product(range(m), repeat=2):
            perm = [
                ((a * r + c * col + s) % m) * m + (d * r + e * col + t) % m
                for r in range(m)
                for col in range(m)
            ]
            if all(frozenset(perm[x] for x in line) in lines for line in lines):
                found += 1
    return found


def test_torus_4x4_group() -> None:
    """The 4x4 torus with k = 4 (16 lines: 4 rows, 4 columns, 4 diagonals, 4 anti-diagonals):
    nauty finds 128 automorphisms, and they are all affine: the 16 translations times the 8
    linear maps over Z4 that permute the four directions (the dihedral group of the square),
    which the plain count over every affine map of Z4² confirms.
    """
    b = noughts.board("torus(4,4,4)")
    assert (b.num_cells, len(b.lines)) == (16, 16)
    assert b.line_group.order == 128 == _torus_affine_automorphisms(4, 4)
    assert b.symmetry_count == 128


def test_listed_elements_form_a_group_along_its_chain() -> None:
    for spec in ("affine(3)", "projective(2)", "torus(4,4,4)", "affine(5)"):
        b = noughts.board(spec)
        g = b.line_group
        for size in g.chain:
            part = g.elements[:size]
            assert part[0] == tuple(range(b.num_cells))
            as_set = set(part)
            sample = part[:: max(1, size // 20)]
            assert all(tuple(q[p[c]] for c in range(b.num_cells)) in as_set for p in sample for q in sample)
            assert all(maps_lines_onto_lines(p, b.lines) for p in sample)
        assert len(b.tables.symmetry_perms(100)) in g.chain  # a cut list is a subgroup


@pytest.mark.parametrize(
    "spec",
    [
        "tictactoe",
        "mnk(4,4,4)",
        "mnk(5,5,4)",
        "mnk(4,5,3)",
        "mnk(6,7,5)",
        "hypercube(4,3)",
        "hypercube(3,3)",
        "hypercube(3,4)",
    ],
)
def test_line_group_of_grid_boards_is_the_one_noughts_uses(spec: str) -> None:
    """On mnk and hypercube boards (k >= 3, lines in every direction) the group found from the
    lines is the one noughts keys positions by (symmetries, and Qubic's 192 automorphisms).
    """
    b = noughts.board(spec)
    used = {tuple(int(c) for c in row) for row in b.tables.automorphism_perms()}
    g = b.line_group
    assert g.complete and set(g.elements) == used


def test_line_group_larger_than_the_geometry_shows() -> None:
    """Where the lines allow more: mnk(2,4,4) is two disjoint lines of 4 (S4 wr S2, 1152), and
    hypercube(2,3) takes every pair of its 8 cells as a line (S8)."""
    assert noughts.board("mnk(2,4,4)").line_group.order == 1152
    assert noughts.board("hypercube(2,3)").line_group.order == math.factorial(8)


def test_close_group_reference() -> None:
    assert len(close_group([(1, 2, 3, 0), (1, 0, 2, 3)], 4, 100) or ()) == 24


# -- the torus ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("m", "n", "k"), [(4, 4, 4), (3, 5, 3), (5, 5, 4), (2, 3, 2), (6, 4, 3)])
def test_torus_lines_and_size(m: int, n: int, k: int) -> None:
    b = noughts.board(f"torus({m},{n},{k})")
    lines = {frozenset(line) for line in b.lines}
    assert len(lines) == len(b.lines) and all(len(line) == k for line in lines)
    # every k-window along each direction, wrapping, is a line
    for r, c in itertools.product(range(m), range(n)):
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            window = frozenset(((r + i * dr) % m) * n + (c + i * dc) % n for i in range(k))
            assert len(window) < k or window in lines
    size = spec_size(f"torus({m},{n},{k})")
    assert size is not None and (size.cells, size.lines) == (b.num_cells, len(b.lines))


# -- a user's lines -----------------------------------------------------------------------------------

FANO = "a b c / a d e / a f g / b d f / b e g / c d g / c e f"


def test_hypergraph_inline_and_round_trip() -> None:
    b = noughts.board(f'hypergraph("{FANO}")')
    assert (b.num_cells, len(b.lines), b.k) == (7, 7, 3)
    assert b.line_group.order == 168  # the Fano plane again, whatever the names
    assert noughts.board(b.spec) == b and noughts.board(b.spec).lines == b.lines
    assert b.parse_cell("e") == 4 and b.cell_name(4) == "e"
    with pytest.raises(noughts.NotationError):
        b.parse_cell("z")
    size = spec_size(b.spec)
    assert size is not None and (size.cells, size.lines) == (7, 7)


def test_hypergraph_points_and_coordinates() -> None:
    b = noughts.board('hypergraph("1 2 / 2 3", points="3 2 1 4", at="0,2 0,1 0,0 1,1")')
    assert b.names == ("3", "2", "1", "4") and b.coords[3] == (1, 1) and b.grid == (2, 3)
    assert b.lines == ((2, 1), (1, 0))


def _write(tmp_path: Path, data: object) -> str:
    path = tmp_path / "lines.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_hypergraph_file_gives_the_inline_spec(tmp_path: Path) -> None:
    lines = [line.split() for line in FANO.split(" / ")]
    path = _write(tmp_path, {"lines": lines, "coords": {n: [i // 3, i % 3] for i, n in enumerate("abcdefg")}})
    with pytest.raises(SpecError, match="command line only"):
        noughts.board(f'hypergraph(file="{path}")')
    with user_files():
        b = noughts.board(f'hypergraph(file="{path}")')
    assert b.spec.startswith('hypergraph("a b c / a d e') and "file" not in b.spec
    assert noughts.board(b.spec) == b and b.coords[4] == (1, 1)


BAD = [
    ('hypergraph("a b / c c")', "appears twice in line 2"),
    ('hypergraph("a b / / c d")', "line 2 is empty"),
    ('hypergraph("a b / b a")', "lines 1 and 2 hold the same points"),
    ('hypergraph("a b / c d", points="a b c")', "names the point 'd'"),
    ('hypergraph("a b / c d e")', "same number of points"),
    ('hypergraph("a b", points="a b a")', "listed twice"),
    ('hypergraph("a-b c")', "names are letters"),
    ('hypergraph("")', "no lines"),
    ('hypergraph("a b", at="0,0")', "1 coordinates for 2 points"),
    ("affine(6)", "not a prime power"),
    ("affine(1)", "at least 2"),
    ("projective(128)", "at most"),
    ("torus(4,4,5)", "between 2 and the shorter side"),
]


@pytest.mark.parametrize(("spec", "message"), BAD)
def test_bad_input_one_clear_message(spec: str, message: str) -> None:
    with pytest.raises(SpecError, match=message):
        noughts.game(spec)


def test_too_many_points() -> None:
    names = " ".join(f"p{i}" for i in range(5000))
    with pytest.raises(SpecError, match="at most"):
        noughts.board(f'hypergraph("{names}")')


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"lines": [["a", "b"], ["a", "a"]]}, "appears twice"),
        ({"lines": [["a", "b"], []]}, "line 2 is empty"),
        ({"lines": [["a", "b"], ["b", "a"]]}, "same points"),
        ({"points": ["a", "b"], "lines": [["a", "b"], ["b", "c"]]}, "names the point 'c'"),
        ({"points": ["a", "b", "a"], "lines": [["a", "b"]]}, "listed twice"),
        ({"lines": [[f"p{i}" for i in range(4100)]]}, "at most"),
        ({"lines": "a b"}, "must hold an object"),
        ({"lines": [["a", "b"]], "coords": {"z": [0, 0]}}, "unknown point 'z'"),
    ],
)
def test_bad_hypergraph_files(tmp_path: Path, data: object, message: str) -> None:
    path = _write(tmp_path, data)
    with user_files(), pytest.raises(SpecError, match=message):
        noughts.board(f'hypergraph(file="{path}")')


# -- every capability's contract ---------------------------------------------------------------------

FAMILIES = [
    "affine(3)",
    "projective(2)",
    "torus(4,4,4)",
    f'hypergraph("{FANO}")',
    'hypergraph("a b c / c d e / e f a")',
]
RULES = [
    "{}",
    "misere({})",
    "maker_breaker({})",
    "maker_breaker({},breaker_first=true)",
    "cumulative({})",
    "veto({})",
]


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("board", FAMILIES)
def test_conformance_every_family_every_claim_rule(board: str, rule: str) -> None:
    g = noughts.game(rule.format(board))
    report = check_game(g, games=3, seed=1, symmetry_sample=4)
    assert report.games == report.finished == 3
    assert noughts.game(str(g)) == g


def test_sizes_before_building() -> None:
    for spec in [*FAMILIES, "affine(4)", "projective(3)", "affine(9)"]:
        size = spec_size(spec)
        b = noughts.board(spec)
        assert size is not None and (size.cells, size.lines) == (b.num_cells, len(b.lines))


def test_segments_are_the_lines_as_written() -> None:
    b = noughts.board("affine(3)")
    seg = b.tables.segments
    assert len(seg.length) == len(b.lines)
    assert [tuple(int(c) for c in row) for row in seg.cells] == [tuple(line) for line in b.lines]
    assert np.array_equal(seg.line_segment, np.arange(len(b.lines)))
