"""misère(mnk(5,5,4)) within 10 minutes (issue 12): ``noughts solve`` as a user runs it.

Each row runs ``noughts solve SPEC --value-only --max-seconds S --json`` (the automatic engine,
and ``--engine alpha-beta``) in a process of its own, and reports its exit status, value,
engine, nodes, wall and CPU seconds and peak memory. ``--before SRC`` (the ``src`` folder of
another checkout, e.g. ``git archive 6f252bd src | tar -x -C /tmp/before``) runs each command
under that tree too, interleaved (this tree, that tree), with ``--before-seconds`` as its
budget (the tree before this work did not answer in 600 s; BENCHMARKS.md). ``--sub`` adds the
two null-window questions the kernel asks of the start, each timed on its own in process:
"does the first player win?" and "does it lose?".

Run: ``.venv/bin/python bench/misere.py [--before /tmp/before/src] [--json PATH]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _common import finish

SPEC = "misere(mnk(5,5,4))"
NOUGHTS = Path(sys.executable).with_name("noughts")
_CLI = "import sys; from noughts.cli.app import main; sys.argv[0] = 'noughts'; sys.exit(main())"


def run(args: list[str], src: Path | None) -> dict[str, Any]:
    """One command in a child process: exit status, its JSON (or last line), wall, CPU, peak RSS
    (this child's, from ``wait4``)."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    argv = [sys.executable, "-c", _CLI, *args] if src is not None else [str(NOUGHTS), *args]
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t = time.perf_counter()
        child = subprocess.Popen(argv, stdout=out, stderr=err, text=True, cwd="/tmp", env=env)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - t
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    row: dict[str, Any] = {
        "command": "noughts " + " ".join(args),
        "tree": "this tree" if src is None else str(src),
        "exit": child.returncode,
        "wall_s": round(wall, 1),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 1),
        "peak_mib": round(usage.ru_maxrss / 1024),
    }
    try:
        answer = json.loads(stdout)
        row.update({k: answer.get(k) for k in ("value", "plies", "engine", "nodes")})
    except json.JSONDecodeError:
        pass
    if child.returncode != 0:
        row["said"] = (stderr.strip().splitlines() or [""])[-1][:300]
    return row


def sub_questions(tt_bytes: int | None) -> list[dict[str, Any]]:
    """The kernel's two null-window searches of the start, each on a fresh solver (with a table
    of ``tt_bytes``, default :func:`noughts.exact.fast.default_tt_bytes`)."""
    import noughts
    from noughts.core import Player
    from noughts.exact.fast import FastSolver

    game = noughts.game(SPEC)
    rows = []
    for gamma, question in ((1, "does the first player win?"), (0, "does the first player avoid losing?")):
        solver = FastSolver(game, tt_bytes=tt_bytes)
        start = game.start()
        solver._set_root(start.owned(Player.FIRST), start.owned(Player.SECOND), 0, game.board.num_cells)
        t, c = time.perf_counter(), time.process_time()
        r = solver._test(gamma)
        rows.append(
            {
                "question": question,
                "table_mib": round(solver.tt_bytes / 2**20),
                "answer": "yes" if r >= gamma else "no",
                "nodes": solver.nodes,
                "wall_s": round(time.perf_counter() - t, 1),
                "cpu_s": round(time.process_time() - c, 1),
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--before", type=Path, help="a src folder to run interleaved")
    parser.add_argument("--before-seconds", type=float, default=120)
    parser.add_argument("--sub", action="store_true", help="time the two null-window questions too")
    parser.add_argument("--engines", nargs="*", default=["auto", "alpha-beta"], help="none: --sub alone")
    parser.add_argument("--tt-mib", type=int, help="with --sub: the solver's table (MiB)")
    args = parser.parse_args()
    load = os.getloadavg()
    rows = []
    for engine in args.engines:
        trees: list[tuple[Path | None, float]] = [(None, args.seconds)]
        if args.before is not None:
            trees.append((args.before, args.before_seconds))
        for src, seconds in trees:
            cmd = ["solve", SPEC, "--value-only", "--max-seconds", f"{seconds:g}", "--json"]
            if engine != "auto":
                cmd[3:3] = ["--engine", engine]
            rows.append(run(cmd, src))
            print(json.dumps(rows[-1]), flush=True)
    doc: dict[str, Any] = {"rows": rows}
    if args.sub:
        doc["sub_questions"] = sub_questions(None if args.tt_mib is None else args.tt_mib << 20)
    return finish(doc, load, args.json)


if __name__ == "__main__":
    sys.exit(main())
