"""The retrograde solver (noughts.retrograde.analysis), held to its references on every state.

* the kernels' state graph equals the position API's, array for array;
* the counter propagation equals the value iteration to a fixed point, state by state;
* on games that end, both equal the minimax reference (noughts.exact.reference), and a plain
  bounded-horizon minimax confirms each distance: a state won in d can be forced within d plies
  and not within d - 1;
* the figures published for Three Men's Morris are computed and compared.

The three games of issue 16 at full size run as slow tests; their smaller relatives run here.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest

import noughts
from noughts import LimitExceeded, Outcome, Player, Position
from noughts.core import Budget
from noughts.exact.reference import reference_values as minimax_values
from noughts.exact.table import load_table
from noughts.retrograde import analysis as retro
from noughts.solving import solve as run_solve

SMALL = [
    'forget(tictactoe,count="plies")',
    "forget(tictactoe,turns=2)",
    'forget(tictactoe,turns=2,judge="before")',
    'forget(mnk(3,4,3),turns=4,count="plies",judge="before")',
    "vanishing(mnk(3,3,3),keep=2)",
    "vanishing(mnk(2,5,2),keep=1)",
    "morris",
    "morris(diagonals=false)",
    "morris(diagonals=false,diagonal_mills=false)",
    "morris(jump=true)",
    'morris(judge="before")',
    'morris(diagonals=false,diagonal_mills=false,blocked="passes")',
    "morris(mnk(3,4,3),pieces=2)",
]

FULL = ["forget(tictactoe)", 'forget(tictactoe,count="plies")', "vanishing(tictactoe)", "morris"]


@functools.cache
def graph(spec: str, method: str) -> retro.StateGraph:
    return retro.state_graph(spec, method=method)


@pytest.mark.parametrize("spec", SMALL)
def test_the_kernels_enumerate_the_graph_of_the_position_api(spec: str) -> None:
    fast, ref = graph(spec, "fast"), graph(spec, "reference")
    assert fast.method == "fast" and ref.method == "reference"
    assert fast.codes is not None and ref.codes is not None
    assert np.array_equal(fast.codes, ref.codes)
    for name in ("to_move", "outcome", "succ_ptr", "succ", "pred_ptr", "pred", "depth"):
        assert np.array_equal(getattr(fast, name), getattr(ref, name)), name
    assert fast.start == ref.start and fast.position(fast.start) == noughts.game(spec).start()


@pytest.mark.parametrize("spec", SMALL)
def test_the_kernel_agrees_with_value_iteration_on_every_state(spec: str) -> None:
    g = graph(spec, "fast")
    winner, dist = retro.retrograde(g)
    w2, d2 = retro.reference_values(graph(spec, "reference"))
    assert np.array_equal(winner, w2)
    assert np.array_equal(dist, d2)


def _check_graph_semantics(g: retro.StateGraph, winner: np.ndarray, dist: np.ndarray) -> None:
    """The definition, state by state: won in n by the mover iff some move reaches a state won by
    the mover in n - 1 (the least); lost iff every move reaches a state won by the opponent, with
    n - 1 the largest; drawn otherwise."""
    for s in range(g.size):
        kids = g.successors(s)
        if g.outcome[s] >= 0:
            assert kids.size == 0
            assert winner[s] == (g.outcome[s] if g.outcome[s] < 2 else retro.DRAW_CODE) and dist[s] == 0
            continue
        mover = g.to_move[s]
        mine = [int(dist[c]) for c in kids if winner[c] == mover]
        theirs = [int(dist[c]) for c in kids if winner[c] == 1 - mover]
        if mine:
            assert (winner[s], dist[s]) == (mover, 1 + min(mine))
        elif len(theirs) == kids.size:
            assert (winner[s], dist[s]) == (1 - mover, 1 + max(theirs))
        else:
            assert (winner[s], dist[s]) == (retro.DRAW_CODE, 0)


@pytest.mark.parametrize(
    "spec", ["morris", "vanishing(mnk(3,3,3),keep=2)", 'forget(tictactoe,turns=2,judge="before")']
)
def test_values_satisfy_their_definition_state_by_state(spec: str) -> None:
    g = graph(spec, "fast")
    winner, dist = retro.retrograde(g)
    _check_graph_semantics(g, winner, dist)


def _horizon(position: Position, depth: int, memo: dict[tuple[Position, int], int]) -> int:
    """Plain depth-limited minimax for the side to move: 1 if it can force a win within
    ``depth`` plies, -1 if the opponent can, else 0. Shares nothing with the solver."""
    outcome = position.outcome()
    if outcome is not None:
        winner = outcome.winner
        return 0 if winner is None else (1 if winner is position.to_move else -1)
    if depth == 0:
        return 0
    key = (position, depth)
    found = memo.get(key)
    if found is not None:
        return found
    results = []
    for move in position.legal_moves():
        child = position.play(move)
        r = _horizon(child, depth - 1, memo)
        results.append(r if child.to_move is position.to_move else -r)
    value = 1 if max(results) == 1 else -1 if min(results) == -1 and max(results) == -1 else 0
    memo[key] = value
    return value


@pytest.mark.parametrize("spec", ["morris", "vanishing(mnk(3,3,3),keep=2)", "morris(mnk(3,4,3),pieces=2)"])
def test_distances_are_exact_by_a_bounded_horizon_search(spec: str) -> None:
    g = graph(spec, "fast")
    winner, dist = retro.retrograde(g)
    memo: dict[tuple[Position, int], int] = {}
    longest = int(dist.max())
    rng = np.random.default_rng(5)
    sample = rng.choice(g.size, size=min(g.size, 400), replace=False)
    for s in sample:
        p = g.position(int(s))
        if winner[s] == retro.DRAW_CODE:
            assert _horizon(p, longest + 2, memo) == 0, p.text()
            continue
        sign = 1 if winner[s] == p.to_move else -1
        d = int(dist[s])
        assert _horizon(p, d, memo) == sign, p.text()
        if d > 0:
            assert _horizon(p, d - 1, memo) == 0, p.text()


@pytest.mark.parametrize(
    "spec", ["tictactoe", "misere(tictactoe)", "veto(mnk(3,3,3))", "notakto", "maker_breaker(mnk(3,3,3))"]
)
def test_on_games_that_end_the_values_are_the_minimax_values(spec: str) -> None:
    game = noughts.game(spec)
    g = retro.reference_graph(game)
    winner, dist = retro.retrograde(g)
    truth = minimax_values(game)
    assert g.size == len(truth)
    assert g.positions is not None
    for s, p in enumerate(g.positions):
        v = truth[p]
        if v.outcome is Outcome.DRAW:
            assert winner[s] == retro.DRAW_CODE
        else:
            assert (winner[s], dist[s]) == (int(v.outcome.winner), v.plies), p.text()  # type: ignore[arg-type]
    w2, d2 = retro.reference_values(g)
    assert np.array_equal(winner, w2) and np.array_equal(dist, d2)


def test_forget_counted_in_own_turns_is_vanishing_state_by_state() -> None:
    for turns in (2, 3):
        a = graph(f"forget(tictactoe,turns={turns})", "fast")
        b = graph(f"vanishing(tictactoe,keep={turns})", "fast")
        assert a.codes is not None and b.codes is not None
        assert np.array_equal(a.codes, b.codes) and np.array_equal(a.succ, b.succ)
        wa, da = retro.retrograde(a)
        wb, db = retro.retrograde(b)
        assert np.array_equal(wa, wb) and np.array_equal(da, db)


def test_long_lived_marks_solve_like_tictactoe() -> None:
    long, plain = noughts.game("forget(tictactoe,turns=5)"), noughts.game("tictactoe")
    a = run_solve(long, max_seconds=None)
    b = run_solve(plain, max_seconds=None)
    assert a.value == b.value
    assert [(m.move, m.value.outcome, m.value.plies) for m in a.moves] == [
        (m.move, m.value.outcome, m.value.plies) for m in b.moves
    ]


# -- tables, the oracle, solve and count -------------------------------------------------------------


def test_a_table_saves_loads_and_answers(tmp_path: Path) -> None:
    table = retro.solve_table("morris")
    path = tmp_path / "morris.npz"
    table.save(path)
    loaded = retro.RetroTable.load(path)
    assert loaded.game == noughts.game("morris") and len(loaded) == len(table)
    g = graph("morris", "fast")
    winner, dist = retro.retrograde(g)
    for s in range(0, g.size, 7):
        p = g.position(s)
        assert loaded.value(p) == retro.value_of(int(winner[s]), int(dist[s]))
    assert load_table(path).game == loaded.game
    assert isinstance(load_table(path, noughts.game("morris")), retro.RetroTable)
    with pytest.raises(retro.TableError, match="not of"):
        retro.RetroTable.load(path, noughts.game("morris(diagonals=false)"))


def test_damaged_or_foreign_tables_are_refused(tmp_path: Path) -> None:
    table = retro.solve_table("morris(diagonals=false,diagonal_mills=false)")
    path = tmp_path / "t.npz"
    table.save(path)
    with np.load(path) as npz:
        contents = {k: npz[k] for k in npz.files}
    bad = dict(contents, plies=contents["plies"].copy())
    bad["plies"][0] += 1
    np.savez(tmp_path / "changed.npz", **bad)
    with pytest.raises(retro.TableError, match="checksum"):
        retro.RetroTable.load(tmp_path / "changed.npz")
    np.savez(tmp_path / "old.npz", **dict(contents, version=np.array(99)))
    with pytest.raises(retro.TableError, match="version 99"):
        retro.RetroTable.load(tmp_path / "old.npz")
    np.savez(tmp_path / "other.npz", **dict(contents, format=np.array("something")))
    with pytest.raises(retro.TableError, match="not a noughts retrograde table"):
        retro.RetroTable.load(tmp_path / "other.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(retro.TableError):
        retro.RetroTable.load(tmp_path / "junk.npz")
    with pytest.raises(retro.TableError, match="no such"):
        retro.RetroTable.load(tmp_path / "missing.npz")


def test_solve_answers_games_that_need_not_end() -> None:
    result = run_solve("morris")
    assert result.value.outcome is Outcome.FIRST
    best = result.moves[0]
    assert result.game.format_move(best.move) == "b2"
    assert len(result.pv) == result.value.plies  # a win ends: the line reaches it
    p = result.game.start()
    for m in result.pv:
        p = p.play(m)
    assert p.outcome() is Outcome.FIRST
    drawn = run_solve("morris(diagonals=false,diagonal_mills=false)")
    assert drawn.value.outcome is Outcome.DRAW and drawn.value.plies == 0
    q = drawn.game.start()
    seen = [q]
    for m in drawn.pv:  # a drawn line stops when a position comes back
        q = q.play(m)
        seen.append(q)
    assert not q.is_terminal() and seen.count(q) == 2


def test_count_reports_states_up_to_symmetry() -> None:
    spec = "vanishing(mnk(3,3,3),keep=2)"
    r = noughts.count(spec)
    g = graph(spec, "reference")
    assert g.positions is not None
    assert r.positions == g.size and r.games is None and r.tree_nodes is None
    assert r.positions_up_to_symmetry == len({p.canonical_key() for p in g.positions})
    assert r.terminal_positions == sum(1 for p in g.positions if p.is_terminal())
    assert sum(r.positions_by_ply) == r.positions
    assert r.to_json()["games"] is None


def test_algorithms_that_need_an_end_refuse_clearly() -> None:
    from noughts.exact.search import Searcher
    from noughts.exact.table import build_table
    from noughts.learn.states import state_space
    from noughts.proving.pns import Prover

    g = noughts.game("forget(tictactoe)")
    for make in (
        lambda: Searcher(g),
        lambda: Prover(g, Player.FIRST),
        lambda: build_table(g),
        lambda: state_space(g),
    ):
        with pytest.raises(noughts.NoughtsError, match="need not end"):
            make()


def test_budgets_stop_the_work_and_say_how_far() -> None:
    with pytest.raises(LimitExceeded, match="states of"):
        retro.fast_graph("vanishing(tictactoe)", budget=Budget(max_seconds=None, max_memory=1000))
    g = graph("morris", "fast")
    with pytest.raises(LimitExceeded, match="decided"):
        retro.retrograde(g, budget=Budget(max_seconds=None, max_memory=1000))
    with pytest.raises(LimitExceeded):
        retro.reference_graph("vanishing(tictactoe)", budget=Budget(max_seconds=0.0))


def test_progress_is_reported() -> None:
    seen: list[tuple[str, int]] = []
    retro.solve_table("morris(jump=true)", progress=lambda stage, done: seen.append((stage, done)))
    stages = {s for s, _ in seen}
    assert stages == {"enumerating", "propagating"}
    assert max(d for s, d in seen if s == "enumerating") == graph("morris(jump=true)", "fast").size


# -- the published figures ------------------------------------------------------------------------------


def _first_moves(spec: str) -> dict[str, Outcome]:
    result = run_solve(spec)
    return {result.game.format_move(m.move): m.value.outcome for m in result.moves}


def test_three_mens_morris_against_the_published_facts() -> None:
    """Wikipedia's "Three men's morris" (on Murray's version, moves along rows and columns, mills
    on all eight lines): "there is a winning strategy for the player who goes first, unless the
    first player is not allowed to place the first piece in the centre, in which case neither
    player has a winning strategy". K. Kenta (blog, 2020) on the board with diagonal moves too:
    the first player wins by opening in the centre. Computed here, then compared."""
    for spec in ("morris(diagonals=false)", "morris"):
        moves = _first_moves(spec)
        assert moves["b2"] is Outcome.FIRST
        others = {m: o for m, o in moves.items() if m != "b2"}
        best_other = Outcome.DRAW if Outcome.DRAW in others.values() else Outcome.SECOND
        assert Outcome.FIRST not in others.values() and best_other is Outcome.DRAW


@pytest.mark.slow
@pytest.mark.parametrize("spec", FULL)
def test_full_games_kernel_and_references_agree_on_every_state(spec: str, tmp_path: Path) -> None:
    from noughts.retrograde.check import check_table

    report, table = retro.analyse(spec, check=True)
    assert report.checked and table is not None and len(table) == report.states
    table.save(tmp_path / "t.npz")
    assert check_table(tmp_path / "t.npz").ok
    fast = graph(spec, "fast")
    winner, dist = retro.retrograde(fast)
    _check_graph_semantics(fast, winner, dist)


def test_a_saved_table_is_a_certificate_the_independent_checker_accepts(tmp_path: Path) -> None:
    from noughts.retrograde.check import check_table

    for spec in ("morris", "vanishing(mnk(3,3,3),keep=2)"):
        path = tmp_path / "t.npz"
        retro.solve_table(spec).save(path)
        result = check_table(path)
        assert result.ok and result.positions == graph(spec, "fast").size, result.failure
        with np.load(path) as npz:
            contents = {k: npz[k] for k in npz.files}
        decided = np.flatnonzero(contents["outcome"] != 0)
        target = int(decided[decided.size // 2]) if decided.size else len(contents["outcome"]) // 2
        for name in ("plies", "outcome"):
            bad = dict(contents, **{name: contents[name].copy()})
            if name == "plies":
                bad[name][target] += 1
            else:  # a win thrown to the other side, or a draw claimed as a win
                bad[name][target] = -bad[name][target] if decided.size else 1
                bad["plies"] = bad["plies"].copy()
                bad["plies"][target] = max(1, int(bad["plies"][target]))
            np.savez(tmp_path / "bad.npz", **bad)
            assert not check_table(tmp_path / "bad.npz").ok
