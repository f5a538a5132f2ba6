"""The strongest move that is sure to come in time: what the perfect player plays when the exact
solver does not finish within its budget.

:func:`clocked_move` is the perfect player's default fallback (a hook: ``PerfectAgent(fallback=
...)`` takes any callable of the same shape, and the engine agent will take this place). It
never leaves a game without a move:

* a move that wins at once is played at once;
* claim games the MCTS kernel takes (standard, misère, Maker-Breaker and cumulative rules on at
  most 64 cells): MCTS with as many simulations as fit the clock, measured on a short probe
  first (the kernel's time per simulation is steady, so the estimate holds);
* every other game: minimax deepened one ply at a time while the next depth is predicted to
  fit (each depth costs about the last one times the growth seen so far); the deepest finished
  search's move is played.

The searches themselves are not interrupted (they are other modules' and will become anytime
there), so the clock is honoured by these estimates, with a margin; a caller that must hold a
limit whatever happens (the web arena) also runs moves in a process it can kill.
"""

from __future__ import annotations

import time

import numpy as np

from noughts.agents.base import Decision
from noughts.core import Move, NoughtsError, Outcome, Position
from noughts.core.budget import Budget

__all__ = ["MAX_SIMULATIONS", "clocked_move"]

MAX_SIMULATIONS = 200_000
"""The most MCTS simulations one fallback move runs (beyond this, more rarely changes the move)."""

USE = 0.7
"""The share of the time left that a search is planned to take (the rest is the margin)."""


def _winning_move(position: Position) -> Move | None:
    mover = position.to_move
    if position.game.properties.is_scored:
        return None
    for move in position.legal_moves():
        after = position.play(move)
        if after.is_terminal() and after.outcome() is Outcome.win_for(mover):
            return move
    return None


def clocked_move(position: Position, rng: np.random.Generator, budget: Budget) -> Decision:
    """A strong move of ``position`` within ``budget``'s time (see the module docstring); its
    ``proven`` is False and its ``note`` names the search that chose it.
    """
    started = time.perf_counter()
    if position.is_terminal():
        raise NoughtsError("the game is over: there is no move to choose")
    moves = position.legal_moves()
    win = _winning_move(position)
    if win is not None:
        return Decision(win, False, "a move that wins at once", time.perf_counter() - started)
    if len(moves) == 1:
        return Decision(moves[0], False, "the only legal move", time.perf_counter() - started)
    left = budget.remaining()
    seconds = 1.0 if left is None else left
    from noughts.agents import mcts

    if mcts.kernel_supports(position.game):
        move, note = _mcts(position, rng, seconds)
    else:
        move, note = _minimax(position, rng, seconds)
    return Decision(move, False, note, time.perf_counter() - started)


def _mcts(position: Position, rng: np.random.Generator, seconds: float) -> tuple[Move, str]:
    from noughts.agents.mcts import MCTSAgent

    started = time.perf_counter()
    probe_sims = 64
    probe = MCTSAgent(probe_sims).search(position, rng)
    per_sim = max((time.perf_counter() - started) / probe_sims, 1e-7)
    left = seconds - (time.perf_counter() - started)
    sims = int(min(MAX_SIMULATIONS, USE * left / per_sim))
    if sims <= probe_sims:
        return probe.best().move, f"MCTS with {probe_sims} simulations (all the time allowed)"
    result = MCTSAgent(sims).search(position, rng)
    return result.best().move, f"MCTS with {sims:,} simulations"


def _minimax(position: Position, rng: np.random.Generator, seconds: float) -> tuple[Move, str]:
    from noughts.agents.minimax import MinimaxAgent

    started = time.perf_counter()
    width = len(position.legal_moves())
    move: Move | None = None
    depth = 0
    last = growth = 0.0
    while depth < position.game.properties.move_cap:
        elapsed = time.perf_counter() - started
        predicted = elapsed if depth == 0 else last * (growth or width)
        if depth > 0 and elapsed + predicted > USE * seconds:
            break
        t = time.perf_counter()
        agent = MinimaxAgent(depth + 1)
        move = agent.choose(position, rng)
        took = time.perf_counter() - t
        growth = took / last if depth > 0 and last > 0 else 0.0
        last = max(took, 1e-6)
        depth += 1
    assert move is not None
    return move, f"minimax searched {depth} {'ply' if depth == 1 else 'plies'} deep"
