"""What the benchmark holds: one plan per game (how many positions, drawn how, labelled how).

The games are the family's reach of the exact solver: tic-tac-toe and its rule variants
(misère, Maker-Breaker) and Notakto on one board, listed whole up to symmetry; mnk(4,4,4) and
its variants, mnk(5,5,4), mnk(6,6,4), hypercube(3,3), Qubic (hypercube(4,3)) past its opening,
Notakto on two, three and four boards, drawn from varied play; forget(tictactoe), a game whose
positions repeat, listed whole from the retrograde table. ``scale`` multiplies every target
(``noughts dataset build --scale 0.1`` for a quick set).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PLANS", "STYLES", "Plan", "plan_for"]

STYLES = ("random", "noisy:0.5", "noisy:0.9", "agent")
"""How a game of the walk picks its moves: uniformly at random; a value-keeping move with
probability 0.5 or 0.9, else a random one (the labels of the position just labelled tell
which moves keep the value); or the plan's agents (one per game, in turn)."""


@dataclass(frozen=True)
class Plan:
    """How one game's positions are drawn and labelled.

    ``exhaustive``: every reachable position, one per symmetry class, breadth first (at most
    ``target``). Otherwise games are walked from the start, their moves picked by the
    :data:`STYLES` in turn, the first ``opening`` plies uniformly at random (varied
    openings); positions from ply ``min_ply`` on are labelled. ``per_position`` is the solver's
    budget for one position (seconds; a position it cannot finish is skipped and counted);
    ``engine`` the solver's engine (``auto``: its policy; ``proof``: the proof engine, which
    proves who wins, not in how many plies).
    """

    spec: str
    target: int
    exhaustive: bool = False
    opening: int = 0
    min_ply: int = 0
    per_position: float = 5.0
    engine: str = "auto"
    agents: tuple[str, ...] = ("minimax:depth=2", "mcts:sims=200")

    def scaled(self, scale: float) -> Plan:
        """The plan with its target multiplied by ``scale`` (at least one position)."""
        return Plan(
            self.spec,
            max(1, round(self.target * scale)),
            self.exhaustive,
            self.opening,
            self.min_ply,
            self.per_position,
            self.engine,
            self.agents,
        )


PLANS: tuple[Plan, ...] = (
    Plan("mnk(3,3,3)", 10_000, exhaustive=True),
    Plan("misere(mnk(3,3,3))", 10_000, exhaustive=True),
    Plan("maker_breaker(mnk(3,3,3))", 10_000, exhaustive=True),
    Plan("notakto", 10_000, exhaustive=True),
    Plan("forget(mnk(3,3,3))", 20_000, exhaustive=True),
    Plan("mnk(4,4,4)", 30_000, opening=2),
    Plan("misere(mnk(4,4,4))", 5_000, opening=2),
    Plan("maker_breaker(mnk(4,4,4))", 5_000, opening=2),
    Plan("hypercube(3,3)", 20_000, opening=1),
    Plan("notakto(boards=2)", 10_000, opening=1),
    Plan("notakto(boards=3)", 10_000, opening=1),
    Plan("notakto(boards=4)", 5_000, opening=1),
    Plan("mnk(5,5,4)", 6_000, opening=3, min_ply=4, per_position=4.0),
    Plan("mnk(6,6,4)", 2_000, opening=4, min_ply=8, per_position=3.0, agents=("minimax:depth=1",)),
    Plan(
        "hypercube(4,3)",
        300,
        opening=4,
        min_ply=10,
        per_position=4.0,
        engine="proof",
        agents=("minimax:depth=1",),
    ),
)
"""The default build: 100,911 positions over 15 games with seed 0 (the specs are canonical;
the walk on two Notakto boards meets 1,138 classes and stops there)."""


def plan_for(spec: str) -> Plan | None:
    """The plan of the game ``spec`` (a canonical spec), or None."""
    return next((p for p in PLANS if p.spec == spec), None)
