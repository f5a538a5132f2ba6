"""The light install, measured: ``make run`` on a fresh clone, as a new user runs it.

A round clones the repository (its committed ``HEAD``, or ``--rev``) into a new temporary folder,
runs the README's install (``make .venv/.installed-base``: a new virtual environment, pip
upgraded, ``pip install -e .``, the base dependencies only, with a new empty pip cache so that
every wheel is downloaded or taken from the machine's wheel folder as on a fresh machine), then
what ``make run`` runs after it (``mkdir .noughts``, ``noughts show tictactoe``,
``noughts serve``), and records

* the seconds of the install, and from the start of the install to the first answer of
  ``/api/health`` (**serving**: the arena answers; the issue's target: under 90 s on a quiet
  machine), and, with ``--ready``, until the health shows the warm-up finished (every kernel the
  presets use compiled: on a fresh clone the numba cache is empty);
* the size on disk of the virtual environment once the server has stopped (``du``; the target:
  under 500 MB), and the largest installed distributions (the files each one's ``RECORD``
  lists, ``.pyc`` files included).

With ``--against REV`` the same rounds run for ``REV`` too, interleaved (A B, then B A), so that
the machine's load falls on both alike: the peer is the install before a change (for issue 29:
the base with matplotlib, ``ffc989f``).

Run it as ``python bench/setup.py [--rounds 1] [--against REV] [--ready] [--json FILE]``. It needs
git, make, network (or the machine's pip wheel folder) and about 1 GB of temporary disk a round.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from _common import command_line, commit, finish, machine  # bench/ is sys.path[0] when a script runs

ROOT = Path(__file__).resolve().parent.parent

SIZES = """
import json, os
from importlib.metadata import distributions
out = {}
for d in distributions():
    total = 0
    for f in d.files or ():
        p = f.locate()
        try:
            total += os.path.getsize(p)
        except OSError:
            pass
    out[d.metadata["Name"]] = out.get(d.metadata["Name"], 0) + total
print(json.dumps(out))
"""
"""Run by the new venv's Python: bytes on disk per installed distribution (its RECORD's files)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def du_bytes(path: Path) -> int:
    """The disk use of ``path`` in bytes, as ``du -s`` counts it (blocks, not file lengths)."""
    done = subprocess.run(["du", "-s", "-B1", str(path)], capture_output=True, text=True, check=True)
    return int(done.stdout.split()[0])


def health(base: str) -> dict[str, Any] | None:
    try:
        with urllib.request.urlopen(base + "/api/health", timeout=5) as r:
            doc: dict[str, Any] = json.loads(r.read())
            return doc
    except (urllib.error.URLError, OSError, ValueError):
        return None


def warm(doc: dict[str, Any]) -> bool:
    workers = doc.get("workers", {})
    warmup = workers.get("warmup")
    return bool(
        workers.get("ready", 0) >= workers.get("workers", 1) and (warmup is None or warmup.get("ready"))
    )


def one_round(rev: str, ready: bool, give_up: float) -> dict[str, Any]:
    """Clone ``rev``, install as ``make run`` does, serve; the figures of one round."""
    with tempfile.TemporaryDirectory(prefix="noughts-setup-") as tmp:
        clone = Path(tmp) / "noughts"
        subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(clone)], check=True)
        subprocess.run(["git", "-C", str(clone), "checkout", "--quiet", rev], check=True)
        sha = subprocess.run(
            ["git", "-C", str(clone), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        env = dict(
            os.environ, PIP_CACHE_DIR=str(Path(tmp) / "pip-cache"), XDG_DATA_HOME=str(Path(tmp) / "data")
        )
        for key in ("PYTHONPATH", "VIRTUAL_ENV", "NUMBA_CACHE_DIR", "NOUGHTS_PROJECT_STORE"):
            env.pop(key, None)
        t0 = time.perf_counter()
        done = subprocess.run(
            ["make", "--no-print-directory", ".venv/.installed-base", f"PYTHON={sys.executable}"],
            cwd=clone,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        installed = time.perf_counter() - t0
        if done.returncode != 0:
            raise RuntimeError(f"make failed at {rev}: {(done.stderr or done.stdout).strip()[-500:]}")
        noughts = clone / ".venv" / "bin" / "noughts"
        (clone / ".noughts").mkdir(exist_ok=True)
        subprocess.run(
            [str(noughts), "show", "tictactoe"], cwd=clone, env=env, capture_output=True, check=True
        )
        port = free_port()
        proc = subprocess.Popen(
            [str(noughts), "serve", "--port", str(port), "--no-open", "--no-access-log"],
            cwd=clone,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        base = f"http://127.0.0.1:{port}"
        serving = ready_at = None
        try:
            while time.perf_counter() - t0 < give_up:
                doc = health(base)
                now = time.perf_counter() - t0
                if doc is not None and serving is None:
                    serving = now
                if doc is not None and (not ready or warm(doc)):
                    ready_at = now if ready else None
                    break
                if proc.poll() is not None:
                    raise RuntimeError(f"noughts serve at {rev} ended with status {proc.returncode}")
                time.sleep(0.25)
        finally:
            os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C, as a person stops it
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)
        venv = clone / ".venv"
        sizes = json.loads(
            subprocess.run(
                [str(venv / "bin" / "python"), "-c", SIZES], capture_output=True, text=True, check=True
            ).stdout
        )
        return {
            "rev": rev,
            "commit": sha,
            "install_s": round(installed, 1),
            "serving_s": None if serving is None else round(serving, 1),
            "ready_s": None if ready_at is None else round(ready_at, 1),
            "venv_mb": round(du_bytes(venv) / 1e6, 1),
            "site_packages_by_distribution_mb": {
                k: round(v / 1e6, 1) for k, v in sorted(sizes.items(), key=lambda kv: -kv[1])
            },
        }


def median(xs: list[float | None]) -> float | None:
    ys = [x for x in xs if x is not None]
    return statistics.median(ys) if ys else None


def show(label: str, rounds: list[dict[str, Any]]) -> None:
    def fmt(x: float | None, unit: str) -> str:
        return "—" if x is None else f"{x:.1f} {unit}"

    print(
        f"{label}: venv {fmt(median([r['venv_mb'] for r in rounds]), 'MB')}, install "
        f"{fmt(median([r['install_s'] for r in rounds]), 's')}, serving at "
        f"{fmt(median([r['serving_s'] for r in rounds]), 's')}, ready at "
        f"{fmt(median([r['ready_s'] for r in rounds]), 's')} (medians of {len(rounds)})"
    )
    top = rounds[-1]["site_packages_by_distribution_mb"]
    print("  largest: " + ", ".join(f"{k} {v:.0f}" for k, v in list(top.items())[:10]) + " (MB)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", default="HEAD", help="the commit to install (default: HEAD, committed)")
    parser.add_argument("--against", metavar="REV", help="the peer: the same rounds for REV, interleaved")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--ready", action="store_true", help="also wait for the warm-up to finish")
    parser.add_argument(
        "--give-up", type=float, default=900.0, help="seconds a round may take from the install"
    )
    parser.add_argument("--json", type=Path, help="write the record here")
    args = parser.parse_args(argv)
    load = os.getloadavg()
    if shutil.which("make") is None or shutil.which("git") is None:
        print("bench/setup.py needs make and git", file=sys.stderr)
        return 2
    revs = [args.rev] + ([args.against] if args.against else [])
    rounds: dict[str, list[dict[str, Any]]] = {r: [] for r in revs}
    for i in range(args.rounds):
        order = revs if i % 2 == 0 else revs[::-1]
        for rev in order:
            result = one_round(rev, args.ready, args.give_up)
            rounds[rev].append(result)
            print(json.dumps({k: v for k, v in result.items() if k != "site_packages_by_distribution_mb"}))
    print(f"python {sys.version.split()[0]} on {machine()}; commit {commit()}")
    for rev in revs:
        show(f"{rev} ({rounds[rev][0]['commit']})", rounds[rev])
    if args.against:
        a = median([r["venv_mb"] for r in rounds[args.rev]])
        b = median([r["venv_mb"] for r in rounds[args.against]])
        if a and b:
            print(f"venv {args.rev} / {args.against}: {a / b:.2f}x")
    doc = {"command": command_line("bench/setup.py", argv), "rounds": rounds}
    return finish(doc, load, args.json)


if __name__ == "__main__":
    sys.exit(main())
