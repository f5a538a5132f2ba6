"""The Gymnasium environment and its wrappers: the library's checker, and play by the rules."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from envs_cases import ENV_GAMES
from gymnasium.utils.env_checker import check_env

import noughts
from noughts.agents import RandomAgent
from noughts.core import IllegalMoveError, NoughtsError, Player
from noughts.envs.gym_env import NoughtsEnv, make_env
from noughts.envs.wrappers import IllegalActionWrapper, PotentialShaping, open_lines, score_lead


@pytest.mark.parametrize("spec", ENV_GAMES)
def test_passes_the_gymnasium_env_checker(spec: str) -> None:
    with warnings.catch_warnings():
        # it advises checking the unwrapped env, which raises on illegal actions
        warnings.simplefilter("ignore")
        check_env(make_env(spec, side="random"), skip_render_check=True)
        made = gymnasium.make("noughts/Game-v0", game=spec, side="second", render_mode="ansi")
        check_env(made)


def _episode(env: gymnasium.Env, seed: int, policy_seed: int) -> list[tuple]:
    rng = np.random.default_rng(policy_seed)
    obs, _ = env.reset(seed=seed)
    trace = [obs["observation"].tobytes()]
    while True:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, _ = env.step(action)
        trace.append((obs["observation"].tobytes(), reward, terminated, truncated))
        if terminated or truncated:
            return trace


def test_a_seed_repeats_an_episode() -> None:
    env = NoughtsEnv("mnk(4,4,4)", opponent="random", side="random")
    assert _episode(env, 5, 1) == _episode(env, 5, 1)
    assert len({str(_episode(env, s, 1)) for s in range(6)}) > 1


class Recording:
    """A random agent that remembers its moves."""

    name = "recording"

    def __init__(self) -> None:
        self.moves: list = []

    def choose(self, position, rng):
        move = RandomAgent().choose(position, rng)
        self.moves.append(move)
        return move


@pytest.mark.parametrize("spec", ENV_GAMES)
def test_episodes_follow_the_rules(spec: str) -> None:
    opponent = Recording()
    env = NoughtsEnv(spec, opponent=opponent, side="random")
    rng = np.random.default_rng(0)
    for seed in range(4):
        obs, info = env.reset(seed=seed)
        learner = Player.FIRST if info["side"] == "first" else Player.SECOND
        terminated = False
        while not terminated:
            p = env.position
            assert p.to_move == learner and not p.is_terminal()
            assert obs["action_mask"].tolist() == p.legal_action_mask().astype(int).tolist()
            assert np.array_equal(obs["action_mask"], info["action_mask"])
            assert np.array_equal(obs["observation"], env.encoder.encode(p, learner))
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            opponent.moves.clear()
            obs, reward, terminated, truncated, info = env.step(action)
            assert not truncated
            q = p.play_action(action)
            for move in opponent.moves:
                assert q.to_move != learner
                q = q.play(move)
            assert env.position == q
        outcome = env.position.outcome()
        assert outcome is not None and info["outcome"] == outcome.value
        winner = outcome.winner
        assert reward == (0.0 if winner is None else 1.0 if winner == learner else -1.0)
        with pytest.raises(NoughtsError, match="reset"):
            env.step(0)


def test_the_opponent_moves_first_when_the_learner_plays_second() -> None:
    env = NoughtsEnv("tictactoe", opponent="random", side="first")
    obs, info = env.reset(seed=0, options={"side": "second"})
    assert info["side"] == "second" and obs["action_mask"].sum() == 8
    assert obs["observation"][..., 1].sum() == 1 and obs["observation"][..., 0].sum() == 0


def test_no_learner_beats_the_perfect_player_at_tictactoe() -> None:
    env = NoughtsEnv("tictactoe", opponent="perfect:tie=random", side="random")
    rewards = [_episode(env, s, s)[-1][1] for s in range(12)]
    assert max(rewards) <= 0 and min(rewards) == -1


def test_illegal_actions_raise_or_lose() -> None:
    raw = NoughtsEnv("tictactoe")
    raw.reset(seed=0)
    raw.step(4)
    with pytest.raises(IllegalMoveError):
        raw.step(4)
    env = IllegalActionWrapper(NoughtsEnv("tictactoe"), illegal_reward=-2)
    obs, _ = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(4)
    taken = int(np.flatnonzero(obs["action_mask"] == 0)[-1])
    obs, reward, terminated, truncated, info = env.step(taken)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-2.0, True, False, True)
    assert not obs["action_mask"].any()
    with pytest.raises(NoughtsError, match="reset"):
        env.step(0)
    assert env.unwrapped.position.outcome() is None  # the rules were not bent: the game did not end


def test_potential_shaping_telescopes() -> None:
    for spec, potential in (("cumulative(mnk(4,4,3))", score_lead), ("mnk(4,4,3)", open_lines)):
        base = NoughtsEnv(spec, opponent="random", side="random")
        shaped = PotentialShaping(NoughtsEnv(spec, opponent="random", side="random"), potential)
        for seed in range(3):
            plain = _episode(base, seed, seed)
            with_shaping = _episode(shaped, seed, seed)
            shaped.reset(seed=seed)
            phi0 = shaped._phi
            assert [t[0] for t in plain] == [t[0] for t in with_shaping]
            total = sum(t[1] for t in with_shaping[1:])
            assert total == pytest.approx(plain[-1][1] - phi0)


def test_example_potentials() -> None:
    g = noughts.game("cumulative(tictactoe)")
    p = g.parse("xxx/oo./...")
    assert score_lead(p, Player.FIRST) == pytest.approx(1 / 8)
    assert score_lead(p, Player.SECOND) == pytest.approx(-1 / 8)
    q = noughts.game("tictactoe").parse("x../.../...")
    # x's corner leaves o 5 open lines and x all 8: (8 - 5) / 8
    assert open_lines(q, Player.FIRST) == pytest.approx(3 / 8)
    with pytest.raises(NoughtsError, match="cumulative"):
        score_lead(q, Player.FIRST)


def test_registered_ids_and_bad_arguments() -> None:
    env = gymnasium.make("noughts/TicTacToe-v0", render_mode="ansi")
    env.reset(seed=0)
    assert "a b c" in env.render()
    with pytest.raises(NoughtsError, match="side"):
        NoughtsEnv("tictactoe", side="left")
    with pytest.raises(NoughtsError, match="unknown agent"):
        NoughtsEnv("tictactoe", opponent="nobody")
    with pytest.raises(noughts.SpecError):
        NoughtsEnv("mnk(0,3,3)")
