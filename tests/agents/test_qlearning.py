"""The Q-learning agent of 003: tiers (reflexes, search, learned), options, saving."""

import json

import numpy as np
import pytest

import noughts
from noughts.agents.qlearning import QAgent, QTable, from_options, from_saved, heuristic
from noughts.arena.grade import grade
from noughts.core import NoughtsError
from noughts.learn.qlearning import QLearner

TTT = noughts.game("tictactoe")


def test_reflexes_win_before_they_block():
    agent = QAgent(TTT, None, reflexes=True)
    rng = np.random.default_rng(0)
    assert TTT.format_move(agent.choose(TTT.parse("xx./oo./..."), rng)) == "c1"  # win
    assert TTT.format_move(agent.choose(TTT.parse("xx./o../..."), rng)) == "c1"  # block
    plain = QAgent(TTT, None, tie_break="first")
    assert TTT.format_move(plain.choose(TTT.parse("xx./o../..."), rng)) == "c1"  # first legal


def test_learned_tier_takes_the_highest_q():
    q = np.zeros((1, 9))
    q[0, 7] = 0.5
    agent = QAgent(TTT, QTable(9, np.array([0]), q, 1))
    assert agent.choose(TTT.start(), np.random.default_rng(0)) == 7
    assert agent.q_values(TTT.parse("x../.../...")) is None


def test_search_tier_ties_only_real_ties_and_q_breaks_them():
    # x to move after x a1, o b1: x wins by force, but not with every move (the solver says
    # which). The table loves a move that throws the win away; the search's exact scores keep it
    # out, and among the moves the search ties (the fastest wins) Q picks its favourite.
    p = TTT.parse("xo./.../...")
    r = noughts.solve(TTT, p)
    winning = {mv.move for mv in r.moves if mv.value.outcome is r.value.outcome}
    worse = [mv.move for mv in r.moves if mv.move not in winning]
    assert worse
    plain = QAgent(TTT, None, depth=9)
    moves = p.legal_moves()
    scores = plain.root_scores(p, moves, 9)
    tied = [m for m, v in zip(moves, scores, strict=True) if v == max(scores)]
    assert len(tied) > 1 and set(tied) <= winning
    key = p.state[0] | (p.state[1] << 9)
    q = np.zeros((1, 9))
    q[0, worse[0]] = 1.0
    q[0, tied[-1]] = 0.5
    agent = QAgent(TTT, QTable(9, np.array([key]), q, 1), depth=9)
    assert {agent.choose(p, np.random.default_rng(s)) for s in range(5)} == {tied[-1]}


def test_search_to_the_end_never_plays_a_losing_move():
    # depth 9 on 3x3 searches to the end: every move it may play from any position keeps
    # the solver's value, whatever the table says
    agent = QAgent(TTT, None, depth=9, tie_break="random")
    g = grade(agent, TTT, sample=60, games=4, seed=1)
    assert g.optimal_move_rate == 1.0
    assert g.as_first.losses == g.as_second.losses == 0


def test_centre_ban_is_off_by_default_and_changes_only_the_first_move():
    q = np.zeros((1, 9))
    q[0, 4] = 1.0  # the table loves the centre
    table = QTable(9, np.array([0]), q, 1)
    free, banned = QAgent(TTT, table), QAgent(TTT, table, centre_ban=True)
    rng = np.random.default_rng(0)
    assert free.choose(TTT.start(), rng) == 4
    assert banned.choose(TTT.start(), rng) != 4
    assert banned.legal_moves(TTT.start()) == [0, 1, 2, 3, 5, 6, 7, 8]
    later = TTT.parse("x../.../...")
    assert banned.legal_moves(later) == free.legal_moves(later) == later.legal_moves()


def test_iron_wall_weights_change_the_heuristic_only_when_on():
    g = noughts.game("mnk(4,4,3)")
    p = g.parse("..../.x../..../....")  # x holds a centre cell
    plain = heuristic(p, 1)
    iron = heuristic(p, 1, iron_wall=True)
    assert iron < plain  # -200 while the opponent holds the centre
    # centre +50; every line through b2 holds one x and nothing else: k - 2 = 1 of x, +4 each
    assert heuristic(p, 0) == 50 + 4 * len(g.board.masks_through[g.parse_move("b2")])


def test_depth_bonus_searches_deeper_for_the_second_player_on_large_boards():
    g = noughts.game("mnk(4,4,3)")
    agent = QAgent(g, None, depth=1, depth_bonus=2)
    assert agent._search_depth(g.start()) == 1
    assert agent._search_depth(g.parse("x.../..../..../....")) == 3
    assert QAgent(TTT, None, depth=1, depth_bonus=2)._search_depth(TTT.parse("x../.../...")) == 1


def test_trained_agent_round_trips():
    learner = QLearner(noughts.game("mnk(4,4,3)"), seed=2)
    learner.train(200)
    agent = learner.agent(reflexes=True, depth=1)
    meta, arrays = agent.to_saved()
    back = from_saved(json.loads(json.dumps(meta)), {k: np.array(v) for k, v in arrays.items()})
    assert back.options() == agent.options()
    assert np.array_equal(back.table.q, agent.table.q) and np.array_equal(back.table.keys, agent.table.keys)
    g = agent.game
    p = g.start()
    rng_a, rng_b = np.random.default_rng(4), np.random.default_rng(4)
    while not p.is_terminal():
        m = agent.choose(p, rng_a)
        assert back.choose(p, rng_b) == m
        p = p.play(m)


@pytest.mark.parametrize(
    ("arrays", "message"),
    [
        ({"keys": np.array([0])}, "'q' array"),
        ({"keys": np.array([0.5]), "q": np.zeros((1, 9))}, "integer"),
        ({"keys": np.array([0]), "q": np.zeros((1, 8))}, "shape"),
        ({"keys": np.array([0]), "q": np.array([[np.inf] * 9])}, "finite"),
        ({"keys": np.array([1 | 1 << 9]), "q": np.zeros((1, 9))}, "both players"),
        ({"keys": np.array([1 << 20]), "q": np.zeros((1, 9))}, "not bit boards"),
        ({"keys": np.array([0, 0]), "q": np.zeros((2, 9))}, "twice"),
    ],
)
def test_bad_saved_tables_get_clear_errors(arrays, message):
    with pytest.raises(NoughtsError, match=message):
        from_saved({"game": "tictactoe"}, arrays)


def test_options_are_checked():
    with pytest.raises(NoughtsError, match="unknown"):
        from_options(speed="fast")
    with pytest.raises(NoughtsError, match="true or false"):
        from_options(reflexes="maybe")
    with pytest.raises(NoughtsError, match="whole number"):
        from_options(depth="two")
    with pytest.raises(NoughtsError, match="standard rules"):
        QAgent(noughts.game("misere(tictactoe)"), None, depth=2)
    agent = from_options(reflexes="true", depth="2")
    g = noughts.game("mnk(4,4,3)")
    assert agent.agent_for(g).reflexes and agent.agent_for(g).depth == 2
    assert agent.name == "qlearning:reflexes=true,depth=2"
    # the same spec plays any standard game it meets
    rng = np.random.default_rng(0)
    assert TTT.format_move(agent.choose(TTT.parse("xx./oo./..."), rng)) == "c1"
    assert g.format_move(agent.choose(g.parse("xx../o.../o.../...."), rng)) == "c1"


def test_through_the_saved_agent_files(tmp_path):
    saved = pytest.importorskip("noughts.agents.saved")
    learner = QLearner(TTT, seed=1)
    learner.train(100)
    agent = learner.agent()
    path = tmp_path / "q.json"
    saved.save_agent(agent, path)
    back = saved.load_agent(path)
    assert isinstance(back, QAgent) and np.array_equal(back.table.q, agent.table.q)


def write_arena_zip(path, q1, q2, grid=3, k=3):
    import zipfile

    with zipfile.ZipFile(path, "w") as z:
        z.writestr("agent1.json", json.dumps({"q_table": q1, "epsilon": 0.05, "lr": 0.2, "gamma": 0.95}))
        z.writestr("agent2.json", json.dumps({"q_table": q2}))
        z.writestr("config.json", json.dumps({"grid_size": grid, "win_length": k}))


def test_arena_snapshot_imports_into_one_table(tmp_path):
    saved = pytest.importorskip("noughts.agents.saved")
    from noughts.agents.qlearning import from_arena

    q1 = {"[[0,0,0,0,0,0,0,0,0], [0,1]]": 0.7, "[[1,0,0,0,2,0,0,0,0], [2,2]]": 0.25}
    q2 = {"[[0,0,0,0,1,0,0,0,0], [0,0]]": 0.5, "[[0,0,0,0,0,0,0,0,0], [1,1]]": 9.0}  # last: agent 1's turn
    write_arena_zip(tmp_path / "a.zip", q1, q2)
    agent = from_arena(saved.load_arena_zip(tmp_path / "a.zip"), reflexes=True)
    assert agent.game == TTT and agent.reflexes
    rng = np.random.default_rng(0)
    assert TTT.format_move(agent.choose(TTT.start(), rng)) == "b1"  # agent 1's 0.7 at (0, 1)
    assert TTT.format_move(agent.choose(TTT.parse(".../.x./..."), rng)) == "a1"  # agent 2's 0.5
    assert agent.q_values(TTT.parse("x../.o./..."))[8] == 0.25
    assert agent.training["skipped_entries"] == 1
    meta, arrays = agent.to_saved()  # and it saves as a noughts agent
    assert from_saved(meta, arrays).table.size == 3


def test_arena_snapshot_with_impossible_boards_is_refused(tmp_path):
    saved = pytest.importorskip("noughts.agents.saved")
    from noughts.agents.qlearning import from_arena

    write_arena_zip(tmp_path / "b.zip", {"[[1,1,0,0,0,0,0,0,0], [2,2]]": 0.1}, {})
    with pytest.raises(NoughtsError, match="no game reaches"):
        from_arena(saved.load_arena_zip(tmp_path / "b.zip"))


def _random_positions(game, n, seed, max_plies):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        p = game.start()
        for _ in range(int(rng.integers(0, max_plies + 1))):
            if p.is_terminal():
                break
            moves = p.legal_moves()
            p = p.play(moves[int(rng.integers(len(moves)))])
        if not p.is_terminal():
            out.append(p)
    return out


def _random_table(game, positions, seed):
    """A table with a random row for each position and its successors (the leaf blend reads them)."""
    cells = game.board.num_cells
    keys = {}
    for p in positions:
        for q in [p, *(p.play(m) for m in p.legal_moves())]:
            for r in [q, *(q.play(m) for m in q.legal_moves())] if not q.is_terminal() else [q]:
                keys[r.owned(0) | (r.owned(1) << cells)] = None
    keys = np.array(list(keys), dtype=np.int64)
    q = np.random.default_rng(seed).choice([-50.0, 0.0, 25.5, 100.0], size=(keys.size, cells))
    return QTable(cells, keys, q, int(keys.size))


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 9])
def test_search_kernel_ties_exactly_the_references_moves_on_3x3(depth):
    from noughts.learn.states import state_space

    space = state_space(TTT)
    positions = [space.position(i) for i in range(space.size) if space.outcome[i] < 0]
    if depth == 9:
        positions = positions[::7]
    options = {"depth": depth, "leaf_blend": 0.1}
    table = _random_table(TTT, positions[::40], 3)
    kernel = QAgent(TTT, table, engine="kernel", **options)
    reference = QAgent(TTT, table, engine="reference", **options)
    for p in positions:
        moves = p.legal_moves()
        assert kernel.best_moves(p, moves, depth) == reference.best_moves(p, moves, depth)


@pytest.mark.parametrize(
    ("spec", "depth", "iron"), [("mnk(4,4,3)", 3, False), ("mnk(4,4,3)", 3, True), ("mnk(5,5,3)", 2, True)]
)
def test_search_kernel_ties_exactly_the_references_moves_on_larger_boards(spec, depth, iron):
    game = noughts.game(spec)
    positions = _random_positions(game, 25, seed=depth, max_plies=6)
    table = _random_table(game, positions, 4)
    options = {"depth": depth, "iron_wall": iron, "leaf_blend": 0.1}
    kernel = QAgent(game, table, engine="kernel", **options)
    reference = QAgent(game, table, engine="reference", **options)
    for p in positions:
        moves = p.legal_moves()
        assert kernel.best_moves(p, moves, depth) == reference.best_moves(p, moves, depth)
        # the bonus depth and the iron wall count for the second player only
        assert kernel.search_depth(p, moves) == depth


def test_003_depth_rule_opening_book_and_leaf_blend():
    g = noughts.game("mnk(4,4,3)")
    agent = QAgent(g, None, depth=4, depth_rule="003", depth_bonus=2, opening_book=True, leaf_blend=0.1)
    start = g.start()
    assert agent.search_depth(start, start.legal_moves()) == 4  # min(4, 16)
    p = g.parse("o.xx/xoo./.x../....")  # o to move, 9 empty cells
    assert agent.search_depth(p, p.legal_moves()) == 4 + 2
    g4 = noughts.game("mnk(4,4,4)")
    late = g4.parse("xoxo/xoxo/oxox/x...")  # o to move, 3 empty cells
    rule = QAgent(g4, None, depth=4, depth_rule="003", depth_bonus=2)
    assert rule.search_depth(late, late.legal_moves()) == 3 + 2  # min(4, 3), plus the bonus
    reply = g.parse("x.../..../..../....")
    assert agent.search_depth(reply, reply.legal_moves()) == 4 + 2  # o: the bonus
    assert (
        QAgent(TTT, None, depth=4, depth_rule="003").search_depth(TTT.start(), TTT.start().legal_moves()) == 9
    )
    # the book: o answers an x on a centre cell with a neighbour of it, else takes a centre cell
    centre_x = g.parse("..../.x../..../....")
    near = agent.book_moves(centre_x, centre_x.legal_moves())
    assert set(near) == {0, 1, 2, 4, 6, 8, 9, 10}
    assert set(agent.candidates(centre_x)) == set(near)
    corner_x = g.parse("x.../..../..../....")
    assert agent.book_moves(corner_x, corner_x.legal_moves()) == [5, 6, 9, 10]
    assert agent.book_moves(g.parse("x.../.o../..x./...."), []) == []  # past the first three moves
    assert QAgent(TTT, None, opening_book=True).book_moves(TTT.parse("x../.../..."), [1, 2, 3, 4]) == []
    with pytest.raises(NoughtsError, match="depth_rule"):
        QAgent(g, None, depth_rule="deep")
    with pytest.raises(NoughtsError, match="leaf_blend"):
        QAgent(g, None, leaf_blend=-1)


def test_leaf_blend_reads_the_searchers_own_values():
    g = noughts.game("mnk(4,4,3)")
    p = g.parse("x.../..../..../...o")
    # a leaf two plies on, where x (the searcher) moves again: its row's mean is blended in
    leaf = p.play(5).play(10)
    key = leaf.owned(0) | (leaf.owned(1) << 16)
    q = np.zeros((1, 16))
    q[0, [m for m in leaf.legal_moves()]] = 10.0
    agent = QAgent(g, QTable(16, np.array([key]), q, 1), depth=2, leaf_blend=0.1, engine="reference")
    plain = QAgent(g, None, depth=2, engine="reference")
    assert agent._leaf(leaf, 0, False) == pytest.approx(plain._leaf(leaf, 0, False) + 1.0)
    assert agent._leaf(p.play(5), 0, False) == plain._leaf(p.play(5), 0, False)  # o to move: no blend
