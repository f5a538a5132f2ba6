"""A Gymnasium environment: the learner plays one side of a noughts game against a fixed agent.

The opponent is any noughts agent (a spec for :func:`noughts.agents.make_agent`, such as
``random``, ``perfect`` or ``minimax:depth=3``, or an agent object); it draws its random
choices from the environment's ``np_random``, so ``reset(seed=...)`` makes an episode repeat
exactly. ``side`` says which side the learner plays: ``first``, ``second`` or ``random`` (drawn
at each reset); ``reset(options={"side": ...})`` overrides it for one episode.

* Observation: a dict with ``observation`` (the position from the learner's view, as planes;
  see :class:`~noughts.envs.observation.ObservationEncoder`) and ``action_mask`` (int8, 1 at
  each legal action). ``info["action_mask"]`` holds the same mask, ``info["side"]`` the
  learner's side.
* Action: the game's integer action, ``Discrete(game.num_actions)``. The opponent's replies are
  played inside ``step`` until it is the learner's turn again (under veto rules a side can have
  two steps in a row: then ``step`` returns at once).
* Reward: 0 until the end, then +1 if the learner won, -1 if it lost, 0 for a draw (cumulative
  rules: the sign of the score difference). ``terminated`` is true at the end of the game. A
  bounded game always ends, so ``truncated`` stays false; a game that need not end (``forget``,
  ``vanishing``, ``morris``) is truncated once ``max_plies`` moves of both sides have been played
  without an end (default: the game's ``properties.truncation``, 200): ``truncated`` is true,
  the reward 0 and ``info["truncated"]`` true. The final ``info`` of a finished game adds
  ``outcome`` (``first``, ``second`` or ``draw``) and, under cumulative rules, ``score``
  (learner's, opponent's).

:class:`NoughtsEnv` raises ``IllegalMoveError`` on an illegal action; the rules do not change to
punish it. :func:`make_env`, and the registered ids, wrap it in
:class:`~noughts.envs.wrappers.IllegalActionWrapper` (an illegal action loses the game).

Registered ids (``import noughts.envs.gym_env`` first, or prefix the id with
``noughts.envs.gym_env:``): ``noughts/TicTacToe-v0`` and ``noughts/Game-v0`` (pass ``game=``,
any spec), each taking ``opponent``, ``side``, ``render_mode``, ``illegal_reward`` and ``max_plies``.

>>> import gymnasium as gym
>>> env = gym.make("noughts.envs.gym_env:noughts/Game-v0", game="misere(mnk(4,4,4))", opponent="random")
>>> obs, info = env.reset(seed=7)
>>> obs["observation"].shape, int(obs["action_mask"].sum()), info["side"]
((4, 4, 3), 16, 'first')
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from noughts.agents import Agent, make_agent
from noughts.core import Game, NoughtsError, Player, Position
from noughts.core import game as make_game
from noughts.envs.aec import RENDER_MODES, action_mask, render_text, reward_of
from noughts.envs.observation import ObservationEncoder

__all__ = ["SIDES", "NoughtsEnv", "make_env", "register_envs"]

SIDES = ("first", "second", "random")

Obs = dict[str, Any]


class NoughtsEnv(gymnasium.Env[Obs, Any]):
    """One side of a noughts game against a fixed agent; see the module docstring."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012 (Gymnasium declares it so)

    def __init__(
        self,
        game: Game | str = "tictactoe",
        opponent: Agent | str = "random",
        side: str = "first",
        render_mode: str | None = None,
        max_plies: int | None = None,
    ):
        self.game = make_game(game)
        self.max_plies = self.game.properties.truncation if max_plies is None else max_plies
        """Moves (both sides') after which a running game is truncated; None: never."""
        self.plies = 0
        self.opponent = make_agent(opponent) if isinstance(opponent, str) else opponent
        if side not in SIDES:
            raise NoughtsError(f"side is one of {', '.join(SIDES)}, not {side!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise NoughtsError(
                f"render_mode is one of {', '.join(RENDER_MODES)} or None, not {render_mode!r}"
            )
        self.side = side
        self.render_mode = render_mode
        self.encoder = ObservationEncoder(self.game)
        n = self.game.num_actions
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=0.0,
                    high=np.broadcast_to(self.encoder.high, self.encoder.shape).copy(),
                    shape=self.encoder.shape,
                    dtype=np.float32,
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(n)
        self.position: Position = self.game.start()
        self.learner = Player.FIRST

    # -- helpers --------------------------------------------------------------------------------

    def _observation(self) -> Obs:
        p = self.position
        mask = np.zeros(self.game.num_actions, dtype=np.int8) if p.is_terminal() else action_mask(p)
        return {"observation": self.encoder.encode(p, self.learner), "action_mask": mask}

    def _info(self, obs: Obs) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": obs["action_mask"].copy(), "side": str(self.learner)}
        outcome = self.position.outcome()
        if outcome is not None:
            info["outcome"] = outcome.value
            score = self.position.score()
            if score is not None:
                info["score"] = (score[self.learner], score[self.learner.other])
        return info

    def _truncated(self) -> bool:
        return self.max_plies is not None and self.plies >= self.max_plies and not self.position.is_terminal()

    def _opponent_moves(self) -> None:
        while (
            not self.position.is_terminal()
            and self.position.to_move != self.learner
            and not self._truncated()
        ):
            move = self.opponent.choose(self.position, self.np_random)
            self.position = self.position.play(move)
            self.plies += 1

    # -- the Gymnasium API ----------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Start a game; the opponent moves first when the learner plays second."""
        super().reset(seed=seed)
        side = (options or {}).get("side", self.side)
        if side not in SIDES:
            raise NoughtsError(f"side is one of {', '.join(SIDES)}, not {side!r}")
        if side == "random":
            side = SIDES[int(self.np_random.integers(2))]
        self.learner = Player.FIRST if side == "first" else Player.SECOND
        self.position = self.game.start()
        self.plies = 0
        self._opponent_moves()
        obs = self._observation()
        if self.render_mode == "human":
            self.render()
        return obs, self._info(obs)

    def step(self, action: int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action``, then the opponent's replies."""
        if self.position.is_terminal() or self._truncated():
            raise NoughtsError("the game is over: call reset() to start another")
        self.position = self.position.play_action(int(action))
        self.plies += 1
        self._opponent_moves()
        outcome = self.position.outcome()
        reward = 0.0 if outcome is None else reward_of(outcome, self.learner)
        obs = self._observation()
        truncated = self._truncated()
        if self.render_mode == "human":
            self.render()
        info = self._info(obs)
        if truncated:
            info["truncated"] = True
        return obs, reward, outcome is not None, truncated, info

    def render(self) -> str | None:
        """The board as text: returned in ``ansi`` mode, printed in ``human`` mode."""
        if self.render_mode is None:
            return None
        text = render_text(self.position)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def make_env(
    game: Game | str = "tictactoe",
    opponent: Agent | str = "random",
    side: str = "first",
    render_mode: str | None = None,
    illegal_reward: float | None = -1.0,
    max_plies: int | None = None,
) -> gymnasium.Env[Obs, Any]:
    """:class:`NoughtsEnv` in an :class:`~noughts.envs.wrappers.IllegalActionWrapper` (an
    illegal action ends the episode with ``illegal_reward``); ``illegal_reward=None`` gives the
    bare environment, which raises ``IllegalMoveError`` instead.
    """
    from noughts.envs.wrappers import IllegalActionWrapper

    env = NoughtsEnv(game, opponent=opponent, side=side, render_mode=render_mode, max_plies=max_plies)
    if illegal_reward is None:
        return env
    return IllegalActionWrapper(env, illegal_reward=illegal_reward)


def register_envs() -> None:
    """Register ``noughts/TicTacToe-v0`` and ``noughts/Game-v0`` with Gymnasium (once)."""
    registered = gymnasium.registry
    for env_id, kwargs in (("noughts/TicTacToe-v0", {"game": "tictactoe"}), ("noughts/Game-v0", {})):
        if env_id not in registered:
            gymnasium.register(env_id, entry_point="noughts.envs.gym_env:make_env", kwargs=kwargs)


register_envs()
