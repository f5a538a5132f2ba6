"""The forced-win suite (issue 13): positions of 9x9 k=5, 15x15 k=5 and hypercube(4,3) drawn by
seeded random play and *proved* a win for the side to move by the proof engine, and whether the
``engine`` agent finds a winning move in each within its time.

``generate`` draws the positions and writes the suite (versioned JSON, ``bench/data/``):

* **Drawing.** Each position is the end of a random game prefix, its length drawn uniformly
  from the board's range (``PLIES``). On the mnk boards a claim is, with probability ``NEAR``
  (0.75), a uniform empty cell within two steps (king moves) of a claimed cell, else a uniform
  empty cell: pure random play on 15x15 scatters its marks, so few positions hold a forced
  win; the light pull towards the marks gives the clusters where wins live. On Qubic (64 cells,
  every cell on many lines) claims are uniform. A prefix that ends the game is dropped, and so
  is a position the side to move wins in one (a completing cell of its own: that is no test),
  and a position met before under the board's symmetries; a proved win whose class (below) already
  holds ``--max-share`` (30%) of the board's quota is dropped, for a spread of lengths. The stream is NumPy's PCG64 seeded
  with ``(seed, board index)``; the seed and the command are recorded in the file.
* **Proving.** :class:`noughts.proving.proof.ProofSearch` (df-pn with threat-space search at its
  nodes) asks whether the side to move wins, within ``--nodes`` nodes; a proof keeps the
  position (with the proof's winning move), a disproof or a budget run out drops it (both are
  counted in the file).
* **Win length.** The proof engine does not measure distances, so each kept position is
  classed by the shortest win by continuous fours that the threat-space kernel
  (:func:`noughts.proving.threats.threat_win_kernel`) finds, by iterative deepening: ``vcf1``
  (one claim makes two completing cells: a win in 3 plies), ``vcf2`` ... (``n`` fours, a win in
  ``2n + 1`` plies along them), else ``vct`` where a win by fours and threes (order 2, at most
  ``VCT_DEPTH`` threats) exists, else ``deep``: the proof needed the full df-pn (non-threat
  moves, or longer sequences than the classifier looks for).

``run`` gives ``engine:seconds=S`` (default 1) each position of the suite and checks its move:
a move counts as **found** only if it is *proved* winning: it completes a line, or the proof
engine proves the position after it a win for the mover (the opponent to move) within
``--verify-nodes`` nodes. A move the proof engine refutes is **wrong**; one it can neither prove
nor refute in its budget (``--verify-nodes``, then once more with ``--verify-again``) is
**unverified** and counted as not found. ``--baseline OPTIONS`` runs a second engine on each
position right after the first (interleaved), for a side-by-side figure. The report gives the found
share by board and by win length, the engine's median seconds per move and how often it said
itself that its move was a proven win.

Run it as::

    .venv/bin/python bench/forced_wins.py generate          # writes bench/data/forced_wins.json
    .venv/bin/python bench/forced_wins.py run --baseline vct=0,proof=0
                                                            # writes bench/results/forced_wins_run.json

(``--quick``: a few positions a board, to see that it works.)
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from _common import command_line, commit, machine, peak_rss_mib, versions  # bench/ is sys.path[0]
from noughts.core import Game, LimitExceeded, Move, Position, game

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "bench" / "data" / "forced_wins.json"
RESULTS = ROOT / "bench" / "results" / "forced_wins_run.json"
FORMAT = "noughts-forced-wins"
VERSION = 1

BOARDS = ("mnk(9,9,5)", "mnk(15,15,5)", "hypercube(4,3)")
PLIES = {"mnk(9,9,5)": (8, 30), "mnk(15,15,5)": (8, 34), "hypercube(4,3)": (5, 16)}
"""The range (inclusive) of the random prefix's length on each board."""
NEAR = 0.75
"""On mnk boards, the chance that a random claim is drawn from the cells near the marks."""
NODES = {"mnk(9,9,5)": 20_000, "mnk(15,15,5)": 10_000, "hypercube(4,3)": 20_000}
"""The proof engine's node budget per drawn position (the default of ``--nodes``)."""
MAX_SHARE = 0.3
"""At most this share of a board's positions in one win-length class (random play mostly gives
``vcf1``: a spread of lengths needs a cap)."""
VCF_DEPTH = 16
VCT_DEPTH = 4
VCT_NODES = 200_000


def _game(spec: str) -> Game:
    return game(spec)


def _near_cells(game: Game, position: Position) -> list[int]:
    """The empty cells within two king steps of a claimed cell (mnk boards)."""
    board = game.board
    m, n = board.grid[0], board.grid[1]
    taken = position.occupied()
    near: set[int] = set()
    for c in board.cells_in(taken):
        r, q = divmod(c, n)
        for dr in range(-2, 3):
            for dq in range(-2, 3):
                rr, qq = r + dr, q + dq
                if 0 <= rr < m and 0 <= qq < n and not taken >> (rr * n + qq) & 1:
                    near.add(rr * n + qq)
    return sorted(near)


def draw_position(
    game: Game, spec: str, rng: np.random.Generator, plies: int | None = None
) -> Position | None:
    """One random prefix's end (see the module docstring), or None where the game ended."""
    lo, hi = PLIES[spec]
    if plies is None:
        plies = int(rng.integers(lo, hi + 1))
    position = game.start()
    mnk = spec.startswith("mnk")
    for ply in range(plies):
        moves = position.legal_moves()
        if mnk and ply > 0 and rng.random() < NEAR:
            near = _near_cells(game, position)
            if near:
                moves = near  # type: ignore[assignment]
        position = position.play(moves[int(rng.integers(len(moves)))])
        if position.is_terminal():
            return None
    return position


def wins_in_one(position: Position) -> bool:
    """Whether the side to move has a cell that completes a line of its own."""
    game = position.game
    me, them = position.owned(position.to_move), position.owned(position.to_move.other)
    k = game.board.k
    return any(not m & them and (m & me).bit_count() == k - 1 for m in game.board.line_masks)


def win_class(position: Position) -> tuple[str, int | None]:
    """The class of a proved win (see the module docstring) and its plies along the threats
    (None where no threat sequence was found).
    """
    from noughts.proving.threats import threat_win_kernel

    for depth in range(1, VCF_DEPTH + 1):
        if threat_win_kernel(position, max_order=1, max_depth=depth) is not None:
            return f"vcf{depth}", 2 * depth + 1
    w = threat_win_kernel(position, max_order=2, max_depth=VCT_DEPTH, node_limit=VCT_NODES)
    if w is not None:
        return "vct", len(w.line)
    return "deep", None


def generate(args: argparse.Namespace) -> None:
    from noughts.proving.proof import WIN, ProofSearch

    boards = args.boards or list(BOARDS)
    suite: list[dict[str, Any]] = []
    tally: dict[str, dict[str, int]] = {}
    started = time.perf_counter()
    at = commit()  # the code that draws, taken before the long run
    for index, spec in enumerate(BOARDS):
        if spec not in boards:
            continue
        game = _game(spec)
        rng = np.random.default_rng([args.seed, index])
        nodes = args.nodes or NODES[spec]
        seen: set[Any] = set()
        t = Counter[str]()
        classes = Counter[str]()
        cap = max(1, math.ceil(args.max_share * args.per_board))
        kept = 0
        while kept < args.per_board and t["drawn"] < args.max_draws:
            position = draw_position(game, spec, rng)
            t["drawn"] += 1
            if position is None:
                t["ended"] += 1
                continue
            key = position.canonical_key()
            if key in seen:
                t["repeated"] += 1
                continue
            seen.add(key)
            if wins_in_one(position):
                t["win_in_one"] += 1
                continue
            search = ProofSearch(game, position.to_move, WIN, max_nodes=nodes)
            t0 = time.perf_counter()
            try:
                proof = search.prove(position)
            except LimitExceeded:
                t["unknown"] += 1
                continue
            seconds = time.perf_counter() - t0
            if not proof.proved:
                t["not_won"] += 1
                continue
            t["won"] += 1
            kind, plies = win_class(position)
            if classes[kind] >= cap:
                t["class_full"] += 1
                continue
            classes[kind] += 1
            kept += 1
            suite.append(
                {
                    "game": spec,
                    "position": position.text(),
                    "to_move": position.to_move.name.lower(),
                    "stones": position.occupied().bit_count(),
                    "proof_move": None if proof.move is None else game.format_move(proof.move),
                    "proof_nodes": proof.nodes,
                    "proof_seconds": round(seconds, 3),
                    "class": kind,
                    "threat_plies": plies,
                }
            )
            print(
                f"{spec:15s} {kept:3d}/{args.per_board}  {kind:6s} proof {proof.nodes:6,d} nodes "
                f"{seconds:5.2f} s  (drawn {t['drawn']})",
                file=sys.stderr,
            )
        tally[spec] = dict(t)
    payload = {
        "format": FORMAT,
        "version": VERSION,
        "generated": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "command": command_line("bench/forced_wins.py", None),
        "commit": at,
        "seed": args.seed,
        "drawing": {
            "plies": {s: list(PLIES[s]) for s in boards},
            "near": NEAR,
            "rng": "numpy PCG64 seeded with (seed, index of the board in BOARDS)",
            "boards": list(BOARDS),
            "proof_nodes": {s: args.nodes or NODES[s] for s in boards},
            "max_share": args.max_share,
        },
        "tally": tally,
        "seconds": round(time.perf_counter() - started, 1),
        "positions": suite,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(payload, indent=1) + "\n")
    counts = Counter((p["game"], p["class"]) for p in suite)
    print(f"{len(suite)} positions written to {args.out}")
    for spec in boards:
        row = ", ".join(f"{k} {v}" for (s, k), v in sorted(counts.items()) if s == spec)
        print(
            f"  {spec}: {sum(v for (s, _), v in counts.items() if s == spec)} ({row}); tally {tally.get(spec)}"
        )


def load_suite(path: Path) -> dict[str, Any]:
    """The suite in ``path``, its header checked before anything in it is used."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise SystemExit(f"cannot read the suite {path}: {e}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SystemExit(f"{path} is not a forced-win suite (format {FORMAT!r})")
    if data.get("version") != VERSION:
        raise SystemExit(f"{path} is version {data.get('version')}; this script reads version {VERSION}")
    return data


def verify(position: Position, move: Move, nodes: int) -> str:
    """``found`` if ``move`` is proved winning for the side to move, ``wrong`` if the proof
    engine refutes it, ``unverified`` if its budget ran out first.
    """
    from noughts.proving.proof import WIN, ProofSearch

    mover = position.to_move
    child = position.play(move)
    if child.is_terminal():
        outcome = child.outcome()
        return "found" if outcome is not None and outcome.winner is mover else "wrong"
    try:
        proof = ProofSearch(position.game, mover, WIN, max_nodes=nodes).prove(child)
    except LimitExceeded:
        return "unverified"
    return "found" if proof.proved else "wrong"


def run(args: argparse.Namespace) -> None:
    from noughts.agents.engine import EngineAgent

    data = load_suite(args.suite)
    positions = data["positions"]
    if args.boards:
        positions = [p for p in positions if p["game"] in args.boards]
    if args.limit:
        by: dict[str, list[Any]] = defaultdict(list)
        for p in positions:
            by[p["game"]].append(p)
        positions = [p for ps in by.values() for p in ps[: args.limit]]
    games = {spec: _game(spec) for spec in {p["game"] for p in positions}}
    configs = {"engine": args.engine_options}
    if args.baseline is not None:
        configs["baseline"] = args.baseline
    agents = {(c, spec): EngineAgent(args.seconds, **o) for c, o in configs.items() for spec in games}
    warm = np.random.default_rng(0)
    for spec, g in games.items():  # load the kernels and measure the rates outside the timed moves
        for plies in (6, 10, 14):
            position = draw_position(g, spec, warm, plies)
            if position is not None:
                for c in configs:
                    agents[c, spec].analyse(position)
    rows = []
    checked: dict[tuple[str, str], str] = {}
    for i, p in enumerate(positions):
        game = games[p["game"]]
        position = game.parse(p["position"])
        for c in configs:  # interleaved: each position meets the engine, then the baseline
            agent = agents[c, p["game"]]  # one agent a board, as in a game: its rates and table carry over
            t0 = time.perf_counter()
            r = agent.analyse(position)
            seconds = time.perf_counter() - t0
            move = game.format_move(r.move)
            verdict = checked.get((p["position"], move))
            if verdict is None:
                verdict = verify(position, r.move, args.verify_nodes)
                if verdict == "unverified" and args.verify_again:
                    verdict = verify(position, r.move, args.verify_again)
                checked[p["position"], move] = verdict
            rows.append(
                {
                    "config": c,
                    "game": p["game"],
                    "class": p["class"],
                    "position": p["position"],
                    "move": move,
                    "seconds": round(seconds, 3),
                    "engine_proven": r.proven,
                    "depth": r.depth,
                    "verdict": verdict,
                }
            )
            print(
                f"{i + 1:4d} {c:8s} {p['game']:15s} {p['class']:6s} {move:6s} "
                f"{seconds:5.2f} s {r.proven!s:5s} {verdict}",
                file=sys.stderr,
            )
    reports = {c: summarise([r for r in rows if r["config"] == c]) for c in configs}
    payload = {
        "command": command_line("bench/forced_wins.py", None),
        "commit": commit(),
        "machine": machine(),
        "versions": versions(("numpy", "numba")),
        "suite": str(args.suite.relative_to(ROOT)) if args.suite.is_relative_to(ROOT) else str(args.suite),
        "suite_generated": data.get("generated"),
        "seconds_per_move": args.seconds,
        "configs": configs,
        "verify_nodes": [args.verify_nodes, args.verify_again],
        "peak_rss_mib": peak_rss_mib(),
        "summary": reports,
        "rows": rows,
    }
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(payload, indent=1) + "\n")
    for c, o in configs.items():
        spec = ",".join(f"{k}={v}" for k, v in o.items())
        print(f"\n{c}: engine:seconds={args.seconds:g}{',' + spec if spec else ''}\n")
        print(format_report(reports[c]))


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def part(rs: list[dict[str, Any]]) -> dict[str, Any]:
        verdicts = Counter(r["verdict"] for r in rs)
        return {
            "positions": len(rs),
            "found": verdicts["found"],
            "found_pct": round(100 * verdicts["found"] / len(rs), 1) if rs else None,
            "wrong": verdicts["wrong"],
            "unverified": verdicts["unverified"],
            "engine_said_proven": sum(r["engine_proven"] == "win" for r in rs),
            "median_seconds": round(statistics.median(r["seconds"] for r in rs), 4) if rs else None,
            "max_seconds": round(max(r["seconds"] for r in rs), 3) if rs else None,
        }

    out: dict[str, Any] = {"all": part(rows), "boards": {}, "classes": {}}
    for spec in BOARDS:
        rs = [r for r in rows if r["game"] == spec]
        if rs:
            out["boards"][spec] = part(rs)
    for kind in sorted({r["class"] for r in rows}, key=_class_order):
        out["classes"][kind] = part([r for r in rows if r["class"] == kind])
    return out


def _class_order(kind: str) -> tuple[int, int]:
    if kind.startswith("vcf"):
        return (0, int(kind[3:]))
    return (1, 0) if kind == "vct" else (2, 0)


def format_report(report: dict[str, Any]) -> str:
    head = (
        "| part | positions | found | found % | wrong | unverified | engine said proven | median s | max s |"
    )
    lines = [head, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]

    def row(name: str, r: dict[str, Any]) -> str:
        return (
            f"| {name} | {r['positions']} | {r['found']} | {r['found_pct']} | {r['wrong']} | "
            f"{r['unverified']} | {r['engine_said_proven']} | {r['median_seconds']} | {r['max_seconds']} |"
        )

    lines.append(row("**all**", report["all"]))
    lines += [row(spec, r) for spec, r in report["boards"].items()]
    lines += [row(kind, r) for kind, r in report["classes"].items()]
    return "\n".join(lines)


def _options(text: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for part in filter(None, text.split(",")):
        key, _, value = part.partition("=")
        number = float(value)
        out[key.strip()] = int(number) if number.is_integer() and key.strip() != "proof" else number
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate", help="draw positions and keep the proved wins")
    g.add_argument("--seed", type=int, default=13)
    g.add_argument("--per-board", type=int, default=80, help="proved wins to keep per board (default 80)")
    g.add_argument("--max-draws", type=int, default=5000, help="positions drawn per board at most")
    g.add_argument("--nodes", type=int, default=None, help="proof budget per position (default: per board)")
    g.add_argument("--boards", nargs="+", choices=BOARDS, help="only these boards")
    g.add_argument(
        "--max-share",
        type=float,
        default=MAX_SHARE,
        help=f"most of a board's positions in one class ({MAX_SHARE})",
    )
    g.add_argument("--out", type=Path, default=SUITE)
    g.add_argument("--quick", action="store_true", help="five positions a board")
    r = sub.add_parser("run", help="give the engine each position and check its move")
    r.add_argument("--suite", type=Path, default=SUITE)
    r.add_argument("--seconds", type=float, default=1.0, help="the engine's time per move (default 1)")
    r.add_argument("--engine", type=_options, default={}, dest="engine_options",
                   help="other engine options, e.g. 'width=12,vcf=12'")  # fmt: skip
    r.add_argument("--verify-nodes", type=int, default=50_000, help="the proof budget of each check")
    r.add_argument(
        "--verify-again",
        type=int,
        default=400_000,
        help="the budget of a second check where the first ran out (0: none)",
    )
    r.add_argument(
        "--baseline",
        type=_options,
        default=None,
        help="also run the engine with these options, interleaved (e.g. 'vct=0,proof=0': the root without VCT and df-pn)",
    )
    r.add_argument("--boards", nargs="+", choices=BOARDS, help="only these boards")
    r.add_argument("--limit", type=int, default=0, help="at most this many positions a board (0: all)")
    r.add_argument("--out", type=Path, default=RESULTS)
    r.add_argument("--quick", action="store_true", help="five positions a board, no results file")
    args = parser.parse_args()
    if args.command == "generate":
        if args.quick:
            args.per_board = 5
            if args.out == SUITE:
                args.out = Path("/dev/null") if sys.platform != "win32" else Path("NUL")
        generate(args)
    else:
        if args.quick:
            args.limit = 5
            args.out = None
        run(args)


if __name__ == "__main__":
    main()
