"""Numba kernels of the exact solver (:mod:`noughts.exact.fast` is their Python face).

One kernel, the search of :func:`search_kernel`, runs fail-soft negamax alpha-beta over two uint64 bitboards (the
side to move's cells and the opponent's) for the four claim rules: standard, misère,
Maker-Breaker and cumulative. It is written as a loop over an explicit stack held in NumPy
arrays rather than as a recursion, so it can stop after a given number of nodes and be called
again to go on exactly where it stopped: Python checks the budget between the slices. Each
player's cells on each line (``cnt``) are kept up to date move by move, so the rules' checks
read counts instead of masking bitboards line by line.

Values inside the search are **root-relative**: a win for the side to move at the search's
root that ends the game at ply ``P`` (counted from the root) is ``WIN - P``, a loss ``-(WIN -
P)``, a draw ``0``, so plain negation passes a value from a child to its parent. The
transposition table stores **node-relative** values (:mod:`noughts.core.values`: a win in n
plies from the stored position is ``WIN - n``), which do not depend on the path to the
position; the conversion at depth ``d`` is ``node = root + d*sign(root)``. Under cumulative
rules a value is the score difference the rest of the game adds (no distances, no conversion).

The table keeps two bounds per position (``lo <= value <= hi``), so the null-window searches of
the driver (MTD(f), Plaat et al. 1996) reuse each other's work; it is keyed by the position's
canonical image under the board's symmetries (the least of the images, computed with per-byte
lookup tables), in buckets of two slots: one kept for the larger searched subtree (by the log
of its node count), one always replaced. Positions with fewer than two empty cells skip it.

What the rules allow to prune, each exact (the moves left out are provably no better, the
bounds provably hold, so distances stay exact):

* standard: a win in one is taken at once; two open threats of the opponent lose in two; one
  threat must be blocked, so only the block is searched. A side that cannot complete a line in
  the plies left cannot win; nor can a side against which the opponent has a **pairing** (two
  empty cells of its own on each line the side could still complete: the opponent answers
  each move in a pair with its partner; 002 §3, found as a matching). These bound the value:
  a dead draw is 0 at once, and a null-window test "a win within P plies?" stops where the win
  cannot come in time. A cell on no line that either side can still complete is worth a pass,
  and claiming a cell is never worse than passing (the strategy-stealing argument), so such
  cells are not searched.
* misère: a move that completes one's own line loses at once, so only the other moves are
  searched; a side with no other move loses in one; a side with no line it could still be
  made to complete never loses, nor one that cannot complete a line before the board is full
  (it completes one no sooner than its move that adds the last cell it lacks on its fullest
  line, which bounds a win or a loss by the plies left as under standard rules); nor a side
  each of whose lines has two empty cells of its own (a pairing, found as under standard
  rules: the side answers a move in a pair with its partner, else takes a cell in no pair,
  else one of a pair, whose partner, in no pair from then on, the other side takes in the end
  since the side only ever takes such a cell when the other just did); nor the side not to
  move when it holds a **mirror**'s fixed cells and the image of the mover's cells
  (:func:`noughts.exact.fast.mirrors`: it answers each move with its image; the first
  player's draw in misère 5x5, k = 4, by the centre and the point reflection). An empty cell
  on no line without both players' cells is **dead**: claiming it changes no line that can
  still decide the game, so any dead cell stands for all of them, and the table keys a
  position by its live cells (the dead ones marked as held by both, a state no cell has) and
  the number of dead empty cells (:func:`_dead_key`). The premises are checked on the
  reference's values in ``tests/exact/test_misere.py``.
* Maker-Breaker: Maker wins in one on a line with k-1 of its cells and no Breaker cell;
  Breaker wins in one on a cell that every surviving line passes through; each side must
  answer the other's single threat and loses to two; a pairing against Maker (or too few
  plies left for it) means Breaker wins by the end of the board; cells on no surviving line
  are not searched.
* cumulative: no early end; the value is bounded by the lines each side can still complete
  (none against a pairing); cells on no line either side can complete are not searched.

**Work.** A slice of the search ends at a number of nodes or at an amount of work
(``stats[S_WORK]``), whichever comes first: the work counts the steps of the inner loops
(:data:`NODE_WORK` per node, a line scanned per line and word, a move scored and each shift of
the insertion sort, each step of the pairing's augmenting paths, each lookup of the table's
key, a move made and unmade), so that the driver can size slices by time. A node's cost varies
by hundreds of times within one search (ordering 300 moves, or looking for a pairing on 193
lines, against a node the rules settle at once), a step's by a few times (1 to 13 ns measured
on 3x3 to 7x7x7); the count is a few integer additions per node.

Move order: the table's best move, searched before the others are even scored; then cells by
a score summed over the lines through them (own lines weighted by how full they are, the
opponent's likewise; :func:`noughts.exact.fast._order_weights`). A history heuristic was tried
and left out: as a tie-breaker it changed node counts by a few per cent either way, and
weighted like the line score it made mnk(5,5,4) hundreds of times slower.

**Two representations, one search.** A mask of cells (a player's cells, a line, the empty
cells, the threats, the moves left to order) is either one uint64 (boards of at most 64 cells)
or a row of ``W`` uint64 words (any board: cell ``c`` is bit ``c % 64`` of word ``c // 64``).
The search below is written once over the mask operations of :mod:`noughts.kernels.masks`
(``width``, ``word``, ``zero``, ``assign``, ``or_line``, ...) and :func:`canonical`, each
overloaded on the mask's type: numba compiles the search once for each representation, with
the operations inlined, so the one-word search keeps its masks in registers while the multi-word one writes
them into rows of ``tmp`` (the operations return the mask they made: a new uint64, or the row
they wrote). What the representations do differently:

* the canonical key: the one-word form ORs per-byte lookup tables (``symtab[s, byte, value]``),
  the multi-word form maps cell by occupied cell through the symmetries' permutations
  (``symtab[s, cell]``; byte tables would take ``W * 256 * W`` words per byte position);
* the table's key is ``2W`` words (two for the one-word form), its best move an int8 or int16.

**One rule at a time.** What the rules say about a node is one function per rule
(:func:`_evaluate_standard`, ...); :func:`search_kernel` gives the search of one rule, in which
the rule is a compile-time constant: numba types and compiles that rule's code only, so the first
solve of a game on a machine compiles about a third of what a search over every rule would.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numba.extending import overload

from noughts.core.values import WIN
from noughts.kernels.bits import INTERNAL, ONE, ZERO, entry, internal, lowest_cell
from noughts.kernels.codes import (
    CUMULATIVE,
    DONE,
    ENTER,
    LOOP,
    MAKER_BREAKER,
    MISERE,
    PAUSED,
    RETURN,
    STANDARD,
)
from noughts.kernels.counts import count_claim, unclaim_counted
from noughts.kernels.masks import (
    and_line,
    and_to,
    andnot_to,
    as_mask,
    assign,
    count,
    empty_to,
    has,
    is_multi,
    line_word,
    nonzero,
    or_line,
    or_line_andnot,
    put,
    row,
    same,
    tmp_row,
    unowned,
    width,
    with_cell,
    without_cell,
    word,
    zero,
)
from noughts.kernels.table import HIT, MOVED, TWO_TIER, find, place_two_tier

INF = 1 << 30
"""Above any value; the bounds of an empty table entry."""

# search status: DONE, PAUSED (noughts.kernels.codes)

# modes of the stack machine
# (ENTER: evaluate the node at depth d; LOOP: search its next move; RETURN: hand the value in
# stats[S_RET] to the parent of depth d; noughts.kernels.codes)

# indices into the parameter array
P_RULE = 0
P_K = 1
P_CELLS = 2
P_LINES = 3
P_SYMS = 4
P_BYTES = 5
P_MAKER = 6  # Maker-Breaker: Maker's player (0 first, 1 second)
P_TT_MASK = 7  # table entries - 1 (a power of two minus one)
P_ROOT_MOVER = 8
P_ROOT_EMPTY = 9
P_TT_MIN_EMPTY = 10  # positions with fewer empty cells skip the table
P_WORDS = 11  # the multi-word form's words per mask (the one-word form: 1)
P_DEAD_KEY = 12  # misère: key positions by their live cells and the number of dead empty cells
NUM_PARAMS = 13

# indices into the stats array
S_NODES = 0
S_DEPTH = 1
S_MODE = 2
S_RET = 3
S_STORES = 4  # new entries written to the table (growth is decided on it)
S_WORK = 5  # the work done so far, in steps of the inner loops (the module docstring, "Work")
NUM_STATS = 6

# fields of one stack frame
F_ALPHA = 0
F_BETA = 1
F_BEST = 2
F_BMOVE = 3
F_IDX = 4
F_NMOV = 5
F_KEYED = 6  # 1 if the node's key is in keys[d] (it uses the table)
F_PTS = 7
F_CUR = 8
F_NODES0 = 9
NUM_FIELDS = 10

# rows of the per-node scratch masks ``tmp`` (multi-word: rows of 2W words, the first W used
# but in T_IMG; one-word: one uint64 each, unused, since its masks live in registers)
T_EMPTY = 0
T_A = 1
T_B = 2
T_C = 3
T_SEEN = 4
T_IMG = 5  # the image of a position under one symmetry (2W words)
NUM_TMP = 6

# what a rule's evaluation decides
EXACT = 0  # the node's value is known: return it
SEARCH = 1  # search the allowed moves

NODE_WORK = 16
"""The work counted for a node itself, besides its steps (entering it, its table probe)."""

NO_MOVES = np.int64(0)
"""The moves ordered so far at a fresh node (an int64, not the literal 0: one specialisation
of :func:`_order`)."""

_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_U255 = np.uint64(255)
DEAD_SHIFT = 58
"""Misère keys hold the number of dead empty cells in the top bits of their last word, above
the board's cells (the driver keys so only where the last word has them free)."""
_U_DEAD = np.uint64(DEAD_SHIFT)


@njit(cache=True, inline="always")
def to_node(v: int, d: int, rule: int) -> int:
    """A root-relative value at depth d as the node-relative value the table stores."""
    if rule == CUMULATIVE or v == 0 or v >= INF or v <= -INF:
        return v
    return v + d if v > 0 else v - d


@njit(cache=True, inline="always")
def from_node(v: int, d: int, rule: int) -> int:
    if rule == CUMULATIVE or v == 0 or v >= INF or v <= -INF:
        return v
    return v - d if v > 0 else v + d


# -- the table's key: the one mask operation of the search's own (the others are in
# noughts.kernels.masks, shared by every kernel)


def canonical(prm: Any, me: Any, op: Any, symtab: Any, key: Any, img: Any) -> Any:
    """Write into ``key`` the least image (me', op') of a position under the symmetries (the
    first ``prm[P_SYMS]`` of ``symtab``): one-word, ``key[0], key[1]``, the images ORed from
    the per-byte tables ``symtab[s, byte, value]``; multi-word, ``key[:2W]``, least in the order
    of the words, mapped cell by cell through the permutations ``symtab[s, cell]`` (``img``: a
    row of 2W words to build an image in).
    """


@overload(canonical, jit_options=INTERNAL)
def _canonical(prm, me, op, symtab, key, img):  # type: ignore[no-untyped-def]
    if is_multi(me):

        def multi(prm, me, op, symtab, key, img):  # type: ignore[no-untyped-def]
            w = prm[P_WORDS]
            for s in range(prm[P_SYMS]):
                for i in range(2 * w):
                    img[i] = ZERO
                for i in range(w):
                    x = me[i]
                    while x != ZERO:
                        c = symtab[s, 64 * i + lowest_cell(x)]
                        img[c >> 6] |= ONE << np.uint64(c & 63)
                        x &= x - ONE
                    x = op[i]
                    while x != ZERO:
                        c = symtab[s, 64 * i + lowest_cell(x)]
                        img[w + (c >> 6)] |= ONE << np.uint64(c & 63)
                        x &= x - ONE
                less = s == 0
                if not less:
                    for i in range(2 * w):
                        if img[i] != key[i]:
                            less = img[i] < key[i]
                            break
                if less:
                    for i in range(2 * w):
                        key[i] = img[i]

        return multi

    def one(prm, me, op, symtab, key, img):  # type: ignore[no-untyped-def]
        best_a = _ALL
        best_b = _ALL
        for s in range(prm[P_SYMS]):
            a = ZERO
            b = ZERO
            for i in range(prm[P_BYTES]):
                sh = np.uint64(8 * i)
                a |= symtab[s, i, np.intp((me >> sh) & _U255)]
                b |= symtab[s, i, np.intp((op >> sh) & _U255)]
            if a < best_a or (a == best_a and b < best_b):
                best_a = a
                best_b = b
        key[0] = best_a
        key[1] = best_b

    return one


@njit(cache=True, inline="always")
def _mirror_word(prm, mirrors, m, symtab, x):  # type: ignore[no-untyped-def]
    """One word: the image of ``x`` under mirror ``m``'s symmetry, with its fixed cells."""
    a = np.uint64(mirrors[m, 1])
    for i in range(prm[P_BYTES]):
        sh = np.uint64(8 * i)
        a |= symtab[mirrors[m, 0], i, np.intp((x >> sh) & _U255)]
    return a


@njit(cache=True, inline="always")
def _mirror_words(prm, mirrors, m, symtab, x, img):  # type: ignore[no-untyped-def]
    """W words: ``img`` := the image of ``x`` under mirror ``m``'s symmetry, with its fixed cells."""
    s = mirrors[m, 0]
    w = prm[P_WORDS]
    for i in range(w):
        img[i] = np.uint64(mirrors[m, 1 + i])
    for i in range(w):
        y = x[i]
        while y != ZERO:
            c = symtab[s, 64 * i + lowest_cell(y)]
            img[c >> 6] |= ONE << np.uint64(c & 63)
            y &= y - ONE


def mirrored(prm: Any, mirrors: Any, symtab: Any, me: Any, op: Any, img: Any) -> Any:
    """Whether the opponent's cells ``op`` are the image of the mover's ``me`` under one of the
    ``mirrors`` (rows: a symmetry's index in ``symtab``, then the words of its fixed cells),
    together with all of that symmetry's fixed cells (:func:`noughts.exact.fast.mirrors`: the
    opponent then never loses a misère game). ``img``: a row of W words to build an image in.
    """


@overload(mirrored, jit_options=INTERNAL)
def _mirrored(prm, mirrors, symtab, me, op, img):  # type: ignore[no-untyped-def]
    if is_multi(me):

        def multi(prm, mirrors, symtab, me, op, img):  # type: ignore[no-untyped-def]
            w = prm[P_WORDS]
            for m in range(mirrors.shape[0]):
                _mirror_words(prm, mirrors, m, symtab, me, img)
                equal = True
                for i in range(w):
                    if img[i] != op[i]:
                        equal = False
                        break
                if equal:
                    return True
            return False

        return multi

    def one(prm, mirrors, symtab, me, op, img):  # type: ignore[no-untyped-def]
        for m in range(mirrors.shape[0]):  # noqa: SIM110 (a loop: numba has no any() of a generator)
            if _mirror_word(prm, mirrors, m, symtab, me) == op:
                return True
        return False

    return one


def mirror_move(prm: Any, mirrors: Any, symtab: Any, me: Any, op: Any, img: Any) -> Any:
    """The cell whose claim makes the position one the mover mirrors (:func:`mirrored` after
    the move, the mover then the side not to move): one of the ``mirrors``' fixed cells and
    images of the opponent's cells that the mover lacks, when it lacks one only and holds no
    other cell; -1 if there is none. Searched first where a draw would cut the node off.
    """


@overload(mirror_move, jit_options=INTERNAL)
def _mirror_move(prm, mirrors, symtab, me, op, img):  # type: ignore[no-untyped-def]
    if is_multi(me):

        def multi(prm, mirrors, symtab, me, op, img):  # type: ignore[no-untyped-def]
            w = prm[P_WORDS]
            for m in range(mirrors.shape[0]):
                _mirror_words(prm, mirrors, m, symtab, op, img)
                cell = -1
                for i in range(w):
                    if me[i] & ~img[i] != ZERO:
                        cell = -2
                        break
                    lack = img[i] & ~me[i]
                    if lack != ZERO:
                        if cell != -1 or lack & (lack - ONE) != ZERO:
                            cell = -2
                            break
                        cell = 64 * i + lowest_cell(lack)
                if cell >= 0:
                    return cell
            return -1

        return multi

    def one(prm, mirrors, symtab, me, op, img):  # type: ignore[no-untyped-def]
        for m in range(mirrors.shape[0]):
            a = _mirror_word(prm, mirrors, m, symtab, op)
            lack = a & ~me
            if me & ~a == ZERO and lack != ZERO and lack & (lack - ONE) == ZERO:
                return lowest_cell(lack)
        return -1

    return one


# -- the search, once -----------------------------------------------------------------------------


@internal
def tt_store(
    tt_key: np.ndarray,
    tt_val: np.ndarray,
    tt_move: np.ndarray,
    tt_work: np.ndarray,
    mask: int,
    key: np.ndarray,
    lo: int,
    hi: int,
    move: int,
    work: int,
) -> int:
    """Store bounds ``lo <= value <= hi`` (node-relative) for ``key`` in the table of
    :mod:`noughts.kernels.table` (two tiers, ranked by ``work``); returns 1 if a new entry was
    written, 0 if an entry for the key was narrowed.
    """
    i, state = place_two_tier(tt_key, tt_work, key, tt_key.shape[1], mask, work)
    if state == HIT:
        tt_val[i, 0] = max(tt_val[i, 0], lo)
        tt_val[i, 1] = min(tt_val[i, 1], hi)
        if move >= 0:
            tt_move[i] = move
        if work > tt_work[i]:
            tt_work[i] = work
        return 0
    if state == MOVED:  # the first slot's entry went to the second: its payload follows
        tt_val[i + 1, 0] = tt_val[i, 0]
        tt_val[i + 1, 1] = tt_val[i, 1]
        tt_move[i + 1] = tt_move[i]
    tt_val[i, 0] = lo
    tt_val[i, 1] = hi
    tt_move[i] = move
    return 1


@internal
def _paired(
    prm: np.ndarray,
    lines: np.ndarray,
    cnt: np.ndarray,
    side: int,
    empty: Any,
    seen: Any,
    scratch: np.ndarray,
    stats: np.ndarray,
) -> bool:
    """Whether every line ``side`` can still complete gets two empty cells of its own: the
    opponent then answers each move in a pair with its partner, so ``side`` never completes a
    line (a pairing strategy, 002 §3).

    The pairs are a matching that covers two copies of every such line in the bipartite graph
    of line copies and empty cells (002 §3.1); it is found with augmenting paths (Kuhn's
    algorithm; 002 §3.2 uses Hopcroft-Karp, which is faster only on graphs far larger than a
    board's). ``scratch`` holds at least ``prm[P_CELLS] + 6 * nlines + 3`` integers; ``seen``
    is a mask (a row of W words for the multi-word form) to work in.
    """
    # scratch: [0, cells) the copy that owns each cell (-1: free); then the copies' lines (at
    # base); then the depth-first stack of copies (at sc) and of the cells they took (at sl),
    # read by offset rather than through views (a view is an object numba counts references to)
    k = prm[P_K]
    nlines = prm[P_LINES]
    base = prm[P_CELLS]
    w = width(empty, prm[P_WORDS])
    stats[S_WORK] += nlines + base  # the scans below; the search's steps are counted as they go
    n = 0
    for j in range(nlines):
        if cnt[j, 1 - side] != 0:
            continue
        if k - cnt[j, side] < 2:
            return False  # a line one move from complete
        scratch[base + n] = j
        scratch[base + n + 1] = j
        n += 2
    if n > count(empty, w):
        return False
    sc = base + n
    sl = base + 2 * n + 1
    for i in range(w):
        x = word(empty, i)
        while x != ZERO:
            scratch[64 * i + lowest_cell(x)] = -1
            x &= x - ONE
    steps = 0
    for copy in range(n):
        scratch[sc] = copy
        depth = 0
        seen = zero(seen, w)
        found = False
        while depth >= 0:
            steps += 1
            j = scratch[base + scratch[sc + depth]]
            c = -1
            for i in range(w):
                cand = line_word(lines, j, i) & word(empty, i) & ~word(seen, i)
                if cand != ZERO:
                    c = 64 * i + lowest_cell(cand)
                    break
            if c < 0:
                depth -= 1
                continue
            seen = with_cell(seen, c)
            scratch[sl + depth] = c
            if scratch[c] < 0:  # a free cell: shift the cells along the path
                for level in range(depth, -1, -1):
                    scratch[scratch[sl + level]] = scratch[sc + level]
                steps += depth
                found = True
                break
            depth += 1
            scratch[sc + depth] = scratch[c]
        if not found:
            stats[S_WORK] += w * (steps + copy + 1)
            return False
    stats[S_WORK] += w * (steps + n)
    return True


# -- what the rules say about a node: one function per rule ---------------------------------------
#
# Each returns ``(kind, value, lb, ub, allowed, init)`` before any move of the node is searched:
# ``kind`` EXACT with ``value``, or SEARCH with static bounds ``lb <= value <= ub``, the mask of
# moves worth searching (made in the ``allowed`` given) and ``init``, the best value among the
# moves left out (-INF if none). ``empty``: the node's empty cells; ``seen``: a mask to work in;
# ``me``/``op``: the mover's and the opponent's cells. The search of one rule compiles only that
# rule's function (:func:`search_kernel`).


@internal
def _evaluate_standard(  # type: ignore[no-untyped-def]
    prm, lines, cnt, me, op, mover, d, e, empty, seen, tmp, scratch, allowed, stats
):
    """Standard rules (see the module docstring)."""
    k = prm[P_K]
    nlines = prm[P_LINES]
    w = width(me, prm[P_WORDS])
    other = 1 - mover
    thr_o = zero(tmp_row(tmp, T_A), w)
    live = zero(tmp_row(tmp, T_B), w)
    win_m = False
    max_m = -1
    max_o = -1
    live_m = 0
    live_o = 0
    for j in range(nlines):
        a = cnt[j, mover]
        b = cnt[j, other]
        if a == 0 or b == 0:
            live = or_line(live, lines, j, w)
        if b == 0:
            live_m += 1
            if a > max_m:
                max_m = a
            if a == k - 1:
                win_m = True
                break
        if a == 0:
            live_o += 1
            if b > max_o:
                max_o = b
            if b == k - 1:
                thr_o = or_line_andnot(thr_o, lines, j, op, w)
    if win_m:
        return EXACT, WIN - (d + 1), 0, 0, allowed, 0
    if e == 0:
        return EXACT, 0, 0, 0, allowed, 0
    nthr = count(thr_o, w)
    if nthr >= 2:
        return EXACT, -(WIN - (d + 2)), 0, 0, allowed, 0
    ub = 0
    if max_m >= 0:
        t = 2 * (k - max_m) - 1
        if t <= e:
            ub = WIN - (d + t)
    lb = 0
    if max_o >= 0:
        t = 2 * (k - max_o)
        if t <= e:
            lb = -(WIN - (d + t))
    # a pairing needs two empty cells for each line
    if ub > 0 and 2 * live_m <= e and _paired(prm, lines, cnt, mover, empty, seen, scratch, stats):
        ub = 0
    if (
        lb < 0
        and nthr == 0
        and 2 * live_o <= e
        and _paired(prm, lines, cnt, other, empty, seen, scratch, stats)
    ):
        lb = 0
    if lb == ub:
        return EXACT, lb, 0, 0, allowed, 0
    if nthr == 1:
        allowed = assign(allowed, thr_o, w)
        return SEARCH, 0, lb, ub, allowed, (-(WIN - (d + 2)) if e >= 2 else -INF)
    # a cell on no line that either side can still complete is worth no more than a pass,
    # and claiming a cell is never worse than passing (the strategy-stealing argument)
    allowed = and_to(allowed, empty, live, w)
    return SEARCH, 0, lb, ub, allowed, -INF


@internal
def _evaluate_misere(  # type: ignore[no-untyped-def]
    prm, lines, cnt, me, op, mover, d, e, empty, seen, tmp, scratch, allowed, stats
):
    """Misère rules (see the module docstring)."""
    k = prm[P_K]
    nlines = prm[P_LINES]
    w = width(me, prm[P_WORDS])
    other = 1 - mover
    poison = zero(tmp_row(tmp, T_A), w)
    live = zero(tmp_row(tmp, T_B), w)
    max_m = -1  # the most of the mover's cells on a line without the opponent's (-1: no such line)
    max_o = -1
    live_m = 0  # the lines each side could still complete
    live_o = 0
    for j in range(nlines):
        a = cnt[j, mover]
        b = cnt[j, other]
        if b == 0:
            live = or_line(live, lines, j, w)
            live_m += 1
            if a > max_m:
                max_m = a
            if a == k - 1:
                poison = or_line_andnot(poison, lines, j, me, w)
        elif a == 0:
            live = or_line(live, lines, j, w)
        if a == 0:
            live_o += 1
            if b > max_o:
                max_o = b
    if e == 0:
        return EXACT, 0, 0, 0, allowed, 0
    allowed = andnot_to(allowed, empty, poison, w)
    if not nonzero(allowed, w):
        return EXACT, -(WIN - (d + 1)), 0, 0, allowed, 0
    if e == 1:
        return EXACT, 0, 0, 0, allowed, 0
    # the mover plays safe now, and completes a line of its own no sooner than its move that
    # adds the last of the k - max_m cells it lacks (ply 2 (k - max_m) - 1, and not before ply
    # 3); the opponent no sooner than ply 2 (k - max_o); a side that cannot do so before the
    # board is full never loses
    lb = 0
    if max_m >= 0:
        t = max(3, 2 * (k - max_m) - 1)
        if t <= e:
            lb = -(WIN - (d + t))
    ub = 0
    if max_o >= 0:
        t = 2 * (k - max_o)
        if t <= e:
            ub = WIN - (d + t)
    # a side whose every line it could still complete has two empty cells of its own (a
    # pairing, as in standard rules) never completes one, whoever moves: it answers a move
    # in a pair with the partner, else takes a cell in no pair, else one of a pair (whose
    # partner then stays the last cell in no pair, which the other side takes in the end)
    if lb < 0 and 2 * live_m <= e and _paired(prm, lines, cnt, mover, empty, seen, scratch, stats):
        lb = 0
    if ub > 0 and 2 * live_o <= e and _paired(prm, lines, cnt, other, empty, seen, scratch, stats):
        ub = 0
    if lb == ub:
        return EXACT, lb, 0, 0, allowed, 0
    init = -INF if same(allowed, empty, w) else -(WIN - (d + 1))
    # an empty cell on no line without both players' cells is dead: claiming it changes no line
    # that can still decide the game, so every dead cell leads to the same game (one tempo
    # move fewer) and one of them stands for all
    dead = andnot_to(tmp_row(tmp, T_C), allowed, live, w)
    if nonzero(dead, w):
        allowed = and_to(allowed, allowed, live, w)
        for i in range(w):
            x = word(dead, i)
            if x != ZERO:
                allowed = with_cell(allowed, 64 * i + lowest_cell(x))
                break
    return SEARCH, 0, lb, ub, allowed, init


@internal
def _evaluate_maker_breaker(  # type: ignore[no-untyped-def]
    prm, lines, cnt, me, op, mover, d, e, empty, seen, tmp, scratch, allowed, stats
):
    """Maker-Breaker rules."""
    k = prm[P_K]
    nlines = prm[P_LINES]
    w = width(me, prm[P_WORDS])
    maker = prm[P_MAKER]
    breaker = 1 - maker
    maker_bits = me if mover == maker else op
    thr = zero(tmp_row(tmp, T_A), w)
    hit = assign(tmp_row(tmp, T_B), empty, w)  # the empty cells on every surviving line
    alive = zero(tmp_row(tmp, T_C), w)
    nsurv = 0
    max_a = -1
    for j in range(nlines):
        if cnt[j, breaker] != 0:
            continue
        nsurv += 1
        a = cnt[j, maker]
        if a > max_a:
            max_a = a
        if a == k - 1:
            thr = or_line_andnot(thr, lines, j, maker_bits, w)
        hit = and_line(hit, lines, j, w)
        alive = or_line(alive, lines, j, w)
    latest = WIN - (d + e)  # Breaker's win when the board is full, at the latest
    if mover == maker:
        if nsurv == 0:  # Breaker has already won (only at a root given so)
            return EXACT, -(WIN - d), 0, 0, allowed, 0
        if nonzero(thr, w):
            return EXACT, WIN - (d + 1), 0, 0, allowed, 0
        nhit = count(hit, w)
        if nhit >= 2:
            return EXACT, -(WIN - (d + 2)), 0, 0, allowed, 0
        t = 2 * (k - max_a) - 1
        ub = WIN - (d + t) if t <= e else -latest
        if ub > -latest and _paired(prm, lines, cnt, maker, empty, seen, scratch, stats):
            ub = -latest
        if nhit == 1:
            allowed = assign(allowed, hit, w)
            return SEARCH, 0, -(WIN - (d + 2)), ub, allowed, (-(WIN - (d + 2)) if e >= 2 else -INF)
        # a cell on no surviving line is worth a pass to either side; see STANDARD
        allowed = and_to(allowed, empty, alive, w)
        return SEARCH, 0, -(WIN - (d + 4)), ub, allowed, -INF
    if nsurv == 0:
        return EXACT, WIN - d, 0, 0, allowed, 0
    if nonzero(hit, w):
        return EXACT, WIN - (d + 1), 0, 0, allowed, 0
    nthr = count(thr, w)
    if nthr >= 2:
        return EXACT, -(WIN - (d + 2)), 0, 0, allowed, 0
    t = 2 * (k - max_a)
    lb = -(WIN - (d + t)) if t <= e else latest
    if lb < latest and _paired(prm, lines, cnt, maker, empty, seen, scratch, stats):
        lb = latest
    ub = WIN - (d + 3)
    if lb == ub:
        return EXACT, lb, 0, 0, allowed, 0
    if nthr == 1:
        allowed = assign(allowed, thr, w)
        return SEARCH, 0, lb, ub, allowed, (-(WIN - (d + 2)) if e >= 2 else -INF)
    allowed = and_to(allowed, empty, alive, w)
    return SEARCH, 0, lb, ub, allowed, -INF


@internal
def _evaluate_cumulative(  # type: ignore[no-untyped-def]
    prm, lines, cnt, me, op, mover, d, e, empty, seen, tmp, scratch, allowed, stats
):
    """Cumulative rules."""
    k = prm[P_K]
    nlines = prm[P_LINES]
    w = width(me, prm[P_WORDS])
    other = 1 - mover
    if e == 0:
        return EXACT, 0, 0, 0, allowed, 0
    live_m = 0
    live_o = 0
    live = zero(tmp_row(tmp, T_A), w)
    for j in range(nlines):
        a = cnt[j, mover]
        b = cnt[j, other]
        if b == 0 and a < k:
            live_m += 1
            live = or_line(live, lines, j, w)
        if a == 0 and b < k:
            live_o += 1
            live = or_line(live, lines, j, w)
    # a pairing strategy holds a side to no more lines (its opponent's gains are >= 0)
    ub = 0 if live_m > 0 and _paired(prm, lines, cnt, mover, empty, seen, scratch, stats) else live_m
    lb = 0 if live_o > 0 and _paired(prm, lines, cnt, other, empty, seen, scratch, stats) else -live_o
    allowed = and_to(allowed, empty, live, w)
    return SEARCH, 0, lb, ub, allowed, -INF  # dead cells: see STANDARD


@njit(cache=True, inline="always")
def _move_score(
    through: np.ndarray,
    nthrough: np.ndarray,
    cnt: np.ndarray,
    weights: np.ndarray,
    c: int,
    mover: int,
    role: int,
) -> int:
    """The ordering score of cell c for the mover (larger is searched first): the sum over the
    lines through c of ``weights[role, mover's cells, opponent's cells]``.
    """
    s = 0
    for t in range(nthrough[c]):
        j = through[c, t]
        s += weights[role, cnt[j, mover], cnt[j, 1 - mover]]
    return s


@njit(cache=True, inline="always")
def _order(
    prm: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    cnt: np.ndarray,
    weights: np.ndarray,
    moves: np.ndarray,
    scores: np.ndarray,
    n: int,
    cells: Any,
    mover: int,
    stats: np.ndarray,
) -> int:
    """Append ``cells`` to ``moves[n:]``, best score first (ties: lower cell first); returns the
    new number of moves. Counts its steps (a line scored, a move shifted) in ``stats[S_WORK]``.
    """
    role = 1 if prm[P_RULE] == MAKER_BREAKER and mover != prm[P_MAKER] else 0
    first = n
    steps = 0
    for i in range(width(cells, prm[P_WORDS])):
        x = word(cells, i)
        while x != ZERO:
            c = 64 * i + lowest_cell(x)
            x &= x - ONE
            s = _move_score(through, nthrough, cnt, weights, c, mover, role)
            t = n
            while t > first and scores[t - 1] < s:
                scores[t] = scores[t - 1]
                moves[t] = moves[t - 1]
                t -= 1
            scores[t] = s
            moves[t] = c
            steps += 1 + nthrough[c] + n - t
            n += 1
    stats[S_WORK] += steps
    return n


@njit(cache=True, inline="always")
def _dead_key(  # type: ignore[no-untyped-def]
    prm, lines, cnt, me, op, empty, full, symtab, key, img, tmp, w
):
    """The misère key of a position (mover's cells ``me``, the opponent's ``op``): what decides
    the rest of the game is the cells of the live lines (those without both players' cells),
    who holds them, and how many empty cells lie on no live line (dead cells: tempo moves,
    :func:`_evaluate_misere`). So every dead cell is keyed as held by both players (a state no
    cell of a position has, which marks the dead cells) and the number of dead empty cells goes
    into the top bits of the key's last word: positions that differ only in who holds dead
    cells, or which dead cells are still empty, share a key, and a key gives back the live
    lines, their cells and the number of empty cells, so their values are equal.
    """
    nlines = prm[P_LINES]
    live = zero(tmp_row(tmp, T_B), w)
    for j in range(nlines):
        if cnt[j, 0] == 0 or cnt[j, 1] == 0:
            live = or_line(live, lines, j, w)
    dead_empty = count(andnot_to(tmp_row(tmp, T_A), empty, live, w), w)
    x = andnot_to(tmp_row(tmp, T_A), live, me, w)
    km = andnot_to(tmp_row(tmp, T_C), full, x, w)  # me's live cells, and every dead cell
    x = andnot_to(tmp_row(tmp, T_A), live, op, w)
    ko = andnot_to(tmp_row(tmp, T_SEEN), full, x, w)
    canonical(prm, km, ko, symtab, key, img)
    key[key.shape[0] - 1] |= np.uint64(dead_empty) << _U_DEAD


_SEARCH: dict[int, Any] = {}


def search_kernel(rule: int) -> Any:
    """The search of one rule (a rule code): :func:`search` below, compiled with only that
    rule's code. The rule is a constant of the closure, so numba drops the other rules'
    branches before it types the code (and keys the cache by it): a game's first solve
    compiles a quarter of the rules, in each mask representation it uses.
    """
    kernel = _SEARCH.get(rule)
    if kernel is None:
        kernel = _SEARCH[rule] = _search_for(rule)
    return kernel


def _search_for(rule: int) -> Any:
    @entry
    def search(
        prm: np.ndarray,
        lines: np.ndarray,
        through: np.ndarray,
        nthrough: np.ndarray,
        symtab: np.ndarray,
        weights: np.ndarray,
        tt_key: np.ndarray,
        tt_val: np.ndarray,
        tt_move: np.ndarray,
        tt_work: np.ndarray,
        bits: np.ndarray,
        keys: np.ndarray,
        stack: np.ndarray,
        moves: np.ndarray,
        cnt: np.ndarray,
        stats: np.ndarray,
        scratch: np.ndarray,
        full: np.uint64 | np.ndarray,
        tmp: np.ndarray,
        mirrors: np.ndarray,
        limit: int,
        work_limit: int,
    ) -> int:
        """Run the search set up in ``bits[0]``, ``stack[0]`` (window) and ``stats`` for at most
        ``limit`` more nodes and about ``work_limit`` more steps of work (``stats[S_WORK]``, see
        the module docstring, "Work"; a node is not begun once either is reached). Returns DONE (the root's value
        is in ``stats[S_RET]``) or PAUSED (call again to go on).

        ``bits[d]`` holds three masks (the mover's cells, the opponent's, the moves still to
        order), ``keys[d]`` the node's key, ``full`` the board's cells: one-word, ``bits`` is
        (depth, 3) uint64, ``full`` a uint64 and ``tmp`` NUM_TMP unused uint64; multi-word, ``bits``
        is (depth, 3, W), ``full`` W words and ``tmp`` (NUM_TMP, 2W) rows to work in.
        """
        # the rule is a constant here: numba keeps one of these branches and types no other
        if rule == STANDARD:
            evaluate = _evaluate_standard
        elif rule == MISERE:
            evaluate = _evaluate_misere
        elif rule == MAKER_BREAKER:
            evaluate = _evaluate_maker_breaker
        else:
            evaluate = _evaluate_cumulative
        mask = prm[P_TT_MASK]
        root_mover = prm[P_ROOT_MOVER]
        root_empty = prm[P_ROOT_EMPTY]
        tt_min = prm[P_TT_MIN_EMPTY]
        k = prm[P_K]
        w = width(full, prm[P_WORDS])
        bits = unowned(bits)  # type: ignore[call-arg]
        keys = unowned(keys)
        lines = unowned(lines)
        tmp = unowned(tmp)
        full = as_mask(full)
        img = tmp[T_IMG]

        d = stats[S_DEPTH]
        mode = stats[S_MODE]
        ret = stats[S_RET]
        nodes = stats[S_NODES]
        stores = stats[S_STORES]
        stop = nodes + limit
        stop_work = stats[S_WORK] + work_limit
        nlines = prm[P_LINES]
        syms = prm[P_SYMS]
        # a key: one-word, a lookup per byte and symmetry; multi-word, a lookup per occupied cell
        # and symmetry (added where it is made) and the image's 2W words cleared and compared
        multi_key = prm[P_BYTES] == 0
        key_work = syms * 4 * w if multi_key else syms * prm[P_BYTES]
        cells = prm[P_CELLS]

        while True:
            if mode == ENTER:
                if nodes >= stop or stats[S_WORK] >= stop_work:
                    stats[S_DEPTH] = d
                    stats[S_MODE] = mode
                    stats[S_RET] = ret
                    stats[S_NODES] = nodes
                    stats[S_STORES] = stores
                    return PAUSED
                nodes += 1
                stats[S_WORK] += NODE_WORK + nlines * w  # the node, the rule's scan of the lines
                me = row(bits, d, 0)
                op = row(bits, d, 1)
                alpha = stack[d, F_ALPHA]
                beta = stack[d, F_BETA]
                e = root_empty - d
                mover = (root_mover + d) & 1
                empty = empty_to(tmp_row(tmp, T_EMPTY), full, me, op, w)
                kind, v, lb, ub, allowed, init = evaluate(
                    prm,
                    lines,
                    cnt,
                    me,
                    op,
                    mover,
                    d,
                    e,
                    empty,
                    tmp_row(tmp, T_SEEN),
                    tmp,
                    scratch,
                    row(bits, d, 2),
                    stats,
                )
                if kind == EXACT:
                    ret = v
                    mode = RETURN
                    continue
                if rule == MISERE and ub > 0 and mirrors.shape[0] > 0:
                    stats[S_WORK] += mirrors.shape[0] * 4 * w
                    if mirrored(prm, mirrors, symtab, me, op, img):
                        ub = 0  # the opponent mirrors every move and never loses
                if ub <= alpha or lb == ub:
                    ret = ub
                    mode = RETURN
                    continue
                if lb >= beta:
                    ret = lb
                    mode = RETURN
                    continue
                best_move = -1
                keyed = 0
                if e >= tt_min:
                    keyed = 1
                    key = keys[d]
                    if rule == MISERE and prm[P_DEAD_KEY] != 0:
                        _dead_key(prm, lines, cnt, me, op, empty, full, symtab, key, img, tmp, w)
                        stats[S_WORK] += nlines * w
                    else:
                        canonical(prm, me, op, symtab, key, img)
                    stats[S_WORK] += key_work + (syms * (cells - e) if multi_key else 0)
                    i = find(tt_key, tt_work, key, 2 * w, mask, TWO_TIER.ways)
                    if i >= 0:
                        lo = max(from_node(tt_val[i, 0], d, rule), lb)
                        hi = min(from_node(tt_val[i, 1], d, rule), ub)
                        best_move = tt_move[i]
                        if lo >= beta or lo == hi:
                            ret = lo
                            mode = RETURN
                        elif hi <= alpha:
                            ret = hi
                            mode = RETURN
                    if mode == RETURN:
                        continue
                if rule == MISERE and beta <= 0 and mirrors.shape[0] > 0:
                    stats[S_WORK] += mirrors.shape[0] * 4 * w
                    c = mirror_move(prm, mirrors, symtab, me, op, img)
                    if c >= 0:
                        best_move = c  # a draw cuts this node off, and the mirror holds one
                stack[d, F_KEYED] = keyed
                stack[d, F_NODES0] = nodes
                # the table's best move first; the others (left in bits[d, 2]) are scored only if
                # it does not cut off
                if best_move >= 0 and has(allowed, best_move):
                    moves[d, 0] = best_move
                    n = 1
                    put(bits, d, 2, without_cell(allowed, best_move), w)
                else:
                    n = _order(
                        prm,
                        through,
                        nthrough,
                        cnt,
                        weights,
                        moves[d],
                        scratch,
                        NO_MOVES,
                        allowed,
                        mover,
                        stats,
                    )
                    put(bits, d, 2, zero(allowed, w), w)
                stack[d, F_IDX] = 0
                stack[d, F_NMOV] = n
                stack[d, F_BEST] = init
                stack[d, F_BMOVE] = -1
                mode = LOOP
            elif mode == LOOP:
                best = stack[d, F_BEST]
                beta = stack[d, F_BETA]
                idx = stack[d, F_IDX]
                rest = row(bits, d, 2)
                if idx == stack[d, F_NMOV] and best < beta and nonzero(rest, w):
                    mover = (root_mover + d) & 1
                    stack[d, F_NMOV] = _order(
                        prm, through, nthrough, cnt, weights, moves[d], scratch, idx, rest, mover, stats
                    )
                    put(bits, d, 2, zero(rest, w), w)
                if best >= beta or idx == stack[d, F_NMOV]:
                    bm = stack[d, F_BMOVE]
                    if stack[d, F_KEYED] != 0:
                        alpha = stack[d, F_ALPHA]
                        lo = -INF
                        hi = INF
                        if best <= alpha:
                            hi = best
                        elif best >= beta:
                            lo = best
                        else:
                            lo = best
                            hi = best
                        lo = to_node(lo, d, rule)
                        hi = to_node(hi, d, rule)
                        work = 1
                        span = nodes - stack[d, F_NODES0]
                        while span > 0 and work < 255:
                            span >>= 1
                            work += 1
                        stores += tt_store(tt_key, tt_val, tt_move, tt_work, mask, keys[d], lo, hi, bm, work)
                    ret = best
                    mode = RETURN
                    continue
                c = moves[d, idx]
                stack[d, F_IDX] = idx + 1
                stack[d, F_CUR] = c
                stats[S_WORK] += 2 * nthrough[c] + 3 * w  # the move made and unmade
                mover = (root_mover + d) & 1
                p = 0
                if rule == CUMULATIVE:
                    for t in range(nthrough[c]):
                        j = through[c, t]
                        if cnt[j, mover] == k - 1 and cnt[j, 1 - mover] == 0:
                            p += 1
                stack[d, F_PTS] = p
                count_claim(mover, cnt, through, nthrough, c)
                put(bits, d + 1, 0, row(bits, d, 1), w)
                put(bits, d + 1, 1, with_cell(assign(row(bits, d + 1, 1), row(bits, d, 0), w), c), w)
                alpha = max(stack[d, F_ALPHA], best)
                stack[d + 1, F_ALPHA] = p - beta
                stack[d + 1, F_BETA] = p - alpha
                d += 1
                mode = ENTER
            else:
                if d == 0:
                    stats[S_DEPTH] = 0
                    stats[S_MODE] = mode
                    stats[S_RET] = ret
                    stats[S_NODES] = nodes
                    stats[S_STORES] = stores
                    return DONE
                d -= 1
                c = stack[d, F_CUR]
                mover = (root_mover + d) & 1
                unclaim_counted(mover, cnt, through, nthrough, c)
                v = stack[d, F_PTS] - ret
                if v > stack[d, F_BEST]:
                    stack[d, F_BEST] = v
                    stack[d, F_BMOVE] = c
                mode = LOOP

    return search
