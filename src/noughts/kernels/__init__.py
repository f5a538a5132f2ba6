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
* :mod:`noughts.kernels.codes`: the rule and result codes as plain ints numba folds into
  constants (read off :class:`noughts.core.Rule` and :class:`noughts.core.Result`);
* :mod:`noughts.kernels.claim`: :func:`~noughts.kernels.claim.claim_after`, which judges one
  claim incrementally under the four claim rules, for one-word and W-word masks; and its NumPy
  twin :func:`~noughts.kernels.claim_numpy.claim_after_many` in :mod:`noughts.kernels.claim_numpy`,
  for the vectorised counter; both are held to :mod:`noughts.core.claim` on every claim of the
  3x3 and 3x4 games (``tests/kernels/test_claim.py``).

The package imports only :mod:`noughts.core`, NumPy and numba; ``rng``, ``codes`` and
``claim_numpy`` do not import numba (nor does this file), so the references, the drivers' codes
and the counter load no compiler. The tables a kernel reads come
from the board (:attr:`noughts.core.Board.tables`), the rule from the game
(``game.claim_rule``, ``game.maker``).
"""
