"""How long noughts takes to start: whole processes, measured like hyperfine (repeated runs,
median), beside a bare interpreter and, with ``--against REV``, beside the same commands on
another revision of the source, interleaved run by run.

Each case starts a fresh Python process and waits for it to end: wall time (median and
fastest), CPU time (user + system, median) and the child's peak RSS. The targets of issue 10
are checked: ``noughts --help`` under 0.25 s, ``python -c "import noughts"`` under 0.2 s, and
numba not loaded by ``import noughts`` (the modules each case loads are listed too).

    .venv/bin/python bench/startup.py                      # this tree
    .venv/bin/python bench/startup.py --against 5da522a    # and that commit, interleaved

Figures taken while other work runs on the machine are noisy: say so when recording them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from _common import ROOT, commit, machine

BIN = Path(sys.executable).parent

# (label, argv after the interpreter, target seconds); the CLI runs as its console script does
CLI = "import sys; sys.argv[0] = 'noughts'; from noughts.cli.app import main; sys.exit(main())"
CASES: list[tuple[str, list[str], float | None]] = [
    ("python -c pass (bare start)", ["-c", "pass"], None),
    ('python -c "import noughts"', ["-c", "import noughts"], 0.2),
    ("noughts --help", ["-c", CLI, "--help"], 0.25),
    ("noughts --version", ["-c", CLI, "--version"], None),
    ("noughts games", ["-c", CLI, "games"], None),
    ("noughts show tictactoe", ["-c", CLI, "show", "tictactoe"], None),
    (
        "noughts play tictactoe --x random --o random",
        ["-c", CLI, "play", "tictactoe", "--x", "random", "--o", "random", "--seed", "1"],
        None,
    ),
]

WATCH = ("numpy", "numba", "scipy", "matplotlib", "fastapi", "rich", "rich.console", "rich.markdown")


@dataclass
class Run:
    wall: float
    cpu: float
    rss_kib: int


def run_once(argv: list[str], env: dict[str, str]) -> Run | None:
    """One process, start to end, with its own resource usage (``os.wait4``); None if it fails
    (an older revision may lack a command)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode != 0:
        print(f"{' '.join(argv[-3:])}: exit status {proc.returncode}: {err.strip()[-200:]}", file=sys.stderr)
        return None
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)


def loaded_modules(argv: list[str], env: dict[str, str]) -> list[str]:
    """Which of ``WATCH`` the case has loaded by its end."""
    code = argv[argv.index("-c") + 1]
    probe = (
        "import atexit, sys\n"
        f"atexit.register(lambda: print(' '.join(m for m in {WATCH!r} if m in sys.modules), file=sys.__stderr__))\n"
        + code
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *argv[argv.index("-c") + 2 :]],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stderr.strip().splitlines()[-1].split() if done.stderr.strip() else []


def tree_of(rev: str, into: Path) -> Path:
    """The ``src`` of revision ``rev``, unpacked under ``into``."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", rev, "src"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    path = into / "archive.tar"
    path.write_bytes(archive)
    with tarfile.open(path) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=20, help="runs of each case (median)")
    parser.add_argument("--against", metavar="REV", help="also time the source of this revision, interleaved")
    parser.add_argument("--json", type=Path, help="write the raw results here")
    args = parser.parse_args()

    trees: list[tuple[str, Path]] = [("this tree", ROOT / "src")]
    with tempfile.TemporaryDirectory() as tmp:
        if args.against:
            trees.append((f"at {args.against}", tree_of(args.against, Path(tmp))))
        envs = {
            label: {**os.environ, "PYTHONPATH": str(src), "COLUMNS": "100", "PYTHONDONTWRITEBYTECODE": "1"}
            for label, src in trees
        }
        # compile each tree's bytecode once, so every timed run reads cached bytecode; a case a
        # tree cannot run (an older revision without the command) is left out for that tree
        ok: set[tuple[str, str]] = set()
        for label, src in trees:
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(src)], check=True)
            for case, argv, _ in CASES:
                if run_once([sys.executable, *argv], {**envs[label], "PYTHONDONTWRITEBYTECODE": ""}):
                    ok.add((case, label))
        runs: dict[tuple[str, str], list[Run]] = {key: [] for key in ok}
        for _ in range(args.repeats):  # interleaved: every case and tree once per round
            for case, argv, _ in CASES:
                for label, _ in trees:
                    if (case, label) in ok:
                        run = run_once([sys.executable, *argv], envs[label])
                        if run is None:
                            raise SystemExit(f"{case} failed on {label}")
                        runs[case, label].append(run)
        modules = {
            key: loaded_modules(argv, envs[key[1]]) for case, argv, _ in CASES for key in ok if key[0] == case
        }

    load = os.getloadavg()
    print(f"machine: {machine()}; load average {load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f}")
    print(f"noughts {commit()}; {args.repeats} runs per case, interleaved\n")
    print(
        "| case | source | wall (median) | wall (fastest) | CPU (median) | peak RSS | loads | target | met |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | --- | --- | --- |")
    raw = []
    for case, _, target in CASES:
        for label, _ in trees:
            if (case, label) not in runs:
                print(f"| {case} | {label} | (no such command) | | | | | | |")
                continue
            rs = runs[case, label]
            wall = statistics.median(r.wall for r in rs)
            fastest = min(r.wall for r in rs)
            cpu = statistics.median(r.cpu for r in rs)
            rss = max(r.rss_kib for r in rs) / 1024
            loads = ", ".join(modules[case, label]) or "none of them"
            goal = f"< {target} s" if target else ""
            met = ("yes" if wall < target else "no") if target else ""
            print(
                f"| {case} | {label} | {wall * 1000:.0f} ms | {fastest * 1000:.0f} ms | {cpu * 1000:.0f} ms "
                f"| {rss:.0f} MiB | {loads} | {goal} | {met} |"
            )
            raw.append(
                {
                    "case": case,
                    "source": label,
                    "wall": [r.wall for r in rs],
                    "cpu": [r.cpu for r in rs],
                    "rss_kib": [r.rss_kib for r in rs],
                    "modules": modules[case, label],
                }
            )
    numba = modules['python -c "import noughts"', "this tree"]
    print(
        f"\nimport noughts loads numba: {'yes' if 'numba' in numba else 'no'} (watched: {', '.join(WATCH)})"
    )
    if args.json:
        args.json.write_text(json.dumps({"load": load, "results": raw}, indent=1))


if __name__ == "__main__":
    main()
