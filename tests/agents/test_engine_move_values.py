"""The engine's view of every move (:meth:`EngineAgent.move_values`, the arena's overlay on
positions the solver does not finish): every proof it reports checked by the exact solver on
small boards and by a plain threat checker on 15x15, every move valued once on the normalised
scale, and its clock."""

from __future__ import annotations

import numpy as np
import pytest
from engine_cases import random_positions

import noughts
from noughts.agents.engine import EngineAgent
from noughts.core import NoughtsError, Player
from noughts.exact.api import make_engine

GOMOKU = noughts.game("mnk(15,15,5)")


def _play(game, moves):
    p = game.start()
    for m in moves:
        p = p.play(game.parse_move(m))
    return p


@pytest.mark.parametrize(
    ("spec", "most", "empty"),
    [("mnk(6,6,4)", 40, 14), ("misere(mnk(4,4,3))", 16, 16), ("maker_breaker(mnk(4,4,3))", 16, 16)],
)
def test_every_proven_move_is_what_the_solver_says(spec, most, empty):
    """A move labelled W n (L n) wins (loses) for the mover by the exact solver, within n plies
    (the solver's distance under perfect play is at most the engine's forced line)."""
    g = noughts.game(spec)
    oracle = make_engine(g)
    agent = EngineAgent(0.05)
    proven = 0
    for p in random_positions(g, 60, np.random.default_rng(7), most):
        if len(p.legal_moves()) > empty:
            continue
        for r in agent.move_values(p, 0.05):
            if r.proven is None:
                continue
            proven += 1
            child = p.play(r.move)
            value = oracle.value(child) if not child.is_terminal() else None
            winner = child.outcome().winner if value is None else value.outcome.winner
            expected = p.to_move if r.proven == "win" else p.to_move.other
            assert winner is expected, (p.text(), g.format_move(r.move), r.label())
            if value is not None and value.plies is not None:
                assert value.plies + 1 <= r.plies, (p.text(), g.format_move(r.move), r.label())
            assert r.label() == f"{'W' if r.proven == 'win' else 'L'}{r.plies}"
            assert r.value == (1.0 if r.proven == "win" else -1.0)
    assert proven >= 20


def _completing(p, player):
    """The empty cells that complete a line of ``player`` the other side has not touched."""
    k = p.game.board.k
    mine, theirs = p.owned(player), p.owned(player.other)
    out = set()
    for line in p.game.board.lines:
        if any(theirs >> c & 1 for c in line):
            continue
        empty = [c for c in line if not mine >> c & 1]
        if len(empty) == len(line) - k + 1 == 1:
            out.add(empty[0])
    return out


def test_on_15x15_the_blocks_of_an_open_three_lead_and_every_other_move_is_a_proven_loss():
    """x has an open three (h8 i8 j8) and o two stones: only the blocks next to the three
    (g8, k8) save o; after any other move x makes a four with two completing cells while o has
    none of its own (on row 8, beside the three), which a plain check of the lines confirms
    move by move."""
    p = _play(GOMOKU, ["h8", "h9", "i8", "i9", "j8"])
    row = [GOMOKU.parse_move(f"{c}8") for c in "efgklm"]  # where x's four can come from
    rs = EngineAgent().move_values(p, 1.0)
    assert sorted(GOMOKU.format_move(r.move) for r in rs[:2]) == ["g8", "k8"]
    assert len(rs) == len(p.legal_moves()) and {r.move for r in rs} == set(p.legal_moves())
    for r in rs[2:]:
        assert r.proven == "loss" and r.plies == 4, GOMOKU.format_move(r.move)
        child = p.play(r.move)
        assert not _completing(child, Player.SECOND)
        assert any(
            len(_completing(child.play(x), Player.FIRST)) >= 2
            and not _completing(child.play(x), Player.SECOND)
            for x in row
            if x in child.legal_moves()
        ), GOMOKU.format_move(r.move)


@pytest.mark.parametrize("spec", ["mnk(15,15,5)", "hypercube(4,3)", "cumulative(mnk(5,5,4))"])
def test_every_move_once_best_first_on_the_normalised_scale(spec):
    g = noughts.game(spec)
    p = g.start().play(g.start().legal_moves()[0])
    rs = EngineAgent().move_values(p, 0.3)
    assert [r.move for r in rs].count(rs[0].move) == 1 and {r.move for r in rs} == set(p.legal_moves())
    assert [r.score for r in rs] == sorted((r.score for r in rs), reverse=True)
    for r in rs:
        assert -1.0 <= r.value <= 1.0
        label = r.label()
        assert label[0] in "WL+-" and len(label) <= 5, label  # W7, L12, +0.42: never a raw score


def test_a_win_now_is_W1_and_the_clock_bounds_the_deep_pass(monkeypatch):
    import noughts.agents.engine as E

    p = _play(GOMOKU, ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4"])  # x to move: four in a row
    rs = EngineAgent().move_values(p, 0.5)
    assert GOMOKU.format_move(rs[0].move) in ("g8", "l8") and rs[0].label() == "W1"
    now = [0.0]

    def fake() -> float:
        now[0] += 0.05  # every look at the clock costs 0.05 s
        return now[0]

    monkeypatch.setattr(E.time, "perf_counter", fake)
    q = _play(GOMOKU, ["h8", "h9"])
    rs = EngineAgent().move_values(q, 0.5)
    assert {r.move for r in rs} == set(q.legal_moves())  # every move is still valued
    assert max(r.depth for r in rs) == 1  # no time was left for the deep pass


def test_refusals():
    agent = EngineAgent()
    with pytest.raises(NoughtsError, match="game is over"):
        agent.move_values(noughts.game("tictactoe").parse("xxx/oo./..."))
    with pytest.raises(NoughtsError, match="claim games"):
        agent.move_values(noughts.game("notakto(boards=2)").start())
    with pytest.raises(NoughtsError, match="deep"):
        agent.move_values(GOMOKU.start(), deep=-1)
