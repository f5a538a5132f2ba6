import numpy as np
import pytest

import noughts
from noughts.agents import make_agent
from noughts.agents.mcts import MCTSAgent, kernel_supports, reference_search
from noughts.arena.grade import reachable_positions
from noughts.arena.match import play_match
from noughts.core import NoughtsError
from noughts.exact.api import make_engine

TTT = noughts.game("tictactoe")


def _exact(engine, p):
    w = engine.value(p).outcome.winner
    return 0 if w is None else (1 if w is p.to_move else -1)


@pytest.mark.parametrize(
    "spec", ["tictactoe", "misere(tictactoe)", "maker_breaker(tictactoe)", "cumulative(tictactoe)"]
)
def test_kernel_solver_proofs_match_the_exact_solver(spec):
    """Every proof the kernel's MCTS-Solver makes, on every position with at most 5 empty
    cells, is the exact value; and nearly all of them get proven."""
    g = noughts.game(spec)
    engine = make_engine(g)
    agent = MCTSAgent(3000, solver=True, kernel="numba")
    positions = [p for p in reachable_positions(g) if len(p.legal_moves()) <= 5]
    proven = 0
    for i, p in enumerate(positions):
        r = agent.search(p, np.random.default_rng(i))
        if r.proven != 2:
            proven += 1
            assert r.proven == _exact(engine, p), p.text()
            best = r.best()
            if r.proven == 1:
                assert best.proven == 1
                assert engine.value(p.play(best.move)).outcome.winner is p.to_move
    assert proven >= 0.9 * len(positions)


@pytest.mark.parametrize("spec", ["tictactoe", "misere(tictactoe)", "veto(tictactoe)"])
def test_reference_solver_proofs_match_the_exact_solver(spec):
    g = noughts.game(spec)
    engine = make_engine(g)
    rng = np.random.default_rng(7)
    positions = [p for p in reachable_positions(g) if len(p.legal_moves()) <= 4]
    chosen = rng.choice(len(positions), size=min(60, len(positions)), replace=False)
    proven = 0
    for i in chosen:
        p = positions[int(i)]
        r = reference_search(p, 2000, 1.4, True, rng)
        if r.proven != 2:
            proven += 1
            assert r.proven == _exact(engine, p), p.text()
    assert proven >= 0.8 * len(chosen)


def test_kernel_and_reference_agree_in_distribution():
    """Same algorithm, different random streams: over 30 seeds, each move's mean visit share
    and the root's mean result agree within a few standard errors."""
    for text in (".../.../...", "x../.o./..x"):
        p = TTT.parse(text)
        stats = {}
        for kernel in ("python", "numba"):
            agent = MCTSAgent(1000, kernel=kernel)
            shares, means = [], []
            for s in range(30):
                r = agent.search(p, np.random.default_rng(s))
                order = {c.move: c for c in r.children}
                shares.append([order[m].visits / r.sims for m in p.legal_moves()])
                means.append(sum(c.value for c in r.children) / r.sims)
            stats[kernel] = (np.array(shares), np.array(means))
        (sp, mp), (sn, mn) = stats["python"], stats["numba"]
        se = np.sqrt(sp.var(0) / 30 + sn.var(0) / 30) + 1e-3
        assert np.all(np.abs(sp.mean(0) - sn.mean(0)) < 5 * se), text
        assert abs(mp.mean() - mn.mean()) < 5 * np.sqrt(mp.var() / 30 + mn.var() / 30) + 1e-3


def test_searches_repeat_with_a_seed():
    p = TTT.parse("x../.o./...")
    for kernel in ("python", "numba"):
        agent = MCTSAgent(500, kernel=kernel)
        a = agent.search(p, np.random.default_rng(3))
        b = agent.search(p, np.random.default_rng(3))
        assert a == b


def test_takes_a_win_and_never_a_proven_loss():
    rng = np.random.default_rng(0)
    for kernel in ("python", "numba"):
        agent = MCTSAgent(2000, solver=True, kernel=kernel)
        assert agent.choose(TTT.parse("xx./oo./..."), rng) == TTT.parse_move("c1")
        assert agent.choose(TTT.parse("xx./.o./..."), rng) == TTT.parse_move("c1")  # o must block


def test_solver_never_loses_to_perfect():
    r = play_match("tictactoe", "mcts:sims=20000,solver=true", "perfect:tie=random", games=6, seed=3)
    assert r.a_losses == 0


def test_plays_games_the_kernel_does_not_take():
    for spec in ("notakto(boards=2)", "otrio"):
        assert not kernel_supports(noughts.game(spec))
        r = play_match(spec, "mcts:sims=50", "random", games=2, seed=1)
        assert r.games == 2


def test_options():
    agent = make_agent("mcts:sims=200,c=2,solver=true,kernel=python")
    assert (agent.sims, agent.c, agent.solver, agent.kernel) == (200, 2.0, True, "python")
    for bad in (
        "mcts:sims=0",
        "mcts:sims=x",
        "mcts:c=-1",
        "mcts:kernel=gpu",
        "mcts:solver=perhaps",
        "mcts:depth=2",
    ):
        with pytest.raises(NoughtsError):
            make_agent(bad)
    with pytest.raises(NoughtsError, match="kernel"):
        make_agent("mcts:kernel=numba").choose(noughts.game("otrio").start(), np.random.default_rng(0))
