"""Who-can-force-what labels (noughts.exact.labels) against 004 §4.1-4.4, the fast backward
pass against the reference, and the retrograde values against the reference solver."""

from __future__ import annotations

import pytest

import noughts
from noughts import Outcome
from noughts.core.budget import Budget
from noughts.core.values import WIN
from noughts.exact.labels import fast_values, label_of, labels, retrograde_values

CLAIM_3X3 = [
    "tictactoe",
    "misere(tictactoe)",
    "maker_breaker(tictactoe)",
    "maker_breaker(tictactoe,breaker_first=true)",
    "cumulative(tictactoe)",
]


# -- 004's figures -------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["reference", "fast"])
def test_standard_004_4_1(method: str) -> None:
    """004 §4.1: 549,946 positions (tree nodes), 269,056 F and 280,890 S; the start is S."""
    r = labels("tictactoe", method=method)  # type: ignore[arg-type]
    assert r.tree_nodes == 549_946
    assert r.first_or_not() == {"F": 269_056, "S": 280_890}
    assert r.tree_nodes_by_label == {"first": 269_056, "second": 148_708, "draw": 132_182}
    assert r.positions == 5478
    assert r.positions_by_label == {"first": 2936, "second": 1474, "draw": 1068}
    assert r.start == "draw"


@pytest.mark.parametrize("method", ["reference", "fast"])
def test_misere_004_4_2(method: str) -> None:
    """004 §4.2: still 549,946 positions, now 103,160 F, 322,848 S and 123,938 D; a draw."""
    r = labels("misere(tictactoe)", method=method)  # type: ignore[arg-type]
    assert r.tree_nodes_by_label == {"first": 103_160, "second": 322_848, "draw": 123_938}
    assert r.start == "draw"


def test_misere_first_moves_004_4_2() -> None:
    """004 §4.2: eight first moves lead to S positions, the centre to a draw."""
    game = noughts.game("misere(tictactoe)")
    values = retrograde_values(game)
    start = game.start()
    by_move = {m: label_of(values[start.play(m)]) for m in start.legal_moves()}
    assert by_move == {m: ("draw" if m == 4 else "second") for m in range(9)}


def test_veto_004_4_3() -> None:
    """004 §4.3: 422,074 positions, 61,968 F and 360,106 S, over the tree of turns (claims
    only; the last empty cell is never claimed, it is always vetoed)."""
    r = labels("veto(tictactoe)", tree="turns")
    assert r.tree_nodes == 422_074
    assert r.first_or_not() == {"F": 61_968, "S": 360_106}
    assert r.start == "draw"
    # the same tree is the standard game's tree without its 9th ply
    assert 549_946 - 127_872 == 422_074


def test_veto_tree_of_moves() -> None:
    r = labels("veto(tictactoe)")
    assert r.tree == "moves" and r.start == "draw"
    assert r.positions == 26_165
    assert r.tree_nodes == 309_971_417_717
    with pytest.raises(ValueError, match="veto"):
        labels("tictactoe", tree="turns")


def test_notakto_004_4_4() -> None:
    """004 §4.4: one-board Notakto is a first-player win. Its 34,560 positions (23,952 F,
    10,608 S) are not reproduced: the tree has 30,442 nodes (docs/counting.md)."""
    r = labels("notakto")
    assert r.start == "first"
    assert r.tree_nodes == 30_442
    assert r.tree_nodes_by_label == {"first": 16_330, "second": 14_112, "draw": 0}
    assert r.positions_by_label == {"first": 234, "second": 216, "draw": 0}


@pytest.mark.slow
def test_notakto_two_boards_is_a_second_player_win() -> None:
    """004 §4.4: Notakto on two boards is a second-player win."""
    assert labels("notakto(boards=2)", budget=Budget(max_seconds=300)).start == "second"


# -- fast against reference ------------------------------------------------------------------------


@pytest.mark.parametrize("spec", CLAIM_3X3 + ["mnk(3,3,2)", "cumulative(mnk(2,4,2))", "misere(mnk(2,4,3))"])
def test_fast_labels_match_reference(spec: str) -> None:
    fast = labels(spec, method="fast").to_json()
    ref = labels(spec, method="reference").to_json()
    for d in (fast, ref):
        del d["seconds"], d["method"]
    assert fast == ref


@pytest.mark.parametrize("spec", CLAIM_3X3 + ["mnk(3,3,2)", 'shape("###./####/###.",3)'])
def test_fast_values_match_retrograde(spec: str) -> None:
    want = {pos.state: v for pos, v in retrograde_values(spec).items()}
    got = {
        (int(b0), int(b1)): int(v)
        for level, values in fast_values(spec)
        for b0, b1, v in zip(level.b0, level.b1, values, strict=True)
    }
    assert got == want


# -- the retrograde pass against the reference solver ---------------------------------------------


@pytest.mark.parametrize(
    "spec",
    CLAIM_3X3 + ["veto(tictactoe)", "veto(misere(mnk(2,3,2)))", "notakto", "notakto(mnk(2,2,2),boards=2)"],
)
def test_retrograde_matches_reference_solver(spec: str) -> None:
    reference = pytest.importorskip("noughts.exact.reference")
    game = noughts.game(spec)
    ref = reference.reference_values(game)
    mine = retrograde_values(game)
    assert set(mine) == set(ref)
    for pos, v in mine.items():
        value = ref[pos]
        if game.properties.is_scored:
            assert value.score == v, pos
        elif v == 0:
            assert value.outcome is Outcome.DRAW, pos
        else:
            assert value.outcome is (Outcome.FIRST if v > 0 else Outcome.SECOND), pos
            assert value.plies == WIN - abs(v), pos


def test_budget_stops_labelling() -> None:
    with pytest.raises(noughts.LimitExceeded):
        labels("mnk(4,4,4)", budget=Budget(max_seconds=0.0))


@pytest.mark.slow
def test_mnk_4_4_4_is_a_draw() -> None:
    r = labels("mnk(4,4,4)", budget=Budget(max_seconds=300))
    assert r.method == "fast"
    assert r.start == "draw"
    assert r.tree_nodes == 36_277_691_063_105
    assert r.positions_by_label == {"first": 2_304_458, "second": 1_386_364, "draw": 6_031_189}
