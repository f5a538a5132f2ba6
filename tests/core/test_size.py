"""core/size.py: a spec's cells and lines from its numbers, held to the built board's counts."""

from __future__ import annotations

import itertools

import pytest

import noughts
from noughts.core import SpecError
from noughts.core.board import Board
from noughts.core.size import SpecSize, hypercube_size, mnk_size, shape_size, spec_key, spec_size

SPECS = [
    "tictactoe",
    "mnk(4,4,4)",
    "mnk(15,15,5)",
    "mnk(5,1,1)",
    "mnk(1,7,3)",
    "mnk(3,8,4)",
    "mnk(6,2,2)",
    "mnk(2,6,3)",
    "hypercube(3,3)",
    "hypercube(4,3)",
    "hypercube(7,3)",
    "hypercube(4,3,k=3)",
    "hypercube(5,2,k=2)",
    "hypercube(3,4)",
    "hypercube(2,5)",
    "hypercube(6,1)",
    "hypercube(4,2,k=1)",
    'shape("###./####/###.",3)',
    'shape("####/###./###.",3)',
    'shape("###./###./###./...#",3)',
    'shape(".#./###/.#.",2)',
    'shape("#.#/.#./#.#",2)',
    'shape("..../.##./.##.",1)',
    "misere(mnk(4,4,3))",
    "maker_breaker(hypercube(7,3))",
    "maker_breaker(mnk(5,5,4),breaker_first=true)",
    "cumulative(tictactoe)",
    "veto(tictactoe)",
    "veto(misere(mnk(4,4,3)))",
    "notakto",
    "notakto(boards=3)",
    "notakto(mnk(4,4,3),boards=2)",
    "notakto(board=mnk(3,4,3),misere=false)",
    "otrio",
    "forget(tictactoe)",
    'forget(mnk(4,4,3),count="plies")',
    "vanishing(tictactoe)",
    "morris",
    "morris(diagonals=false)",
    "standard(mnk(3,5,3))",
]


def built(spec: str) -> SpecSize:
    game = noughts.game(spec)
    boards = getattr(game, "boards", 1) if spec.startswith("notakto") else 1
    return SpecSize(game.board.num_cells, len(game.board.lines), boards)


@pytest.mark.parametrize("spec", SPECS)
def test_the_size_is_the_built_boards(spec: str) -> None:
    assert spec_size(spec) == built(spec)


def test_every_small_mnk_and_hypercube_has_its_built_size() -> None:
    for m, n, k in itertools.product(range(1, 7), range(1, 7), range(1, 7)):
        if k <= max(m, n) and mnk_size(m, n, k).lines:
            assert mnk_size(m, n, k) == built(f"mnk({m},{n},{k})"), (m, n, k)
    for n, d in itertools.product(range(1, 6), range(1, 5)):
        for k in range(1, n + 1):
            if n**d <= 1024:
                assert hypercube_size(n, d, k) == built(f"hypercube({n},{d},k={k})"), (n, d, k)


def test_random_shapes_have_their_built_size() -> None:
    import random

    rng = random.Random(28)
    for _ in range(60):
        rows, cols, k = rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 4)
        mask = "/".join("".join(rng.choice("##.") for _ in range(cols)) for _ in range(rows))
        if "#" not in mask or not shape_size(mask, k).lines:
            continue
        assert shape_size(mask, k) == built(f'shape("{mask}",{k})'), (mask, k)


def test_the_known_line_counts() -> None:
    # Qubic's 76 lines, 7^3's 193, 15x15 with five in a row 572: 002 §2.2 and the Gomoku literature
    assert hypercube_size(4, 3).lines == 76
    assert hypercube_size(7, 3).lines == 193
    assert hypercube_size(3, 3).lines == 49
    assert mnk_size(15, 15, 5).lines == 572


def test_sizes_too_big_to_build_are_computed_without_building() -> None:
    size = spec_size("misere(mnk(64, 64, 5))")
    assert size == mnk_size(64, 64, 5)
    assert size is not None and size.cells == 4096
    huge = spec_size("hypercube(1000,12)")
    assert huge is not None and huge.cells == 1000**12
    with pytest.raises(SpecError):
        noughts.game("hypercube(1000,12)")


def test_sizing_builds_no_board(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a board was built")

    monkeypatch.setattr(Board, "__init__", refuse)
    for spec in [*SPECS, "misere(mnk(64,64,5))", "hypercube(9,4)"]:
        assert spec_size(spec) is not None


@pytest.mark.parametrize(
    "spec",
    [
        "nonsense(3)",
        "mnk(3,3)",
        'mnk(3,"a",3)',
        "misere(mnk(3,3,3),1)",
        "veto(tictactoe,foo=1)",
        "hypercube(3,13)",
        "mnk(3,3,3.5)",
    ],
)
def test_specs_it_cannot_size_are_refused_by_the_registry(spec: str) -> None:
    assert spec_size(spec) is None
    with pytest.raises(SpecError):
        noughts.game(spec)


def test_a_spec_that_cannot_be_read_raises() -> None:
    with pytest.raises(SpecError):
        spec_size("mnk(3,3,3")


def test_the_key_ignores_spaces_and_keeps_the_arguments() -> None:
    assert spec_key("misere( mnk(3, 3,3) )") == spec_key("misere(mnk(3,3,3))") == "misere(mnk(3,3,3))"
    assert spec_key('shape( "###", 3 )') == 'shape("###",3)'
    assert spec_key("notakto(boards = 2)") == "notakto(boards=2)"
    assert spec_key("mnk(3,3,3)") != spec_key("mnk(3,3,2)")
    for spec in SPECS:
        assert str(noughts.game(spec_key(spec))) == str(noughts.game(spec))
