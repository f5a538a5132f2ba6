"""What the benchmarks share: what they record about the run (the machine, the library versions,
the commit, the command line, peak memory), running a row in a child process, and the peers'
loops that several of them time.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

try:
    import resource
except ImportError:  # not on Windows: peak RSS is then unknown
    resource = None  # type: ignore[assignment]

ROOT = Path(__file__).resolve().parent.parent


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def machine() -> str:
    """CPU, cores, OS and Python in one line."""
    return (
        f"{cpu_model()}, {os.cpu_count()} logical CPUs, {platform.platform()}; "
        f"{platform.python_implementation()} {platform.python_version()}"
    )


def versions(names: tuple[str, ...]) -> str:
    """``name version`` for each installed distribution, ``name not installed`` otherwise."""
    out = []
    for name in names:
        try:
            out.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            out.append(f"{name} not installed")
    return ", ".join(out)


def commit() -> str:
    """The short commit, marked when the working tree has uncommitted changes."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + (" with uncommitted changes" if dirty.strip() else "")


def finish(doc: dict[str, Any], load: tuple[float, float, float], path: Path | None) -> int:
    """Close a benchmark's record ``doc``: the load average at the start (``load``) and now, the
    machine and the commit; print the load line; write ``doc`` to ``path`` (JSON) when given.
    Returns 0, the script's exit status.
    """
    doc.update(load_average_at_start=load, load_average=os.getloadavg(), machine=machine(), commit=commit())
    print(f"load average {load[0]:.2f} at the start, {doc['load_average'][0]:.2f} at the end")
    if path is not None:
        path.write_text(json.dumps(doc, indent=2))
    return 0


def command_line(script: str, argv: Sequence[str] | None) -> str:
    """The command that ran ``script`` (``bench/NAME.py``) with ``argv`` (None: this process's
    arguments), the interpreter named relative to the repository when it lies inside it.
    """
    python = Path(sys.executable)
    python_name = str(python.relative_to(ROOT)) if python.is_relative_to(ROOT) else "python"
    return " ".join([python_name, script, *(argv if argv is not None else sys.argv[1:])]).strip()


def peak_rss_mib() -> float | None:
    """This process's peak resident memory in MiB (None where the platform does not say)."""
    if resource is None:
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024 if sys.platform == "darwin" else 1024)  # bytes on macOS, KiB elsewhere


def run_worker(command: list[str], budget: float) -> dict[str, Any]:
    """Run a benchmark row in its own process (``command``), at most ``budget`` seconds: its
    result is the JSON object on the last line of its standard output. A row that fails or runs
    out of time gives ``{"status": "error", "reason": ...}``.
    """
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=budget, check=False)
    except subprocess.TimeoutExpired:
        return {"status": "error", "reason": f"timed out after {budget:.0f} s"}
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"status": "error", "reason": f"exit {done.returncode}: {tail}"}
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def openspiel_self_play(env: Any, agents: Sequence[Any], episodes: int) -> None:
    """``episodes`` games of OpenSpiel ``rl_environment`` self-play between ``agents`` (one per
    player): the loop of OpenSpiel's own tabular Q-learning example, each agent seeing the end.
    """
    for _ in range(episodes):
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            out = agents[player].step(step)
            step = env.step([out.action])
        for agent in agents:
            agent.step(step)


def add_timing_options(parser: argparse.ArgumentParser, *, seconds: float, repeats: int, per: str) -> None:
    """``--quick``, ``--seconds`` and ``--repeats`` for a benchmark that times repetitions of about
    ``seconds`` each, ``repeats`` of them per ``per`` (a row, a case); :func:`settle_timing` fills
    them in after parsing (``--quick``: 0.2 s x 2 repetitions).
    """
    parser.add_argument("--quick", action="store_true", help="a short smoke test: 0.2 s x 2 repetitions")
    parser.add_argument(
        "--seconds", type=float, default=None, help=f"seconds per repetition (default {seconds})"
    )
    parser.add_argument(
        "--repeats", type=int, default=None, help=f"repetitions per {per} (default {repeats})"
    )
    parser.set_defaults(full_seconds=seconds, full_repeats=repeats)


def settle_timing(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Fill in ``args.seconds`` and ``args.repeats`` (see :func:`add_timing_options`); refuse bad ones."""
    if args.seconds is None:
        args.seconds = 0.2 if args.quick else args.full_seconds
    if args.repeats is None:
        args.repeats = 2 if args.quick else args.full_repeats
    if args.seconds <= 0 or args.repeats < 1:
        parser.error("--seconds must be positive and --repeats at least 1")


def write_raw(path: Path | None, payload: dict[str, Any]) -> None:
    """Write a benchmark's raw results as JSON to ``path`` (its folder made; nothing if None)."""
    if not path:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, indent=2) + "\n")
    print(f"\nraw results: {path}", file=sys.stderr)
