"""Learning agents by self-play, their training loop, convergence tests and experiments.

* :mod:`noughts.exact.states` (below both ``agents`` and ``learn``; ``noughts.learn.states``
  is kept as an alias): every reachable position of a small game, numbered, with its move
  table (what tabular learners index by);
* :mod:`noughts.learn.evaluation`: the TCD, WTCD and two-step look-ahead evaluation functions
  of 000 §3.2.4 and §3.2.6, scaled into [-1, 1] by their true bounds;
* :mod:`noughts.learn.td`: one-step TD with one value table per player (000 §3.2.3), a
  reference loop over the position API and a numba kernel held to it;
* :mod:`noughts.learn.convergence`: stopping criteria (000 §4.2's window test, the greedy
  policy unchanged, an oracle-grade target);
* :mod:`noughts.learn.train`: the generic training loop (seeded, checkpointed, resumable);
* :mod:`noughts.learn.experiments`: the experiments that ``noughts experiment NAME`` runs.

Modules are imported when used, so ``import noughts.learn`` costs nothing.
"""
