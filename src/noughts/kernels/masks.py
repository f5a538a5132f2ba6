"""The operations on masks of cells, written once for both representations of a mask.

A mask is either one ``uint64`` (boards of at most 64 cells: cell ``c`` is bit ``c``) or a row of
``W`` ``uint64`` words (any board: cell ``c`` is bit ``c % 64`` of word ``c // 64``), held as
a 1-d array or, inside a kernel, as a pointer to its first word (:func:`ptr`). Each operation
below is a plain Python function (never called from Python) that numba replaces, at compile
time, by the body for the type of its mask argument: an integer (the one-word form: the result
is a new ``uint64``, any destination given is ignored) or W words (the multi-word form: the
result is written into the destination row, which is returned). ``w`` is the words per mask
(:func:`width`). A kernel written over these operations is compiled once per representation,
with the operations inlined, so its one-word form keeps its masks in registers and pays
nothing for the multi-word form it shares code with (the exact solver, :mod:`noughts.exact._kernels`,
is the model; :func:`noughts.kernels.claim.claim_after` works on both).

The lines' operations take ``(lines, j)`` rather than the row ``lines[j]``: they run for every
line at every node of a search, and making a view of a row there doubled the multi-word
search's time. ``lines`` is a board's ``tables.line_bits`` (one word per line) or
``tables.line_words`` (``lines x W``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba.core import types
from numba.extending import intrinsic, overload

from noughts.kernels.bits import INTERNAL, ONE, ZERO, nth_cell, popcount

__all__ = [
    "and_into",
    "and_line",
    "and_to",
    "andnot_to",
    "as_mask",
    "assign",
    "count",
    "covers_line",
    "empty_to",
    "has",
    "is_multi",
    "line_width",
    "line_word",
    "meets_line_besides",
    "nonzero",
    "nth",
    "or_line",
    "or_line_andnot",
    "ptr",
    "put",
    "row",
    "same",
    "tmp_row",
    "unowned",
    "width",
    "with_cell",
    "without_cell",
    "word",
    "zero",
]


@intrinsic
def unowned(typingctx, arr):  # type: ignore[no-untyped-def]
    """The array ``arr`` without its owner (a view numba does not count references to).

    The masks of the multi-word form are views of rows of ``bits``, ``tmp``, ``lines`` and
    ``keys``, and every operation returns the row it wrote; views of an owned array are counted
    (an atomic increment and decrement each), which made the search twice as slow. The caller
    keeps the arrays alive for the whole call, so the search works on unowned views of them.
    """
    if not isinstance(arr, types.Array):
        return arr(arr), lambda context, builder, sig, args: args[0]

    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        src = context.make_array(sig.args[0])(context, builder, value=args[0])
        out = context.make_array(sig.return_type)(context, builder)
        context.populate_array(
            out, data=src.data, shape=src.shape, strides=src.strides, itemsize=src.itemsize, meminfo=None
        )
        return out._getvalue()

    return arr(arr), codegen


@intrinsic
def ptr(typingctx, arr):  # type: ignore[no-untyped-def]
    """A pointer to the first element of ``arr``: how the multi-word form holds a mask. A
    pointer is a plain value, so ``x = op(x, ...)`` costs nothing; an array view there made
    the search two to three times slower (numba keeps each assigned view as a new array).
    """

    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        return context.make_array(sig.args[0])(context, builder, value=args[0]).data

    return types.CPointer(arr.dtype)(arr), codegen  # type: ignore[no-untyped-call]


def is_multi(x: types.Type) -> bool:
    return isinstance(x, (types.Array, types.CPointer))


def row(bits: Any, d: Any, r: Any) -> Any:
    """The mask ``bits[d, r]``: the uint64, or a pointer to its W words."""


def tmp_row(tmp: Any, r: Any) -> Any:
    """The scratch mask ``tmp[r]``: a uint64 (unused), or a pointer to the row's words."""


def as_mask(x: Any) -> Any:
    """``x`` (a uint64, or an array of W words) as a mask."""


def width(x: Any, w: Any) -> Any:
    """Words per mask: 1 (a constant numba folds) for a uint64, ``w`` for a row."""


def word(x: Any, i: Any) -> Any:
    """Word ``i`` of mask ``x`` (the mask itself for a uint64)."""


def zero(dst: Any, w: Any) -> Any:
    """The empty mask (in ``dst``)."""


def assign(dst: Any, x: Any, w: Any) -> Any:
    """``x`` (copied into ``dst``)."""


def and_into(dst: Any, x: Any, w: Any) -> Any:
    """``dst & x``."""


def line_word(lines: Any, j: Any, i: Any) -> Any:
    """Word ``i`` of line ``j`` (``lines[j]`` itself for one-word lines)."""


def or_line(dst: Any, lines: Any, j: Any, w: Any) -> Any:
    """``dst | lines[j]``."""


def and_line(dst: Any, lines: Any, j: Any, w: Any) -> Any:
    """``dst & lines[j]``."""


def or_line_andnot(dst: Any, lines: Any, j: Any, y: Any, w: Any) -> Any:
    """``dst | (lines[j] & ~y)``."""


def and_to(dst: Any, x: Any, y: Any, w: Any) -> Any:
    """``x & y`` (in ``dst``)."""


def andnot_to(dst: Any, x: Any, y: Any, w: Any) -> Any:
    """``x & ~y`` (in ``dst``)."""


def empty_to(dst: Any, full: Any, me: Any, op: Any, w: Any) -> Any:
    """``full & ~(me | op)`` (in ``dst``): the empty cells."""


def count(x: Any, w: Any) -> Any:
    """The cells of ``x``."""


def nonzero(x: Any, w: Any) -> Any:
    """Whether ``x`` has a cell."""


def same(x: Any, y: Any, w: Any) -> Any:
    """Whether ``x == y``."""


def has(x: Any, c: Any) -> Any:
    """Whether cell ``c`` is in ``x``."""


def with_cell(x: Any, c: Any) -> Any:
    """``x`` with cell ``c`` added (in place for a row)."""


def without_cell(x: Any, c: Any) -> Any:
    """``x`` with cell ``c`` removed (in place for a row)."""


def put(bits: Any, d: Any, r: Any, x: Any, w: Any) -> Any:
    """Store mask ``x`` as ``bits[d, r]``."""


def line_width(lines: Any) -> Any:
    """Words per line of ``lines``: 1 (a constant) for one word per line, else ``lines.shape[1]``."""


def covers_line(x: Any, lines: Any, j: Any, w: Any) -> Any:
    """Whether ``x`` holds every cell of line ``j``."""


def meets_line_besides(x: Any, lines: Any, j: Any, c: Any, w: Any) -> Any:
    """Whether ``x`` holds a cell of line ``j`` other than cell ``c``."""


@overload(row, jit_options=INTERNAL, inline="always")
def _row(bits, d, r):  # type: ignore[no-untyped-def]
    if bits.ndim == 3:
        return lambda bits, d, r: ptr(bits[d, r])  # type: ignore[call-arg]
    return lambda bits, d, r: bits[d, r]


@overload(tmp_row, jit_options=INTERNAL, inline="always")
def _tmp_row(tmp, r):  # type: ignore[no-untyped-def]
    if tmp.ndim == 2:
        return lambda tmp, r: ptr(tmp[r])  # type: ignore[call-arg]
    return lambda tmp, r: tmp[r]


@overload(as_mask, jit_options=INTERNAL, inline="always")
def _as_mask(x):  # type: ignore[no-untyped-def]
    if isinstance(x, types.Array):
        return lambda x: ptr(x)  # type: ignore[call-arg]
    return lambda x: x


@overload(width, jit_options=INTERNAL, inline="always")
def _width(x, w):  # type: ignore[no-untyped-def]
    if is_multi(x):
        return lambda x, w: w
    return lambda x, w: 1


@overload(word, jit_options=INTERNAL, inline="always")
def _word(x, i):  # type: ignore[no-untyped-def]
    if is_multi(x):
        return lambda x, i: x[i]
    return lambda x, i: x


@overload(zero, jit_options=INTERNAL, inline="always")
def _zero(dst, w):  # type: ignore[no-untyped-def]
    if is_multi(dst):

        def impl(dst, w):  # type: ignore[no-untyped-def]
            for i in range(w):
                dst[i] = ZERO
            return dst

        return impl
    return lambda dst, w: ZERO


@overload(assign, jit_options=INTERNAL, inline="always")
def _assign(dst, x, w):  # type: ignore[no-untyped-def]
    if is_multi(x):

        def impl(dst, x, w):  # type: ignore[no-untyped-def]
            for i in range(w):
                dst[i] = x[i]
            return dst

        return impl
    return lambda dst, x, w: x


@overload(and_into, jit_options=INTERNAL, inline="always")
def _and_into(dst, x, w):  # type: ignore[no-untyped-def]
    if is_multi(x):

        def impl(dst, x, w):  # type: ignore[no-untyped-def]
            for i in range(w):
                dst[i] &= x[i]
            return dst

        return impl
    return lambda dst, x, w: dst & x


# the lines' operations take (lines, j) rather than the row lines[j]: they run for every line
# at every node, and making a view of a row there doubled the multi-word form's time


@overload(line_word, jit_options=INTERNAL, inline="always")
def _line_word(lines, j, i):  # type: ignore[no-untyped-def]
    if lines.ndim == 2:
        return lambda lines, j, i: lines[j, i]
    return lambda lines, j, i: lines[j]


@overload(or_line, jit_options=INTERNAL, inline="always")
def _or_line(dst, lines, j, w):  # type: ignore[no-untyped-def]
    if lines.ndim == 2:

        def impl(dst, lines, j, w):  # type: ignore[no-untyped-def]
            for i in range(w):
                dst[i] |= lines[j, i]
            return dst

        return impl
    return lambda dst, lines, j, w: dst | lines[j]


@overload(and_line, jit_options=INTERNAL, inline="always")
def _and_line(dst, lines, j, w):  # type: ignore[no-untyped-def]
    if lines.ndim == 2:

        def impl(dst, lines, j, w):  # type: ignore[no-untyped-def]
            for i in range(w):
                dst[i] &= lines[j, i]
            return dst

        return impl
    return lambda dst, lines, j, w: dst & lines[j]


@overload(or_line_andnot, jit_options=INTERNAL, inline="always")
def _or_line_andnot(dst, lines, j, y, w):  # type: ignore[no-untyped-def]
    if lines.ndim == 2:

        def impl(dst, lines, j, y, w):  # type: ignore[no-untyped-def]
            for i in range(w):
                dst[i] |= lines[j, i] & ~y[i]
            return dst

        return impl
    return lambda dst, lines, j, y, w: dst | (lines[j] & ~y)


@overload(and_to, jit_options=INTERNAL, inline="always")
def _and_to(dst, x, y, w):  # type: ignore[no-untyped-def]
    if is_multi(x):

        def impl(dst, x, y, w):  # type: ignore[no-untyped-def]
            for i in range(w):
                dst[i] = x[i] & y[i]
            return dst

        return impl
    return lambda dst, x, y, w: x & y


@overload(andnot_to, jit_options=INTERNAL, inline="always")
def _andnot_to(dst, x, y, w):  # type: ignore[no-untyped-def]
    if is_multi(x):

        def impl(dst, x, y, w):  # type: ignore[no-untyped-def]
            for i in range(w):
                dst[i] = x[i] & ~y[i]
            return dst

        return impl
    return lambda dst, x, y, w: x & ~y


@overload(empty_to, jit_options=INTERNAL, inline="always")
def _empty_to(dst, full, me, op, w):  # type: ignore[no-untyped-def]
    if is_multi(me):

        def impl(dst, full, me, op, w):  # type: ignore[no-untyped-def]
            for i in range(w):
                dst[i] = full[i] & ~(me[i] | op[i])
            return dst

        return impl
    return lambda dst, full, me, op, w: full & ~(me | op)


@overload(count, jit_options=INTERNAL, inline="always")
def _count(x, w):  # type: ignore[no-untyped-def]
    if is_multi(x):

        def impl(x, w):  # type: ignore[no-untyped-def]
            n = 0
            for i in range(w):
                n += popcount(x[i])
            return n

        return impl
    return lambda x, w: popcount(x)


@overload(nonzero, jit_options=INTERNAL, inline="always")
def _nonzero(x, w):  # type: ignore[no-untyped-def]
    if is_multi(x):

        def impl(x, w):  # type: ignore[no-untyped-def]
            for i in range(w):  # noqa: SIM110  (a plain loop: numba compiles it without a generator)
                if x[i] != ZERO:
                    return True
            return False

        return impl
    return lambda x, w: x != ZERO


@overload(same, jit_options=INTERNAL, inline="always")
def _same(x, y, w):  # type: ignore[no-untyped-def]
    if is_multi(x):

        def impl(x, y, w):  # type: ignore[no-untyped-def]
            for i in range(w):  # noqa: SIM110  (a plain loop: numba compiles it without a generator)
                if x[i] != y[i]:
                    return False
            return True

        return impl
    return lambda x, y, w: x == y


@overload(has, jit_options=INTERNAL, inline="always")
def _has(x, c):  # type: ignore[no-untyped-def]
    if is_multi(x):
        return lambda x, c: (x[c >> 6] >> np.uint64(c & 63)) & ONE != ZERO
    return lambda x, c: (x & (ONE << np.uint64(c))) != ZERO


@overload(with_cell, jit_options=INTERNAL, inline="always")
def _with_cell(x, c):  # type: ignore[no-untyped-def]
    if is_multi(x):

        def impl(x, c):  # type: ignore[no-untyped-def]
            x[c >> 6] |= ONE << np.uint64(c & 63)
            return x

        return impl
    return lambda x, c: x | (ONE << np.uint64(c))


@overload(without_cell, jit_options=INTERNAL, inline="always")
def _without_cell(x, c):  # type: ignore[no-untyped-def]
    if is_multi(x):

        def impl(x, c):  # type: ignore[no-untyped-def]
            x[c >> 6] &= ~(ONE << np.uint64(c & 63))
            return x

        return impl
    return lambda x, c: x & ~(ONE << np.uint64(c))


@overload(put, jit_options=INTERNAL, inline="always")
def _put(bits, d, r, x, w):  # type: ignore[no-untyped-def]
    if is_multi(x):

        def impl(bits, d, r, x, w):  # type: ignore[no-untyped-def]
            for i in range(w):
                bits[d, r, i] = x[i]

        return impl

    def scalar(bits, d, r, x, w):  # type: ignore[no-untyped-def]
        bits[d, r] = x

    return scalar


@overload(line_width, jit_options=INTERNAL, inline="always")
def _line_width(lines):  # type: ignore[no-untyped-def]
    if lines.ndim == 2:
        return lambda lines: lines.shape[1]
    return lambda lines: 1


@overload(covers_line, jit_options=INTERNAL, inline="always")
def _covers_line(x, lines, j, w):  # type: ignore[no-untyped-def]
    if lines.ndim == 2:

        def impl(x, lines, j, w):  # type: ignore[no-untyped-def]
            for i in range(w):  # noqa: SIM110  (a plain loop: numba compiles it without a generator)
                if x[i] & lines[j, i] != lines[j, i]:
                    return False
            return True

        return impl
    return lambda x, lines, j, w: x & lines[j] == lines[j]


@overload(meets_line_besides, jit_options=INTERNAL, inline="always")
def _meets_line_besides(x, lines, j, c, w):  # type: ignore[no-untyped-def]
    if lines.ndim == 2:

        def impl(x, lines, j, c, w):  # type: ignore[no-untyped-def]
            for i in range(w):
                other = x[i] & lines[j, i]
                if i == c >> 6:
                    other &= ~(ONE << np.uint64(c & 63))
                if other != ZERO:
                    return True
            return False

        return impl
    return lambda x, lines, j, c, w: x & lines[j] & ~(ONE << np.uint64(c)) != ZERO


def nth(x: Any, n: Any, w: Any) -> Any:
    """The ``n``-th set cell of ``x`` (0-based, lowest first; ``n < count(x, w)``): the choice a
    random move makes among the cells of ``x``, listed as ``Position.legal_moves()`` lists them.
    """


@overload(nth, jit_options=INTERNAL)
def _nth(x, n, w):  # type: ignore[no-untyped-def]
    if is_multi(x):

        def impl(x, n, w):  # type: ignore[no-untyped-def]
            for i in range(w):
                pc = popcount(x[i])
                if n < pc:
                    return 64 * i + nth_cell(x[i], n)
                n -= pc
            return -1

        return impl
    return lambda x, n, w: nth_cell(x, n)
