"""Budgets that hold: how long work takes to stop, or to be refused, against the budget it was given.

Each row runs a command as a user would (the console script, in a process of its own: its wall
time includes starting Python and importing noughts) or an agent's move in this process, and
reports wall and CPU seconds, the exit status and the line it printed:

* ``noughts count otrio --max-seconds 20``: the count stops inside a ply (issue 11: it ran 119 s);
* ``noughts count "mnk(5,5,4)" --max-seconds 10``: the kernels refuse a ply they cannot finish;
* ``noughts train td otrio``: refused from random games before any table is built (85 s before);
* ``noughts grade random "mnk(4,4,3)" --games 0``: the notice that it samples (33 s before);
* the perfect player with ``seconds=S`` on 4x4x4, 7x7x7 and 15x15: the solver's half of the clock,
  then its fallback (issue 11: the "10 s" perfect player ran 18-20 s on 7x7x7).

Run: ``.venv/bin/python bench/budgets.py`` (``--json PATH``). The load average is printed too.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from _common import commit, machine

NOUGHTS = Path(sys.executable).with_name("noughts")

COMMANDS = [
    ["count", "otrio", "--max-seconds", "20"],
    ["count", "mnk(5,5,4)", "--max-seconds", "10"],
    ["train", "td", "otrio", "--out", "never.json", "--no-record"],
    ["grade", "random", "mnk(4,4,3)", "--games", "0", "--json"],
]

MOVES = [
    ("hypercube(4,3)", "perfect:seconds=3"),
    ("hypercube(7,3)", "perfect:seconds=10"),
    ("mnk(15,15,5)", "perfect:seconds=3"),
]


def command(args: list[str]) -> dict[str, Any]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run([str(NOUGHTS), *args], capture_output=True, text=True, timeout=600, cwd="/tmp")
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    said = (done.stderr.strip().splitlines() or [""])[-1]
    return {
        "command": "noughts " + " ".join(args),
        "exit": done.returncode,
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "peak_mib": round(after.ru_maxrss / 1024, 1),
        "said": said[:300],
    }


def move(spec: str, agent: str) -> dict[str, Any]:
    import noughts
    from noughts.agents import make_agent
    from noughts.agents.base import decide

    game = noughts.game(spec)
    player = make_agent(agent)
    t, c = time.perf_counter(), time.process_time()
    d = decide(player, game.start(), np.random.default_rng(0))
    return {
        "command": f"decide({agent!r}) on {spec}",
        "move": game.format_move(d.move),
        "proven": d.proven,
        "wall_s": round(time.perf_counter() - t, 2),
        "cpu_s": round(time.process_time() - c, 2),
        "said": d.note,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    load = os.getloadavg()
    import noughts.web.warmup  # noqa: F401  (the compiled kernels loaded, as in a running arena)

    rows = [command(a) for a in COMMANDS] + [move(s, a) for s, a in MOVES]
    for r in rows:
        print(json.dumps(r))
    doc = {
        "rows": rows,
        "load_average_at_start": load,
        "load_average": os.getloadavg(),
        "machine": machine(),
        "commit": commit(),
    }
    print(f"load average {load[0]:.2f} at the start, {doc['load_average'][0]:.2f} at the end")
    if args.json:
        args.json.write_text(json.dumps(doc, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
