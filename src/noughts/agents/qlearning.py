"""The Q-learning agent of the "RL Battle Arena" (003 §3.2), with its decision tiers.

A move is chosen by the first tier that decides:

1. **reflexes** (``reflexes=True``): a move that wins now; else one that blocks the opponent's
   win next move (the first such cell; 003 §3.2 tier 1);
2. **search** (``depth >= 1``): depth-limited minimax with alpha-beta over 003 §A.1's
   heuristic (centre, corners, line threats). Every root move gets its exact depth-limited
   score (each is searched with a full window), so moves tie only when their scores are
   really equal — 003's own search treats pruned bounds as scores and so "ties" losing moves
   with good ones;
3. **learned**: among the moves still tied, the highest ``Q(s, a)``; remaining ties (or an
   unvisited position) are broken at random (``tie_break="random"``) or by the first move.

With ``depth=0`` (the default) the agent plays what it learned (plus reflexes if asked),
which is what grading a learner should measure.

003's other components are options too, off by default (the ``paper`` arm of the ``arena``
experiment turns them all on):

* ``opening_book`` (003 §3.2 tier 1, §4.2): on boards of side >= 4, within the first three
  moves, the second player answers a first player holding a centre cell with a cell next to
  it, and otherwise takes a free centre cell (one of them at random);
* ``depth_rule="003"`` (003 §4.4): search to the end on 3x3 (depth 9) and ``min(depth, |A|)``
  plies on larger boards (003: ``depth=4``), ``depth_bonus`` more for the second player there;
* ``leaf_blend`` (003 §6.1: 0.1): leaves score ``h + leaf_blend * Q_avg``, ``Q_avg`` the mean
  learned value of the leaf's moves where the searching player moves there (its own values).

The search runs in :mod:`noughts.agents.qsearch` (``engine="kernel"``; the default
where it applies), held by the tests to the plain reference here (``engine="reference"``). 003's options that change the game or the
search are explicit and off by default: ``centre_ban`` (003 §6.4: never opens on the centre,
or the central 2x2 of an even board), ``iron_wall`` (003 §4.1, §A.1: the second player on a
board of side >= 4 weighs defence 2.0 and attack 0.2, and scores -200 while the opponent
holds a centre cell) and ``depth_bonus`` (003 §4.4: extra search depth for the second player
on boards of side >= 4; 003 uses 2).

>>> import noughts, numpy as np
>>> g = noughts.game("tictactoe")
>>> agent = QAgent(g, None, reflexes=True)   # no table: reflexes and random ties only
>>> g.format_move(agent.choose(g.parse("xx./oo./..."), np.random.default_rng(0)))
'c1'
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from noughts.agents.base import read_options
from noughts.agents.saved import saved_game
from noughts.core import Game, Move, NoughtsError, Outcome, Player, Position, Rule
from noughts.core import game as make_game

__all__ = [
    "DEPTH_RULES",
    "KIND",
    "HybridAgent",
    "QAgent",
    "QTable",
    "centre_cells",
    "check_q_game",
    "corner_cells",
    "from_arena",
    "from_options",
    "from_saved",
    "heuristic",
    "search_order",
]

KIND = "qlearning"
TIE_BREAKS = ("random", "first")
DEPTH_RULES = ("fixed", "003")
ENGINES = ("auto", "kernel", "reference")
_WIN = 1_000_000.0


def centre_cells(game: Game) -> list[int]:
    """The cells 003 §6.4's centre ban forbids on the first move: the centre of a board with an
    odd side, the central 2x2 block of one with an even side (on every axis, the one or two
    middle coordinates).
    """
    board = game.board
    wanted = [{(g - 1) // 2, g // 2} for g in board.grid]
    return [
        c for c, coord in enumerate(board.coords) if all(x in w for x, w in zip(coord, wanted, strict=True))
    ]


def corner_cells(game: Game) -> list[int]:
    """The corner cells of the board (003 §A.1's ``K``): every coordinate at an end."""
    return _corner_cells(game)


def _corner_cells(game: Game) -> list[int]:
    board = game.board
    return [
        c
        for c, coord in enumerate(board.coords)
        if all(x in (0, g - 1) for x, g in zip(coord, board.grid, strict=True))
    ]


def search_order(game: Game) -> list[int]:
    """The cells in 003 §6.2's search order: by distance from the board's centre (sum over the
    axes), then by index.
    """
    board = game.board
    mid = [(g - 1) / 2 for g in board.grid]
    return sorted(
        range(board.num_cells),
        key=lambda c: (sum(abs(x - m) for x, m in zip(board.coords[c], mid, strict=True)), c),
    )


def check_q_game(game: Game) -> Game:
    """``game`` if the tabular Q-learner takes it (standard or misère rules, <= 32 cells)."""
    if game.claim_rule not in (Rule.STANDARD, Rule.MISERE):
        raise NoughtsError(f"the Q-learner plays standard or misère claim games, not {game}")
    if game.board.num_cells > 32:
        raise NoughtsError(
            f"the Q-learner keys positions by 64-bit bit boards: {game} has more than 32 cells"
        )
    return game


@dataclass
class QTable:
    """Q-values by position index: ``keys[i]`` is position i's bit key
    (``first | second << cells``), ``q[i, a]`` its values; ``size`` positions are in use.
    """

    cells: int
    keys: npt.NDArray[np.int64]
    q: npt.NDArray[np.float64]
    size: int

    @classmethod
    def empty(cls, cells: int, capacity: int = 1024) -> QTable:
        return cls(cells, np.zeros(capacity, dtype=np.int64), np.zeros((capacity, cells)), 0)

    def lookup(self) -> dict[int, int]:
        """``{key: index}``."""
        return {int(self.keys[i]): i for i in range(self.size)}

    def trimmed(self) -> QTable:
        return QTable(self.cells, self.keys[: self.size].copy(), self.q[: self.size].copy(), self.size)


class _Heuristic:
    """003 §A.1: ``H(s, p) = 50 centre + 10 corners + threats`` with its threat table."""

    def __init__(self, game: Game):
        board = game.board
        self.masks = board.line_masks
        self.k = len(board.lines[0])
        self.centre = sum(1 << c for c in centre_cells(game))
        self.corners = sum(1 << c for c in _corner_cells(game))
        self.large = min(board.grid) >= 4

    def __call__(self, mine: int, theirs: int, iron_wall: bool) -> float:
        k = self.k
        attack = defence = 0.0
        for m in self.masks:
            a = (mine & m).bit_count()
            b = (theirs & m).bit_count()
            if b == 0:
                if a == k:
                    attack += 10_000
                elif a == k - 1:
                    attack += 10
                elif a == k - 2 and a > 0:
                    attack += 4
            elif a == 0:
                if b == k - 1:
                    defence -= 8_000
                elif b == k - 2 and b > 0:
                    defence -= 400
        centre = (mine & self.centre).bit_count() - (theirs & self.centre).bit_count()
        corners = (mine & self.corners).bit_count()
        score = 50.0 * centre + 10.0 * corners
        if iron_wall:
            score += 0.2 * attack + 2.0 * defence
            if theirs & self.centre:
                score -= 200.0
        else:
            score += attack + defence
        return score


def heuristic(position: Position, player: int, *, iron_wall: bool = False) -> float:
    """003 §A.1's evaluation of ``position`` for ``player`` (0 first, 1 second)."""
    h = _Heuristic(position.game)
    masks = position.cell_masks()
    return h(masks[player], masks[1 - player], iron_wall)


class QAgent:
    """Plays by reflexes, search and learned Q-values; see the module docstring.

    ``table`` is a :class:`noughts.learn.qlearning.QTable` (or None: no learned values).
    """

    def __init__(
        self,
        game: Game,
        table: Any,
        *,
        reflexes: bool = False,
        depth: int = 0,
        centre_ban: bool = False,
        iron_wall: bool = False,
        depth_bonus: int = 0,
        tie_break: str = "random",
        training: Mapping[str, Any] | None = None,
        opening_book: bool = False,
        depth_rule: str = "fixed",
        leaf_blend: float = 0.0,
        engine: str = "auto",
    ):
        self.game = check_q_game(game)
        if tie_break not in TIE_BREAKS:
            raise NoughtsError(f"tie_break is 'random' or 'first', not {tie_break!r}")
        if depth < 0 or depth_bonus < 0:
            raise NoughtsError("depth and depth_bonus are 0 or more")
        if depth_rule not in DEPTH_RULES:
            raise NoughtsError(f"depth_rule is one of {', '.join(DEPTH_RULES)}, not {depth_rule!r}")
        if engine not in ENGINES:
            raise NoughtsError(f"engine is one of {', '.join(ENGINES)}, not {engine!r}")
        if not (math.isfinite(leaf_blend) and leaf_blend >= 0):
            raise NoughtsError(f"leaf_blend is a number >= 0, not {leaf_blend}")
        searches = bool(depth or depth_bonus or iron_wall or depth_rule != "fixed")
        if searches and game.claim_rule is not Rule.STANDARD:
            raise NoughtsError(f"the search tier's heuristic is written for standard rules, not {game}")
        if table is None:
            table = QTable.empty(game.board.num_cells, 0)
        if table.cells != game.board.num_cells:
            raise NoughtsError(
                f"the table has {table.cells} actions per position; {game} has {game.board.num_cells}"
            )
        self.table = table
        self._index = table.lookup()
        self.reflexes = reflexes
        self.depth = depth
        self.centre_ban = centre_ban
        self.iron_wall = iron_wall
        self.depth_bonus = depth_bonus
        self.tie_break = tie_break
        self.training = dict(training or {})
        self.opening_book = opening_book
        self.depth_rule = depth_rule
        self.leaf_blend = float(leaf_blend)
        self.engine = engine
        self._banned = set(centre_cells(game)) if centre_ban else set()
        self._heuristic = _Heuristic(game) if searches else None
        self._kernel: Any = None
        self.name = "qlearning"

    def options(self) -> dict[str, Any]:
        return {
            "reflexes": self.reflexes,
            "depth": self.depth,
            "centre_ban": self.centre_ban,
            "iron_wall": self.iron_wall,
            "depth_bonus": self.depth_bonus,
            "tie_break": self.tie_break,
            "opening_book": self.opening_book,
            "depth_rule": self.depth_rule,
            "leaf_blend": self.leaf_blend,
        }

    # -- tiers ----------------------------------------------------------------------------------

    def legal_moves(self, position: Position) -> list[int]:
        """The moves the agent considers: ``legal_moves()``, less the centre on an empty board
        when ``centre_ban`` is on.
        """
        moves: list[int] = position.legal_moves()  # type: ignore[assignment]
        if self._banned and position.occupied() == 0:
            kept = [m for m in moves if m not in self._banned]
            moves = kept or moves
        return moves

    def q_values(self, position: Position) -> npt.NDArray[np.float64] | None:
        """The learned row ``Q(position, .)``, or None if training never visited it."""
        b0, b1 = position.cell_masks()
        i = self._index.get(b0 | (b1 << self.game.board.num_cells))
        return None if i is None else self.table.q[i]

    def reflex_move(self, position: Position, moves: list[int]) -> int | None:
        """The reflex tier (003 §3.2): the first of ``moves`` that wins now, else the first
        that blocks the opponent's win next move, else None.
        """
        return self._reflex(position, moves)

    def _reflex(self, position: Position, moves: list[int]) -> int | None:
        masks = self.game.board.masks_through
        me = int(position.to_move)
        for player in (me, 1 - me):
            bits = position.cell_masks()[player]
            for m in moves:
                b = bits | (1 << m)
                if any(b & line == line for line in masks[m]):
                    return m
        return None

    def book_moves(self, position: Position, moves: list[int]) -> list[int]:
        """003 §4.2's opening book (the tier-1 reflex of §3.2): on boards of side >= 4, in the
        first three moves, the second player plays next to a centre cell the first player holds
        (the first such cell), else a free centre cell; empty when the book has no answer.
        """
        board = self.game.board
        if min(board.grid) < 4 or position.to_move != 1 or position.occupied().bit_count() > 2:
            return []
        opponent = position.owned(Player.FIRST)
        held = [c for c in centre_cells(self.game) if opponent >> c & 1]
        if held:
            here = board.coords[held[0]]
            near = [
                m for m in moves if max(abs(a - b) for a, b in zip(board.coords[m], here, strict=True)) == 1
            ]
            if near:
                return near
        return [m for m in moves if m in centre_cells(self.game)]

    def search_depth(self, position: Position, moves: list[int]) -> int:
        """The search depth at ``position``: ``depth`` (or 003's rule, see the module
        docstring), plus ``depth_bonus`` for the second player on boards of side >= 4.
        """
        side = min(self.game.board.grid)
        bonus = self.depth_bonus if (position.to_move == 1 and side >= 4) else 0
        if self.depth_rule == "003":
            return (9 if side <= 3 else min(self.depth, len(moves))) + bonus
        return self.depth + bonus

    def _search_depth(self, position: Position) -> int:
        return self.search_depth(position, self.legal_moves(position))

    def _iron(self, mover: int) -> bool:
        return self.iron_wall and mover == 1 and min(self.game.board.grid) >= 4

    def root_scores(self, position: Position, moves: list[int], depth: int) -> list[float]:
        """The exact depth-limited minimax score of each move for the mover (003 §A.1; leaves
        blended with the learned values by ``leaf_blend``, 003 §6.1): the reference.
        """
        me = int(position.to_move)
        iron = self._iron(me)
        return [self._value(position.play(m), depth - 1, -math.inf, math.inf, me, iron) for m in moves]

    def best_moves(self, position: Position, moves: list[int], depth: int) -> list[int]:
        """The moves of ``moves`` with the greatest :meth:`root_scores` (the search tier's
        answer), from the kernel where it applies, else from the reference.
        """
        if self._use_kernel():
            return self._kernel_best(position, moves, depth)
        scores = self.root_scores(position, moves, depth)
        top = max(scores)
        return [m for m, s in zip(moves, scores, strict=True) if s == top]

    def _use_kernel(self) -> bool:
        if self.engine == "reference":
            return False
        fits = self.game.board.num_cells <= 32
        if self.engine == "kernel" and not fits:
            raise NoughtsError(f"the search kernel plays boards of up to 32 cells, not {self.game}")
        return fits

    def _kernel_best(self, position: Position, moves: list[int], depth: int) -> list[int]:
        from noughts.agents import qsearch as hk

        if self._kernel is None:
            board = self.game.board
            cells = board.num_cells
            through, nthrough = board.tables.through_bits, board.tables.nthrough
            n = int(self.table.size)
            keys = np.ascontiguousarray(self.table.keys[:n], dtype=np.int64)
            size = 1 << max(1, (2 * n + 1).bit_length())
            self._kernel = {
                "cells": cells,
                "full": np.uint64((1 << cells) - 1),
                "order": np.array(search_order(self.game), dtype=np.int64),
                "masks": np.array(board.line_masks, dtype=np.uint64),
                "k": len(board.lines[0]),
                "centre": np.uint64(sum(1 << c for c in centre_cells(self.game))),
                "corners": np.uint64(sum(1 << c for c in corner_cells(self.game))),
                "through": through,
                "nthrough": nthrough,
                "keys": keys,
                "q": np.ascontiguousarray(self.table.q[:n], dtype=np.float64).reshape(n, cells),
                "slots": hk.build_slots(keys, n, size) if n else np.zeros(0, dtype=np.int64),
                "nodes": np.zeros(1, dtype=np.int64),
            }
        kd = self._kernel
        me = int(position.to_move)
        allowed = sum(1 << m for m in moves)
        bits = hk.tied_best(
            np.uint64(position.owned(Player(me))), np.uint64(position.owned(Player(1 - me))), me, depth, np.uint64(allowed),
            kd["cells"], kd["full"], kd["order"], kd["masks"], kd["k"], kd["centre"], kd["corners"],
            self._iron(me), kd["through"], kd["nthrough"], kd["keys"], kd["q"], kd["slots"], self.leaf_blend,
            kd["nodes"],
        )  # fmt: skip
        return [m for m in moves if int(bits) >> m & 1]

    def _leaf(self, position: Position, me: int, iron: bool) -> float:
        assert self._heuristic is not None
        h = self._heuristic(position.owned(Player(me)), position.owned(Player(1 - me)), iron)
        if self.leaf_blend > 0 and position.to_move == me:
            row = self.q_values(position)
            if row is not None:
                moves: list[int] = position.legal_moves()  # type: ignore[assignment]
                q_avg = sum((float(row[m]) for m in moves), 0.0) / len(moves)
                return h + self.leaf_blend * q_avg
        return h

    def _value(self, position: Position, depth: int, alpha: float, beta: float, me: int, iron: bool) -> float:
        outcome = position.outcome()
        if outcome is not None:
            if outcome is Outcome.DRAW:
                return 0.0
            return (_WIN + depth) if outcome.winner == me else -(_WIN + depth)
        if depth <= 0:
            return self._leaf(position, me, iron)
        maximise = position.to_move == me
        best = -math.inf if maximise else math.inf
        for m in position.legal_moves():
            v = self._value(position.play(m), depth - 1, alpha, beta, me, iron)
            if maximise:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if beta <= alpha:
                break
        return best

    def candidates(self, position: Position) -> list[int]:
        """The moves the tiers leave at ``position`` (in ``legal_moves()`` order): the agent
        plays one of them uniformly at random (or the first, with ``tie_break="first"``).
        """
        if position.game != self.game:
            raise NoughtsError(f"this agent plays {self.game}, not {position.game}")
        moves = self.legal_moves(position)
        if not moves:
            raise NoughtsError("the game is over: there is no move to choose")
        if self.reflexes:
            reflex = self._reflex(position, moves)
            if reflex is not None:
                return [reflex]
        if self.opening_book:
            book = self.book_moves(position, moves)
            if book:
                return book
        depth = self.search_depth(position, moves)
        if depth > 0 and len(moves) > 1:
            moves = self.best_moves(position, moves, depth)
        row = self.q_values(position)
        if row is not None and len(moves) > 1:
            best = max(row[m] for m in moves)
            moves = [m for m in moves if row[m] == best]
        return moves

    def choose(self, position: Position, rng: np.random.Generator) -> Move:
        moves = self.candidates(position)
        if self.tie_break == "first" or len(moves) == 1:
            return moves[0]
        return moves[int(rng.integers(len(moves)))]

    # -- saving ---------------------------------------------------------------------------------

    def check_game(self, game: Game) -> None:
        """``NoughtsError`` unless ``game`` is the game this agent's table was learned on."""
        if game != self.game:
            raise NoughtsError(f"this Q-agent was trained on {self.game}; it cannot play {game}")

    def to_saved(self) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
        """JSON metadata and arrays (``keys``, ``q``) for :func:`noughts.agents.saved.save_agent`."""
        meta = {
            "kind": KIND,
            "game": str(self.game),
            "options": self.options(),
            "positions": int(self.table.size),
            "key": "first_bits | second_bits << cells",
            "training": self.training,
        }
        arrays = {
            "keys": np.asarray(self.table.keys[: self.table.size], dtype=np.int64).copy(),
            "q": np.asarray(self.table.q[: self.table.size], dtype=np.float64).copy(),
        }
        return meta, arrays

    def __repr__(self) -> str:
        return f"QAgent({str(self.game)!r}, positions={self.table.size}, {self.options()})"


def _tier_options(options: Mapping[str, Any]) -> dict[str, Any]:
    return read_options(
        "qlearning",
        options,
        {
            "reflexes": bool,
            "depth": int,
            "centre_ban": bool,
            "iron_wall": bool,
            "depth_bonus": int,
            "tie_break": str,
            "opening_book": bool,
            "depth_rule": str,
            "leaf_blend": float,
        },
    )


class HybridAgent:
    """003's tiers with no learned values, for any standard claim game: the agent of a spec like
    ``qlearning:reflexes=true,depth=2`` (a :class:`QAgent` with an empty table per game met).
    ``qlearning:depth=1`` is 003's "greedy heuristic" player (§9.2's baseline).
    """

    def __init__(self, **options: Any):
        self.options = _tier_options(options)
        self._agents: dict[Game, QAgent] = {}
        shown = ",".join(f"{k}={str(v).lower()}" for k, v in self.options.items())
        self.name = "qlearning" + (f":{shown}" if shown else "")

    def check_game(self, game: Game) -> None:
        """``NoughtsError`` unless these tiers can play ``game``."""
        self.agent_for(game)

    def agent_for(self, game: Game) -> QAgent:
        agent = self._agents.get(game)
        if agent is None:
            agent = self._agents[game] = QAgent(game, None, **self.options)
        return agent

    def choose(self, position: Position, rng: np.random.Generator) -> Move:
        return self.agent_for(position.game).choose(position, rng)


def from_options(**options: str) -> HybridAgent:
    """The agent of a spec ``qlearning:reflexes=true,depth=2,...`` (see :class:`HybridAgent`)."""
    return HybridAgent(**options)


def from_saved(meta: Mapping[str, Any], arrays: Mapping[str, npt.NDArray[Any]]) -> QAgent:
    """A :class:`QAgent` from saved metadata and arrays, validated (``NoughtsError`` if bad)."""
    game = saved_game(meta, "Q-agent")
    cells = game.board.num_cells
    for name in ("keys", "q"):
        if name not in arrays:
            raise NoughtsError(f"a saved Q-agent has a {name!r} array")
    keys, q = np.asarray(arrays["keys"]), np.asarray(arrays["q"])
    if keys.ndim != 1 or keys.dtype.kind not in "iu":
        raise NoughtsError("'keys' of a saved Q-agent is a one-dimensional integer array")
    if q.ndim != 2 or q.shape != (keys.shape[0], cells) or q.dtype.kind != "f":
        raise NoughtsError(f"'q' of a saved Q-agent is a float array of shape ({keys.shape[0]}, {cells})")
    if not np.all(np.isfinite(q)):
        raise NoughtsError("the Q-values of a saved Q-agent must be finite")
    keys = keys.astype(np.int64)
    if cells > 32 or np.any(keys < 0) or np.any(keys >> (2 * cells)):
        raise NoughtsError("a saved Q-agent's keys are not bit boards of this game")
    first, second = keys & ((1 << cells) - 1), keys >> cells
    if np.any(first & second):
        raise NoughtsError("a saved Q-agent's keys claim a cell for both players")
    if np.unique(keys).shape[0] != keys.shape[0]:
        raise NoughtsError("a saved Q-agent lists a position twice")
    options = meta.get("options") or {}
    if not isinstance(options, dict):
        raise NoughtsError("'options' of a saved Q-agent is an object")
    training = meta.get("training") or {}
    if not isinstance(training, dict):
        raise NoughtsError("'training' of a saved Q-agent is an object")
    table = QTable(cells, keys, q.astype(np.float64), int(keys.shape[0]))
    return QAgent(game, table, training=training, **_tier_options(options))


def from_arena(snapshot: Any, **options: Any) -> QAgent:
    """A :class:`QAgent` from a 003 §7.3 arena snapshot, as read (and validated) by
    :func:`noughts.agents.saved.load_arena_zip`.

    The game is ``mnk(grid, grid, win_length)``. Agent 1 of the arena moves first (its mark 1 is
    x), agent 2 second (mark 2, or -1 in some versions). The two Q-tables merge into one: an
    entry is kept from the agent whose turn it is in that position; entries for positions no
    game reaches (mark counts that do not alternate) are refused. ``options`` set the tiers.
    """
    grid, k = int(snapshot.grid_size), int(snapshot.win_length)
    game = make_game(f"mnk({grid},{grid},{k})")
    cells = grid * grid
    check_q_game(game)
    rows: dict[int, npt.NDArray[np.float64]] = {}
    skipped = 0
    for player, arena_agent in enumerate(snapshot.agents):
        for (board, (row, col)), value in arena_agent.q.items():
            b0 = sum(1 << c for c, mark in enumerate(board) if mark == 1)
            b1 = sum(1 << c for c, mark in enumerate(board) if mark in (2, -1))
            n0, n1 = b0.bit_count(), b1.bit_count()
            if n0 - n1 not in (0, 1):
                raise NoughtsError(
                    f"arena agent {player + 1} has a Q-value for a board no game reaches ({n0} x, {n1} o)"
                )
            if (0 if n0 == n1 else 1) != player:
                skipped += 1  # a position where the other agent moves: not this agent's decision
                continue
            key = b0 | (b1 << cells)
            row_values = rows.get(key)
            if row_values is None:
                row_values = rows[key] = np.zeros(cells)
            row_values[row * grid + col] = value
    keys = np.array(sorted(rows), dtype=np.int64)
    q = np.array([rows[int(key)] for key in keys], dtype=np.float64).reshape(len(keys), cells)
    table = QTable(cells, keys, q, int(keys.shape[0]))
    training = {
        "imported_from": "003 arena snapshot",
        "config": {k2: v for k2, v in snapshot.config.items() if isinstance(v, (int, float, str, bool))},
        "skipped_entries": skipped,
    }
    return QAgent(game, table, training=training, **_tier_options(options))
