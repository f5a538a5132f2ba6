"""One conformance check that every game passes (OpenSpiel's random_sim_test, PettingZoo's api_test).

Each spec in ``CONFORMANCE_SPECS`` (every registry entry, every rules wrapper on every board kind)
goes through :func:`noughts.testing.check_game`, which plays seeded random games to the end
through the public API only and checks every position on the way against the protocol's
promises; the tests below add what holds for the registry's games in particular.
"""

from __future__ import annotations

import numpy as np
import pytest
from core_cases import CONFORMANCE_SPECS, all_moves, reachable

import noughts
from noughts import IllegalMoveError, NotationError, Outcome
from noughts.core import ENTRIES, Game, NotaktoMove, Ring, Slide, Veto
from noughts.core.spec import Call, parse_spec
from noughts.testing import check_game

MOVE_BUDGET = 40_000  # roughly moves checked per spec, so that big boards get fewer games
MAX_GAMES = 30
MIN_GAMES = 4
LOOPY_CAP = 64  # plies a game that need not end is played for here (positions repeat well before)


def _cap(g: Game) -> int:
    return g.properties.move_cap if g.properties.bounded else min(LOOPY_CAP, g.properties.move_cap)


def _games_for(g: Game) -> int:
    return max(MIN_GAMES, min(MAX_GAMES, MOVE_BUDGET // (g.num_actions * _cap(g)) + 1))


@pytest.mark.parametrize("spec", CONFORMANCE_SPECS)
def test_random_games(spec: str) -> None:
    """noughts.testing.check_game, the check users run on their own games, on every game here."""
    g = noughts.game(spec)
    moves = all_moves(g)
    assert [g.action(m) for m in moves] == list(range(g.num_actions))
    games = _games_for(g)
    report = check_game(
        g, games=games, seed=0, max_plies=None if g.properties.bounded else _cap(g), symmetry_sample=16
    )
    assert report.games == games
    if g.properties.bounded:
        assert report.finished == games  # every game here ends within max_length
    assert report.positions > games


@pytest.mark.parametrize("spec", CONFORMANCE_SPECS)
def test_spec_round_trip(spec: str) -> None:
    g = noughts.game(spec)
    assert noughts.game(str(g)) == g
    assert str(noughts.game(str(g))) == str(g)
    assert hash(noughts.game(str(g))) == hash(g)
    assert noughts.game(g) is g
    assert repr(g) == f"noughts.game({str(g)!r})"
    assert noughts.board(spec) == g.board


@pytest.mark.parametrize("spec", CONFORMANCE_SPECS)
def test_properties_are_sane(spec: str) -> None:
    g = noughts.game(spec)
    props = g.properties
    assert props.zero_sum
    if props.bounded:
        assert props.max_length is not None and props.max_length >= 1
        assert props.truncation is None
    else:
        assert props.has_draws, "a game that need not end can be drawn by endless play"
        assert props.truncation is not None and props.truncation >= 1
    assert props.move_cap >= 1
    assert g.num_actions >= 1
    assert (g.start().score() is not None) == props.is_scored
    assert props.same_marks == spec.startswith("notakto")
    assert g.notation_help()
    assert g.symmetry_count == len(set(g.symmetries))
    for player in noughts.Player:
        assert g.player_label(player)
    for outcome in Outcome:
        assert g.outcome_text(outcome)


@pytest.mark.parametrize("spec", CONFORMANCE_SPECS)
def test_junk_moves_are_refused(spec: str) -> None:
    """Things that are no move of the game raise IllegalMoveError, never another exception."""
    g = noughts.game(spec)
    p = g.start()
    n = g.board.num_cells
    junk: list[object] = [
        -1,
        g.num_actions,
        n,
        10**9,
        None,
        "a1",
        1.0,
        True,
        (0, 0),
        Veto(n),
        Veto(-2),
        NotaktoMove(99, 0),
        NotaktoMove(0, n),
        NotaktoMove(-1, 0),
        Ring(9, 0),
        Ring(0, 3),
        Ring(-1, 0),
        Slide(0, 0),
        Slide(0, n),
        Slide(-1, 1),
    ]
    for m in junk:
        with pytest.raises(IllegalMoveError):
            p.play(m)  # type: ignore[arg-type]


@pytest.mark.parametrize("spec", CONFORMANCE_SPECS)
def test_bad_actions_are_refused(spec: str) -> None:
    g = noughts.game(spec)
    for a in (-1, g.num_actions, 2.0, "0", None, True):
        with pytest.raises(NotationError):
            g.move(a)  # type: ignore[arg-type]
    assert g.move(np.int64(0)) == g.move(0)


def _names(call: Call) -> set[str]:
    names = {call.name}
    for value in list(call.args) + [v for _, v in call.kwargs]:
        if isinstance(value, Call):
            names |= _names(value)
    return names


def test_every_registry_entry_and_board_kind_is_covered() -> None:
    named = set().union(*(_names(parse_spec(spec)) for spec in CONFORMANCE_SPECS))
    # "standard" is what a bare board means: the same game under another name
    assert set(ENTRIES) - {"standard"} <= named
    assert noughts.game("standard(tictactoe)") == noughts.game("tictactoe")
    for rules in (
        "misere",
        "maker_breaker",
        "cumulative",
        "veto",
        "notakto",
        "forget",
        "vanishing",
        "morris",
    ):
        kinds = {noughts.game(s).board.kind for s in CONFORMANCE_SPECS if s.startswith(rules + "(")}
        assert kinds == {"mnk", "hypercube", "shape"}, rules


@pytest.mark.parametrize(
    "spec",
    [
        "tictactoe",
        "misere(tictactoe)",
        "maker_breaker(tictactoe,breaker_first=true)",
        "cumulative(tictactoe)",
        "veto(tictactoe)",
        "mnk(3,4,3)",
        "notakto",
        'forget(tictactoe,count="plies")',
        "vanishing(mnk(3,3,3),keep=2)",
        'morris(judge="before",blocked="passes")',
    ],
)
def test_equal_canonical_keys_mean_the_same_game(spec: str) -> None:
    """Positions with one canonical key are one position up to symmetry: the same player is to move
    and the same outcome (and score) holds, over every reachable position."""
    g = noughts.game(spec)
    seen: dict[object, tuple[object, ...]] = {}
    for p in reachable(g):
        facts = (p.to_move, p.outcome(), p.score(), len(p.legal_moves()))
        assert seen.setdefault(p.canonical_key(), facts) == facts, p.text()
