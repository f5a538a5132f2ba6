import numpy as np
import pytest

import noughts
from noughts.agents import make_agent
from noughts.agents.minimax import INF, WIN, MinimaxAgent, evaluate, plain_negamax
from noughts.arena.grade import reachable_positions
from noughts.arena.match import play_match
from noughts.core import NoughtsError, Outcome, Player
from noughts.exact.api import best_moves, make_engine

TTT = noughts.game("tictactoe")


def _positions(game, most_empty):
    return [p for p in reachable_positions(game) if len(p.legal_moves()) <= most_empty]


def test_never_loses_to_perfect_at_full_depth():
    r = play_match("tictactoe", "minimax:depth=9", "perfect:tie=random", games=12, seed=5)
    assert r.a_losses == 0 and r.a_wins == 0  # the perfect player never loses either


def test_takes_an_immediate_win_and_blocks():
    rng = np.random.default_rng(0)
    for reflexes in (True, False):
        agent = MinimaxAgent(2, reflexes=reflexes)
        assert agent.choose(TTT.parse("xx./oo./..."), rng) == TTT.parse_move("c1")  # win now
        # o to move: x threatens c1 (a1 b1); o has no win of its own
        assert agent.choose(TTT.parse("xx./.o./..."), rng) == TTT.parse_move("c1")
    # with a win available, the win beats the block
    assert MinimaxAgent(3).choose(TTT.parse("xx./oo./x.."), rng) in (TTT.parse_move("c2"),)


def test_alpha_beta_ties_are_the_plain_searchs_ties():
    """On every position with at most 5 empty cells (full depth), and on 400 positions drawn
    at random at depths 2 and 3, the moves the agent ties for best are exactly the unpruned
    search's best moves."""
    everything = reachable_positions(TTT)
    drawn = np.random.default_rng(0).choice(len(everything), size=400, replace=False)
    cases = [(p, 9) for p in _positions(TTT, 5)] + [(everything[i], 2 + int(i) % 2) for i in drawn]
    for p, depth in cases:
        agent = MinimaxAgent(depth, reflexes=False)
        plain = {}
        for m in p.legal_moves():
            c = p.play(m)
            plain[m] = -plain_negamax(c, depth - 1, 1)
        top = max(plain.values())
        assert set(agent.best_moves(p)) == {m for m, v in plain.items() if v == top}, p.text()
        for m, (v, exact) in agent.root_scores(p).items():
            if exact:
                assert v == plain[m]
            else:  # a bound, never mistaken for a score: the move is worse than the best
                assert plain[m] <= v < top


def _naive_ties(p, depth):
    """003 §2.4's root: alpha carried from move to move, ties taken among the returned values."""
    agent = MinimaxAgent(depth, reflexes=False)
    alpha, scores = -INF, {}
    for m in p.legal_moves():
        v = -agent._search(p.play(m), depth - 1, -INF, -alpha, 1)
        scores[m] = v
        alpha = max(alpha, v)
    top = max(scores.values())
    return {m for m, v in scores.items() if v == top}


def test_the_arenas_pruned_bound_bug_is_real_and_absent_here():
    engine = make_engine(TTT)
    # the scenario: o to move after x a1, o b1, x c1 (a draw with b2). 003's root returns the
    # refutation bound of a3 and c3 (x then forks) as if it were their score and ties them
    # with the drawing moves; "randomly among ties" then loses the game.
    p = TTT.parse("xox/.../...")
    naive = {TTT.format_move(m) for m in _naive_ties(p, 9)}
    assert {"a3", "c3"} <= naive
    assert engine.value(p.play(TTT.parse_move("a3"))).outcome is Outcome.FIRST
    ours = {TTT.format_move(m) for m in MinimaxAgent(9, reflexes=False).best_moves(p)}
    assert ours and not ours & {"a3", "c3"}
    assert all(engine.value(p.play(TTT.parse_move(m))).outcome is Outcome.DRAW for m in ours)
    naive_blunders = 0
    for p in _positions(TTT, 5):
        good = set(best_moves(engine, p))
        true_value = engine.value(p).outcome
        naive = _naive_ties(p, 9)
        losing = {m for m in naive if engine.value(p.play(m)).outcome != true_value}
        naive_blunders += bool(losing)
        assert set(MinimaxAgent(9, reflexes=False).best_moves(p)) <= {
            m for m in p.legal_moves() if engine.value(p.play(m)).outcome == true_value
        }
        assert good  # the solver always has a best move
    assert naive_blunders > 0  # the naive root ties a move that changes the result


def test_exact_threat_terms_agree_with_the_solver():
    engine = make_engine(TTT)
    settled = 0
    for p in reachable_positions(TTT):
        v = evaluate(p, 0)
        if abs(v) < WIN // 2:
            continue
        settled += 1
        value = engine.value(p)
        if v > 0:
            assert value.outcome.winner is p.to_move and value.plies == WIN - v
        else:
            assert value.outcome.winner is p.to_move.other and value.plies == WIN + v
    assert settled > 100


def test_opening_book_moves_are_optimal_on_tictactoe():
    engine = make_engine(TTT)
    agent = MinimaxAgent(1, book=True, reflexes=False)
    starts = [TTT.start()] + [TTT.start().play(m) for m in TTT.start().legal_moves()]
    for p in starts:
        move = agent._book(p)
        assert move is not None
        assert engine.value(p.play(move)).outcome is Outcome.DRAW


@pytest.mark.parametrize(
    "spec",
    [
        "notakto(boards=2)",
        "otrio",
        "veto(tictactoe)",
        "misere(mnk(4,4,3))",
        "cumulative(tictactoe)",
        "maker_breaker(mnk(4,4,3))",
        "hypercube(3,3)",
    ],
)
def test_plays_every_game(spec):
    r = play_match(spec, "minimax:depth=2", "random", games=2, seed=1)
    assert r.games == 2 and all(g.moves for g in r.played)


def test_beats_random_on_4x4():
    r = play_match("mnk(4,4,3)", "minimax:depth=2", "random", games=10, seed=2)
    assert r.a_wins >= 9


def test_options():
    assert make_agent("minimax:depth=4,book=true,tie=first").name == "minimax:depth=4,book=true,tie=first"
    for bad in (
        "minimax:depth=x",
        "minimax:depth=0",
        "minimax:book=maybe",
        "minimax:speed=3",
        "minimax:tie=last",
    ):
        with pytest.raises(NoughtsError):
            make_agent(bad)


def test_misere_avoids_completing_a_line():
    g = noughts.game("misere(tictactoe)")
    p = g.parse("xx./oo./...")  # x to move: c1 would complete x's line and lose
    rng = np.random.default_rng(0)
    assert MinimaxAgent(2).choose(p, rng) != g.parse_move("c1")
    assert p.to_move is Player.FIRST


def test_the_table_changes_no_score():
    """With and without the transposition table, the same moves get exact scores and the
    scores agree (the table is read at the same remaining depth only); a move's bound may be
    another bound but stays below the best; so the ties are the same. Searched again with the
    table filled, likewise. On 4x4 positions under three rules."""
    rng = np.random.default_rng(1)
    for spec in ("mnk(4,4,3)", "misere(mnk(4,4,3))", "cumulative(mnk(4,4,3))"):
        g = noughts.game(spec)
        for _ in range(8):
            p = g.start()
            for _ in range(int(rng.integers(0, 8))):
                if p.is_terminal():
                    break
                p = p.play(p.legal_moves()[int(rng.integers(len(p.legal_moves())))])
            if p.is_terminal():
                continue
            with_tt, without = MinimaxAgent(4, tt=True), MinimaxAgent(4, tt=False)
            plain = without.root_scores(p)
            top = max(v for v, exact in plain.values() if exact)
            first = -1
            for _ in range(2):  # the second time with the table filled
                got = with_tt.root_scores(p)
                exact = {m: v for m, (v, e) in got.items() if e}
                assert exact == {m: v for m, (v, e) in plain.items() if e}, p.text()
                assert all(v < top for v, e in got.values() if not e), p.text()
                if first < 0:
                    first = with_tt.nodes
            assert first <= without.nodes  # the first search: never more work than without


def test_clock_answers_with_the_deepest_finished_iteration(monkeypatch):
    """Under a clock the search deepens until time runs out and answers with the last finished
    depth (a fake clock that advances with every look makes this exact)."""
    import noughts.agents.minimax as M

    g = noughts.game("mnk(5,5,4)")
    p = g.start().play(12)
    now = [0.0]

    def fake() -> float:
        now[0] += 0.01
        return now[0]

    monkeypatch.setattr(M.time, "perf_counter", fake)
    agent = MinimaxAgent(6, seconds=0.05)
    move = agent.choose(p, np.random.default_rng(0))
    assert move in p.legal_moves()
    assert 1 <= agent.reached < 6
    assert agent.depth == 6
    assert make_agent("minimax:depth=3,seconds=1").name == "minimax:depth=3,seconds=1"
    with pytest.raises(NoughtsError):
        make_agent("minimax:seconds=-1")
