"""The engine agent: held to its plain reference (evaluation, full-width search), its proofs
checked by the exact solver and by a plain threat checker, its tactics (wins now, blocks fours
and open threes) and its clock."""

from __future__ import annotations

import numpy as np
import pytest
from engine_cases import random_positions

import noughts
from noughts.agents import make_agent
from noughts.agents.engine import EngineAgent, reference_evaluation, reference_value
from noughts.core import NoughtsError, Player
from noughts.exact.api import make_engine

GOMOKU = noughts.game("mnk(15,15,5)")


def _play(game, moves):
    p = game.start()
    for m in moves:
        p = p.play(game.parse_move(m) if isinstance(m, str) else m)
    return p


RULES = [
    "mnk(4,4,3)",
    "misere(mnk(4,4,3))",
    "maker_breaker(mnk(4,4,3))",
    "cumulative(mnk(4,4,3))",
    "tictactoe",
]


@pytest.mark.parametrize("spec", RULES)
def test_full_width_search_equals_the_plain_reference(spec):
    """Without table, leaf VCF or width limit, the kernel's alpha-beta (killers, history and
    heat ordering included) gives the plain negamax's score, at depths 1 to 3."""
    g = noughts.game(spec)
    agent = EngineAgent(width=g.board.num_cells, leaf_vcf=0, tt=0)
    for p in random_positions(g, 12, np.random.default_rng(1)):
        for depth in (1, 2, 3):
            _, score = agent.search_depth(p, depth)
            assert score == reference_value(p, depth), (spec, p.text(), depth)


@pytest.mark.parametrize("spec", RULES)
def test_table_keeps_the_best_move_scored_alike(spec):
    """With the table on, a search of depth d scores its move as the table-free search does
    where both see the end (exact scores agree)."""
    g = noughts.game(spec)
    plain = EngineAgent(width=g.board.num_cells, leaf_vcf=0, tt=0)
    table = EngineAgent(width=g.board.num_cells, leaf_vcf=0, tt=12)
    for p in random_positions(g, 10, np.random.default_rng(2)):
        for depth in (1, 2, 3, 4):
            _, a = plain.search_depth(p, depth)
            _, b = table.search_depth(p, depth)
            if abs(a) > 990_000:
                assert a == b or (abs(b) > 990_000 and (a > 0) == (b > 0)), (spec, p.text(), depth)


@pytest.mark.parametrize("spec", [*RULES, "mnk(15,15,5)", "hypercube(4,3)"])
def test_incremental_evaluation_equals_the_plain_one(spec):
    """The kernel's evaluation, kept claim by claim, is the plain sum over the lines."""
    g = noughts.game(spec)
    agent = EngineAgent(width=4, leaf_vcf=0, tt=0)
    for p in random_positions(g, 8, np.random.default_rng(3), most=60):
        from noughts.agents import _engine_kernel as K

        agent.search_depth(p, 1)  # loads p; every claim of the search is taken back
        state = agent._states[g]
        assert int(K.evaluate(state.S, int(p.to_move))) == reference_evaluation(p), p.text()


def test_wins_now_and_blocks_a_four():
    agent = EngineAgent(0.3)
    rng = np.random.default_rng(0)
    # x: h8 h9 h10 h11 (open four), o elsewhere; x to move wins at h7 or h12
    p = _play(GOMOKU, ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "b5"])
    assert agent.choose(p, rng) in {GOMOKU.parse_move("h7"), GOMOKU.parse_move("h12")}
    assert agent.last.proven == "win"
    # o to move, x has a closed four (h7 taken by o): o must block h12
    p = _play(GOMOKU, ["h8", "h7", "h9", "a2", "h10", "a3", "h11"])
    assert agent.choose(p, rng) == GOMOKU.parse_move("h12")
    # Qubic: a win now on the cube's space diagonal
    cube = noughts.game("hypercube(4,3)")
    q = cube.start()
    diag = [0, 21, 42]
    for i, c in enumerate(diag):
        q = q.play(c).play([1, 2, 3][i])
    assert agent.choose(q, rng) == 63


def _open_four_cells(p, player):
    """Cells where ``player`` would make two distinct completing cells (a plain count)."""
    k = p.game.board.k
    out = []
    for m in p.legal_moves():
        mine = p.owned(player) | 1 << m
        theirs = p.owned(player.other)
        cells = set()
        for line in p.game.board.lines:
            if not any(theirs >> c & 1 for c in line) and sum(mine >> c & 1 for c in line) == k - 1:
                cells |= {c for c in line if not mine >> c & 1}
        if len(cells) >= 2:
            out.append(m)
    return out


def test_blocks_an_open_three():
    """o has an open three in the middle of the board and x nothing: after x's move, o can
    make no open four (two completing cells)."""
    agent = EngineAgent(0.5)
    p = _play(GOMOKU, ["a1", "g8", "o15", "h8", "a15", "i8"])
    assert _open_four_cells(p, Player.SECOND)
    after = p.play(agent.choose(p, np.random.default_rng(0)))
    assert not _open_four_cells(after, Player.SECOND)


def test_vcf_wins_are_wins():
    """Every VCF win the engine reports on positions of mnk(6,6,4) with at most 12 empty cells
    is a win by the exact solver, and so is every proven loss a loss."""
    g = noughts.game("mnk(6,6,4)")
    oracle = make_engine(g)
    agent = EngineAgent(0.05)
    seen = 0
    for p in random_positions(g, 300, np.random.default_rng(4), most=40):
        if len(p.legal_moves()) > 14:
            continue
        r = agent.analyse(p)
        if r.proven is None:
            continue
        seen += 1
        winner = oracle.value(p).outcome.winner
        expected = p.to_move if r.proven == "win" else p.to_move.other
        assert winner is expected, p.text()
        if r.proven == "win":
            child = p.play(r.move)
            assert child.is_terminal() or oracle.value(child).outcome.winner is p.to_move, p.text()
    assert seen >= 10


def test_clock(monkeypatch):
    """The driver deepens only while its clock allows: with a clock that runs fast (each look
    costs 0.2 s), a 0.5 s search finishes at most a few iterations; and the option's checks."""
    import noughts.agents.engine as E

    agent = EngineAgent(10.0, vcf=0)
    p = _play(GOMOKU, ["h8", "i9"])
    free = agent.analyse(p, seconds=5.0)
    now = [0.0]

    def fake() -> float:
        now[0] += 0.2
        return now[0]

    monkeypatch.setattr(E.time, "perf_counter", fake)
    timed = agent.analyse(p, seconds=0.5)
    assert 1 <= timed.depth <= 2 < free.depth
    assert timed.move in p.legal_moves()
    monkeypatch.undo()
    assert make_agent("engine:seconds=0.5").seconds == 0.5
    for bad in ("engine:seconds=0", "engine:width=0", "engine:tt=5", "engine:depth=0", "engine:sims=3"):
        with pytest.raises(NoughtsError):
            make_agent(bad)


def test_plays_whole_games_on_any_claim_game_and_beyond():
    from noughts.arena.match import play_match

    for spec in ("misere(mnk(4,4,3))", "maker_breaker(mnk(5,5,4))", "cumulative(mnk(4,4,3))", "otrio"):
        r = play_match(spec, "engine:seconds=0.05", "random", games=2, seed=1)
        assert r.games == 2
    r = play_match("mnk(9,9,5)", "engine:seconds=0.2", "mcts:sims=500", games=2, seed=2)
    assert r.a_wins == 2


def _small_endgames(game, count, seed):
    """Running positions of ``game`` with 10 to 14 empty cells along random games, none won in
    one by the mover (that is no test of a proof)."""
    rng = np.random.default_rng(seed)
    cells = game.board.num_cells
    out = []
    while len(out) < count:
        p = game.start()
        stop = int(rng.integers(cells - 14, cells - 9))
        while not p.is_terminal() and p.occupied().bit_count() < stop:
            moves = p.legal_moves()
            p = p.play(moves[int(rng.integers(len(moves)))])
        if not p.is_terminal() and not _wins_in_one(p):
            out.append(p)
    return out


def _wins_in_one(p):
    me, op = p.owned(p.to_move), p.owned(p.to_move.other)
    k = p.game.board.k
    return any(not m & op and (m & me).bit_count() == k - 1 for m in p.game.board.line_masks)


@pytest.mark.parametrize(
    ("options", "plies_known"),
    [({"vcf": 0, "vct": 8, "proof": 0}, True), ({"vcf": 0, "vct": 0, "proof": 0.5}, False)],
    ids=["vct", "df-pn"],
)
def test_root_proofs_are_wins(options, plies_known):
    """The root's VCT (threats of order two) and its df-pn, each alone: every win they report on
    positions of mnk(6,6,4) with at most 14 empty cells is a win by the exact solver, and so is
    the position after the move; a VCT win is also found by the plain threat search."""
    from noughts.proving.threats import threat_win

    g = noughts.game("mnk(6,6,4)")
    oracle = make_engine(g)
    agent = EngineAgent(0.1, **options)
    seen = 0
    for p in _small_endgames(g, 120, 5):
        r = agent.analyse(p)
        if r.proven != "win":
            continue
        seen += 1
        assert oracle.value(p).outcome.winner is p.to_move, p.text()
        child = p.play(r.move)
        assert child.is_terminal() or oracle.value(child).outcome.winner is p.to_move, p.text()
        assert (r.plies is not None) == plies_known
        if plies_known:
            assert r.line[0] == r.move
            assert threat_win(p, max_order=2, max_depth=8) is not None, p.text()
    assert seen >= 8


def test_root_proof_finds_a_win_that_starts_quietly():
    """A position of mnk(9,9,5) from the forced-win suite's random play: the first player wins
    (the proof engine proves it), but by no VCF and no VCT of up to four threats; with the VCT
    off, the root's df-pn finds a winning move, the engine says it is proven, and the proof
    engine confirms the move."""
    from noughts.proving.proof import WIN as GOAL
    from noughts.proving.proof import ProofSearch
    from noughts.proving.threats import threat_win_kernel

    g = noughts.game("mnk(9,9,5)")
    p = g.parse(".ox....../x.....o.x/...oo..xx/.......oo/.x......./xo....o../..xx...../..ox...oo/ox.....x.")
    assert threat_win_kernel(p, max_order=1) is None
    assert threat_win_kernel(p, max_order=2, max_depth=4) is None
    agent = EngineAgent(4.0, vct=0, proof=0.5)
    r = agent.analyse(p)
    assert r.proven == "win" and r.plies is None and r.label() == "W"
    assert agent.decide(p, np.random.default_rng(0)).note == "a proven win (the proof engine)"
    assert ProofSearch(g, p.to_move, GOAL, max_nodes=100_000).prove(p.play(r.move)).proved


def test_proof_options():
    assert make_agent("engine:vct=4,proof=0.1").name == "engine:vct=4,proof=0.1"
    assert make_agent("engine:proof=0.25").name == "engine"
    for bad in ("engine:proof=0.9", "engine:proof=-1", "engine:vct=61"):
        with pytest.raises(NoughtsError):
            make_agent(bad)
