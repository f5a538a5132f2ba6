"""One conformance check that every game passes (OpenSpiel's random_sim_test, PettingZoo's api_test).

Each spec in ``CONFORMANCE_SPECS`` (every registry entry, every rules wrapper on every board kind)
plays seeded random games to the end through the public API only, and every position on the way
is checked against the protocol's promises. Games that need not end (``properties.bounded`` is
false: marks vanish or move) are played for at most ``properties.truncation`` plies; every check
of a position still applies, and a position met twice in one game must be the same value.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from core_cases import CONFORMANCE_SPECS, all_moves, random_game, reachable

import noughts
from noughts import IllegalMoveError, NotationError, Outcome, Position
from noughts.core import ENTRIES, Game, NotaktoMove, Ring, Slide, Veto
from noughts.core.spec import Call, parse_spec

MOVE_BUDGET = 40_000  # roughly moves checked per spec, so that big boards get fewer games
MAX_GAMES = 30
MIN_GAMES = 4
LOOPY_CAP = 64  # plies a game that need not end is played for here (positions repeat well before)


def _snapshot(p: Position) -> tuple[object, ...]:
    return (p.text(), p.state, hash(p), p.to_move, p.outcome(), p.score())


def _cap(g: Game) -> int:
    return g.properties.move_cap if g.properties.bounded else min(LOOPY_CAP, g.properties.move_cap)


def _games_for(g: Game) -> int:
    return max(MIN_GAMES, min(MAX_GAMES, MOVE_BUDGET // (g.num_actions * _cap(g)) + 1))


def _check_moves(g: Game, p: Position, moves: list[object]) -> None:
    """legal_moves is exactly the set of moves that play accepts; the others raise IllegalMoveError."""
    before = _snapshot(p)
    legal = p.legal_moves()
    assert len(set(legal)) == len(legal), "legal_moves lists a move twice"
    legal_set = set(legal)
    for m in moves:
        if m in legal_set:
            q = p.play(m)
            assert isinstance(q, Position) and q != p
        else:
            with pytest.raises(IllegalMoveError) as info:
                p.play(m)
            assert isinstance(info.value, ValueError)
            assert str(info.value)
    assert _snapshot(p) == before, "play changed the position it was called on"
    mask = p.legal_action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (g.num_actions,)
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(g.action(m) for m in legal)
    assert p.legal_actions() == [g.action(m) for m in legal]
    for m in legal:
        assert g.move(g.action(m)) == m
        assert g.parse_move(g.format_move(m)) == m


def _check_text(g: Game, p: Position) -> None:
    q = g.parse(p.text())
    assert q == p and hash(q) == hash(p)
    assert q.text() == p.text()
    assert q.to_move == p.to_move
    assert q.outcome() == p.outcome()
    assert q.score() == p.score()
    assert q.legal_moves() == p.legal_moves()
    assert (p.score() is not None) == g.properties.is_scored
    assert isinstance(p.render(), str) and p.render()
    assert repr(p)


def _check_symmetry(g: Game, p: Position, rng: random.Random, sample: int) -> None:
    images = list(g.symmetric_images(p))
    assert images, "a position has at least itself as an image"
    assert p in images
    key = p.canonical_key()
    hash(key)
    for image in images if len(images) <= sample else rng.sample(images, sample):
        assert image.canonical_key() == key
        assert image.to_move == p.to_move
        q = g.parse(image.text())
        assert q == image and hash(q) == hash(image)
        assert q.outcome() == p.outcome(), "an image of a position is judged differently"
        assert q.score() == p.score()
        assert len(q.legal_moves()) == len(p.legal_moves())


def _check_terminal(g: Game, p: Position, moves: list[object]) -> None:
    assert p.legal_moves() == []
    assert not p.legal_action_mask().any()
    assert isinstance(p.outcome(), Outcome)
    for m in moves:
        with pytest.raises(IllegalMoveError):
            p.play(m)
    if not g.properties.has_draws:
        assert p.outcome() is not Outcome.DRAW, f"{g} says it has no draws but {p.text()!r} is drawn"


@pytest.mark.parametrize("spec", CONFORMANCE_SPECS)
def test_random_games(spec: str) -> None:
    g = noughts.game(spec)
    moves = all_moves(g)
    assert [g.action(m) for m in moves] == list(range(g.num_actions))
    for m in moves:
        assert g.parse_move(g.format_move(m)) == m
    sample = len(g.symmetries) if len(g.symmetries) <= 16 else 6
    games = _games_for(g)
    for seed in range(games):
        rng = random.Random(f"{spec}/{seed}")
        positions = random_game(g, rng, _cap(g))
        assert len(positions) - 1 <= _cap(g)
        capped = not positions[-1].is_terminal()
        assert not capped or not g.properties.bounded, "a bounded game ended past its max_length"
        seen: dict[str, Position] = {}
        for p in positions:
            q = seen.setdefault(p.text(), p)
            assert q == p and hash(q) == hash(p), "one text form, two different positions"
        # the symmetry check costs |G|^2: every position on small groups, a few per game on big ones
        if len(g.symmetries) <= 8:
            sym_steps = set(range(len(positions)))
        else:
            sym_steps = set(rng.sample(range(len(positions)), min(len(positions), 6))) | {len(positions) - 1}
        for i, p in enumerate(positions):
            assert p.is_terminal() == (i == len(positions) - 1 and not capped)
            _check_text(g, p)
            if p.is_terminal():
                _check_terminal(g, p, moves)
            else:
                assert p.legal_moves(), "a running game has a legal move"
                assert p.outcome() is None
                _check_moves(g, p, moves)
            if i in sym_steps:
                _check_symmetry(g, p, rng, sample)


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
