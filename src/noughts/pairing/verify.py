"""Following a pairing, and proving that following it works.

**The pairing rule** (what :func:`pairing_move` and the ``pairing`` agent play). A pairing
strategy answers each of the opponent's moves with its partner (002 §3.1, 000 §3.1.1):

1. *answer*: if a pair holds an opponent's cell and its partner is free, take the partner;
2. otherwise (the opponent took an unpaired cell, a partner is already taken, or the player
   moves first) the *fallback*: the free cell in no pair that lies on the most survivors
   (lines the player has not touched), else a free cell of a pair whose two cells are both
   free, on the most survivors; ties go to the lowest cell index.

A position remembers no history, so "the opponent's last move" is read off the board: while the
player keeps to the rule, at most one pair can hold an opponent's cell beside a free partner.

**Checks.** :func:`check_structure` is the structural check: every survivor holds both cells of
some pair, so the opponent can never own a whole survivor (002 §3.1). :func:`search_pairing`
is the full search for small games: the pairing player keeps to the rule (or, with
``fallback="any"``, makes *every* possible fallback choice; with ``fallback="best"``, the best
one), the opponent tries every reply, and the result is the outcome the pairing guarantees,
with a game that reaches it (a *breaking game* when the claim fails). The claim is a win for
Breaker under Maker-Breaker rules and at least a draw under standard and cumulative rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal

from noughts.core import LimitExceeded, Outcome, Player, Position, Rule
from noughts.pairing.hypergraph import residual
from noughts.pairing.matching import Pairing

__all__ = [
    "FALLBACKS",
    "SearchReport",
    "StructureReport",
    "check_structure",
    "pairing_move",
    "search_pairing",
]

Fallback = Literal["rule", "any", "best"]
FALLBACKS: tuple[str, ...] = ("rule", "any", "best")


def _answer(position: Position, partner: dict[int, int], me: Player) -> int | None:
    theirs = position.owned(me.other)
    taken = position.occupied()
    for cell in sorted(partner):
        if theirs >> cell & 1 and not taken >> partner[cell] & 1:
            return partner[cell]
    return None


def _fallback(position: Position, partner: dict[int, int], me: Player) -> int:
    board = position.game.board
    mine = position.owned(me)
    taken = position.occupied()
    free = board.cells_in(board.full_mask & ~taken)

    def weight(c: int) -> int:
        return sum(1 for m in board.masks_through[c] if not m & mine)

    unpaired = [c for c in free if c not in partner]
    if unpaired:
        return max(unpaired, key=lambda c: (weight(c), -c))
    open_pairs = [c for c in free if not taken >> partner[c] & 1]
    pool = open_pairs or free
    return max(pool, key=lambda c: (weight(c), -c))


def pairing_move(position: Position, partner: dict[int, int], me: Player) -> tuple[int, bool]:
    """The move the pairing rule (module docstring) makes for ``me``, and whether it answers a
    pair (false: a fallback move).
    """
    answer = _answer(position, partner, me)
    if answer is not None:
        return answer, True
    return _fallback(position, partner, me), False


@dataclass(frozen=True)
class StructureReport:
    """``holds``: every survivor holds a pair. ``uncovered``: the survivors (line indices) that
    hold none. ``survivors``: how many survivors there are.
    """

    holds: bool
    uncovered: tuple[int, ...]
    survivors: int


def check_structure(pairing: Pairing) -> StructureReport:
    """The structural check: every survivor of the pairing's position holds both cells of a pair.

    >>> import noughts
    >>> from noughts.pairing.matching import find_pairing
    >>> check_structure(find_pairing(noughts.game("mnk(6,6,6)").start()).pairing).holds
    True
    """
    res = residual(pairing.position, pairing.breaker)
    uncovered = []
    for line, edge in zip(res.survivors, res.edges, strict=True):
        cells = set(edge)
        if not any(a in cells and b in cells for a, b in pairing.pairs):
            uncovered.append(line)
    return StructureReport(not uncovered, tuple(uncovered), len(res.survivors))


@dataclass(frozen=True)
class SearchReport:
    """What the full search found.

    ``value``: the result for the pairing player against the opponent's best replies (+1 win,
    0 draw, -1 loss), ``outcome`` the same as an outcome; ``claim`` the least value the
    pairing must guarantee (+1 under Maker-Breaker rules, else 0) and ``secures`` whether it
    does; ``line``: a game from the position to its end where the opponent gets ``value`` (a
    breaking game when ``secures`` is false); ``positions``: positions searched.
    """

    value: int
    outcome: Outcome
    claim: int
    secures: bool
    line: tuple[int, ...]
    positions: int
    fallback: str


def _value_for(position: Position, me: Player) -> int:
    outcome = position.outcome()
    assert outcome is not None
    if outcome.winner is None:
        return 0
    return 1 if outcome.winner is me else -1


def search_pairing(
    pairing: Pairing,
    fallback: Fallback | str = "rule",
    max_positions: int = 2_000_000,
    progress: Callable[[int], None] | None = None,
) -> SearchReport:
    """Search every reply to the pairing player (module docstring); ``LimitExceeded`` past
    ``max_positions`` positions. ``progress`` is called with the number of positions searched
    every 10,000 positions.

    >>> import noughts
    >>> from noughts.pairing.matching import find_pairing
    >>> p = find_pairing(noughts.game("maker_breaker(mnk(4,4,4))").parse("x.../..o./..../....")).pairing
    >>> r = search_pairing(p)
    >>> r.secures, r.outcome.value
    (True, 'second')
    """
    if fallback not in FALLBACKS:
        raise ValueError(f"fallback is one of {FALLBACKS}, not {fallback!r}")
    game = pairing.position.game
    me = pairing.breaker
    partner = pairing.partner
    claim = 1 if game.claim_rule is Rule.MAKER_BREAKER else 0
    memo: dict[tuple[int, int], int] = {}  # keyed by the cells: one claim game, so they are the position

    def choices(position: Position) -> list[int]:
        if position.to_move is me:
            answer = _answer(position, partner, me)
            if answer is not None:
                return [answer]
            if fallback == "rule":
                return [_fallback(position, partner, me)]
        return position.legal_moves()  # type: ignore[return-value]

    stack: list[_Node] = []  # the search's path, an explicit stack: games as long as the board

    def enter(position: Position) -> int | None:
        """The value of ``position`` if known at once; else push its node and return None."""
        key = position.cell_masks()
        known = memo.get(key)
        if known is not None:
            return known
        if position.is_terminal():
            v = memo[key] = _value_for(position, me)
            return v
        if len(memo) >= max_positions:
            raise LimitExceeded(f"the pairing search passed {max_positions:,} positions without finishing")
        if progress is not None and len(memo) % 10_000 == 0:
            progress(len(memo))
        stack.append(
            _Node(position, key, iter(choices(position)), position.to_move is me and fallback == "best")
        )
        return None

    def search(root: Position) -> int:
        """Minimax over ``choices`` from ``root`` (the pairing player maximises only with the
        ``best`` fallback; every other choice is the opponent's or forced), stopping a node at
        the best value it can have.
        """
        value = enter(root)
        while value is None:
            node = stack[-1]
            move = next(node.moves, None)
            if move is not None:
                v = enter(node.position.play(move))
                if v is None or not node.improve(v):
                    continue  # search the child pushed, or the node's next move
            # the node is settled (every move searched, or its best value reached): so are
            # the ancestors its value settles
            memo[node.key] = node.best
            stack.pop()
            while stack and stack[-1].improve(node.best):
                node = stack.pop()
                memo[node.key] = node.best
            if not stack:
                value = node.best
        return value

    result = search(pairing.position)
    line: list[int] = []
    position = pairing.position
    while not position.is_terminal():
        for move in choices(position):
            child = position.play(move)
            if memo.get(child.cell_masks()) == result:
                line.append(move)
                position = child
                break
        else:  # pragma: no cover - a value always has a move that keeps it
            raise AssertionError("no move keeps the searched value")
    outcome = Outcome.DRAW if result == 0 else Outcome.win_for(me if result > 0 else me.other)
    return SearchReport(result, outcome, claim, result >= claim, tuple(line), len(memo), fallback)


class _Node:
    """A position on the search's path: the moves still to try and the best value so far."""

    __slots__ = ("best", "key", "maximise", "moves", "position", "stop")

    def __init__(self, position: Position, key: tuple[int, int], moves: Iterator[int], maximise: bool):
        self.position = position
        self.key = key
        self.moves = moves
        self.maximise = maximise
        self.best, self.stop = (-2, 1) if maximise else (2, -1)

    def improve(self, v: int) -> bool:
        """Take a child's value ``v``; true once nothing can beat the best value."""
        if (v > self.best) if self.maximise else (v < self.best):
            self.best = v
            return v == self.stop
        return False
