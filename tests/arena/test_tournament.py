import pytest

from noughts.arena.tournament import pair_seed, play_tournament
from noughts.core import NoughtsError
from noughts.store import Store


def test_round_robin(tmp_path):
    agents = ["perfect", "random", "minimax:depth=1"]
    with Store(tmp_path / "t.db") as store:
        t = play_tournament("tictactoe", agents, games=4, seed=5, store=store)
        assert len(t.matches) == 3 and all(m.games == 4 for m in t.matches)
        assert len(store.match_results(tournament_id=t.tournament_id)) == 12
    rows = {r["agent"]: r for r in t.standings()}
    assert rows["perfect"]["losses"] == 0
    assert all(r["games"] == 8 for r in rows.values())
    assert rows["random"]["rating"] < rows["perfect"]["rating"]
    again = play_tournament("tictactoe", agents, games=4, seed=5)
    assert again.results() == t.results()
    assert t.to_json()["standings"][-1]["agent"] == "random"


def test_pair_seeds_differ():
    assert len({pair_seed(1, i, j) for i in range(4) for j in range(4)}) == 16


def test_bad_input():
    with pytest.raises(NoughtsError):
        play_tournament("tictactoe", ["random"], games=1)
    with pytest.raises(NoughtsError):
        play_tournament("tictactoe", ["random", "random"], games=1)
    with pytest.raises(NoughtsError):
        play_tournament("tictactoe", ["random", "perfect"], games=0)


def test_parallel_tournament_repeats_the_serial_one(tmp_path):
    agents = ["random", "minimax:depth=1", "mcts:sims=100"]
    serial = play_tournament("tictactoe", agents, games=4, seed=9)
    with Store(tmp_path / "p.db") as store:
        parallel = play_tournament("tictactoe", agents, games=4, seed=9, workers=2, store=store)
        assert len(store.match_results(tournament_id=parallel.tournament_id)) == 12
    assert parallel.results() == serial.results()
