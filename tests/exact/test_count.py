"""Exact counts (noughts.exact.count): golden figures from the sources, and the fast kernels
held to the plain reference DP over positions.

3x3 figures: 004 §4.1 (255,168 games, 131,184 first-player wins, 549,946 tree nodes) and the
well-known 5,478 positions, 765 up to symmetry, 958 terminal positions (138 up to symmetry),
77,904 second-player wins, 46,080 draws and 26,830 games up to symmetry (see docs/counting.md
for which definition gives that figure).
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Iterator, Sequence

import pytest

import noughts
from noughts import Game, LimitExceeded, NotaktoMove, Veto
from noughts.core.budget import Budget
from noughts.exact import _count_kernels as kernels
from noughts.exact.count import CountResult, count, fixed_action_sets, reference_levels

CLAIM_3X3 = [
    "tictactoe",
    "misere(tictactoe)",
    "maker_breaker(tictactoe)",
    "maker_breaker(tictactoe,breaker_first=true)",
    "cumulative(tictactoe)",
]
SMALL_CLAIM = [
    "mnk(2,3,2)",
    "mnk(3,3,2)",
    "mnk(1,7,3)",
    "hypercube(2,3)",
    "hypercube(2,3,k=1)",
    "misere(mnk(2,4,2))",
    "maker_breaker(mnk(3,3,2))",
    "cumulative(mnk(2,4,2))",
    'shape("###./####/###.",3)',  # 004 §2.2: 3x3 with a square added next to an edge square
    'shape("####/###./###.",3)',  # beside a corner square
    'shape("###./###./###./...#",3)',  # diagonally off a corner
    'shape("#.#/.#./#.#",2)',  # holes inside the grid
]


def _comparable(r: CountResult) -> dict[str, object]:
    d = r.to_json()
    del d["seconds"], d["method"]
    return d


# -- golden figures ----------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["reference", "fast"])
def test_tictactoe_published_counts(method: str) -> None:
    r = count("tictactoe", method=method)  # type: ignore[arg-type]
    assert r.method == method
    assert r.positions == 5478
    assert r.positions_by_ply == [1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78]
    assert r.positions_up_to_symmetry == 765
    assert r.positions_up_to_symmetry_by_ply == [1, 3, 12, 38, 108, 174, 204, 153, 57, 15]
    assert r.games == 255_168  # 004 §4.1
    assert r.games_by_outcome == {"first": 131_184, "second": 77_904, "draw": 46_080}
    assert r.games_by_outcome["second"] + r.games_by_outcome["draw"] == 123_984  # 004 §4.1
    assert r.games_by_length == {5: 1440, 6: 5328, 7: 47_952, 8: 72_576, 9: 127_872}
    assert r.terminal_positions == 958
    assert r.terminal_positions_by_outcome == {"first": 626, "second": 316, "draw": 16}
    assert r.terminal_positions_up_to_symmetry == 138
    assert r.tree_nodes == 549_946  # 004 §4.1: "549,946 positions" are game-tree nodes
    # 26,830 is the quotient-DAG count; the orbit count is 255,168 / 8, since no complete game
    # of 3x3 is fixed by a symmetry other than the identity
    assert r.games_up_to_symmetry_quotient == 26_830
    assert r.games_up_to_symmetry_orbits == 31_896 == 255_168 // 8
    assert r.symmetry_group_order == 8


def test_notakto_games_are_004s_matrix_rows() -> None:
    """004 §4.4: the Notakto game-tree matrix has 23,232 rows (one per complete game) and 8
    columns (plies 0-7: every game ends by the 7th x)."""
    r = count("notakto")
    assert r.games == 23_232
    assert max(r.games_by_length) == 7
    assert r.tree_nodes == 30_442  # 004 says 34,560 "positions"; see docs/counting.md


def test_veto_tictactoe_counts_every_move() -> None:
    r = count("veto(tictactoe)")
    assert r.method == "reference"
    assert r.positions == 26_165
    assert r.games == 128_185_182_720
    # a game stalls at ply 17 when the last empty cell is vetoed, or ends at ply 18 after a pass
    assert r.games_by_length[17] == r.games_by_length[18] == 46_402_191_360


# -- the fast kernels against the reference ------------------------------------------------------


@pytest.mark.parametrize("spec", CLAIM_3X3 + SMALL_CLAIM)
def test_fast_matches_reference(spec: str) -> None:
    assert _comparable(count(spec, method="fast")) == _comparable(count(spec, method="reference"))


@pytest.mark.parametrize("spec", ["mnk(3,4,3)", "misere(mnk(3,4,3))"])
def test_fast_matches_reference_3x4(spec: str) -> None:
    assert _comparable(count(spec, method="fast")) == _comparable(count(spec, method="reference"))


@pytest.mark.slow
@pytest.mark.parametrize(
    "spec", ["maker_breaker(mnk(3,4,3))", "cumulative(mnk(3,4,3))", "mnk(4,4,3)", "misere(mnk(4,4,3))"]
)
def test_fast_matches_reference_slow(spec: str) -> None:
    budget = Budget(max_seconds=900, max_memory=8 * 2**30)  # the reference takes minutes on 4x4
    assert _comparable(count(spec, method="fast")) == _comparable(
        count(spec, method="reference", budget=budget)
    )


@pytest.mark.parametrize("spec", ["tictactoe", "maker_breaker(mnk(3,3,2))", "cumulative(tictactoe)"])
def test_two_word_keys_and_python_int_counts(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The code paths of boards over 32 cells (two-word keys) and of counts beyond 2^64
    (Python ints) give the same counts, forced on a small board."""
    expected = _comparable(count(spec, method="fast"))
    monkeypatch.setattr(kernels, "_LIMIT", 2)  # switch to Python ints from the first ply
    original = kernels.ClaimDag.__init__

    def unpacked(self: kernels.ClaimDag, game: Game) -> None:
        original(self, game)
        self.packed = False

    monkeypatch.setattr(kernels.ClaimDag, "__init__", unpacked)
    assert _comparable(count(spec, method="fast")) == expected


@pytest.mark.parametrize("spec", ["mnk(3,11,2)", "mnk(8,8,2)", "maker_breaker(mnk(5,7,2))"])
def test_big_boards_first_plies(spec: str) -> None:
    """Boards of 33 to 64 cells: the first plies of the fast DAG (positions, path counts,
    outcomes, and canonical forms) equal the reference's."""
    game = noughts.game(spec)
    dag = kernels.ClaimDag(game)
    budget = Budget()
    plies = 3 if game.board.num_cells > 40 else 4
    fast_levels = itertools.islice(dag.levels(), plies)
    quotient_levels = itertools.islice(dag.quotient_levels(), plies)
    ref_levels = itertools.islice(reference_levels(game, budget), plies)
    for fast, quotient, ref in zip(fast_levels, quotient_levels, ref_levels, strict=True):
        got = {
            (int(b0), int(b1)): (int(n), int(o))
            for b0, b1, n, o in zip(fast.b0, fast.b1, fast.paths, fast.outcome, strict=True)
        }
        codes = {
            None: kernels.RUNNING,
            "first": kernels.FIRST,
            "second": kernels.SECOND,
            "draw": kernels.DRAW,
        }
        want = {
            pos.state: (n, codes[None if pos.outcome() is None else pos.outcome().value])  # type: ignore[union-attr]
            for pos, n in ref.items()
        }
        assert got == want
        classes = {(int(a), int(b)) for a, b in zip(quotient.b0, quotient.b1, strict=True)}
        assert classes == {pos.canonical_key() for pos in ref}


def test_fast_refuses_other_games() -> None:
    with pytest.raises(ValueError, match="fast"):
        count("notakto", method="fast")
    with pytest.raises(ValueError, match="fast"):
        count("otrio", method="fast")  # a StandardGame subclass, but not a plain claim game


# -- games up to symmetry, by brute force -----------------------------------------------------------


def _complete_games(game: Game) -> Iterator[tuple[int, ...]]:
    def walk(pos: noughts.Position, seq: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if pos.is_terminal():
            yield seq
            return
        for move in pos.legal_moves():
            yield from walk(pos.play(move), seq + (game.action(move),))

    return walk(game.start(), ())


def _action_maps(game: Game) -> list[Sequence[int]]:
    """Every element of the symmetry group acting on actions, built independently of
    ``fixed_action_sets``."""
    n = game.board.num_cells
    perms = game.symmetries
    if isinstance(game, noughts.core.VetoGame):
        return [[*p, *(n + p[c] for c in range(n)), 2 * n] for p in perms]
    if isinstance(game, noughts.core.NotaktoGame):
        maps: list[Sequence[int]] = []
        for sigma in itertools.permutations(range(game.boards)):
            for gs in itertools.product(perms, repeat=game.boards):
                maps.append([sigma[b] * n + gs[b][c] for b in range(game.boards) for c in range(n)])
        return maps
    return list(perms)


@pytest.mark.parametrize(
    "spec",
    [
        "mnk(2,3,2)",
        "mnk(3,3,2)",
        "maker_breaker(mnk(3,3,2))",
        "veto(mnk(2,2,2))",
        "notakto",
        "notakto(mnk(2,2,2),boards=2)",
        "hypercube(2,3)",
    ],
)
def test_orbits_by_brute_force(spec: str) -> None:
    """Burnside's count equals the number of orbits of the enumerated complete games."""
    game = noughts.game(spec)
    maps = _action_maps(game)
    order, _ = fixed_action_sets(game)  # type: ignore[misc]
    assert order == len(maps)
    orbits = {min(tuple(m[a] for a in seq) for m in maps) for seq in _complete_games(game)}
    r = count(game)
    assert r.games_up_to_symmetry_orbits == len(orbits)
    assert r.games == sum(1 for _ in _complete_games(game))


def test_notakto_moves_are_what_the_actions_say() -> None:
    game = noughts.game("notakto(boards=2)")
    assert game.action(NotaktoMove(1, 4)) == 13
    veto = noughts.game("veto(tictactoe)")
    assert veto.action(Veto(None)) == 18 and veto.action(Veto(4)) == 13


# -- interface -----------------------------------------------------------------------------------


def test_json_document_has_stable_keys() -> None:
    doc = json.loads(json.dumps(count("tictactoe").to_json()))
    assert list(doc) == [
        "game",
        "positions",
        "positions_by_ply",
        "positions_up_to_symmetry",
        "positions_up_to_symmetry_by_ply",
        "terminal_positions_up_to_symmetry",
        "games",
        "games_by_outcome",
        "games_by_length",
        "terminal_positions",
        "terminal_positions_by_outcome",
        "tree_nodes",
        "games_up_to_symmetry_orbits",
        "games_up_to_symmetry_quotient",
        "symmetry_group_order",
        "method",
        "seconds",
    ]
    assert doc["game"] == "mnk(3,3,3)"
    assert doc["games_by_outcome"] == {"first": 131_184, "second": 77_904, "draw": 46_080}
    assert doc["games_by_length"] == {"5": 1440, "6": 5328, "7": 47_952, "8": 72_576, "9": 127_872}
    assert doc == count("tictactoe").to_json() | {"seconds": doc["seconds"]}


def test_without_symmetry() -> None:
    r = count("tictactoe", symmetry=False)
    assert r.games == 255_168
    assert r.positions_up_to_symmetry is None and r.games_up_to_symmetry_orbits is None
    assert count("veto(tictactoe)", symmetry=False).games_up_to_symmetry_quotient is None


@pytest.mark.parametrize("spec", ["mnk(4,4,4)", "veto(tictactoe)"])
def test_budget_stops_cleanly(spec: str) -> None:
    with pytest.raises(LimitExceeded, match="counted"):
        count(spec, budget=Budget(max_seconds=0.0))
    with pytest.raises(LimitExceeded, match="memory"):
        count(spec, budget=Budget(max_memory=1))


@pytest.mark.parametrize("method", ["reference", "fast"])
def test_progress_is_reported_ply_by_ply(method: str, capsys: pytest.CaptureFixture[str]) -> None:
    steps: list[tuple[int, int, str]] = []
    result = count("tictactoe", progress=lambda *step: steps.append(step), method=method)  # type: ignore[arg-type]
    assert result.games == 255_168
    assert [done for done, _, _ in steps] == list(range(1, len(result.positions_by_ply) + 1))
    assert {total for _, total, _ in steps} == {10}  # the longest game (9 plies) plus one
    assert steps[4][2] == f"ply 4: {result.positions_by_ply[4]:,} positions"
    assert capsys.readouterr().err == ""  # the library draws nothing: the CLI does


def test_progress_must_be_a_callback() -> None:
    with pytest.raises(TypeError, match="callback"):
        count("tictactoe", progress=True)  # type: ignore[arg-type]


def test_spec_and_game_alike() -> None:
    assert count(noughts.game("tictactoe")).games == count("mnk(3,3,3)").games


# -- the target: mnk(4,4,4) ------------------------------------------------------------------------


@pytest.mark.slow
def test_mnk_4_4_4() -> None:
    """About 1.5·10^13 games (the issue's figure), counted exactly in seconds (3.5 s here)."""
    started = time.perf_counter()
    r = count("mnk(4,4,4)", budget=Budget(max_seconds=120))
    print(f"count mnk(4,4,4): {time.perf_counter() - started:.1f} s")
    assert r.method == "fast"
    assert r.positions == 9_722_011
    assert r.positions_up_to_symmetry == 1_217_977
    assert r.games == 15_038_733_958_272
    assert r.games_by_outcome == {
        "first": 3_225_291_101_568,
        "second": 3_106_180_802_304,
        "draw": 8_707_262_054_400,
    }
    assert r.terminal_positions == 659_392
    assert r.tree_nodes == 36_277_691_063_105
    assert r.games_up_to_symmetry_orbits == r.games // 8
    assert r.games_up_to_symmetry_quotient == 1_810_265_101_760
    # plies 0-7 hold every arrangement: no game can end before x's 4th mark
    assert r.positions_by_ply[7] == 11_440 * 35
