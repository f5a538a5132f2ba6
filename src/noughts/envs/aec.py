"""A PettingZoo AEC environment for every noughts game, after PettingZoo's classic board games.

Agents are ``player_0`` (the first player) and ``player_1`` (the second), as in PettingZoo's
classic games. ``agent_selection`` is the side to move of the current position, so games in
which one side makes two moves in a row (the veto step and the claim of ``veto(...)`` rules)
need nothing special. Each agent observes a dict:

* ``observation``: the position from that agent's view, as planes
  (:class:`~noughts.envs.observation.ObservationEncoder`);
* ``action_mask``: int8 of length ``game.num_actions``, 1 at each legal action of the agent to
  move, all 0 for the other agent (PettingZoo's convention).

Actions are the game's integer actions (``Discrete(game.num_actions)``). Rewards are 0 until the
game ends, then +1 for the winner, -1 for the loser and 0 each for a draw; under cumulative
rules the winner is the side with the higher score, so the reward is the sign of the score
difference (the score itself is in ``infos`` at the end). The final ``infos`` hold
``outcome`` (``first``, ``second`` or ``draw``).

Games that need not end (marks vanish or move: ``forget``, ``vanishing``, ``morris``) are
truncated: once ``max_plies`` moves have been played (default: the game's
``properties.truncation``, 200) without an end, every agent's ``truncations`` entry becomes
true, the rewards are 0 and the ``infos`` hold ``truncated: True`` (and no outcome).

:func:`raw_env` raises ``IllegalMoveError`` on an illegal action: the rules are not changed to
punish it. :func:`env` wraps it like PettingZoo's own classic environments: an illegal action
ends the game with reward -1 for the agent that made it (PettingZoo's
``TerminateIllegalWrapper``), an action outside the space is an error, and the API order is
enforced.

>>> from noughts.envs.aec import env
>>> e = env("misere(tictactoe)")
>>> e.reset(seed=0)
>>> e.agent_selection, e.observation_space("player_0")["observation"].shape
('player_0', (3, 3, 3))
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from noughts.core import Game, NoughtsError, Outcome, Player, Position
from noughts.core import game as make_game
from noughts.envs.observation import ObservationEncoder

__all__ = ["AGENTS", "NoughtsAECEnv", "env", "raw_env"]

AGENTS = ("player_0", "player_1")
"""The agents' names; ``AGENTS[player]`` for ``Player.FIRST`` (0) and ``Player.SECOND`` (1)."""

RENDER_MODES = ("ansi", "human")


def reward_of(outcome: Outcome, player: Player) -> float:
    """+1 if ``player`` won, -1 if it lost, 0 for a draw."""
    winner = outcome.winner
    if winner is None:
        return 0.0
    return 1.0 if winner == player else -1.0


def action_mask(position: Position) -> npt.NDArray[np.int8]:
    """The legal-action mask of ``position`` as int8 (Gymnasium's ``Discrete.sample`` takes it)."""
    return position.legal_action_mask().astype(np.int8)


def render_text(position: Position) -> str:
    """The board, and who is to move or how the game ended."""
    game = position.game
    outcome = position.outcome()
    if outcome is None:
        status = f"{game.player_label(position.to_move)} to move ({AGENTS[position.to_move]})"
    else:
        status = f"game over: {game.outcome_text(outcome)}"
    return f"{position.render()}\n{status}\n"


class NoughtsAECEnv(AECEnv):  # type: ignore[misc]
    """The raw AEC environment of one game (any spec); see the module docstring."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "noughts_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self, game: Game | str = "tictactoe", render_mode: str | None = None, max_plies: int | None = None
    ):
        super().__init__()
        self.game = make_game(game)
        self.max_plies = self.game.properties.truncation if max_plies is None else max_plies
        """Moves after which a game still running is truncated (None: never; bounded games end)."""
        self.plies = 0
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode is one of {RENDER_MODES} or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.encoder = ObservationEncoder(self.game)
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        n = self.game.num_actions
        obs_space = spaces.Dict(
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
        self.observation_spaces = {a: obs_space for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(n) for a in AGENTS}
        self.position = self.game.start()
        self._init_dicts()

    def _init_dicts(self) -> None:
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[self.position.to_move]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``agent``'s observation: its planes, and its action mask (zeros unless it is to move)."""
        player = Player(AGENTS.index(agent))
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        if agent == self.agent_selection and not self.position.is_terminal():
            mask = action_mask(self.position)
        return {"observation": self.encoder.encode(self.position, player), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. The games have no chance, so ``seed`` changes nothing (accepted as
        the API asks); ``options`` may give ``position``, a position text to start from.
        """
        start = (options or {}).get("position")
        self.position = self.game.start() if start is None else self.game.parse(start)
        if self.position.is_terminal():
            raise NoughtsError(f"cannot start from {start!r}: the game is already over")
        self.plies = 0
        self._init_dicts()

    def step(self, action: int | None) -> None:
        """Play ``action`` for the agent to move (``None`` for an agent whose game is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.position = self.position.play_action(int(action))  # type: ignore[arg-type]
        self.plies += 1
        outcome = self.position.outcome()
        if outcome is not None:
            self._finish(outcome)
        elif self.max_plies is not None and self.plies >= self.max_plies:
            for a in AGENTS:
                self.truncations[a] = True
                self.infos[a] = {"truncated": True}
            self.agent_selection = AGENTS[self.position.to_move]
        else:
            self.agent_selection = AGENTS[self.position.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _finish(self, outcome: Outcome) -> None:
        score = self.position.score()
        for player in Player:
            a = AGENTS[player]
            self.rewards[a] = reward_of(outcome, player)
            self.terminations[a] = True
            info: dict[str, Any] = {"outcome": outcome.value}
            if score is not None:
                info["score"] = (score[player], score[player.other])
            self.infos[a] = info
        self.agent_selection = AGENTS[self.position.to_move]

    def render(self) -> str | None:
        """The board as text: returned in ``ansi`` mode, printed in ``human`` mode."""
        if self.render_mode is None:
            return None
        text = render_text(self.position)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (text rendering only)."""

    def __str__(self) -> str:
        return f"noughts_v0({self.game})"


def raw_env(
    game: Game | str = "tictactoe", render_mode: str | None = None, max_plies: int | None = None
) -> NoughtsAECEnv:
    """The unwrapped environment: an illegal action raises ``IllegalMoveError``."""
    return NoughtsAECEnv(game, render_mode=render_mode, max_plies=max_plies)


def env(
    game: Game | str = "tictactoe", render_mode: str | None = None, max_plies: int | None = None
) -> AECEnv:
    """The environment as PettingZoo's classic games wrap theirs: an illegal action ends the
    game with reward -1 for the agent that made it.
    """
    e: AECEnv = raw_env(game, render_mode=render_mode, max_plies=max_plies)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
