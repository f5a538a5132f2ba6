"""The PettingZoo AEC environment: the library's API test, and play against the reference."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from envs_cases import ENV_GAMES
from pettingzoo.test import api_test

import noughts
from noughts.core import IllegalMoveError, Outcome, Player
from noughts.envs.aec import AGENTS, env, raw_env


@pytest.mark.parametrize("spec", ENV_GAMES)
def test_passes_the_pettingzoo_api_test(spec: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on Dict observations and 4-D boards
        api_test(env(spec), num_cycles=200)
        api_test(raw_env(spec), num_cycles=200)


@pytest.mark.parametrize("spec", ENV_GAMES)
def test_a_game_in_the_env_is_the_game_of_the_rules(spec: str) -> None:
    game = noughts.game(spec)
    rng = random.Random(spec)
    for _ in range(5):
        e = raw_env(spec)
        e.reset(seed=1)
        p = game.start()
        total = dict.fromkeys(AGENTS, 0.0)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _info = e.last()
            total[agent] += reward
            assert not truncated
            if terminated:
                e.step(None)
                continue
            assert agent == AGENTS[p.to_move]
            assert obs["action_mask"].dtype == np.int8
            assert obs["action_mask"].tolist() == p.legal_action_mask().astype(int).tolist()
            other = AGENTS[p.to_move.other]
            assert not e.observe(other)["action_mask"].any()
            assert np.array_equal(obs["observation"], e.encoder.encode(p, p.to_move))
            action = rng.choice(p.legal_actions())
            e.step(action)
            p = p.play_action(action)
        outcome = p.outcome()
        assert outcome is not None
        expected = {Outcome.FIRST: (1.0, -1.0), Outcome.SECOND: (-1.0, 1.0), Outcome.DRAW: (0.0, 0.0)}[
            outcome
        ]
        assert (total["player_0"], total["player_1"]) == expected
        assert e.agents == []


def test_cumulative_rewards_are_the_sign_of_the_score_difference() -> None:
    e = raw_env("cumulative(tictactoe)")
    e.reset(options={"position": "xxx/o.o/xoo"})  # 1-0, x to move: b2 completes the c1-a3 diagonal
    e.step(4)
    assert e.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert e.infos["player_0"] == {"outcome": "first", "score": (2, 0)}
    assert e.infos["player_1"] == {"outcome": "first", "score": (0, 2)}


def test_veto_lets_one_side_move_twice() -> None:
    e = raw_env("veto(tictactoe)")
    e.reset()
    order = []
    for a in (9 + 4, 0, 18):  # o forbids b2, x claims a1, x passes
        order.append(e.agent_selection)
        e.step(a)
    assert order == ["player_1", "player_0", "player_0"]
    assert e.agent_selection == "player_1"


def test_illegal_actions() -> None:
    e = raw_env("tictactoe")
    e.reset()
    e.step(4)
    with pytest.raises(IllegalMoveError, match="taken"):
        e.step(4)
    wrapped = env("tictactoe")
    wrapped.reset()
    wrapped.step(4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(4)  # o repeats x's move: o loses, the game ends
    assert wrapped.terminations == {"player_0": True, "player_1": True}
    assert wrapped.rewards["player_1"] == -1


def test_render_and_bad_options() -> None:
    e = raw_env("tictactoe", render_mode="ansi")
    e.reset()
    e.step(4)
    text = e.render()
    assert isinstance(text, str) and "2 . x ." in text and "o to move (player_1)" in text
    with pytest.raises(noughts.NoughtsError, match="already over"):
        e.reset(options={"position": "xxx/oo./..."})
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("tictactoe", render_mode="rgb_array")
    assert Player.FIRST == 0 and AGENTS[Player.FIRST] == "player_0"
