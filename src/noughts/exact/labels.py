"""Who can force what: each position labelled F, S or D by retrograde analysis (004 §1.3, §4).

A position is labelled by its game value under perfect play: **first** (004's F: the first
player can force a win), **second** (the second player can force a win) or **draw** (neither
can; 004's D, introduced for misère in §4.2). 004's two-way labels for standard tic-tac-toe
(§1.3, §4.1) put draws with second-player wins: its S means "the second player can at least
draw", i.e. not F; :meth:`LabelResult.first_or_not` gives that split.

The values come from a backward pass over the same DAG of positions that counting walks
(:mod:`noughts.exact.count`): finished positions get their outcome, then every earlier
position the best of its children for the side to move, ply by ply back to the start. This
is a retrograde analysis independent of the search engine, and a second check on it. Values
are integers from the first player's point of view (:func:`retrograde_values`): a first-player
win in n plies is ``WIN - n``, a second-player win ``-(WIN - n)``, a draw 0; under scoring
rules (cumulative) the optimal final score difference, first minus second.

Labels are counted twice: over distinct positions, and over game-tree nodes (each position
weighted by the number of move sequences reaching it). 004's "positions" are tree nodes: its
MATLAB program stores one matrix per node of the game tree (549,946 for 3x3).

For veto games, ``tree="turns"`` counts 004 §4.3's tree instead of the tree of moves: its
nodes are the boards at the start of each turn (before the veto), reached by sequences of
claims (vetoes are not moves of that tree), and the last empty cell is never claimed because
it is always vetoed; each node is labelled by the value of the veto game at that point.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from noughts.core import Game, Player, Position
from noughts.core import game as make_game
from noughts.core.budget import Budget
from noughts.core.values import WIN
from noughts.exact import _count_kernels as kernels
from noughts.exact.count import Plies, Progress, checked_progress, reference_levels

__all__ = ["LABELS", "LabelResult", "fast_values", "label_of", "labels", "retrograde_values"]

LABELS = ("first", "second", "draw")
"""The three labels: 004's F, S and D."""

Tree = Literal["moves", "turns"]
Method = Literal["auto", "reference", "fast"]


def label_of(value: int) -> str:
    """The label of a first-player-view value: ``first``, ``second`` or ``draw``."""
    return "first" if value > 0 else "second" if value < 0 else "draw"


@dataclass(frozen=True)
class LabelResult:
    """How many positions, and how many game-tree nodes, carry each label.

    ``positions_by_label`` counts distinct positions; ``tree_nodes_by_label`` counts nodes of
    the game tree (positions weighted by the number of paths reaching them). ``start`` is the
    label of the starting position. ``tree`` is ``moves`` (every move is an edge) or ``turns``
    (004 §4.3's tree of a veto game; see the module docstring).
    """

    game: str
    tree: str
    start: str
    positions: int
    positions_by_label: dict[str, int]
    tree_nodes: int
    tree_nodes_by_label: dict[str, int]
    method: str
    seconds: float

    def first_or_not(self, weighted: bool = True) -> dict[str, int]:
        """004's two-way labels (§1.3, §4.1, §4.3): ``F`` where the first player can force a
        win and ``S`` (the second player can at least draw) elsewhere; over tree nodes, or over
        distinct positions with ``weighted=False``.
        """
        counts = self.tree_nodes_by_label if weighted else self.positions_by_label
        return {"F": counts["first"], "S": counts["second"] + counts["draw"]}

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "tree": self.tree,
            "start": self.start,
            "positions": self.positions,
            "positions_by_label": dict(self.positions_by_label),
            "tree_nodes": self.tree_nodes,
            "tree_nodes_by_label": dict(self.tree_nodes_by_label),
            "method": self.method,
            "seconds": round(self.seconds, 6),
        }


def labels(
    game: str | Game,
    *,
    budget: Budget | None = None,
    tree: Tree = "moves",
    progress: Progress | None = None,
    method: Method = "auto",
) -> LabelResult:
    """Label every reachable position of ``game`` F, S or D and count the labels (see the
    module docstring). ``method`` chooses the plain reference over positions, the vectorised
    kernels (claim games on at most 64 cells) or, with ``auto``, the kernels where they apply.
    ``progress`` (:data:`noughts.exact.count.Progress`) is called once the labelling is done.

    004 §4.1's figures for 3x3 tic-tac-toe, F against not-F over the 549,946 tree nodes:

    >>> labels("tictactoe").first_or_not()
    {'F': 269056, 'S': 280890}
    """
    g = make_game(game)
    budget = Budget() if budget is None else budget
    progress = checked_progress(progress)
    started = time.perf_counter()
    if tree == "turns":
        if not g.has_veto_step:
            raise ValueError(f"tree='turns' is 004's tree of a veto game; {g} has no veto step")
        counted = _veto_turns(g, budget)
        name = "reference"
    elif tree != "moves":
        raise ValueError(f"tree must be 'moves' or 'turns', not {tree!r}")
    else:
        fast = kernels.supports(g)
        if method == "fast" and not fast:
            raise ValueError(
                f"the fast labeller handles standard, misere, maker_breaker and cumulative games, not {g}"
            )
        if method == "reference" or (method == "auto" and not fast):
            counted = _reference_counts(g, budget, progress)
            name = "reference"
        elif method in ("auto", "fast"):
            counted = _fast_counts(g, budget, progress)
            name = "fast"
        else:
            raise ValueError(f"method must be 'auto', 'reference' or 'fast', not {method!r}")
    start, by_position, by_node = counted
    return LabelResult(
        game=str(g),
        tree=tree,
        start=start,
        positions=sum(by_position.values()),
        positions_by_label=by_position,
        tree_nodes=sum(by_node.values()),
        tree_nodes_by_label=by_node,
        method=name,
        seconds=time.perf_counter() - started,
    )


# -- the reference: a backward pass over Position values ----------------------------------------


def _terminal_value(position: Position, scored: bool) -> int:
    if scored:
        score = position.score()
        assert score is not None
        return score[0] - score[1]
    winner = position.outcome().winner  # type: ignore[union-attr]
    return 0 if winner is None else WIN if winner is Player.FIRST else -WIN


def _one_ply_earlier(value: int, scored: bool) -> int:
    """A child's value seen one ply earlier: the same win or loss, one ply further away."""
    if scored or value == 0:
        return value
    return value - 1 if value > 0 else value + 1


def retrograde_values(
    game: str | Game, *, budget: Budget | None = None, levels: Iterable[dict[Position, int]] | None = None
) -> dict[Position, int]:
    """The value of every reachable position of ``game``, from the first player's point of
    view (see the module docstring), by a backward pass over the DAG of positions. The plain
    reference over the public position API.
    """
    g = make_game(game)
    budget = Budget() if budget is None else budget
    scored = g.properties.is_scored
    stored = list(reference_levels(g, budget, what="labelled") if levels is None else levels)
    values: dict[Position, int] = {}
    for level in reversed(stored):
        for pos in level:
            if pos in values:
                continue
            if pos.is_terminal():
                values[pos] = _terminal_value(pos, scored)
                continue
            children = [_one_ply_earlier(values[pos.play(m)], scored) for m in pos.legal_moves()]
            if not children:
                raise ValueError(f"{g}: the running position {pos.text()!r} has no legal move")
            values[pos] = max(children) if pos.to_move is Player.FIRST else min(children)
        budget.check(memory=400 * len(values), progress=f"labelled {len(values):,} positions of {g}")
    return values


def _reference_counts(
    game: Game, budget: Budget, progress: Progress | None
) -> tuple[str, dict[str, int], dict[str, int]]:
    stored = list(reference_levels(game, budget, what="labelled"))
    values = retrograde_values(game, budget=budget, levels=stored)
    Plies(progress, 1).step("labelled")
    by_position = dict.fromkeys(LABELS, 0)
    by_node = dict.fromkeys(LABELS, 0)
    for level in stored:
        for pos, paths in level.items():
            label = label_of(values[pos])
            by_position[label] += 1
            by_node[label] += paths
    return label_of(values[game.start()]), by_position, by_node


def _veto_turns(game: Game, budget: Budget) -> tuple[str, dict[str, int], dict[str, int]]:
    """004 §4.3's tree: claim sequences of the inner game, the last empty cell never claimed,
    each board labelled by the veto game's value at the start of that turn.
    """
    values = retrograde_values(game, budget=budget)
    # the start of a turn: a veto step, or a game a claim has just finished (not a stalled one,
    # which keeps its forbidden cell)
    at_turn = {
        p.cell_masks(): v
        for p, v in values.items()
        if game.is_veto_step(p) or (p.is_terminal() and game.forbidden_cell(p) is None)
    }
    full = game.board.full_mask
    by_position = dict.fromkeys(LABELS, 0)
    by_node = dict.fromkeys(LABELS, 0)
    level = {game.inner_position(game.start()): 1}
    while level:
        nxt: dict[Position, int] = {}
        for pos, paths in level.items():
            label = label_of(at_turn[pos.cell_masks()])
            by_position[label] += 1
            by_node[label] += paths
            empty = full & ~pos.occupied()
            if pos.is_terminal() or empty.bit_count() < 2:
                continue  # finished, or stalled: the last empty cell is always vetoed
            for move in pos.legal_moves():
                child = pos.play(move)
                nxt[child] = nxt.get(child, 0) + paths
        level = nxt
    return label_of(at_turn[0, 0]), by_position, by_node


# -- the fast path: claim games as arrays ----------------------------------------------------------


def fast_values(
    game: str | Game, *, budget: Budget | None = None
) -> list[tuple[kernels.Level, npt.NDArray[np.int32]]]:
    """The levels of a claim game (see :mod:`noughts.exact._count_kernels`) with the value of
    each position, from the first player's point of view, by the same backward pass as
    :func:`retrograde_values` done on arrays.
    """
    g = make_game(game)
    budget = Budget() if budget is None else budget
    dag = kernels.ClaimDag(g)
    stored: list[kernels.Level] = []
    held = 0
    for level in dag.levels(keep_edges=True):
        if stored:
            held += stored[-1].nbytes  # its edges are filled now
        stored.append(level)
        budget.check(memory=held + level.nbytes, progress=f"labelled {level.ply} plies of {g} forwards")
    scored = g.properties.is_scored
    out: list[tuple[kernels.Level, npt.NDArray[np.int32]]] = []
    after: npt.NDArray[np.int32] | None = None
    for level in reversed(stored):
        value = np.zeros(len(level), dtype=np.int32)
        if scored:
            assert level.score is not None
            finished = level.outcome != kernels.RUNNING
            value[finished] = level.score[finished]
        else:
            value[level.outcome == kernels.FIRST] = WIN
            value[level.outcome == kernels.SECOND] = -WIN
        if level.edge_parent is not None and level.edge_child is not None and after is not None:
            child = after[level.edge_child]
            if not scored:
                child = child - np.sign(child).astype(np.int32)
            running = level.outcome == kernels.RUNNING
            if level.ply % 2 == 0:  # the first player moves at even plies of a claim game
                best = np.full(len(level), np.iinfo(np.int32).min, dtype=np.int32)
                np.maximum.at(best, level.edge_parent, child)
            else:
                best = np.full(len(level), np.iinfo(np.int32).max, dtype=np.int32)
                np.minimum.at(best, level.edge_parent, child)
            value[running] = best[running]
        out.append((level, value))
        after = value
        budget.check(progress=f"labelled back to ply {level.ply} of {g}")
    out.reverse()
    return out


def _fast_counts(
    game: Game, budget: Budget, progress: Progress | None
) -> tuple[str, dict[str, int], dict[str, int]]:
    valued = fast_values(game, budget=budget)
    Plies(progress, 1).step("labelled")
    by_position = dict.fromkeys(LABELS, 0)
    by_node = dict.fromkeys(LABELS, 0)
    for level, value in valued:
        for label, mask in (("first", value > 0), ("second", value < 0), ("draw", value == 0)):
            by_position[label] += int(mask.sum())
            by_node[label] += kernels.exact_sum(level.paths[mask])
    return label_of(int(valued[0][1][0])), by_position, by_node
