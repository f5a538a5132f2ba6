"""Batched random playouts of tic-tac-toe: noughts' numba kernels against Pgx on JAX (CPU);
and of 15x15 gomoku (``mnk(15,15,5)``, 225 cells: W-word bitboards), noughts alone.

A playout is one game from the start to its end, each move uniform among the legal moves. Rows:

- **noughts kernel**: ``noughts.envs.batch.random_playouts(game, B, seed=i)``, whole games in
  one numba call (``parallel=True`` shares the games among numba's threads).
- **noughts BatchGame**: the vectorised step API driven from Python, as a learner would:
  ``legal_mask()``, a uniform legal action per game drawn with NumPy, ``step(actions)``, until
  every game has ended. On 15x15 the games are four uint64 words per player.
- **Pgx**: ``pgx.make("tic_tac_toe")``; one ``jax.jit``-compiled function plays a batch of B
  games with ``jax.vmap(env.step)`` in a ``jax.lax.while_loop`` until all have terminated, each
  action ``jax.random.categorical`` over the legal-action mask. Moves are counted as the games
  not yet terminated at each step. Pgx has no 15x15 gomoku: the 15x15 rows have no peer but
  each other (the step loop against the kernel's whole games, same run).

Each row runs in its own child process (its imports, compilation and peak memory are its own).
"1 core" rows pin that process to one CPU (``os.sched_setaffinity``), so numba and XLA alike
run on one core; "all cores" rows leave it free. A row warms up (compiles) first, then
``--repeats`` timed repetitions of about ``--seconds`` each play as many batches as fit; the
table gives the median moves/s, the spread, the ratio to Pgx at batch 8192 on the same cores,
and the child's peak RSS.

Run it as ``python bench/batch_playouts.py``; ``--quick`` is a smoke test.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _common import (  # bench/ is sys.path[0] when a script runs
    ROOT,
    add_timing_options,
    command_line,
    commit,
    machine,
    peak_rss_mib,
    run_worker,
    settle_timing,
    versions,
    write_raw,
)

DEFAULT_JSON = ROOT / "bench" / "results" / "batch_playouts.json"


@dataclass(frozen=True)
class Case:
    key: str
    label: str
    batch: int
    cores: int  # 1: pinned to one CPU; 0: all CPUs
    game: str = "tictactoe"


CASES = (
    Case("kernel", "noughts kernel (numba)", 8192, 1),
    Case("pgx", "Pgx (JAX, jit + vmap)", 8192, 1),
    Case("batchgame", "noughts BatchGame.step (NumPy loop)", 8192, 1),
    Case("kernel", "noughts kernel (numba)", 1 << 20, 1),
    Case("kernel_parallel", "noughts kernel (numba, parallel)", 1 << 16, 0),
    Case("pgx", "Pgx (JAX, jit + vmap)", 8192, 0),
    Case("pgx", "Pgx (JAX, jit + vmap)", 1 << 16, 0),
    Case("kernel", "noughts kernel (numba), mnk(15,15,5)", 1024, 1, "mnk(15,15,5)"),
    Case("batchgame", "noughts BatchGame.step (NumPy loop), mnk(15,15,5)", 1024, 1, "mnk(15,15,5)"),
)


# -- one batch of playouts per library: returns (playouts, moves, first-player wins or None) ------


def setup_kernel(batch: int, parallel: bool, spec: str) -> Any:
    import noughts
    from noughts.envs.batch import random_playouts

    game = noughts.game(spec)
    counter = iter(range(1 << 62))

    def run() -> tuple[int, int, int | None]:
        r = random_playouts(game, batch, seed=next(counter), parallel=parallel)
        return batch, int(r.lengths.sum()), int((r.results == 1).sum())

    return run


def setup_batchgame(batch: int, spec: str) -> Any:
    import numpy as np

    from noughts.envs.batch import BatchGame

    b = BatchGame(spec)
    rng = np.random.default_rng(0)

    def run() -> tuple[int, int, int | None]:
        b.reset(batch)
        while True:
            mask = b.legal_mask()
            live = mask.any(axis=1)
            if not live.any():
                break
            # a uniform legal cell per game: the largest random key among the legal cells
            keys = rng.random(mask.shape)
            keys[~mask] = -1.0
            b.step(keys.argmax(axis=1))
        return batch, int(b.plies.sum()), int((b.results == 1).sum())

    return run


def setup_pgx(batch: int) -> Any:
    import jax
    import jax.numpy as jnp
    import pgx

    env = pgx.make("tic_tac_toe")
    step = jax.vmap(env.step)
    init = jax.vmap(env.init)

    @jax.jit
    def playouts(key: Any) -> Any:
        k0, key = jax.random.split(key)
        state = init(jax.random.split(k0, batch))

        def cond(carry: Any) -> Any:
            return ~carry[0].terminated.all()

        def body(carry: Any) -> Any:
            s, k, n = carry
            k, sub = jax.random.split(k)
            logits = jnp.where(s.legal_action_mask, 0.0, -jnp.inf)
            logits = jnp.where(s.terminated[:, None], 0.0, logits)  # finished games: any action, ignored
            action = jax.random.categorical(sub, logits, axis=-1)
            return step(s, action), k, n + (~s.terminated).sum()

        _, _, moves = jax.lax.while_loop(cond, body, (state, key, jnp.int32(0)))
        return moves

    counter = iter(range(1 << 62))

    def run() -> tuple[int, int, int | None]:
        moves = playouts(jax.random.PRNGKey(next(counter))).block_until_ready()
        return batch, int(moves), None

    return run


# -- the child process: time one case -------------------------------------------------------------


def run_case(case: Case, seconds: float, repeats: int) -> dict[str, Any]:
    warnings.simplefilter("ignore")
    if case.cores == 1 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    try:
        if case.key == "kernel":
            run = setup_kernel(case.batch, parallel=False, spec=case.game)
        elif case.key == "kernel_parallel":
            run = setup_kernel(case.batch, parallel=True, spec=case.game)
        elif case.key == "batchgame":
            run = setup_batchgame(case.batch, case.game)
        else:
            run = setup_pgx(case.batch)
    except ImportError as exc:
        return {"status": "not installed", "reason": f"{type(exc).__name__}: {exc}"}
    clock = time.perf_counter
    start = clock()
    run()  # compile
    compile_s = clock() - start
    warm_until = clock() + min(0.5, seconds / 2)
    while clock() < warm_until:
        run()
    runs = []
    for _ in range(repeats):
        games = moves = wins = 0
        cpu_begin = time.process_time()
        begin = clock()
        deadline = begin + seconds
        while True:
            g, m, w = run()
            games, moves = games + g, moves + m
            wins = None if w is None or wins is None else wins + w
            now = clock()
            if now >= deadline:
                break
        cpu = time.process_time() - cpu_begin
        runs.append(
            {
                "playouts": games,
                "moves": moves,
                "first_wins": wins,
                "seconds": now - begin,
                "cpu_seconds": cpu,
            }
        )
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {
        "status": "ok",
        "runs": runs,
        "compile_s": compile_s,
        "cpus": cpus,
        "peak_rss_mib": peak_rss_mib(),
    }


# -- the parent -----------------------------------------------------------------------------------


def measure(index: int, args: argparse.Namespace) -> dict[str, Any]:
    command = [
        sys.executable,
        __file__,
        "--worker",
        str(index),
        "--seconds",
        str(args.seconds),
        "--repeats",
        str(args.repeats),
    ]
    result = run_worker(command, 300 + 3 * args.seconds * (args.repeats + 1))
    if result["status"] == "ok":
        runs = result["runs"]
        rates = [r["moves"] / r["seconds"] for r in runs]
        result["moves_per_s"] = statistics.median(rates)
        result["moves_per_cpu_s"] = statistics.median(r["moves"] / r["cpu_seconds"] for r in runs)
        result["playouts_per_s"] = statistics.median(r["playouts"] / r["seconds"] for r in runs)
        result["spread_pct"] = 100 * (max(rates) - min(rates)) / 2 / result["moves_per_s"]
        result["moves_per_playout"] = sum(r["moves"] for r in runs) / sum(r["playouts"] for r in runs)
        if all(r["first_wins"] is not None for r in runs):
            result["first_win_share"] = sum(r["first_wins"] for r in runs) / sum(r["playouts"] for r in runs)
    return result


def table(results: list[tuple[Case, dict[str, Any]]]) -> str:
    header = (
        "| implementation | batch | cores | moves/s | moves/CPU-s | playouts/s | moves/playout | first wins | spread "
        "| ÷ Pgx (8192, same cores) | compile (s) | peak RSS (MiB) |"
    )
    rows = [header, "| --- | ---: | --- |" + " ---: |" * 9]
    pgx = {c.cores: r for c, r in results if c.key == "pgx" and c.batch == 8192 and r["status"] == "ok"}
    for case, r in results:
        cores = "1" if case.cores == 1 else f"all ({r.get('cpus', '?')})"
        if r["status"] != "ok":
            rows.append(f"| {case.label} | {case.batch:,} | {cores} | {r['status']} |" + " |" * 8)
            continue
        peer = pgx.get(case.cores)
        ratio = (
            "—"
            if peer is None or case.game != "tictactoe"
            else f"{r['moves_per_s'] / peer['moves_per_s']:.2f}×"
        )
        share = r.get("first_win_share")
        rows.append(
            "| "
            + " | ".join(
                [
                    case.label,
                    f"{case.batch:,}",
                    cores,
                    f"{r['moves_per_s']:,.0f}",
                    f"{r['moves_per_cpu_s']:,.0f}",
                    f"{r['playouts_per_s']:,.0f}",
                    f"{r['moves_per_playout']:.3f}",
                    "—" if share is None else f"{share:.4f}",
                    f"±{r['spread_pct']:.1f}%",
                    ratio,
                    f"{r['compile_s']:.2f}",
                    "—" if r["peak_rss_mib"] is None else f"{r['peak_rss_mib']:.0f}",
                ]
            )
            + " |"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_timing_options(parser, seconds=1.0, repeats=7, per="row")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write the raw results")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    settle_timing(parser, args)

    if args.worker is not None:
        print(json.dumps(run_case(CASES[args.worker], args.seconds, args.repeats)))
        return 0

    started = datetime.datetime.now(datetime.UTC)
    results = []
    for i, case in enumerate(CASES):
        print(f"  {case.label}, batch {case.batch} ...", file=sys.stderr, flush=True)
        results.append((case, measure(i, args)))

    command = command_line("bench/batch_playouts.py", argv)
    print(f"# Batched random playouts of tic-tac-toe (and 15x15)\n\ncommand: `{command}`  ")
    print(f"date: {started:%Y-%m-%d %H:%M} UTC  ")
    print(f"machine: {machine()}  ")
    print(f"noughts commit {commit()}; {versions(('noughts', 'numba', 'numpy', 'pgx', 'jax', 'jaxlib'))}  ")
    print(f"each figure: median of {args.repeats} repetitions of ~{args.seconds:g} s, one process per row\n")
    print(table(results))
    print(
        "\nfirst wins: the share of games the first player won (exactly 737/1260 = 0.5849 under uniform "
        "random play; not reported for Pgx, which draws who moves first). moves/playout: exactly "
        "3203/420 = 7.626 (tic-tac-toe rows). ÷ Pgx: moves/s over Pgx's at batch 8192 on the same cores. compile: the "
        "first call, compilation included. moves/CPU-s: moves over the CPU time of the row's process "
        "(all its threads): on a shared machine, less sensitive than wall time to other work. "
        "peak RSS: the row's own process."
    )
    problems = [(c, r) for c, r in results if r["status"] != "ok"]
    for case, r in problems:
        print(f"- {case.label}, batch {case.batch}: {r['status']} ({r['reason']})")
    if args.json:
        payload = {
            "date": started.isoformat(timespec="seconds"),
            "command": command,
            "seconds": args.seconds,
            "repeats": args.repeats,
            "machine": machine(),
            "commit": commit(),
            "results": [{"case": c.__dict__, **r} for c, r in results],
        }
        write_raw(args.json, payload)
    return 0


if __name__ == "__main__":
    sys.exit(main())
