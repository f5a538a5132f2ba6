"""The JAX environment held to the Position API: every transition of tic-tac-toe under each
rule and of Notakto (one board, and three 2x2 boards), and random games of bigger boards (2D and
3D, Notakto on several boards), played side by side."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("mctx")

import jax
import jax.numpy as jnp

import noughts
from noughts.core import NoughtsError, Outcome
from noughts.neural.env import Env, supports


def _positions(game):  # every reachable position, terminal ones included
    start = game.start()
    seen, frontier = {start}, [start]
    while frontier:
        nxt = []
        for p in frontier:
            for m in p.legal_moves():
                q = p.play(m)
                if q not in seen:
                    seen.add(q)
                    nxt.append(q)
        frontier = nxt
    return list(seen)


def _legal_cells(game, p):
    return sorted(game.action(m) for m in p.legal_moves())


@pytest.mark.parametrize("spec", ["tictactoe", "misere(tictactoe)", "maker_breaker(tictactoe)",
                                  "maker_breaker(tictactoe,breaker_first=true)", "notakto",
                                  "notakto(mnk(2,2,2),boards=3)"])  # fmt: skip
def test_every_transition_of_the_small_games(spec: str) -> None:
    game = noughts.game(spec)
    env = Env(game)
    positions = _positions(game)
    before, moves, after = [], [], []
    for p in positions:
        for m in p.legal_moves():
            before.append(p)
            moves.append(game.action(m))
            after.append(p.play(m))
    assert len(before) > 1000  # every claim of every position
    stepped = jax.jit(env.step)(env.encode(before), jnp.asarray(moves))
    want = env.encode(after)
    for name in ("cells", "to_move", "done", "winner", "survivors"):
        got, exp = np.asarray(getattr(stepped, name)), np.asarray(getattr(want, name))
        bad = np.flatnonzero(got != exp) if got.ndim == 1 else np.flatnonzero((got != exp).any(axis=1))
        assert not len(bad), f"{spec}: {name} differs after {before[bad[0]].text()} + {moves[bad[0]]}"
    # legal moves and results of every position, terminal ones included
    state = env.encode(positions)
    legal = np.asarray(env.legal(state))
    for i, p in enumerate(positions):
        assert sorted(np.flatnonzero(legal[i]).tolist()) == _legal_cells(game, p)
        assert env.outcome(state, i) == p.outcome()
    # the rewards: the mover's result on the move that ends the game
    reward = np.asarray(env.reward(env.encode(before), stepped))
    for i, q in enumerate(after):
        o = q.outcome()
        assert o is not Outcome.DRAW or not game.properties.same_marks
        exp = 0.0 if o is None or o is Outcome.DRAW else (1.0 if o.winner is before[i].to_move else -1.0)
        assert reward[i] == exp


@pytest.mark.parametrize(
    "spec",
    ["mnk(4,4,4)", "misere(mnk(4,4,4))", "maker_breaker(mnk(4,4,4))", "mnk(5,5,4)", "hypercube(3,3)",
     "maker_breaker(hypercube(3,3))", "notakto(mnk(4,4,3),boards=3)",
     "notakto(hypercube(3,3),boards=2,misere=false)"],
)  # fmt: skip
def test_random_games_of_bigger_boards(spec: str) -> None:
    game = noughts.game(spec)
    env = Env(game)
    rng = np.random.default_rng(7)
    n = 48
    state = env.init(n)
    positions = [game.start()] * n
    step = jax.jit(env.step)
    ended = 0
    for _ in range(env.num_cells):
        legal = np.asarray(env.legal(state))
        actions = np.zeros(n, np.int32)
        for i, p in enumerate(positions):
            assert sorted(np.flatnonzero(legal[i]).tolist()) == (
                [] if p.is_terminal() else _legal_cells(game, p)
            ), f"{spec}: legal cells differ at {p.text()}"
            assert env.outcome(state, i) == p.outcome(), f"{spec}: results differ at {p.text()}"
            if not p.is_terminal():
                actions[i] = rng.choice(np.flatnonzero(legal[i]))
                positions[i] = p.play(game.move(int(actions[i])))
                ended += positions[i].is_terminal()
        state = step(state, jnp.asarray(actions))
    assert ended == n and all(p.is_terminal() for p in positions)
    assert bool(np.asarray(state.done).all())


def test_stepping_a_finished_game_or_a_claimed_cell_changes_nothing() -> None:
    game = noughts.game("tictactoe")
    env = Env(game)
    over = game.parse("xxx/oo./...")
    running = game.parse("x../.o./...")
    state = env.encode([over, running])
    after = jax.jit(env.step)(state, jnp.asarray([8, 0]))  # a move after the end; a claimed cell
    for name in ("cells", "to_move", "done", "winner"):
        assert np.array_equal(np.asarray(getattr(after, name)), np.asarray(getattr(state, name)))
    assert np.asarray(env.reward(state, after)).tolist() == [0.0, 0.0]


def test_games_it_does_not_play_are_refused() -> None:
    for spec in ("cumulative(tictactoe)", "veto(tictactoe)", "otrio"):
        assert not supports(noughts.game(spec))
        with pytest.raises(NoughtsError, match="claim games"):
            Env(noughts.game(spec))
