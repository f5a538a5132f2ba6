"""Certificates of misère draws (issue 12): writing and checking them, as a user runs it.

For each game, interleaved with the peer (the proof engine's certificate of the same game,
``--engine proof``, where it finishes within ``--peer-seconds``), each command in a process of
its own: ``noughts solve SPEC --value-only --certificate DIR/c --json`` (the automatic choice:
the alpha-beta kernel's value, the draw written as strategies ending at leaves), then
``noughts solve check DIR/c.json --json``. Each row reports exit status, wall and CPU seconds
and peak memory (the child's, from ``wait4``), the stored moves, the leaves by kind, the
positions the checker played out, and the files' size.

Run: ``.venv/bin/python bench/misere_certificate.py [--games SPEC ...] [--big] [--json PATH]``
(``--big`` adds misère(mnk(5,5,4)), which takes minutes). ``--walks SPEC`` instead times the
first player's defence walk of SPEC in this process, the numba kernel against its Python
reference (``defence_strategy(..., kernel=False)``), interleaved, on one warm alpha-beta solver.
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

NOUGHTS = Path(sys.executable).with_name("noughts")
GAMES = ["misere(tictactoe)", "misere(mnk(4,4,4))", "misere(mnk(4,5,4))"]
BIG = "misere(mnk(5,5,4))"


def run(args: list[str], timeout: float) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """One command in a child process: its row (exit, wall, CPU, peak) and its JSON answer."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t = time.perf_counter()
        child = subprocess.Popen(
            ["timeout", str(int(timeout)), str(NOUGHTS), *args], stdout=out, stderr=err, text=True
        )
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - t
        code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    row: dict[str, Any] = {
        "command": "noughts " + " ".join(args),
        "exit": code,
        "wall_s": round(wall, 1),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 1),
        "peak_mib": round(usage.ru_maxrss / 1024),
    }
    try:
        answer = json.loads(stdout)
    except json.JSONDecodeError:
        answer = None
    if code != 0:
        row["said"] = (stderr.strip().splitlines() or [""])[-1][:300]
    return row, answer


def certify(spec: str, engine: str | None, seconds: float, folder: Path) -> dict[str, Any]:
    stem = folder / "c"
    args = [
        "solve",
        spec,
        "--value-only",
        "--certificate",
        str(stem),
        "--json",
        "--max-seconds",
        str(seconds),
    ]
    if engine is not None:
        args += ["--engine", engine]
    write, answer = run(args, seconds + 60)
    row: dict[str, Any] = {"game": spec, "engine": engine or "auto", "write": write}
    if answer is not None:
        row["value"] = answer.get("value")
        cert = answer.get("certificate") or {}
        row["stored_moves"] = cert.get("stored_moves")
    if write["exit"] == 0:
        json_path = folder / "c.json"
        header = json.loads(json_path.read_text())
        row["leaves"] = header.get("leaves")
        row["file_bytes"] = json_path.stat().st_size + (folder / "c.npz").stat().st_size
        check, report = run(["solve", "check", str(json_path), "--json"], seconds + 60)
        row["check"] = check
        if report is not None:
            row["valid"] = report.get("valid")
            row["checked"] = report.get("checked")
            row["leaves_by_kind"] = report.get("leaves")
    return row


def walks(spec: str, repeats: int) -> list[dict[str, Any]]:
    """The defence walk, Python then numba, ``repeats`` times, on one warm solver."""
    import noughts
    from noughts.core import Player
    from noughts.exact.fast import FastSolver
    from noughts.exact.misere_strategy import defence_strategy

    game = noughts.game(spec)
    solver = FastSolver(game)
    solver.value(game.start())
    defence_strategy(game.start(), Player.FIRST, solver=solver)  # compiled, the table warm
    rows = []
    for _ in range(repeats):
        for kernel in (False, True):
            t = time.perf_counter()
            c = time.process_time()
            s = defence_strategy(game.start(), Player.FIRST, solver=solver, kernel=kernel)
            rows.append(
                {
                    "game": spec,
                    "walk": "numba" if kernel else "python",
                    "wall_s": round(time.perf_counter() - t, 2),
                    "cpu_s": round(time.process_time() - c, 2),
                    "positions": s.positions,
                    "stored_moves": len(s.moves),
                }
            )
            print(json.dumps(rows[-1]), flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=GAMES)
    parser.add_argument("--big", action="store_true", help=f"add {BIG} (minutes)")
    parser.add_argument("--seconds", type=float, default=1800.0, help="budget of each of ours")
    parser.add_argument("--peer-seconds", type=float, default=120.0, help="budget of each of the peer's")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--walks", metavar="SPEC", help="time the defence walk, numba against Python")
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args(argv)
    load = os.getloadavg()
    if args.walks:
        return finish({"walks": walks(args.walks, args.repeats)}, load, args.json)
    games = list(args.games) + ([BIG] if args.big else [])
    rows = []
    for spec in games:
        for engine, seconds in ((None, args.seconds), ("proof", args.peer_seconds)):
            with tempfile.TemporaryDirectory() as folder:
                row = certify(spec, engine, seconds, Path(folder))
            rows.append(row)
            print(json.dumps(row), flush=True)
    return finish({"rows": rows}, load, args.json)


if __name__ == "__main__":
    sys.exit(main())
