"""The 7x7x7 proof (002 §4): wall time by backend, peak memory, and cost per case, in one run.

Rows, each measured in a fresh child process (so the cold start, the spawn of workers and the
loading of the compiled kernels are included, as a user of ``noughts prove cube7`` pays them):

- ``prove cube7`` with 1 worker (in-process), 2 local processes, and a local Ray with 2 CPUs;
- ``prove check`` of the certificate it wrote.

Peak memory is the child's own peak RSS and its children's (workers) largest, from
``getrusage``. Per case, in this process after a warm-up, on the same sampled cases:

- SciPy from scratch: build each case's graph and run ``maximum_bipartite_matching``
  (Hopcroft-Karp), the reference :func:`noughts.casework.cube7.reference_leaf`;
- numba from scratch: the kernel on one case at a time (a fresh matching per case, no repair,
  no Dulmage-Mendelsohn sweep);
- incremental: the kernel as the proof runs it (repair the previous node's matching, settle a
  node's ~337 cases with one alternating search).

Run: ``.venv/bin/python bench/cube7.py`` (``--repeats N``, default 3; ``--no-ray``).

``--computed`` instead times the published plan against the computed opening (``prove cube7
--computed``: Breaker's greedy moves, the depth found by trying), 2 local processes each,
interleaved (published, computed, published, ...), each certificate checked.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import commit, machine, versions  # bench/ is sys.path[0] when a script runs

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, resource, sys, time
mode, workers, address, out = sys.argv[1], int(sys.argv[2]), sys.argv[3] or None, sys.argv[4]
start = time.perf_counter()
cases = None
if mode == "prove":
    from noughts.casework.cube7 import prove
    result = prove(workers=workers, address=address, out=out, progress=False)
    ok = result.failures == 0
    cases = sum(result.cases.values())
elif mode == "computed":
    from noughts.casework.cube7 import prove_computed
    result, names = prove_computed(workers=workers, address=address, out=out, progress=False)
    ok = result.failures == 0
    cases = sum(result.cases.values())
else:
    from noughts.casework.certificate import check_casework
    ok = check_casework(out).valid
wall = time.perf_counter() - start
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"wall": wall, "ok": ok, "cases": cases, "rss_kib": own, "children_rss_kib": kids}))
"""


def child(mode: str, workers: int, address: str | None, out: str) -> dict[str, float]:
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, mode, str(workers), address or "", out],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    if proc.returncode != 0:
        raise SystemExit(f"child failed ({mode}, {workers}, {address}):\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def per_case(samples: int, seed: int) -> dict[str, float]:
    import numpy as np

    from noughts.casework import cube7 as C
    from noughts.casework._cube7_kernels import settle_nodes

    rng = random.Random(seed)
    out: dict[str, list[float]] = {"scipy": [], "scratch": [], "incremental": []}
    cases = 0
    leaves_total = 0
    kernel_seconds = 0.0
    for name in ("centre", "other"):
        pl = C.plan(name)
        prefixes = C.split_prefixes(pl)
        C.settle_chunk((name, prefixes[0]))  # warm-up: compile / load kernels
        line_cells, ptr, lines_at = C.board_arrays(pl.board_spec)
        n_cells = pl.board.num_cells
        for prefix in rng.sample(prefixes, 6):
            arrays = C.node_arrays(pl, prefix)
            n = arrays.maker.shape[0]

            def buffers(n: int, n_cells: int = n_cells) -> list[np.ndarray]:
                return [
                    np.zeros(n, np.int64),
                    np.zeros(n * n_cells + 1, np.int32),
                    np.zeros(n * n_cells + 1, np.int32),
                    np.zeros(n + 1, np.int64),
                    np.zeros(n * 386 + 1, np.int16),
                    np.zeros(n * 386 + 1, np.int16),
                    np.zeros(n + 1, np.int64),
                    np.zeros(n * 386 + 1, np.int16),
                    np.zeros(n * 386 + 1, np.int16),
                ]

            bufs = buffers(n)
            t = time.perf_counter()
            settle_nodes(
                line_cells,
                ptr,
                lines_at,
                n_cells,
                arrays.maker,
                arrays.breaker,
                arrays.prio,
                arrays.domain_id,
                arrays.domains,
                *bufs,
            )
            kernel_seconds += time.perf_counter() - t
            leaves_total += int(bufs[0].sum())
            # sampled single cases, from scratch, SciPy and numba
            nodes = list(C.iter_nodes(pl, prefix))
            for _ in range(samples // 12):
                i = rng.randrange(n)
                maker, breaker = nodes[i]
                taken = set(maker) | set(breaker)
                m = rng.choice([c for c in range(n_cells) if c not in taken])
                prio = pl.priority(pl.depth - 1, maker + (m,), breaker)
                reply = next(p for p in prio if p not in taken | {m})
                t = time.perf_counter()
                C.reference_leaf(pl.board, maker + (m,), breaker + (reply,))
                out["scipy"].append(time.perf_counter() - t)
                # numba from scratch: the case as a node of its own, Breaker's reply fixed, no leaves
                mk = np.array([list(maker) + [m]], np.int32)
                bk = np.array([list(breaker)], np.int32)
                one = buffers(1)
                t = time.perf_counter()
                settle_nodes(
                    line_cells,
                    ptr,
                    lines_at,
                    n_cells,
                    mk,
                    bk,
                    np.array([[reply]], np.int32),
                    np.zeros(1, np.int32),
                    np.zeros((1, n_cells), np.uint8),
                    *one,
                )
                out["scratch"].append(time.perf_counter() - t)
                cases += 1
    return {
        "scipy_us": statistics.median(out["scipy"]) * 1e6,
        "scratch_us": statistics.median(out["scratch"]) * 1e6,
        "incremental_us": kernel_seconds / leaves_total * 1e6,
        "incremental_cases": leaves_total,
        "sampled": cases,
    }


def computed(repeats: int) -> None:
    load_before = os.getloadavg()
    runs: dict[str, list[dict[str, float]]] = {"prove": [], "computed": []}
    checks: dict[str, list[dict[str, float]]] = {"prove": [], "computed": []}
    sizes: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(repeats):
            for mode in runs:
                cert = str(Path(tmp) / f"{mode}.json")
                runs[mode].append(child(mode, 2, None, cert))
                checks[mode].append(child("check", 1, None, cert))
                sizes[mode] = sum(p.stat().st_size for p in Path(tmp).glob(f"{mode}.*"))
    assert all(r["ok"] for rs in (*runs.values(), *checks.values()) for r in rs)
    load_after = os.getloadavg()
    print(f"Machine: {machine()}; {versions(('numpy', 'numba', 'scipy'))}; commit {commit()}.")
    print(f"Load average before/after: {load_before[0]:.1f} / {load_after[0]:.1f}.")
    print()
    print(
        f"| opening | cases | prove, 2 processes: wall s (median of {repeats}), min-max | peak RSS (process, worker)"
        " | certificate | check: wall s (median) |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    labels = {"prove": "the published plan (002 §4)", "computed": "computed (`--computed`)"}
    for mode, rs in runs.items():
        walls = [r["wall"] for r in rs]
        print(
            f"| {labels[mode]} | {int(rs[0]['cases']):,} | {statistics.median(walls):.1f}, {min(walls):.1f}-{max(walls):.1f}"
            f" | {max(r['rss_kib'] for r in rs) / 1024:.0f} MiB, {max(r['children_rss_kib'] for r in rs) / 1024:.0f} MiB"
            f" | {sizes[mode] / 2**20:.1f} MiB, valid | {statistics.median(r['wall'] for r in checks[mode]):.1f} |"
        )
    ratio = statistics.median(r["wall"] for r in runs["computed"]) / statistics.median(
        r["wall"] for r in runs["prove"]
    )
    print()
    print(f"Computed / published, prove wall time (medians): {ratio:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-ray", action="store_true")
    parser.add_argument("--samples", type=int, default=600)
    parser.add_argument(
        "--computed", action="store_true", help="the published plan against the computed opening"
    )
    args = parser.parse_args()
    if args.computed:
        computed(args.repeats)
        return
    load_before = os.getloadavg()
    configs = [("1 worker (in-process)", 1, None), ("2 local processes", 2, None)]
    if not args.no_ray:
        configs.append(("local Ray, 2 CPUs", 2, "local"))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        cert = str(Path(tmp) / "cube7.json")
        for label, workers, address in configs:
            runs = [child("prove", workers, address, cert) for _ in range(args.repeats)]
            assert all(r["ok"] for r in runs)
            rows.append((f"`prove cube7`, {label}", runs))
        checks = [child("check", 1, None, cert) for _ in range(args.repeats)]
        assert all(r["ok"] for r in checks)
        rows.append(("`prove check` (1 process)", checks))
        size = sum(p.stat().st_size for p in Path(tmp).iterdir())
    cost = per_case(args.samples, seed=7)
    load_after = os.getloadavg()
    print(f"Machine: {machine()}; {versions(('numpy', 'numba', 'scipy', 'ray'))}; commit {commit()}.")
    print(f"Load average before/after: {load_before[0]:.1f} / {load_after[0]:.1f} (a shared machine).")
    print()
    head = f"| run | wall s (median of {args.repeats}) | min | max | peak RSS, process | peak RSS, largest worker |"
    print(head)
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for label, runs in rows:
        walls = [r["wall"] for r in runs]
        print(
            f"| {label} | {statistics.median(walls):.1f} | {min(walls):.1f} | {max(walls):.1f} | "
            f"{max(r['rss_kib'] for r in runs) / 1024:.0f} MiB | {max(r['children_rss_kib'] for r in runs) / 1024:.0f} MiB |"
        )
    print()
    print(f"Certificate: {size / 2**20:.1f} MiB (JSON + npz) for 38,319,204 cases.")
    print()
    print("| method, per case (7x7x7 leaves) | microseconds | vs SciPy |")
    print("| --- | ---: | ---: |")
    s = cost["scipy_us"]
    print(
        f"| SciPy Hopcroft-Karp from scratch (median of {cost['sampled']} sampled cases) | {s:.1f} | 1.0x |"
    )
    print(
        f"| numba, from scratch per case (same cases) | {cost['scratch_us']:.1f} | {s / cost['scratch_us']:.0f}x |"
    )
    print(
        f"| numba, incremental + Dulmage-Mendelsohn ({cost['incremental_cases']:,} cases of 12 chunks) | "
        f"{cost['incremental_us']:.3f} | {s / cost['incremental_us']:,.0f}x |"
    )


if __name__ == "__main__":
    main()
