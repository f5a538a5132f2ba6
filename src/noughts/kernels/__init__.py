"""The shared layer under every numba kernel: the one copy of each primitive they use.

Every kernel of noughts (the exact solver, the counter, MCTS, the batched playouts, the
learners) stands on this package and writes none of these again:

* :mod:`noughts.kernels.rng`: SplitMix64, the one random stream, as a plain Python reference
  (no numba; the learners' and MCTS's references draw from it);
* :mod:`noughts.kernels.bits`: popcount, the lowest cell, the n-th cell, a cell's bit, and the
  numba SplitMix64 (``rng_next``, ``rng_uniform``, ``rng_below``), held bit for bit to the
  reference;
* :mod:`noughts.kernels.masks`: the operations on masks of cells, written once for both
  representations, one ``uint64`` (boards of at most 64 cells) or ``W`` words (any board);
* :mod:`noughts.kernels.claim`: the rule and result codes as numba constants (from
  :class:`noughts.core.Rule` and :class:`noughts.core.Result`) and :func:`claim_after`, which
  judges one claim incrementally under the four claim rules, with a NumPy twin
  (:func:`claim_after_many`) for the vectorised counter; both are held to
  :mod:`noughts.core.claim` on every reachable position of the small games.

The package imports only :mod:`noughts.core`, NumPy and numba (and this file imports nothing,
so importing :mod:`noughts.kernels.rng` does not load numba). The tables a kernel reads come
from the board (:attr:`noughts.core.Board.tables`), the rule from the game
(``game.claim_rule``, ``game.maker``).
"""
