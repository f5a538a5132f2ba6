"""Proof-number search (noughts.proving.pns) held to the reference minimax.

Both move generators (the position-API reference and the bitboards) must say "can force a win"
exactly where the reference's value is a win for that player, for both players, on every
reachable position of the small games, and on every position reachable from sampled 4x4
positions. The big proofs (mnk(6,5,4) a win, mnk(4,4,4) a draw) are slow tests, checked
against the kernel.
"""

from __future__ import annotations

import json

import pytest
from exact_cases import EXTRA_CORNER, EXTRA_CORNER_SIDE, EXTRA_SIDE, deep_positions, game, reference

import noughts
from noughts import LimitExceeded, Outcome, Player
from noughts.core import Position
from noughts.core.budget import Budget
from noughts.core.values import Value
from noughts.exact.reference import reference_values
from noughts.proving.pns import ProofResult, Prover, _Bitboards, prove_win, supports_bitboards

BITBOARD_GAMES = [
    "tictactoe",
    "misere(tictactoe)",
    "maker_breaker(tictactoe)",
    "maker_breaker(tictactoe,breaker_first=true)",
    EXTRA_SIDE,
    EXTRA_CORNER_SIDE,
    EXTRA_CORNER,
]

# games only the position-API generator takes
API_ONLY_GAMES = ["cumulative(tictactoe)", "veto(tictactoe)", "notakto"]

PLAYERS = [Player.FIRST, Player.SECOND]


def _check_all(values: dict[Position, Value], spec: str, fast: bool) -> int:
    """Every position of ``values``, both players, on one prover per player (the table is shared
    across positions, as a user's would be); returns the number of answers checked."""
    g = game(spec)
    checked = 0
    for player in PLAYERS:
        prover = Prover(g, player, fast=fast)
        win = Outcome.win_for(player)
        for position, value in values.items():
            result = prover.prove(position)
            assert result.proved == (value.outcome is win), (spec, position.text(), player, value)
            checked += 1
    return checked


@pytest.mark.parametrize("spec", BITBOARD_GAMES)
@pytest.mark.parametrize("fast", [True, False], ids=["bitboards", "position-api"])
def test_every_reachable_position_matches_the_reference(spec: str, fast: bool) -> None:
    values = reference(spec)
    assert supports_bitboards(game(spec))
    assert _check_all(values, spec, fast) == 2 * len(values)


@pytest.mark.parametrize("spec", ["tictactoe", EXTRA_CORNER, "maker_breaker(tictactoe)"])
def test_bitboard_key_has_the_classes_of_canonical_key(spec: str) -> None:
    """Two positions share a bitboard key exactly when they share ``canonical_key``."""
    g = game(spec)
    gen = _Bitboards(g, Player.FIRST)
    by_key: dict[object, set[object]] = {}
    by_canonical: dict[object, set[object]] = {}
    for position in reference(spec):
        key = gen.key(gen.root(position))
        by_key.setdefault(key, set()).add(position.canonical_key())
        by_canonical.setdefault(position.canonical_key(), set()).add(key)
    assert all(len(v) == 1 for v in by_key.values())
    assert all(len(v) == 1 for v in by_canonical.values())
    assert len(by_key) == len(by_canonical) < len(reference(spec))


@pytest.mark.parametrize("spec", API_ONLY_GAMES)
def test_position_api_takes_every_game(spec: str) -> None:
    assert not supports_bitboards(game(spec))
    _check_all(reference(spec), spec, fast=False)


@pytest.mark.parametrize("spec", BITBOARD_GAMES[:4])
def test_a_fresh_prover_per_position_agrees_too(spec: str) -> None:
    """No help from an earlier search's table: every running position, from an empty table."""
    g = game(spec)
    for position, value in list(reference(spec).items())[::29]:
        for player in PLAYERS:
            result = prove_win(g, position, player)
            assert result.proved == (value.outcome is Outcome.win_for(player)), (position.text(), player)


@pytest.mark.parametrize(
    ("spec", "plies", "count"),
    [("mnk(4,4,4)", 8, 3), ("misere(mnk(4,4,4))", 9, 2), ("maker_breaker(mnk(4,4,4))", 8, 3)],
)
def test_sampled_4x4_positions(spec: str, plies: int, count: int) -> None:
    """Every position reachable from a few deep 4x4 positions, both generators."""
    for start in deep_positions(spec, plies, count, seed=7):
        values = reference_values(game(spec), start)
        _check_all(values, spec, fast=True)
        for player in PLAYERS:  # the reference generator on the sampled position itself
            expected = values[start].outcome is Outcome.win_for(player)
            assert prove_win(game(spec), start, player, fast=False).proved == expected


@pytest.mark.parametrize("fast", [True, False], ids=["bitboards", "position-api"])
def test_hypercube_3_3_is_a_first_player_win(fast: bool) -> None:
    g = noughts.game("hypercube(3,3)")
    result = prove_win(g, fast=fast)
    assert isinstance(result, ProofResult)
    assert result.proved and result.player is Player.FIRST
    assert result.describe() == "x can force a win"
    assert result.move is not None
    # the winning move is one by the alpha-beta kernel's reckoning, and the second player
    # cannot force a win from the start
    after = g.start().play(result.move)
    assert noughts.solve(g, after, max_seconds=None).value.outcome is Outcome.FIRST
    assert not prove_win(g, player=Player.SECOND, fast=fast).proved


def test_winning_moves_are_winning() -> None:
    """The move a proof gives leads to a position the reference values as a win."""
    spec = "maker_breaker(tictactoe)"
    provers = {player: Prover(game(spec), player) for player in PLAYERS}
    for position, value in reference(spec).items():
        if position.is_terminal():
            continue
        result = provers[position.to_move].prove(position)
        if result.proved:
            assert result.move is not None
            assert reference(spec)[position.play(result.move)].outcome is value.outcome
        else:
            assert result.move is None


def test_misere_means_the_other_player_completes_a_line() -> None:
    g = noughts.game("misere(tictactoe)")
    p = g.start()
    for text in ["a1", "a2", "b2", "a3", "c3"]:  # x completes the diagonal a1-b2-c3
        p = p.play(g.parse_move(text))
    assert p.is_terminal()
    assert prove_win(g, p, Player.SECOND).proved
    assert not prove_win(g, p, Player.FIRST).proved


def test_terminal_and_defaults() -> None:
    g = noughts.game("tictactoe")
    won = g.parse("xxx/oo./...")
    assert prove_win(g, won, Player.FIRST).proved and prove_win(g, won, Player.FIRST).nodes == 0
    assert not prove_win(g, won, Player.SECOND).proved
    result = prove_win(g, g.parse("xx./oo./..."))  # x to move, wins at once
    assert result.proved and result.player is Player.FIRST and result.move == g.parse_move("c1")
    data = result.to_json()
    assert data["move"] == "c1" and data["proved"] is True and data["answer"] == "x can force a win"
    assert json.loads(json.dumps(data)) == data


def test_budgets_raise_limit_exceeded() -> None:
    g = noughts.game("mnk(6,5,4)")
    with pytest.raises(LimitExceeded, match="node budget"):
        prove_win(g, max_nodes=50)
    with pytest.raises(LimitExceeded, match="time budget"):
        prove_win(g, budget=Budget(max_seconds=0.0, max_memory=None))
    with pytest.raises(LimitExceeded, match="memory budget"):
        prove_win(g, budget=Budget(max_seconds=None, max_memory=1))
    # the table keeps what was learned: a prover can go on after a budget stop
    prover = Prover(noughts.game("hypercube(3,3)"), Player.FIRST, max_nodes=5)
    with pytest.raises(LimitExceeded):
        prover.prove(prover.game.start())
    prover.max_nodes = None
    assert prover.prove(prover.game.start()).proved


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="bitboard generator"):
        Prover(noughts.game("notakto"), Player.FIRST, fast=True)
    with pytest.raises(ValueError, match="belongs to"):
        prove_win(noughts.game("tictactoe"), noughts.game("mnk(4,4,4)").start())


@pytest.mark.slow
@pytest.mark.parametrize("fast", [True, False], ids=["bitboards", "position-api"])
def test_misere_4_3_3_every_position(fast: bool) -> None:
    spec = "misere(mnk(4,3,3))"
    values = reference_values(game(spec))
    assert _check_all(values, spec, fast) == 2 * len(values)


@pytest.mark.slow
def test_mnk_6_5_4_is_a_first_player_win() -> None:
    """Proved by df-pn alone (no alpha-beta), then the kernel agrees on the winning move."""
    g = noughts.game("mnk(6,5,4)")
    result = prove_win(g, budget=Budget(max_seconds=600, max_memory=None))
    assert result.proved and result.move is not None
    assert noughts.solve(g, g.start().play(result.move), max_seconds=None).value.outcome is Outcome.FIRST


@pytest.mark.slow
def test_mnk_4_4_4_is_no_win_for_either_player() -> None:
    """A draw, disproved for each side by df-pn alone, and the kernel's value agrees.

    (mnk(5,5,4), also a draw, is not disproved within 900 s: see BENCHMARKS.md.)"""
    g = noughts.game("mnk(4,4,4)")
    for player in PLAYERS:
        assert not prove_win(g, player=player, budget=Budget(max_seconds=600, max_memory=None)).proved
    assert noughts.solve(g, max_seconds=None).value.outcome is Outcome.DRAW
