"""The arena on a fresh machine: seconds from ``noughts serve`` to ready and to each preset's
first move, and the CPU of the first ``noughts solve "mnk(4,4,4)"``, each on an empty numba cache.

A round starts ``noughts serve`` (a child importing one tree's ``src``, with ``NUMBA_CACHE_DIR``
a new empty folder and a new store) and, as soon as it listens, asks the first reply of the
default opponent on three presets at once, as three players arriving at once would: Gomoku
15x15 (the engine), 7x7x7 (the engine) and 4x4x4 (Qubic, the perfect player), each after the
person's first move (the centre, or a corner on Qubic). A turn answered 429 is asked again after
its ``Retry-After`` (as the page does); the row records the seconds from the start of ``serve``
to the first answer that is not a 429, and whether it was a move or an error (the base's
"did not finish within its 3 s" when its worker was killed compiling). **Ready** is when
``/api/health`` shows every worker started and, where the tree has one, the warm-up finished.
Then, on another empty cache, the CPU seconds (user + system, ``os.wait4``) of one ``noughts
solve "mnk(4,4,4)"`` (``bench/first_compile.py``'s run).

With ``--base REV`` (the issue's: ``b7f18e9``, the commit before this work) the same rounds run
against ``REV`` checked out into a temporary git worktree, interleaved (A B, then B A), so the
machine's load falls on both alike; the table shows medians per tree and their ratio. A move that
failed counts as failed, not as a time.

Run it as ``python bench/cold_start.py --base b7f18e9 [--rounds 2] [--give-up 900]``;
``--solve-only`` times only the first ``noughts solve "mnk(4,4,4)"`` (a few seconds a round, so
more rounds: ``--solve-only --rounds 6``), each on an empty cache, interleaved the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx

from _common import commit, machine, versions  # bench/ is sys.path[0] when a script runs
from first_compile import run_cli
from regression import rev_name, worktree

ROOT = Path(__file__).resolve().parent.parent

PRESETS = (
    ("Gomoku 15x15", "mnk(15,15,5)", "engine", "h8"),
    ("7x7x7", "hypercube(7,3)", "engine", "4,4,4"),
    ("4x4x4", "hypercube(4,3)", "perfect", "1,1,1"),
)
"""The presets timed: name, spec, the default opponent (``web.app.PRESETS``), the person's move."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def first_move(base: str, spec: str, opponent: str, move: str, t0: float, give_up: float) -> dict[str, Any]:
    """The opponent's first reply on ``spec`` after the person's ``move``: seconds from ``t0``
    to the first answer that is not a 429, and what it was."""
    headers = {"X-Noughts-Client": "bench"}
    with httpx.Client(base_url=base, headers=headers, timeout=give_up) as c:
        game = c.post("/api/games", json={"game": spec, "x": "human", "o": opponent}).json()
        c.headers["X-Game-Token"] = game["token"]
        r = c.post(f"/api/games/{game['id']}/move", json={"move": move, "ply": 0})
        if r.status_code != 200:
            return {"ok": False, "seconds": time.perf_counter() - t0, "error": r.text[:200], "asked": 0}
        asked = 0
        while time.perf_counter() - t0 < give_up:
            asked += 1
            r = c.post(f"/api/games/{game['id']}/turn", json={"ply": 1})
            if r.status_code == 429:
                time.sleep(float(r.headers.get("Retry-After", "1")))
                continue
            seconds = time.perf_counter() - t0
            doc = r.json()
            if r.status_code == 200 and doc.get("ply") == 2:
                return {"ok": True, "seconds": seconds, "move": doc["moves"][1], "asked": asked}
            return {
                "ok": False,
                "seconds": seconds,
                "error": str(doc.get("error") or doc)[:200],
                "asked": asked,
            }
    return {"ok": False, "seconds": give_up, "error": "no answer before giving up", "asked": asked}


def ready(base: str) -> bool:
    try:
        health = httpx.get(base + "/api/health", timeout=10).json()
    except (httpx.HTTPError, ValueError):
        return False
    workers = health["workers"]
    warm = workers.get("warmup")
    return bool(workers["ready"] >= workers["workers"] and (warm is None or warm["ready"]))


def serve_round(tree: Path, give_up: float) -> dict[str, Any]:
    """One cold start of ``noughts serve`` from ``tree`` (see the module docstring)."""
    with tempfile.TemporaryDirectory(prefix="noughts-cold-") as tmp:
        cache = Path(tmp) / "numba"
        cache.mkdir()
        port = free_port()
        env = dict(os.environ, PYTHONPATH=str(tree / "src"), NUMBA_CACHE_DIR=str(cache))
        code = "import sys; from noughts.cli.app import main; sys.argv[0] = 'noughts'; main()"
        args = ["serve", "--port", str(port), "--db", str(Path(tmp) / "a.db"), "--no-open", "--no-access-log"]
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-W", "ignore", "-c", code, *args],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            if "ready at" not in line:
                raise RuntimeError(f"serve from {tree} did not start: {line.strip()}")
            listening = time.perf_counter() - t0
            threading.Thread(target=proc.stdout.read, daemon=True).start()  # keep the pipe drained
            base = f"http://127.0.0.1:{port}"
            moves: dict[str, dict[str, Any]] = {}

            def ask(name: str, spec: str, opponent: str, move: str) -> None:
                moves[name] = first_move(base, spec, opponent, move, t0, give_up)

            threads = [threading.Thread(target=ask, args=p) for p in PRESETS]
            for t in threads:
                t.start()
            ready_at = None
            while time.perf_counter() - t0 < give_up and ready_at is None:
                if ready(base):
                    ready_at = time.perf_counter() - t0
                else:
                    time.sleep(0.5)
            for t in threads:
                t.join()
            return {"listening": listening, "ready": ready_at, "moves": moves}
        finally:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


def cell(values: list[float | None]) -> str:
    done = [v for v in values if v is not None]
    if not done:
        return "failed"
    failed = len(values) - len(done)
    return f"{statistics.median(done):.1f}" + (f" ({failed} failed)" if failed else "")


def print_solves(runs: dict[str, list[dict[str, Any]]], out: Path) -> None:
    """The ``--solve-only`` table: CPU and wall seconds of each tree's first solve, medians, ratio."""
    print('The first `noughts solve "mnk(4,4,4)"` on an empty numba cache (medians over rounds)\n')
    print(f"{machine()}; {versions(('numba', 'numpy', 'llvmlite'))}; commit {commit()}\n")
    print("| tree | CPU s (user + system) | wall s | rounds | every round's CPU s |")
    print("| --- | ---: | ---: | ---: | --- |")
    medians = {}
    for label, rs in runs.items():
        cpu = [x["solve_cpu"] for x in rs]
        medians[label] = statistics.median(cpu)
        wall = statistics.median(x["solve_wall"] for x in rs)
        every = ", ".join(f"{c:.2f}" for c in cpu)
        print(f"| {label} | {medians[label]:.2f} | {wall:.2f} | {len(rs)} | {every} |")
    labels = list(medians)
    if len(labels) == 2:
        print(f"\nratio (this tree / {labels[1]}): {medians[labels[0]] / medians[labels[1]]:.2f}x")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"machine": machine(), "commit": commit(), "solve_only": runs}, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", help="also run this revision, interleaved (the issue's: b7f18e9)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--give-up", type=float, default=900.0, help="seconds after which a round stops waiting"
    )
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "results" / "cold_start.json")
    parser.add_argument(
        "--solve-only",
        action="store_true",
        help='only the first `noughts solve "mnk(4,4,4)"` on an empty cache',
    )
    args = parser.parse_args()
    with ExitStack() as stack:
        trees = {"this tree": ROOT}
        if args.base:
            trees[rev_name(args.base)] = stack.enter_context(worktree(args.base))
        runs: dict[str, list[dict[str, Any]]] = {label: [] for label in trees}
        for r in range(args.rounds):
            order = list(trees) if r % 2 == 0 else list(reversed(trees))
            for label in order:
                result = {} if args.solve_only else serve_round(trees[label], args.give_up)
                with tempfile.TemporaryDirectory(prefix="noughts-numba-") as cache:
                    result["solve_cpu"], result["solve_wall"] = run_cli(
                        trees[label], Path(cache), ["solve", "mnk(4,4,4)", "--max-seconds", "900"]
                    )
                runs[label].append(result)
                print(f"round {r + 1}, {label}: {json.dumps(result)}", file=sys.stderr, flush=True)
    if args.solve_only:
        print_solves(runs, args.json)
        return
    names = [p[0] for p in PRESETS]
    print("`noughts serve` on an empty numba cache: seconds from its start (medians over rounds)\n")
    print(f"{machine()}; {versions(('numba', 'numpy', 'llvmlite'))}; commit {commit()}\n")
    head = " | ".join(f"first move, {n}" for n in names)
    print(f"| tree | listening | ready | {head} | first `solve mnk(4,4,4)`, CPU s |")
    print("| --- | ---: | ---: | " + " | ".join("---:" for _ in names) + " | ---: |")
    for label, rs in runs.items():
        moves = [cell([x["moves"][n]["seconds"] if x["moves"][n]["ok"] else None for x in rs]) for n in names]
        print(
            f"| {label} | {cell([x['listening'] for x in rs])} | {cell([x['ready'] for x in rs])} | "
            + " | ".join(moves)
            + f" | {cell([x['solve_cpu'] for x in rs])} |"
        )
    print()
    for label, rs in runs.items():
        for x in rs:
            for n in names:
                if not x["moves"][n]["ok"]:
                    print(f"- {label}, {n}: {x['moves'][n]['error']}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"machine": machine(), "commit": commit(), "runs": runs}, indent=1))


if __name__ == "__main__":
    main()
