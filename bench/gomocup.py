"""noughts against a Gomocup engine (Rapfi, or any program that speaks the protocol) on freestyle
gomoku, mnk(15,15,5), from balanced three-stone openings, each played with both colours.

    python bench/gomocup.py openings                      # writes bench/data/gomocup_openings.json
    python bench/gomocup.py profile [--agent engine] [--seconds 0.3 1] [--positions 8]
    python bench/gomocup.py match --engine PATH [--agent engine:seconds=1] [--engine-seconds 0.3 | --nodes N]
                                  [--games 20] [--records games.ntr] [--json result.json]

``openings``: three-stone openings near the centre (black on the centre, white and black within
two cells of it), one per symmetry class, each searched by noughts' engine from the side to
move (white) and kept when the engine sees neither side ahead (``|value| <= --balance``, no
proven result); the file names the command that made it.

``match``: game ``2i`` plays opening ``i`` with noughts as black (black placed stones 1 and 3;
white moves next), game ``2i+1`` the same opening with noughts as white, so colours and
openings interleave. The engine runs
as a separate process through the ``pbrain:`` agent (:mod:`noughts.agents.pbrain`), started in
its own folder, told the board, the freestyle rule and its time a move (``--engine-seconds``),
or limited by nodes (``--nodes N``: ``INFO max_node``, which Rapfi reads; its clock is then
``--engine-seconds``, default 10 s, as a guard). A crash, hang or illegal move is a forfeit.

``profile``: noughts' engine on middle-game positions (each opening played ``--plies`` further
by the engine at 0.05 s a move), searched ``--seconds`` each: the depth its alpha-beta finishes,
its nodes a second (alpha-beta nodes and leaf-VCF steps, as the clock counts them) and the share
of the time in the root's proof searches (VCF, VCT, df-pn) and in the alpha-beta.

Reported: the score of noughts with its 95% interval (Student's t over games) and the Elo
difference that interval implies, wins by colour, time overruns (a move answered after its
limit) and crashes per side, plies per game (the opening's three stones included), and every
game as a noughts record (``--records``) that ``noughts review`` opens.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from _common import command_line, finish
from noughts.agents import make_agent
from noughts.agents.base import AgentForfeit, decide
from noughts.arena.match import close_agents, elo_from_score, score_interval
from noughts.core import Outcome, Player, Position
from noughts.core import game as make_game

ROOT = Path(__file__).resolve().parent.parent
OPENINGS = ROOT / "bench" / "data" / "gomocup_openings.json"
GAME = "mnk(15,15,5)"


# -- openings -----------------------------------------------------------------------------------


def make_openings(args: argparse.Namespace) -> None:
    from noughts.agents.engine import EngineAgent

    game = make_game(GAME)
    rng = np.random.default_rng(args.seed)
    centre = game.board.cell_at((7, 7))
    assert centre is not None
    near = [c for c in range(game.board.num_cells) if max(abs(a - 7) for a in game.board.coords[c]) <= 2]
    engine = EngineAgent(args.seconds)
    engine.analyse(game.start().play(centre), 0.05)  # load the kernels before the clock matters
    seen: set[object] = set()
    kept: list[dict[str, Any]] = []
    tried = 0
    started = time.perf_counter()
    while len(kept) < args.count and tried < args.tries:
        white, black = rng.choice([c for c in near if c != centre], size=2, replace=False)
        position = game.start().play(centre).play(int(white)).play(int(black))
        key = position.canonical_key()
        if key in seen:
            continue
        seen.add(key)
        tried += 1
        r = engine.analyse(position, args.seconds)
        if r.proven is not None or abs(r.value) > args.balance:
            continue
        moves = [centre, int(white), int(black)]
        kept.append(
            {
                "moves": [game.format_move(m) for m in moves],
                "xy": [list(reversed(game.board.coords[m])) for m in moves],
                "white_value": round(r.value, 3),
                "depth": r.depth,
            }
        )
        print(
            f"{len(kept):3d}/{args.count}  {' '.join(kept[-1]['moves'])}  white {r.value:+.3f} (depth {r.depth})"
        )
    doc = {
        "format": "noughts-gomocup-openings",
        "version": 1,
        "command": " ".join(["python bench/gomocup.py openings", *sys.argv[2:]]),
        "game": GAME,
        "rule": "freestyle (Gomocup INFO rule 0)",
        "how": (
            "black on the centre h8, white then black on random cells within two of it (numpy PCG64 "
            f"seeded {args.seed}), one opening per symmetry class; kept when noughts' engine, searching "
            f"{args.seconds:g} s from white's side, finds no proven result and |value| <= {args.balance:g}"
        ),
        "tried": tried,
        "seconds": round(time.perf_counter() - started, 1),
        "openings": kept,
    }
    Path(args.out).write_text(json.dumps(doc, indent=1) + "\n")
    print(f"{len(kept)} openings of {tried} tried written to {args.out}")


# -- a match ------------------------------------------------------------------------------------


class Side:
    """One player of the bench: its agent, its per-move limit, what it did."""

    def __init__(self, label: str, spec: str):
        self.label, self.spec = label, spec
        self.agent = make_agent(spec)
        self.name = str(getattr(self.agent, "name", spec))
        self.limit = getattr(self.agent, "seconds", None)
        self.moves = 0
        self.overruns = 0
        self.slowest = 0.0
        self.times: list[float] = []
        self.depths: list[int] = []  # the engine's finished depth on the moves it searched (no proof)
        self.over: list[dict[str, Any]] = []  # the moves over the limit: game, ply, seconds
        self.forfeits: list[str] = []

    def summary(self) -> dict[str, Any]:
        return {
            "agent": self.name,
            "moves": self.moves,
            "limit_seconds": self.limit,
            "overruns": self.overruns,
            "slowest_seconds": round(self.slowest, 3),
            "median_seconds": round(statistics.median(self.times), 3) if self.times else None,
            "searched_moves": len(self.depths),
            "median_depth": statistics.median(self.depths) if self.depths else None,
            "over_limit": self.over,
            "forfeits": len(self.forfeits),
            "forfeit_reasons": self.forfeits,
        }


def play_one(
    game_index: int, opening: list[str], noughts_black: bool, sides: dict[str, Side], seed: int
) -> dict[str, Any]:
    game = make_game(GAME)
    position: Position = game.start()
    for text in opening:
        position = position.play(game.parse_move(text))
    # after the opening (black, white, black) white moves: black is the first player
    by_player = {
        Player.FIRST: sides["noughts" if noughts_black else "engine"],
        Player.SECOND: sides["engine" if noughts_black else "noughts"],
    }
    rng = np.random.default_rng([seed, game_index])
    moves = list(opening)
    termination = ""
    for side in by_player.values():  # a pbrain engine's process and START: not on a move's clock
        prepare = getattr(side.agent, "prepare", None)
        if callable(prepare):
            with contextlib.suppress(AgentForfeit):  # it forfeits again at its first move, counted there
                prepare(game)
    while not position.is_terminal():
        side = by_player[position.to_move]
        started = time.perf_counter()
        try:
            decision = decide(side.agent, position, rng)
        except AgentForfeit as e:
            side.forfeits.append(f"game {game_index}: {e}")
            termination = f"{side.label} forfeits: {e}"
            outcome = Outcome.win_for(position.to_move.other)
            break
        took = time.perf_counter() - started
        side.moves += 1
        side.times.append(took)
        side.slowest = max(side.slowest, took)
        last = getattr(side.agent, "last", None)  # noughts' engine: what its search reached
        if last is not None and getattr(last, "proven", "") is None and hasattr(last, "depth"):
            side.depths.append(int(last.depth))
        if side.limit is not None and took > side.limit:
            side.overruns += 1
            side.over.append({"game": game_index, "ply": len(moves) + 1, "seconds": round(took, 3)})
        moves.append(game.format_move(decision.move))
        position = position.play(decision.move)
    else:
        outcome = position.outcome()
        assert outcome is not None
    noughts_player = Player.FIRST if noughts_black else Player.SECOND
    score = 0.5 if outcome is Outcome.DRAW else 1.0 if outcome.winner is noughts_player else 0.0
    return {
        "index": game_index,
        "opening": opening,
        "noughts": "black" if noughts_black else "white",
        "black": by_player[Player.FIRST].name,
        "white": by_player[Player.SECOND].name,
        "outcome": outcome.value,
        "noughts_score": score,
        "plies": len(moves),
        "termination": termination,
        "moves": moves,
    }


def write_records(path: Path, played: list[dict[str, Any]], tags: dict[str, str]) -> None:
    from noughts.record import Line, Node, Record
    from noughts.record import write_records as write

    records = []
    for g in played:
        nodes = [Node(m, "the opening" if i == 2 else None) for i, m in enumerate(g["moves"])]
        game_tags = dict(tags, Round=str(g["index"] + 1), Opening=" ".join(g["opening"]))
        if g["termination"]:
            game_tags["Termination"] = g["termination"]
        records.append(
            Record(
                GAME,
                Line(tuple(nodes)),
                first=g["black"],
                second=g["white"],
                result=Outcome(g["outcome"]),
                tags=game_tags,
            )
        )
    path.write_text(write(records))


def run_match(args: argparse.Namespace) -> int:
    load = os.getloadavg()
    doc_openings = json.loads(Path(args.openings).read_text())
    openings = [o["moves"] for o in doc_openings["openings"]]
    if not openings:
        print(f"{args.openings} has no openings", file=sys.stderr)
        return 2
    engine_spec = f"pbrain:{args.engine},seconds={args.engine_seconds:g}"
    if args.nodes:
        engine_spec += f",nodes={args.nodes}"
    try:
        sides = {"noughts": Side("noughts", args.agent), "engine": Side("engine", engine_spec)}
    except Exception as e:  # a bad spec or path: one line, exit 2
        print(f"error: {e}", file=sys.stderr)
        return 2
    # load (or compile) noughts' kernels before its clock matters: a few plies of self-play
    warm = make_game(GAME).start()
    for text in openings[0]:
        warm = warm.play(warm.game.parse_move(text))
    helper = make_agent(args.agent)
    for _ in range(12):
        if warm.is_terminal():
            break
        warm = warm.play(decide(helper, warm, np.random.default_rng(0)).move)
    close_agents(helper)  # a pbrain agent's process
    played: list[dict[str, Any]] = []
    started = time.perf_counter()
    for i in range(args.start, args.start + args.games):
        opening = openings[(i // 2) % len(openings)]
        g = play_one(i, opening, i % 2 == 0, sides, args.seed)
        played.append(g)
        wins = sum(p["noughts_score"] == 1 for p in played)
        losses = sum(p["noughts_score"] == 0 for p in played)
        print(
            f"game {i + 1:3d}/{args.start + args.games}  noughts {g['noughts']:5s}  {' '.join(opening)}  "
            f"{g['outcome']:6s} in {g['plies']:3d} plies  (noughts {wins}-{losses})"
            + (f"  [{g['termination']}]" if g["termination"] else ""),
            flush=True,
        )
    elapsed = time.perf_counter() - started
    close_agents(*(side.agent for side in sides.values()))
    w = sum(p["noughts_score"] == 1 for p in played)
    d = sum(p["noughts_score"] == 0.5 for p in played)
    lo = sum(p["noughts_score"] == 0 for p in played)
    n = len(played)
    score = (w + d / 2) / n
    low, high = score_interval(w, d, lo)

    def elo(s: float) -> float | None:
        e = elo_from_score(s)
        return round(e) if abs(e) != float("inf") else None

    plies = [p["plies"] for p in played]
    doc: dict[str, Any] = {
        "benchmark": "gomocup",
        "command": command_line("bench/gomocup.py", None),
        "game": GAME,
        "noughts": sides["noughts"].name,
        "engine": sides["engine"].name,
        "engine_about": getattr(sides["engine"].agent, "about", ""),
        "games": n,
        "noughts_wins": w,
        "draws": d,
        "engine_wins": lo,
        "noughts_score": round(score, 4),
        "noughts_score_ci95": [round(low, 4), round(high, 4)],
        "elo_difference": elo(score),
        "elo_difference_ci95": [elo(low), elo(high)],
        "noughts_as_black": _colour(played, "black"),
        "noughts_as_white": _colour(played, "white"),
        "plies": {"median": statistics.median(plies), "min": min(plies), "max": max(plies)},
        "sides": {k: s.summary() for k, s in sides.items()},
        "seconds": round(elapsed, 1),
        "openings_file": str(Path(args.openings).resolve().relative_to(ROOT))
        if Path(args.openings).resolve().is_relative_to(ROOT)
        else str(args.openings),
    }
    print(
        f"\nnoughts {doc['noughts']} vs {doc['engine']}: {w} wins, {d} draws, {lo} losses in {n} games; "
        f"score {score:.1%} (95% CI {low:.1%}-{high:.1%}), Elo {_elo_text(doc)}"
    )
    for key, side in doc["sides"].items():
        print(
            f"  {key}: {side['moves']} moves, median {side['median_seconds']} s, slowest {side['slowest_seconds']} s, "
            f"{side['overruns']} over its limit ({side['limit_seconds']} s), {side['forfeits']} forfeits"
            + (
                f"; median depth {side['median_depth']} over the {side['searched_moves']} moves it searched (not proven)"
                if side["median_depth"] is not None
                else ""
            )
        )
    print(
        f"  plies per game: median {doc['plies']['median']}, {doc['plies']['min']} to {doc['plies']['max']}"
    )
    if args.records:
        tags = {
            "Event": "bench/gomocup.py",
            "TimeControl": f"noughts {sides['noughts'].name}; {sides['engine'].name}",
        }
        write_records(Path(args.records), played, tags)
        doc["records"] = str(args.records)
        print(f"  games written to {args.records} (noughts review {args.records} --game N)")
    doc["played"] = [{k: v for k, v in p.items() if k != "moves"} for p in played]
    return finish(doc, load, Path(args.json) if args.json else None)


def _colour(played: list[dict[str, Any]], colour: str) -> dict[str, int]:
    mine = [p for p in played if p["noughts"] == colour]
    return {
        "games": len(mine),
        "wins": sum(p["noughts_score"] == 1 for p in mine),
        "draws": sum(p["noughts_score"] == 0.5 for p in mine),
        "losses": sum(p["noughts_score"] == 0 for p in mine),
    }


def _elo_text(doc: dict[str, Any]) -> str:
    def show(e: float | None, sign: int) -> str:
        return ("+inf" if sign > 0 else "-inf") if e is None else f"{e:+d}"

    lo, hi = doc["elo_difference_ci95"]
    return f"{show(doc['elo_difference'], 1 if doc['noughts_score'] >= 0.5 else -1)} (95% CI {show(lo, -1)} to {show(hi, 1)})"


def pool(paths: list[str]) -> int:
    """The pooled result of runs of one pairing (split with ``--start``), from their JSON files."""
    docs = [json.loads(Path(p).read_text()) for p in paths]
    pairings = {(d["noughts"], d["engine"]) for d in docs}
    if len(pairings) != 1:
        print(f"error: the results are of different pairings: {sorted(pairings)}", file=sys.stderr)
        return 2
    games = sorted((g for d in docs for g in d["played"]), key=lambda g: g["index"])
    indices = [g["index"] for g in games]
    if len(set(indices)) != len(indices):
        print("error: the results share games (the same --start)", file=sys.stderr)
        return 2
    w = sum(g["noughts_score"] == 1 for g in games)
    d = sum(g["noughts_score"] == 0.5 for g in games)
    lo = sum(g["noughts_score"] == 0 for g in games)
    score = (w + d / 2) / len(games)
    low, high = score_interval(w, d, lo)
    elo = [elo_from_score(x) for x in (score, low, high)]
    plies = [g["plies"] for g in games]
    sides = {k: [doc["sides"][k] for doc in docs] for k in ("noughts", "engine")}
    noughts_name, engine_name = pairings.pop()
    print(f"noughts {noughts_name} vs {engine_name}, games {min(indices)}-{max(indices)} ({len(games)}):")
    print(
        f"  {w} wins, {d} draws, {lo} losses; score {score:.1%} (95% CI {low:.1%}-{high:.1%}); "
        f"Elo {elo[0]:+.0f} (95% CI {elo[1]:+.0f} to {elo[2]:+.0f})"
    )
    for key, runs in sides.items():
        print(
            f"  {key}: {sum(r['moves'] for r in runs)} moves, {sum(r['overruns'] for r in runs)} over its limit "
            f"(slowest {max(r['slowest_seconds'] for r in runs)} s), {sum(r['forfeits'] for r in runs)} forfeits"
        )
    print(f"  plies per game: median {statistics.median(plies)}, {min(plies)} to {max(plies)}")
    return 0


# -- where the engine's time goes ---------------------------------------------------------------


def profile(args: argparse.Namespace) -> int:
    """The engine's depth, rate and time shares on middle-game positions (see the docstring)."""
    from noughts.agents import _engine_kernel as K
    from noughts.agents.engine import EngineAgent

    game = make_game(GAME)
    openings = [o["moves"] for o in json.loads(Path(args.openings).read_text())["openings"]]
    filler = EngineAgent(0.05)
    positions: list[Position] = []
    for opening in openings[: args.positions]:
        position = game.start()
        for text in opening:
            position = position.play(game.parse_move(text))
        for _ in range(args.plies):
            if position.is_terminal():
                break
            position = position.play(filler.analyse(position, 0.05).move)
        if not position.is_terminal():
            positions.append(position)
    spent: dict[str, float] = {}
    nodes = [0]

    def timed(f: Any, key: str, count: bool = False) -> Any:
        def run(*a: Any) -> Any:
            t = time.perf_counter()
            try:
                return f(*a)
            finally:
                spent[key] = spent.get(key, 0.0) + time.perf_counter() - t
                if count:
                    nodes[0] += int(a[0][8][K.V_NODES])

        return run

    keep = K.root_window, K.root_vcf
    K.root_window = timed(K.root_window, "alpha-beta", count=True)  # type: ignore[assignment]
    K.root_vcf = timed(K.root_vcf, "VCF")  # type: ignore[assignment]
    rows = []
    try:
        for seconds in args.seconds:
            agent = make_agent(args.agent)  # each search below is given its seconds
            if not isinstance(agent, EngineAgent):
                print(f"error: --agent is an engine spec without seconds, not {args.agent}", file=sys.stderr)
                return 2
            agent._root_vct = timed(agent._root_vct, "VCT")  # type: ignore[method-assign]
            agent._root_proof = timed(agent._root_proof, "df-pn")  # type: ignore[method-assign]
            agent.analyse(positions[0], 0.2)  # the kernels load
            spent.clear()
            nodes[0] = 0
            depths, proven, total = [], 0, 0.0
            for position in positions:
                t = time.perf_counter()
                r = agent.analyse(position, seconds)
                total += time.perf_counter() - t
                if r.proven is None:
                    depths.append(r.depth)
                else:
                    proven += 1
            row = {
                "agent": agent.name,
                "seconds": seconds,
                "positions": len(positions),
                "proven": proven,
                "depths": sorted(depths),
                "median_depth": statistics.median(depths) if depths else None,
                "rate": round(nodes[0] / spent["alpha-beta"]) if spent.get("alpha-beta") else None,
                "shares": {k: round(v / total, 3) for k, v in sorted(spent.items())},
            }
            rows.append(row)
            shares = ", ".join(f"{k} {v:.0%}" for k, v in row["shares"].items())
            print(
                f"{agent.name} at {seconds:g} s: {len(positions)} positions, {proven} proven; depth median "
                f"{row['median_depth']} {row['depths']}; {row['rate']:,} nodes/s; time: {shares}"
            )
    finally:
        K.root_window, K.root_vcf = keep
    print(f"  load {os.getloadavg()[0]:.1f}")
    if args.json:
        Path(args.json).write_text(
            json.dumps({"command": command_line("bench/gomocup.py", None), "rows": rows}, indent=1) + "\n"
        )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    o = sub.add_parser("openings", help="make the balanced openings file")
    o.add_argument("--count", type=int, default=50)
    o.add_argument("--seconds", type=float, default=0.3, help="the engine's search of each candidate")
    o.add_argument("--balance", type=float, default=0.15, help="the largest |value| kept")
    o.add_argument("--seed", type=int, default=24)
    o.add_argument("--tries", type=int, default=400)
    o.add_argument("--out", default=str(OPENINGS))
    m = sub.add_parser("match", help="noughts against a Gomocup engine")
    m.add_argument("--engine", required=True, help="the engine's executable (e.g. pbrain-rapfi)")
    m.add_argument("--agent", default="engine:seconds=1", help="noughts' agent spec")
    m.add_argument(
        "--engine-seconds",
        type=float,
        default=None,
        help="the engine's time a move (default 1 s; 10 s with --nodes)",
    )
    m.add_argument("--nodes", type=int, default=0, help="the engine's node limit a move (INFO max_node)")
    m.add_argument("--games", type=int, default=20, help="games (pairs of colours over the openings)")
    m.add_argument(
        "--start",
        type=int,
        default=0,
        help="the first game's index (2i, 2i+1 play opening i): runs split and pooled",
    )
    m.add_argument("--openings", default=str(OPENINGS))
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--records", default=None, help="write the games to this record file")
    m.add_argument("--json", default=None, help="write the result to this JSON file")
    f = sub.add_parser("profile", help="the engine's depth, rate and time shares on middle-game positions")
    f.add_argument("--agent", default="engine", help="noughts' engine spec, without seconds")
    f.add_argument("--seconds", type=float, nargs="+", default=[0.3, 1.0])
    f.add_argument("--positions", type=int, default=8)
    f.add_argument("--plies", type=int, default=10, help="plies played past the opening")
    f.add_argument("--openings", default=str(OPENINGS))
    f.add_argument("--json", default=None)
    p = sub.add_parser("pool", help="the pooled score and Elo of several match results (their --json files)")
    p.add_argument("results", nargs="+")
    args = parser.parse_args()
    if args.command == "openings":
        make_openings(args)
        return 0
    if args.command == "pool":
        return pool(args.results)
    if args.command == "profile":
        return profile(args)
    if args.engine_seconds is None:
        args.engine_seconds = 10.0 if args.nodes else 1.0
    if args.games < 1:
        print("error: --games is at least 1", file=sys.stderr)
        return 2
    return run_match(args)


if __name__ == "__main__":
    sys.exit(main())
