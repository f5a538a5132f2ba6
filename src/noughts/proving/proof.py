"""The proof engine: who wins a claim game, proved by df-pn with threats at its nodes.

:class:`ProofSearch` answers one question about positions of one game: can the *attacker*
reach its *goal* whatever the defender does? The goal is :data:`WIN` (the attacker wins), or
:data:`DRAW` (the attacker at least draws: it does not lose), or under cumulative rules a final
score difference (the attacker's lines minus the defender's) of at least the goal. The search
is the numba kernel of :mod:`noughts.proving._dfpn_kernels` (depth-first proof-number search over
a bounded transposition table keyed under the board's symmetries, threat-space search at the
nodes); this module sets it up, runs it in slices with the budget checked between them, and
grows its tables. A proof answers "yes", a disproof "no": a disproof of "the attacker wins" is
a proof that the defender does not lose, so one search settles both.

:func:`prove_value` puts two questions together into the value of a position (who wins, or a
draw; under cumulative rules the score difference, found by bisection); it does not say in
how many plies (the alpha-beta engines of :mod:`noughts.exact.fast` do, on the boards they
finish). :mod:`noughts.proving.strategy` turns a proof into a certificate.

The tests hold the kernel to the plain df-pn of :mod:`noughts.proving.pns` (and both to the
memoised minimax of :mod:`noughts.exact.reference`) on every reachable position of the small
games, for both players and both goals.

>>> import noughts
>>> from noughts.core import Player
>>> g = noughts.game("hypercube(3,3)")
>>> ProofSearch(g, Player.FIRST, WIN).prove(g.start()).proved
True
>>> prove_value(noughts.game("tictactoe")).describe(noughts.game("tictactoe"))
'draw'
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from noughts.core import Game, LimitExceeded, Move, Outcome, Player, Position, Rule
from noughts.core.budget import Budget
from noughts.core.values import Value
from noughts.kernels.codes import DONE, ENTER

__all__ = [
    "DRAW",
    "WIN",
    "Proof",
    "ProofSearch",
    "prove_value",
    "supports",
]

WIN = 1
"""The goal "the attacker wins"."""
DRAW = 0
"""The goal "the attacker at least draws" (does not lose)."""

MAX_SYMMETRIES = 64
"""At most this many symmetries (the first listed) key the table on boards of more than 64
cells (see :mod:`noughts.exact.fast`)."""

MAX_AUTOMORPHISMS = 192
"""On boards of at most 64 cells the table is keyed by up to this many line automorphisms
(:meth:`~noughts.core.tables.KernelTables.automorphism_perms`: Qubic's 192, not only the
cube's 48 symmetries)."""

TSS_DEPTH = 32
"""The attacker's threats a threat search at a node may chain."""

TSS_NODES = 4000
"""The positions one threat search at a node may look at before it gives up (it then settles
nothing: the node is searched as any other)."""

EAGER_WINS = 7
"""The ``eager`` bits :class:`ValueSearches` gives the searches for a win (standard and
Maker-Breaker rules). Bits 1 and 2 (round 4): from positions of Qubic along a strong line
(``bench/qubic.py --plies 10 9 8 7 --options eager=3 --against eager=0 tss_memo=0``) they cut
the nodes of the proof 17 times from 7 and 9 plies (CPU 4.4 and 3.8 times), and prove 6, 5
and 4 plies, which the engine without them did not; from 8 plies they cost 2.3 times the CPU
for the same nodes. Bit 4 (round 5): a move that threatens a win by fours starts at proof
number 1 instead of the length of its threat sequence, so df-pn tries the threatening moves
first and deepest: from 4 plies of Qubic 12,213 nodes instead of 105,490, and Maker-Breaker
Qubic from 2 plies 13,017 instead of 357,693 (BENCHMARKS.md, round 5). Disproofs pay for the
eager searches (the first player's win in ``mnk(5,5,4)``, disproved: 1.4 times the CPU), so
only the searches for a win get them."""

FIRST_ENTRIES = 1 << 16
"""The table starts this small and grows eightfold, up to its budget, as entries are written."""

DEFAULT_TT_BYTES = 1 << 30
"""The most table used when neither ``tt_bytes`` nor the budget's memory says otherwise."""

Array = npt.NDArray[np.generic]


def supports(game: Game) -> bool:
    """Whether the proof engine takes ``game``: claim games under standard, misère,
    Maker-Breaker or cumulative rules (not veto, Notakto, Otrio).
    """
    return game.claim_rule is not None


@dataclass(frozen=True)
class Proof:
    """The answer of :meth:`ProofSearch.prove`: whether ``attacker`` reaches ``goal`` from
    ``position`` whatever the defender does.

    ``move`` is a move that keeps the answer for the side to move where the table holds one
    (the attacker's winning move after a proof, the defender's refutation after a disproof).
    ``nodes`` counts the nodes entered, ``threat_settled`` the nodes a threat search settled
    and ``replay_settled`` the children settled by a replayed threat sequence.
    """

    position: Position
    attacker: Player
    goal: int
    proved: bool
    move: Move | None
    nodes: int
    seconds: float
    threat_settled: int
    replay_settled: int

    def describe(self) -> str:
        game = self.position.game
        who = game.player_label(self.attacker)
        if game.properties.is_scored:
            what = f"a score difference of at least {self.goal:+d}"
            return f"{who} {'can' if self.proved else 'cannot'} force {what}"
        what = "a win" if self.goal >= WIN else "at least a draw"
        return f"{who} {'can' if self.proved else 'cannot'} force {what}"


@dataclass(frozen=True)
class KernelView:
    """A search's arrays as kernels read them (see :meth:`ProofSearch.kernel_view`)."""

    params: npt.NDArray[np.int64]
    perms: npt.NDArray[np.int32]
    inverse: npt.NDArray[np.int32]
    table: tuple[np.ndarray, ...]
    table_mask: int
    tss_depth: int
    tss_nodes: int


class ProofSearch:
    """The proof engine for one game, one attacker and one goal; its table is kept across
    calls (positions of the same game share it).

    ``budget`` bounds the time (checked between slices of the search, a few tenths of a
    second apart) and the memory of the table (the table never grows past half of it).
    ``tt_bytes`` caps the table. ``threats``: the order of the threat searches at the nodes
    (0 none, 1 fours, 2 fours and threes); ``null_move``: check each child against the threat
    sequence the other side would play if the mover passed. ``max_nodes`` stops the search
    (``LimitExceeded``) after that many nodes over all calls. ``progress`` is called with the
    node count after every slice. ``automorphisms``: on boards of at most 64 cells, key the
    table by every line automorphism (:data:`MAX_AUTOMORPHISMS`), not only the symmetries.
    ``eager`` (bits): 1, a threat search for the attacker at each child of a defender's node
    (a defence after which the attacker wins by fours is settled before it is searched: every
    winning sequence counts, not only the null move's); 2, for each of the attacker's moves
    whether it threatens a win by fours, and its initial proof number from that (the few
    answers a threat leaves); 4 (with 2), a move that threatens starts at proof number 1 (df-pn
    tries the threats first). :class:`ValueSearches` asks for all three (:data:`EAGER_WINS`)
    where the goal is a win. ``tss_memo``: each threat search keeps the positions it refuted, so that it searches a
    combination of independent threats once, not in every order (see
    :mod:`noughts.proving._tss_kernels`); off only for comparisons.
    """

    def __init__(
        self,
        game: Game,
        attacker: Player,
        goal: int = WIN,
        budget: Budget | None = None,
        *,
        tt_bytes: int | None = None,
        threats: int = 1,
        null_move: bool = True,
        tss_depth: int = TSS_DEPTH,
        tss_nodes: int = TSS_NODES,
        max_nodes: int | None = None,
        progress: Callable[[int], None] | None = None,
        sym_stones: int | None = None,
        eager: int = 0,
        automorphisms: bool = True,
        tss_memo: bool = True,
    ):
        from noughts.proving import _dfpn_kernels as D
        from noughts.proving import _tss_kernels as T
        from noughts.proving.threats import threat_sides

        if not supports(game):
            raise ValueError(
                f"the proof engine takes claim games (standard, misère, Maker-Breaker, cumulative), not {game}"
            )
        if threats not in (0, 1, 2):
            raise ValueError(f"threats is 0, 1 (fours) or 2 (fours and threes), not {threats}")
        self._D = D
        self.game = game
        self.attacker = attacker
        self.goal = goal
        self.budget = budget
        self.max_nodes = max_nodes
        self.progress = progress
        self.nodes = 0
        self.threat_settled = 0
        self.replay_settled = 0
        board = game.board
        tables = board.tables
        cells = board.num_cells
        self.cells = cells
        self.words = max(1, (cells + 63) // 64)
        if self.words == 1 and automorphisms:
            perms = tables.automorphism_perms(MAX_AUTOMORPHISMS)
        else:
            perms = tables.symmetry_perms(MAX_SYMMETRIES)
        self._perms = np.ascontiguousarray(perms, dtype=np.int32)
        self._inverse = np.argsort(self._perms, axis=1).astype(np.int32)  # cell c maps back from perms[s, c]
        nsym = len(self._perms)
        nk = 2 * self.words
        self._line_cells = tables.line_cells
        self._through = tables.through
        self._nthrough = tables.nthrough
        self._weights = _order_weights(game.claim_rule, board.k)
        prm = np.zeros(D.NUM_PARAMS, dtype=np.int64)
        prm[D.P_RULE] = int(game.claim_rule)  # type: ignore[arg-type]
        prm[D.P_K] = board.k
        prm[D.P_CELLS] = cells
        prm[D.P_LINES] = tables.num_lines
        prm[D.P_SYMS] = nsym
        prm[D.P_WORDS] = self.words
        prm[D.P_ATTACKER] = int(attacker)
        prm[D.P_GOAL] = goal
        prm[D.P_MAKER] = int(game.maker) if game.maker is not None else 0
        prm[D.P_TSS_ORDER] = threats
        prm[D.P_TSS_DEPTH] = tss_depth
        prm[D.P_TSS_NODES] = tss_nodes
        prm[D.P_NULL_MOVE] = 1 if null_move else 0
        prm[D.P_THREATS] = sum(1 << int(p) for p in threat_sides(game))
        prm[D.P_SYM_STONES] = cells if sym_stones is None else sym_stones
        prm[D.P_EAGER] = int(eager)
        prm[D.P_BOARD_SYMS] = min(nsym, len(tables.symmetry_perms(nsym)))
        self._prm = prm
        depth = cells + 2
        self._img = np.zeros((depth, nsym, nk), dtype=np.uint64)
        self._keys = np.zeros((depth, nk), dtype=np.uint64)
        self._node_sym = np.zeros(depth, dtype=np.int32)
        self._frames = np.zeros((depth, D.NUM_FIELDS), dtype=np.int64)
        self._own = np.full(cells, -1, dtype=np.int8)
        self._cnt = np.zeros((max(1, tables.num_lines), 2), dtype=np.int32)
        self._tss = T.workspace(cells, tss_depth, T.MEMO_SLOTS if tss_memo else 0)
        self._seq = np.zeros(2 * tss_depth + 8, dtype=np.int32)
        self._stats = np.zeros(D.NUM_STATS, dtype=np.int64)
        self._allocate_pool(16 * (cells + 1))
        self._entry_bytes = 8 * nk + 4 + 4 + 2 + 4 + 1
        if tt_bytes is None:
            tt_bytes = DEFAULT_TT_BYTES
            if budget is not None and budget.max_memory is not None:
                tt_bytes = min(tt_bytes, budget.max_memory // 2)
        entries = BUCKET_MIN
        while entries * 2 * self._entry_bytes <= tt_bytes:
            entries *= 2
        self._max_entries = entries
        self._allocate_table(min(entries, FIRST_ENTRIES))
        self._slice = 2048

    # -- memory -----------------------------------------------------------------------------------

    def _allocate_pool(self, size: int) -> None:
        nk = 2 * self.words
        self._pool_move = np.zeros(size, dtype=np.int32)
        self._pool_key = np.zeros((size, nk), dtype=np.uint64)
        self._pool_pn = np.zeros(size, dtype=np.int64)
        self._pool_dn = np.zeros(size, dtype=np.int64)
        self._pool_sym = np.zeros(size, dtype=np.int32)

    def _grow_pool(self) -> None:
        old = (self._pool_move, self._pool_key, self._pool_pn, self._pool_dn, self._pool_sym)
        self._allocate_pool(2 * len(self._pool_move))
        n = len(old[0])
        self._pool_move[:n] = old[0]
        self._pool_key[:n] = old[1]
        self._pool_pn[:n] = old[2]
        self._pool_dn[:n] = old[3]
        self._pool_sym[:n] = old[4]

    def _allocate_table(self, entries: int) -> None:
        nk = 2 * self.words
        self._tt = (
            np.zeros((entries, nk), dtype=np.uint64),
            np.zeros(entries, dtype=np.int32),
            np.zeros(entries, dtype=np.int32),
            np.zeros(entries, dtype=np.int16),
            np.zeros(entries, dtype=np.uint32),
            np.zeros(entries, dtype=np.uint8),
        )
        self._prm[self._D.P_TT_MASK] = entries - 1
        self._prm[self._D.P_TT_GROW] = 1 if entries < self._max_entries else 0

    def _grow_table(self) -> None:
        entries = len(self._tt[0])
        from noughts.kernels.table import move_payload, rehash

        old = self._tt
        self._allocate_table(min(self._max_entries, 8 * entries))
        key, pn, dn, move, work, flag = self._tt
        origin = np.zeros(len(work), dtype=np.int64)
        self._stats[self._D.S_STORES] = rehash(old[0], old[4], key, work, origin, self._D.TABLE)
        move_payload(work, origin, (old[1], old[2], old[3], old[5]), (pn, dn, move, flag))

    @property
    def table_bytes(self) -> int:
        """The memory the table takes now."""
        return len(self._tt[0]) * self._entry_bytes

    @property
    def table_entries(self) -> int:
        """Positions held in the table."""
        return int(np.count_nonzero(self._tt[4]))

    def memory(self) -> int:
        """Bytes the search holds (its table and its child pool)."""
        return self.table_bytes + self._pool_key.nbytes + self._pool_move.nbytes + 16 * len(self._pool_pn)

    def kernel_view(self) -> KernelView:
        """What other kernels read of this search (the strategy writer reads its table)."""
        D = self._D
        return KernelView(
            params=self._prm,
            perms=self._perms,
            inverse=self._inverse,
            table=self._tt,
            table_mask=int(self._prm[D.P_TT_MASK]),
            tss_depth=int(self._prm[D.P_TSS_DEPTH]) if int(self._prm[D.P_TSS_ORDER]) else 0,
            tss_nodes=int(self._prm[D.P_TSS_NODES]),
        )

    # -- positions -------------------------------------------------------------------------------

    def _load(self, position: Position) -> None:
        """Set the kernel's position (depth 0) and its images under the symmetries."""
        own = self._own
        own[:] = -1
        for p in (0, 1):
            bits = position.owned(Player(p))
            if bits:
                own[np.array(self.game.board.cells_in(bits), dtype=np.int64)] = p
        self._load_own()

    def _load_own(self) -> int:
        """Load the position in ``self._own`` (see :meth:`_load`); returns its claimed cells."""
        from noughts.proving._strategy_kernels import load_images

        self._node_sym[0] = load_images(
            self._prm, self._own, self._perms, self._line_cells, self._img[0], self._keys[0], self._cnt
        )
        return int(np.count_nonzero(self._own >= 0))

    def key(self, position: Position) -> tuple[int, ...]:
        """The table's key of ``position`` (its least image under the symmetries, as words)."""
        self._load(position)
        return tuple(int(v) for v in self._keys[0])

    def lookup(self, position: Position) -> tuple[int, int, int, int] | None:
        """The table's entry for ``position``: ``(pn, dn, move, how)`` (``move`` in the
        position's own cells), or None. ``how`` is one of the kernel's ``FL_*`` codes.
        """
        self._load(position)
        return self._lookup_loaded()

    def _lookup_loaded(self) -> tuple[int, int, int, int] | None:
        out = np.zeros(4, dtype=np.int64)
        if not self._D.tt_lookup(*self._tt, int(self._prm[self._D.P_TT_MASK]), self._keys[0], out):
            return None
        return int(out[0]), int(out[1]), self._unmap_move(int(out[2])), int(out[3])

    def _unmap_move(self, move: int) -> int:
        """A table move (in the coordinates of the key's image) as a cell of the position last
        loaded.
        """
        if move < 0:
            return move
        return int(self._inverse[self._node_sym[0], move])

    # -- the search ------------------------------------------------------------------------------

    def statistics(self) -> dict[str, int]:
        """What the search did so far: nodes, threat searches run (and the positions they looked
        at, and how many their node limit stopped), nodes settled by a threat search, children
        settled by a replayed threat sequence.
        """
        D = self._D
        st = self._stats
        return {
            "nodes": self.nodes,
            "threat_searches": int(st[D.S_TSS]),
            "threat_nodes": int(st[D.S_TSS_NODES]),
            "threat_cutoffs": int(st[D.S_TSS_CUT]),
            "threat_settled": int(st[D.S_TSS_WON]),
            "replay_settled": int(st[D.S_REPLAY_WON]),
        }

    def progress_text(self) -> str:
        return f"{self.nodes:,} nodes searched, {self.table_entries:,} positions in the table"

    def prove(self, position: Position) -> Proof:
        """Whether the attacker reaches its goal from ``position``; see :class:`Proof`."""
        D = self._D
        if position.game != self.game:
            raise ValueError(f"the position belongs to {position.game}, not {self.game}")
        started = time.perf_counter()
        nodes0 = self.nodes
        tss0 = int(self._stats[D.S_TSS_WON])
        rep0 = int(self._stats[D.S_REPLAY_WON])
        if position.is_terminal():
            proved = _final_reached(position, self.attacker, self.goal)
            return Proof(position, self.attacker, self.goal, proved, None, 0, 0.0, 0, 0)
        self._load(position)
        proved, move = self._run(self.cells - position.occupied().bit_count(), position.to_move)
        return Proof(
            position,
            self.attacker,
            self.goal,
            proved,
            move,
            self.nodes - nodes0,
            time.perf_counter() - started,
            self.threat_settled - tss0,
            self.replay_settled - rep0,
        )

    def prove_cells(self, own: npt.NDArray[np.int8]) -> tuple[bool, int | None]:
        """:meth:`prove` for the unfinished position whose cell ``c`` the player ``own[c]``
        holds (-1: empty), the first player to move where both hold as many cells: whether the
        attacker reaches its goal, and a move that keeps the answer where the table holds one.
        The strategy writer asks this of positions its table no longer answers (no
        :class:`~noughts.core.Position` is built).
        """
        self._own[:] = own
        stones = self._load_own()
        second = int(np.count_nonzero(own == 1))
        mover = Player.SECOND if stones - second > second else Player.FIRST
        return self._run(self.cells - stones, mover)

    def _run(self, empty: int, mover: Player) -> tuple[bool, int | None]:
        """Search the loaded position (``empty`` cells, ``mover`` to move) until it is settled."""
        D = self._D
        self._prm[D.P_ROOT_EMPTY] = empty
        self._prm[D.P_ROOT_MOVER] = int(mover)
        self._frames[0, D.F_THPN] = D.INF
        self._frames[0, D.F_THDN] = D.INF
        stats = self._stats
        stats[D.S_DEPTH] = 0
        stats[D.S_MODE] = ENTER
        stats[D.S_TOP] = 0
        stats[D.S_NODES] = self.nodes
        while True:
            limit = self._slice
            if self.max_nodes is not None:
                limit = max(1, min(limit, self.max_nodes - self.nodes + 1))
            t0 = time.perf_counter()
            status = D.dfpn(
                self._prm,
                self._line_cells,
                self._through,
                self._nthrough,
                self._perms,
                self._weights,
                *self._tt,
                self._img,
                self._keys,
                self._frames,
                self._pool_move,
                self._pool_key,
                self._pool_pn,
                self._pool_dn,
                self._pool_sym,
                self._node_sym,
                self._own,
                self._cnt,
                *self._tss,
                self._seq,
                stats,
                limit,
            )
            spent = time.perf_counter() - t0
            self.nodes = int(stats[D.S_NODES])
            if status == DONE:
                break
            if status == D.GROW:
                self._grow_pool()
                continue
            if status == D.GROW_TABLE:
                self._grow_table()
                continue
            # size the slices to a tenth of a second or so
            if spent < 0.05:
                self._slice = min(self._slice * 2, 1 << 22)
            elif spent > 0.3:
                self._slice = max(self._slice // 2, 256)
            if self.progress is not None:
                self.progress(self.nodes)
            if self.max_nodes is not None and self.nodes > self.max_nodes:
                raise LimitExceeded(
                    f"stopped after {self.max_nodes:,} nodes (the node budget); {self.progress_text()}"
                )
            if self.budget is not None:
                self.budget.check(self.memory(), self.progress_text())
        pn, dn = int(stats[D.S_PN]), int(stats[D.S_DN])
        assert pn == 0 or dn == 0, "the root is settled when the search ends"
        proved = pn == 0
        entry = self._lookup_loaded()  # the root is still loaded (the kernel keeps depth 0)
        move = None if entry is None or entry[2] < 0 else entry[2]
        self.threat_settled = int(stats[D.S_TSS_WON])
        self.replay_settled = int(stats[D.S_REPLAY_WON])
        return proved, move


BUCKET_MIN = 8


def _final_reached(position: Position, attacker: Player, goal: int) -> bool:
    """Whether a finished game reached the attacker's goal."""
    outcome = position.outcome()
    score = position.score()
    if score is not None:
        diff = score[0] - score[1]
        return (diff if attacker is Player.FIRST else -diff) >= goal
    if outcome is Outcome.DRAW:
        return goal <= DRAW
    return outcome is Outcome.win_for(attacker)


def _order_weights(rule: Rule | None, k: int) -> npt.NDArray[np.int64]:
    """``w[a, b]``: what a line holding ``a`` of the mover's cells and ``b`` of the opponent's
    adds to the ordering score of its empty cells (larger first): own lines ``4^a``, the
    opponent's ``3^b``; in misère one's own lines count against a cell.
    """
    w = np.zeros((k + 1, k + 1), dtype=np.int64)
    for a in range(k + 1):
        for b in range(k + 1):
            own = 4 ** min(a, 20) if b == 0 else 0
            theirs = 3 ** min(b, 20) if a == 0 else 0
            w[a, b] = -own + theirs if rule is Rule.MISERE else own + theirs
    return w


def prove_value(
    game: Game,
    position: Position | None = None,
    budget: Budget | None = None,
    **options: Any,
) -> Value:
    """The value of ``position`` (default: the start) by the proof engine: who wins under
    perfect play, or a draw (under cumulative rules, the final score difference). ``plies`` is
    None: the proof engine does not find distances. ``options`` go to :class:`ProofSearch`.
    """
    if position is None:
        position = game.start()
    searches = ValueSearches(game, budget, **options)
    return searches.value(position)


class ValueSearches:
    """The questions that make up the values of positions of one game, each with its table kept
    (the mover's win, the opponent's win; under cumulative rules the score thresholds).
    """

    def __init__(
        self,
        game: Game,
        budget: Budget | None = None,
        progress: Callable[[int], None] | None = None,
        **options: object,
    ):
        self.game = game
        self._searches: dict[tuple[Player, int], ProofSearch] = {}
        self._budget = budget
        self.options = options
        self.progress = progress
        self.nodes_before = 0

    @property
    def budget(self) -> Budget | None:
        """The limits of the next question (each search kept, with its table, answers under it)."""
        return self._budget

    @budget.setter
    def budget(self, budget: Budget | None) -> None:
        self._budget = budget
        for search in self._searches.values():
            search.budget = budget

    @property
    def nodes(self) -> int:
        return self.nodes_before + sum(s.nodes for s in self._searches.values())

    def _report(self, _nodes: int) -> None:
        if self.progress is not None:
            self.progress(self.nodes)

    def search(self, attacker: Player, goal: int) -> ProofSearch:
        key = (attacker, goal)
        found = self._searches.get(key)
        if found is None:
            report = self._report  # reads ``progress`` when called: a watcher set later is told too
            options = dict(self.options)
            if goal >= WIN and not self.game.properties.is_scored:
                options.setdefault("eager", EAGER_WINS)
            found = ProofSearch(self.game, attacker, goal, self.budget, progress=report, **options)  # type: ignore[arg-type]
            self._searches[key] = found
        return found

    def proves(self, position: Position, attacker: Player, goal: int) -> bool:
        return self.search(attacker, goal).prove(position).proved

    def value(self, position: Position) -> Value:
        """The value of ``position`` (``plies`` None; see :func:`prove_value`)."""
        if position.is_terminal():
            outcome = position.outcome()
            assert outcome is not None
            score = position.score()
            return Value(outcome, 0, None if score is None else score[0] - score[1])
        mover = position.to_move
        if self.game.properties.is_scored:
            return Value(*self._score_value(position))
        if self.proves(position, mover, WIN):
            return Value(Outcome.win_for(mover), None)
        if not self.game.properties.has_draws or not self.proves(position, mover, DRAW):
            return Value(Outcome.win_for(mover.other), None)
        return Value(Outcome.DRAW, None)

    def _score_value(self, position: Position) -> tuple[Outcome, None, int]:
        """Cumulative rules: the final score difference (first minus second) under perfect
        play, by bisection on "can the first player reach at least t?".
        """
        score = position.score()
        assert score is not None
        done = score[0] - score[1]
        lines = len(self.game.board.lines)
        lo, hi = done - lines, done + lines  # the first player reaches lo, and not hi + 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.proves(position, Player.FIRST, mid):
                lo = mid
            else:
                hi = mid - 1
        outcome = Outcome.DRAW if lo == 0 else Outcome.FIRST if lo > 0 else Outcome.SECOND
        return outcome, None, lo


def _root_children(search: ProofSearch) -> list[tuple[int, int, int]]:
    """(move, pn, dn) of the root's children as the paused search holds them (diagnostics)."""
    D = search._D
    base = int(search._frames[0, D.F_BASE])
    n = int(search._frames[0, D.F_N])
    return [
        (int(search._pool_move[base + i]), int(search._pool_pn[base + i]), int(search._pool_dn[base + i]))
        for i in range(n)
    ]
