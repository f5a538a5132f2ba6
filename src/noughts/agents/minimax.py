"""Depth-limited minimax with alpha-beta, a heuristic evaluation, reflexes and an opening book.

The search is negamax with fail-soft alpha-beta (Knuth and Moore, "An analysis of alpha-beta
pruning", Artificial Intelligence 6, 1975) over the public position API, so it plays every
game; it never assumes the players alternate (under veto rules one player makes two steps).
Finished positions score ``WIN - ply`` for the winner (a faster win is better, a slower loss
less bad); under scoring rules the final score difference times :data:`SCORE_UNIT`.

**Ties are only ever among exact scores.** 003 §2.4 returns the bound of a pruned subtree as
if it were the move's score and then picks "randomly among ties": a move whose search was cut
off at the current best (its true score may be far lower) ties with the best move, and the
agent can play a losing move. Here the root asks of each move, with null windows, whether its
score is below the best so far (then the score returned is an upper bound below the best), equal
to it (exactly) or above it (then it is searched again for its exact score, the new best), and
only moves with exact scores equal to the best are tied (:meth:`MinimaxAgent.root_scores`
exposes the scores and whether each is exact).

**Evaluation** (claim games; every other game gets a neutral 0, so the search still sees wins
within its horizon). The terms of the arena's heuristic (003 §A.1), generalised from n x n with
m in a row to any claim board and k, from the side to move's view:

* centre: +50 per centre cell (the cells nearest the grid's centre) the mover owns, -50 per
  cell the opponent owns; corners: +10 / -10 per corner cell (003 counts only the mover's
  corners; counting both keeps the evaluation zero-sum);
* line threats, over lines holding one side's marks only: +10 per mover line with k-1 marks,
  +4 with k-2; -8000 per opponent line with k-1, -400 with k-2 (003's weights);
* threats counted by the cells that complete them (two lines missing the same cell are one
  threat), which settles two cases exactly: a mover with a completing cell wins next ply, and
  a mover facing two or more distinct completing cells of the opponent (and none of its own)
  loses in two. These scores are exact, not heuristic.

Misère rules negate the line terms (owning lines is bad; no centre, corner or exact terms);
Maker-Breaker counts Maker's lines only (Breaker has none to make); cumulative rules add the
running score difference (x1000) and weigh both sides' lines alike (both become points).

**Reflexes** (003 §3.2, tier 1), before any search: win now (a move that ends the game in the
mover's win), block now (claim games with standard or Maker-Breaker rules: the one cell that
completes an opponent's line). **Opening book** (003 §4.2, optional): on an empty board take a
centre cell; as the reply to one mark, a free centre cell, else a corner. 003's ban of the
centre as the first move changes the game, so it is not here.

**Clock and table.** ``seconds`` (a clock per move) makes the search deepen one ply at a time up
to ``depth`` and answer with the deepest finished iteration's moves once the clock runs out (it
is looked at every few hundred positions; a first iteration cut short falls back on the
ordering's first move). A transposition table (``tt``, on by default) keeps each searched
position's score for its remaining depth, with whether it is exact or a bound; it is consulted
only at the same remaining depth, so the scores and the ties are exactly those of the search
without it (the table saves work on transpositions, never changes an answer).

**The kernel.** On claim games (every game with a ``claim_rule``, any board size) the search
below the root runs in numba (:mod:`noughts.agents._minimax_kernel`): the same search over line
counts, with the evaluation's terms kept up to date claim by claim instead of walking every line,
and its table as an array. It gives exactly this module's scores, bounds, ties and node counts
(``tests/agents/test_minimax_kernel.py`` holds it to the Python search, which stays as the
reference: ``kernel=false``); it runs in slices of :data:`SLICE_NODES` positions between two
looks at the clock. Other games keep the Python search.

>>> import noughts, numpy as np
>>> g = noughts.game("tictactoe")
>>> agent = from_options(depth="2")
>>> g.format_move(agent.choose(g.parse("xx./oo./..."), np.random.default_rng(0)))
'c1'
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from noughts.agents.base import Decision, read_options
from noughts.core import Move, NoughtsError, Outcome, Player, Position, Rule
from noughts.core.budget import Budget
from noughts.core.game import Game

__all__ = ["INF", "SCORE_UNIT", "WIN", "MinimaxAgent", "from_options", "plain_negamax"]

WIN = 10**9
"""The score of a win at ply 0; a win at ply n scores ``WIN - n``."""

SCORE_UNIT = 10**6
"""Under scoring rules a finished game scores its final score difference times this."""

INF = 2 * WIN

CLOCK_EVERY = 256
"""Positions searched between two looks at the clock."""

SLICE_NODES = 1 << 14
"""Positions the kernel searches between two looks at the clock."""


class _OutOfTime(Exception):
    """The clock ran out inside a search (caught by the agent, never seen outside)."""


CENTRE, CORNER = 50, 10
OWN = (10, 4)  # mover's lines with k-1 and k-2 marks
OPP = (8000, 400)  # opponent's lines with k-1 and k-2 marks


@dataclass(frozen=True)
class _Geometry:
    """What the evaluation needs of one claim board, computed once per game."""

    lines: tuple[int, ...]
    k: int
    centre: int
    corners: int
    order: tuple[int, ...]  # cells, most promising first (centre distance, then lines through)
    kind: str  # standard, misere, maker_breaker, cumulative
    maker: Player | None


_GEOMETRY: dict[Game, _Geometry] = {}


_KINDS = {
    Rule.STANDARD: "standard",
    Rule.MISERE: "misere",
    Rule.MAKER_BREAKER: "maker_breaker",
    Rule.CUMULATIVE: "cumulative",
}


def _geometry(game: Game) -> _Geometry | None:
    rule = game.claim_rule
    if rule is None:
        return None  # Otrio's line rule is standard, but its moves are rings
    geo = _GEOMETRY.get(game)
    if geo is None:
        board = game.board
        mid = [(g - 1) / 2 for g in board.grid]
        dist = [sum((x - m) ** 2 for x, m in zip(c, mid, strict=True)) for c in board.coords]
        near = min(dist)
        centre = sum(1 << c for c, d in enumerate(dist) if d == near)
        corners = sum(
            1 << c
            for c, xy in enumerate(board.coords)
            if all(x in (0, g - 1) for x, g in zip(xy, board.grid, strict=True))
        )
        order = tuple(
            sorted(range(board.num_cells), key=lambda c: (dist[c], -len(board.lines_through[c]), c))
        )
        geo = _GEOMETRY[game] = _Geometry(
            board.line_masks, board.k, centre, corners, order, _KINDS[rule], game.maker
        )
    return geo


def _terminal(p: Position, ply: int) -> int:
    """A finished position's score from the view of ``p.to_move``."""
    mover = p.to_move
    if p.game.properties.is_scored:
        s = p.score()
        assert s is not None
        diff = s[0] - s[1]
        return SCORE_UNIT * (diff if mover is Player.FIRST else -diff)
    outcome = p.outcome()
    if outcome is Outcome.DRAW or outcome is None:
        return 0
    return WIN - ply if outcome.winner is mover else -(WIN - ply)


def _completions(lines: Sequence[int], mine: int, theirs: int, k: int) -> int:
    """The cells that would complete one of ``mine``'s lines (lines ``theirs`` has not touched)."""
    cells = 0
    for m in lines:
        if not theirs & m:
            own = mine & m
            if own.bit_count() == k - 1:
                cells |= m & ~own
    return cells


def evaluate(p: Position, ply: int = 0) -> int:
    """The heuristic score of a non-terminal position for its side to move (see the module
    docstring); 0 for games that are not claim games.
    """
    geo = _geometry(p.game)
    if geo is None:
        return 0
    b0, b1 = p.cell_masks()
    mover = p.to_move
    me, op = (b0, b1) if mover is Player.FIRST else (b1, b0)
    k = geo.k
    kind = geo.kind
    if kind == "standard" or kind == "maker_breaker":
        i_make = kind == "standard" or geo.maker is mover
        they_make = kind == "standard" or geo.maker is not mover
        if i_make and _completions(geo.lines, me, op, k):
            return WIN - (ply + 1)
        if they_make and (_completions(geo.lines, op, me, k)).bit_count() >= 2:
            return -(WIN - (ply + 2))
    score = 0
    own1 = own2 = opp1 = opp2 = 0
    for m in geo.lines:
        a = (me & m).bit_count()
        b = (op & m).bit_count()
        if b == 0 and a:
            if a == k - 1:
                own1 += 1
            elif a == k - 2:
                own2 += 1
        elif a == 0 and b:
            if b == k - 1:
                opp1 += 1
            elif b == k - 2:
                opp2 += 1
    if kind == "standard":
        score += OWN[0] * own1 + OWN[1] * own2 - OPP[0] * opp1 - OPP[1] * opp2
    elif kind == "misere":
        return -(OWN[0] * own1 + OWN[1] * own2) + OWN[0] * opp1 + OWN[1] * opp2
    elif kind == "maker_breaker":
        if geo.maker is mover:
            score += OWN[0] * own1 + OWN[1] * own2
        else:
            score -= OPP[0] * opp1 + OPP[1] * opp2
    else:  # cumulative: both sides' lines are future points
        s = p.score()
        assert s is not None
        diff = s[0] - s[1]
        score += 1000 * (diff if mover is Player.FIRST else -diff)
        score += OWN[0] * (own1 - opp1) + OWN[1] * (own2 - opp2)
    score += CENTRE * ((me & geo.centre).bit_count() - (op & geo.centre).bit_count())
    score += CORNER * ((me & geo.corners).bit_count() - (op & geo.corners).bit_count())
    return score


def _ordered(p: Position) -> list[Move]:
    """Legal moves, most promising first: completing cells, blocking cells, then by centre
    distance (003 §6.2) and lines through the cell; other games keep ``legal_moves()`` order.
    """
    moves = p.legal_moves()
    geo = _geometry(p.game)
    if geo is None or geo.kind == "misere":
        return moves
    b0, b1 = p.cell_masks()
    me, op = (b0, b1) if p.to_move is Player.FIRST else (b1, b0)
    wins = _completions(geo.lines, me, op, geo.k)
    blocks = _completions(geo.lines, op, me, geo.k)
    empty = ~(b0 | b1)
    first = [c for c in geo.order if wins >> c & 1 and empty >> c & 1]
    second = [c for c in geo.order if blocks >> c & 1 and not wins >> c & 1 and empty >> c & 1]
    rest = [c for c in geo.order if empty >> c & 1 and not (wins | blocks) >> c & 1]
    return first + second + rest  # type: ignore[return-value]


def _legal(p: Position) -> list[Move]:
    return p.legal_moves()


def plain_negamax(p: Position, depth: int, ply: int = 0) -> int:
    """The reference: the same scores as the agent's search, computed with no pruning at all."""
    if p.is_terminal():
        return _terminal(p, ply)
    if depth == 0:
        return evaluate(p, ply)
    best = -INF
    for m in p.legal_moves():
        c = p.play(m)
        v = plain_negamax(c, depth - 1, ply + 1)
        best = max(best, v if c.to_move is p.to_move else -v)
    return best


class _Kernel:
    """The kernel's arrays for one claim game: the position loaded, the table, the stack."""

    def __init__(self, game: Game, geo: _Geometry, ordering: bool, tt: bool):
        from noughts.agents import _minimax_kernel as K
        from noughts.kernels.rng import SplitMix64

        board = game.board
        t = board.tables
        cells = t.cells
        self.game = game
        self.P = np.zeros(K.NUM_P, dtype=np.int64)
        self.P[K.P_RULE] = int(game.claim_rule)  # type: ignore[arg-type]  # a claim game
        self.P[K.P_MAKER] = -1 if game.maker is None else int(game.maker)
        self.P[K.P_K] = board.k
        self.P[K.P_CELLS] = cells
        self.P[K.P_ORDER] = 1 if ordering else 0
        self.P[K.P_TT] = 1 if tt else 0
        self.cnt = np.zeros((t.num_lines, 2), dtype=np.int8)
        self.owner = np.full(cells, -1, dtype=np.int8)
        self.thr = np.zeros((2, cells), dtype=np.int32)
        self.busy = np.zeros(cells, dtype=np.int32)
        self.V = np.zeros(K.NUM_V, dtype=np.int64)
        self.H = np.zeros(2, dtype=np.uint64)
        self.tables = (t.through, t.nthrough, t.line_cells)
        self.centre = np.array([geo.centre >> c & 1 for c in range(cells)], dtype=np.int64)
        self.corner = np.array([geo.corners >> c & 1 for c in range(cells)], dtype=np.int64)
        self.order = np.array(geo.order, dtype=np.int32)
        rng = SplitMix64(0x5EED_3141)
        self.zob = np.array([rng.next() for _ in range(4 * cells)], dtype=np.uint64).reshape(cells, 2, 2)
        self.zdep = np.zeros((0, 2), dtype=np.uint64)
        bits = min(20, max(16, (16 * cells * cells).bit_length()))
        size = 1 << bits if tt else 1
        self.tka = np.zeros(size, dtype=np.uint64)
        self.tkb = np.zeros(size, dtype=np.uint64)
        self.tval = np.zeros(size, dtype=np.int64)
        self.tkind = np.zeros(size, dtype=np.int8)
        self.F = np.zeros((0, K.NUM_F), dtype=np.int64)
        self.moves = np.zeros((0, cells), dtype=np.int32)
        self.loaded: Position | None = None

    def _state(self) -> tuple[Any, ...]:
        through, nthrough, line_cells = self.tables
        return (self.P, self.cnt, self.owner, self.thr, self.busy, self.V, self.H, through, nthrough, line_cells,
                self.centre, self.corner, self.zob)  # fmt: skip

    def load(self, position: Position, depth: int) -> None:
        """Hold ``position`` (unless held already) and make room for a search ``depth`` deep."""
        from noughts.agents import _minimax_kernel as K

        if len(self.zdep) <= depth:
            from noughts.kernels.rng import SplitMix64

            rng = SplitMix64(0x0DE9_7415)
            n = 2 * depth + 2
            self.zdep = np.array([rng.next() for _ in range(2 * n)], dtype=np.uint64).reshape(n, 2)
        if len(self.F) <= depth:
            self.F = np.zeros((depth + 1, K.NUM_F), dtype=np.int64)
            self.moves = np.zeros((depth + 1, len(self.owner)), dtype=np.int32)
        if self.loaded is not None and self.loaded == position:
            return
        start = np.array(self.game.cell_owners(position), dtype=np.int8)  # type: ignore[attr-defined]
        aux = self.game.claim_aux(position)  # type: ignore[attr-defined]
        K.setup(*self._state(), start, aux[0], aux[1])  # type: ignore[call-arg]
        self.loaded = position

    def clear_if_full(self) -> None:
        from noughts.agents import _minimax_kernel as K

        if self.V[K.STORED] > len(self.tkind) // 2:
            self.tkind[:] = 0
            self.V[K.STORED] = 0

    def child(
        self, move: int, mover: Player, depth: int, alpha: int, beta: int, deadline: float | None
    ) -> tuple[int, int]:
        """The fail-soft score of the position after ``mover`` claims ``move`` in the position
        held, searched ``depth`` plies with the window (alpha, beta), from the view of the side
        to move there (the reference's ``_search(child, depth, alpha, beta, 1)``), and the nodes
        searched. Out of time: raises ``_OutOfTime`` (the position held is then forgotten).
        """
        from noughts.agents import _minimax_kernel as K

        V, F = self.V, self.F
        nodes = int(V[K.NODES])
        V[K.ROOT_CELL] = move
        V[K.ROOT_MOVER] = int(mover)
        F[0, K.F_MOVER] = 1 - int(mover)
        F[0, K.F_DEP] = depth
        F[0, K.F_ALPHA] = alpha
        F[0, K.F_BETA] = beta
        V[K.SP] = 0
        V[K.PHASE] = K.START
        V[K.PLY0] = 1
        limit = SLICE_NODES if deadline is not None else 1 << 62
        args = (
            *self._state(),
            self.order,
            self.zdep,
            self.tka,
            self.tkb,
            self.tval,
            self.tkind,
            F,
            self.moves,
            limit,
        )
        while not K.run(*args):
            if deadline is not None and time.perf_counter() >= deadline:
                self.loaded = None
                raise _OutOfTime
        return int(V[K.RET]), int(V[K.NODES]) - nodes


class MinimaxAgent:
    """Depth-limited alpha-beta; see the module docstring.

    ``depth``: plies searched below the root. ``reflexes``: win now and block now before
    searching. ``book``: the opening book. ``tie_break``: ``random`` (among exactly tied best
    moves, with the ``rng`` given to ``choose``) or ``first`` (the first in search order).
    ``ordering``: search promising moves first (off: ``legal_moves()`` order, for comparison).
    ``seconds``: a clock per move (iterative deepening up to ``depth``; None: no clock).
    ``tt``: the transposition table. ``kernel``: search claim games in the numba kernel (off:
    the Python search, the reference). ``nodes`` counts the positions searched; ``reached`` is
    the depth of the last answer.
    """

    def __init__(
        self,
        depth: int = 3,
        *,
        reflexes: bool = True,
        book: bool = False,
        tie_break: str = "random",
        ordering: bool = True,
        seconds: float | None = None,
        tt: bool = True,
        kernel: bool = True,
    ):
        if seconds is not None and not 0 < seconds < float("inf"):
            raise NoughtsError(f"minimax seconds is a number of seconds above 0, not {seconds}")
        if depth < 1:
            raise NoughtsError(f"minimax searches at least 1 ply, not depth={depth}")
        if tie_break not in ("first", "random"):
            raise NoughtsError(f"tie is 'first' or 'random', not {tie_break!r}")
        self.depth = depth
        self.reflexes = reflexes
        self.book = book
        self.tie_break = tie_break
        self.ordering = ordering
        self.seconds = seconds
        self.tt = tt
        self.kernel = kernel
        self._kernel: _Kernel | None = None
        self._order = _ordered if ordering else _legal
        self._table: dict[tuple[Position, int], tuple[int, int]] = {}
        self._deadline: float | None = None
        self.reached = 0
        parts = [f"depth={depth}"]
        if not reflexes:
            parts.append("reflexes=false")
        if book:
            parts.append("book=true")
        if tie_break != "random":
            parts.append(f"tie={tie_break}")
        if not ordering:
            parts.append("order=false")
        if seconds is not None:
            parts.append(f"seconds={seconds:g}")
        if not tt:
            parts.append("tt=false")
        if not kernel:
            parts.append("kernel=false")
        self.name = "minimax:" + ",".join(parts)
        self.nodes = 0

    def __repr__(self) -> str:
        return f"MinimaxAgent({self.name!r})"

    # -- the search -------------------------------------------------------------------------------

    def _search(self, p: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        """Fail-soft negamax: the exact score if it lies strictly inside (alpha, beta), else a
        bound on the same side of the window (an upper bound at or below alpha, a lower bound at
        or above beta).
        """
        self.nodes += 1
        deadline = self._deadline
        if deadline is not None and self.nodes % CLOCK_EVERY == 0 and time.perf_counter() >= deadline:
            raise _OutOfTime
        if p.is_terminal():
            return _terminal(p, ply)
        if depth == 0:
            return evaluate(p, ply)
        key = (p, depth)
        if self.tt:
            hit = self._table.get(key)
            if hit is not None:
                # scores of wins and losses are kept relative to the position (ply 0)
                v, kind = _from_table(hit[0], ply), hit[1]
                if kind == 0 or (kind > 0 and v >= beta) or (kind < 0 and v <= alpha):
                    return v
        alpha0 = alpha
        best = -INF
        for m in self._order(p):
            c = p.play(m)
            if c.to_move is p.to_move:
                v = self._search(c, depth - 1, alpha, beta, ply + 1)
            else:
                v = -self._search(c, depth - 1, -beta, -alpha, ply + 1)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        if self.tt:
            kind = -1 if best <= alpha0 else (1 if best >= beta else 0)  # upper bound, lower, exact
            self._table[key] = (_to_table(best, ply), kind)
        return best

    def root_scores(self, position: Position) -> dict[Move, tuple[int, bool]]:
        """Each legal move's score at this agent's depth and whether it is exact: a move whose
        score is not exact is known to be worse than the best (its score is an upper bound).

        The first move is searched with the full window; each later one first with two null
        windows around the best score so far: ``(best - 1, best)`` (below it fails low: worse
        than the best, an upper bound) and ``(best, best + 1)`` (there it fails low: the move
        ties the best, exactly); only a move that beats the best is searched again with the
        window ``(best, +inf)`` for its exact score.
        """
        scores: dict[Move, tuple[int, bool]] = {}
        best = -INF
        kernel = self._kernel_for(position, self.depth)
        for m in self._order(position):
            if best == -INF:
                best = self._root_move(position, m, -INF, INF, kernel)
                scores[m] = (best, True)
                continue
            v = self._root_move(position, m, best - 1, best, kernel)
            if v <= best - 1:
                scores[m] = (v, False)
                continue
            v = self._root_move(position, m, best, best + 1, kernel)
            if v <= best:
                scores[m] = (best, True)  # at least best (the first window), at most best
                continue
            best = self._root_move(position, m, best, INF, kernel)
            scores[m] = (best, True)
        return scores

    def _root_move(self, position: Position, m: Move, alpha: int, beta: int, kernel: _Kernel | None) -> int:
        """The fail-soft score of root move ``m`` with the window (alpha, beta), for the mover."""
        if kernel is not None:  # claim games: the players alternate
            return -self._in_kernel(kernel, position, m, self.depth - 1, -beta, -alpha)
        c = position.play(m)
        if c.to_move is position.to_move:
            return self._search(c, self.depth - 1, alpha, beta, 1)
        return -self._search(c, self.depth - 1, -beta, -alpha, 1)

    def move_scores(self, position: Position) -> dict[Move, int]:
        """The exact score of every legal move (each searched with a full window): the agent's
        own estimate, for overlays. Slower than :meth:`root_scores`.
        """
        out: dict[Move, int] = {}
        kernel = self._kernel_for(position, self.depth)
        for m in position.legal_moves():
            if kernel is not None:
                out[m] = -self._in_kernel(kernel, position, m, self.depth - 1, -INF, INF)
                continue
            c = position.play(m)
            v = self._search(c, self.depth - 1, -INF, INF, 1)
            out[m] = v if c.to_move is position.to_move else -v
        return out

    def _kernel_for(self, position: Position, depth: int) -> _Kernel | None:
        """The kernel holding ``position`` ready for a search ``depth`` deep, or None where the
        Python search runs (``kernel=false``, games that are not claim games).
        """
        if not self.kernel:
            return None
        geo = _geometry(position.game)
        if geo is None:
            return None
        kernel = self._kernel
        if kernel is None or kernel.game != position.game:
            kernel = self._kernel = _Kernel(position.game, geo, self.ordering, self.tt)
        kernel.load(position, depth)
        return kernel

    def _in_kernel(
        self, kernel: _Kernel, position: Position, move: Move, depth: int, alpha: int, beta: int
    ) -> int:
        v, nodes = kernel.child(move, position.to_move, depth, alpha, beta, self._deadline)  # type: ignore[arg-type]
        self.nodes += nodes
        return v

    def best_moves(self, position: Position) -> list[Move]:
        """The moves the search ranks best (exactly tied), in search order; under a clock, those
        of the deepest iteration finished in time.
        """
        if len(self._table) > 2_000_000:
            self._table.clear()
        if self._kernel is not None:
            self._kernel.clear_if_full()
        if self.seconds is None:
            self.reached = self.depth
            return self._best_at(position)
        full = self.depth
        self._deadline = time.perf_counter() + self.seconds
        found: list[Move] = []
        try:
            for d in range(1, full + 1):
                self.depth = d
                found = self._best_at(position)
                self.reached = d
                if time.perf_counter() >= self._deadline:
                    break
        except _OutOfTime:
            pass
        finally:
            self.depth = full
            self._deadline = None
        if not found:
            self.reached = 0
            found = self._order(position)[:1]
        return found

    def _best_at(self, position: Position) -> list[Move]:
        scores = self.root_scores(position)
        top = max(v for v, exact in scores.values() if exact)
        return [m for m, (v, exact) in scores.items() if exact and v == top]

    # -- reflexes and book ----------------------------------------------------------------------

    def _reflex(self, p: Position) -> list[Move] | None:
        mover = p.to_move
        wins = []
        for m in p.legal_moves():
            c = p.play(m)
            if c.is_terminal() and c.outcome() is Outcome.win_for(mover) and not p.game.properties.is_scored:
                wins.append(m)
        if wins:
            return wins
        geo = _geometry(p.game)
        if geo is None or geo.kind not in ("standard", "maker_breaker"):
            return None
        if geo.kind == "maker_breaker" and geo.maker is mover:
            return None
        b0, b1 = p.cell_masks()
        me, op = (b0, b1) if mover is Player.FIRST else (b1, b0)
        threats = _completions(geo.lines, op, me, geo.k)
        if threats.bit_count() == 1:
            return [threats.bit_length() - 1]
        return None

    def _book(self, p: Position) -> Move | None:
        geo = _geometry(p.game)
        if geo is None or geo.kind != "standard":
            return None
        b0, b1 = p.cell_masks()
        taken = b0 | b1
        if taken.bit_count() > 1:
            return None
        free_centre = [c for c in geo.order if geo.centre >> c & 1 and not taken >> c & 1]
        if free_centre:
            return free_centre[0]
        corners = [c for c in geo.order if geo.corners >> c & 1 and not taken >> c & 1]
        return corners[0] if corners else None

    def decide(self, position: Position, rng: np.random.Generator, budget: Budget | None = None) -> Decision:
        """The move under ``budget``'s clock (iterative deepening to ``depth``; the agent's own
        ``seconds`` if sooner).
        """
        started = time.perf_counter()
        left = None if budget is None else budget.remaining()
        own = self.seconds
        if left is not None:
            self.seconds = max(1e-3, 0.9 * left) if own is None else min(own, max(1e-3, 0.9 * left))
        try:
            move = self.choose(position, rng)
        finally:
            self.seconds = own
        return Decision(move, None, f"searched {self.reached} plies deep", time.perf_counter() - started)

    def choose(self, position: Position, rng: np.random.Generator) -> Move:
        if position.is_terminal():
            raise NoughtsError("the game is over: there is no move to choose")
        self.reached = 0
        candidates: list[Move] | None = None
        if self.reflexes:
            candidates = self._reflex(position)
        if candidates is None and self.book:
            move = self._book(position)
            if move is not None:
                return move
        if candidates is None:
            candidates = self.best_moves(position)
        if self.tie_break == "first" or len(candidates) == 1:
            return candidates[0]
        return candidates[int(rng.integers(len(candidates)))]


def _to_table(v: int, ply: int) -> int:
    """A score at ``ply`` as the table keeps it: wins and losses counted from the position."""
    if v > WIN // 2:
        return v + ply
    if v < -WIN // 2:
        return v - ply
    return v


def _from_table(v: int, ply: int) -> int:
    if v > WIN // 2:
        return v - ply
    if v < -WIN // 2:
        return v + ply
    return v


def from_options(**options: str) -> MinimaxAgent:
    """The agent of a spec like
    ``minimax:depth=3,book=true,reflexes=false,tie=first,order=false,seconds=1,tt=false,kernel=false``.
    """
    o: dict[str, Any] = {
        "depth": 3,
        "reflexes": True,
        "book": False,
        "tie": "random",
        "order": True,
        "seconds": None,
        "tt": True,
        "kernel": True,
    } | read_options(
        "minimax",
        options,
        {
            "depth": int,
            "reflexes": bool,
            "book": bool,
            "tie": str,
            "order": bool,
            "seconds": float,
            "tt": bool,
            "kernel": bool,
        },
    )
    return MinimaxAgent(
        o["depth"],
        reflexes=o["reflexes"],
        book=o["book"],
        tie_break=o["tie"],
        ordering=o["order"],
        seconds=o["seconds"],
        tt=o["tt"],
        kernel=o["kernel"],
    )
