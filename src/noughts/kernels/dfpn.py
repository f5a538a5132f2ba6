"""The one df-pn driver: the stack machine both proof-number searches run in, their node tests
and move generators passed in.

Depth-first proof-number search (Nagai, PhD thesis, Tokyo 2002) keeps a stack of nodes, each
searched until its proof number or its disproof number reaches a threshold, and walks it in three
modes (:mod:`noughts.kernels.codes`): ``ENTER`` a node (settle it at once, or set up its children
and their numbers), ``LOOP`` over it (its numbers from its children's; past a threshold it is
done, else the best child is claimed with its thresholds and entered) and ``RETURN`` its answer
to the parent. :func:`dfpn_loop` is that walk, written once: the proof engine
(:mod:`noughts.exact._dfpn_kernels`: threats at the nodes, a child pool, symmetric keys) and the
Breaker prover (:mod:`noughts.pairing._breaker_kernels`: pairings at the nodes, zones, a proof
store) pass in what a node means to them. Each stays held to its plain reference
(:mod:`noughts.exact.pns`, :mod:`noughts.pairing.breaker_reference`).

**Passing the hooks in, and numba's cache.** numba 0.68 caches (``cache=True``) a function by
its source file, its bytecode and its argument types. A kernel that takes a jitted function as
an argument, or a closure over one, is compiled again in every process: a dispatcher's type and
its pickled form carry a per-process identity, so the index never matches (measured: a closure
factory over two dispatchers recompiled on each of three runs). :func:`dfpn_loop` is therefore
inlined into its caller at numba's IR level (``inline="always"``): each method's entry, a cached
``@njit`` function in the method's own module, calls ``dfpn_loop(enter, select, ascend, finish,
room, state, stats, limit)`` with its module's hooks, numba resolves them while it types the
inlined loop, and the entry is cached like any kernel (keyed by the method's file, so an edit to
a method's hooks recompiles its search). The hooks (``@njit`` functions of the method) are:

- ``enter(state, d) -> mode``: the node at depth ``d`` was just entered (the node count
  ``stats[S_NODES]`` includes it): settle it (its answer kept where ``ascend``/``finish`` read
  it), then ``RETURN``; or set up its children, then ``LOOP``;
- ``select(state, d) -> mode``: the node's numbers from its children: done (stored, answer
  kept), ``RETURN``; or the best child claimed at depth ``d + 1`` with its thresholds, ``ENTER``;
- ``ascend(state, d) -> mode``: hand the answer of the node at depth ``d`` to its parent at
  ``d - 1`` (its move taken back): ``LOOP`` the parent again, or ``RETURN`` (the child's answer
  settled the parent);
- ``finish(state)``: the root's answer into ``stats``;
- ``room(state, d, mode) -> status``: :data:`~noughts.kernels.codes.GO_ON`, or the method's own
  status (``OWN_STATUS + n``: a pool or a table to grow) to stop with before this step.

The machine's own state is ``stats[S_NODES]``, ``stats[S_DEPTH]`` and ``stats[S_MODE]`` (the
first three slots of every method's statistics), so a call goes on where the last stopped; it
answers ``DONE`` (the root settled or its thresholds reached), ``PAUSED`` (``limit`` nodes
entered) or the ``room`` hook's status.
"""

from __future__ import annotations

from typing import Any

from numba import njit

from noughts.kernels.codes import DONE, ENTER, GO_ON, LOOP, PAUSED

__all__ = ["NUM_DRIVER_STATS", "S_DEPTH", "S_MODE", "S_NODES", "dfpn_loop"]

S_NODES = 0
"""``stats`` slot: the nodes entered so far (the machine's node count)."""
S_DEPTH = 1
"""``stats`` slot: the depth of the node on top of the stack."""
S_MODE = 2
"""``stats`` slot: the machine's mode (``ENTER``, ``LOOP``, ``RETURN``)."""
NUM_DRIVER_STATS = 3
"""The slots the driver keeps; a method numbers its own statistics from here on."""


@njit(inline="always")
def dfpn_loop(
    enter: Any, select: Any, ascend: Any, finish: Any, room: Any, state: Any, stats: Any, limit: int
) -> int:  # pragma: no cover - numba
    """Run the df-pn machine set up in ``state`` and ``stats`` for at most ``limit`` more node
    entries (see the module docstring for the hooks). Returns ``DONE``, ``PAUSED`` or the
    ``room`` hook's own status.
    """
    d = stats[S_DEPTH]
    mode = stats[S_MODE]
    stop = stats[S_NODES] + limit
    status = DONE
    while True:
        if mode == ENTER and stats[S_NODES] >= stop:
            status = PAUSED
            break
        status = room(state, d, mode)
        if status != GO_ON:
            break
        if mode == ENTER:
            stats[S_NODES] += 1
            mode = enter(state, d)
        elif mode == LOOP:
            mode = select(state, d)
            if mode == ENTER:
                d += 1
        elif d == 0:
            finish(state)
            status = DONE
            mode = ENTER
            break
        else:
            mode = ascend(state, d)
            d -= 1
    stats[S_DEPTH] = d
    stats[S_MODE] = mode
    return status
