import pytest

import noughts
from noughts.agents import RandomAgent
from noughts.arena.match import elo_from_score, play_game, play_match, score_interval, wilson_interval
from noughts.core import IllegalMoveError, NoughtsError, Outcome
from noughts.store import Store


def test_swap_and_repeat():
    a = play_match("tictactoe", "random", "minimax:depth=2", games=10, seed=7)
    b = play_match("tictactoe", "random", "minimax:depth=2", games=10, seed=7)
    assert a.played == b.played
    assert [g.first for g in a.played] == ["A", "B"] * 5
    c = play_match("tictactoe", "random", "minimax:depth=2", games=10, seed=8)
    assert c.played != a.played
    no_swap = play_match("tictactoe", "random", "random", games=4, seed=1, swap=False)
    assert all(g.first == "A" for g in no_swap.played)


def test_tally_and_json():
    r = play_match("tictactoe", "perfect", "random", games=20, seed=2)
    doc = r.to_json()
    assert doc["a_wins"] + doc["draws"] + doc["b_wins"] == 20 == doc["games"]
    assert doc["b_wins"] == 0
    assert doc["a_as_first"]["games"] == doc["a_as_second"]["games"] == 10
    assert sum(doc["outcomes_by_side"].values()) == 20
    lo, hi = doc["a_score_ci"]
    assert lo <= doc["a_score"] <= hi
    assert doc["a_score"] == (doc["a_wins"] + doc["draws"] / 2) / 20


def test_records_in_the_store(tmp_path):
    with Store(tmp_path / "s.db") as store:
        r = play_match("tictactoe", "random", "random", games=6, seed=3, store=store)
        assert store.match(r.match_id).games == 6
        games = store.games(match_id=r.match_id)
        assert all(g.status == "finished" and g.source == "match" for g in games)
        by_index = {g.metadata["index"]: g for g in games}
        for played in r.played:
            rec = by_index[played.index]
            assert rec.moves == list(played.moves) and rec.outcome == played.outcome.value
            # the recorded moves replay to the recorded outcome
            p = noughts.game("tictactoe").start()
            for m in rec.moves:
                p = p.play(p.game.parse_move(m))
            assert p.outcome() is played.outcome


def test_intervals():
    lo, hi = wilson_interval(0, 10)
    assert lo == 0 and 0.2 < hi < 0.35  # Wilson: 0/10 -> upper about 0.28
    assert score_interval(10, 0, 0)[1] == 1.0 and score_interval(10, 0, 0)[0] < 1
    lo, hi = score_interval(30, 40, 30)
    assert lo < 0.5 < hi and hi - lo < 0.2
    assert elo_from_score(0.5) == 0 and round(elo_from_score(0.75)) == 191


class Cheater:
    name = "cheater"

    def choose(self, position, rng):
        return 0


def test_illegal_moves_are_named():
    g = noughts.game("tictactoe")
    import numpy as np

    with pytest.raises(IllegalMoveError, match="cheater"):
        play_game(RandomAgent(), Cheater(), g.start(), np.random.default_rng(0))
    with pytest.raises(NoughtsError):
        play_match("tictactoe", "random", "random", games=0)


def test_outcome_values():
    assert {o.value for o in Outcome} == {"first", "second", "draw"}
