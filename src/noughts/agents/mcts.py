"""Monte Carlo tree search: UCT with random rollouts, and a score-bounded solver mode.

Each simulation walks from the root by UCB1 (Kocsis and Szepesvári, "Bandit based Monte-Carlo
planning", ECML 2006): a node's child maximises ``mean + c sqrt(ln N / n)``, where the mean is
the child's average result for the player choosing (win 1, draw 0, loss -1), computed as
``value / n + (c * sqrt(ln N)) * (1 / sqrt(n))`` in that order of operations (the kernel keeps
``value / n`` and ``1 / sqrt(n)`` per node, so the two compute the same doubles). A node with moves
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
(:func:`reference_search`, every game), and a numba kernel (:mod:`noughts.agents._mcts_kernel`)
for standard, misère, Maker-Breaker and cumulative claim games on boards of any size (one-word
masks up to 64 cells, W words beyond: 15x15 and 7x7x7 run in the kernel too), used by default
where it applies (``kernel=python`` forces the reference). **A clock** (``seconds``) stops the
simulations at the first look past it; the kernel runs in slices of a few milliseconds with its
tree kept between them, so a search stopped by the clock is the same search as one given that
many simulations. Both draw their random numbers from one SplitMix64 stream
(:mod:`noughts.kernels.rng`) seeded per search, in the same order (a new node takes the
``k``-th untried move, ``k = below(number of choices)``; a rollout in a claim game lists the
legal moves once and takes ``moves[below(len(moves))]``, moving the last listed into its place,
see :func:`_rollout`), so
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
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from noughts.agents.base import Decision, read_options
from noughts.core import Move, NoughtsError, Outcome, Player, Position, Result
from noughts.core.budget import Budget
from noughts.core.game import Game
from noughts.core.tables import split_words
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


def reference_search(
    position: Position, sims: int, c: float, solver: bool, rng: SplitMix64, deadline: float | None = None
) -> SearchResult:
    """The plain MCTS over the public position API (every game); see the module docstring.

    ``rng``: the search's random stream (the kernel, seeded alike, makes the same choices).
    ``deadline``: a ``time.perf_counter()`` time after which no simulation starts (looked at
    every few simulations; None: no clock).
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
        if deadline is not None and done % 16 == 0 and done and time.perf_counter() >= deadline:
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
            explore = c * math.sqrt(math.log(node.visits))
            # solver: a child whose upper bound cannot beat what another child guarantees
            # the mover (the best lower bound) is pruned from selection
            floor = max(ch.lower for _, ch in node.children) if solver else -2
            best: _Node | None = None
            best_score = -math.inf
            for _, ch in node.children:
                if ch.upper <= floor:
                    continue
                score = ch.value / ch.visits + explore * (1.0 / math.sqrt(ch.visits))
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

    Each move is ``moves[rng.below(len(moves))]``. In a claim game (``game.claim_rule``: a move
    claims one empty cell and takes just that cell from the legal moves) ``moves`` is the
    position's legal moves listed once, at the start, and the claimed move's place in the list
    is taken by the last move listed; in other games ``moves`` is listed afresh every ply.
    """
    cap = position.game.properties.truncation
    claims = position.game.claim_rule is not None
    moves = position.legal_moves()
    plies = 0
    while not position.is_terminal():
        if cap is not None and plies >= cap:
            return Outcome.DRAW
        if not claims and plies:
            moves = position.legal_moves()
        i = rng.below(len(moves))
        move = moves[i]
        if claims:
            moves[i] = moves[-1]
            moves.pop()
        position = position.play(move)
        plies += 1
    outcome = position.outcome()
    assert outcome is not None
    return outcome


def kernel_supports(game: Game) -> bool:
    """Whether the numba kernel takes ``game``: a claim rule (``game.claim_rule``), on a board of
    any size (one-word masks up to 64 cells, W words beyond).
    """
    return game.claim_rule is not None


def _tree_bound(empty: int) -> int:
    """The most nodes a claim-game tree with ``empty`` empty cells has (every order of claims)."""
    total, term = 1, 1
    for i in range(empty):
        term *= empty - i
        total += term
        if total > 1 << 40:
            break
    return total + 1


SLICE_SECONDS = 0.004
"""About how long one slice of simulations runs between two looks at the clock."""


class _Kernel:
    """One game's kernel searches (:mod:`noughts.agents._mcts_kernel`): the rule and the tables,
    and the tree arrays, kept and grown as searches need them.
    """

    def __init__(self, game: Game, words: int | None = None):
        """``words``: masks of that many words even on a board that fits one (the tests run the
        W-word form on the small games this way); None: one word where the board fits one.
        """
        tables = game.board.tables
        self.game = game
        self.rule = int(game.claim_rule)  # type: ignore[arg-type]  # kernel_supports() checked it
        self.maker = 0 if game.maker is None else int(game.maker)
        self.cells = tables.cells
        if words is None:
            self.words = None if tables.fits_one_word else tables.words
        else:
            self.words = max(words, tables.words)
        self.lines = (
            tables.line_bits if self.words is None else split_words(game.board.line_masks, self.words)
        )
        self.board = (self.maker, game.board.k, tables.through, tables.nthrough, self.words or 1)
        self.tree: tuple[Any, ...] = ()
        self.scratch = (
            *self._counts(),
            np.empty(self.cells + 2, dtype=np.int32),
            np.empty(2 if self.words is None else (2, self.words), dtype=np.uint64),
            np.empty(self.cells, dtype=np.int32),
        )

    def _counts(self) -> tuple[np.ndarray, np.ndarray]:
        """Line counts (``(lines, 2)`` int8) and the same bytes as 64-bit words (padded to whole
        words), which the kernel copies from the root's at the start of each simulation.
        """
        lines = self.game.board.tables.num_lines
        words = np.zeros((2 * lines + 7) // 8, dtype=np.uint64)
        return words.view(np.int8)[: 2 * lines].reshape(lines, 2), words

    def _aux(self, position: Position) -> tuple[int, int]:
        """The position's survivors (Maker-Breaker) or scores (cumulative): what its claims are
        judged with (:func:`noughts.kernels.claim.claim_after`).
        """
        return self.game.claim_aux(position)  # type: ignore[attr-defined,no-any-return]

    def _mask(self, cells: int) -> Any:
        if self.words is None:
            return np.uint64(cells)
        return split_words((cells,), self.words)[0]

    def search(
        self, position: Position, sims: int, c: float, solver: bool, seed: int, deadline: float | None = None
    ) -> SearchResult:
        """Up to ``sims`` simulations, in slices, stopping at the first look at the clock past
        ``deadline`` (a ``time.perf_counter()`` time; None: no clock).
        """
        from noughts.agents import _mcts_kernel as K
        from noughts.kernels.counts import line_counts

        b0, b1 = position.owned(Player.FIRST), position.owned(Player.SECOND)
        empty = self.game.board.full_mask & ~(b0 | b1)
        cnt, cnt_words = self._counts()
        line_counts(self.lines, self._mask(b0), self._mask(b1), self.words or 1, cnt)
        aux0, aux1 = self._aux(position)
        root = (cnt_words, self._mask(empty), empty.bit_count(), aux0, aux1)
        bound = _tree_bound(empty.bit_count())
        cap = min(sims + 2, bound, 1 << 16 if deadline is not None else sims + 2)
        self._reserve(cap)
        tree = self.tree
        tree[0][0] = self._mask(empty)
        fields: dict[str, float] = {"first": -1, "last": -1, "sibling": -1, "move": -1, "lower": -1}
        fields |= {"upper": 1, "kid0": -1, "nkids": 0, "slot": -1, "value": 0.0, "visits": 0}
        fields |= {"outcome": Result.RUNNING, "tomove": int(position.to_move)}
        for name, v in fields.items():
            tree[1][name][0] = v
        st = np.array([seed], dtype=np.uint64)
        grow = K.grow(self.rule)
        stats = np.zeros(K.NUM_STATS, dtype=np.int64)
        stats[K.S_NODES] = 1
        step = sims if deadline is None else 64
        while True:
            target = min(sims, int(stats[K.S_DONE]) + step)
            room = len(tree[1]) if len(tree[1]) < bound else bound + 1  # a full-size tree never fills
            started = time.perf_counter()
            grow(self.board, root, tree, self.scratch, st, stats, target, room, float(c), bool(solver))
            done = int(stats[K.S_DONE])
            if done < target and int(stats[K.S_NODES]) >= room:  # out of room: a larger tree, go on
                self._reserve(min(bound, 2 * len(tree[1])))
                tree = self.tree
                continue
            if done >= sims or done < target or deadline is None:
                break  # all run, or the root solved
            now = time.perf_counter()
            if now >= deadline:
                break
            took = max(now - started, 1e-6)
            step = max(16, min(8 * step, int(step * min(SLICE_SECONDS, deadline - now) / took)))
        nodes = tree[1]
        children = []
        ch = int(nodes[0]["first"])
        while ch != -1:
            x = nodes[ch]
            children.append(
                RootStats(
                    int(x["move"]), int(x["visits"]), float(x["value"]), int(x["lower"]), int(x["upper"])
                )
            )
            ch = int(x["sibling"])
        root_node = nodes[0]
        return SearchResult(
            tuple(children),
            int(stats[K.S_DONE]),
            int(stats[K.S_NODES]),
            -int(root_node["upper"]),
            -int(root_node["lower"]),
        )

    def _reserve(self, cap: int) -> None:
        """Room for ``cap`` nodes: the tree arrays grown (what they hold kept) if they are smaller."""
        from noughts.agents import _mcts_kernel as K

        if self.tree and len(self.tree[1]) >= cap:
            return
        fresh = K.tree_arrays(cap, self.words)
        for old, new in zip(self.tree, fresh, strict=False):
            new[: len(old)] = old
        self.tree = fresh


class MCTSAgent:
    """UCT with random rollouts; see the module docstring.

    ``sims``: simulations per move. ``c``: the exploration constant. ``solver``: score-bounded
    solving (bounds on each node's exact value, backed up; proven-dominated moves pruned).
    ``kernel``: ``auto`` (numba where it applies), ``numba`` (refuse games it does not take)
    or ``python`` (the reference). ``seconds``: a clock per move; simulations stop at the first
    look at the clock past it (the kernel looks every few milliseconds, between slices of
    simulations), ``sims`` then being the most it runs.
    """

    def __init__(
        self,
        sims: int = 1000,
        c: float = 1.4,
        *,
        solver: bool = False,
        kernel: str = "auto",
        seconds: float | None = None,
    ):
        if sims < 1:
            raise NoughtsError(f"mcts runs at least one simulation, not sims={sims}")
        if seconds is not None and not 0 < seconds < math.inf:
            raise NoughtsError(f"mcts seconds is a number of seconds above 0, not {seconds}")
        if not c >= 0 or math.isinf(c):
            raise NoughtsError(f"mcts exploration c is a finite number >= 0, not {c}")
        if kernel not in ("auto", "numba", "python"):
            raise NoughtsError(f"mcts kernel is auto, numba or python, not {kernel!r}")
        self.sims = sims
        self.c = c
        self.solver = solver
        self.kernel = kernel
        self.seconds = seconds
        parts = [f"sims={sims}"]
        if c != 1.4:
            parts.append(f"c={c:g}")
        if solver:
            parts.append("solver=true")
        if kernel != "auto":
            parts.append(f"kernel={kernel}")
        if seconds is not None:
            parts.append(f"seconds={seconds:g}")
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
            raise NoughtsError(
                f"the mcts kernel takes standard, misere, maker_breaker and cumulative claim games, not {game}"
            )
        return False

    def search(
        self, position: Position, rng: np.random.Generator, seconds: float | None = None
    ) -> SearchResult:
        """Run the simulations from ``position`` and return what they found. The search draws
        one seed from ``rng`` and its random choices from a SplitMix64 stream of that seed, so
        the kernel and the reference search alike from the same ``rng``. ``seconds``: this
        search's clock (default: the agent's ``seconds``; the sooner of the two counts).
        """
        if position.is_terminal():
            raise NoughtsError("the game is over: there is no move to choose")
        started = time.perf_counter()
        limits = [t for t in (seconds, self.seconds) if t is not None]
        deadline = started + min(limits) if limits else None
        game = position.game
        seed = int(rng.integers(MASK64, dtype=np.uint64, endpoint=True))
        if self.uses_kernel(game):
            kernel = self._kernels.get(game)
            if kernel is None:
                kernel = self._kernels[game] = _Kernel(game)
            return kernel.search(position, self.sims, self.c, self.solver, seed, deadline)
        return reference_search(position, self.sims, self.c, self.solver, SplitMix64(seed), deadline)

    def choose(self, position: Position, rng: np.random.Generator) -> Move:
        return self.search(position, rng).best().move

    def decide(self, position: Position, rng: np.random.Generator, budget: Budget | None = None) -> Decision:
        """The move of a search stopped by ``budget``'s clock (or the agent's ``seconds``, or
        ``sims``, whichever comes first).
        """
        started = time.perf_counter()
        left = None if budget is None else budget.remaining()
        result = self.search(position, rng, None if left is None else max(1e-3, 0.9 * left))
        best = result.best()
        proven = True if result.proven != 2 and best.lower == best.upper == result.proven else None
        note = f"{result.sims:,} simulations"
        return Decision(best.move, proven, note, time.perf_counter() - started)


def from_options(**options: str) -> MCTSAgent:
    """The agent of a spec like ``mcts:sims=2000,c=1.4,solver=true,kernel=python`` or
    ``mcts:seconds=1,sims=1000000`` (simulations until the clock, ``sims`` the most).
    """
    o: dict[str, Any] = {
        "sims": 1000,
        "c": 1.4,
        "solver": False,
        "kernel": "auto",
        "seconds": None,
    } | read_options(
        "mcts", options, {"sims": int, "c": float, "solver": bool, "kernel": str, "seconds": float}
    )
    return MCTSAgent(o["sims"], o["c"], solver=o["solver"], kernel=o["kernel"], seconds=o["seconds"])
