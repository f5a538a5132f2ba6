"""One VCF? The engine's own VCF (``agents/_engine_kernel.vcf``, the threat search inside the
engine's alpha-beta) against the proof engine's threat-space search at order 1 (fours only:
``proving/_tss_kernels.threat_search``, which the proof engine runs at its nodes), on the same
positions, interleaved (A, B, A, B: the median of ``--repeats`` runs of each).

Two rows a board:

* **root**: a deep search (``--depth`` attacking moves, no node cap) as the engine's root runs it,
  each through its driver's entry (``root_vcf`` on the engine's loaded state; the public
  :func:`noughts.proving.threats.threat_win_kernel`, which builds its arrays from the position);
* **leaf**: the shallow, capped search the engine runs at every leaf of its alpha-beta (depth
  3, 400 steps), kernel against kernel on arrays already built (the cost a leaf call would
  have inside the engine's kernel).

Positions: the forced-win suite (``bench/data/forced_wins.json``, wins the proof engine proved)
and seeded random play (``bench/budgets.py``'s drawing) on mnk(15,15,5), hypercube(7,3) and
hypercube(4,3). The report gives how often each finds a win, where they disagree, and the
median seconds per call with the ratio (B / A: above 1, the engine's own VCF is faster).

Run: ``.venv/bin/python bench/vcf.py`` (``--json PATH``; ``--positions``, ``--repeats``).

Since the engine's kernel runs the threat-space search as its VCF (after commit 7395d6c), both
columns time the same kernel through two entries (the engine's, on its loaded state, and the
threat kernel's): the comparison in ``bench/results/vcf.json`` was taken at 7395d6c.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from _common import command_line, finish
from budgets import ENGINE_BOARDS, engine_positions
from noughts.agents import _engine_kernel as K
from noughts.agents.engine import _State
from noughts.core import Player, Rule
from noughts.proving import _tss_kernels as T
from noughts.proving.threats import threat_win_kernel

LEAF_DEPTH, LEAF_CAP = 3, 400


def arrays(position: Any) -> tuple[np.ndarray, np.ndarray]:
    """``own`` and ``cnt`` as the threat search keeps them."""
    board = position.game.board
    own = np.full(board.num_cells, -1, dtype=np.int8)
    for p in (Player.FIRST, Player.SECOND):
        for c in board.cells_in(position.owned(p)):
            own[c] = int(p)
    cnt = np.zeros((board.tables.num_lines, 2), dtype=np.int32)
    for j, line in enumerate(board.lines):
        for c in line:
            if own[c] >= 0:
                cnt[j, own[c]] += 1
    return own, cnt


def board_rows(spec: str, positions: list[Any], depth: int, repeats: int) -> list[dict[str, Any]]:
    game = positions[0].game
    board = game.board
    t = board.tables
    state = _State(game, 12, LEAF_DEPTH, 0)
    line = np.zeros(depth + 1, dtype=np.int64)
    frames_leaf = T.workspace(board.num_cells, LEAF_DEPTH)
    result = np.zeros(2, dtype=np.int64)
    rule = T.DEF_BREAKER if game.claim_rule is Rule.MAKER_BREAKER else T.DEF_LINES
    rows = []
    for kind in ("root", "leaf"):
        times: dict[str, list[float]] = {"engine": [], "tss": []}
        found = {"engine": 0, "tss": 0}
        disagree = 0
        for p in positions:
            mover = int(p.to_move)
            state.load(p)
            own, cnt = arrays(p)
            nempty = board.num_cells - p.occupied().bit_count()
            runs: dict[str, list[float]] = {"engine": [], "tss": []}
            got = {}
            fr, pool, out, scratch = frames_leaf
            for _ in range(repeats):
                if kind == "root":
                    c = time.perf_counter()
                    got["engine"] = K.root_vcf(state.S, mover, depth, 1 << 40, line) > 0
                    runs["engine"].append(time.perf_counter() - c)
                    c = time.perf_counter()
                    got["tss"] = threat_win_kernel(p, max_order=1, max_depth=depth) is not None
                    runs["tss"].append(time.perf_counter() - c)
                else:
                    c = time.perf_counter()
                    got["engine"] = K.root_vcf(state.S, mover, LEAF_DEPTH, LEAF_CAP, line) > 0
                    runs["engine"].append(time.perf_counter() - c)
                    c = time.perf_counter()
                    st = T.threat_search(
                        t.line_cells, t.through, t.nthrough, cnt, own, board.k, mover, rule, 1,
                        LEAF_DEPTH, LEAF_CAP, nempty, fr, pool, out, scratch, result,
                    )  # fmt: skip
                    runs["tss"].append(time.perf_counter() - c)
                    got["tss"] = st == T.FOUND
            for name in times:
                times[name].append(statistics.median(runs[name]))
                found[name] += got[name]
            disagree += got["engine"] != got["tss"]
        a, b = statistics.median(times["engine"]), statistics.median(times["tss"])
        row = {
            "board": spec,
            "search": kind,
            "positions": len(positions),
            "found_engine": found["engine"],
            "found_tss": found["tss"],
            "disagree": disagree,
            "median_us_engine": round(a * 1e6, 1),
            "median_us_tss": round(b * 1e6, 1),
            "ratio_tss_over_engine": round(b / a, 2) if a else None,
            "total_s_engine": round(sum(times["engine"]), 4),
            "total_s_tss": round(sum(times["tss"]), 4),
        }
        print(json.dumps(row), flush=True)
        rows.append(row)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path)
    parser.add_argument("--positions", type=int, default=40, help="random positions per board")
    parser.add_argument("--suite", type=int, default=80, help="forced-win positions per board (at most)")
    parser.add_argument("--depth", type=int, default=12, help="the root search's attacking moves")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    load = os.getloadavg()
    rows = []
    for spec in ENGINE_BOARDS:
        positions = engine_positions(spec, args.positions, args.suite, args.seed)
        board_rows(spec, positions[:2], args.depth, 1)  # the kernels load
        rows += board_rows(spec, positions, args.depth, args.repeats)
    return finish({"command": command_line("bench/vcf.py", None), "rows": rows}, load, args.json)


if __name__ == "__main__":
    sys.exit(main())
