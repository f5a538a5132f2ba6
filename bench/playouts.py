"""Random playouts per second through each library's public Python API, side by side.

A playout is one full game from the start position to the end, every move drawn uniformly at
random from the legal moves with the same ``random.Random`` call for every library
(``moves[rng.randrange(len(moves))]``), so the figures compare the game APIs and not the RNGs.

Each (library, game) pair runs in its own child process, so import cost, caches and peak
memory are its own; the parent only collects the JSON each child prints and writes the table.
Inside a child: set up, warm up, then ``--repeats`` timed repetitions of about ``--seconds``
each; the table shows the median. Peak memory is the child's ``ru_maxrss`` after the timed
runs (the whole interpreter with its imports), and the peak of ``tracemalloc`` over a separate
untimed batch of playouts (Python allocations only: OpenSpiel's C++ heap is invisible to it).

Run it as ``python bench/playouts.py`` (``make bench``); ``--quick`` is a smoke test.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import json
import os
import platform
import random
import statistics
import sys
import time
import tracemalloc
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _common import (  # bench/ is sys.path[0] when a script runs
    ROOT,
    add_timing_options,
    command_line,
    commit,
    cpu_model,
    peak_rss_mib,
    run_worker,
    settle_timing,
    write_raw,
)

DEFAULT_JSON = ROOT / "bench" / "results" / "playouts.json"
TRACEMALLOC_PLAYOUTS = 20  # untimed playouts run under tracemalloc, the same count for everyone

Playout = Callable[[random.Random], int]
"""Play one random game to the end with the given RNG; return the number of moves made."""


@dataclass(frozen=True)
class Case:
    """One (library, game) pair: ``game_id`` is the library's own name for the game."""

    library: str
    game: str
    game_id: str | None  # None: the library has no such game (reported as n/a)


LIBRARIES = {
    "noughts": ("noughts", "noughts"),
    "openspiel": ("OpenSpiel (pyspiel)", "open_spiel"),
    "pettingzoo": ("PettingZoo (AEC env)", "pettingzoo"),
}
"""Key -> (label in the table, distribution name for the version)."""

GAMES = {
    "tictactoe": "tic-tac-toe (3×3, k=3)",
    "mnk15": "m,n,k (15×15, k=5)",
}

CASES = (
    Case("noughts", "tictactoe", "tictactoe"),
    Case("openspiel", "tictactoe", "tic_tac_toe"),
    Case("pettingzoo", "tictactoe", "tictactoe_v3"),
    Case("noughts", "mnk15", "mnk(15,15,5)"),
    Case("openspiel", "mnk15", "mnk(m=15,n=15,k=5)"),
    Case("pettingzoo", "mnk15", None),
)


# -- the playout loops, one per library -----------------------------------------------------------


def noughts_playout(game_id: str) -> Playout:
    import noughts

    g = noughts.game(game_id)

    def playout(rng: random.Random) -> int:
        n = 0
        p = g.start()
        while not p.is_terminal():
            moves = p.legal_moves()
            p = p.play(moves[rng.randrange(len(moves))])
            n += 1
        return n

    return playout


def openspiel_playout(game_id: str) -> Playout:
    import pyspiel

    game = pyspiel.load_game(game_id)

    def playout(rng: random.Random) -> int:
        n = 0
        state = game.new_initial_state()
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            n += 1
        return n

    return playout


def pettingzoo_playout(game_id: str) -> Playout:
    import numpy as np
    import pettingzoo

    if hasattr(pettingzoo, "make"):  # 1.27+: the registry; the old import path warns
        try:
            env = pettingzoo.make("aec", f"classic/{game_id.replace('_v', '-v')}")
        except Exception as exc:  # its FailedToImport is no ImportError; the cause says what is missing
            if isinstance(exc.__cause__, ImportError):
                raise ImportError(f"{exc.__cause__}; pip install 'pettingzoo[classic]'") from exc
            raise
    else:
        from pettingzoo.classic import tictactoe_v3

        env = tictactoe_v3.env()
    env.reset(seed=0)  # tic-tac-toe has no chance; seeded once for form, as the API asks

    def playout(rng: random.Random) -> int:
        n = 0
        env.reset()
        for _agent in env.agent_iter():
            obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.randrange(len(legal))])
                n += 1
            env.step(action)
        return n

    return playout


SETUPS: dict[str, Callable[[str], Playout]] = {
    "noughts": noughts_playout,
    "openspiel": openspiel_playout,
    "pettingzoo": pettingzoo_playout,
}


# -- the child process: time one case -------------------------------------------------------------


def _timed_run(playout: Playout, rng: random.Random, seconds: float) -> tuple[int, int, float]:
    """Play whole games until ``seconds`` have passed; return (playouts, moves, elapsed)."""
    clock = time.perf_counter
    games = moves = 0
    start = clock()
    deadline = start + seconds
    while True:
        moves += playout(rng)
        games += 1
        now = clock()
        if now >= deadline:
            return games, moves, now - start


def run_case(library: str, game_id: str, seconds: float, repeats: int, seed: int) -> dict[str, Any]:
    warnings.simplefilter("ignore")  # peers' deprecation chatter must not reach the table
    try:
        playout = SETUPS[library](game_id)
    except ImportError as exc:
        return {"status": "not installed", "reason": f"{type(exc).__name__}: {exc}"}
    rss_after_setup = peak_rss_mib()
    rng = random.Random(seed)
    _timed_run(playout, rng, min(0.5, seconds / 2))  # warm-up: caches, lazy imports, allocator
    runs = []
    for _ in range(repeats):
        games, moves, elapsed = _timed_run(playout, rng, seconds)
        runs.append({"playouts": games, "moves": moves, "seconds": elapsed})
    rss_peak = peak_rss_mib()  # before tracemalloc, whose own tables would count
    tracemalloc.start()
    tracemalloc.reset_peak()
    for _ in range(TRACEMALLOC_PLAYOUTS):
        playout(rng)
    _, heap_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "status": "ok",
        "runs": runs,
        "rss_after_setup_mib": rss_after_setup,
        "peak_rss_mib": rss_peak,
        "tracemalloc_peak_kib": heap_peak / 1024,
    }


# -- the parent: run every case in its own process, then tabulate ----------------------------------


def measure(case: Case, args: argparse.Namespace) -> dict[str, Any]:
    if case.game_id is None:
        return {"status": "n/a", "reason": f"{LIBRARIES[case.library][0]} has no such game"}
    command = [
        sys.executable,
        __file__,
        "--worker",
        case.library,
        case.game_id,
        "--seconds",
        str(args.seconds),
        "--repeats",
        str(args.repeats),
        "--seed",
        str(args.seed),
    ]
    result = run_worker(command, 120 + 3 * args.seconds * (args.repeats + 1))
    if result["status"] == "ok":
        runs = result["runs"]
        result["playouts_per_s"] = statistics.median(r["playouts"] / r["seconds"] for r in runs)
        result["moves_per_s"] = statistics.median(r["moves"] / r["seconds"] for r in runs)
        rates = [r["playouts"] / r["seconds"] for r in runs]
        result["spread_pct"] = 100 * (max(rates) - min(rates)) / 2 / result["playouts_per_s"]
        result["moves_per_playout"] = sum(r["moves"] for r in runs) / sum(r["playouts"] for r in runs)
    return result


def _version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def machine_info() -> dict[str, Any]:
    return {
        "cpu": cpu_model(),
        "logical_cpus": os.cpu_count(),
        "usable_cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "platform": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "noughts_commit": commit(),
        "versions": {
            dist: _version(dist) for dist in ("noughts", "open_spiel", "pettingzoo", "gymnasium", "numpy")
        },
    }


def _fmt(value: float | None, spec: str) -> str:
    return "—" if value is None else format(value, spec)


def table(results: list[tuple[Case, dict[str, Any]]]) -> str:
    header = (
        "| game | library | playouts/s | moves/s | moves/playout | spread | noughts ÷ peer "
        "| peak RSS (MiB) | tracemalloc peak (KiB) |"
    )
    rows = [header, "| --- | --- |" + " ---: |" * 7]
    ours = {c.game: r for c, r in results if c.library == "noughts" and r["status"] == "ok"}
    for case, r in results:
        label = LIBRARIES[case.library][0]
        version = _version(LIBRARIES[case.library][1])
        name = f"{label} {version}" if version else label
        if r["status"] != "ok":
            cells = [r["status"]] + [""] * 6
        else:
            if case.library == "noughts":
                ratio = "1 (reference)"
            elif case.game in ours:
                ratio = f"{ours[case.game]['playouts_per_s'] / r['playouts_per_s']:.2f}×"
            else:
                ratio = "—"
            cells = [
                f"{r['playouts_per_s']:,.0f}",
                f"{r['moves_per_s']:,.0f}",
                f"{r['moves_per_playout']:.2f}",
                f"±{r['spread_pct']:.1f}%",
                ratio,
                _fmt(r["peak_rss_mib"], ".1f"),
                _fmt(r["tracemalloc_peak_kib"], ".1f"),
            ]
        rows.append("| " + " | ".join([GAMES[case.game], name, *cells]) + " |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_timing_options(parser, seconds=1.5, repeats=7, per="case")
    parser.add_argument("--seed", type=int, default=20240601, help="seed of the shared random.Random")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write the raw results")
    parser.add_argument("--worker", nargs=2, metavar=("LIBRARY", "GAME_ID"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    settle_timing(parser, args)

    if args.worker:
        library, game_id = args.worker
        print(json.dumps(run_case(library, game_id, args.seconds, args.repeats, args.seed)))
        return 0

    started = datetime.datetime.now(datetime.UTC)
    info = machine_info()
    results = []
    for case in CASES:
        print(f"  {case.library} {case.game_id or GAMES[case.game]} ...", file=sys.stderr, flush=True)
        results.append((case, measure(case, args)))

    command = command_line("bench/playouts.py", argv)
    print(f"# Random playouts through the public API\n\ncommand: `{command}`  ")
    print(f"date: {started:%Y-%m-%d %H:%M} UTC  ")
    print(f"machine: {info['cpu']}, {info['logical_cpus']} logical CPUs, {info['platform']}  ")
    print(f"python: {info['python']}; noughts commit {info['noughts_commit']}  ")
    versions = ", ".join(f"{k} {v or 'not installed'}" for k, v in info["versions"].items())
    print(f"versions: {versions}  ")
    print(f"each figure: median of {args.repeats} repetitions of ~{args.seconds:g} s, one process per row\n")
    print(table(results))
    print(
        "\nnoughts ÷ peer: noughts' playouts/s over the peer's (below 1: noughts is slower). "
        "spread: half the range of the repetitions' playouts/s, relative to the median. "
        "peak RSS: the row's own process (interpreter and imports included). "
        f"tracemalloc peak: Python allocations over {TRACEMALLOC_PLAYOUTS} untimed playouts "
        "(C++ allocations, as OpenSpiel's, are not seen)."
    )
    problems = [(c, r) for c, r in results if r["status"] != "ok"]
    if problems:
        print()
        for case, r in problems:
            print(f"- {case.library}, {GAMES[case.game]}: {r['status']} ({r['reason']})")

    if args.json:
        payload = {
            "date": started.isoformat(timespec="seconds"),
            "command": command,
            "seconds": args.seconds,
            "repeats": args.repeats,
            "seed": args.seed,
            "machine": info,
            "results": [
                {"library": c.library, "game": c.game, "game_id": c.game_id, **r} for c, r in results
            ],
        }
        write_raw(args.json, payload)
    return 0


if __name__ == "__main__":
    sys.exit(main())
