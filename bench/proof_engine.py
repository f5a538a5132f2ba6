"""The proof engine against the alpha-beta kernel (issue 12), and the issue's table of games.

**Same value** (``--small``, the default part): for each game the alpha-beta kernel solves
today, the value of the start by the alpha-beta kernel (``FastSolver(game).value``) and by the
proof engine (``ValueSearches(game).value``), each with fresh tables, interleaved (A, B, A,
B, ...) ``--repeats`` times in one process after one warm-up of each (the kernels' loading).
It reports both medians (wall and CPU), their ratio (proof / alpha-beta), both node counts,
checks that the two engines agree on who wins, then writes the proof engine's certificate of
the value (``noughts.solve(..., certificate=...)``) and checks it with the independent checker
(``noughts.solving.check_certificate``): the moves stored, the positions the checker
walked and its time.

**The issue's table** (``--table``): each game of the issue's table runs ``noughts solve SPEC
--value-only --json --max-seconds LIMIT`` in a child process, first with the automatic engine
choice and a certificate (checked with ``noughts solve check`` when one is written), then with
``--engine alpha-beta`` (today's engine), interleaved game by game. It reports the value or what
was proved when the budget ran out, the engine, the child's wall time and peak resident set.

Run it as ``python bench/proof_engine.py`` (``--table`` for the second part, ``--limit`` its
budget in seconds, ``--only SPEC`` for some games). Writes ``bench/results/proof_engine.json``
and prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _common import commit, machine, versions  # bench/ is sys.path[0] when a script runs

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_JSON = ROOT / "bench" / "results" / "proof_engine.json"

SMALL = (
    "tictactoe",
    "misere(tictactoe)",
    "maker_breaker(tictactoe)",
    "cumulative(tictactoe)",
    "mnk(4,4,4)",
    "hypercube(3,3)",
    'shape("###/#.#/###",3)',
    "mnk(5,5,4)",
    "mnk(6,5,4)",
)
"""The games of the "same value" part: the alpha-beta kernel's games of bench/solve_targets.py."""

TABLE = (
    "hypercube(4,3)",
    "mnk(6,6,5)",
    "mnk(7,7,5)",
    "mnk(7,7,4)",
    "mnk(7,6,4)",
    "misere(mnk(5,5,4))",
    "maker_breaker(mnk(6,6,5))",
)
"""The issue's table: what ``noughts solve SPEC --max-seconds 120`` answered before it."""


def _winner(value: Any) -> str:
    return str(value.outcome.value) + ("" if value.score is None else f" {value.score:+d}")


def same_value(spec: str, repeats: int, limit: float) -> dict[str, Any]:
    import noughts
    from noughts.core import LimitExceeded
    from noughts.core.budget import Budget
    from noughts.exact.fast import FastSolver
    from noughts.proving.proof import ValueSearches
    from noughts.solving import check_certificate

    game = noughts.game(spec)
    start = game.start()

    def alpha_beta() -> tuple[Any, int]:
        solver = FastSolver(game, Budget(max_seconds=limit))
        return solver.value(start), int(solver.nodes)

    def proof() -> tuple[Any, int]:
        searches = ValueSearches(game, Budget(max_seconds=limit))
        return searches.value(start), int(searches.nodes)

    engines = {"alpha-beta": alpha_beta, "proof": proof}
    runs: dict[str, dict[str, list[float]]] = {name: {"wall": [], "cpu": []} for name in engines}
    found: dict[str, tuple[Any, int] | None] = {}
    for name, run in engines.items():  # warm-up (the kernels' loading); an engine over budget is dropped
        try:
            found[name] = run()
        except LimitExceeded as e:
            found[name] = None
            print(f"    {name} did not finish in {limit:g} s: {e}", file=sys.stderr)
    for _ in range(repeats):
        for name, run in engines.items():
            if found[name] is None:
                continue
            w0, c0 = time.perf_counter(), time.process_time()
            found[name] = run()
            runs[name]["wall"].append(time.perf_counter() - w0)
            runs[name]["cpu"].append(time.process_time() - c0)
    done = {name: f for name, f in found.items() if f is not None}
    values = {_winner(f[0]) for f in done.values()}
    if len(values) > 1:
        raise AssertionError(f"{spec}: the engines disagree: {done}")
    row: dict[str, Any] = {
        "spec": spec,
        "limit": limit,
        "value": values.pop() if values else None,
        "nodes": {name: (f[1] if f is not None else None) for name, f in found.items()},
        "median_wall": {
            name: (statistics.median(r["wall"]) if r["wall"] else None) for name, r in runs.items()
        },
        "median_cpu": {name: (statistics.median(r["cpu"]) if r["cpu"] else None) for name, r in runs.items()},
        "range_wall": {
            name: ([min(r["wall"]), max(r["wall"])] if r["wall"] else None) for name, r in runs.items()
        },
        "certificate": None,
    }
    if found["proof"] is not None:
        with tempfile.TemporaryDirectory() as tmp:
            w0 = time.perf_counter()
            result = noughts.exact.solve(game, value_only=True, certificate=Path(tmp) / "c", max_seconds=None)
            written = time.perf_counter() - w0
            assert result.certificate is not None
            report = check_certificate(Path(tmp) / "c.json")
            size = sum(f.stat().st_size for f in Path(tmp).iterdir())
        row["certificate"] = {
            "stored_moves": result.certificate["stored_moves"],
            "bytes": size,
            "write_seconds": written,
            "valid": report.valid,
            "checked_positions": report.checked,
            "check_seconds": report.seconds,
        }
    ab, pr = row["median_wall"]["alpha-beta"], row["median_wall"]["proof"]
    row["ratio"] = None if ab is None or pr is None else pr / max(ab, 1e-9)
    return row


def _child(args: list[str], limit: float) -> dict[str, Any]:
    """Run ``noughts ARGS`` (one JSON document expected), its wall time and peak RSS."""
    cmd = [str(Path(sys.executable).parent / "noughts"), *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    w0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + 120, check=False)
    wall = time.perf_counter() - w0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    out: dict[str, Any] = {"exit": proc.returncode, "wall": wall, "cpu": after.ru_utime - before.ru_utime}
    out["peak_mib"] = after.ru_maxrss / 1024  # the largest child so far (Linux: KiB)
    try:
        out["doc"] = json.loads(proc.stdout.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        out["doc"] = None
    out["stderr"] = proc.stderr.strip().splitlines()[-1:] if proc.stderr.strip() else []
    return out


def table_row(spec: str, limit: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        cert = Path(tmp) / "c"
        auto = _child(
            [
                "solve",
                spec,
                "--value-only",
                "--json",
                "--max-seconds",
                str(limit),
                "--certificate",
                str(cert),
            ],
            limit,
        )
        check = None
        if (Path(tmp) / "c.json").exists():
            check = _child(["solve", "check", str(cert) + ".json", "--json"], limit)
        ab = _child(
            ["solve", spec, "--value-only", "--json", "--max-seconds", str(limit), "--engine", "alpha-beta"],
            limit,
        )
    return {"spec": spec, "limit": limit, "auto": auto, "check": check, "alpha_beta": ab}


def _answer(run: dict[str, Any]) -> str:
    doc = run["doc"]
    if doc is None:
        return "no answer: " + " ".join(run["stderr"])
    if doc.get("complete") is False and "value" not in doc:
        return "budget: " + str(doc.get("stopped", "")).split(";")[-1].strip()
    return f"{doc['value']} ({doc.get('engine')})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--table", action="store_true", help="the issue's table instead of the small games")
    parser.add_argument("--limit", type=float, default=120.0, help="--table: each solve's budget (seconds)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--small-limit", type=float, default=60.0, help="the small games: each solve's budget (seconds)"
    )
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    parser.add_argument("--print", type=Path, metavar="JSON", help="only print the table of a saved run")
    args = parser.parse_args()
    if args.print is not None:
        saved = json.loads(args.print.read_text())
        _print(saved["rows"], "auto" in saved["rows"][0])
        return
    specs = TABLE if args.table else SMALL
    if args.only:
        specs = tuple(s for s in specs if s in args.only)
    rows = []
    for spec in specs:
        print(f"  {spec} ...", file=sys.stderr, flush=True)
        rows.append(
            table_row(spec, args.limit) if args.table else same_value(spec, args.repeats, args.small_limit)
        )
    doc = {
        "machine": machine(),
        "versions": versions(("numpy", "numba")),
        "commit": commit(),
        "command": " ".join(["python", *sys.argv]),
        "load": os.getloadavg(),
        "rows": rows,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    part = args.json.with_name(args.json.stem + ("_table" if args.table else "") + args.json.suffix)
    part.write_text(json.dumps(doc, indent=1))
    _print(rows, args.table)


def _print(rows: list[dict[str, Any]], table: bool) -> None:
    if table:
        print(
            "| game | auto engine (value-only, certificate) | s | peak MiB | certificate check | alpha-beta kernel | s |"
        )
        print("| --- | --- | ---: | ---: | --- | --- | ---: |")
        for r in rows:
            check = "none written"
            if r["check"] is not None and r["check"]["doc"] is not None:
                c = r["check"]["doc"]
                check = f"{'valid' if c['valid'] else 'INVALID'}, {c['checked']:,} positions"
            print(
                f"| {r['spec']} | {_answer(r['auto'])} | {r['auto']['wall']:.1f} | {r['auto']['peak_mib']:.0f} "
                f"| {check} | {_answer(r['alpha_beta'])} | {r['alpha_beta']['wall']:.1f} |"
            )
    else:
        print(
            "| game | value | alpha-beta s (nodes) | proof engine s (nodes) | proof / alpha-beta "
            "| certificate: moves, KiB | checked positions, s |"
        )
        print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
        for r in rows:
            c = r["certificate"]
            cert = "" if c is None else f"{sum(c['stored_moves']):,}, {c['bytes'] / 1024:.1f}"
            checked = "" if c is None else f"{c['checked_positions']:,}, {c['check_seconds']:.2f}"
            if c is not None and not c["valid"]:
                checked += " INVALID"
            print(
                f"| {r['spec']} | {r['value']} | {_cell(r, 'alpha-beta')} | {_cell(r, 'proof')} "
                f"| {'' if r['ratio'] is None else format(r['ratio'], '.2f')} | {cert} | {checked} |"
            )


def _cell(row: dict[str, Any], name: str) -> str:
    wall = row["median_wall"][name]
    if wall is None:
        return f"did not finish in {row['limit']:g} s"
    return f"{wall:.4f} ({row['nodes'][name]:,})"


if __name__ == "__main__":
    main()
