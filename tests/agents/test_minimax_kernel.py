"""The minimax kernel is held to the Python search (``kernel=false``, the reference): on every
position of tic-tac-toe and on samples of bigger boards and of the other claim rules, the root's
scores, their exactness, the moves tied best and the number of positions searched are the
reference's, with and without move ordering and the table.
"""

import time

import numpy as np
import pytest

import noughts
from noughts.agents import make_agent
from noughts.agents import minimax as mm
from noughts.agents.minimax import MinimaxAgent, evaluate
from noughts.arena.grade import reachable_positions
from noughts.core import Player


def _sample(spec, count, most_plies, seed):
    """Running positions after a random number of random moves (seeded)."""
    game = noughts.game(spec)
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        p = game.start()
        for _ in range(int(rng.integers(0, most_plies + 1))):
            if p.is_terminal():
                break
            moves = p.legal_moves()
            p = p.play(moves[int(rng.integers(len(moves)))])
        if not p.is_terminal():
            out.append(p)
    return out


def _same(p, depth, **options):
    fast = MinimaxAgent(depth, reflexes=False, **options)
    slow = MinimaxAgent(depth, reflexes=False, kernel=False, **options)
    got, want = fast.root_scores(p), slow.root_scores(p)
    assert got == want, (p.text(), depth, options)
    assert fast.nodes == slow.nodes, (p.text(), depth, options)
    return got


def test_every_tictactoe_position_at_every_depth():
    for p in reachable_positions(noughts.game("tictactoe")):
        if p.is_terminal():
            continue
        for depth in (1, 2, 3, 9):
            _same(p, depth)


@pytest.mark.parametrize(
    ("spec", "count", "plies", "depths"),
    [
        ("mnk(4,4,4)", 25, 10, (2, 3, 4)),
        ("mnk(4,4,3)", 25, 10, (2, 3)),
        ("hypercube(3,3)", 25, 12, (2, 3)),
        ("hypercube(4,3)", 6, 12, (2,)),
        ("misere(tictactoe)", 30, 6, (2, 3, 9)),
        ("misere(mnk(4,4,3))", 20, 10, (2, 3)),
        ("maker_breaker(mnk(4,4,3))", 20, 10, (2, 3)),
        ("maker_breaker(mnk(5,5,4))", 10, 12, (2,)),
        ("cumulative(tictactoe)", 30, 8, (2, 3, 9)),
        ("cumulative(mnk(4,4,3))", 15, 10, (2, 3)),
        ("mnk(9,9,5)", 3, 20, (2,)),
    ],
)
def test_sampled_positions_of_every_claim_rule(spec, count, plies, depths):
    for p in _sample(spec, count, plies, seed=3):
        for depth in depths:
            for options in ({}, {"ordering": False}, {"tt": False}):
                _same(p, depth, **options)


def test_fifteen_by_fifteen():
    for p in _sample("mnk(15,15,5)", 2, 30, seed=4):
        _same(p, 2)


@pytest.mark.slow
def test_fifteen_by_fifteen_and_seven_cubed_deeper():
    for p in _sample("mnk(15,15,5)", 3, 30, seed=5):
        _same(p, 2, ordering=False)
        _same(p, 3)
    for p in _sample("hypercube(7,3)", 2, 20, seed=6):
        _same(p, 2)


def test_threat_positions_on_a_big_board():
    """Positions full of threats (a random game's last few moves before it ended), where the
    exact terms and the incremental threat cells do the work."""
    game = noughts.game("mnk(9,9,5)")
    rng = np.random.default_rng(8)
    checked = 0
    while checked < 4:
        line = [game.start()]
        while not line[-1].is_terminal():
            moves = line[-1].legal_moves()
            line.append(line[-1].play(moves[int(rng.integers(len(moves)))]))
        for p in line[-3:-1]:
            _same(p, 2)
            checked += 1


def test_the_kernels_leaves_are_the_evaluation():
    """Depth 1 scores every child by the evaluation: the kernel's incremental terms against
    ``evaluate``'s walk over every line, on both sides of every claim rule."""
    for spec in ("mnk(7,7,4)", "misere(mnk(5,5,4))", "maker_breaker(mnk(5,5,4))", "cumulative(mnk(5,5,3))"):
        for p in _sample(spec, 8, 20, seed=9):
            scores = MinimaxAgent(1, reflexes=False).root_scores(p)
            best = max(v for v, exact in scores.values() if exact)
            for m, (v, exact) in scores.items():
                c = p.play(m)
                want = mm._terminal(c, 1) if c.is_terminal() else evaluate(c, 1)
                if exact:
                    assert v == -want
                else:
                    assert -want <= v < best


def test_slices_resume_where_they_stopped(monkeypatch):
    """A search cut into slices of a few positions (the clock looked at between them) gives the
    scores and the node count of one search straight through."""
    monkeypatch.setattr(mm, "SLICE_NODES", 7)
    for p in _sample("mnk(5,5,4)", 6, 8, seed=10):
        agent = MinimaxAgent(3, reflexes=False)
        agent._deadline = time.perf_counter() + 3600
        got = agent.root_scores(p)
        ref = MinimaxAgent(3, reflexes=False, kernel=False)
        assert got == ref.root_scores(p)
        assert agent.nodes == ref.nodes


def test_the_clock_stops_a_deep_search_on_a_big_board():
    p = noughts.game("mnk(15,15,5)").start().play(112)
    agent = MinimaxAgent(12, seconds=0.3)
    MinimaxAgent(2).choose(p, np.random.default_rng(0))  # the kernel loaded
    move = agent.choose(p, np.random.default_rng(0))
    assert move in p.legal_moves()
    assert 1 <= agent.reached < 12  # the clock stopped it, and it says how deep it got
    # the table and the kernel survive a search cut short: the next answer is a fresh search's
    # (the exact scores, their exactness and the moves tied; the table's bounds may differ)
    agent.seconds = None
    agent.depth = 2
    q = p.play(move)
    assert _exact(agent.root_scores(q)) == _exact(MinimaxAgent(2, reflexes=False).root_scores(q))


def _exact(scores):
    return {m: (v if exact else None, exact) for m, (v, exact) in scores.items()}


def test_one_agent_across_moves_and_games():
    """The table persists from move to move (the reference's dictionary too), and is dropped for
    another game: the answers stay the reference's, bounds and all while both tables hold the
    same entries; back on the first game (the reference still holds its old entries) the exact
    scores, their exactness and the ties."""
    agent = MinimaxAgent(3, reflexes=False)
    ref = MinimaxAgent(3, reflexes=False, kernel=False)
    for spec in ("mnk(5,5,4)", "tictactoe"):
        for p in _sample(spec, 5, 10, seed=11):
            assert agent.root_scores(p) == ref.root_scores(p)
            assert agent.best_moves(p) == ref.best_moves(p)
            assert agent.move_scores(p) == ref.move_scores(p)
    for p in _sample("mnk(5,5,4)", 5, 10, seed=12):
        assert _exact(agent.root_scores(p)) == _exact(ref.root_scores(p))
        assert agent.best_moves(p) == ref.best_moves(p)


def test_games_without_a_claim_rule_keep_the_python_search():
    for spec in ("veto(tictactoe)", "notakto(boards=2)"):
        p = noughts.game(spec).start()
        agent = MinimaxAgent(2)
        agent.choose(p, np.random.default_rng(0))
        assert agent._kernel is None


def test_the_option():
    assert make_agent("minimax:depth=2,kernel=false").name == "minimax:depth=2,kernel=false"
    assert not make_agent("minimax:kernel=false").kernel
    assert make_agent("minimax:depth=2").kernel


def test_players_alternate_in_claim_games():
    """The kernel assumes it (it negates every child's score)."""
    for spec in ("tictactoe", "misere(tictactoe)", "maker_breaker(tictactoe)", "cumulative(tictactoe)"):
        p = noughts.game(spec).start()
        mover = Player.FIRST
        while not p.is_terminal():
            assert p.to_move is mover
            p = p.play(p.legal_moves()[-1])
            mover = mover.other
