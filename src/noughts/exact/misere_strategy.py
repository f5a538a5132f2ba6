"""Misère strategies to at least draw, ending at leaves the checker proves itself.

Under misère rules a side at least draws when it never completes a line first, and some
positions show that statically (:mod:`noughts.proving.strategy_check` has the four kinds of leaf
and why each is sound): a **mirror** (the side not to move holds an involutive automorphism's
fixed cells and the image of the mover's cells, and answers each move with its image), a
**pairing** of the side's live lines (every line it could still complete holds two empty cells
of a pair, the pairs disjoint: it never takes both of a pair), **no line** it could still
complete, and the **horizon** (each such line needs more cells than the side still claims).

:func:`mirror_strategy` writes a side's strategy when a mirror settles it at once (the first
player's draw in misère 5x5, k = 4: the centre, then the point reflection).
:func:`defence_strategy` writes a side's strategy by playing out every game it allows: at the
opponent's turn every empty cell, at the side's turn a move that leads to a leaf if one does,
else a move after which the alpha-beta kernel (:class:`noughts.exact.fast.FastSolver`, whose
table serves every question) says the opponent cannot win; each position under the board's
symmetries once. Both return a :class:`noughts.proving.strategy.Strategy` with its
:class:`noughts.proving.strategy.Leaves`, which :func:`noughts.proving.strategy.write_strategies`
puts into a certificate.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np

from noughts.core import Game, NoughtsError, Player, Position, Rule
from noughts.core.budget import Budget
from noughts.kernels.codes import DONE, ENTER, PAUSED
from noughts.proving.strategy import Leaves, Strategy

__all__ = ["LEAF_CODES", "defence_strategy", "leaf_at", "mirror_strategy"]

LEAF_CODES = {"mirror": 1, "pairing": 2, "no_line": 3, "horizon": 4}
"""The leaf kinds' codes in a certificate (the checker's ``LEAF_KINDS``, which it defines itself)."""

MIRROR, PAIRING, NO_LINE, HORIZON = 1, 2, 3, 4


class _Board:
    """What the walk needs of a board, as Python ints: lines, the lines through each cell,
    the symmetries (as cell permutations) and the mirrors (involutions the argument holds for).
    """

    def __init__(self, game: Game):
        from noughts.exact.fast import MAX_SYMMETRIES, mirrors

        board = game.board
        self.cells = board.num_cells
        self.k = board.k
        self.lines = list(board.line_masks)
        self.line_cells = [tuple(line) for line in board.lines]
        self.through = [[j for j, line in enumerate(board.lines) if c in line] for c in range(self.cells)]
        syms = min(MAX_SYMMETRIES, len(board.symmetries))
        perms = board.tables.symmetry_perms(syms)
        self.perms = np.asarray(perms, dtype=np.int64)
        rows = mirrors(board, syms, 1 if self.cells <= 64 else board.tables.words)
        self.mirror_perms = np.array([perms[int(r[0])] for r in rows], dtype=np.int64).reshape(
            len(rows), self.cells
        )
        self.mirror_maps = [
            ([int(c) for c in p], sum(1 << c for c in range(self.cells) if p[c] == c))
            for p in self.mirror_perms
        ]
        # images of a mask under each symmetry, a byte at a time
        nbytes = (self.cells + 7) // 8
        self.sym_bytes = [
            [[sum(1 << int(p[8 * i + b]) for b in range(8) if (v >> b) & 1 and 8 * i + b < self.cells) for v in range(256)]
             for i in range(nbytes)]
            for p in self.perms
        ]  # fmt: skip

    def key(self, a: int, b: int) -> tuple[int, int]:
        best: tuple[int, int] | None = None
        for table in self.sym_bytes:
            ia = ib = 0
            for i, row in enumerate(table):
                ia |= row[(a >> (8 * i)) & 255]
                ib |= row[(b >> (8 * i)) & 255]
            if best is None or (ia, ib) < best:
                best = (ia, ib)
        assert best is not None
        return best

    def image(self, perm: list[int], mask: int) -> int:
        out = 0
        while mask:
            low = mask & -mask
            out |= 1 << perm[low.bit_length() - 1]
            mask ^= low
        return out

    def would_complete(self, mine: int, c: int) -> bool:
        """Whether claiming ``c`` completes a line of ``mine`` (the reference's plain check)."""
        mine |= 1 << c
        return any(self.lines[j] & mine == self.lines[j] for j in self.through[c])


@lru_cache(maxsize=8)
def _board(game: Game) -> _Board:
    return _Board(game)


def leaf_at(
    position: Position, player: Player
) -> tuple[str, list[int] | None, list[tuple[int, int]] | None] | None:
    """The leaf the strategy writers record for ``player`` at ``position``, if a premise holds
    there: ``(kind, mirror, pairs)`` (a key of :data:`LEAF_CODES`; a mirror leaf's permutation,
    a pairing leaf's pairs), else None.
    """
    _check_game(position)
    if position.is_terminal():
        return None
    bd = _board(position.game)
    rec = _Record()
    b0, b1 = position.owned(Player.FIRST), position.owned(Player.SECOND)
    if not _static_leaf(bd, rec, b0, b1, int(player), position.to_move is player, True):
        return None
    kind = {v: k for k, v in LEAF_CODES.items()}[rec.kinds[0]]
    mirror = [int(c) for c in bd.mirror_perms[rec.mirror[0]]] if rec.mirror[0] >= 0 else None
    return kind, mirror, (list(rec.pairs) if kind == "pairing" else None)


def _mirror_of(bd: _Board, mine: int, theirs: int) -> int:
    """The mirror (row of ``bd.mirror_perms``) by which the side holding ``mine``, not to move,
    mirrors the mover's ``theirs``, or -1.
    """
    for m, (perm, fixed) in enumerate(bd.mirror_maps):
        if fixed | bd.image(perm, theirs) == mine:
            return m
    return -1


def _live(bd: _Board, theirs: int) -> list[int]:
    return [j for j, line in enumerate(bd.lines) if not line & theirs]


def _pairing(bd: _Board, mine: int, theirs: int) -> list[tuple[int, int]] | None:
    """Disjoint pairs of empty cells, two on each line ``mine`` could still complete (a
    matching of two copies of each line into its empty cells, by augmenting paths), or None.
    """
    empty = ~(mine | theirs)
    live = _live(bd, theirs)
    if 2 * len(live) > bd.cells - (mine | theirs).bit_count():
        return None
    copies: list[list[int]] = []
    for j in live:
        cells = [c for c in bd.line_cells[j] if (empty >> c) & 1]
        if len(cells) < 2:
            return None
        copies.append(cells)
        copies.append(cells)
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for c in copies[i]:
            if c in seen:
                continue
            seen.add(c)
            if c not in owner or augment(owner[c], seen):
                owner[c] = i
                return True
        return False

    for i in range(len(copies)):
        if not augment(i, set()):
            return None
    got: dict[int, list[int]] = {}
    for c, i in owner.items():
        got.setdefault(i // 2, []).append(c)
    return [(min(v), max(v)) for v in got.values()]


def _horizon(bd: _Board, mine: int, theirs: int, to_move: bool) -> int:
    """NO_LINE or HORIZON when ``mine`` cannot complete a line before the board is full, else 0."""
    live = _live(bd, theirs)
    if not live:
        return NO_LINE
    empty = bd.cells - (mine | theirs).bit_count()
    moves = (empty + 1) // 2 if to_move else empty // 2
    if all(bd.k - (bd.lines[j] & mine).bit_count() > moves for j in live):
        return HORIZON
    return 0


class _Record:
    def __init__(self) -> None:
        self.words: list[tuple[int, int]] = []
        self.moves: list[int] = []
        self.leaf_words: list[tuple[int, int]] = []
        self.kinds: list[int] = []
        self.mirror: list[int] = []
        self.pair_start: list[int] = []
        self.pair_count: list[int] = []
        self.pairs: list[tuple[int, int]] = []

    def leaf(
        self, b0: int, b1: int, kind: int, mirror: int = -1, pairs: list[tuple[int, int]] | None = None
    ) -> None:
        self.leaf_words.append((b0, b1))
        self.kinds.append(kind)
        self.mirror.append(mirror)
        self.pair_start.append(len(self.pairs))
        self.pair_count.append(len(pairs or ()))
        self.pairs.extend(pairs or ())

    def strategy(
        self, bd: _Board, position: Position, player: Player, positions: int, seconds: float
    ) -> Strategy:
        w = max(1, (bd.cells + 63) // 64)

        def words(rows: list[tuple[int, int]]) -> np.ndarray:
            out = np.zeros((len(rows), 2 * w), dtype=np.uint64)
            for r, (a, b) in enumerate(rows):
                for i in range(w):
                    out[r, i] = (a >> (64 * i)) & 0xFFFFFFFFFFFFFFFF
                    out[r, w + i] = (b >> (64 * i)) & 0xFFFFFFFFFFFFFFFF
            return out

        leaves = Leaves(
            words(self.leaf_words),
            np.array(self.kinds, dtype=np.int64),
            np.array(self.mirror, dtype=np.int64),
            bd.mirror_perms,
            np.array(self.pair_start, dtype=np.int64),
            np.array(self.pair_count, dtype=np.int64),
            np.array(self.pairs, dtype=np.int64).reshape(len(self.pairs), 2),
        )
        return Strategy(
            position,
            player,
            0,
            words(self.words),
            np.array(self.moves, dtype=np.int32),
            positions,
            0,
            seconds,
            leaves,
        )


def _check_game(position: Position) -> None:
    if position.game.claim_rule is not Rule.MISERE:
        raise NoughtsError(f"misère strategies are for misère games, not {position.game}")


def _static_leaf(
    bd: _Board, rec: _Record, b0: int, b1: int, player: int, to_move: bool, pairings: bool
) -> bool:
    """Record a leaf for ``player`` at this position if a premise holds there."""
    mine, theirs = (b0, b1) if player == 0 else (b1, b0)
    if not to_move:
        m = _mirror_of(bd, mine, theirs)
        if m >= 0:
            rec.leaf(b0, b1, MIRROR, m)
            return True
    kind = _horizon(bd, mine, theirs, to_move)
    if kind:
        rec.leaf(b0, b1, kind)
        return True
    if pairings:
        pairs = _pairing(bd, mine, theirs)
        if pairs is not None:
            rec.leaf(b0, b1, PAIRING, pairs=pairs)
            return True
    return False


def mirror_strategy(position: Position, player: Player) -> Strategy | None:
    """``player``'s strategy to at least draw by a mirror from ``position``: a leaf there (the
    player not to move, already mirroring), or the one move that makes the position a mirror's
    and the leaf after it; None when no mirror settles it so.
    """
    _check_game(position)
    started = time.perf_counter()
    bd = _board(position.game)
    p = int(player)
    b0, b1 = position.owned(Player.FIRST), position.owned(Player.SECOND)
    mine, theirs = (b0, b1) if p == 0 else (b1, b0)
    rec = _Record()
    if position.is_terminal():
        return None
    if position.to_move is not player:
        m = _mirror_of(bd, mine, theirs)
        if m < 0:
            return None
        rec.leaf(b0, b1, MIRROR, m)
        return rec.strategy(bd, position, player, 1, time.perf_counter() - started)
    empty = bd.cells - (mine | theirs).bit_count()
    for c in range(bd.cells):
        if (mine | theirs) >> c & 1 or bd.would_complete(mine, c) or empty == 1:
            continue
        after = mine | 1 << c
        m = _mirror_of(bd, after, theirs)
        if m >= 0:
            rec.words.append((b0, b1))
            rec.moves.append(c)
            n0, n1 = (after, theirs) if p == 0 else (theirs, after)
            rec.leaf(n0, n1, MIRROR, m)
            return rec.strategy(bd, position, player, 2, time.perf_counter() - started)
    return None


def defence_strategy(
    position: Position,
    player: Player,
    budget: Budget | None = None,
    progress: Callable[[int], None] | None = None,
    *,
    solver: object | None = None,
    pairings: bool = True,
    kernel: bool = True,
) -> Strategy:
    """``player``'s strategy to at least draw from ``position`` (see the module docstring),
    its moves chosen with the alpha-beta kernel's answers; ``NoughtsError`` if the player
    cannot (the kernel says the opponent wins), ``LimitExceeded`` on the budget. On boards of
    at most 64 cells the walk is a numba kernel (:mod:`noughts.exact._misere_kernels`) unless
    ``kernel`` is False; the Python walk here is its reference.
    """
    from noughts.exact.fast import FastSolver

    _check_game(position)
    started = time.perf_counter()
    game = position.game
    bd = _board(game)
    fast = solver if isinstance(solver, FastSolver) else FastSolver(game, budget)
    p = int(player)
    rec = _Record()
    full = (1 << bd.cells) - 1
    seen: set[tuple[int, int]] = set()
    b0, b1 = position.owned(Player.FIRST), position.owned(Player.SECOND)
    if position.is_terminal():
        return rec.strategy(bd, position, player, 0, 0.0)
    mover0 = int(position.to_move)

    def opponent_wins(b0: int, b1: int, mover: int) -> bool:
        me, op = (b0, b1) if mover == 0 else (b1, b0)
        empty = bd.cells - (b0 | b1).bit_count()
        return fast.mover_wins(me, op, mover, empty)

    if (mover0 != p and opponent_wins(b0, b1, mover0)) or (
        mover0 == p
        and not fast.mover_draws(*((b0, b1) if p == 0 else (b1, b0)), p, bd.cells - (b0 | b1).bit_count())
    ):
        raise NoughtsError(f"the {player.name.lower()} player cannot draw {game} from {position.text()}")
    if kernel and pairings and bd.cells <= 64:
        return _defend_kernel(bd, position, player, fast, budget, progress, started)
    # an explicit stack of (b0, b1, mover, next cell to try at the opponent's turn)
    stack: list[list[int]] = [[b0, b1, mover0, -1]]
    positions = 0
    while stack:
        top = stack[-1]
        b0, b1, mover, it = top
        if it < 0:
            # entering the node
            positions += 1
            if positions % 4096 == 0:
                if progress is not None:
                    progress(positions)
                if budget is not None:
                    budget.check(fast.table_bytes, f"{positions:,} positions of the strategy played out")
            key = bd.key(b0, b1)
            if key in seen:
                stack.pop()
                continue
            seen.add(key)
            if _static_leaf(bd, rec, b0, b1, p, mover == p, pairings):
                stack.pop()
                continue
            if mover == p:
                move = _choose(bd, rec, b0, b1, p, opponent_wins, pairings)
                rec.words.append((b0, b1))
                rec.moves.append(move)
                stack.pop()
                n0, n1 = (b0 | 1 << move, b1) if p == 0 else (b0, b1 | 1 << move)
                if (n0 | n1) != full:
                    stack.append([n0, n1, 1 - p, -1])
                continue
            top[3] = 0
            it = 0
        # the opponent's turn: every empty cell in turn
        occupied = b0 | b1
        c = it
        while c < bd.cells and occupied >> c & 1:
            c += 1
        if c >= bd.cells:
            stack.pop()
            continue
        top[3] = c + 1
        theirs = b1 if p == 0 else b0
        if bd.would_complete(theirs, c):
            continue  # the opponent completes a line: the player wins
        n0, n1 = (b0, b1 | 1 << c) if p == 0 else (b0 | 1 << c, b1)
        if (n0 | n1) == full:
            continue  # a draw
        stack.append([n0, n1, p, -1])
    return rec.strategy(bd, position, player, positions, time.perf_counter() - started)


def _choose(
    bd: _Board,
    rec: _Record,
    b0: int,
    b1: int,
    p: int,
    opponent_wins: Callable[[int, int, int], bool],
    pairings: bool,
) -> int:
    """The player's move: one after which a leaf's premise holds, else one after which the
    opponent cannot win.
    """
    mine, theirs = (b0, b1) if p == 0 else (b1, b0)
    occupied = b0 | b1
    empty = bd.cells - occupied.bit_count()
    safe = [c for c in range(bd.cells) if not occupied >> c & 1 and not bd.would_complete(mine, c)]
    for c in safe:
        after = mine | 1 << c
        if _mirror_of(bd, after, theirs) >= 0 or _horizon(bd, after, theirs, False):
            return c
    if pairings:
        for c in safe:
            if _pairing(bd, mine | 1 << c, theirs) is not None:
                return c
    for c in safe:
        n0, n1 = (b0 | 1 << c, b1) if p == 0 else (b0, b1 | 1 << c)
        if empty == 1 or not opponent_wins(n0, n1, 1 - p):
            return c
    raise NoughtsError("the alpha-beta kernel finds no move that holds the draw: this is a bug")


SLICE_POSITIONS = 1 << 15
"""Positions the numba walk plays out between two looks at the budget."""

CHECK_EVERY = 256
"""The walk also looks at the budget (and reports progress) every this many returns to its
driver (each return a question to the alpha-beta kernel, which checks the budget itself within
a long search)."""


def _defend_kernel(
    bd: _Board,
    position: Position,
    player: Player,
    fast: object,
    budget: Budget | None,
    progress: Callable[[int], None] | None,
    started: float,
) -> Strategy:
    """:func:`defence_strategy`'s walk as a numba kernel (boards of at most 64 cells)."""
    from noughts.exact import _misere_kernels as M

    tables = position.game.board.tables
    cells = bd.cells
    nlines = len(bd.lines)
    lines = np.array(bd.lines, dtype=np.uint64)
    through = tables.through.astype(np.int64)
    nthrough = tables.nthrough.astype(np.int64)
    mfixed = np.array([fixed for _, fixed in bd.mirror_maps], dtype=np.uint64)
    depth = cells + 2
    b0s = np.zeros(depth, dtype=np.uint64)
    b1s = np.zeros(depth, dtype=np.uint64)
    b0s[0] = position.owned(Player.FIRST)
    b1s[0] = position.owned(Player.SECOND)
    iters = np.zeros(depth, dtype=np.int64)
    table = np.zeros((1 << 16, 2), dtype=np.uint64)
    used = np.zeros(1 << 16, dtype=np.uint8)
    rec_words = np.zeros((1 << 12, 2), dtype=np.uint64)
    rec_moves = np.zeros(1 << 12, dtype=np.int32)
    leaf_words = np.zeros((1 << 12, 2), dtype=np.uint64)
    leaf_kinds = np.zeros(1 << 12, dtype=np.int64)
    leaf_mirror = np.zeros(1 << 12, dtype=np.int64)
    leaf_pairs = np.zeros((1 << 12, 2), dtype=np.int64)
    pairs = np.zeros((1 << 12, 2), dtype=np.int64)
    scratch = np.zeros(2 * cells + 6 * nlines + 2, dtype=np.int64)
    state = np.zeros(M.NUM_S, dtype=np.int64)
    state[M.S_MODE] = ENTER
    p = int(player)
    mover0 = int(position.to_move)
    solver: Any = fast
    returns = 0
    while True:
        status = M.defend(
            lines, through, nthrough, bd.k, cells, bd.perms, bd.mirror_perms, mfixed, p, mover0,
            b0s, b1s, iters, table, used, rec_words, rec_moves, leaf_words, leaf_kinds, leaf_mirror,
            leaf_pairs, pairs, scratch, state, SLICE_POSITIONS,
        )  # fmt: skip
        if status == DONE:
            break
        if status == M.NEED_TEST:
            d = int(state[M.S_DEPTH])
            bit = 1 << int(state[M.S_TEST_CELL])
            n0, n1 = int(b0s[d]), int(b1s[d])
            n0, n1 = (n0 | bit, n1) if p == 0 else (n0, n1 | bit)
            me, op = (n1, n0) if p == 0 else (n0, n1)  # the opponent moves next
            empty = cells - (n0 | n1).bit_count()
            state[M.S_ANSWER] = 0 if solver.mover_wins(me, op, 1 - p, empty) else 1
        elif status == M.GROW_SEEN:
            bigger = np.zeros((2 * len(table), 2), dtype=np.uint64)
            bigger_used = np.zeros(2 * len(table), dtype=np.uint8)
            M.rehash(table, used, bigger, bigger_used)
            table, used = bigger, bigger_used
        elif status == M.GROW_RECORDS:
            rec_words = np.concatenate([rec_words, np.zeros_like(rec_words)])
            rec_moves = np.concatenate([rec_moves, np.zeros_like(rec_moves)])
        elif status == M.GROW_LEAVES:
            leaf_words = np.concatenate([leaf_words, np.zeros_like(leaf_words)])
            leaf_kinds = np.concatenate([leaf_kinds, np.zeros_like(leaf_kinds)])
            leaf_mirror = np.concatenate([leaf_mirror, np.zeros_like(leaf_mirror)])
            leaf_pairs = np.concatenate([leaf_pairs, np.zeros_like(leaf_pairs)])
        elif status == M.GROW_PAIRS:
            pairs = np.concatenate([pairs, np.zeros_like(pairs)])
        elif status == M.BAD:
            raise NoughtsError("the alpha-beta kernel finds no move that holds the draw: this is a bug")
        returns += 1
        if status != PAUSED and returns % CHECK_EVERY:
            continue  # a question answered (each well under a millisecond, mostly), an array grown
        if progress is not None:
            progress(int(state[M.S_POSITIONS]))
        if budget is not None:
            memory = table.nbytes + rec_words.nbytes + leaf_words.nbytes + pairs.nbytes + solver.table_bytes
            budget.check(memory, f"{int(state[M.S_POSITIONS]):,} positions of the strategy played out")
    n, nl, npairs = int(state[M.S_RECORDS]), int(state[M.S_LEAVES]), int(state[M.S_PAIRS])
    leaves = Leaves(
        leaf_words[:nl].copy(),
        leaf_kinds[:nl].copy(),
        leaf_mirror[:nl].copy(),
        bd.mirror_perms,
        leaf_pairs[:nl, 0].copy(),
        leaf_pairs[:nl, 1].copy(),
        pairs[:npairs].copy(),
    )
    return Strategy(
        position,
        player,
        0,
        rec_words[:n].copy(),
        rec_moves[:n].copy(),
        int(state[M.S_POSITIONS]),
        0,
        time.perf_counter() - started,
        leaves,
    )
