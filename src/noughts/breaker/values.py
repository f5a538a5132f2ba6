"""The Breaker prover as an engine of values: what ``noughts solve`` asks it.

:class:`BreakerValues` answers ``value(position) -> Value`` (who wins, not in how many plies:
its values' ``plies`` are None) from Breaker proofs (:func:`noughts.breaker.prover.prove_breaker`):

* ``maker_breaker(...)`` games: one search. A proof: Breaker wins; a disproof: Maker wins (the
  search is exhaustive, pairing leaves only end proofs early).
* standard games: a side cannot win when the other, as Breaker under the game's own rules,
  stops it; a disproof of that search means the side forces a win. From the empty board one
  search suffices (the second player stops the first; strategy stealing: the second cannot win
  either, Beck 2008; 002 §2.4). Elsewhere the side to move is asked first, then the other.

Where a search is not settled in its budget, ``LimitExceeded`` says so (the solve policy then
hands the position to the next engine). Results are kept by the position's class under the
board's symmetries, so the symmetric children of a position are proved once.
:meth:`BreakerValues.write_certificate` writes the defender's strategy with pairing leaves
(:mod:`noughts.breaker.certificate`), which ``noughts solve check`` verifies.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from noughts.breaker.prover import prove_breaker
from noughts.breaker.search import BreakerResult, Progress
from noughts.core import Budget, Game, NoughtsError, Outcome, Player, Position, Rule
from noughts.core.values import Value

__all__ = ["MIN_LINE", "BreakerValues", "breaker_applies"]

MIN_LINE = 5
"""The Breaker row of the solve policy takes boards whose lines all have at least this many
cells: there draws are the rule and pairings appear after a few moves (mnk(5,5,5), mnk(6,6,5),
mnk(7,7,5): Hsu et al., TCS 815, 2020), while on shorter lines (k = 4 on large boards, Qubic)
Maker wins and the alpha-beta kernel or the proof engine finds the win faster."""


def breaker_applies(game: Game, position: Position | None = None) -> bool:
    """Whether the Breaker row of the solve policy tries ``game``: standard or Maker-Breaker
    rules on one board whose lines all have at least :data:`MIN_LINE` cells.
    """
    if game.claim_rule not in (Rule.STANDARD, Rule.MAKER_BREAKER):
        return False
    lines = game.board.lines
    return bool(lines) and min(len(line) for line in lines) >= MIN_LINE


class BreakerValues:
    """Values of positions of one standard or Maker-Breaker game from Breaker proofs (module
    docstring). ``budget`` bounds each value (the solve policy sets it before every question);
    ``progress`` is called with the nodes searched so far.
    """

    engine = "breaker"

    def __init__(self, game: Game, budget: Budget | None = None):
        if game.claim_rule not in (Rule.STANDARD, Rule.MAKER_BREAKER):
            raise NoughtsError(f"the Breaker prover takes standard and maker_breaker games, not {game}")
        self.game = game
        self.budget = budget
        self.progress: Callable[[int], None] | None = None
        self.nodes = 0
        self._perms = game.board.symmetries
        self._known: dict[tuple[int, int, int], tuple[Value, list[BreakerResult]]] = {}
        self.proofs: list[BreakerResult] = []
        """The Breaker results behind the last value given."""

    # -- values ---------------------------------------------------------------------------------

    def value(self, position: Position) -> Value:
        """The value of ``position`` (a finished position's by the rules)."""
        if position.game != self.game:
            raise NoughtsError(f"the position is one of {position.game}, not of {self.game}")
        key = self._key(position)
        known = self._known.get(key)
        if known is None:
            known = self._solve(position)
            self._known[key] = known
        self.proofs = known[1]
        return known[0]

    def argument(self) -> str:
        """How the last value follows from its proofs."""
        return "; ".join(r.describe() for r in self.proofs)

    def _solve(self, position: Position) -> tuple[Value, list[BreakerResult]]:
        game = self.game
        if game.claim_rule is Rule.MAKER_BREAKER:
            r = self._prove(position, None)
            q = r.question
            return Value(Outcome.win_for(q.breaker if r.proved else q.maker), None), [r]
        mover = position.to_move
        if position.occupied() == 0 and mover is Player.FIRST:
            r = self._prove(position, Player.SECOND)
            if not r.proved:
                return Value(Outcome.win_for(Player.FIRST), None), [r]
            return Value(Outcome.DRAW, None), [r]  # strategy stealing: the second cannot win
        proofs: list[BreakerResult] = []
        for side in (mover, mover.other):  # can ``side`` win? ask its opponent as Breaker
            r = self._prove(position, side.other)
            proofs.append(r)
            if not r.proved:
                return Value(Outcome.win_for(side), None), proofs
        return Value(Outcome.DRAW, None), proofs

    def _prove(self, position: Position, breaker: Player | None) -> BreakerResult:
        before = self.nodes

        def tick(p: Progress) -> None:
            self.nodes = before + p.nodes  # kept when the budget runs out: how far it got
            if self.progress is not None:
                self.progress(self.nodes)

        r = prove_breaker(
            self.game, position, breaker=breaker, budget=self.budget, progress=tick, record=True
        )
        self.nodes = before + r.nodes
        return r

    def _key(self, position: Position) -> tuple[int, int, int]:
        """The position's class under the board's symmetries (the least image of its cells)."""
        first, second = position.owned(Player.FIRST), position.owned(Player.SECOND)
        board = self.game.board
        best = min(
            (board.transform_mask(first, perm), board.transform_mask(second, perm)) for perm in self._perms
        )
        return (best[0], best[1], int(position.to_move))

    # -- certificates -----------------------------------------------------------------------------

    def write_certificate(self, position: Position, value: Value, path: str | Path) -> dict[str, Any]:
        """Write the certificate of ``value`` (just given for ``position``): the defender's
        strategy with pairing leaves, one file per Breaker proof it rests on (a second one is
        ``STEM-2.json``); the header of ``solve``'s result.
        """
        from noughts.breaker.prover import write_certificate

        kept = self.proofs
        if not kept or not all(r.proved for r in kept) or self._key(position) not in self._known:
            raise NoughtsError(
                f"the Breaker prover proved {value.describe(self.game)} without a defender's strategy to certify"
                " (a Maker win: ask the proof engine for its certificate, --engine proof)"
            )
        stem = Path(path)
        if stem.suffix == ".json":
            stem = stem.with_suffix("")
        files: list[dict[str, Any]] = []
        for i, r in enumerate(kept):
            target = stem if i == 0 else stem.with_name(f"{stem.name}-{i + 1}")
            json_path, digest = write_certificate(target, r)
            files.append({"file": json_path, "sha256": digest, "claim": r.claim})
        header: dict[str, Any] = {
            "file": files[0]["file"],
            "arrays": str(Path(files[0]["file"]).with_suffix(".npz")),
            "sha256": files[0]["sha256"],
            "kind": "breaker",
            "argument": self.argument(),
        }
        if len(files) > 1:
            header["files"] = files
        return header
