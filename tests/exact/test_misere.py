"""The misère pruning of the alpha-beta kernel (:func:`noughts.exact._kernels._evaluate_misere`)
held to the reference, and the premises it rests on checked on the reference's values.

The kernel keeps one dead cell of many (a cell on no line without both players' cells), keys
the table by the live lines and the number of dead empty cells, bounds a win or a loss by the
plies a side needs to complete a line, and settles a side as safe when each line it could
still complete has two empty cells of its own. Each premise is checked here on the reference
(:func:`noughts.exact.reference_values`, a plain minimax), independently of the kernel; then the
kernel on every position of the small misère games and on everything reachable from deep
positions of 4x4 (k = 3 and 4), 4x5 and 5x5 (k = 4).
"""

from __future__ import annotations

import random
from collections import defaultdict

import numpy as np
import pytest
from exact_cases import EXTRA_CORNER, EXTRA_SIDE, game, reference

from noughts import Outcome, Player, Position
from noughts.exact import Value, reference_values
from noughts.exact.fast import FastSolver, mirrors

SMALL = ["misere(tictactoe)", f"misere({EXTRA_SIDE})", f"misere({EXTRA_CORNER})"]


def _live(position: Position) -> int:
    """The cells on lines without both players' cells (a plain walk over the lines)."""
    x, o = position.owned(Player.FIRST), position.owned(Player.SECOND)
    live = 0
    for line in position.game.board.line_masks:
        if not (line & x and line & o):
            live |= line
    return live


def _dead_key(position: Position) -> tuple[int, int, int, int, int]:
    """What the kernel keys a misère position by (without symmetry): the side to move, the live
    cells, who holds each, and the number of dead empty cells."""
    x, o = position.owned(Player.FIRST), position.owned(Player.SECOND)
    live = _live(position)
    full = position.game.board.full_mask
    dead_empty = (full & ~live & ~(x | o)).bit_count()
    return int(position.to_move), live, x & live, o & live, dead_empty


@pytest.mark.parametrize("spec", SMALL)
def test_positions_alike_but_for_their_dead_cells_have_one_value(spec: str) -> None:
    """The premise of the dead cells: two positions with the same live lines, held alike, and
    as many dead empty cells have the same value (so one dead cell stands for all, and the
    table keys them as one)."""
    groups: dict[tuple[int, ...], set[Value]] = defaultdict(set)
    positions = 0
    for p, v in reference(spec).items():
        if not p.is_terminal():
            groups[_dead_key(p)].add(v)
            positions += 1
    assert all(len(vs) == 1 for vs in groups.values())
    assert len(groups) < positions  # some positions did merge


def _pairing(position: Position, side: Player) -> bool:
    """Whether every line ``side`` could still complete gets two empty cells of its own (a
    matching of two copies of each such line into the empty cells, found by SciPy, not the
    kernel's augmenting paths)."""
    from scipy.optimize import linear_sum_assignment

    other = position.owned(side.other)
    mine = position.owned(side)
    full = position.game.board.full_mask
    empty = full & ~(mine | other)
    lines = [line for line in position.game.board.line_masks if not line & other]
    cells = [c for c in range(position.game.board.num_cells) if empty >> c & 1]
    if 2 * len(lines) > len(cells):
        return False
    if not lines:
        return True
    cost = np.ones((2 * len(lines), len(cells)))
    for i, line in enumerate(lines):
        for j, c in enumerate(cells):
            if line >> c & 1:
                cost[2 * i, j] = cost[2 * i + 1, j] = 0
    rows, cols = linear_sum_assignment(cost)
    return bool(cost[rows, cols].sum() == 0)


@pytest.mark.parametrize("spec", [*SMALL, "misere(mnk(3,4,3))"])
def test_a_side_with_a_pairing_of_its_lines_never_loses(spec: str) -> None:
    """The premise of the misère pairing: where every line a side could still complete has two
    empty cells of its own, that side never loses, whoever is to move."""
    g = game(spec)
    rng = random.Random(3)
    values = reference(spec) if g.board.num_cells <= 10 else {}
    for start in _deep(g, 9, 3, rng) if not values else ():
        values.update(reference_values(g, start))
    found = 0
    for p, v in values.items():
        if p.is_terminal():
            continue
        for side in Player:
            if _pairing(p, side):
                found += 1
                assert v.outcome.winner is not side.other, (p.text(), side, v)
    assert found > 0


def test_a_side_that_needs_more_plies_than_are_left_never_loses() -> None:
    """The premise of the horizon: the loser completes a line of its own no sooner than the
    move that adds the last cell it lacks on its fullest line (and never on the move it has a
    safe cell for)."""
    spec = "misere(mnk(3,4,3))"
    g = game(spec)
    k = g.board.k
    for p, v in reference_values(g, _deep(g, 9, 1, random.Random(5))[0]).items():
        if p.is_terminal() or v.outcome is Outcome.DRAW:
            continue
        loser = v.outcome.winner.other  # type: ignore[union-attr]
        theirs = p.owned(loser.other)
        most = max((line & p.owned(loser)).bit_count() for line in g.board.line_masks if not line & theirs)
        lacking = k - most
        first_move = 1 if p.to_move is loser else 2
        assert v.plies is not None and v.plies >= first_move + 2 * (lacking - 1), (p.text(), v)


def _deep(g, empty: int, count: int, rng: random.Random) -> list[Position]:  # type: ignore[no-untyped-def]
    """``count`` unfinished positions with ``empty`` empty cells, by random play."""
    out: list[Position] = []
    while len(out) < count:
        p = g.start()
        while not p.is_terminal() and g.board.num_cells - p.occupied().bit_count() > empty:
            p = p.play(rng.choice(p.legal_moves()))
        if not p.is_terminal():
            out.append(p)
    return out


@pytest.mark.parametrize("spec", [*SMALL, "misere(mnk(2,4,2))", "misere(hypercube(2,3))"])
@pytest.mark.parametrize("words", [None, 1])
def test_every_position_of_the_small_misere_games(spec: str, words: int | None) -> None:
    """One solver (one-word, and the multi-word kernel with one word) on every position."""
    solver = FastSolver(game(spec), words=words)
    wrong = [(p.text(), v) for p, v in reference(spec).items() if solver.value(p) != v]
    assert not wrong, wrong[:3]


@pytest.mark.parametrize(
    ("spec", "empty", "count"),
    [
        ("misere(mnk(4,4,3))", 10, 3),
        ("misere(mnk(4,4,4))", 9, 3),
        ("misere(mnk(4,5,4))", 9, 3),
        ("misere(mnk(5,5,4))", 10, 2),
    ],
)
def test_deep_positions_of_4x4_4x5_and_5x5(spec: str, empty: int, count: int) -> None:
    """Everything reachable from random positions with ``empty`` empty cells, one shared solver."""
    g = game(spec)
    solver = FastSolver(g)
    for start in _deep(g, empty, count, random.Random(11)):
        expected = reference_values(g, start)
        wrong = [(p.text(), v) for p, v in expected.items() if solver.value(p) != v]
        assert not wrong, wrong[:3]


def _same_as_the_plain_alpha_beta(spec: str) -> None:
    from noughts.exact.search import Searcher

    g = game(spec)
    assert FastSolver(g).value(g.start()) == Searcher(g).value(g.start()), spec


def test_the_value_of_misere_3x4_is_the_plain_alpha_betas() -> None:
    """The value of the whole game, by the kernel, as the plain alpha-beta
    (:class:`noughts.exact.search.Searcher`) gives it."""
    _same_as_the_plain_alpha_beta("misere(mnk(3,4,3))")


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["misere(mnk(4,4,3))", "misere(mnk(4,4,4))", "misere(mnk(4,5,4))"])
def test_the_values_of_misere_4x4_and_4x5_are_the_plain_alpha_betas(spec: str) -> None:
    _same_as_the_plain_alpha_beta(spec)


def _mirror_images(position: Position) -> list[tuple[int, int]]:
    """``(image of the mover's cells, fixed cells)`` under each symmetry :func:`mirrors` takes."""
    board = position.game.board
    perms = board.tables.symmetry_perms()
    out = []
    for row in mirrors(board, len(perms), 1):
        perm = perms[row[0]]
        image = sum(
            1 << int(perm[c]) for c in range(board.num_cells) if position.owned(position.to_move) >> c & 1
        )
        out.append((image, int(np.uint64(row[1]))))
    return out


@pytest.mark.parametrize(
    "spec", ["misere(tictactoe)", "misere(mnk(2,4,2))", "misere(mnk(3,4,3))", "misere(hypercube(2,3))"]
)
def test_the_side_that_mirrors_never_loses(spec: str) -> None:
    """The premise of the mirrors: where the side not to move holds a mirror's fixed cells and
    the image of the mover's cells, it never loses."""
    g = game(spec)
    values = reference(spec) if g.board.num_cells <= 10 else reference_values(g, g.start().play(0).play(11))
    found = 0
    for p, v in values.items():
        if p.is_terminal():
            continue
        theirs = p.owned(p.to_move.other)
        if any(theirs == image | fixed for image, fixed in _mirror_images(p)):
            found += 1
            assert v.outcome.winner is not p.to_move, (p.text(), v)
    assert found > 0


def test_the_mirrors_of_boards() -> None:
    """The point reflection of 5x5 (every 4-line through the centre holds two mirrored cells),
    the fixed-point-free reflections and rotation of 4x4, none on 9x9 with k = 4 (a line may
    start at the centre)."""

    def of(spec: str) -> list[int]:
        board = game(spec).board
        return [int(np.uint64(r[1])).bit_count() for r in mirrors(board, len(board.symmetries), 1)]

    assert of("mnk(5,5,4)") == [1]  # the centre alone is fixed
    assert of("mnk(4,4,4)") == [0, 0, 0]
    assert of("tictactoe") == [1]
    board = game("mnk(9,9,4)").board
    assert len(mirrors(board, 8, 2)) == 0


@pytest.mark.slow
def test_misere_5x5_k4_is_a_draw() -> None:
    """The first player does not lose (the centre, then the point reflection: the mirror rule
    settles that in a few nodes) and does not win (one null-window search, about 90 M nodes)."""
    g = game("misere(mnk(5,5,4))")
    assert FastSolver(g).value(g.start()) == Value(Outcome.DRAW, 25)
