"""Negamax alpha-beta with a transposition table: the exact solver for every rules set.

This is the engine for the games the numba kernel (:mod:`noughts.exact.fast`) does not take
(veto, Notakto, Otrio, boards too large for its bitboards) and the one the kernel is checked
beside. It works over the public position API; only the pruning rules look at a claim game's
state (its two bit masks), and only where the rules make the pruning valid.

Values are integers from the side to move's point of view (:func:`noughts.core.values.to_int`)
and **node-relative**: a win in ``n`` plies *from this node* is ``WIN - n``. A child's value
``c`` becomes the parent's ``-(c - sign(c))`` when the other player moves next, or
``c - sign(c)`` when the same player moves again (under veto rules a player claims and then
vetoes); under scoring rules only the sign flips. So the transposition table, keyed by
:meth:`Position.canonical_key` (one entry per symmetry class), holds values that are true
wherever the position occurs, and the distances stay exact. Entries are ``(lower, upper)``
bounds from fail-soft alpha-beta; an entry with ``lower == upper`` is exact.

Move ordering and pruning (004 §2.1 restricts the tree the same way: take a win, else block):

* an immediate win ends the node at once (it is the best value there is);
* under standard rules (and Otrio, and for Breaker in Maker-Breaker), when the opponent
  threatens to complete a line next move, only the block is searched: any other move loses in
  2 plies, which the block never does worse than; two threats, or a threat the mover cannot
  block (an Otrio ring size used up), lose in 2 outright;
* under veto rules over standard rules (and for Maker in Maker-Breaker) the same holds one
  step removed: at a veto step, a claimer with two winning cells wins whatever the veto (the
  vetoer loses in 2), and a single winning cell must be vetoed;
* these tests are bit operations on the state, done before the table is probed. Under misère
  and cumulative rules, and in Notakto, completing a line is no win, so none of them apply;
* under veto rules, at a veto step with two or more empty cells the pass is not searched: a
  veto only takes a cell away from the claimer, and every claim leads to the same position as
  after a pass, so some veto is always at least as good (the tests check this premise on every
  reachable position of the 3x3 veto games);
* then cells on more lines first (fewer under misère rules), and moves that cut off before
  first (history heuristic); each child position is made only when its turn comes, so a
  cut-off spares making the rest;
* positions a few plies from the end are searched without the table (their key costs more
  than their search); on boards of at most 12 cells the key comes from tables of every mask's
  image under each symmetry (the same key as :meth:`Position.canonical_key`).

The Notakto key of each board is computed once per set of cells and kept (the same key as
:meth:`Position.canonical_key`, which the tests check).

What a value is, including the tie-breaks that make distances and principal variations
unique, is defined once in :mod:`noughts.exact.reference`; the tests hold this engine to that
reference on every reachable position of the small games.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Any, cast

from noughts.core import Game, LimitExceeded, Move, Player, Position, Rule, Veto, VetoGame, require_bounded
from noughts.core.budget import Budget
from noughts.core.values import WIN, Value, from_int, to_int
from noughts.exact.reference import terminal_value

__all__ = ["NodesExceeded", "Searcher"]

INF = WIN + 1
"""Beyond every value: the initial window is ``(-INF, INF)``."""

_ENTRY_BYTES = 320
"""About what one table entry costs in CPython (key tuple, bounds tuple, dict slot)."""

_CHECK_EVERY = 512
"""Nodes between budget checks (a power of two)."""

_NO_TABLE_PLIES = 3
"""Positions at most this many plies from the end are searched without the table: computing
their key costs more than searching them."""


class NodesExceeded(LimitExceeded):
    """The search passed its ``max_nodes`` (a trial: :class:`noughts.exact.engines.AlphaBeta`
    hands the position to the kernel then).
    """


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


class Searcher:
    """Exact values of positions of one game, by alpha-beta with a transposition table.

    The table is kept across calls, so asking for the value of every move of a position, or of
    every position along a game, costs little more than the first answer. ``nodes`` counts the
    positions searched so far (over all calls). ``budget`` (replaceable between calls) bounds
    the time and the table's memory; over budget, :meth:`value` raises ``LimitExceeded`` saying
    how far it got, and the table keeps what was proven.

    >>> import noughts
    >>> s = Searcher(noughts.game("tictactoe"))
    >>> s.value(s.game.start()).describe(s.game)
    'draw'
    >>> s.value(s.game.parse("xx./oo./...")).describe(s.game)
    'x wins in 1'
    """

    engine = "python"
    """The engine's name in solve results (:func:`noughts.exact.api.engine_name`)."""

    def __init__(self, game: Game, budget: Budget | None = None):
        require_bounded(game, "alpha-beta search")
        self.game = game
        self.budget = budget if budget is not None else Budget(max_seconds=None, max_memory=None)
        self.nodes = 0
        self.on_progress: Callable[[Searcher], None] | None = None
        """Called at every budget check (every few thousand nodes), e.g. to draw a progress bar."""
        self.max_nodes: int | None = None
        """Where set, :meth:`value` raises :class:`NodesExceeded` past this many positions in all."""
        self._scored = game.properties.is_scored
        self._tt: dict[Hashable, tuple[int, int]] = {}
        self._lengths: dict[Hashable, int] = {}
        self._history: dict[Move, int] = {}
        self._rules = _Rules.of(game)
        self._key = self._rules.key

    # -- public ---------------------------------------------------------------------------------

    def value(self, position: Position) -> Value:
        """The exact value of ``position`` (see :mod:`noughts.exact.reference`)."""
        if position.game != self.game:
            raise ValueError(f"the position belongs to {position.game}, not {self.game}")
        if position.is_terminal():
            return terminal_value(position)
        v = self.int_value(position)
        plies = WIN - abs(v) if not self._scored and v != 0 else self._length(position, v)
        return from_int(v, position.to_move, plies, self._scored)

    def int_value(self, position: Position) -> int:
        """The exact value as the search's integer, seen by the side to move."""
        if position.is_terminal():
            return to_int(terminal_value(position), position.to_move)
        return self._search(position, -INF, INF)

    @property
    def table_size(self) -> int:
        """Symmetry classes held in the transposition table."""
        return len(self._tt)

    def memory_estimate(self) -> int:
        """Bytes the tables take, roughly."""
        return (len(self._tt) + len(self._lengths)) * _ENTRY_BYTES

    def progress_text(self) -> str:
        return f"{self.nodes:,} positions searched, {len(self._tt):,} in the table"

    # -- the search -----------------------------------------------------------------------------

    def _check(self) -> None:
        if self.on_progress is not None:
            self.on_progress(self)
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise NodesExceeded(f"stopped after {self.max_nodes:,} positions (a trial)")
        self.budget.check(memory=self.memory_estimate(), progress=self.progress_text())

    def _to_parent(self, same: bool, c: int) -> int:
        """A child's value seen from its parent (``same``: the same player moves in both)."""
        if not self._scored:
            c -= (c > 0) - (c < 0)
        return c if same else -c

    def _child_window(self, same: bool, alpha: int, beta: int) -> tuple[int, int]:
        """The child's window for the parent's ``(alpha, beta)``: the inverse of _to_parent."""
        if not same:
            alpha, beta = -beta, -alpha
        if not self._scored:
            alpha += _sign(alpha)
            beta += _sign(beta)
        return alpha, beta

    def _terminal_int(self, child: Position, mover: Player) -> int:
        """The value for ``mover`` of a move to the finished position ``child``."""
        c = to_int(terminal_value(child), child.to_move)
        return self._to_parent(child.to_move is mover, c)

    def _search(self, position: Position, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta: the exact value if it lies inside ``(alpha, beta)``, else a
        bound on the far side of the window. ``position`` has not ended.

        The recursion runs on an explicit stack (``path``), so a game as long as any board
        allows takes no room on Python's call stack: going down a move saves the node's
        search state on ``path`` (a plain tuple, for speed) and coming back restores it. A node
        whose block is forced saves only how to pass its child's value up.
        """
        rules = self._rules
        threats_of = rules.threats
        bounds_of = rules.bounds
        tt = self._tt
        history = self._history
        to_parent, window = self._to_parent, self._child_window
        unscored = not self._scored
        path: list[tuple[Any, ...]] = []
        # the current node's search state (bound when its move loop starts, or restored)
        alpha0 = beta0 = lo = hi = best = i = 0
        key: Hashable | None = None
        moves: list[Move] = []
        mover = position.to_move
        v: int | None = None  # a child's value, seen from the current node, to take in
        entering = True
        while True:
            if entering:
                # -- enter ``position`` with the window (alpha, beta): settle it at once, or
                # set up its move loop
                self.nodes += 1
                if not self.nodes & (_CHECK_EVERY - 1):
                    self._check()
                mover = position.to_move
                value: int | None = None
                if threats_of is not None:  # bit tests, cheaper than a table probe
                    wins, threats, blockable = threats_of(position)
                    if wins:
                        value = WIN - 1
                    elif threats:
                        if threats & (threats - 1) or not threats & blockable:
                            value = 2 - WIN  # two threats, or one that cannot be blocked
                        else:
                            # one threat: the block is forced, and the node is worth its value
                            child = position.play(rules.move_at(threats))
                            if child.is_terminal():
                                self.nodes += 1
                                value = self._terminal_int(child, mover)
                            else:
                                same = child.to_move is mover
                                path.append((None, same))  # passes the child's value up
                                alpha, beta = window(same, alpha, beta)
                                position = child
                                continue
                if value is None:
                    left = rules.most_plies(position)
                    key = None if left is not None and left <= _NO_TABLE_PLIES else self._key(position)
                    entry = None if key is None else tt.get(key)
                    if entry is None:
                        lo, hi = -INF, INF
                    else:
                        lo, hi = entry
                        if lo == hi or lo >= beta:
                            value = lo
                        elif hi <= alpha:
                            value = hi
                        else:
                            alpha = max(alpha, lo)
                            beta = min(beta, hi)
                    if value is None and bounds_of is not None:  # the rules' bounds (pairings)
                        lb, ub = bounds_of(position)
                        if lb > lo or ub < hi:
                            lo, hi = max(lo, lb), min(hi, ub)
                            if lo == hi or lo >= beta:
                                value = lo
                            elif hi <= alpha:
                                value = hi
                            else:
                                alpha = max(alpha, lo)
                                beta = min(beta, hi)
                            if value is not None and key is not None:
                                tt[key] = (lo, hi)
                if value is not None:  # settled at once: back up to the node that takes it
                    while path and path[-1][0] is None:
                        value = to_parent(path.pop()[1], value)
                    if not path:
                        return value
                    position, alpha, beta, alpha0, beta0, lo, hi, key, moves, i, best, mover, same = (
                        path.pop()
                    )
                    v = to_parent(same, value)
                else:
                    alpha0, beta0 = alpha, beta
                    # each child is made only when its turn comes, so a cut-off spares the rest
                    # (a win in one, where the rules allow it, was found by the threat test)
                    moves = rules.search_moves(position)
                    if len(moves) > 1:
                        priority = rules.priority
                        moves.sort(key=lambda m: (-history.get(m, 0), priority(m)))
                    best = -INF
                    i = 0
                entering = False
            # -- the move loop of the current node
            if v is not None:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if v >= beta or (unscored and v == WIN - 1):  # nothing beats a win in one
                            move = moves[i - 1]
                            history[move] = history.get(move, 0) + len(moves)
                            i = len(moves)
                v = None
            if i < len(moves):
                move = moves[i]
                i += 1
                child = position.play(move)
                if child.is_terminal():
                    self.nodes += 1
                    v = self._terminal_int(child, mover)
                else:
                    same = child.to_move is mover
                    path.append(
                        (position, alpha, beta, alpha0, beta0, lo, hi, key, moves, i, best, mover, same)
                    )
                    alpha, beta = window(same, alpha, beta)
                    position = child
                    entering = True
                continue
            # every move searched, or cut off: the node is settled
            if key is None:
                pass
            elif best <= alpha0:
                tt[key] = (lo, min(hi, best))
            elif best >= beta0:
                tt[key] = (max(lo, best), hi)
            else:
                tt[key] = (best, best)
            value = best
            while path and path[-1][0] is None:
                value = to_parent(path.pop()[1], value)
            if not path:
                return value
            position, alpha, beta, alpha0, beta0, lo, hi, key, moves, i, best, mover, same = path.pop()
            v = to_parent(same, value)

    # -- lengths of draws (and of scored games) ---------------------------------------------------

    def _length(self, position: Position, v: int) -> int:
        """The length of the longest game from ``position`` (exact value ``v``) in which both
        sides play only best moves; the ``plies`` of a draw or of a scored value. Depth-first
        on an explicit stack, as :meth:`_search`.
        """
        known = self._known_length(position)
        if known is not None:
            return known
        window, to_parent = self._child_window, self._to_parent
        path: list[list[Any]] = []
        frame = self._length_frame(position, v)
        while True:
            position, v, key, mover, longest_possible, moves, i, best = frame
            child_frame = None
            while i < len(moves) and best != longest_possible:
                child = position.play(moves[i])
                i += 1
                same = child.to_move is mover
                if child.is_terminal():
                    if self._terminal_int(child, mover) == v:
                        best = max(best, 1)
                    continue
                ca, cb = window(same, v - 1, v)
                if to_parent(same, self._search(child, ca, cb)) >= v:
                    c = window(same, v, v)[0]  # the child's exact value
                    got = self._known_length(child)
                    if got is None:
                        child_frame = self._length_frame(child, c)
                        break
                    best = max(best, 1 + got)
            frame[6], frame[7] = i, best
            if child_frame is not None:
                path.append(frame)
                frame = child_frame
                continue
            best = int(best)
            if best < 0:
                raise AssertionError(f"no move of {position.text()!r} reaches its value {v}")
            self._lengths[key] = best
            if not path:
                return best
            frame = path.pop()
            frame[7] = max(frame[7], 1 + best)

    def _known_length(self, position: Position) -> int | None:
        """The length :meth:`_length` gives ``position`` if it is known without a search."""
        if position.is_terminal():
            return 0
        fixed = self._rules.fixed_length
        if fixed is not None:
            return fixed(position)
        return self._lengths.get(self._key(position))

    def _length_frame(self, position: Position, v: int) -> list[Any]:
        """:meth:`_length`'s state for ``position``: its key, the mover, the longest game
        possible, the moves, the next move's index and the longest line found so far.
        """
        moves = position.legal_moves()
        return [
            position,
            v,
            self._key(position),
            position.to_move,
            self._rules.most_plies(position),
            moves,
            0,
            -1,
        ]


# -- what the rules allow ---------------------------------------------------------------------------


class _Rules:
    """Rules-aware helpers for one game: threat masks (where forced blocks are valid), the cell
    a move claims, a static move priority, and game lengths where the rules fix them. Which
    helpers apply is read off what the game declares (``line_rule``, ``has_veto_step``,
    ``layout``), never off its class.
    """

    threats: Callable[[Position], tuple[int, int, int]] | None = None
    bounds: Callable[[Position], tuple[int, int]] | None = None
    fixed_length: Callable[[Position], int] | None = None

    def __init__(self, game: Game):
        self.game = game

    @staticmethod
    def of(game: Game) -> _Rules:
        if game.has_veto_step:
            return _VetoRules(game)
        if game.line_rule is not None:
            return _ClaimRules(game)
        if game.layout.boards is not None:
            return _NotaktoRules(game)
        return _Rules(game)

    def key(self, position: Position) -> Hashable:
        """``position.canonical_key()`` (subclasses compute the same key faster)."""
        return position.canonical_key()

    def move_at(self, bit: int) -> Move:
        """The claim of the cell whose bit is ``bit`` (games with threats)."""
        raise NotImplementedError

    def search_moves(self, position: Position) -> list[Move]:
        """The moves the search must try: the legal moves less those no better than another."""
        return position.legal_moves()

    def priority(self, move: Move) -> Any:
        return 0

    def most_plies(self, position: Position) -> int | None:
        """An upper bound on the plies left (None where unknown)."""
        return None


class _ClaimRules(_Rules):
    """Games whose turns claim one cell of the board (``line_rule``): the claim games, and
    Otrio, whose ring quotas (``claimable``) restrict the claims.
    """

    def __init__(self, game: Game):
        super().__init__(game)
        board = game.board
        rule = game.line_rule
        self.line_masks = board.line_masks
        lines_through = [len(t) for t in board.lines_through]
        self._priority = {c: -n for c, n in enumerate(lines_through)}
        self._action = game.action
        if rule is Rule.MISERE:
            # owning a line loses: cells on fewer lines are the safer claims
            self._priority = {c: n for c, n in enumerate(lines_through)}
        if rule in (Rule.STANDARD, Rule.MAKER_BREAKER):
            self.threats = self._threats
        self._line_cells = [[c for c in range(board.num_cells) if m >> c & 1] for m in board.line_masks]
        # every game ends at its longest unless a line decides it: a draw (or a score) takes
        # every ply (Maker-Breaker has no draws, and its values are distances of wins)
        self._longest = require_bounded(game, "alpha-beta search")
        if rule in (Rule.STANDARD, Rule.MISERE, Rule.CUMULATIVE):
            self.fixed_length = self.most_plies
        # Otrio: only the ring sizes a player still holds can be claimed
        self._quota = game.pieces_left(game.start(), Player.FIRST) is not None
        self._claimable = game.claimable
        self._cell_masks = game.cell_masks
        self._occupied = game.occupied
        self._breaker = None if game.maker is None else game.maker.other
        self._full = board.full_mask
        self._move = game.move
        self._images = _image_tables(game)
        if rule is Rule.STANDARD and not self._quota:
            self.bounds = self._bounds

    def key(self, position: Position) -> Hashable:
        """``position.canonical_key()``, from per-symmetry image tables on small boards."""
        images = self._images
        if images is None:
            return position.canonical_key()
        b0, b1 = self._cell_masks(position)
        return min([(t[b0], t[b1]) for t in images])

    def priority(self, move: Move) -> Any:
        return self._priority[self._action(move)]

    def move_at(self, bit: int) -> Move:
        """The claim of the cell whose bit is ``bit``."""
        return self._move(bit.bit_length() - 1)

    def most_plies(self, position: Position) -> int:
        return self._longest - self._occupied(position).bit_count()

    def _threats(self, position: Position) -> tuple[int, int, int]:
        """As masks: the cells where the mover completes a line now (legal claims only), where
        the opponent would complete one next, and the cells the mover may claim. In
        Maker-Breaker only Maker completes lines, and only Breaker's forced blocks are pruned
        (Breaker's own wins are found by playing the moves).
        """
        mover = position.to_move
        masks = self._cell_masks(position)
        mine, theirs = masks[mover], masks[1 - mover]
        wins, threats = _line_completions(self.line_masks, mine, theirs)
        empty = self._full & ~(mine | theirs)
        if self._breaker is not None:
            return (0, threats, empty) if mover is self._breaker else (wins, 0, empty)
        if self._quota:  # Otrio: only sizes the player still holds
            empty = self._claimable(position, mover)
            wins &= empty
            threats &= self._claimable(position, mover.other)
        return wins, threats, empty

    def _bounds(self, position: Position) -> tuple[int, int]:
        """Bounds on the value of a position under standard rules where neither side completes
        a line next move (the threat test settled those), as the kernel's
        (:func:`noughts.exact._kernels._evaluate_standard`): a side that needs ``n`` more cells
        on its best open line wins in no fewer than ``2n - 1`` plies (the mover) or ``2n`` (the
        opponent), and in none where fewer cells are empty; a side every one of whose open lines
        gets two empty cells of its own (a pairing, 002 §3) never completes one, since the other
        side answers each move in a pair with its partner.
        """
        mover = position.to_move
        masks = self._cell_masks(position)
        mine, theirs = masks[mover], masks[1 - mover]
        empty = self._full & ~(mine | theirs)
        e = empty.bit_count()
        open_m: list[int] = []
        open_o: list[int] = []
        need_m = need_o = e + 1
        for j, m in enumerate(self.line_masks):
            if not theirs & m:
                open_m.append(j)
                need_m = min(need_m, (m & ~mine).bit_count())
            if not mine & m:
                open_o.append(j)
                need_o = min(need_o, (m & ~theirs).bit_count())
        ub = WIN - (2 * need_m - 1) if 2 * need_m - 1 <= e else 0
        lb = 2 * need_o - WIN if 2 * need_o <= e else 0
        if ub > 0 and _paired([self._line_cells[j] for j in open_m], empty):
            ub = 0
        if lb < 0 and _paired([self._line_cells[j] for j in open_o], empty):
            lb = 0
        return lb, ub


_PAIRED_COPIES = 256
"""The most line copies :func:`_paired` matches (its augmenting paths recurse once per copy)."""


def _paired(lines: list[list[int]], empty: int) -> bool:
    """Whether each of ``lines`` (their cells) gets two ``empty`` cells of its own: a matching
    that covers two copies of every line in the graph of line copies and empty cells (002
    §3.1), found by augmenting paths (Kuhn's algorithm).
    """
    n = 2 * len(lines)
    if n > empty.bit_count() or n > _PAIRED_COPIES:
        return False
    copies = [[c for c in cells if empty >> c & 1] for cells in lines for _ in (0, 1)]
    owner: dict[int, int] = {}

    def augment(copy: int, seen: set[int]) -> bool:
        for cell in copies[copy]:
            if cell not in seen:
                seen.add(cell)
                if cell not in owner or augment(owner[cell], seen):
                    owner[cell] = copy
                    return True
        return False

    return all(augment(copy, set()) for copy in range(n))


def _line_completions(line_masks: tuple[int, ...], mine: int, theirs: int) -> tuple[int, int]:
    """Cells that complete a line for the mover, and for the opponent."""
    wins = threats = 0
    for m in line_masks:
        if not theirs & m:
            rest = m & ~mine
            if rest & (rest - 1) == 0 and rest:
                wins |= rest
        elif not mine & m:
            rest = m & ~theirs
            if rest & (rest - 1) == 0:
                threats |= rest
    return wins, threats


class _VetoRules(_Rules):
    """Veto rules over standard or Maker-Breaker rules: the claimer wins at once by claiming a
    cell that completes its line (unless vetoed); at the veto step, a claimer with two such
    cells wins whatever the veto (the vetoer loses in 2), and one such cell must be vetoed.
    """

    def __init__(self, game: Game):
        super().__init__(game)
        board = game.board
        rule = game.line_rule
        lines_through = [len(t) for t in board.lines_through]
        sign = 1 if rule is Rule.MISERE else -1
        self._priority = {c: sign * n for c, n in enumerate(lines_through)}
        self._cells = board.num_cells
        self._full = board.full_mask
        self.line_masks = board.line_masks
        self._images = _image_tables(game)
        self._perms = game.symmetries
        self._veto_state = cast(VetoGame, game).veto_state  # what has_veto_step promises
        self._liner: Player | None = None  # who wins by a line: either player (None), or Maker
        if rule is Rule.STANDARD:
            self.threats = self._threats
        elif rule is Rule.MAKER_BREAKER:
            self._liner = game.maker  # only Maker wins by a line
            self.threats = self._threats

    def key(self, position: Position) -> Hashable:
        """``position.canonical_key()``, from per-symmetry image tables on small boards."""
        images = self._images
        if images is None:
            return position.canonical_key()
        b0, b1, veto = self._veto_state(position)
        if veto is None or veto < 0:
            return min([(t[b0], t[b1], veto) for t in images])
        return min([(t[b0], t[b1], p[veto]) for t, p in zip(images, self._perms, strict=True)])

    def _threats(self, position: Position) -> tuple[int, int, int]:
        b0, b1, veto = self._veto_state(position)
        masks = (b0, b1)
        empty = self._full & ~(b0 | b1)
        if veto is None:  # the mover vetoes; the other player claims next
            claimer = position.to_move.other
            if self._liner is not None and claimer is not self._liner:
                return 0, 0, 0
            wins, _ = _line_completions(self.line_masks, masks[claimer], masks[1 - claimer])
            return 0, wins, empty
        claimer = position.to_move
        if self._liner is not None and claimer is not self._liner:
            return 0, 0, 0
        wins, _ = _line_completions(self.line_masks, masks[claimer], masks[1 - claimer])
        if veto >= 0:
            wins &= ~(1 << veto)
        return wins, 0, 0

    def move_at(self, bit: int) -> Move:
        return Veto(bit.bit_length() - 1)

    def search_moves(self, position: Position) -> list[Move]:
        """The legal moves less the pass at a veto step with two or more empty cells.

        Passing is then no better than any veto: after a veto the claimer chooses among fewer
        cells, and every claim leads to the same position as after a pass. (With one empty cell
        a veto stalls the game, which passing does not.)
        """
        moves = position.legal_moves()
        if self._veto_state(position)[2] is None and len(moves) > 2:
            moves.pop()  # Veto(None), listed last
        return moves

    def priority(self, move: Move) -> Any:
        if isinstance(move, Veto):
            return 1 if move.cell is None else self._priority[move.cell]
        return self._priority[move]  # type: ignore[index]

    def most_plies(self, position: Position) -> int | None:
        b0, b1, veto = self._veto_state(position)
        empty: int = self._cells - (b0 | b1).bit_count()
        return 2 * empty if veto is None else 2 * empty - 1


class _NotaktoRules(_Rules):
    """Games of several boards of one mark (Notakto): each board's key depends on its cells
    only, so it is computed once per set of cells and kept.
    """

    def __init__(self, game: Game):
        super().__init__(game)
        self._board_key = functools.lru_cache(maxsize=1 << 16)(game.board_key)  # type: ignore[attr-defined]
        self._board_marks = game.board_marks

    def key(self, position: Position) -> Hashable:
        """``NotaktoGame.canonical_key``, with each board's key looked up."""
        board_key = self._board_key
        return (position.to_move, *sorted(board_key(bits) for bits in self._board_marks(position)))


_IMAGE_TABLE_CELLS = 12
"""Boards of at most this many cells get a table of every mask's image under each symmetry
(8 x 4096 entries for a 3x4 board), which makes a canonical key a few lookups."""


def _image_tables(game: Game) -> list[list[int]] | None:
    """``tables[s][mask]``: the image of ``mask`` under the game's symmetry s (small boards)."""
    board = game.board
    n = board.num_cells
    if n > _IMAGE_TABLE_CELLS:
        return None
    tables = []
    for perm in game.symmetries:
        t = [0] * (1 << n)
        for c in range(n):
            bit, image = 1 << c, 1 << perm[c]
            for m in range(bit, 1 << (c + 1)):  # masks whose highest cell is c
                t[m] = t[m - bit] | image
        tables.append(t)
    return tables
