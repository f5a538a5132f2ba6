"""Proof-number search: "can this player force a win from here?", answered yes or no.

Alpha-beta (:mod:`noughts.exact.search`, the numba kernels of :mod:`noughts.exact.fast`) finds a
position's exact value, distance included. Proof-number search (Allis, van der Meulen and van den
Herik, "Proof-number search", Artificial Intelligence 66, 1994; Allis's thesis "Searching for
solutions in games and artificial intelligence", 1994, chapter 2) answers a narrower question,
whether one player, the *attacker*, can force a win, and goes for it best-first: it expands the
position whose proof (or disproof) needs the fewest further leaves proven. Sharp wins, where the
defender's replies are forced, are proven with few nodes, and it shares none of alpha-beta's
pruning rules or window arithmetic, so it is an independent check of the kernels on games too
large for the memoised reference.

The search here is depth-first proof-number search, df-pn (Nagai, "Df-pn algorithm for
searching AND/OR trees and its applications", PhD thesis, University of Tokyo, 2002), which
searches the same nodes in the same order as proof-number search with a fixed amount of memory
per level, with the 1 + epsilon trick of Pawlewicz and Lew ("Improving depth-first PN-search:
1 + epsilon trick", Computers and Games 2006, LNCS 4630) against thrashing, and a transposition
table keyed by :meth:`Position.canonical_key` (one entry per symmetry class). Positions where the
attacker moves are OR nodes (one winning move suffices), the others AND nodes (every reply must
be answered). Claim games never repeat a position, so the search graph is acyclic and df-pn's
cycle problems do not arise; transpositions make proof numbers overcount, which costs nodes but
never soundness: a node is only ever proven from proven children.

**What "win" means** is the game's own :meth:`Position.outcome`: the attacker wins where the
finished game says so. Under misère rules the player who completes a line *loses*, so "the first
player can force a win" there means the second player can be forced to complete a line; a draw
(a full board with no line) is not a win. In Maker-Breaker there are no draws, so Breaker can
force a win exactly where Maker cannot. Under cumulative rules a win is a higher final score.

Two move generators feed the same search:

* the **reference** (:class:`Prover` with ``fast=False``) uses only the public position API
  (``legal_moves``, ``play``, ``is_terminal``, ``outcome``, ``canonical_key``) and searches every
  move; it takes every game noughts has (veto, Notakto, Otrio included);
* the **bitboard** generator (the default for standard, misère and Maker-Breaker claim games)
  works on the two players' masks as Python integers, keys the table by the least image of the
  position under the board's symmetries (both masks in one integer, mapped by per-symmetry byte
  tables; the same classes as :meth:`Position.canonical_key`), and under standard rules (and for
  Maker in Maker-Breaker) searches only the forced move where one is forced: an immediate win
  is taken, else an opponent's threat (a line missing one cell) is blocked. Both kinds of move
  the filter drops lose at once for the mover, so the filter keeps the answer for both sides
  (004 §2.1 restricts the tree the same way). In Maker-Breaker, cells on no line Breaker has
  left untouched are not searched either: claiming one is worth a pass, and a pass is never
  better than a claim there (an extra cell never hurts its owner: Maker-Breaker games are
  monotone; Beck, "Combinatorial Games: Tic-Tac-Toe Theory", 2008). Under misère
  rules nothing is filtered.

The tests hold both generators to :func:`noughts.exact.reference.reference_values` on every
reachable position of the 3x3 games and the added-square boards, for both players.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import cache, reduce
from operator import getitem, or_
from typing import Any, cast

from noughts.core import Game, LimitExceeded, Move, Outcome, Player, Position, Rule, require_bounded
from noughts.core.budget import Budget

__all__ = ["INFINITY", "ProofResult", "Prover", "prove_win", "supports_bitboards"]

INFINITY = 1 << 60
"""The proof number of a disproven node (and the disproof number of a proven one)."""

EPSILON = 0.25
"""The 1 + epsilon trick: a child is searched until its proof number exceeds the second-best
sibling's by this fraction (Pawlewicz and Lew 2006 use 1/4 to 1/2)."""

_CHECK_EVERY = 4096
"""Nodes between budget checks (a power of two)."""

_ENTRY_BYTES = 240
"""About what one table entry costs in CPython (key tuple, value tuple, dict slot)."""


@dataclass(frozen=True)
class ProofResult:
    """The answer of :func:`prove_win`: whether ``player`` can force a win from ``position``.

    ``proved`` is True for a proof (a forced win) and False for a disproof (the opponent can
    always hold at least a draw). ``move`` is a winning move where the attacker is to move and
    wins (None otherwise). ``nodes`` counts the nodes expanded, ``table_size`` the symmetry
    classes held in the transposition table at the end.
    """

    game: Game
    position: Position
    player: Player
    proved: bool
    move: Move | None
    nodes: int
    table_size: int
    seconds: float
    method: str

    def describe(self) -> str:
        """E.g. ``x can force a win`` or ``Breaker (o) cannot force a win``."""
        who = self.game.player_label(self.player)
        return f"{who} {'can' if self.proved else 'cannot'} force a win"

    def to_json(self) -> dict[str, Any]:
        """The answer as JSON-ready data (what ``--json`` output would print)."""
        return {
            "game": str(self.game),
            "position": self.position.text(),
            "player": self.game.player_label(self.player),
            "proved": self.proved,
            "answer": self.describe(),
            "move": None if self.move is None else self.game.format_move(self.move),
            "nodes": self.nodes,
            "table_size": self.table_size,
            "seconds": self.seconds,
            "method": self.method,
        }


def supports_bitboards(game: Game) -> bool:
    """Whether the bitboard move generator takes ``game`` (standard, misère and Maker-Breaker
    claim games); every other game goes through the position API.
    """
    return game.claim_rule in (Rule.STANDARD, Rule.MISERE, Rule.MAKER_BREAKER)


class Prover:
    """Df-pn for one game and one attacker; the transposition table is kept across calls.

    ``budget`` bounds the time and the table's memory, ``max_nodes`` the nodes expanded (over
    all calls); over either, :meth:`prove` raises ``LimitExceeded`` saying how far it got, and
    the table keeps what it learned. ``fast`` picks the bitboard generator (default: where
    :func:`supports_bitboards`), ``fast=False`` the position-API reference.

    >>> import noughts
    >>> from noughts.core import Player
    >>> g = noughts.game("hypercube(3,3)")
    >>> Prover(g, Player.FIRST).prove(g.start()).proved
    True
    >>> Prover(noughts.game("tictactoe"), Player.FIRST).prove(noughts.game("tictactoe").start()).proved
    False
    """

    def __init__(
        self,
        game: Game,
        player: Player,
        budget: Budget | None = None,
        max_nodes: int | None = None,
        fast: bool | None = None,
    ):
        require_bounded(game, "proof-number search")
        if fast is None:
            fast = supports_bitboards(game)
        elif fast and not supports_bitboards(game):
            raise ValueError(
                f"the bitboard generator takes standard, misère and Maker-Breaker claim games, not {game}"
            )
        self.game = game
        self.player = player
        self.budget = budget if budget is not None else Budget(max_seconds=None, max_memory=None)
        self.max_nodes = max_nodes
        self.nodes = 0
        self.method = "df-pn, bitboards" if fast else "df-pn, position API"
        self.on_progress: Callable[[Prover], None] | None = None
        """Called at every budget check (every few thousand nodes), e.g. to draw a progress bar."""
        self._tt: dict[Hashable, tuple[int, int]] = {}
        self._gen: _Generator = _Bitboards(game, player) if fast else _PositionAPI(game, player)

    @property
    def table_size(self) -> int:
        """Symmetry classes held in the transposition table."""
        return len(self._tt)

    def memory_estimate(self) -> int:
        """Bytes the table takes, roughly."""
        return len(self._tt) * _ENTRY_BYTES

    def progress_text(self) -> str:
        return f"{self.nodes:,} nodes expanded, {len(self._tt):,} in the table"

    def prove(self, position: Position) -> ProofResult:
        """Whether the attacker can force a win from ``position``; see :class:`ProofResult`."""
        if position.game != self.game:
            raise ValueError(f"the position belongs to {position.game}, not {self.game}")
        started = time.perf_counter()
        nodes_before = self.nodes
        move: Move | None = None
        if position.is_terminal():
            proved = position.outcome() is Outcome.win_for(self.player)
        else:
            node = self._gen.root(position)
            pn, _ = self._mid(node, INFINITY, INFINITY)
            proved = pn == 0
            if proved and position.to_move is self.player:
                move = self._winning_move(node)
        return ProofResult(
            game=self.game,
            position=position,
            player=self.player,
            proved=proved,
            move=move,
            nodes=self.nodes - nodes_before,
            table_size=len(self._tt),
            seconds=time.perf_counter() - started,
            method=self.method,
        )

    # -- the search -----------------------------------------------------------------------------

    def _check(self) -> None:
        if self.on_progress is not None:
            self.on_progress(self)
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise LimitExceeded(
                f"stopped after {self.max_nodes:,} nodes (the node budget); {self.progress_text()}"
            )
        self.budget.check(memory=self.memory_estimate(), progress=self.progress_text())

    def _winning_move(self, node: Any) -> Move | None:
        for move, _child, key, pn, _dn in self._gen.children(node):
            if key is None:
                if pn == 0:
                    return move
            elif self._tt.get(key, (1, 1))[0] == 0:
                return move
        return None  # unreachable after a proof at an OR node

    def _mid(self, node: Any, thpn: int, thdn: int) -> tuple[int, int]:
        """Search ``node`` until its proof number reaches ``thpn`` or its disproof number
        ``thdn`` (Nagai 2002, MID); returns its proof and disproof numbers (the caller stores
        them under the node's key).

        MID calls itself on the most proving child; here the calls run on an explicit stack
        (``path``), so the search may go as deep as the game is long.
        """
        tt = self._tt
        get = tt.get
        path: list[list[Any]] = []
        frame = self._enter(node, thpn, thdn)
        numbers: tuple[int, int] | None = None  # a child's numbers, to store under its key
        while True:
            _node, thpn, thdn, is_or, kids, pns, dns, key = frame
            if numbers is not None:
                tt[key] = numbers
                numbers = None
            # the children's numbers, from the table (a search below may have changed any of them)
            for i, (_move, _child, k, pn0, dn0) in enumerate(kids):
                if k is None:
                    pns[i], dns[i] = pn0, dn0
                else:
                    pns[i], dns[i] = get(k, (pn0, dn0))
            if is_or:
                pn, dn = min(pns), _sum(dns)
                done = pn >= thpn or dn >= thdn
                if not done:
                    best, second = _two_smallest(pns)
                    child_thpn = min(thpn, max(second + 1, int(second * (1 + EPSILON)) + 1))
                    child_thdn = thdn - dn + dns[best]
            else:
                pn, dn = _sum(pns), min(dns)
                done = pn >= thpn or dn >= thdn
                if not done:
                    best, second = _two_smallest(dns)
                    child_thdn = min(thdn, max(second + 1, int(second * (1 + EPSILON)) + 1))
                    child_thpn = thpn - pn + pns[best]
            if done:
                if not path:
                    return pn, dn
                numbers = (pn, dn)
                frame = path.pop()
                continue
            _move, child, frame[7], _pn0, _dn0 = kids[best]
            path.append(frame)
            frame = self._enter(child, min(child_thpn, INFINITY), min(child_thdn, INFINITY))

    def _enter(self, node: Any, thpn: int, thdn: int) -> list[Any]:
        """A node's frame in :meth:`_mid`: the node, its thresholds, whether it is an OR node,
        its children, their numbers, and the key of the child being searched.
        """
        self.nodes += 1
        if not self.nodes & (_CHECK_EVERY - 1) or (
            self.max_nodes is not None and self.nodes > self.max_nodes
        ):
            self._check()
        gen = self._gen
        kids = gen.children(node)
        count = len(kids)
        return [node, thpn, thdn, gen.is_or(node), kids, [0] * count, [0] * count, None]


def _sum(values: list[int]) -> int:
    """The sum of children's numbers, where ``INFINITY`` means proven (or disproven) and
    nothing else: a sum that reaches it without an infinite term stays just below, so a
    search deep enough for its numbers to grow that large is not taken for a finished one.
    """
    total = sum(values)
    if total < INFINITY:
        return total
    return INFINITY if INFINITY in values else INFINITY - 1


def _two_smallest(values: list[int]) -> tuple[int, int]:
    """The index of the smallest value (the first of equals) and the second-smallest value."""
    best = 0
    low = values[0]
    second = INFINITY
    for i in range(1, len(values)):
        v = values[i]
        if v < low:
            best, second, low = i, low, v
        elif v < second:
            second = v
    return best, second


# -- move generators ----------------------------------------------------------------------------

Child = tuple[Move, Any, Hashable | None, int, int]
"""A child: the move, the child node, its table key (None for a finished position, whose numbers
are final), and its numbers (final for a finished position, initial otherwise)."""


class _Generator:
    """What the search needs from a game: nodes, who moves, children, keys."""

    def root(self, position: Position) -> Any:
        raise NotImplementedError

    def is_or(self, node: Any) -> bool:
        raise NotImplementedError

    def children(self, node: Any) -> Sequence[Child]:
        raise NotImplementedError


_PROVED = (0, INFINITY)
_DISPROVED = (INFINITY, 0)


class _PositionAPI(_Generator):
    """The reference generator: positions as nodes, every legal move, the game's own key."""

    def __init__(self, game: Game, player: Player):
        self.player = player
        self.win = Outcome.win_for(player)

    def root(self, position: Position) -> Any:
        return position

    def is_or(self, node: Any) -> bool:
        return bool(node.to_move is self.player)

    def children(self, node: Any) -> Sequence[Child]:
        out: list[Child] = []
        for move in node.legal_moves():
            child = node.play(move)
            if child.is_terminal():
                pn, dn = _PROVED if child.outcome() is self.win else _DISPROVED
                out.append((move, child, None, pn, dn))
            else:
                out.append((move, child, (child.to_move, child.canonical_key()), 1, 1))
        return out


class _Bitboards(_Generator):
    """Claim games on bit masks; a node is ``(first_bits, second_bits, survivors)``, where
    survivors (Maker-Breaker only) counts the lines Breaker has not touched.
    """

    def __init__(self, game: Game, player: Player):
        board = game.board
        self.player = player
        self.first_attacks = player is Player.FIRST
        self.full = board.full_mask
        self.masks_through = board.masks_through
        self.lines = board.line_masks
        self.misere = game.claim_rule is Rule.MISERE
        self.maker_breaker = game.claim_rule is Rule.MAKER_BREAKER
        self.maker_first = game.maker is not Player.SECOND
        # the key: both masks in one integer (second's cells above first's), the least image
        cells = board.num_cells
        self.shift = cells
        self.nbytes = (2 * cells + 7) // 8
        self.images = tuple(
            _image_tables(tuple(perm) + tuple(cells + c for c in perm), self.nbytes)
            for perm in game.symmetries
        )
        self.cell_list = board.cells_in

    def root(self, position: Position) -> Any:
        b0, b1 = position.cell_masks()
        survivors = 0
        if self.maker_breaker:  # the lines Breaker has not touched
            breaker_bits = b1 if self.maker_first else b0
            survivors = sum(1 for m in self.lines if not m & breaker_bits)
        return (b0, b1, survivors)

    def _first_to_move(self, node: Any) -> bool:
        return bool(node[0].bit_count() == node[1].bit_count())

    def is_or(self, node: Any) -> bool:
        return self._first_to_move(node) == self.first_attacks

    def key(self, node: Any) -> Hashable:
        x = (node[0] | node[1] << self.shift).to_bytes(self.nbytes, "little")
        images = [cast(int, reduce(or_, map(getitem, t, x))) for t in self.images]
        return min(images)

    def _winning_cells(self, mine: int, theirs: int) -> int:
        """Empty cells that would complete a line of ``mine`` (lines free of ``theirs``)."""
        cells = 0
        for m in self.lines:
            if not m & theirs:
                rest = m & ~mine
                if rest and not rest & (rest - 1):
                    cells |= rest
        return cells

    def _threatens(self, cell: int, mine: int, theirs: int) -> bool:
        """Whether claiming ``cell`` left a line through it one cell short of ``mine``."""
        for m in self.masks_through[cell]:
            if not m & theirs:
                rest = m & ~mine
                if rest and not rest & (rest - 1):
                    return True
        return False

    def children(self, node: Any) -> Sequence[Child]:
        b0, b1, survivors = node
        first = self._first_to_move(node)
        mine, theirs = (b0, b1) if first else (b1, b0)
        empty = self.full & ~(b0 | b1)
        mover_wins_line = not self.misere
        maker_moves = False
        if self.maker_breaker:
            maker_moves = first == self.maker_first
            if maker_moves:
                wins = self._winning_cells(mine, theirs)
                if wins:
                    empty = wins & -wins
            else:
                threats = self._winning_cells(theirs, mine)
                if threats:
                    empty = threats & -threats  # block (two threats lose whatever is blocked)
            if empty & (empty - 1):
                # only cells on a line Breaker has not touched: a cell on none is worth a pass
                # to either side, and an extra cell never hurts its owner in Maker-Breaker
                breaker_bits = theirs if maker_moves else mine
                live = 0
                for m in self.lines:
                    if not m & breaker_bits:
                        live |= m
                empty &= live
        elif not self.misere:
            wins = self._winning_cells(mine, theirs)
            if wins:
                empty = wins & -wins
            else:
                threats = self._winning_cells(theirs, mine)
                if threats:
                    empty = threats & -threats
        mover_is_attacker = first == self.first_attacks
        out: list[Child] = []
        full = self.full
        empty_after = (full & ~(b0 | b1)).bit_count() - 1
        # a threat forces the reply where lines win: standard rules, and Maker's threats
        forcing = maker_moves if self.maker_breaker else not self.misere
        for cell in self.cell_list(empty):
            bit = 1 << cell
            new_mine = mine | bit
            child = (new_mine, theirs) if first else (theirs, new_mine)
            # the outcome of the claim, for the mover: +1 win, -1 loss, 0 draw, None running
            result: int | None = None
            new_survivors = survivors
            if self.maker_breaker:
                if maker_moves:
                    for m in self.masks_through[cell]:
                        if new_mine & m == m:
                            result = 1
                            break
                else:
                    new_survivors = survivors - sum(1 for m in self.masks_through[cell] if not mine & m)
                    if new_survivors == 0:
                        result = 1
            else:
                for m in self.masks_through[cell]:
                    if new_mine & m == m:
                        result = 1 if mover_wins_line else -1
                        break
                else:
                    if (new_mine | theirs) == full:
                        result = 0
            cnode = (child[0], child[1], new_survivors)
            if result is None:
                # initial numbers (Allis's mobility, 1994 §2.4): the mover of the child must
                # answer every reply of an AND node, so its proof number starts at the number
                # of replies, except where this move threatens a line and the reply is forced
                replies = 1 if forcing and self._threatens(cell, new_mine, theirs) else empty_after
                if mover_is_attacker:
                    out.append((cell, cnode, self.key(cnode), replies, 1))
                else:
                    out.append((cell, cnode, self.key(cnode), 1, replies))
            else:
                attacker_wins = result == 1 if mover_is_attacker else result == -1
                pn, dn = _PROVED if attacker_wins else _DISPROVED
                out.append((cell, cnode, None, pn, dn))
        return out


@cache
def _image_tables(perm: Sequence[int], nbytes: int) -> tuple[tuple[int, ...], ...]:
    """For byte ``i`` of a mask and each of its 256 values, the image of those cells under
    ``perm`` as a mask (so a mask's image is the OR of one table entry per byte).
    """
    cells = len(perm)
    tables = []
    for i in range(nbytes):
        row = []
        for v in range(256):
            image = 0
            for j in range(8):
                c = 8 * i + j
                if v >> j & 1 and c < cells:
                    image |= 1 << perm[c]
            row.append(image)
        tables.append(tuple(row))
    return tuple(tables)


def prove_win(
    game: Game,
    position: Position | None = None,
    player: Player | None = None,
    budget: Budget | None = None,
    max_nodes: int | None = None,
    fast: bool | None = None,
) -> ProofResult:
    """Whether ``player`` (default: the side to move) can force a win from ``position``
    (default: the start), by df-pn; see the module docstring for what "win" means.

    Raises ``LimitExceeded`` over ``budget`` (time, table memory) or ``max_nodes``.

    >>> import noughts
    >>> prove_win(noughts.game("mnk(4,3,3)")).describe()
    'x can force a win'
    >>> prove_win(noughts.game("tictactoe")).proved
    False
    """
    if position is None:
        position = game.start()
    if player is None:
        player = position.to_move
    return Prover(game, player, budget=budget, max_nodes=max_nodes, fast=fast).prove(position)
