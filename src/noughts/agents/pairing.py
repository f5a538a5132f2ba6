"""The pairing player: answers each move with its partner (002 §3.1, 000 §3.1.1).

Specs: ``pairing`` finds its own pairing; ``pairing:file=FILE`` follows a saved one
(``noughts pairing find --save FILE`` writes such a file). Until ``make_agent`` stops sending
every spec that ends in ``.json`` to the saved-agent loader, give the file another ending
(``p.pairing``) in a spec; :func:`from_options` itself takes any name.

What it plays, in order (see :mod:`noughts.pairing.verify` for the rule in full):

1. with a pairing, the pairing rule: the partner of the opponent's cell in a pair whose other
   cell is free; otherwise the fallback (a free unpaired cell on the most survivors, else a
   cell of a pair still wholly free, on the most survivors; ties to the lowest cell);
2. without a file, the pairing is found by matching (:func:`~noughts.pairing.matching.find_pairing`)
   the first time one exists for the agent as the breaking side (re-found when the kept one no
   longer fits: the position is of another game, or the opponent owns both cells of a pair);
3. while no pairing exists, the Erdős-Selfridge potential move: the cell whose claim removes
   the most danger (:func:`~noughts.pairing.potential.potential_move`).

Every choice is deterministic; ``rng`` is not used.

>>> import noughts, numpy as np
>>> g = noughts.game("mnk(5,5,5)")
>>> agent = from_options()
>>> p = g.start().play(g.parse_move("a1"))
>>> p.play(agent.choose(p, np.random.default_rng(0))).text().count("o")
1
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from noughts.agents.base import read_options
from noughts.core import Game, Move, NoughtsError, Position
from noughts.pairing.files import load_pairing
from noughts.pairing.hypergraph import check_breaker
from noughts.pairing.matching import Pairing, find_pairing
from noughts.pairing.potential import potential_move
from noughts.pairing.verify import pairing_move

__all__ = ["PairingAgent", "from_options"]


class PairingAgent:
    """Plays a pairing strategy; see the module docstring."""

    def __init__(self, pairing: Pairing | None = None, name: str = "pairing"):
        self.fixed = pairing
        self.name = name
        self._found: dict[Game, Pairing] = {}
        self.last_reason = ""

    def check_game(self, game: Game) -> None:
        """``NoughtsError`` unless pairings apply to ``game`` (rules with a breaking side; a
        saved pairing's own game).
        """
        check_breaker(game, None)
        if self.fixed is not None and self.fixed.position.game != game:
            raise NoughtsError(f"this pairing is one of {self.fixed.position.game}, not of {game}")

    def _fits(self, pairing: Pairing, position: Position) -> bool:
        if pairing.position.game != position.game or pairing.breaker is not position.to_move:
            return False
        theirs = position.owned(position.to_move.other)
        return not any(theirs >> a & 1 and theirs >> b & 1 for a, b in pairing.pairs)

    def pairing_for(self, position: Position) -> Pairing | None:
        """The pairing the agent follows in ``position``, or None while none exists."""
        if self.fixed is not None:
            if self.fixed.position.game != position.game:
                raise NoughtsError(
                    f"this pairing is one of {self.fixed.position.game}, not of {position.game}"
                )
            if self.fixed.breaker is not position.to_move:
                raise NoughtsError(
                    f"this pairing is the {self.fixed.breaker.name.lower()} player's, "
                    f"but the {position.to_move.name.lower()} player is to move"
                )
            return self.fixed
        kept = self._found.get(position.game)
        if kept is not None and self._fits(kept, position):
            return kept
        found = find_pairing(position, position.to_move)
        if found.pairing is None:
            self._found.pop(position.game, None)
            return None
        self._found[position.game] = found.pairing
        return found.pairing

    def choose(self, position: Position, rng: np.random.Generator) -> Move:
        if position.is_terminal():
            raise NoughtsError("the game is over: there is no move to choose")
        pairing = self.pairing_for(position)
        if pairing is None:
            self.last_reason = "potential"
            return potential_move(position, position.to_move)
        move, answered = pairing_move(position, pairing.partner, position.to_move)
        self.last_reason = "answer" if answered else "fallback"
        return move

    def __repr__(self) -> str:
        return f"PairingAgent({self.name!r})"


def from_options(**options: str) -> PairingAgent:
    """The agent of a spec ``pairing`` or ``pairing:file=PAIRING.json``."""
    path = read_options("pairing", options, {"file": str}).get("file")
    if path is None:
        return PairingAgent()
    return PairingAgent(load_pairing(Path(path)), name=f"pairing:file={path}")
