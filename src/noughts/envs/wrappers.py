"""Gymnasium wrappers for :class:`~noughts.envs.gym_env.NoughtsEnv`: what to do with an illegal
action, and reward shaping. Both live here, outside the rules, so the game stays the game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

from noughts.core import NoughtsError, Player, Position

__all__ = ["IllegalActionWrapper", "PotentialShaping", "open_lines", "score_lead"]

Obs = dict[str, Any]


class IllegalActionWrapper(gymnasium.Wrapper[Obs, int, Obs, int]):
    """An illegal action (one the last observation's ``action_mask`` rules out) ends the episode
    at once with reward ``illegal_reward`` (default -1, a loss) and ``info["illegal_action"]``
    true; the position does not change. Legal actions pass through untouched.

    The mask is the one the environment last returned (observation or info), so the wrapper
    works with any environment that returns ``action_mask``.
    """

    def __init__(self, env: gymnasium.Env[Obs, int], illegal_reward: float = -1.0):
        super().__init__(env)
        self.illegal_reward = float(illegal_reward)
        self._last_obs: Obs | None = None
        self._over = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        self._last_obs, self._over = obs, False
        return obs, info

    def step(self, action: int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        if self._last_obs is None or self._over:
            raise NoughtsError("the episode is over: call reset() to start another")
        mask = self._last_obs["action_mask"]
        a = int(action)
        if not (0 <= a < len(mask) and mask[a]):
            self._over = True
            obs = {k: np.array(v, copy=True) for k, v in self._last_obs.items()}
            obs["action_mask"][:] = 0
            info = {"action_mask": obs["action_mask"].copy(), "illegal_action": True}
            return obs, self.illegal_reward, True, False, info
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._last_obs, self._over = obs, terminated or truncated
        return obs, float(reward), terminated, truncated, dict(info)


Potential = Callable[[Position, Player], float]
"""A potential: a position and the learner -> a number (0 at the end of the game is enforced)."""


class PotentialShaping(gymnasium.Wrapper[Obs, int, Obs, int]):
    """Potential-based reward shaping (Ng, Harada and Russell, *Policy invariance under reward
    transformations*, ICML 1999): each step's reward gains ``gamma * phi(s') - phi(s)``, where
    ``phi`` is a potential of the position from the learner's view and ``phi`` is 0 once the
    game is over. The shaping terms of an episode telescope, so the optimal policies are those
    of the unshaped game; the potential only speeds learning up. ``info["shaping"]`` holds the
    term added. Use ``gamma`` equal to the learner's discount.

    Example potentials: :func:`score_lead` (cumulative rules) and :func:`open_lines`.
    """

    def __init__(self, env: gymnasium.Env[Obs, int], potential: Potential, gamma: float = 1.0):
        super().__init__(env)
        self.potential = potential
        self.gamma = float(gamma)
        self._phi = 0.0

    def _potential(self) -> float:
        base = self.env.unwrapped
        position: Position = base.position  # type: ignore[attr-defined]
        if position.is_terminal():
            return 0.0
        return float(self.potential(position, base.learner))  # type: ignore[attr-defined]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        self._phi = self._potential()
        return obs, info

    def step(self, action: int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        phi = 0.0 if terminated else self._potential()
        shaping = self.gamma * phi - self._phi
        self._phi = phi
        info = dict(info, shaping=shaping)
        return obs, float(reward) + shaping, terminated, truncated, info


def _claim_bits(position: Position) -> tuple[int, int]:
    if position.game.line_rule is None:  # no cell belongs to one player (Notakto)
        raise NoughtsError(f"no cell ownership in {position.game}")
    return position.cell_masks()


def score_lead(position: Position, player: Player) -> float:
    """Cumulative rules: ``player``'s score minus the opponent's, over the number of lines."""
    game = position.game
    if not game.properties.is_scored:
        raise NoughtsError(f"score_lead needs cumulative rules, not {game}")
    score = position.score()
    assert score is not None
    return (score[player] - score[player.other]) / len(game.board.lines)


def open_lines(position: Position, player: Player) -> float:
    """Claim games: (lines ``player`` can still complete - lines the opponent can) / lines.

    A line is open for a side while the other side holds none of its cells.
    """
    bits = _claim_bits(position)
    mine, theirs = bits[player], bits[player.other]
    masks = position.game.board.line_masks
    own = sum(1 for m in masks if not m & theirs)
    opp = sum(1 for m in masks if not m & mine)
    return (own - opp) / len(masks)
