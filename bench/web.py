"""The web arena on loopback: perfect-player move latency under 200 concurrent games, and the
first page load.

``noughts serve`` runs in its own process on a throwaway store; this script is the clients.

* **Move latency**: 200 games at once (asyncio + httpx, one connection each), a person making
  random legal moves against the perfect player. Every request is timed at the client, from
  sending to the whole answer read: ``turn`` (the perfect player's move, ``POST
  /api/games/{id}/turn``) and ``move`` (the person's move, recorded and answered). p50, p99 and
  max over all of them, on 3x3 and 4x4, after one warm-up game per board (the engine is made
  once per game and kept; the warm-up's first move is reported separately as *cold*).
* **Side by side**: what the same perfect moves cost without a kept engine, as a fresh
  ``noughts.solve`` per move would (an arena that solves from scratch each turn), timed in this
  process on a sample of the positions the load test met.
* **First page load**: headless Chromium (``/usr/bin/chromium``) from navigation to the page
  being ready (``body[data-ready]``: the script loaded, presets, agents and features fetched),
  each load in a fresh browser context (empty cache); the first load after the server starts
  and the median of the next ones.

003's arena (a Streamlit app) cannot be run here, so its figures are quoted, not measured:
the issue's ~600 ms per move on an empty 3x3 board.

Every simulated person comes from 127.0.0.1, so the server is started with ``--per-client 1000``
(each person would have an address of their own); perfect moves run in the arena's worker
processes, and a 429 (every worker busy) is asked again after its ``Retry-After``, counted as
*busy*.

Run: ``.venv/bin/python bench/web.py`` (``--games N`` to change the 200, ``--json PATH``).
The machine is shared; the load average at the start and end is printed with the table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import numpy as np

import noughts
from _common import commit, machine, versions

ROOT = Path(__file__).resolve().parent.parent
NOUGHTS = Path(sys.executable).with_name("noughts")
CHROMIUM = os.environ.get("NOUGHTS_CHROMIUM", "/usr/bin/chromium")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path) -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    proc = subprocess.Popen(
        [
            str(NOUGHTS),
            "serve",
            "--port",
            str(port),
            "--db",
            str(db),
            "--no-open",
            "--no-access-log",
            "--per-client",
            "1000",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "ready at" not in line:
        raise RuntimeError(f"the server did not start: {line}")
    return proc, f"http://127.0.0.1:{port}"


def peak_rss_mib(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(np.array(values), q)) if values else float("nan")


async def play_one(
    client: httpx.AsyncClient,
    spec: str,
    seed: int,
    times: dict[str, list[float]],
    positions: list[str],
    think: tuple[float, float],
) -> None:
    rng = np.random.default_rng(seed)
    await asyncio.sleep(float(rng.uniform(0, think[1])))  # people do not all sit down at once
    r = await client.post("/api/games", json={"game": spec, "x": "human", "o": "perfect"})
    r.raise_for_status()
    s = r.json()
    token = {"X-Game-Token": s["token"]}
    while not s["over"]:
        if s["turn"] == "human":
            legal = s["view"]["moves"]
            pick = legal[int(rng.integers(len(legal)))]
            await asyncio.sleep(float(rng.uniform(*think)))  # the person thinks
            t = time.perf_counter()
            r = await client.post(
                f"/api/games/{s['id']}/move", json={"action": pick["action"], "ply": s["ply"]}, headers=token
            )
            times["move"].append(time.perf_counter() - t)
        else:
            positions.append(s["position"])
            t = time.perf_counter()
            r = await client.post(f"/api/games/{s['id']}/turn", json={"ply": s["ply"]}, headers=token)
            if r.status_code == 429:  # the workers are all busy: ask again after the time named
                times["busy"].append(time.perf_counter() - t)
                await asyncio.sleep(float(r.headers.get("Retry-After", "1")) * float(rng.random()))
                continue
            times["turn"].append(time.perf_counter() - t)
            times["turn_server"].append(float(r.headers["server-timing"].split("dur=")[1]) / 1000)
        r.raise_for_status()
        s = r.json()


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds the process has used (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def load(url: str, spec: str, games: int, pid: int, think: tuple[float, float]) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=games, max_keepalive_connections=games)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=120) as client:
        # warm-up: one game alone; its first perfect move makes the engine
        s = (await client.post("/api/games", json={"game": spec, "x": "perfect", "o": "human"})).json()
        t = time.perf_counter()
        (
            await client.post(f"/api/games/{s['id']}/turn", json={}, headers={"X-Game-Token": s["token"]})
        ).raise_for_status()
        cold = time.perf_counter() - t
        times: dict[str, list[float]] = {"turn": [], "move": [], "turn_server": [], "busy": []}
        positions: list[str] = []
        cpu_before = cpu_seconds(pid)
        started = time.perf_counter()
        await asyncio.gather(*(play_one(client, spec, i, times, positions, think) for i in range(games)))
        wall = time.perf_counter() - started
        cpu = cpu_seconds(pid) - cpu_before
    return {"cold": cold, "times": times, "positions": positions, "wall": wall, "cpu": cpu}


def in_process_ms(spec: str, positions: list[str], sample: int = 30) -> tuple[float, float]:
    """Median ms per position, in this process on a sample of the load test's positions, of the
    perfect move from the arena's kept engine and of a fresh ``noughts.solve`` (no kept engine).
    """
    from noughts.web.limits import Limits
    from noughts.web.work import Worker

    game = noughts.game(spec)
    rng = np.random.default_rng(0)
    picks = rng.choice(len(positions), size=min(sample, len(positions)), replace=False)
    chosen = [positions[int(i)] for i in picks]
    noughts.solve(spec, chosen[0])  # load the kernels once, as a running server would have
    worker = Worker(Limits().worker_memory())  # what a worker process keeps: one engine per game
    for text in chosen:  # the worker's engine had met these games' positions before, too
        worker.perfect(game).choose(game.parse(text), rng)
    kept, fresh = [], []
    for text in chosen:
        position = game.parse(text)
        t = time.perf_counter()
        worker.perfect(game).choose(position, rng)
        kept.append(time.perf_counter() - t)
        t = time.perf_counter()
        noughts.solve(spec, text)
        fresh.append(time.perf_counter() - t)
    return statistics.median(kept) * 1000, statistics.median(fresh) * 1000


def page_loads(url: str, n: int = 6) -> tuple[float, float] | None:
    if not Path(CHROMIUM).exists():
        return None
    from playwright.sync_api import sync_playwright

    times = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        for _ in range(n):
            context = browser.new_context()
            page = context.new_page()
            t = time.perf_counter()
            page.goto(url + "/#/play")
            page.wait_for_selector("body[data-ready='1']")
            times.append(time.perf_counter() - t)
            context.close()
        browser.close()
    return times[0] * 1000, statistics.median(times[1:]) * 1000


def _think(think: list[float]) -> str:
    return "no (closed loop)" if think[1] == 0 else f"{think[0]:g}-{think[1]:g} s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument(
        "--think",
        default="1,3",
        help="seconds a person thinks before each move, uniform in LO,HI (default 1,3); "
        "a closed-loop run with no thinking is always added",
    )
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "results" / "web.json")
    args = parser.parse_args()
    load_before = os.getloadavg()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(Path(tmp) / "bench.db")
        try:
            page = page_loads(url)
            lo, hi = (float(x) for x in args.think.split(","))
            for spec, think in (
                ("tictactoe", (lo, hi)),
                ("mnk(4,4,4)", (lo, hi)),
                ("tictactoe", (0.0, 0.0)),
                ("mnk(4,4,4)", (0.0, 0.0)),
            ):
                result = asyncio.run(load(url, spec, args.games, proc.pid, think))
                turn = [x * 1000 for x in result["times"]["turn"]]
                server = [x * 1000 for x in result["times"]["turn_server"]]
                requests = len(turn) + len(result["times"]["move"]) + args.games
                move = [x * 1000 for x in result["times"]["move"]]
                kept, fresh = in_process_ms(spec, result["positions"])
                rows.append(
                    {
                        "game": str(noughts.game(spec)),
                        "games": args.games,
                        "think_s": list(think),
                        "perfect_moves": len(turn),
                        "turn_p50_ms": pct(turn, 50),
                        "turn_p99_ms": pct(turn, 99),
                        "turn_max_ms": max(turn),
                        "move_p50_ms": pct(move, 50),
                        "move_p99_ms": pct(move, 99),
                        "turn_in_app_p50_ms": pct(server, 50),
                        "turn_in_app_p99_ms": pct(server, 99),
                        "cold_first_move_ms": result["cold"] * 1000,
                        "requests_per_s": requests / result["wall"],
                        "server_cpu_ms_per_request": result["cpu"] * 1000 / requests,
                        "kept_engine_move_ms": kept,
                        "fresh_solve_per_move_ms": fresh,
                    }
                )
            rss = peak_rss_mib(proc.pid)
        finally:
            proc.kill()
            proc.wait(10)
    load_after = os.getloadavg()
    doc = {
        "machine": machine(),
        "versions": versions(("noughts", "fastapi", "uvicorn", "httpx", "playwright")),
        "commit": commit(),
        "load_average": [round(load_before[0], 2), round(load_after[0], 2)],
        "rows": rows,
        "first_page_load_ms": None if page is None else {"first": page[0], "median_next": page[1]},
        "server_peak_rss_mib": rss,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(doc, indent=2) + "\n")

    print(f"Machine: {doc['machine']}  \nVersions: {doc['versions']}  \nCommit: {doc['commit']}  ")
    print(
        f"Load average (1 min) at start / end: {load_before[0]:.2f} / {load_after[0]:.2f} (a shared machine)\n"
    )
    print(
        "| game | concurrent games | person thinks | perfect moves | perfect move p50 | p99 | max | in the app p50 | p99 "
        "| person's move p50 | p99 | cold first move | requests/s | server CPU per request "
        "| in process: kept engine | fresh solve (no kept engine) | 003's arena (quoted) |"
    )
    print(
        "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
    )
    for r in rows:
        quoted = "~600 ms (issue)" if r["game"] == "mnk(3,3,3)" and r["think_s"][1] > 0 else "n/a"
        print(
            f"| {r['game']} | {r['games']} | {_think(r['think_s'])} | {r['perfect_moves']:,} | {r['turn_p50_ms']:.1f} ms | {r['turn_p99_ms']:.1f} ms "
            f"| {r['turn_max_ms']:.1f} ms | {r['turn_in_app_p50_ms']:.1f} ms | {r['turn_in_app_p99_ms']:.1f} ms "
            f"| {r['move_p50_ms']:.1f} ms | {r['move_p99_ms']:.1f} ms "
            f"| {r['cold_first_move_ms']:.1f} ms | {r['requests_per_s']:,.0f} | {r['server_cpu_ms_per_request']:.2f} ms "
            f"| {r['kept_engine_move_ms']:.2f} ms | {r['fresh_solve_per_move_ms']:.2f} ms | {quoted} |"
        )
    if page is not None:
        print(
            f"\nFirst page load (headless Chromium, navigation to ready): first {page[0]:.0f} ms, "
            f"then median {page[1]:.0f} ms over 5 fresh contexts."
        )
    if rss is not None:
        print(f"Server peak resident memory: {rss:.0f} MiB.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
