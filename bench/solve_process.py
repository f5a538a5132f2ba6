"""Whole ``noughts solve`` processes, timed as a user runs them: the value-only answers of
issue 12 (target: under 1 s), the proof engine's certificates (this tree beside another
revision), and the split solve (``--workers N``) beside the single process, interleaved case by
case (A, B, A, B...).

    .venv/bin/python bench/solve_process.py value-only --repeats 10
    .venv/bin/python bench/solve_process.py certificates --against 7d7130d --repeats 3
    .venv/bin/python bench/solve_process.py split --workers 2 --repeats 3
    .venv/bin/python bench/solve_process.py split --workers 2 --certificate --games "mnk(5,5,4)"

Each run is a fresh process: wall time, CPU time (user + system of the process and the workers
it waited for, from ``os.wait4``) and peak RSS; the table gives medians (ratios of medians for
the pairs). The JSON each run prints is checked: both sides of a pair must give the same value,
and a certificate must pass ``noughts solve check``. Figures taken while other work runs on the
machine are noisy: say so when recording them.
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

CLI = "import sys; sys.argv[0] = 'noughts'; from noughts.cli.app import main; sys.exit(main())"

VALUE_ONLY = ["mnk(7,7,4)", "mnk(7,6,4)"]
CERTIFICATES = ["mnk(4,4,4)", "maker_breaker(mnk(4,4,4))", "mnk(6,5,4)", "mnk(5,5,4)"]
SPLIT = ["mnk(5,5,4)", "mnk(6,5,4)", "mnk(4,4,4)"]


@dataclass
class Run:
    wall: float
    cpu: float
    rss_mib: float
    doc: dict  # type: ignore[type-arg]


def run_timed(args: list[str], env: dict[str, str]) -> Run:
    """One process with its resource usage (``os.wait4``), its JSON read back."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-c", CLI, *args], env=env, stdout=out, stderr=subprocess.PIPE
        )
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        err = proc.stderr.read().decode() if proc.stderr else ""
        if code != 0:
            raise SystemExit(f"noughts {' '.join(args)}: exit status {code}: {err.strip()[-300:]}")
        out.seek(0)
        doc = json.loads(out.read().decode().strip().splitlines()[-1])
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, doc)


def tree_of(rev: str, into: Path) -> Path:
    """The ``src`` of revision ``rev``, unpacked under ``into``."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", rev, "src"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    into.mkdir(parents=True, exist_ok=True)
    path = into / "archive.tar"
    path.write_bytes(archive)
    with tarfile.open(path) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def env_for(src: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(src), "COLUMNS": "100"}


def check(path: Path, env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", CLI, "solve", "check", str(path), "--json"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    doc = json.loads(done.stdout.strip().splitlines()[-1])
    return f"valid, {doc['checked']:,} positions" if doc["valid"] else f"INVALID: {doc['first_failure']}"


def med(runs: list[Run], what: str) -> float:
    return statistics.median(getattr(r, what) for r in runs)


FLOOR = """
import json, time
import numba
from noughts.kernels.target import skip_blas_probe

skip_blas_probe()  # as every noughts kernel module does on import

@numba.njit(cache=True)
def one(x):
    return x + 1

one(1)
print(json.dumps({"seconds": time.process_time()}))
"""
"""The floor under any answer a numba kernel gives: start Python, import numba, call one cached
one-line kernel (numba sets up its compiler target on the first call, cached or not; without
the SciPy BLAS probe, as noughts sets it up: :mod:`noughts.kernels.target`)."""


def floor_run(path: Path, env: dict[str, str]) -> Run:
    """One process of a floor script (at ``path``), timed as :func:`run_timed` times."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, str(path)], stdout=subprocess.PIPE, env=env)
    _, _, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, {})


FLOORS = {
    "floor: python, import numba, one cached one-line kernel (as noughts sets numba up: no BLAS probe)": FLOOR,
    "the same with numba's SciPy BLAS probe (numba's own set-up)": FLOOR.replace("skip_blas_probe()  #", "#"),
}


def value_only(args: argparse.Namespace) -> None:
    env = env_for(ROOT / "src")
    runs: dict[str, list[Run]] = {spec: [] for spec in VALUE_ONLY}
    floors: dict[str, list[Run]] = {label: [] for label in FLOORS}
    with tempfile.TemporaryDirectory() as tmp:
        scripts = {}
        for i, (label, text) in enumerate(FLOORS.items()):
            scripts[label] = Path(tmp) / f"floor{i}.py"
            scripts[label].write_text(text)
            floor_run(scripts[label], env)  # compile and cache the one-line kernel
        for spec in VALUE_ONLY:  # warm the kernel cache
            run_timed(["solve", spec, "--value-only", "--json"], env)
        for _ in range(args.repeats):
            for spec in VALUE_ONLY:
                runs[spec].append(run_timed(["solve", spec, "--value-only", "--json"], env))
            for label, script in scripts.items():
                floors[label].append(floor_run(script, env))
    print(
        "| game | value | engine | in-process s (median) | wall s (median, fastest) | CPU s (median) | peak MiB | target |"
    )
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | --- |")
    for spec, rs in runs.items():
        d = rs[0].doc
        print(
            f"| {spec} | {d['value']} in {d['plies']} | {d['engine']} | {statistics.median(r.doc['seconds'] for r in rs):.3f}"
            f" | {med(rs, 'wall'):.2f}, {min(r.wall for r in rs):.2f} | {med(rs, 'cpu'):.2f} | {max(r.rss_mib for r in rs):.0f}"
            f" | < 1 s: {'met' if med(rs, 'wall') < 1 else 'not met'} (wall) |"
        )
    for label, floor in floors.items():
        print(
            f"| {label} | | | | {med(floor, 'wall'):.2f},"
            f" {min(r.wall for r in floor):.2f} | {med(floor, 'cpu'):.2f} | {max(r.rss_mib for r in floor):.0f} | |"
        )


def certificates(args: argparse.Namespace) -> None:
    trees = [("this tree", ROOT / "src")]
    with tempfile.TemporaryDirectory() as tmp:
        if args.against:
            trees.append((f"at {args.against}", tree_of(args.against, Path(tmp) / "old")))
        runs: dict[tuple[str, str], list[Run]] = {}
        checks: dict[tuple[str, str], str] = {}
        for spec in args.games or CERTIFICATES:
            for label, src in trees:  # one untimed run each compiles the tree's kernels
                cert = Path(tmp) / f"warm-{len(runs)}"
                run_timed(
                    [
                        "solve",
                        spec,
                        "--engine",
                        "proof",
                        "--value-only",
                        "--json",
                        "--certificate",
                        str(cert),
                        "--max-seconds",
                        "1800",
                    ],
                    env_for(src),
                )
                runs[spec, label] = []
            for i in range(args.repeats):
                for label, src in trees:
                    cert = Path(tmp) / f"cert-{i}-{label[:4]}"
                    r = run_timed(
                        [
                            "solve",
                            spec,
                            "--engine",
                            "proof",
                            "--value-only",
                            "--json",
                            "--certificate",
                            str(cert),
                            "--max-seconds",
                            "1800",
                        ],
                        env_for(src),
                    )
                    runs[spec, label].append(r)
                    checks[spec, label] = check(cert.with_suffix(".json"), env_for(ROOT / "src"))
            values = {runs[spec, label][0].doc["value"] for label, _ in trees}
            assert len(values) == 1, f"{spec}: the trees disagree: {values}"
    print(
        "| game | value | source | wall s (median) | CPU s (median) | peak MiB | stored moves | check | CPU / this tree |"
    )
    print("| --- | --- | --- | ---: | ---: | ---: | --- | --- | ---: |")
    for spec in args.games or CERTIFICATES:
        base = med(runs[spec, "this tree"], "cpu")
        for label, _ in trees:
            rs = runs[spec, label]
            d = rs[0].doc
            print(
                f"| {spec} | {d['value']} | {label} | {med(rs, 'wall'):.1f} | {med(rs, 'cpu'):.1f} | {max(r.rss_mib for r in rs):.0f}"
                f" | {d['certificate']['stored_moves']} | {checks[spec, label]} | {med(rs, 'cpu') / base:.2f} |"
            )


def split(args: argparse.Namespace) -> None:
    env = env_for(ROOT / "src")
    cases = [("one process", []), (f"--workers {args.workers}", ["--workers", str(args.workers)])]
    runs: dict[tuple[str, str], list[Run]] = {}
    checks: dict[tuple[str, str], str] = {}
    with tempfile.TemporaryDirectory() as tmp:

        def argv(spec: str, extra: list[str], name: str) -> list[str]:
            cert = ["--engine", "proof", "--certificate", str(Path(tmp) / name)] if args.certificate else []
            return ["solve", spec, "--value-only", "--json", "--max-seconds", "1800", *cert, *extra]

        for spec in args.games or SPLIT:
            for label, extra in cases:
                run_timed(argv(spec, extra, "warm"), env)
                runs[spec, label] = []
            for i in range(args.repeats):
                for j, (label, extra) in enumerate(cases):
                    runs[spec, label].append(run_timed(argv(spec, extra, f"c{i}{j}"), env))
                    if args.certificate:
                        checks[spec, label] = check(Path(tmp) / f"c{i}{j}.json", env)
            values = {(runs[spec, label][0].doc["value"]) for label, _ in cases}
            assert len(values) == 1, f"{spec}: the split disagrees: {values}"
    print(
        "| game | value | how | engine | jobs | wall s (median) | CPU s (median) | peak MiB | certificate"
        " | wall / one process |"
    )
    print("| --- | --- | --- | --- | ---: | ---: | ---: | ---: | --- | ---: |")
    for spec in args.games or SPLIT:
        base = med(runs[spec, "one process"], "wall")
        for label, _ in cases:
            rs = runs[spec, label]
            d = rs[0].doc
            jobs = d.get("split", {}).get("jobs", "")
            cert = f"{d['certificate']['stored_moves']}, {checks[spec, label]}" if args.certificate else ""
            print(
                f"| {spec} | {d['value']} | {label} | {d['engine']} | {jobs} | {med(rs, 'wall'):.2f} | {med(rs, 'cpu'):.2f}"
                f" | {max(r.rss_mib for r in rs):.0f} | {cert} | {med(rs, 'wall') / base:.2f} |"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=["value-only", "certificates", "split"])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--against", metavar="REV", help="certificates: also time this revision, interleaved")
    parser.add_argument("--workers", type=int, default=2, help="split: the workers")
    parser.add_argument("--games", nargs="*", help="the games (default: the issue's)")
    parser.add_argument(
        "--certificate", action="store_true", help="split: with the proof engine's certificates"
    )
    args = parser.parse_args()
    load = os.getloadavg()
    print(f"machine: {machine()}; load average {load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f}")
    print(f"noughts {commit()}; {' '.join(sys.argv[1:])}\n")
    {"value-only": value_only, "certificates": certificates, "split": split}[args.what](args)


if __name__ == "__main__":
    main()
