"""The plain reference of the Breaker prover: a recursion over positions, matchings as leaves.

Breaker's nodes (Breaker to move) are OR nodes: one reply that works suffices. Maker's nodes are
AND nodes: every Maker move is answered. A node is settled without search when the game is over
(:meth:`Position.outcome`) or when Breaker has a pairing there (the toolkit's matching, SciPy's
Hopcroft-Karp: :func:`noughts.pairing.matching.find_pairing`). No threat rule, move order or
symmetry: every move is searched, in cell order. The fast prover
(:mod:`noughts.breaker._kernels`) is held to this one.

**Zones** (relevance zones, after Wu and Lin, "Relevance-zone-oriented proof search for
Connect6", IEEE TCIAIG 2(3), 2010, turned to the defender's side; Hsu, Ko, Chen, Wei, Hsueh and
Wu, "On solving the 7,7,5-game and the 8,8,5-game", TCS 815, 2020, prune mnk-game proofs the
same way). Every proof comes with its *zone*: the free cells it mentions (Breaker's moves,
Maker's moves, the cells of the pairings, and the witnesses below). The proof stays a proof when
Maker owns every free cell outside its zone, because the games are monotone: an extra cell
never hurts its owner, and a move outside the zone is a pass the other side answers anywhere
(Beck, "Combinatorial Games: Tic-Tac-Toe Theory", 2008, on strategy stealing). So at a Maker
node, once Maker's move ``m`` is answered by a proof with zone ``Z``, every other Maker move
outside ``Z`` is answered by the same proof (Maker's cell there lies in what the proof already
grants Maker): only the moves inside ``Z`` are searched. Disproofs (Maker wins) have zones too,
granting Breaker the cells outside, and prune Breaker's moves the same way.

Where a finished game leaves lines the other side could still complete (standard rules: a side
completes a line while the other has live lines), the zone keeps one free cell of each such line
(a *witness*), so that granting the free cells outside the zone completes none of them.

The reference is for small boards (it recurses once per move; at most :data:`MAX_FREE` free
cells) and runs under a node budget.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from noughts.breaker.question import BreakerQuestion, as_rules_game
from noughts.core import LimitExceeded, NoughtsError, Player, Position
from noughts.pairing.matching import find_pairing

__all__ = ["MAX_FREE", "ReferenceProof", "reference_prove", "witness"]

MAX_FREE = 36
"""The reference searches positions with at most this many free cells."""

Tree = tuple[Any, ...]
"""A proof tree: ``("pairs", ((a, b), ...))``, ``("witness", (c, ...))`` (standard rules:
Breaker has completed a line; the cells keep Maker's live lines open), ``("breaker", b, tree)``
or ``("maker", ((m, tree), ...))`` (the Maker moves not listed are those outside a listed
branch's cells)."""


@dataclass
class ReferenceProof:
    """What :func:`reference_prove` found: ``proved`` (Breaker wins the question), the zone of the
    proof or disproof, the proof tree (None for a disproof), and the positions searched.
    """

    proved: bool
    zone: frozenset[int]
    tree: Tree | None
    nodes: int
    memo: dict[Position, tuple[bool, frozenset[int], Tree | None]] = field(repr=False, default_factory=dict)


def witness(position: Position, side: Player) -> frozenset[int]:
    """One free cell (the lowest) of each line ``side`` could still complete (no opponent cell)."""
    board = position.game.board
    theirs = position.owned(side.other)
    free = board.full_mask & ~position.occupied()
    cells: set[int] = set()
    for mask in board.line_masks:
        if mask & theirs:
            continue
        open_cells = mask & free
        if open_cells and not any(open_cells >> c & 1 for c in cells):
            cells.add((open_cells & -open_cells).bit_length() - 1)
    return frozenset(cells)


def reference_prove(q: BreakerQuestion, *, max_nodes: int = 200_000) -> ReferenceProof:
    """Search the question ``q`` completely (module docstring); ``LimitExceeded`` past ``max_nodes``."""
    start = as_rules_game(q)
    free = q.board.num_cells - start.occupied().bit_count()
    if free > MAX_FREE:
        raise NoughtsError(f"the reference prover searches at most {MAX_FREE} free cells, not {free}")
    maker, breaker = q.maker, q.breaker
    standard = q.rules == "standard"
    memo: dict[Position, tuple[bool, frozenset[int], Tree | None]] = {}

    def solve(position: Position) -> tuple[bool, frozenset[int], Tree | None]:
        known = memo.get(position)
        if known is not None:
            return known
        if len(memo) >= max_nodes:
            raise LimitExceeded(f"the reference prover passed {max_nodes:,} positions")
        result = settle(position)
        if result is None:
            result = search(position)
        memo[position] = result
        return result

    def settle(position: Position) -> tuple[bool, frozenset[int], Tree | None] | None:
        outcome = position.outcome()
        if outcome is not None:
            if outcome.winner is maker:  # Maker completed a line: the other side's live lines stay open
                return False, (witness(position, breaker) if standard else frozenset()), None
            if outcome.winner is breaker and standard:
                cells = witness(position, maker)
                return True, cells, ("witness", tuple(sorted(cells)))
            return True, frozenset(), ("pairs", ())  # a draw, or Breaker touched every line
        found = find_pairing(position, breaker)
        if found.exists and found.pairing is not None:
            pairs = found.pairing.pairs
            return True, frozenset(c for pair in pairs for c in pair), ("pairs", pairs)
        return None

    def search(position: Position) -> tuple[bool, frozenset[int], Tree | None]:
        moves: list[int] = position.legal_moves()  # type: ignore[assignment]
        zone: set[int] = set()
        if position.to_move is maker:  # every Maker move is answered
            open_moves = set(moves)
            branches: list[tuple[int, Tree]] = []
            for m in moves:
                if m not in open_moves:
                    continue  # outside the zone of an earlier answer: the same answer holds
                proved, z, tree = solve(position.play(m))
                if not proved:
                    return False, z | {m}, None
                assert tree is not None
                branches.append((m, tree))
                zone |= z | {m}
                open_moves &= z
                open_moves.discard(m)
            return True, frozenset(zone), ("maker", tuple(branches))
        candidates = set(moves)  # one Breaker reply that works suffices
        for b in moves:
            if b not in candidates:
                continue  # outside the zone of an earlier refutation: refuted the same way
            proved, z, tree = solve(position.play(b))
            if proved:
                return True, z | {b}, ("breaker", b, tree)
            zone |= z | {b}
            candidates &= z
            candidates.discard(b)
        return False, frozenset(zone), None

    proved, zone, tree = solve(start)
    return ReferenceProof(proved, zone, tree, len(memo), memo)
