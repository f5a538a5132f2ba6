"""Players: anything with ``choose(position, rng) -> move``.

Agents are named by specs like ``random`` or ``minimax:depth=3`` (see :func:`make_agent`).
"""

from noughts.agents.base import Agent, RandomAgent, agent_names, make_agent

__all__ = ["Agent", "RandomAgent", "agent_names", "make_agent"]
