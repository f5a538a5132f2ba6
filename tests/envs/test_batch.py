"""The batch kernels against the reference: the public Position API, game by game."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from scipy import stats

import noughts
from noughts.core import IllegalMoveError, NoughtsError, Outcome, Position, Rule
from noughts.envs.batch import RESULT_OUTCOMES, BatchGame, random_playouts, supports

GAMES = [
    "tictactoe",
    "misere(tictactoe)",
    "cumulative(tictactoe)",
    "maker_breaker(tictactoe)",
    "maker_breaker(mnk(3,3,3),breaker_first=true)",
    "mnk(4,4,4)",
    "cumulative(mnk(4,4,3))",
    "hypercube(3,3)",
    "mnk(1,1,1)",
    'shape("#.#/.#./#.#",2)',
    "mnk(8,8,4)",  # 64 cells: the top bit of the word
    "misere(mnk(2,32,2))",
]

CODES = {o: c for c, o in RESULT_OUTCOMES.items()}


def reference_playout(game: noughts.Game, u: np.ndarray) -> tuple[Outcome, int]:
    """One game through the public API, move t the int(u[t] * len(moves))-th legal move."""
    p = game.start()
    t = 0
    while not p.is_terminal():
        moves = p.legal_moves()
        p = p.play(moves[int(u[t] * len(moves))])
        t += 1
    outcome = p.outcome()
    assert outcome is not None
    return outcome, t


@pytest.mark.parametrize("spec", GAMES)
def test_playouts_match_the_reference_with_the_same_choices(spec: str) -> None:
    game = noughts.game(spec)
    n = 150
    u = np.random.default_rng(5).random((n, game.board.num_cells))
    got = random_playouts(game, n, uniforms=u)
    for g in range(n):
        outcome, length = reference_playout(game, u[g])
        assert got.results[g] == CODES[outcome], (spec, g)
        assert got.lengths[g] == length, (spec, g)


BIG = [
    "mnk(15,15,5)",
    "misere(mnk(9,9,4))",
    "maker_breaker(mnk(9,9,5))",
    "maker_breaker(mnk(9,8,4),breaker_first=true)",
    "cumulative(mnk(9,9,4))",
    "hypercube(7,3)",
]


@pytest.mark.parametrize("spec", BIG)
def test_playouts_past_64_cells_match_the_reference(spec: str) -> None:
    """Boards past 64 cells run in the line-count kernel, game by game the reference's games."""
    game = noughts.game(spec)
    assert game.board.num_cells > 64 and not supports(game)
    n = 12
    u = np.random.default_rng(6).random((n, game.board.num_cells))
    got = random_playouts(game, n, uniforms=u)
    for g in range(n):
        outcome, length = reference_playout(game, u[g])
        assert got.results[g] == CODES[outcome], (spec, g)
        assert got.lengths[g] == length, (spec, g)
    one = random_playouts(game, 300, seed=4)
    if game.claim_rule == Rule.STANDARD:  # the threaded kernel of one rule (its first compile is slow)
        many = random_playouts(game, 300, seed=4, parallel=True)
        assert np.array_equal(one.results, many.results) and np.array_equal(one.lengths, many.lengths)
    other = random_playouts(game, 300, seed=5)
    assert not (np.array_equal(one.results, other.results) and np.array_equal(one.lengths, other.lengths))


@pytest.mark.parametrize("spec", ["tictactoe", "maker_breaker(mnk(4,4,4))", "cumulative(hypercube(3,3))"])
def test_threads_do_not_change_the_results(spec: str) -> None:
    one = random_playouts(spec, 5000, seed=11)
    many = random_playouts(spec, 5000, seed=11, parallel=True)
    other = random_playouts(spec, 5000, seed=12)
    assert np.array_equal(one.results, many.results) and np.array_equal(one.lengths, many.lengths)
    assert not (np.array_equal(one.results, other.results) and np.array_equal(one.lengths, other.lengths))


@cache
def _exact(position: Position) -> tuple[tuple[Fraction, Fraction, Fraction], Fraction]:
    """P(first wins), P(second wins), P(draw) and the expected length under uniform random play."""
    outcome = position.outcome()
    if outcome is not None:
        one = Fraction(1)
        probs = (
            one * (outcome is Outcome.FIRST),
            one * (outcome is Outcome.SECOND),
            one * (outcome is Outcome.DRAW),
        )
        return probs, Fraction(0)
    moves = position.legal_moves()
    w = Fraction(1, len(moves))
    acc = [Fraction(0)] * 3
    length = Fraction(1)
    for m in moves:
        probs, rest = _exact(position.play(m))
        for i in range(3):
            acc[i] += w * probs[i]
        length += w * rest
    return (acc[0], acc[1], acc[2]), length


@pytest.mark.parametrize("spec", ["tictactoe", "misere(tictactoe)"])
def test_random_play_has_the_exact_outcome_frequencies(spec: str) -> None:
    game = noughts.game(spec)
    probs, mean_length = _exact(game.start())
    assert sum(probs) == 1
    if spec == "tictactoe":  # the folklore figure: the first player wins 58.5% of random games
        assert abs(float(probs[0]) - 0.585) < 0.001
    n = 400_000
    r = random_playouts(game, n, seed=3)
    counts = [int((r.results == code).sum()) for code in (1, -1, 0)]
    expected = [n * float(p) for p in probs]
    assert stats.chisquare(counts, expected).pvalue > 1e-4
    # the mean length: within 5 standard errors of the exact expectation
    assert abs(r.lengths.mean() - float(mean_length)) < 5 * r.lengths.std() / np.sqrt(n)


@pytest.mark.parametrize(
    "spec", ["tictactoe", "cumulative(mnk(4,4,3))", "maker_breaker(mnk(3,3,3),breaker_first=true)"]
)
def test_batch_steps_match_the_reference(spec: str) -> None:
    game = noughts.game(spec)
    n = 60
    b = BatchGame(game)
    b.reset(n)
    positions = [game.start()] * n
    rng = np.random.default_rng(2)
    while not b.done().all():
        mask = b.legal_mask()
        for g in range(n):
            assert mask[g].tolist() == (
                positions[g].legal_action_mask().tolist()
                if not positions[g].is_terminal()
                else [False] * b.num_actions
            )
        actions = np.array([rng.choice(np.flatnonzero(row)) if row.any() else -5 for row in mask])
        b.step(actions)
        positions = [
            p if p.is_terminal() else p.play_action(int(a)) for p, a in zip(positions, actions, strict=True)
        ]
        assert b.to_move().tolist() == [int(p.to_move) for p in positions]
    for g in range(n):
        assert b.outcome(g) == positions[g].outcome()
        assert b.plies[g] == sum(1 for c in positions[g].text() if c in "xo")
    if isinstance(game, noughts.core.CumulativeGame):
        assert [tuple(s) for s in b.scores()] == [p.score() for p in positions]


def test_an_illegal_step_changes_nothing() -> None:
    b = BatchGame("tictactoe")
    b.reset(3)
    b.step([4, 0, 8])
    before = (b.bits.copy(), b.plies.copy(), b.results.copy())
    with pytest.raises(IllegalMoveError, match="game 1: action 0 is illegal"):
        b.step([0, 0, 1])
    assert all(np.array_equal(x, y) for x, y in zip(before, (b.bits, b.plies, b.results), strict=True))
    with pytest.raises(NoughtsError, match="shape"):
        b.step([1, 2])


def test_unsupported_games_are_refused() -> None:
    for spec in ("otrio", "veto(tictactoe)", "notakto", "mnk(5,13,5)"):
        assert not supports(spec)
        with pytest.raises(NoughtsError, match="batched play takes"):
            BatchGame(spec)
    for spec in ("otrio", "veto(tictactoe)", "notakto"):
        with pytest.raises(NoughtsError, match="batched play takes"):
            random_playouts(spec, 1)
    with pytest.raises(NoughtsError, match="shape"):
        random_playouts("mnk(15,15,5)", 2, uniforms=np.zeros((2, 3)))
    with pytest.raises(NoughtsError, match="whole number"):
        random_playouts("mnk(15,15,5)", -1)
    with pytest.raises(NoughtsError, match="shape"):
        random_playouts("tictactoe", 2, uniforms=np.zeros((2, 3)))
    with pytest.raises(NoughtsError, match=r"\[0, 1\)"):
        random_playouts("tictactoe", 1, uniforms=np.ones((1, 9)))


def test_batches_need_neither_gymnasium_nor_pettingzoo() -> None:
    import subprocess
    import sys

    code = "import sys, noughts.envs.batch; print(sorted({'gymnasium', 'pettingzoo'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
