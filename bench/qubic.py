"""Qubic (``hypercube(4,3)``) proved by the proof engine from positions along a strong line,
deeper first (issue 12's headline target, worked towards in steps).

The line is computed, not typed: from the empty board, each move is the one the engine agent's
fixed-depth search picks (``EngineAgent().search_depth(position, --line-depth)``: no clock, so
the same line on every machine). For each number of plies in ``--plies`` (deepest first), the
position after that many moves of the line is proved a first-player win by
``ProofSearch(game, FIRST, WIN)`` under a budget of ``--limit`` CPU seconds, in a child process of its
own (a fresh table; the peak resident memory is the child's). With ``--compare`` each position
is proved twice, interleaved: the table keyed by Qubic's 192 line automorphisms (the default)
and by the cube's 48 symmetries only (as before). With ``--certificate`` a proved position's
winning strategy is written as a certificate and checked by the independent checker
(``noughts.solving.check_certificate``): its stored moves (the first player's
positions where a move is recorded: the figure to set beside Patashnik's 2,929 strategic moves)
and the positions the checker walked.

``--options eager=3`` (any of ``ProofSearch``'s integer options) runs every proof with them;
``--against tss_memo=0`` proves each position a second time, interleaved, with those options
changed (the previous engine beside the new one). Each row reports what the search did
(``ProofSearch.statistics``: the threat searches, the positions they looked at, how many their
node limit stopped).
``--split N`` proves each position with :func:`noughts.exact.split.prove_split` instead: the
mover's first move (most lines first, up to Qubic's 192 automorphisms), then the defender's
replies up to the same automorphisms as jobs over N worker processes; ``--limit`` is then the
wall-clock budget of the whole, and each row gives the jobs' CPU seconds summed, the wall
seconds, the jobs proved, and (with ``--certificate``) the joined certificate checked.
Run it as ``python bench/qubic.py --plies 10 8 6 --limit 300 --compare --certificate``.
Writes ``bench/results/qubic.json`` and prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from _common import ROOT, command_line, commit, machine, peak_rss_mib, run_worker, versions

DEFAULT_JSON = ROOT / "bench" / "results" / "qubic.json"
SPEC = "hypercube(4,3)"


def strong_line(plies: int, depth: int, spec: str = SPEC) -> list[int]:
    """The first ``plies`` moves of the engine's fixed-depth self-play from the start."""
    import noughts
    from noughts.agents.engine import EngineAgent

    game = noughts.game(spec)
    agent = EngineAgent()
    position = game.start()
    moves: list[int] = []
    for _ in range(plies):
        move, _score = agent.search_depth(position, depth)
        moves.append(int(move))  # type: ignore[arg-type]
        position = position.play(move)
    return moves


def child(
    spec: str,
    moves: list[int],
    limit: float,
    automorphisms: bool,
    certificate: bool,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Prove the position after ``moves`` (in this process); what it found."""
    import resource
    import tempfile

    import noughts
    from noughts.core import LimitExceeded, Player
    from noughts.core.budget import Budget
    from noughts.proving.proof import WIN, ProofSearch

    game = noughts.game(spec)
    position = game.start()
    for m in moves:
        position = position.play(m)
    # load the compiled kernels before the clock starts (a proof of a finished-soon position)
    ProofSearch(noughts.game("hypercube(3,3)"), Player.FIRST, WIN).prove(
        noughts.game("hypercube(3,3)").start()
    )
    # the budget is CPU time: on a machine shared with other work the wall time says more of
    # the load than of the search (both are reported)
    budget = Budget(max_seconds=None, max_cpu_seconds=limit)
    search = ProofSearch(game, Player.FIRST, WIN, budget, automorphisms=automorphisms, **(options or {}))
    out: dict[str, Any] = {"symmetries": len(search._perms)}
    cpu0 = time.process_time()
    t0 = time.perf_counter()
    try:
        proof = search.prove(position)
    except LimitExceeded as exc:
        out.update(status="budget", reason=str(exc), nodes=search.nodes)
    else:
        out.update(
            status="proved" if proof.proved else "disproved",
            nodes=proof.nodes,
            move=None if proof.move is None else game.format_move(proof.move),
            threat_settled=proof.threat_settled,
            replay_settled=proof.replay_settled,
        )
    out["statistics"] = search.statistics()
    out["seconds"] = time.perf_counter() - t0
    out["cpu_seconds"] = time.process_time() - cpu0
    out["table_entries"] = search.table_entries
    out["table_mib"] = search.table_bytes / 2**20
    if certificate and out["status"] == "proved":
        from noughts.proving.strategy import extract_strategy, write_strategies
        from noughts.solving import check_certificate

        t1 = time.perf_counter()
        strategy = extract_strategy(search, proof, Budget(max_seconds=None, max_cpu_seconds=limit))
        with tempfile.TemporaryDirectory() as tmp:
            header = write_strategies(Path(tmp) / "qubic", [strategy], "first", {"engine": "proof"})
            out["certificate_seconds"] = time.perf_counter() - t1
            out["stored_moves"] = sum(header["stored_moves"])
            out["strategy_positions"] = strategy.positions
            report = check_certificate(Path(tmp) / "qubic.json")
            out["check"] = {
                "valid": report.valid,
                "checked": report.checked,
                "seconds": report.seconds,
                "first_failure": report.first_failure,
            }
    out["peak_mib"] = peak_rss_mib()
    out["max_rss_children"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    return out


def split_child(
    spec: str, moves: list[int], limit: float, workers: int, certificate: bool, options: dict[str, Any] | None
) -> dict[str, Any]:
    """Prove the position after ``moves`` split over ``workers`` processes (see the docstring)."""
    import resource
    import tempfile

    import noughts
    from noughts.core import LimitExceeded
    from noughts.exact.split import prove_split

    game = noughts.game(spec)
    position = game.start()
    for m in moves:
        position = position.play(m)
    jobs: list[dict[str, Any]] = []

    def on_job(move: Any, r: Any) -> None:
        row = {
            "first": game.format_move(move),
            "reply": r.text,
            "proved": r.proved,
            "nodes": r.nodes,
            "cpu_seconds": round(r.cpu_seconds, 2),
            "seconds": round(r.seconds, 2),
            "stopped": r.stopped,
        }
        jobs.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)

    out: dict[str, Any] = {"workers": workers}
    cpu0 = time.process_time()
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            r = prove_split(
                game,
                position,
                workers=workers,
                max_seconds=limit,
                max_memory=8 * 2**30,
                certificate=Path(tmp) / "qubic" if certificate else None,
                options=options,
                on_job=on_job,
            )
        except LimitExceeded as exc:
            out.update(status="budget", reason=str(exc))
        else:
            out.update(
                status="proved" if r.proved else "disproved",
                move=None if r.move is None else game.format_move(r.move),
            )
            if r.certificate is not None:
                from noughts.solving import check_certificate

                out["stored_moves"] = sum(r.certificate["stored_moves"])
                report = check_certificate(r.certificate["file"])
                out["check"] = {
                    "valid": report.valid,
                    "checked": report.checked,
                    "seconds": report.seconds,
                    "first_failure": report.first_failure,
                }
    out["seconds"] = time.perf_counter() - t0
    out["cpu_seconds"] = time.process_time() - cpu0 + sum(j["cpu_seconds"] for j in jobs)
    out["nodes"] = sum(j["nodes"] for j in jobs)
    out["jobs"] = jobs
    out["jobs_proved"] = sum(1 for j in jobs if j["proved"])
    out["peak_mib"] = max(peak_rss_mib() or 0, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, nargs="+", default=[10, 8, 6])
    parser.add_argument("--limit", type=float, default=120.0, help="each proof's budget (CPU seconds)")
    parser.add_argument("--line-depth", type=int, default=5, help="the engine's search depth for the line")
    parser.add_argument("--compare", action="store_true", help="also key the table by the 48 symmetries only")
    parser.add_argument("--certificate", action="store_true", help="write and check each proof's certificate")
    parser.add_argument(
        "--options",
        nargs="*",
        default=[],
        metavar="NAME=INT",
        help="ProofSearch options for every proof (eager=3, tss_nodes=1000, sym_stones=20, ...)",
    )
    parser.add_argument(
        "--against",
        nargs="*",
        default=[],
        metavar="NAME=INT",
        help="also prove each position with these options changed, interleaved (tss_memo=0: the previous engine)",
    )
    parser.add_argument("--spec", default=SPEC)
    parser.add_argument(
        "--split",
        type=int,
        metavar="WORKERS",
        help="prove by prove_split over this many processes (--limit: wall s)",
    )
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        job = json.loads(args.child)
        if job.get("split"):
            print(
                json.dumps(
                    split_child(
                        args.spec,
                        job["moves"],
                        job["limit"],
                        job["split"],
                        job["certificate"],
                        job.get("options"),
                    )
                )
            )
            return
        found = child(
            args.spec,
            job["moves"],
            job["limit"],
            job["automorphisms"],
            job["certificate"],
            job.get("options"),
        )
        print(json.dumps(found))
        return
    import noughts

    game = noughts.game(args.spec)
    t0 = time.perf_counter()
    line = strong_line(max(args.plies), args.line_depth, args.spec)
    position = game.start()
    names = []
    for m in line:
        names.append(game.format_move(m))
        position = position.play(m)
    print(f"the line ({time.perf_counter() - t0:.1f} s): {' '.join(names)}", flush=True)
    options: dict[str, Any] = {}
    for item in args.options:
        name, _, value = item.partition("=")
        options[name] = int(value)
    against = dict(options)
    for item in args.against:
        name, _, value = item.partition("=")
        against[name] = int(value)
    rows = []
    configs: list[tuple[bool, dict[str, Any], bool]] = [(True, options, args.certificate)]
    if args.compare:
        configs.append((False, options, False))
    if args.against:
        configs.append((True, against, False))
    for plies in sorted(args.plies, reverse=True):
        for automorphisms, opts, certify in configs:
            job = {
                "moves": line[:plies],
                "limit": args.limit,
                "automorphisms": automorphisms,
                "certificate": certify,
                "options": opts,
                "split": args.split,
            }
            command = [sys.executable, __file__, "--spec", args.spec, "--child", json.dumps(job)]
            result = run_worker(command, args.limit * 10 + 300)
            result.update(
                plies=plies, line=" ".join(names[:plies]), automorphisms=automorphisms, options=opts
            )
            rows.append(result)
            print(json.dumps(result), flush=True)
    doc = {
        "command": command_line("bench/qubic.py", None),
        "machine": machine(),
        "versions": versions(("numba", "numpy")),
        "commit": commit(),
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "line": names,
        "rows": rows,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(doc, indent=1))
    print()
    print(
        "| plies | keyed by | options | answer | nodes | threat searches (positions, stopped) "
        "| seconds (wall / CPU) | peak MiB | certificate |"
    )
    print("| ---: | ---: | --- | --- | ---: | --- | ---: | ---: | --- |")
    for r in rows:
        cert = ""
        if "check" in r:
            c = r["check"]
            cert = (
                f"{r['stored_moves']:,} stored moves, {'valid' if c['valid'] else 'INVALID'} "
                f"({c['checked']:,} positions checked in {c['seconds']:.1f} s)"
            )
        answer = r.get("status", "?")
        if answer == "proved":
            answer = f"first wins ({r.get('move')})"
        elif answer == "error":
            answer = f"error: {r.get('reason')}"
        st = r.get("statistics") or {}
        threats = (
            f"{st['threat_searches']:,} ({st['threat_nodes']:,}, {st['threat_cutoffs']:,})" if st else ""
        )
        shown = " ".join(f"{k}={v}" for k, v in sorted(r.get("options", {}).items())) or "default"
        print(
            f"| {r['plies']} | {r.get('symmetries', '?')} | {shown} | {answer} | {r.get('nodes', 0):,} | {threats} | "
            f"{r.get('seconds', 0):.1f} / {r.get('cpu_seconds', 0):.1f} | {r.get('peak_mib') or 0:.0f} | {cert} |"
        )


if __name__ == "__main__":
    main()
