"""Retrograde analysis of games that need not end: the kernels side by side with the references.

For each game, in a child process of its own (so each row's peak memory is its own):

- **from scratch**: the wall time of the child's first ``solve_table(spec)`` (enumerating every
  reachable state by the numba kernels, then propagating), compiled kernels loaded from numba's
  cache, and its peak resident memory;
- **propagation**: the counter kernel (:func:`noughts.retrograde.analysis.retrograde`) against its peer,
  the plain value iteration to a fixed point (:func:`noughts.retrograde.analysis.reference_values`),
  timed interleaved (kernel, reference, kernel, reference, ...) on the same graph: medians, the
  kernel's states and edges per second, and the ratio;
- **enumeration**: the kernels (:func:`fast_graph`) against the position API
  (:func:`reference_graph`), interleaved likewise.

The references run only where they finish in reasonable time (``--reference-states``).
Run it as ``python bench/retro.py`` (``--quick`` for one repetition and the small games only).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from _common import command_line, commit, machine, peak_rss_mib, run_worker, versions, write_raw

GAMES = (
    "forget(tictactoe)",
    'forget(tictactoe,count="plies")',
    'forget(tictactoe,judge="before")',
    "vanishing(tictactoe)",
    "morris",
    "morris(diagonals=false)",
    "vanishing(mnk(4,4,3))",
    "morris(mnk(4,4,3),pieces=4)",
)
QUICK = GAMES[:5]


def child(spec: str, repeats: int, reference_states: int) -> dict[str, Any]:
    started = time.perf_counter()
    from noughts.retrograde import analysis as retro

    table = retro.solve_table(spec)  # from scratch: enumerate and propagate, kernels from cache
    scratch = time.perf_counter() - started
    graph = retro.fast_graph(spec)
    with_reference = graph.size <= reference_states
    kernel, ref, fast_enum, ref_enum = [], [], [], []
    for _ in range(repeats):
        t = time.perf_counter()
        winner, dist = retro.retrograde(graph)
        kernel.append(time.perf_counter() - t)
        t = time.perf_counter()
        retro.fast_graph(spec)
        fast_enum.append(time.perf_counter() - t)
        if with_reference:
            t = time.perf_counter()
            w2, d2 = retro.reference_values(graph)
            ref.append(time.perf_counter() - t)
            assert (w2 == winner).all() and (d2 == dist).all()
            t = time.perf_counter()
            retro.reference_graph(spec)
            ref_enum.append(time.perf_counter() - t)
    k = statistics.median(kernel)
    out: dict[str, Any] = {
        "status": "ok",
        "game": spec,
        "states": graph.size,
        "edges": graph.edges,
        "table_states": len(table),
        "scratch_seconds": scratch,
        "propagate_seconds": k,
        "kernel_states_per_second": graph.size / k,
        "kernel_edges_per_second": graph.edges / k,
        "enumerate_seconds": statistics.median(fast_enum),
        "peak_rss_mib": peak_rss_mib(),
    }
    if with_reference:
        out["reference_seconds"] = statistics.median(ref)
        out["propagate_ratio"] = statistics.median(ref) / k
        out["reference_enumerate_seconds"] = statistics.median(ref_enum)
        out["enumerate_ratio"] = statistics.median(ref_enum) / statistics.median(fast_enum)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one repetition, the 3x3 games only")
    parser.add_argument("--repeats", type=int, default=5, help="interleaved repetitions per game")
    parser.add_argument(
        "--reference-states", type=int, default=200_000, help="run the references up to this size"
    )
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per game (its child process)")
    parser.add_argument("--json", type=Path, default=Path(__file__).parent / "results" / "retro.json")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        spec, repeats, reference = args.child
        print(json.dumps(child(spec, int(repeats), int(reference))))
        return
    repeats = 1 if args.quick else args.repeats
    rows = []
    for spec in QUICK if args.quick else GAMES:
        command = [sys.executable, __file__, "--child", spec, str(repeats), str(args.reference_states)]
        started = time.perf_counter()
        row = run_worker(command, args.timeout)
        row.setdefault("game", spec)
        row["child_seconds"] = time.perf_counter() - started
        rows.append(row)
        print(_line(row), flush=True)
    write_raw(
        args.json,
        {
            "machine": machine(),
            "versions": versions(("numpy", "numba")),
            "commit": commit(),
            "command": command_line("bench/retro.py", argv),
            "rows": rows,
        },
    )


def _line(row: dict[str, Any]) -> str:
    if row.get("status") != "ok":
        return f"{row['game']}: {row.get('reason')}"
    text = (
        f"{row['game']}: {row['states']:,} states, {row['edges']:,} moves; from scratch "
        f"{row['scratch_seconds']:.2f} s (child {row['child_seconds']:.2f} s, peak {row['peak_rss_mib']:.0f} MiB); "
        f"propagation {row['propagate_seconds'] * 1e3:.1f} ms = {row['kernel_states_per_second'] / 1e6:.2f} M states/s"
        f" ({row['kernel_edges_per_second'] / 1e6:.1f} M moves/s); enumeration {row['enumerate_seconds']:.2f} s"
    )
    if "propagate_ratio" in row:
        text += (
            f"; value iteration {row['reference_seconds']:.2f} s ({row['propagate_ratio']:.0f}x the kernel),"
            f" position-API enumeration {row['reference_enumerate_seconds']:.2f} s ({row['enumerate_ratio']:.0f}x)"
        )
    return text


if __name__ == "__main__":
    main()
