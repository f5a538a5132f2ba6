"""The engine's first search with an empty numba cache: wall seconds from the start of the
process to the end of a 0.2 s search on mnk(15,15,5) (the compile of every kernel it runs).

Run it with a new, empty cache: ``NUMBA_CACHE_DIR=$(mktemp -d) .venv/bin/python
bench/engine_compile.py``; for another version of the code, with ``PYTHONPATH`` at an export of
that version's ``src`` (``git archive REV src | tar -x -C /tmp/v``) and another empty cache.
"""

from __future__ import annotations

import time

started = time.perf_counter()

import noughts  # noqa: E402  (timed from the start of the process)
from noughts.agents.engine import EngineAgent  # noqa: E402

game = noughts.game("mnk(15,15,5)")
EngineAgent(0.2).analyse(game.start().play(112).play(113))
print(f"{noughts.__file__}: the first engine search, cold cache: {time.perf_counter() - started:.1f} s")
