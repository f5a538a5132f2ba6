"""Line automorphisms beyond the geometric symmetries (``KernelTables.automorphism_perms``)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import noughts


def _is_group(rows: list[tuple[int, ...]]) -> bool:
    as_set = set(rows)
    n = len(rows[0])
    return all(tuple(q[p[c]] for c in range(n)) in as_set for p, q in itertools.product(rows, repeat=2))


@pytest.mark.parametrize(
    ("spec", "order"),
    [
        ("hypercube(4,3)", 192),  # Qubic's automorphism group (Silver 1967; Patashnik 1980)
        ("mnk(4,4,4)", 32),
        ("hypercube(4,2)", 32),
        ("hypercube(3,3)", 48),  # no value permutation of 0..2 but the reversal: the symmetries alone
        ("mnk(4,4,3)", 8),  # lines shorter than the side: the symmetries alone
        ("mnk(5,4,4)", 4),
        ('shape("###/#.#/###",3)', 8),
    ],
)
def test_automorphisms_map_lines_onto_lines_and_form_the_group(spec: str, order: int) -> None:
    board = noughts.board(spec)
    tables = board.tables
    rows = [tuple(int(c) for c in row) for row in tables.automorphism_perms()]
    assert len(rows) == len(set(rows)) == order
    symmetries = [tuple(int(c) for c in row) for row in tables.symmetry_perms()]
    assert rows[: len(symmetries)] == symmetries, "the symmetries come first, identity first"
    lines = {frozenset(line) for line in board.lines}
    for perm in rows:
        assert sorted(perm) == list(range(board.num_cells))
        assert {frozenset(perm[c] for c in line) for line in lines} == lines
    assert _is_group(rows)


def test_a_limit_cuts_the_list_after_the_symmetries() -> None:
    tables = noughts.board("hypercube(4,3)").tables
    cut = tables.automorphism_perms(100)
    assert cut.shape == (100, 64)
    assert np.array_equal(cut, tables.automorphism_perms()[:100])
    assert np.array_equal(tables.automorphism_perms(10), tables.symmetry_perms(10))


def test_qubic_has_automorphisms_the_geometry_does_not_show() -> None:
    """The corner (0,0,0) and the inner cell (1,1,1) lie on 7 lines each; an automorphism maps
    one to the other though no rotation or reflection of the cube does.
    """
    board = noughts.board("hypercube(4,3)")
    corner = board.coords.index((0, 0, 0))
    inner = board.coords.index((1, 1, 1))
    assert all(perm[corner] != inner for perm in board.symmetries)
    assert any(int(row[corner]) == inner for row in board.tables.automorphism_perms())
