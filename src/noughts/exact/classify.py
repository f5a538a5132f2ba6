"""Outcome classes of 000 §3.1.4, decided by search.

The classes, for a game whose value (perfect play) is known:

* first-player **trivial win**: every play ends in a first-player win;
* first-player **forced win without draw possibility**: the first player wins under perfect
  play and no play at all ends drawn;
* first-player **forced win, draws possible**: the first player wins under perfect play and
  some (suboptimal) play ends drawn;
* **strong draw**: a draw under perfect play, and no single pairing serves both roles;
* **pairing-strategy draw**: a draw under perfect play, and one pairing ``rho`` serves both
  roles: the first player using it (from the first move) and the second player using it each
  never lose, whatever the opponent plays.

(The same three classes with the roles swapped cover a second-player win.) A *pairing* here is
000's: a bijection between two disjoint halves ``M``, ``N`` of the cells, ``|M| = |N| =
floor(|V| / 2)`` (four pairs on 3x3, one cell left over). *Using* it means the pairing rule of
000 §3.1.1: answer the opponent's move in a pair with its partner; otherwise (the opponent's
cell is unpaired, its partner is taken, or it is the first move) choose "arbitrarily". This
module reads "arbitrarily" two ways and reports both: ``best`` (the player makes the free
choices as well as it can: there is a pairing strategy with this pairing that never loses) and
``any`` (every free choice works). The class uses ``best``, the reading most favourable to a
pairing-strategy draw; with ``any`` fewer pairings qualify.

Values come from the exact solver (:func:`noughts.solve`), which plays by the rules;
play outcomes from :func:`noughts.count`; pairings are searched one orbit of the board's
symmetry group at a time (:func:`noughts.pairing.verify.search_pairing`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from noughts.core import Game, NoughtsError, Outcome, Player
from noughts.pairing.hypergraph import check_breaker
from noughts.pairing.matching import Pairing, pairing_of
from noughts.pairing.verify import search_pairing

__all__ = [
    "APPENDIX_A2",
    "Classification",
    "PairingRoles",
    "all_pairings",
    "appendix_pairings",
    "check_classifiable",
    "check_pairing_roles",
    "classify",
]

MAX_CLASSIFY_CELLS = 12

APPENDIX_A2: tuple[tuple[str, str, str, tuple[tuple[int, int], ...]], ...] = (
    # (who, position, role, pairs in 000's 1-based cell numbers 1..9, row by row)
    ("Player 1, centre opening", ".../.x./...", "first", ((1, 2), (3, 6), (4, 7), (8, 9))),
    ("Player 2, case 1 (x1 = 5, y1 = 1)", "o../.x./...", "second", ((2, 8), (3, 7), (4, 6))),
    ("Player 2, case 2 (x1 = 1, y1 = 5)", "x../.o./...", "second", ((2, 3), (4, 7), (6, 8))),
    ("Player 2, case 3 (x1 = 2, y1 = 5)", ".x./.o./...", "second", ((1, 3), (4, 7), (6, 9))),
)
"""The pairings of 000 Appendix A.2 for cumulative tic-tac-toe, with the positions they start from."""


def all_pairings(cells: int) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every set of ``cells // 2`` disjoint pairs of ``range(cells)`` (945 for 9 cells)."""

    def rec(rest: tuple[int, ...], need: int) -> Iterator[tuple[tuple[int, int], ...]]:
        if need == 0:
            yield ()
            return
        if len(rest) < 2 * need:
            return
        first, tail = rest[0], rest[1:]
        if len(rest) > 2 * need:  # the first cell may stay unpaired
            yield from rec(tail, need)
        for i, other in enumerate(tail):
            for more in rec(tail[:i] + tail[i + 1 :], need - 1):
                yield ((first, other),) + more

    yield from rec(tuple(range(cells)), cells // 2)


@dataclass(frozen=True)
class PairingRoles:
    """Whether a pairing, used from the first move, never loses for each role."""

    pairs: tuple[tuple[int, int], ...]
    orbit: int  # how many pairings the board's symmetries map it to (itself included)
    first_best: bool
    second_best: bool
    first_any: bool
    second_any: bool

    @property
    def both_best(self) -> bool:
        return self.first_best and self.second_best

    @property
    def both_any(self) -> bool:
        return self.first_any and self.second_any


def check_pairing_roles(game: Game, pairs: tuple[tuple[int, int], ...], orbit: int = 1) -> PairingRoles:
    """Search ``pairs`` for both roles from the start, fallback ``best`` and ``any``."""
    start = game.start()
    out: dict[str, bool] = {}
    for role in (Player.FIRST, Player.SECOND):
        pairing = pairing_of(start, role, list(pairs))
        best = search_pairing(pairing, "best").secures
        anyway = best and search_pairing(pairing, "any").secures  # "any" secures implies "best" does
        out[f"{role.name.lower()}_best"] = best
        out[f"{role.name.lower()}_any"] = anyway
    return PairingRoles(pairs, orbit, **out)


@dataclass(frozen=True)
class Classification:
    """The outcome class of a game and what witnesses it."""

    game: Game
    outcome_class: str
    value: Outcome
    plays_by_outcome: dict[str, int]
    pairings: int  # all pairings of the board
    orbits: tuple[PairingRoles, ...]  # one per symmetry orbit of pairings (empty unless a draw)
    seconds: float

    def count(self, test: Callable[[PairingRoles], bool]) -> int:
        """How many pairings (counting every member of an orbit) pass ``test``."""
        return sum(o.orbit for o in self.orbits if test(o))

    @property
    def witnesses(self) -> tuple[PairingRoles, ...]:
        """Orbit representatives that serve both roles (fallback ``best``)."""
        return tuple(o for o in self.orbits if o.both_best)


def _orbits(game: Game) -> list[tuple[tuple[tuple[int, int], ...], int]]:
    perms = game.board.symmetries
    seen: set[tuple[tuple[int, int], ...]] = set()
    out = []
    for pairs in all_pairings(game.board.num_cells):
        if pairs in seen:
            continue
        images: set[tuple[tuple[int, int], ...]] = {
            tuple(sorted((min(p[a], p[b]), max(p[a], p[b])) for a, b in pairs)) for p in perms
        }
        seen |= images
        out.append((pairs, len(images)))
    return out


def check_classifiable(game: Game) -> None:
    """``NoughtsError`` unless :func:`classify` takes ``game``: rules with a breaking side for
    both players (standard, cumulative) on at most 12 cells.
    """
    check_breaker(game, Player.FIRST)
    if game.board.num_cells > MAX_CLASSIFY_CELLS:
        raise NoughtsError(
            f"{game} has {game.board.num_cells} cells: classifying searches every pairing of the board, "
            f"which is done for boards of at most {MAX_CLASSIFY_CELLS} cells"
        )


def classify(game: Game, progress: Callable[[int, int], None] | None = None) -> Classification:
    """The outcome class of ``game`` under the definitions of 000 §3.1.4 (module docstring).

    Boards of at most 12 cells (the pairing search covers every pairing of the board).
    """
    check_classifiable(game)
    from noughts.exact.count import count as count_games
    from noughts.exact.search import Searcher

    started = time.perf_counter()
    value = Searcher(game).value(game.start()).outcome  # at most 12 cells: the plain search, in milliseconds
    plays = dict(count_games(game).games_by_outcome)
    orbits: list[PairingRoles] = []
    count = 0
    if value is Outcome.DRAW:
        reps = _orbits(game)
        count = sum(size for _, size in reps)
        for i, (pairs, size) in enumerate(reps):
            orbits.append(check_pairing_roles(game, pairs, size))
            if progress is not None:
                progress(i + 1, len(reps))
        name = "pairing-strategy draw" if any(o.both_best for o in orbits) else "strong draw"
    else:
        who = "first" if value is Outcome.FIRST else "second"
        total = sum(plays.values())
        if plays.get(value.value, 0) == total:
            name = f"{who}-player trivial win"
        elif plays.get("draw", 0) == 0:
            name = f"{who}-player forced win without draw possibility"
        else:
            name = f"{who}-player forced win, draws possible"
    return Classification(game, name, value, plays, count, tuple(orbits), time.perf_counter() - started)


def appendix_pairings(game: Game) -> list[tuple[str, Pairing]]:
    """The pairings of 000 Appendix A.2 as :class:`Pairing` values of ``game`` (3x3 boards)."""
    if game.board.grid != (3, 3):
        raise NoughtsError(f"000 Appendix A.2 pairs the cells of a 3x3 board, not of {game.board.spec}")
    out = []
    for who, text, role, pairs in APPENDIX_A2:
        position = game.parse(text)
        player = Player.FIRST if role == "first" else Player.SECOND
        out.append((who, pairing_of(position, player, [(a - 1, b - 1) for a, b in pairs])))
    return out
