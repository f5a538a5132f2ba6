"""Environments over games that need not end: the libraries' checkers, truncation, and the
observation planes of vanishing marks and Morris."""

from __future__ import annotations

import random
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import noughts
from noughts.core import FadingGame, MorrisGame, Player
from noughts.envs.aec import env, raw_env
from noughts.envs.gym_env import NoughtsEnv, make_env
from noughts.envs.observation import ObservationEncoder

LOOPY = ["forget(tictactoe)", 'forget(tictactoe,count="plies")', "vanishing(mnk(4,4,4),keep=4)", "morris"]


@pytest.mark.parametrize("spec", LOOPY)
def test_the_libraries_checkers_pass(spec: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(make_env(spec, side="random"), skip_render_check=True)
        check_env(gymnasium.make("noughts/Game-v0", game=spec, side="second", render_mode="ansi"))
        api_test(env(spec), num_cycles=300)
        api_test(raw_env(spec, max_plies=7), num_cycles=50)


def test_gymnasium_truncates_at_the_cap() -> None:
    game = noughts.game('forget(tictactoe,count="plies")')  # nobody can ever win
    e = NoughtsEnv(game, opponent="random", side="first")
    assert e.max_plies == game.properties.truncation == noughts.core.TRUNCATION
    obs, _ = e.reset(seed=1)
    rng = np.random.default_rng(0)
    steps = 0
    while True:
        obs, reward, terminated, truncated, info = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        if terminated or truncated:
            break
    assert truncated and not terminated and reward == 0.0 and info["truncated"]
    assert e.plies == game.properties.truncation and steps == e.plies // 2
    with pytest.raises(noughts.NoughtsError, match="reset"):
        e.step(0)
    short = NoughtsEnv(game, opponent="random", side="second", max_plies=5)
    obs, _ = short.reset(seed=2)
    flags = []
    for _ in range(2):  # the opponent's first move, then two moves each: five plies
        obs, _, terminated, truncated, _ = short.step(int(np.flatnonzero(obs["action_mask"])[0]))
        flags.append(truncated)
    assert flags == [False, True] and short.plies == 5
    bounded = NoughtsEnv("tictactoe", opponent="random")
    assert bounded.max_plies is None


def test_pettingzoo_truncates_at_the_cap() -> None:
    e = raw_env('forget(tictactoe,count="plies")', max_plies=10)  # nobody can win
    e.reset()
    rng = random.Random(4)
    plies = 0
    for _agent in e.agent_iter():
        _, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0.0 and info == {"truncated": True}
            e.step(None)
            continue
        e.step(rng.choice(e.position.legal_actions()))
        plies += 1
    assert plies == 10 and e.agents == []


@pytest.mark.parametrize(
    "spec", ["forget(tictactoe)", 'vanishing(tictactoe,judge="before")', "forget(mnk(3,4,3),turns=2)"]
)
def test_fading_planes_are_the_lifetimes_and_the_leaving_mark(spec: str) -> None:
    game = noughts.game(spec)
    assert isinstance(game, FadingGame)
    enc = ObservationEncoder(game)
    names = enc.plane_names
    assert names == ("own", "opponent", "lifetime", "leaving", "is_first")
    rng = random.Random(spec)
    p = game.start()
    for _ in range(40):
        for player in Player:
            obs = enc.encode(p, player)
            assert (obs >= 0).all() and (obs <= enc.high).all()
            for cell in range(game.board.num_cells):
                at = game.board.coords[cell]
                assert obs[(*at, 0)] == bool(p.owned(player) >> cell & 1)
                assert obs[(*at, 1)] == bool(p.owned(player.other) >> cell & 1)
                left = game.lifetimes(p).get(cell)
                assert obs[(*at, 2)] == pytest.approx(0.0 if left is None else max(left, 0) / game.lifetime)
                assert obs[(*at, 3)] == (cell == game.leaving(p))
        if p.is_terminal():
            break
        p = p.play(rng.choice(p.legal_moves()))


def test_morris_planes_hold_the_marks_in_hand() -> None:
    game = noughts.game("morris")
    assert isinstance(game, MorrisGame)
    enc = ObservationEncoder(game)
    assert enc.plane_names == ("own", "opponent", "own_in_hand", "opponent_in_hand", "is_first")
    p = game.start()
    for expected in ((3, 3), (2, 3), (2, 2)):
        obs = enc.encode(p, Player.FIRST)
        assert (obs[..., 2] == expected[0]).all() and (obs[..., 3] == expected[1]).all()
        p = p.play(p.legal_moves()[0])
