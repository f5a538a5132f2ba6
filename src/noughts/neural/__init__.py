"""The neural learners: AlphaZero and DQN on JAX, graded against the exact solver as they learn.

Needs the ``[neural]`` extra (JAX, flax, optax, mctx): ``pip install 'noughts[neural]'``. Nothing
else in noughts imports this package, except through the agent specs ``az:FILE`` and
``dqn:FILE`` and the commands ``noughts train az`` and ``noughts train dqn``, which load it when
they are used.

* :mod:`~noughts.neural.env`: the claim games as a batched JAX environment, from the board's tables;
* :mod:`~noughts.neural.net`: the network, message passing over the board's lines (any board);
* :mod:`~noughts.neural.model`: the network over the environment, and mctx's search guided by it;
* :mod:`~noughts.neural.az`, :mod:`~noughts.neural.dqn`: the learners;
* :mod:`~noughts.neural.checkpoint`: checkpoints as saved agents (JSON + ``.npz``);
* :mod:`~noughts.neural.agents`: a checkpoint as an agent;
* :mod:`~noughts.neural.run`: a training run, graded by the exact solver while it learns.
"""

from __future__ import annotations

from importlib.util import find_spec

from noughts.core import NoughtsError

MISSING = [name for name in ("jax", "flax", "optax", "mctx") if find_spec(name) is None]
if MISSING:
    raise NoughtsError(
        f"the neural learners need {', '.join(MISSING)}: install the extra, pip install -e '.[neural]'"
        " in the clone (make test installs it too), or pip install 'noughts[neural]'"
    )
