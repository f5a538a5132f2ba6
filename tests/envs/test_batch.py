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
    assert game.board.num_cells > 64 and supports(game)
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


STEPPED = [
    ("tictactoe", None, 60),
    ("cumulative(mnk(4,4,3))", None, 60),
    ("maker_breaker(mnk(3,3,3),breaker_first=true)", None, 60),
    # small boards forced to W words (W = 1 included: the multi-word form with one word)
    ("tictactoe", 2, 40),
    ("misere(tictactoe)", 1, 40),
    ("cumulative(mnk(4,4,3))", 3, 30),
    ("maker_breaker(mnk(3,3,3),breaker_first=true)", 2, 40),
    ("maker_breaker(tictactoe)", 2, 40),
    ("mnk(8,8,4)", 2, 12),  # 64 cells: the top bit of the first word
    ("misere(mnk(2,32,2))", 2, 12),
    # past 64 cells: W words by default, every claim rule
    ("mnk(15,15,5)", None, 16),
    ("misere(mnk(9,9,4))", None, 16),
    ("maker_breaker(mnk(9,9,5))", None, 12),
    ("maker_breaker(mnk(9,8,4),breaker_first=true)", None, 12),
    ("cumulative(mnk(9,9,4))", None, 8),
    ("hypercube(7,3)", None, 8),
    ("misere(mnk(9,9,4))", 3, 8),  # more words than the board needs (2)
]


@pytest.mark.parametrize(("spec", "words", "n"), STEPPED)
def test_batch_steps_match_the_reference(spec: str, words: int | None, n: int) -> None:
    game = noughts.game(spec)
    b = BatchGame(game, words=words)
    wide = words is not None or game.board.num_cells > 64
    assert b.bits.shape[1:] == ((2, max(words or 1, game.board.tables.words)) if wide else (2,))
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
        if isinstance(game, noughts.core.CumulativeGame):
            assert [tuple(s) for s in b.scores()] == [p.score() for p in positions]
    for g in range(n):
        assert b.outcome(g) == positions[g].outcome()
        assert b.plies[g] == sum(1 for c in positions[g].text() if c in "xo")
        assert b.results[g] == CODES[positions[g].outcome()]
        # the bitboards hold each player's cells, as the position does
        for player in (0, 1):
            held = sum(int(x) << (64 * i) for i, x in enumerate(np.atleast_1d(b.bits[g, player])))
            assert held == positions[g].owned(noughts.core.Player(player)), (g, player)
    if not isinstance(game, noughts.core.CumulativeGame):
        with pytest.raises(NoughtsError, match="keeps no score"):
            b.scores()


@pytest.mark.parametrize(("spec", "words"), [("tictactoe", None), ("tictactoe", 2), ("mnk(15,15,5)", None)])
def test_an_illegal_step_changes_nothing(spec: str, words: int | None) -> None:
    b = BatchGame(spec, words=words)
    cells = b.num_actions
    b.reset(3)
    b.step([4, 0, cells - 1])
    before = (b.bits.copy(), b.plies.copy(), b.results.copy(), b.aux.copy())
    after = (b.bits, b.plies, b.results, b.aux)
    for actions, bad in (([0, 0, 1], "game 1: action 0"), ([1, 2, cells - 1], f"game 2: action {cells - 1}")):
        with pytest.raises(IllegalMoveError, match=f"{bad} is illegal"):
            b.step(actions)
        assert all(np.array_equal(x, y) for x, y in zip(before, after, strict=True))
    for actions, bad in (([1, -1, 2], "game 1: action -1"), ([cells, 1, 2], f"game 0: action {cells}")):
        with pytest.raises(IllegalMoveError, match=f"{bad} is illegal"):
            b.step(actions)
        assert all(np.array_equal(x, y) for x, y in zip(before, after, strict=True))
    with pytest.raises(NoughtsError, match="shape"):
        b.step([1, 2])
    # a finished game ignores its action, legal or not
    p = noughts.game(spec).start()
    w = BatchGame(spec, words=words)
    w.reset(2)
    for a in (0, cells - 1, 1, cells - 2, 2):
        p = p.play_action(a)
        w.step([a, a])
    if p.is_terminal():
        w.step([0, 0])
        assert w.done().all()


@pytest.mark.parametrize("words", [0, -1, 1.5, "2"])
def test_bad_word_counts_are_refused(words: object) -> None:
    with pytest.raises(NoughtsError, match="words must be"):
        BatchGame("tictactoe", words=words)  # type: ignore[arg-type]


def test_unsupported_games_are_refused() -> None:
    assert supports("mnk(5,13,5)") and supports("hypercube(7,3)")  # past 64 cells: W words
    for spec in ("otrio", "veto(tictactoe)", "notakto"):
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
