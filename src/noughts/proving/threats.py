"""Threat-space search: whether the attacker can win by threats alone, whatever the defender does.

A **threat** is a claim after which the attacker threatens to win at once. Two orders are
searched (Allis, Herik and Huntjens, "Go-Moku solved by new search techniques", Computational
Intelligence 12, 1996; Allis's thesis "Searching for solutions in games and artificial
intelligence", 1994, chapter 5), written for any hypergraph of lines of ``k`` cells:

* a **four** (order 1) leaves a line with ``k - 1`` attacker cells and no defender cell: the
  defender must claim its last cell (its only *cost cell*), or lose at once; a claim that leaves
  two such lines with different last cells (a *double four*) wins, since one claim blocks one;
* a **three** (order 2) leaves a *double-four cell*: an empty cell whose claim would make a
  double four (two lines of ``k - 2`` attacker cells through it, with different other empty
  cells). The defender's cost cells are every claim after which no double-four cell is left.

The attacker's **threat sequence** chains threats until it wins; the defender may answer a
threat with any cost cell, or with a **counter-threat**: a claim that makes a four of its own,
which the attacker must block before it goes on (its block must then be a threat itself, or
the defender would get a free move). Every other defender claim loses: after a four the
attacker completes its line; after a three it claims the double-four cell and the defender can
block only one of the two lines. A sequence is a proof only if it holds against all of these
answers, so the search is an AND/OR search over the attacker's threats and the defender's cost
cells and counter-threats (the dependency-based search of Allis 1994 §5 keeps one line of
threats and checks the defender's counter-threats in the gaps afterwards; searching the
defender's answers directly makes that check part of the search). Victory by continuous fours
(``max_order=1``, VCF) has one answer to every threat and is cheap; order 2 branches at every
three and is bounded by ``max_depth`` (the attacker's threats, the winning claim not counted).

Where lines win. Standard rules for either player; Maker-Breaker for Maker, whose threats
Breaker must answer the same way (Breaker has no lines, so no counter-fours, but it wins once
every line holds a Breaker cell, so a sequence fails where Breaker's answer touches the last
line Maker could still complete). Misère and cumulative rules have no threats in this sense.

This module is the plain **reference**: the rules written out over bit masks of the two sides'
cells (Python integers, from :meth:`Position.owned`), the defender's answers found by trying
every empty cell. :mod:`noughts.proving._tss_kernels` is the numba kernel the proof engine runs
at its nodes; the tests hold the two to the same answers, and every win found to the exact
solver's value.

>>> import noughts
>>> g = noughts.game("mnk(5,5,4)")
>>> w = threat_win(g.parse("...../.xx../..o../...o./....."))
>>> " ".join(g.format_move(m) for m in w.line)  # d2 makes two fours: o blocks one, x takes the other
'd2 a2 e2'
>>> threat_win(g.parse("...../.x.../..o../...../....."), max_order=2, max_depth=3) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from noughts.core import Game, Move, Player, Position, Rule

__all__ = ["ThreatWin", "supports_threats", "threat_sides", "threat_win"]

DEFAULT_DEPTH = 64
"""The attacker's threats a search may chain by default (more than any board's line needs)."""


@dataclass(frozen=True)
class ThreatWin:
    """A win by threats for ``attacker`` from ``position``.

    ``line`` is one principal line of it: the attacker's claims and the defender's answers in
    turn, ending with the claim that completes the attacker's line (the defender's answer at
    each step is its first answer that does not lose at once). ``nodes`` counts the positions
    the search looked at. ``null_move``: the attacker was not to move in ``position`` (the
    search asked what it would threaten if the side to move passed).
    """

    position: Position
    attacker: Player
    line: tuple[Move, ...]
    order: int
    nodes: int
    null_move: bool


def threat_sides(game: Game) -> tuple[Player, ...]:
    """The players whose lines win in ``game`` (whose threats force answers): both under
    standard rules, Maker in Maker-Breaker, none otherwise.
    """
    if game.claim_rule is Rule.STANDARD:
        return (Player.FIRST, Player.SECOND)
    if game.claim_rule is Rule.MAKER_BREAKER and game.maker is not None:
        return (game.maker,)
    return ()


def supports_threats(game: Game, attacker: Player) -> bool:
    """Whether threat-space search applies to ``attacker`` in ``game`` (see the module doc)."""
    return attacker in threat_sides(game)


def threat_win(
    position: Position,
    attacker: Player | None = None,
    *,
    max_order: int = 1,
    max_depth: int = DEFAULT_DEPTH,
) -> ThreatWin | None:
    """A win by threats for ``attacker`` (default: the side to move) from ``position``, or
    None if there is none with threats of order at most ``max_order`` (1 or 2) and at most
    ``max_depth`` of them. Where ``attacker`` is not to move, the side to move passes first
    (a *null move*: what the proof engine asks to find the threats a defender must answer).

    Raises ``ValueError`` where threats do not apply (:func:`supports_threats`).
    """
    game = position.game
    if attacker is None:
        attacker = position.to_move
    if not supports_threats(game, attacker):
        raise ValueError(
            f"threat-space search takes lines that win for the attacker; not {attacker} in {game}"
        )
    if max_order not in (1, 2):
        raise ValueError(f"threats have order 1 (fours) or 2 (threes), not {max_order}")
    if position.is_terminal():
        return None
    search = _Search(game, attacker, max_order)
    a, d = position.owned(attacker), position.owned(attacker.other)
    line = search.attacker_node(a, d, max_depth)
    if line is None:
        return None
    return ThreatWin(
        position, attacker, tuple(line), max_order, search.nodes, position.to_move is not attacker
    )


class _Search:
    """The AND/OR search over masks: ``a`` the attacker's cells, ``d`` the defender's."""

    def __init__(self, game: Game, attacker: Player, max_order: int):
        board = game.board
        self.lines = board.line_masks
        self.k = board.k
        self.full = board.full_mask
        self.cells = board.num_cells
        self.max_order = max_order
        # Maker-Breaker: the defender (Breaker) wins once every line holds one of its cells;
        # under standard rules it wins by completing a line of its own
        self.breaker_defends = game.claim_rule is Rule.MAKER_BREAKER
        self.nodes = 0

    # -- the rules, written out ------------------------------------------------------------------

    def winning_cells(self, mine: int, theirs: int) -> set[int]:
        """Empty cells whose claim completes a line of ``mine`` with no cell of ``theirs``."""
        out = set()
        for m in self.lines:
            rest = m & ~mine
            if not m & theirs and rest.bit_count() == 1:
                out.add(rest.bit_length() - 1)
        return out

    def defender_wins_by(self, a: int, d: int, cell: int) -> bool:
        """Whether the defender's claim of ``cell`` wins the game."""
        d2 = d | 1 << cell
        if self.breaker_defends:
            return all(m & d2 for m in self.lines)
        return any(m >> cell & 1 and m & d2 == m for m in self.lines)

    def defender_winning_cells(self, a: int, d: int) -> set[int]:
        empty = self.full & ~(a | d)
        return {c for c in range(self.cells) if empty >> c & 1 and self.defender_wins_by(a, d, c)}

    def double_four_cells(self, a: int, d: int) -> set[int]:
        """Empty cells whose claim would leave the attacker two or more winning cells."""
        empty = self.full & ~(a | d)
        return {
            c for c in range(self.cells) if empty >> c & 1 and len(self.winning_cells(a | 1 << c, d)) >= 2
        }

    def threat_order(self, a: int, d: int) -> int:
        """After the attacker's claim: 1 if it threatens to win at once (a four), 2 if it has a
        double-four cell (a three), 0 if it threatens nothing.
        """
        if self.winning_cells(a, d):
            return 1
        if self.double_four_cells(a, d):
            return 2
        return 0

    # -- the search ------------------------------------------------------------------------------

    def attacker_node(self, a: int, d: int, depth: int) -> list[int] | None:
        """The attacker to move: a line that wins, or None."""
        self.nodes += 1
        wins = self.winning_cells(a, d)
        if wins:
            return [min(wins)]
        blocks = self.defender_winning_cells(a, d)
        if len(blocks) >= 2 or depth == 0:
            return None
        empty = self.full & ~(a | d)
        cells = sorted(blocks) if blocks else [c for c in range(self.cells) if empty >> c & 1]
        # the threats among them, fours before threes (the order changes the time, not the answer)
        candidates = []
        for g in cells:
            order = self.threat_order(a | 1 << g, d)
            if 0 < order <= self.max_order and (order == 1 or depth >= 2):
                candidates.append((order, g))
        for _order, g in sorted(candidates):
            a2 = a | 1 << g
            if self.defender_winning_cells(a2, d):
                continue  # the defender wins first (only where the claim left one of its threats)
            rest = self.defender_node(a2, d, depth - 1)
            if rest is not None:
                return [g, *rest]
        return None

    def defender_node(self, a: int, d: int, depth: int) -> list[int] | None:
        """The defender to move after a threat: a principal line if every answer loses, else None."""
        self.nodes += 1
        empty = self.full & ~(a | d)
        threatened = self.winning_cells(a, d)  # the attacker's four(s), if the threat was one
        principal: list[int] | None = None
        for c in sorted(range(self.cells), key=lambda c: c not in threatened):
            if not empty >> c & 1:
                continue
            if self.defender_wins_by(a, d, c):
                return None
            d2 = d | 1 << c
            if self.winning_cells(a, d2):
                if principal is None:
                    principal = [c, min(self.winning_cells(a, d2))]  # the attacker wins at once
                continue
            if (empty & ~(1 << c)) == 0:
                return None  # the board is full: a draw
            rest = self.attacker_node(a, d2, depth)
            if rest is None:
                return None
            if principal is None or len(principal) == 2:
                principal = [c, *rest]  # prefer an answer that does not lose at once
        return principal


def threat_win_kernel(
    position: Position,
    attacker: Player | None = None,
    *,
    max_order: int = 1,
    max_depth: int = DEFAULT_DEPTH,
    node_limit: int = 1 << 40,
    memo_slots: int | None = None,
) -> ThreatWin | None:
    """:func:`threat_win` by the numba kernel (:mod:`noughts.proving._tss_kernels`), the search the
    proof engine runs at its nodes; ``node_limit`` stops it (returning None) after that many
    positions. The principal line may differ from the reference's (the kernel tries threats in
    another order); whether there is a win does not. ``memo_slots``: the size of the kernel's
    table of refuted positions (0: none; default :data:`~noughts.proving._tss_kernels.MEMO_SLOTS`).
    """
    import numpy as np

    from noughts.kernels.codes import FOUND
    from noughts.proving import _tss_kernels as T

    game = position.game
    if attacker is None:
        attacker = position.to_move
    if not supports_threats(game, attacker):
        raise ValueError(
            f"threat-space search takes lines that win for the attacker; not {attacker} in {game}"
        )
    if max_order not in (1, 2):
        raise ValueError(f"threats have order 1 (fours) or 2 (threes), not {max_order}")
    if position.is_terminal():
        return None
    board = game.board
    tables = board.tables
    own = np.full(board.num_cells, -1, dtype=np.int8)
    for p in (Player.FIRST, Player.SECOND):
        for c in board.cells_in(position.owned(p)):
            own[c] = int(p)
    cnt = np.zeros((tables.num_lines, 2), dtype=np.int32)
    for j, line in enumerate(board.lines):
        for c in line:
            if own[c] >= 0:
                cnt[j, own[c]] += 1
    depth = min(max_depth, board.num_cells)
    frames, pool, line_out, scratch, memo = T.workspace(
        board.num_cells, depth, T.MEMO_SLOTS if memo_slots is None else memo_slots
    )
    result = np.zeros(2, dtype=np.int64)
    rule = T.DEF_BREAKER if game.claim_rule is Rule.MAKER_BREAKER else T.DEF_LINES
    nempty = board.num_cells - position.occupied().bit_count()
    status = T.threat_search(
        tables.line_cells,
        tables.through,
        tables.nthrough,
        cnt,
        own,
        board.k,
        int(attacker),
        rule,
        max_order,
        depth,
        node_limit,
        nempty,
        frames,
        pool,
        line_out,
        scratch,
        memo,
        result,
    )
    if status != FOUND:
        return None
    line = tuple(int(c) for c in line_out[: int(result[1])])
    return ThreatWin(position, attacker, line, max_order, int(result[0]), position.to_move is not attacker)
