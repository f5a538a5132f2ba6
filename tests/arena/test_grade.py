import numpy as np
import pytest

import noughts
from noughts.agents import RandomAgent, make_agent
from noughts.arena.grade import grade, reachable_positions, sample_positions
from noughts.core import LimitExceeded, NoughtsError
from noughts.exact.api import best_moves, make_engine
from noughts.exact.count import count
from noughts.exact.table import build_table

TTT = noughts.game("tictactoe")


def test_reachable_positions_match_the_count():
    c = count(TTT)
    assert len(reachable_positions(TTT)) == c.positions - c.terminal_positions  # 5478 - 958


def test_perfect_grades_one():
    g = grade(make_agent("perfect:tie=random"), TTT, games=4, seed=1)
    assert g.optimal_move_rate == 1.0 and g.positions == 4520 and g.blunders == []
    assert g.as_first.losses == 0 and g.as_second.losses == 0
    assert g.as_first.games == 4 and g.start_value == "draw"
    assert grade("perfect", TTT, games=0, strict=True).optimal_move_rate == 1.0


class FirstMove:
    """Always the first legal move: its grade can be computed by hand from the solver."""

    name = "first"

    def choose(self, position, rng):
        return position.legal_moves()[0]


def test_grade_is_the_share_of_optimal_moves():
    engine = make_engine(TTT)
    positions = reachable_positions(TTT)
    expected = 0
    for p in positions:
        value = engine.value(p).outcome
        expected += engine.value(p.play(p.legal_moves()[0])).outcome == value
    g = grade(FirstMove(), TTT, games=2, blunders=3)
    assert g.optimal == expected and g.positions == len(positions)
    assert 0 < g.optimal_move_rate < 1
    assert len(g.blunders) == 3
    worst = g.blunders[0]
    assert worst.loss == 2  # a won position thrown to a loss exists for this agent
    p = TTT.parse(worst.position)
    assert TTT.parse_move(worst.move) == p.legal_moves()[0]
    assert worst.move not in worst.best_moves
    assert set(worst.best_moves) <= {TTT.format_move(m) for m in p.legal_moves()}
    assert worst.board == p.render()


def test_random_grades_below_one_and_loses_to_perfect():
    g = grade(RandomAgent(), TTT, games=10, seed=3)
    assert 0.4 < g.optimal_move_rate < 0.8
    assert g.as_first.losses + g.as_second.losses > 10
    doc = g.to_json()
    for key in ("optimal_move_rate", "positions", "as_first", "as_second", "blunders"):
        assert key in doc


def test_strict_is_stricter():
    agent = make_agent("minimax:depth=2,tie=first")
    loose = grade(agent, TTT, games=0)
    strict = grade(agent, TTT, games=0, strict=True)
    assert strict.optimal <= loose.optimal


def test_grade_with_a_table_and_a_sample():
    table = build_table(noughts.game("misere(tictactoe)"))
    g = grade("random", "misere(tictactoe)", games=0, oracle=table, sample=200, seed=4)
    assert g.sampled and g.positions == 200
    # every sampled position is a distinct, non-terminal, reachable one
    ps = sample_positions(table.game, 50, np.random.default_rng(0))
    assert len(set(ps)) == len(ps) and not any(p.is_terminal() for p in ps)


def test_scored_rules_grade_by_score():
    g = grade("perfect", "cumulative(tictactoe)", games=2)
    assert g.optimal_move_rate == 1.0


def test_bad_input():
    with pytest.raises(NoughtsError):
        grade("random", TTT, sample=0)
    with pytest.raises(LimitExceeded, match="sample"):
        from noughts.arena import grade as module

        module.reachable_positions(noughts.game("mnk(4,4,4)"), limit=1000)


def test_best_moves_agree_with_grade_for_the_perfect_choice():
    engine = make_engine(TTT)
    p = TTT.parse("x../.o./...")
    assert best_moves(engine, p)
