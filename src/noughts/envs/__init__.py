"""Environments for learning code: PettingZoo (AEC), Gymnasium, and batches of games.

* :mod:`noughts.envs.aec`: a PettingZoo AEC environment for every game (``aec.env(spec)``).
* :mod:`noughts.envs.gym_env`: a Gymnasium environment against a fixed opponent agent
  (``gym_env.make_env(spec, opponent=...)``, or ``gymnasium.make("noughts/Game-v0", ...)``).
* :mod:`noughts.envs.wrappers`: illegal-action handling and reward shaping, as wrappers.
* :mod:`noughts.envs.batch`: many claim games at once in numba (random playouts, a vectorised
  step).

The PettingZoo and Gymnasium modules need the ``rl`` extra (``pip install 'noughts[rl]'``);
they are imported when asked for, so ``noughts.envs.batch`` needs neither.
"""
