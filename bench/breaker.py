"""Breaker proofs with pairing leaves: the k=5 draws, their certificates, and the peers, in one run.

1. Draws and Breaker wins (``noughts prove draw`` / ``prove breaker``): each game proved in a
   process of its own (after a warm-up that loads the compiled kernels), its certificate written
   and checked by the independent checker; beside it, in the same run and interleaved (prover,
   alpha-beta, prover, alpha-beta...), today's ``noughts solve`` (the alpha-beta kernel, under
   the same wall-clock budget). Median seconds of the proof, nodes, the certificate's nodes, the
   check's seconds, peak resident memory of the process. The published anchor for mnk(7,7,5) is
   Hsu, Ko, Chen, Wei, Hsueh and Wu, TCS 815 (2020): a draw in 2.5 s (their machine).
2. The df-pn kernel against the plain reference (:mod:`noughts.breaker.reference`) on
   the small games both can search, interleaved; the two must give the same answer.

3. ``--solve``: ``noughts solve SPEC --value-only`` as users get it now (the solve policy of
   :mod:`noughts.solving`, with the Breaker row) beside the policy before it (the exact engines
   only, :func:`noughts.exact.api.solve`), interleaved, each in a process of its own: the
   value's seconds inside the process once the kernels are loaded (wall and CPU), and the
   whole command's wall and CPU seconds (start, imports, kernel loading and the answer). The
   games of ``bench/solve_targets.py`` that the policy still gives to the exact engines are
   rows too (the same engine must answer, as fast).

Run it as ``.venv/bin/python bench/breaker.py`` (``--quick``: one repetition, no mnk(8,8,5));
``--attempt SPEC --seconds S`` adds a row with a longer budget (mnk(8,8,5): published 17.4 h);
``--caps`` compares the step caps of the pairing searches and the 1 + epsilon of Maker's nodes
on mnk(7,7,5) instead.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _common import commit, machine, peak_rss_mib, run_worker, versions  # bench/ is sys.path[0]

SOLVE_GAMES = [
    "mnk(5,5,5)",
    "mnk(6,6,5)",
    "maker_breaker(mnk(6,6,5))",
    "mnk(7,7,5)",
    "mnk(4,4,4)",
    "hypercube(3,3)",
    "mnk(5,5,4)",
    "mnk(7,6,4)",
]
"""``--solve``: the k=5 boards the Breaker row takes, then games of ``bench/solve_targets.py``
that it leaves to the exact engines."""

DRAWS = ["mnk(5,5,5)", "mnk(6,6,5)", "maker_breaker(mnk(6,6,5))", "mnk(7,7,5)"]
SMALL = ["mnk(3,3,3)", "maker_breaker(mnk(3,3,3))", "maker_breaker(mnk(4,4,4))", "mnk(4,3,3)"]


# -- rows, each run in a process of its own ------------------------------------------------------


def prover_row(spec: str, seconds: float) -> dict[str, Any]:
    from noughts.breaker.certificate import check_breaker_certificate
    from noughts.breaker.prover import prove_breaker
    from noughts.core import Budget, LimitExceeded

    prove_breaker("mnk(3,3,3)")  # loads the compiled kernels
    with tempfile.TemporaryDirectory() as folder:
        cert = str(Path(folder) / "cert")
        started = time.perf_counter()
        try:
            result = prove_breaker(
                spec, certificate=cert, budget=Budget(max_seconds=seconds, max_memory=8 << 30)
            )
        except LimitExceeded as error:
            return {
                "status": "budget",
                "seconds": time.perf_counter() - started,
                "reason": str(error),
                "peak_mib": peak_rss_mib(),
            }
        took = time.perf_counter() - started
        out: dict[str, Any] = {
            "status": "ok",
            "proved": result.proved,
            "value": result.value,
            "seconds": took,
            "nodes": result.nodes,
            "paired": result.paired,
            "pairings": result.pairings,
            "covered": result.covered,
        }
        if result.proved and result.certificate:
            check = check_breaker_certificate(result.certificate)
            out.update(
                valid=check.valid,
                cert_nodes=check.nodes,
                checked=check.checked,
                check_seconds=check.seconds,
                cert_bytes=sum(p.stat().st_size for p in Path(folder).iterdir()),
            )
    out["peak_mib"] = peak_rss_mib()
    return out


def alphabeta_row(spec: str, seconds: float) -> dict[str, Any]:
    from noughts.core import LimitExceeded
    from noughts.exact import solve

    solve("mnk(3,3,3)")  # loads the compiled kernels
    started = time.perf_counter()
    try:
        result = solve(spec, max_seconds=seconds)
    except LimitExceeded:
        return {"status": "budget", "seconds": time.perf_counter() - started, "peak_mib": peak_rss_mib()}
    return {
        "status": "ok",
        "value": result.value.outcome.value,
        "seconds": time.perf_counter() - started,
        "peak_mib": peak_rss_mib(),
    }


def reference_row(spec: str, seconds: float) -> dict[str, Any]:
    import noughts
    from noughts.breaker.question import question
    from noughts.breaker.reference import reference_prove

    q = question(noughts.game(spec))
    started = time.perf_counter()
    proof = reference_prove(q, max_nodes=2_000_000)
    return {
        "status": "ok",
        "proved": proof.proved,
        "seconds": time.perf_counter() - started,
        "nodes": proof.nodes,
    }


def caps_row(spec: str, seconds: float) -> dict[str, Any]:
    """The prover at each step cap per pairing search, interleaved, in this process."""
    from noughts.breaker.prover import BreakerProver, prove_breaker
    from noughts.breaker.question import question
    from noughts.core import Budget
    from noughts.core.registry import hypergraph

    prove_breaker("mnk(3,3,3)")
    game = hypergraph(spec)
    out: dict[str, Any] = {"status": "ok"}
    for _ in range(3):
        for cap, eps in CAPS:
            prover = BreakerProver(
                question(game),
                record=False,
                step_cap=cap,
                and_epsilon=eps,
                budget=Budget(max_seconds=seconds),
            )
            started = time.perf_counter()
            prover.run()
            took = time.perf_counter() - started
            K, s = prover.K, prover.stats
            entry = out.setdefault(f"{cap} {eps[0]}/{eps[1]}", {"seconds": []})
            entry["seconds"].append(took)
            entry.update(nodes=int(s[K.S_NODES]), steps=int(s[K.S_STEPS]), capped=int(s[K.S_CAPPED]))
    return out


def _solve_row(spec: str, seconds: float, policy: str) -> dict[str, Any]:
    import noughts
    from noughts.breaker.prover import prove_breaker
    from noughts.core import LimitExceeded
    from noughts.solving import solve as policy_solve

    def exact_solve(*args: Any, **options: Any) -> Any:  # the engines below the Breaker row
        return policy_solve(*args, engine="alpha-beta", **options)

    exact_solve("mnk(4,4,4)", value_only=True)  # loads the compiled kernels of both
    prove_breaker("mnk(3,3,3)")
    run = policy_solve if policy == "now" else exact_solve
    game = noughts.game(spec)
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        result = run(game, value_only=True, max_seconds=seconds)
    except LimitExceeded:
        return {"status": "budget", "seconds": time.perf_counter() - wall, "peak_mib": peak_rss_mib()}
    return {
        "status": "ok",
        "value": result.value.outcome.value,
        "engine": result.engine,
        "seconds": time.perf_counter() - wall,
        "cpu": time.process_time() - cpu,
        "peak_mib": peak_rss_mib(),
    }


def solve_now_row(spec: str, seconds: float) -> dict[str, Any]:
    """``noughts.solving.solve`` (the policy with the Breaker row), value only, kernels loaded."""
    return _solve_row(spec, seconds, "now")


def solve_before_row(spec: str, seconds: float) -> dict[str, Any]:
    """``noughts.exact.api.solve`` (the exact engines' policy, as ``solve`` was before)."""
    return _solve_row(spec, seconds, "before")


def command_row(spec: str, seconds: float) -> dict[str, Any]:
    """The whole ``noughts solve SPEC --value-only --json`` command: wall and CPU seconds."""
    import resource
    import subprocess

    exe = str(Path(sys.executable).with_name("noughts"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    done = subprocess.run(
        [exe, "solve", spec, "--value-only", "--json", "--max-seconds", str(seconds)],
        capture_output=True,
        text=True,
        check=False,
    )
    took = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        return {"status": "budget" if done.returncode == 3 else "error", "seconds": took, "cpu": cpu}
    doc = json.loads(done.stdout.strip().splitlines()[-1])
    return {
        "status": "ok",
        "value": doc["value"],
        "engine": doc["engine"],
        "seconds": took,
        "cpu": cpu,
        "peak_mib": after.ru_maxrss / 1024,
    }


CAPS = ((1000, (30, 1)), (200, (30, 1)), (200, (5, 4)))
"""(step cap per pairing search, 1 + epsilon at Maker's nodes): the settings compared."""
ROWS = {
    "prover": prover_row,
    "alphabeta": alphabeta_row,
    "reference": reference_row,
    "caps": caps_row,
    "solve-now": solve_now_row,
    "solve-before": solve_before_row,
    "command": command_row,
}


def row(kind: str, spec: str, seconds: float) -> dict[str, Any]:
    return run_worker(
        [sys.executable, __file__, "--row", kind, spec, "--seconds", str(seconds)], seconds + 120
    )


# -- tables ---------------------------------------------------------------------------------------


def _median(values: list[float]) -> str:
    return f"{statistics.median(values):,.2f} s" if values else "-"


def draws_table(
    specs: list[str], repeats: int, seconds: float, peer_seconds: float
) -> tuple[list[str], list[Any]]:
    lines = [
        "| game | answer | proof (median) | nodes | pairings found | certificate nodes (checked) | check | "
        "peak RSS | `noughts solve` (alpha-beta) |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    raw = []
    for spec in specs:
        provers, peers = [], []
        for _ in range(repeats):  # interleaved: A, B, A, B
            provers.append(row("prover", spec, seconds))
            peers.append(row("alphabeta", spec, peer_seconds))
        raw.append({"spec": spec, "prover": provers, "alphabeta": peers})
        ok = [p for p in provers if p.get("status") == "ok"]
        if ok:
            p = ok[-1]
            answer = ("draw" if p["value"] == "draw" else "Breaker wins") if p["proved"] else "Maker wins"
            cert = (
                f"{p['cert_nodes']:,} ({p['checked']:,}), {'valid' if p['valid'] else 'INVALID'}"
                if "valid" in p
                else "-"
            )
            check = f"{p['check_seconds']:.2f} s" if "check_seconds" in p else "-"
            cells = [
                answer,
                _median([x["seconds"] for x in ok]),
                f"{p['nodes']:,}",
                f"{p['paired']:,}",
                cert,
                check,
            ]
        else:
            p = provers[-1]
            how = p.get("reason", "")[:120]
            cells = [f"not settled in {seconds:.0f} s", "-", how or "-", "-", "-", "-"]
        peak = max((x.get("peak_mib") or 0) for x in provers)
        done = [x for x in peers if x.get("status") == "ok"]
        if done:
            peer = f"{done[-1]['value']} in {_median([x['seconds'] for x in done])}"
        else:
            peer = f"no value in {peer_seconds:.0f} s ({peers[-1].get('reason', 'budget')})"
        lines.append(f"| `{spec}` | " + " | ".join(cells) + f" | {peak:,.0f} MiB | {peer} |")
    return lines, raw


def reference_table(repeats: int) -> tuple[list[str], list[Any]]:
    lines = [
        "| game | answer | df-pn kernel (median) | plain reference (median) | reference / kernel |",
        "| --- | --- | ---: | ---: | ---: |",
    ]
    raw = []
    for spec in SMALL:
        kernel, ref = [], []
        for _ in range(repeats):
            kernel.append(row("prover", spec, 120))
            ref.append(row("reference", spec, 120))
        raw.append({"spec": spec, "kernel": kernel, "reference": ref})
        assert all(k["proved"] == r["proved"] for k, r in zip(kernel, ref, strict=True)), spec
        kt = statistics.median(k["seconds"] for k in kernel)
        rt = statistics.median(r["seconds"] for r in ref)
        answer = "Breaker wins" if kernel[0]["proved"] else "Maker wins"
        lines.append(f"| `{spec}` | {answer} | {kt * 1e3:,.1f} ms | {rt * 1e3:,.1f} ms | {rt / kt:,.1f}x |")
    return lines, raw


def caps_table(spec: str) -> tuple[list[str], Any]:
    lines = [
        f"| step cap per pairing search (`{spec}`) | 1 + epsilon at Maker's nodes | nodes | augmenting paths | "
        "searches capped | proof (median of 3) |",
        "| ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    out = row("caps", spec, 300)
    for cap, (num, den) in CAPS:
        e = out[f"{cap} {num}/{den}"]
        lines.append(
            f"| {cap:,} | {num}/{den} | {e['nodes']:,} | {e['steps']:,} | {e['capped']:,} | {_median(e['seconds'])} |"
        )
    return lines, out


def _answer(entry: dict[str, Any]) -> str:
    if entry.get("status") != "ok":
        return f"no value ({entry.get('status')})"
    return f"{entry['value']} ({entry['engine']})"


def solve_table(specs: list[str], repeats: int, seconds: float) -> tuple[list[str], list[Any]]:
    lines = [
        "| game | `solve` now: value (engine) | in process, wall (median) | CPU | whole command, wall | "
        "CPU | before: value (engine) | in process, wall | CPU | before / now (in process, CPU) |",
        "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |",
    ]
    raw = []
    for spec in specs:
        now, before, command = [], [], []
        for _ in range(repeats):  # interleaved: now, before, the command, now, before, ...
            now.append(row("solve-now", spec, seconds))
            before.append(row("solve-before", spec, seconds))
            command.append(row("command", spec, seconds))
        raw.append({"spec": spec, "now": now, "before": before, "command": command})

        def med(rows: list[dict[str, Any]], key: str) -> float | None:
            got = [r[key] for r in rows if r.get("status") == "ok" and key in r]
            return statistics.median(got) if got else None

        def sec(x: float | None) -> str:
            return "-" if x is None else f"{x:,.2f} s"

        n_cpu, b_cpu = med(now, "cpu"), med(before, "cpu")
        ratio = "-" if n_cpu is None or b_cpu is None else f"{b_cpu / n_cpu:,.1f}x"
        if n_cpu is not None and b_cpu is not None and max(n_cpu, b_cpu) < 0.05:
            ratio = "both under 0.05 s"
        if n_cpu is not None and b_cpu is None:
            ratio = f"before: no value in {seconds:.0f} s"
        lines.append(
            f"| `{spec}` | {_answer(now[-1])} | {sec(med(now, 'seconds'))} | {sec(n_cpu)} | "
            f"{sec(med(command, 'seconds'))} | {sec(med(command, 'cpu'))} | {_answer(before[-1])} | "
            f"{sec(med(before, 'seconds'))} | {sec(b_cpu)} | {ratio} |"
        )
    return lines, raw


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one repetition")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=120.0, help="the prover's budget per game")
    parser.add_argument("--peer-seconds", type=float, default=60.0, help="alpha-beta's budget per game")
    parser.add_argument(
        "--attempt", action="append", default=[], metavar="SPEC", help="one more game (e.g. mnk(8,8,5))"
    )
    parser.add_argument("--caps", action="store_true", help="only the step caps on mnk(7,7,5)")
    parser.add_argument(
        "--solve", action="store_true", help="only noughts solve now against the policy before it"
    )
    parser.add_argument("--raw", type=Path, help="write the raw rows as JSON here")
    parser.add_argument("--row", nargs=2, metavar=("KIND", "SPEC"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.row:
        kind, spec = args.row
        print(json.dumps(ROWS[kind](spec, args.seconds)))
        return
    repeats = 1 if args.quick else args.repeats
    if args.caps:
        print(f"Date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC. Machine: {machine()}.")
        print(f"noughts commit {commit()}.\n")
        print("\n".join(caps_table("mnk(7,7,5)")[0]))
        return
    if args.solve:
        print(f"Date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC. Machine: {machine()}.")
        print(
            f"noughts commit {commit()}; {versions(('numpy', 'numba', 'scipy'))}. Medians of {repeats} runs.\n"
        )
        table, raw_solve = solve_table(SOLVE_GAMES + args.attempt, repeats, args.peer_seconds)
        print("\n".join(table))
        if args.raw:
            args.raw.parent.mkdir(parents=True, exist_ok=True)
            args.raw.write_text(json.dumps({"solve": raw_solve}, indent=1))
        return
    print(f"Date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC. Machine: {machine()}.")
    print(f"noughts commit {commit()}; {versions(('numpy', 'numba', 'scipy'))}. Medians of {repeats} runs.\n")
    table, raw_draws = draws_table(DRAWS, repeats, args.seconds, args.peer_seconds)
    print("\n".join(table))
    if args.attempt:
        table, raw_more = draws_table(args.attempt, 1, args.seconds, args.peer_seconds)
        print("\n".join(table[2:]))
        raw_draws += raw_more
    print()
    table, raw_ref = reference_table(repeats)
    print("\n".join(table))
    if args.raw:
        args.raw.parent.mkdir(parents=True, exist_ok=True)
        args.raw.write_text(json.dumps({"draws": raw_draws, "reference": raw_ref}, indent=1))


if __name__ == "__main__":
    main()
