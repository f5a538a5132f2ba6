"""The alpha-beta searcher held to the reference minimax: every reachable position of every 3x3
game, and everything reachable from deep random positions of larger games."""

from __future__ import annotations

import random

import pytest
from exact_cases import DEEP_SAMPLES, SLOW_SMALL_GAMES, SMALL_GAMES, deep_positions, game, reference

from noughts import LimitExceeded, Outcome
from noughts.core.values import WIN, to_int
from noughts.exact import Budget, Searcher, Value, reference_values


def _check_all(searcher: Searcher, values: dict) -> None:  # type: ignore[type-arg]
    wrong = [(p.text(), v, searcher.value(p)) for p, v in values.items() if searcher.value(p) != v]
    assert not wrong, f"{len(wrong)} of {len(values)} positions differ, e.g. {wrong[:3]}"


@pytest.mark.parametrize("spec", SMALL_GAMES)
def test_every_reachable_position_one_table(spec: str) -> None:
    """One searcher (its table kept from the start's search on) answers every position."""
    values = reference(spec)
    searcher = Searcher(game(spec))
    assert searcher.value(game(spec).start()) == values[game(spec).start()]
    _check_all(searcher, values)


@pytest.mark.parametrize("spec", SMALL_GAMES)
def test_sampled_positions_fresh_tables(spec: str) -> None:
    """A fresh searcher per position: no help from bounds stored by other searches."""
    values = reference(spec)
    rng = random.Random(spec)
    for p in rng.sample(sorted(values, key=lambda q: q.text()), 60):
        assert Searcher(game(spec)).value(p) == values[p], p.text()


@pytest.mark.slow
@pytest.mark.parametrize("spec", SLOW_SMALL_GAMES + ["notakto(boards=2)"])
def test_every_reachable_position_slow(spec: str) -> None:
    _check_all(Searcher(game(spec)), reference(spec))


@pytest.mark.parametrize(("spec", "plies", "count"), DEEP_SAMPLES)
def test_deep_positions_of_larger_games(spec: str, plies: int, count: int) -> None:
    """Everything reachable from random positions ``plies`` deep, reference from there."""
    searcher = Searcher(game(spec))
    for start in deep_positions(spec, plies, count):
        _check_all(searcher, reference_values(game(spec), start))


def test_immediate_win_and_forced_loss() -> None:
    g = game("tictactoe")
    s = Searcher(g)
    assert s.value(g.parse("xx./oo./...")) == Value(Outcome.FIRST, 1)
    assert s.int_value(g.parse("xx./oo./...")) == WIN - 1
    # o to move faces two threats (c1 and a3 for x): lost in 2 whatever o does
    two = g.parse("xx./.o./x.o")
    assert s.value(two) == Value(Outcome.FIRST, 2)
    assert s.int_value(two) == -(WIN - 2)


def test_otrio_threat_that_cannot_be_blocked() -> None:
    """In Otrio a threat on a ring size the mover has used up cannot be blocked: lost in 2."""
    g = game("otrio")
    p = g.parse(".x.,...,.../.o.,o..,x../x..,x.o,o..")  # x to move, no small ring left
    assert p.to_move.name == "FIRST" and g.rings_left(p, p.to_move)[0] == 0  # type: ignore[attr-defined]
    assert Searcher(g).value(p) == Value(Outcome.SECOND, 2)
    # the proof by hand: x cannot win at once, and after every x move o can
    for m in p.legal_moves():
        q = p.play(m)
        assert not q.is_terminal()
        assert any(q.play(r).outcome() is Outcome.SECOND for r in q.legal_moves())


def test_table_is_kept_across_calls() -> None:
    g = game("tictactoe")
    s = Searcher(g)
    s.value(g.start())
    nodes, size = s.nodes, s.table_size
    assert nodes > 0 and size > 0
    for m in g.start().legal_moves():
        s.value(g.start().play(m))
    assert s.nodes - nodes < nodes  # the children are mostly look-ups
    assert s.memory_estimate() > 0


def test_time_budget_stops_cleanly_and_says_how_far() -> None:
    g = game("mnk(5,5,4)")
    s = Searcher(g, Budget(max_seconds=0.05, max_memory=None))
    with pytest.raises(LimitExceeded, match=r"stopped after 0.05 s .* positions searched"):
        s.value(g.start())
    assert s.nodes > 0
    # the searcher is still usable, with a new budget, and right
    s.budget = Budget(max_seconds=None, max_memory=None)
    (p,) = deep_positions("mnk(5,5,4)", 17, 1)
    _check_all(s, reference_values(g, p))


def test_memory_budget_stops_cleanly() -> None:
    g = game("mnk(5,5,4)")
    s = Searcher(g, Budget(max_seconds=None, max_memory=100_000))
    with pytest.raises(LimitExceeded, match="memory budget"):
        s.value(g.start())


def test_wrong_game_is_refused() -> None:
    with pytest.raises(ValueError, match="belongs to"):
        Searcher(game("tictactoe")).value(game("misere(tictactoe)").start())


def test_finished_positions() -> None:
    g = game("cumulative(tictactoe)")
    p = g.parse("xxx/oox/oxo")
    assert Searcher(g).value(p) == Value(Outcome.FIRST, 0, 1)


@pytest.mark.parametrize(
    "spec",
    [
        "tictactoe",
        "mnk(3,4,3)",
        "veto(tictactoe)",
        "veto(mnk(4,3,3))",
        "notakto(boards=2)",
        "notakto(mnk(4,4,4),boards=3)",
        "otrio",
    ],
)
def test_table_keys_are_the_canonical_keys(spec: str) -> None:
    """Where the searcher computes keys itself (image tables on boards of up to 12 cells,
    Notakto's per-board cache), they are exactly ``canonical_key()``."""
    g = game(spec)
    key = Searcher(g)._rules.key
    rng = random.Random(7)
    for _ in range(100):
        p = g.start()
        while not p.is_terminal():
            assert key(p) == p.canonical_key(), p.text()
            p = p.play(rng.choice(p.legal_moves()))


@pytest.mark.parametrize(
    "spec",
    ["veto(tictactoe)", *(pytest.param(spec, marks=pytest.mark.slow) for spec in SLOW_SMALL_GAMES)],
)
def test_passing_is_never_better_than_the_best_veto(spec: str) -> None:
    """What lets the searcher leave the pass out at a veto step with two or more empty cells:
    by the reference, at every such reachable position the vetoer's best veto is at least as
    good for it as passing (values of moves from one position compare as integers)."""
    values = reference(spec)
    checked = 0
    for p in values:
        if p.is_terminal() or p.state[2] is not None or len(p.legal_moves()) <= 2:
            continue
        *vetoes, passing = (to_int(values[p.play(m)], p.to_move) for m in p.legal_moves())  # pass: last
        assert max(vetoes) >= passing, p.text()
        checked += 1
    assert checked > 100
