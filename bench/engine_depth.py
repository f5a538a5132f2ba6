"""The engine's search at a fixed depth, no clock: seconds for 20 positions a board, and the
moves and scores it found (to compare two versions of the engine's kernel: the same positions,
the same depth, so a faster kernel must give the same answers).

Positions: seeded random play (``bench/budgets.py``'s drawing, seed 11) on mnk(15,15,5) and
hypercube(4,3) searched 4 plies deep, hypercube(7,3) 3 plies; ``EngineAgent(tt=0).search_depth``
(the leaf VCF on, no transposition table, so each search is independent of the last).

Run: ``.venv/bin/python bench/engine_depth.py > after.json``; for another version of the code,
the same script with ``PYTHONPATH`` pointing at that version's ``src`` (``git archive COMMIT src
| tar -x -C /tmp/v``, then ``PYTHONPATH=/tmp/v/src .venv/bin/python bench/engine_depth.py >
before.json``), and ``--compare before.json after.json`` prints the two side by side.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

BOARDS = (("mnk(15,15,5)", 4), ("hypercube(4,3)", 4), ("hypercube(7,3)", 3))


def measure() -> dict[str, dict[str, object]]:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from budgets import engine_positions
    from noughts.agents.engine import EngineAgent

    out: dict[str, dict[str, object]] = {}
    for spec, depth in BOARDS:
        positions = engine_positions(spec, 20, 0, 11)
        agent = EngineAgent(tt=0)
        agent.search_depth(positions[0], 2)  # the kernel loads
        t = time.perf_counter()
        found = [agent.search_depth(p, depth) for p in positions]
        out[spec] = {
            "depth": depth,
            "seconds": round(time.perf_counter() - t, 3),
            "moves": [int(m) for m, _ in found],
            "scores": [int(s) for _, s in found],
        }
    return out


def compare(before_path: str, after_path: str) -> None:
    b = json.loads(Path(before_path).read_text())
    a = json.loads(Path(after_path).read_text())
    print("| board | depth | before s | after s | before / after | same moves | same scores |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for spec in b:
        same = sum(x == y for x, y in zip(b[spec]["moves"], a[spec]["moves"], strict=True))
        scores = sum(x == y for x, y in zip(b[spec]["scores"], a[spec]["scores"], strict=True))
        n = len(b[spec]["moves"])
        ratio = b[spec]["seconds"] / a[spec]["seconds"]
        print(
            f"| {spec} | {b[spec]['depth']} | {b[spec]['seconds']} | {a[spec]['seconds']} | {ratio:.1f} |"
            f" {same}/{n} | {scores}/{n} |"
        )


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        print(json.dumps(measure()))
