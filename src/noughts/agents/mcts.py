"""Monte Carlo tree search: UCT with random rollouts, and a score-bounded solver mode.

Each simulation walks from the root by UCB1 (Kocsis and Szepesvári, "Bandit based Monte-Carlo
planning", ECML 2006): a node's child maximises ``mean + c sqrt(ln N / n)``, where the mean is
the child's average result for the player choosing (win 1, draw 0, loss -1). A node with moves
not yet tried expands one of them, chosen at random; from the new node a rollout plays
uniformly random moves to the end of the game, and its result is added to every node on the
path (in a game that need not end, a rollout still running after ``properties.truncation``
plies counts as a draw; it proves nothing in solver mode, where only finished positions do). After ``sims`` simulations the agent plays the most visited move.

**Solver mode** is score-bounded MCTS (Cazenave and Saffidine, "Score Bounded Monte-Carlo Tree
Search", Computers and Games 2010), which extends MCTS-Solver (Winands, Björnsson and Saito,
Computers and Games 2008) from wins and losses to draws. Every node keeps a lower and an upper
bound on its exact value (1 win, 0 draw, -1 loss; under scoring rules the sign of the final
score difference): a finished position's bounds are its result, a new node's are -1 and 1.
After each simulation the bounds are backed up the path while they change: for the player to
move at a node, its value lies between its children's best lower bound and their best upper
bound (1 while a move is untried). A node is solved when its bounds meet. Selection skips the
children whose upper bound cannot beat the best lower bound among their siblings (so proven
draws and losses are not revisited once something as good is known), a simulation that reaches
a solved node takes its value without a rollout, and the search stops when the root is solved.
Since every simulation then expands one new node, a root is always solved within as many
simulations as its game tree has nodes. The agent plays a proven win if it has one, never a
proven loss while another move remains, and prefers a proven draw to any move that is unproven
and does not look better (see :meth:`SearchResult.best`).

Two implementations of one algorithm: the plain reference over the public position API
(:func:`reference_search`, every game), and a numba kernel over bitboards
(:mod:`noughts.agents._mcts_kernel`) for standard, misère, Maker-Breaker and cumulative claim
games on up to 64 cells, used by default where it applies (``kernel=python`` forces the
reference). Both draw their random numbers from one SplitMix64 stream
(:mod:`noughts.kernels.rng`) seeded per search, in the same order (a new node takes the
``k``-th untried move, a rollout the ``k``-th legal move, ``k = below(number of choices)``), so
from the same seed the kernel makes exactly the reference's choices: the tests hold the two to
the same root statistics, bit for bit, on the claim games; and both prove the same values as
the exact solver.

>>> import noughts, numpy as np
>>> g = noughts.game("tictactoe")
>>> agent = from_options(sims="2000", solver="true")
>>> g.format_move(agent.choose(g.parse("xx./oo./..."), np.random.default_rng(0)))
'c1'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from noughts.agents.base import read_options
from noughts.core import Move, NoughtsError, Outcome, Player, Position, Rule
from noughts.core.game import Game
from noughts.kernels.rng import MASK64, SplitMix64

__all__ = ["MCTSAgent", "RootStats", "SearchResult", "from_options", "reference_search"]

UNKNOWN = 2
"""A node's proof while it has none (proofs are 1 win, 0 draw, -1 loss)."""


@dataclass(frozen=True)
class RootStats:
    """One root move after a search: visits, summed result and the bounds on its exact value
    (``lower <= value <= upper``, each 1 win, 0 draw, -1 loss), all from the root mover's view.
    Without the solver the bounds stay -1 and 1.
    """

    move: Move
    visits: int
    value: float
    lower: int = -1
    upper: int = 1

    @property
    def mean(self) -> float:
        """The average result of the simulations through this move."""
        return self.value / self.visits if self.visits else 0.0

    @property
    def proven(self) -> int:
        """The move's proven value (1 win, 0 draw, -1 loss), or 2 while its bounds differ."""
        return self.lower if self.lower == self.upper else UNKNOWN


@dataclass(frozen=True)
class SearchResult:
    """What a search found: the root moves' statistics, simulations run, nodes made, and the
    bounds on the root's value for its mover (``lower``, ``upper``: 1 win, 0 draw, -1 loss).
    """

    children: tuple[RootStats, ...]
    sims: int
    nodes: int
    lower: int = -1
    upper: int = 1

    @property
    def proven(self) -> int:
        """The root's proven value for its mover (1, 0, -1), or 2 while its bounds differ."""
        return self.lower if self.lower == self.upper else UNKNOWN

    def best(self) -> RootStats:
        """The move to play.

        A proven win if there is one (the most visited). Otherwise, with ``floor`` the best
        value some move is proven to reach (the largest lower bound among the moves that are
        not proven losses): the most visited move that may still beat the floor and whose mean
        result does beat it; failing that, the most visited move proven to reach the floor.
        So a proven draw is played before any move that is unproven and looks no better, and
        from a solved root the move played is proven best. Ties go to the higher mean, then to
        the earlier expanded move. Without the solver this is the most visited move.
        """
        wins = [s for s in self.children if s.lower == 1]
        if wins:
            return _most_visited(wins)
        alive = [s for s in self.children if s.upper > -1] or list(self.children)
        floor = max(s.lower for s in alive)
        if floor == -1:  # nothing is proven to reach a draw: plain UCT's choice
            return _most_visited(alive)
        hopeful = [s for s in alive if s.upper > floor and s.mean > floor]
        if hopeful:
            return _most_visited(hopeful)
        return _most_visited([s for s in alive if s.lower == floor])


def _most_visited(stats: list[RootStats]) -> RootStats:
    top = stats[0]
    for s in stats[1:]:
        if (s.visits, s.mean) > (top.visits, top.mean):
            top = s
    return top


class _Node:
    __slots__ = ("children", "lower", "outcome", "position", "untried", "upper", "value", "visits")

    def __init__(self, position: Position, untried: list[Move]):
        self.position = position
        self.untried = untried
        self.children: list[tuple[Move, _Node]] = []
        self.visits = 0
        self.value = 0.0  # summed results for the player who moved into this node
        self.outcome = position.outcome()
        # bounds on the node's exact value, for the player who moved into it (solver mode)
        self.lower = -1
        self.upper = 1


def _result_for(outcome: Outcome, player: Player, scored: bool) -> int:
    if outcome is Outcome.DRAW:
        return 0
    return 1 if outcome.winner is player else -1


def reference_search(position: Position, sims: int, c: float, solver: bool, rng: SplitMix64) -> SearchResult:
    """The plain MCTS over the public position API (every game); see the module docstring.

    ``rng``: the search's random stream (the kernel, seeded alike, makes the same choices).
    """
    if position.is_terminal():
        raise NoughtsError("the game is over: there is nothing to search")
    scored = position.game.properties.is_scored
    root = _Node(position, position.legal_moves())
    root_into = None  # nobody moved into the root: its bounds are kept from its mover's view
    nodes = 1
    done = 0
    for _ in range(sims):
        if solver and root.lower == root.upper:
            break
        done += 1
        node = root
        path: list[tuple[_Node, Player | None]] = [(root, root_into)]  # (node, who moved into it)
        outcome: Outcome | None = None
        while True:
            into = path[-1][1]
            if node.outcome is not None:
                outcome = node.outcome
                break
            if solver and node.lower == node.upper and node is not root:
                assert into is not None
                outcome = _proof_outcome(node.lower, into)
                break
            mover = node.position.to_move
            if node.untried:
                move = node.untried.pop(rng.below(len(node.untried)))
                child_pos = node.position.play(move)
                child = _Node(child_pos, child_pos.legal_moves())
                nodes += 1
                node.children.append((move, child))
                path.append((child, mover))
                if child.outcome is not None:
                    outcome = child.outcome
                    if solver:
                        child.lower = child.upper = _result_for(child.outcome, mover, scored)
                else:
                    outcome = _rollout(child_pos, rng)
                break
            log_n = math.log(node.visits)
            # solver: a child whose upper bound cannot beat what another child guarantees
            # the mover (the best lower bound) is pruned from selection
            floor = max(ch.lower for _, ch in node.children) if solver else -2
            best: _Node | None = None
            best_score = -math.inf
            for _, ch in node.children:
                if ch.upper <= floor:
                    continue
                score = ch.value / ch.visits + c * math.sqrt(log_n / ch.visits)
                if score > best_score:
                    best, best_score = ch, score
            if best is None:  # cannot happen: an unsolved node has a child above its floor
                best = node.children[0][1]
            node = best
            path.append((node, mover))
        for n, player in path:
            n.visits += 1
            if player is not None:
                n.value += _result_for(outcome, player, scored)
        if solver:
            for i in range(len(path) - 2, -1, -1):
                n, into = path[i]
                if not _back_up_bounds(n, into):
                    break
    # the root's children were moved into by the root's mover: their values are from its view
    children = tuple(RootStats(move, ch.visits, ch.value, ch.lower, ch.upper) for move, ch in root.children)
    return SearchResult(children, done, nodes, root.lower, root.upper)


def _back_up_bounds(node: _Node, into: Player | None) -> bool:
    """Recompute ``node``'s bounds from its children's; whether they changed.

    For the mover at ``node`` (the player who moved into every child), the node is worth at
    least its best child's lower bound, and at most its best child's upper bound (at most 1
    while a move is untried); for the player who moved into it, the same bounds negated if that
    is the other player.
    """
    lower = max((ch.lower for _, ch in node.children), default=-1)
    upper = 1 if node.untried else max(ch.upper for _, ch in node.children)
    if into is not None and into is not node.position.to_move:
        lower, upper = -upper, -lower
    if (lower, upper) == (node.lower, node.upper):
        return False
    node.lower, node.upper = lower, upper
    return True


def _proof_outcome(proof: int, holder: Player) -> Outcome:
    if proof == 0:
        return Outcome.DRAW
    return Outcome.win_for(holder if proof == 1 else holder.other)


def _rollout(position: Position, rng: SplitMix64) -> Outcome:
    """A random game from ``position`` to its end; in a game that need not end, one still
    running after ``properties.truncation`` plies counts as a draw.
    """
    cap = position.game.properties.truncation
    plies = 0
    while not position.is_terminal():
        if cap is not None and plies >= cap:
            return Outcome.DRAW
        moves = position.legal_moves()
        position = position.play(moves[rng.below(len(moves))])
        plies += 1
    outcome = position.outcome()
    assert outcome is not None
    return outcome


def kernel_supports(game: Game) -> bool:
    """Whether the numba kernel takes ``game``: a claim rule (``game.claim_rule``) on at most
    64 cells.
    """
    return game.claim_rule is not None and game.board.num_cells <= 64


def _tree_bound(empty: int) -> int:
    """The most nodes a claim-game tree with ``empty`` empty cells has (every order of claims)."""
    total, term = 1, 1
    for i in range(empty):
        term *= empty - i
        total += term
        if total > 1 << 40:
            break
    return total + 1


class _Kernel:
    """The rule and the tables one game's kernel searches read."""

    def __init__(self, game: Game):
        tables = game.board.tables
        self.game = game
        self.rule = int(game.claim_rule)  # type: ignore[arg-type]  # kernel_supports() checked it
        self.maker = 0 if game.maker is None else int(game.maker)
        self.cells = tables.cells
        self.full = tables.full_bits
        self.lines = tables.line_bits
        self.through = tables.through
        self.nthrough = tables.nthrough

    def _aux(self, position: Position) -> tuple[int, int]:
        """The position's survivors (Maker-Breaker) or scores (cumulative): what its claims are
        judged with (:func:`noughts.kernels.claim.claim_after`).
        """
        if self.rule == Rule.MAKER_BREAKER:
            return self.game.survivors(position), 0  # type: ignore[attr-defined]
        score = position.score()
        return (0, 0) if score is None else score

    def search(self, position: Position, sims: int, c: float, solver: bool, seed: int) -> SearchResult:
        from noughts.agents import _mcts_kernel as K

        b0, b1 = position.owned(Player.FIRST), position.owned(Player.SECOND)
        empty = self.cells - (b0 | b1).bit_count()
        aux0, aux1 = self._aux(position)
        moves, visits, values, lows, highs, done, nodes, low, high = K.search(
            np.uint64(b0),
            np.uint64(b1),
            int(position.to_move),
            aux0,
            aux1,
            int(sims),
            float(c),
            bool(solver),
            np.uint64(seed),
            self.rule,
            self.maker,
            self.full,
            self.lines,
            self.through,
            self.nthrough,
            min(sims + 2, _tree_bound(empty)),
        )
        children = tuple(
            RootStats(int(m), int(v), float(w), int(lo), int(hi))
            for m, v, w, lo, hi in zip(moves, visits, values, lows, highs, strict=True)
        )
        return SearchResult(children, int(done), int(nodes), int(low), int(high))


class MCTSAgent:
    """UCT with random rollouts; see the module docstring.

    ``sims``: simulations per move. ``c``: the exploration constant. ``solver``: score-bounded
    solving (bounds on each node's exact value, backed up; proven-dominated moves pruned).
    ``kernel``: ``auto`` (numba where it applies), ``numba`` (refuse games it does not take)
    or ``python`` (the reference).
    """

    def __init__(self, sims: int = 1000, c: float = 1.4, *, solver: bool = False, kernel: str = "auto"):
        if sims < 1:
            raise NoughtsError(f"mcts runs at least one simulation, not sims={sims}")
        if not c >= 0 or math.isinf(c):
            raise NoughtsError(f"mcts exploration c is a finite number >= 0, not {c}")
        if kernel not in ("auto", "numba", "python"):
            raise NoughtsError(f"mcts kernel is auto, numba or python, not {kernel!r}")
        self.sims = sims
        self.c = c
        self.solver = solver
        self.kernel = kernel
        parts = [f"sims={sims}"]
        if c != 1.4:
            parts.append(f"c={c:g}")
        if solver:
            parts.append("solver=true")
        if kernel != "auto":
            parts.append(f"kernel={kernel}")
        self.name = "mcts:" + ",".join(parts)
        self._kernels: dict[Game, _Kernel] = {}

    def __repr__(self) -> str:
        return f"MCTSAgent({self.name!r})"

    def uses_kernel(self, game: Game) -> bool:
        """Whether searches of ``game`` run in the numba kernel."""
        if self.kernel == "python":
            return False
        if kernel_supports(game):
            return True
        if self.kernel == "numba":
            raise NoughtsError(f"the mcts kernel takes claim games on at most 64 cells, not {game}")
        return False

    def search(self, position: Position, rng: np.random.Generator) -> SearchResult:
        """Run the simulations from ``position`` and return what they found. The search draws
        one seed from ``rng`` and its random choices from a SplitMix64 stream of that seed, so
        the kernel and the reference search alike from the same ``rng``.
        """
        if position.is_terminal():
            raise NoughtsError("the game is over: there is no move to choose")
        game = position.game
        seed = int(rng.integers(MASK64, dtype=np.uint64, endpoint=True))
        if self.uses_kernel(game):
            kernel = self._kernels.get(game)
            if kernel is None:
                kernel = self._kernels[game] = _Kernel(game)
            return kernel.search(position, self.sims, self.c, self.solver, seed)
        return reference_search(position, self.sims, self.c, self.solver, SplitMix64(seed))

    def choose(self, position: Position, rng: np.random.Generator) -> Move:
        return self.search(position, rng).best().move


def from_options(**options: str) -> MCTSAgent:
    """The agent of a spec like ``mcts:sims=2000,c=1.4,solver=true,kernel=python``."""
    o: dict[str, Any] = {"sims": 1000, "c": 1.4, "solver": False, "kernel": "auto"} | read_options(
        "mcts", options, {"sims": int, "c": float, "solver": bool, "kernel": str}
    )
    return MCTSAgent(o["sims"], o["c"], solver=o["solver"], kernel=o["kernel"])
