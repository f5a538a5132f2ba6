"""The agents a dataset grades: every agent spec noughts knows, and a Python callable.

``module:function`` (or ``py:module:function``) names a function ``f(position) -> move`` (a
move or its text in the game's notation), imported from the module; the part before the
colon must not be an agent name of noughts. Everything else is :func:`noughts.agents.make_agent`'s.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

import numpy as np

from noughts.core import Move, NoughtsError, Position

__all__ = ["CallableAgent", "grading_agent"]

_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


class CallableAgent:
    """An agent from a plain function of a position."""

    def __init__(self, function: Any, name: str):
        self.function = function
        self.name = name

    def choose(self, position: Position, rng: np.random.Generator) -> Move:
        move = self.function(position)
        if isinstance(move, str):
            try:
                move = position.game.parse_move(move)
            except (NoughtsError, ValueError) as e:
                raise NoughtsError(
                    f"{self.name} returned {move!r}, not a move of {position.game} ({e})"
                ) from None
        return move  # type: ignore[no-any-return]


def grading_agent(spec: str) -> tuple[Any, str]:
    """The agent of ``spec`` and its name; ``NoughtsError`` if there is none."""
    from noughts.agents import agent_names, make_agent

    text = spec.strip()
    head, colon, rest = text.partition(":")
    if head == "py":
        head, colon, rest = rest.partition(":")
    elif head in agent_names() or not colon:
        return make_agent(text), text
    if not (colon and _DOTTED.fullmatch(head) and rest.isidentifier()):
        return make_agent(text), text  # its error says what is wrong
    try:
        module = importlib.import_module(head)
    except ImportError as e:
        raise NoughtsError(f"cannot import {head!r} for the agent {text!r}: {e}") from None
    function = getattr(module, rest, None)
    if not callable(function):
        raise NoughtsError(f"{head!r} has no function {rest!r} (the agent {text!r})")
    return CallableAgent(function, text), text
