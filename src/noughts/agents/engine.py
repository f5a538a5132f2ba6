"""The engine: a strong player for claim games on any board, under a clock.

``engine:seconds=0.5`` searches each move by iterative deepening alpha-beta
(:mod:`noughts.agents._engine_kernel`, a numba kernel over line counts, so 15x15 and 7x7x7 cost
per node what 4x4x4 does) with a transposition table kept from move to move, killer and history
move ordering, a line-pattern evaluation that reads standard, misère, Maker-Breaker and
cumulative rules, exact forced-move scores (a win now; a loss to two completing cells; the one
reply to a threat, searched without spending depth) and VCF threat-space search (Allis: a win
by continuous threats, each answered by its one reply) at the root and at the leaves.

**The root looks for a proof first**, each step with a share of the move's time: the kernel's
VCF; then a threat-space search of fours *and threes* (VCT, Allis's order-2 threats with the
defender's counter-fours answered:
:func:`noughts.proving.threats.threat_win_kernel`, held to the plain
:func:`~noughts.proving.threats.threat_win`), deepened one threat at a time; then, where the mover
has a line two claims short of a threat (``k - 3`` marks and at least one, the other side's
none) or faces the opponent's four, the proof engine's df-pn (:class:`noughts.proving.proof.ProofSearch`, threats at
its nodes) under a node budget sized from its measured rate. A win any of them proves is
played and reported proven; otherwise the alpha-beta gets the rest of the time. Random play
leaves wins that only the df-pn finds (a VCF or VCT needs every attacking move to threaten):
``bench/forced_wins.py`` measures how many.

**The clock.** Each move takes about ``seconds``: the driver deepens one ply at a time and gives
each iteration a node budget from the rate it measured (the alpha-beta's nodes and the leaf
VCFs' steps counted alike: ``bench/budgets.py --engine`` measures the overshoot), so the kernel
stops itself near the deadline; an iteration cut short keeps the best of the root moves it
finished (the last iteration's best is searched first, so it is a deeper look at it or at a move
that beat it), and an iteration is not started with less time left than the last one took
(:data:`NEXT`). A move of a game plans :data:`MARGIN` of its time. The first move of a session also
pays numba's compile (cached on disk after the first run).

**Proofs.** The engine says when its move is a *proven* win or loss (:attr:`EngineResult.proven`):
a win now, a VCF or VCT win (every defender reply is searched, so it is a proof), a win the
proof engine proved, or a loss to two completing cells the opponent already has. Scores the selective search finds are heuristic
(below the root only the ``width`` most promising moves are searched), never called proofs.

Games with no claim rule (veto, Notakto, Otrio) are played by MCTS under the same clock.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from noughts.agents.base import Decision, read_options
from noughts.core import LimitExceeded, Move, NoughtsError, Player, Position, Rule
from noughts.core.budget import Budget
from noughts.core.game import Game
from noughts.kernels.rng import SplitMix64

if TYPE_CHECKING:
    from noughts.proving.threats import ThreatWin

__all__ = [
    "VIEW_TABLE",
    "EngineAgent",
    "EngineResult",
    "from_options",
    "reference_evaluation",
    "reference_value",
]

WIN = 1_000_000
MATE = 10_000
DEFAULT_SECONDS = 1.0
"""The time per move without a ``seconds`` or a budget."""

RETRY = 0.15
"""An iteration stopped by its node budget with more than this share of the move's time left is
tried again with the rate that run measured (the first, short iterations read a rate too low)."""

USE = 0.85
"""The share of a budget's time left that a move's search is planned to take (the rest is the
margin for the last iteration's overrun and the caller)."""

NEXT = 1.0
"""The next iteration starts while the time left is at least this many times the last one's
(an iteration the clock stops keeps the best of the root moves it finished, the last best first)."""

MARGIN = 0.93
"""The share of ``seconds`` a move of a game plans to take (the rest: the last iteration's
overshoot and the caller's own work)."""

VCT_SHARE = 0.15
"""The share of a move's time the root's VCT (threats of order two) may take."""

VIEW_TABLE = 18
"""log2 of the table entries of an engine kept for views of positions (:meth:`EngineAgent.move_values`:
the arena's overlay, the terminal's hint and explain, review's estimates): about 5 MB."""

PROOF_TABLE = 1 << 26
"""The root df-pn's table, in bytes, at most."""

SHALLOW_NODES = 20_000
"""The most nodes :meth:`EngineAgent.move_values` spends on one move's depth-0 look (its forced
replies; each leaf VCF has its own cap), so valuing every move of a board is bounded work."""

MAX_VCF = 60
"""The deepest VCF (attacking moves) the options allow; the threat search's workspace is sized
for it."""

THREE = 1500
"""The leaf's bonus (evaluation units) for a side to move that can make two completing cells with
one claim (a three of its own: an open four or a four-four next); the ``three`` option."""

COMBO_WEIGHTS = (
    (0, 50, 50, 1000, 1500, 1500),  # a quiet leaf: the mover's strongest claim class to play
    (0, 20, 20, 400, 700, 800),  # less the other side's
    (0, 100, 300, 1500, 4000, 6000),  # move ordering: the mover's class at the cell (attack)
    (0, 80, 200, 1200, 3000, 4500),  # and the other side's there (defence)
)
"""The combination terms (evaluation units) by claim class (none, three, four, three-three,
four-three, four-four: :mod:`noughts.kernels.patterns`), at ``combo=100``; set by hand, not
fitted."""

LMP = 0
"""Late-move pruning (the ``lmp`` option): below the root, a free node (no threat to answer) of
``d`` plies left searches its quiet moves (none on two of either side's lines ``k - 2`` short:
no open four or four-four made, none taken from the other side) only among its first
``LMP * d`` moves; 0: none. Off: ``lmp=3`` measured 14.1% against Rapfi at 3,000 nodes where the
default scored 20.3% (64 games each, BENCHMARKS.md)."""

ASPIRE = 0
"""The aspiration window's half-width (the ``aspire`` option, evaluation units): each iteration
after the first is searched in a window this wide on each side of the last one's score, and
again with the full window where the score falls outside; 0: the full window always. Off:
``aspire=300`` measured 18.8% against the default's 20.3% (the same screen)."""

SCALE = 600.0
"""An evaluation of this size reads as a clear edge (about 0.76 on the normalised scale)."""


@dataclass(frozen=True)
class EngineResult:
    """What one search found. ``score``: the engine's score from the mover's view (kernel units:
    ``WIN - n`` is a win in ``n`` plies); ``depth``: the deepest finished iteration; ``proven``:
    ``"win"`` or ``"loss"`` when the score is a proof (see the module docstring), else None;
    ``plies``: plies to the end of a proven result (None for a df-pn proof, which gives no
    distance; its score is ``WIN - MATE``); ``line``: a proven win's attacking moves.
    """

    move: Move
    score: int
    depth: int
    nodes: int
    seconds: float
    proven: str | None = None
    plies: int | None = None
    line: tuple[Move, ...] = ()

    @property
    def value(self) -> float:
        """The score on a scale from -1 (lost) to 1 (won) for the mover: +-1 for proven results,
        near +-1 for a win or loss the search saw, ``tanh(score / SCALE)`` otherwise.
        """
        if self.proven == "win":
            return 1.0
        if self.proven == "loss":
            return -1.0
        if abs(self.score) > WIN - MATE:
            return math.copysign(0.99, self.score)
        return math.tanh(self.score / SCALE)

    def label(self) -> str:
        """A short label for people: ``W7`` / ``L12`` (proven, plies to the end; ``W`` alone
        where the proof gives no distance), else the normalised score with its sign (``+0.42``).
        """
        if self.proven is not None:
            plies = "" if self.plies is None else str(self.plies)
            return f"{'W' if self.proven == 'win' else 'L'}{plies}"
        return f"{round(self.value, 2) + 0.0:+.2f}"  # + 0.0: never "-0.00"


class _State:
    """One game's kernel state: its tables, the position loaded, the transposition table."""

    def __init__(
        self,
        game: Game,
        width: int,
        leaf_vcf: int,
        tt_bits: int,
        three: int = 0,
        combo: int = 0,
        lmp: int = 0,
    ):
        from noughts.agents import _engine_kernel as K
        from noughts.kernels.patterns import directions
        from noughts.proving.threat_kernels import workspace

        board = game.board
        t = board.tables
        self.game = game
        cells, lines = t.cells, t.num_lines
        P = np.zeros(K.NUM_P, dtype=np.int64)
        P[K.P_RULE] = int(game.claim_rule)  # type: ignore[arg-type]  # checked by the agent
        P[K.P_MAKER] = 0 if game.maker is None else int(game.maker)
        P[K.P_K] = board.k
        P[K.P_CELLS] = cells
        P[K.P_LINES] = lines
        P[K.P_WIDTH] = width
        P[K.P_LEAF_VCF] = leaf_vcf
        P[K.P_VCF_CAP] = 400
        P[K.P_TT] = 1 if tt_bits else 0
        # the selective search's pruning (threat-based moves, null windows, reductions) and the
        # leaf's bonus for a three to play: off at full width, where the search is held to the
        # plain negamax
        P[K.P_SELECT] = 1 if width < cells else 0
        P[K.P_THREE] = three
        P[K.P_LMP] = lmp
        # the combination of threats across lines (kernels/patterns.py): selective searches
        # under standard rules (completing a line wins for both sides), k at least 4
        use = combo and P[K.P_SELECT] and board.k >= 4 and game.claim_rule == Rule.STANDARD
        if use:
            ldir, ndir = directions(t.line_cells, t.through, t.nthrough)
        else:
            ldir, ndir = np.zeros(t.line_cells.shape, dtype=np.int8), 1
        P[K.P_COMBO] = (2 if combo < 0 else 1) if use else 0
        P[K.P_NDIR] = ndir
        tt_bits = tt_bits or 1
        rng = SplitMix64(0x5EED_0F_E2)
        zob = np.array([rng.next() for _ in range(2 * cells)], dtype=np.uint64).reshape(cells, 2)
        size = 1 << tt_bits
        # the threat search's workspace, without its table of refuted positions (memo_slots=0):
        # the engine's VCFs are short (fours only, a few hundred steps), and its figures were
        # measured that way
        frames, pool, tline, scratch, memo = workspace(cells, MAX_VCF, memo_slots=0)
        self.S = (
            P,
            np.zeros((lines, 2), dtype=np.int8),  # 1 cnt
            np.full(cells, -1, dtype=np.int8),  # 2 owner
            t.through,  # 3
            t.nthrough,  # 4
            t.line_cells,  # 5
            zob,  # 6
            K.weights(board.k),  # 7
            np.zeros(K.NUM_V, dtype=np.int64),  # 8 V
            np.zeros(1, dtype=np.uint64),  # 9 hash
            np.zeros(size, dtype=np.uint64),  # 10 tt keys
            np.zeros(size, dtype=np.int32),  # 11 tt values
            np.full(size, -1, dtype=np.int16),  # 12 tt depths
            np.zeros(size, dtype=np.int8),  # 13 tt flags
            np.full(size, -1, dtype=np.int32),  # 14 tt moves
            np.full((K.MAXPLY, 2), -1, dtype=np.int32),  # 15 killers
            np.zeros((2, cells), dtype=np.int64),  # 16 history
            np.zeros((K.MAXPLY, cells), dtype=np.int32),  # 17 moves per ply
            np.zeros((K.MAXPLY, cells), dtype=np.int64),  # 18 their ordering scores
            frames,  # 19 the threat search's frames (the VCF: exact.threat_kernels)
            pool,  # 20 its candidate pool
            np.zeros((board.k + 1, board.k + 1), dtype=np.int64),  # 21 first's gain per line
            np.zeros((board.k + 1, board.k + 1), dtype=np.int64),  # 22 second's gain per line
            np.zeros(cells, dtype=np.int64),  # 23 first's gain per cell
            np.zeros(cells, dtype=np.int64),  # 24 second's gain per cell
            tline,  # 25 its principal line
            scratch,  # 26 its scratch rows
            np.zeros(2, dtype=np.int64),  # 27 its result (steps, line length)
            memo,  # 28 its table of refuted positions (no slots: none kept)
            np.zeros((2, cells), dtype=np.int32),  # 29 each side's lines k - 2 short through each cell
            np.zeros((2, cells, ndir), dtype=np.int32),  # 30 the same per direction
            np.zeros((2, cells, ndir), dtype=np.int32),  # 31 the lines k - 3 short per direction
            ldir,  # 32 each line's direction at each of its cells
            np.array(COMBO_WEIGHTS, dtype=np.int64) * abs(combo) // 100,  # 33 the combination terms
            np.zeros(2, dtype=np.int64),  # 34 each side's empty cells on two or more lines of 29
        )

    def load(self, position: Position) -> None:
        from noughts.agents import _engine_kernel as K

        owner = np.array(self.game.cell_owners(position), dtype=np.int8)  # type: ignore[attr-defined]
        aux = self.game.claim_aux(position)  # type: ignore[attr-defined]
        K.setup(self.S, owner, aux[0], aux[1])
        self.S[15][:] = -1  # killers belong to one search
        np.floor_divide(self.S[16], 2, out=self.S[16])  # history fades from move to move


class EngineAgent:
    """Iterative deepening alpha-beta with threat search under a clock; see the module docstring.

    ``seconds``: the time per move (default 1 s, or the budget :meth:`decide` is given: the spec
    ``engine:seconds=0.5`` gives it through :class:`~noughts.agents.base.TimeLimited`). ``width``: moves searched at each node below the root.
    ``vcf``: the root's VCF depth (attacking moves; 0: none). ``vct``: the root's deepest
    VCT (threats of order two; 0: none). ``proof``: the share of the time the root's df-pn may
    take (0: none). ``leaf_vcf``: the VCF depth at the leaves. ``depth``: the deepest iteration. ``tt``: log2 of the transposition table's entries.
    ``three``: the leaf's bonus for a three to play (:data:`THREE`). ``combo``: the scale (percent)
    of the combination terms (:data:`COMBO_WEIGHTS`, four-three and the like across lines, at
    the leaves and in the move order; below 0: in the move order only, scaled by its size; 0, the
    default: off).
    ``last``: the :class:`EngineResult` of the latest search.
    """

    def __init__(
        self,
        seconds: float | None = None,
        *,
        width: int = 12,
        vcf: int = 12,
        vct: int = 8,
        proof: float = 0.25,
        leaf_vcf: int = 3,
        depth: int = 64,
        tt: int = 20,
        three: int = THREE,
        combo: int = 0,
        lmp: int = LMP,
        aspire: int = ASPIRE,
    ):
        if seconds is not None and not 0 < seconds < math.inf:
            raise NoughtsError(f"engine seconds is a number of seconds above 0, not {seconds}")
        if width < 1:
            raise NoughtsError(f"engine width is at least 1, not {width}")
        if not 0 <= vcf <= MAX_VCF or not 0 <= leaf_vcf <= MAX_VCF or not 0 <= vct <= 60:
            raise NoughtsError(
                f"engine vcf, vct and leaf_vcf are depths from 0 to 60, not {vcf}, {vct}, {leaf_vcf}"
            )
        if not 0 <= proof <= 0.8:
            raise NoughtsError(
                f"engine proof is the share of the time for the root's df-pn, 0 to 0.8, not {proof}"
            )
        if not 1 <= depth <= 100:
            raise NoughtsError(f"engine depth is from 1 to 100, not {depth}")
        if not (10 <= tt <= 26 or tt == 0):
            raise NoughtsError(f"engine tt is log2 of the table's entries, from 10 to 26 (0: none), not {tt}")
        if not 0 <= three <= 100_000:
            raise NoughtsError(
                f"engine three is the leaf's bonus for a three to play, 0 to 100000, not {three}"
            )
        if not -1000 <= combo <= 1000:
            raise NoughtsError(
                f"engine combo is the combination terms' scale in percent, -1000 to 1000, not {combo}"
            )
        if not 0 <= lmp <= 100:
            raise NoughtsError(
                f"engine lmp is the late-move pruning's moves per ply of depth, 0 to 100 (0: none), not {lmp}"
            )
        if not 0 <= aspire <= 100_000:
            raise NoughtsError(
                f"engine aspire is the aspiration window's half-width, 0 to 100000 (0: none), not {aspire}"
            )
        self.lmp = lmp
        self.aspire = aspire
        self.seconds = seconds
        self.three = three
        self.combo = combo
        self.width = width
        self.vcf = vcf
        self.vct = vct
        self.proof = proof
        self.leaf_vcf = leaf_vcf
        self.depth = depth
        self.tt = tt
        parts = [] if seconds is None else [f"seconds={seconds:g}"]
        defaults = {"width": 12, "vcf": 12, "vct": 8, "proof": 0.25, "leaf_vcf": 3, "depth": 64, "tt": 20,
                    "three": THREE, "combo": 0, "lmp": LMP, "aspire": ASPIRE}  # fmt: skip
        parts += [f"{k}={getattr(self, k):g}" for k, v in defaults.items() if getattr(self, k) != v]
        self.name = "engine" + (":" + ",".join(parts) if parts else "")
        self.last: EngineResult | None = None
        self._states: dict[Game, _State] = {}
        self._rate = 20_000.0  # nodes per second, measured as the engine runs
        self._vct_rate = 200_000.0  # the VCT's positions per second (lowered when it overruns)
        self._vct_runs = 0
        self._proof_rate: dict[Game, float] = {}  # the root df-pn's nodes per second, per game
        self._fallback: Any = None

    def __repr__(self) -> str:
        return f"EngineAgent({self.name!r})"

    def choose(self, position: Position, rng: np.random.Generator) -> Move:
        return self.decide(position, rng).move

    def decide(self, position: Position, rng: np.random.Generator, budget: Budget | None = None) -> Decision:
        """The move within ``budget``'s time (a share of what is left, for the margin; without
        a budget, the agent's ``seconds``), with what the engine can say of it.
        """
        if position.is_terminal():
            raise NoughtsError("the game is over: there is no move to choose")
        started = time.perf_counter()
        seconds = DEFAULT_SECONDS if self.seconds is None else self.seconds
        left = None if budget is None else budget.remaining()
        if left is not None:
            seconds = min(seconds, USE * left) if self.seconds is not None else USE * left
        seconds = max(seconds * MARGIN, 1e-3)
        if position.game.claim_rule is None:
            from noughts.agents.mcts import MCTSAgent

            result = MCTSAgent(10**9).search(position, rng, seconds=seconds)
            note = f"MCTS (no claim rule here) ran {result.sims:,} simulations"
            return Decision(result.best().move, None, note, time.perf_counter() - started)
        r = self.analyse(position, seconds)
        if r.proven == "win":
            said = (
                "a proven win (the proof engine)"
                if r.plies is None
                else f"a proven win in {r.plies} {'ply' if r.plies == 1 else 'plies'}"
            )
            return Decision(r.move, True, said, time.perf_counter() - started)
        if r.proven == "loss":
            note = f"a proven loss in {r.plies} {'ply' if r.plies == 1 else 'plies'}"
        else:
            note = f"searched {r.depth} {'ply' if r.depth == 1 else 'plies'} deep, score {r.label()}"
        return Decision(r.move, None, note, time.perf_counter() - started)

    def analyse(self, position: Position, seconds: float | None = None) -> EngineResult:
        """Search ``position`` (a claim game) for ``seconds`` (default: the agent's)."""
        from noughts.agents import _engine_kernel as K

        if position.is_terminal():
            raise NoughtsError("the game is over: there is nothing to search")
        game = position.game
        if game.claim_rule is None:
            raise NoughtsError(f"the engine searches claim games, not {game}")
        started = time.perf_counter()
        if seconds is None:
            seconds = DEFAULT_SECONDS if self.seconds is None else self.seconds
        deadline = started + seconds
        state = self._states.get(game)
        if state is None:
            state = self._states[game] = _State(
                game, self.width, self.leaf_vcf, self.tt, self.three, self.combo, self.lmp
            )
        state.load(position)
        S = state.S
        V = S[8]
        mover = int(position.to_move)
        nodes = 0
        # a proof first: a VCF win (with a share of the time)
        if self.vcf:
            line = np.zeros(self.vcf + 1, dtype=np.int64)
            cap = max(2_000, int(self._rate * (deadline - started) * 0.15))
            r = K.root_vcf(S, mover, self.vcf, cap, line)
            nodes += int(V[K.V_VNODES])
            if r > 0:
                moves = tuple(int(m) for m in line[: max(1, (r - 1) // 2)])
                return self._done(position, moves[0], WIN - r, 0, nodes, started, "win", r, moves)
        from noughts.proving.threats import supports_threats

        threats = supports_threats(game, position.to_move)
        if self.vct and threats:
            won = self._root_vct(position, started + VCT_SHARE * seconds)
            if won is not None:
                attack = tuple(cast(int, m) for m in won.line[0::2])
                length = len(won.line)
                return self._done(position, attack[0], WIN - length, 0, nodes, started, "win", length, attack)
        if self.proof and threats and _worth_proving(position):
            proved = self._root_proof(position, min(self.proof * seconds, deadline - time.perf_counter()))
            if proved is not None:
                return self._done(position, proved, WIN - MATE, 0, nodes, started, "win", None, (proved,))
        best_move, best_score, finished = -1, 0, 0
        depth = 1
        rates: list[float] = []  # this move's measured rates: odd and even depths differ
        wide = False  # the depth is searched again with the full window
        while depth <= self.depth:
            now = time.perf_counter()
            left = deadline - now
            if left <= 0 and finished:
                break
            # the slower of the last two iterations' rates (one of each parity: the side whose
            # leaves run the VCF alternates, and the rate with it), so the budget ends by the clock
            rate = min(rates[-2:]) if rates else self._rate
            budget = max(500, int(rate * max(left, 0.0)))
            # an aspiration window around the last iteration's score (not around a win or loss)
            alpha, beta = -K.INF, K.INF
            if self.aspire and finished and not wide and abs(best_score) < WIN - MATE:
                alpha, beta = best_score - self.aspire, best_score + self.aspire
            score = int(K.root_window(S, depth, mover, budget, alpha, beta))
            took = time.perf_counter() - now
            done = int(V[K.V_NODES])
            nodes += done
            if not V[K.V_ABORT] and not alpha < score < beta:
                wide = True  # outside the window: the same depth again with the full window
                if took > 0.01:
                    self._rate = max(1_000.0, done / took)
                if deadline - time.perf_counter() > 0:
                    continue
                if score >= beta:  # a fail-high with no time to search it again: a better move
                    best_move, best_score = int(V[K.V_BEST]), score
                break
            wide = False
            if V[K.V_ABORT] and finished:
                # the budget ran out: at the true rate if the clock has too; else the rate was
                # read low (a short first iteration) and the depth is tried again at this one
                self._rate = _rate_after_abort(rate, done, took)
                rates = [self._rate]
                if deadline - time.perf_counter() > RETRY * seconds:
                    continue
                if int(V[K.V_BEST]) >= 0 and int(V[K.V_BESTV]) > alpha:
                    # the clock ran out with the root's first moves searched one ply deeper
                    # (the last iteration's best first): their best, a deeper look than the last
                    # (not a move that failed low in an aspiration window: its score is a bound)
                    best_move, best_score = int(V[K.V_BEST]), int(V[K.V_BESTV])
                break
            if took > 0.01:
                self._rate = max(1_000.0, done / took)
                rates.append(self._rate)
            best_move, best_score, finished = int(V[K.V_BEST]), score, depth
            depth += 1
            if abs(score) > WIN - MATE:
                break  # the search sees the end
            if took * NEXT > deadline - time.perf_counter():
                break  # the next iteration would reach too little of the root's moves
        if best_move < 0:  # cannot happen on a running position; kept as a guard
            best_move = next(iter(position.legal_moves()))  # type: ignore[assignment]
        proven, plies = None, None
        if best_score == WIN - 1:
            proven, plies = "win", 1
        elif best_score == -(WIN - 2) and finished:
            proven, plies = self._double_threat(position)
        return self._done(position, best_move, best_score, finished, nodes, started, proven, plies, ())

    def _root_vct(self, position: Position, until: float) -> ThreatWin | None:
        """A win by fours and threes, deepened one threat at a time until ``until``."""
        from noughts.proving.threats import threat_win_kernel

        for depth in range(2, self.vct + 1):
            left = until - time.perf_counter()
            if left <= 0:
                break
            limit = max(1_000, int(self._vct_rate * left))
            t = time.perf_counter()
            won = threat_win_kernel(position, max_order=2, max_depth=depth, node_limit=limit)
            if won is not None:
                return won
            took = time.perf_counter() - t
            if took > 0.02 and took > 1.5 * left and self._vct_runs:  # the first run loads the kernel
                self._vct_rate = max(10_000.0, limit / took)
            self._vct_runs += 1
        return None

    def _root_proof(self, position: Position, seconds: float) -> int | None:
        """A winning move the proof engine proves within about ``seconds``, or None."""
        from noughts.proving.proof import WIN as GOAL
        from noughts.proving.proof import ProofSearch

        game = position.game
        if seconds <= 0.005:
            return None
        rate = self._proof_rate.get(game, 1_000.0)
        # the node budget from the measured rate, and the clock itself between the search's slices
        # (a rate measured on easier positions let the proof overrun its share)
        clock = Budget(max_seconds=seconds, max_memory=None)
        search = ProofSearch(
            game, position.to_move, GOAL, clock, tt_bytes=PROOF_TABLE, max_nodes=max(20, int(rate * seconds))
        )
        t = time.perf_counter()
        try:
            proof = search.prove(position)
        except LimitExceeded:
            proof = None
        took = time.perf_counter() - t
        if took > 0.002 and search.nodes >= 20:
            # a first run that loads the kernel reads slow: the next run is then short, and reads true
            self._proof_rate[game] = max(100.0, search.nodes / took)
        if proof is None or not proof.proved or proof.move is None:
            return None
        return cast(int, proof.move)

    def move_values(
        self, position: Position, seconds: float | None = None, *, deep: int = 6
    ) -> list[EngineResult]:
        """The engine's view of every legal move of ``position`` (a claim game) within about
        ``seconds`` (default: the agent's): one :class:`EngineResult` per move, from the
        mover's view, best first (``result.move`` is the move; ``value`` and ``label`` read it).

        A move that ends the game is exact (a win ``W1`` or loss ``L1``). Every other move is
        judged by the opponent's position after it, the score negated: first every move at
        depth 0 (the opponent's win now, two completing cells against it, forced replies and
        a short VCF, else the line-pattern evaluation: one consistent view of the whole
        board), then the best by the opponent's root VCF and alpha-beta at even depths (2, 4,
        ...: so the last move searched is the mover's, as at depth 0, and deep and shallow
        scores compare), best first, in the time left, until the ``deep`` best as the scores
        then stand have all been searched deeper. A move is called a proven win or
        loss only on a proof (see the module docstring): a win now; the mover's VCF win at
        the root (its first move); a win or loss the depth-0 look shows (it searches no
        choice of the opponent's but forced replies, and without the table, whose entries may
        come from selective searches); the opponent's VCF after the move. Other values are
        estimates.
        """
        from noughts.agents import _engine_kernel as K

        if position.is_terminal():
            raise NoughtsError("the game is over: there are no moves to value")
        game = position.game
        if game.claim_rule is None:
            raise NoughtsError(f"the engine searches claim games, not {game}")
        if deep < 0:
            raise NoughtsError(f"deep is the number of moves searched deeply, at least 0, not {deep}")
        started = time.perf_counter()
        if seconds is None:
            seconds = DEFAULT_SECONDS if self.seconds is None else self.seconds
        deadline = started + seconds
        state = self._states.get(game)
        if state is None:
            state = self._states[game] = _State(
                game, self.width, self.leaf_vcf, self.tt, self.three, self.combo, self.lmp
            )
        S, V, P = state.S, state.S[8], state.S[0]
        mover = position.to_move
        opp = int(mover.other)
        results: dict[Move, EngineResult] = {}

        def result(m: Move, score: int, depth: int, nodes: int, began: float, proven: str | None = None,
                   plies: int | None = None, line: tuple[Move, ...] = ()) -> EngineResult:  # fmt: skip
            return EngineResult(m, score, depth, nodes, time.perf_counter() - began, proven, plies, line)

        # the mover's own VCF win at the root proves its first move
        if self.vcf:
            state.load(position)
            line = np.zeros(self.vcf + 1, dtype=np.int64)
            r = K.root_vcf(S, int(mover), self.vcf, max(2_000, int(self._rate * seconds * 0.1)), line)
            if r > 0:
                first = int(line[0])
                moves = tuple(int(m) for m in line[: max(1, (r - 1) // 2)])
                results[first] = result(first, WIN - r, 0, int(V[K.V_VNODES]), started, "win", r, moves)
        # every move at depth 0, without the table
        keep_tt = int(P[K.P_TT])
        P[K.P_TT] = 0
        try:
            for m in position.legal_moves():
                if m in results:
                    continue
                began = time.perf_counter()
                child = position.play(m)
                if child.is_terminal():
                    winner = child.outcome().winner  # type: ignore[union-attr]
                    if winner is None:
                        results[m] = result(m, 0, 1, 0, began)
                    else:
                        won = winner is mover
                        results[m] = result(
                            m, WIN - 1 if won else -(WIN - 1), 1, 0, began, "win" if won else "loss", 1
                        )
                    continue
                state.load(child)
                score = int(K.root(S, 0, opp, SHALLOW_NODES))
                nodes = int(V[K.V_NODES]) + int(V[K.V_VNODES])
                if V[K.V_ABORT]:  # a forced line longer than the cap: the evaluation instead
                    score = int(K.evaluate(S, opp))
                proven, plies = None, None
                if abs(score) > WIN - MATE:
                    proven = "loss" if score > 0 else "win"
                    plies = WIN - abs(score) + 1
                results[m] = result(m, -score, 1, nodes, began, proven, plies)
        finally:
            P[K.P_TT] = keep_tt
        # the most promising, deeper, in the time left: best first, until the ``deep`` best
        # (by the scores as they now stand) have all been searched deeper
        deepened: set[Move] = set()
        while (left := deadline - time.perf_counter()) > 0.005:
            top = sorted((r for r in results.values() if r.proven is None), key=lambda r: -r.score)[:deep]
            todo = [r for r in top if r.move not in deepened]
            if not todo:
                break
            deepened.add(todo[0].move)
            results[todo[0].move] = self._deeper(
                position, todo[0], time.perf_counter() + USE * left / len(todo)
            )
        self.last = None  # the children's searches are not a move of this position
        return sorted(results.values(), key=lambda r: -r.score)

    def _deeper(self, position: Position, shallow: EngineResult, deadline: float) -> EngineResult:
        """One move of :meth:`move_values` searched until ``deadline``: the opponent's VCF, then
        alpha-beta at even depths from the opponent's position; ``shallow`` where no depth
        finishes.
        """
        from noughts.agents import _engine_kernel as K

        began = time.perf_counter()
        state = self._states[position.game]
        S, V = state.S, state.S[8]
        child = position.play(shallow.move)
        opp = int(child.to_move)
        state.load(child)
        nodes = 0
        if self.vcf:
            line = np.zeros(self.vcf + 1, dtype=np.int64)
            cap = max(2_000, int(self._rate * (deadline - began) * 0.25))
            r = int(K.root_vcf(S, opp, self.vcf, cap, line))
            nodes += int(V[K.V_VNODES])
            if r > 0:
                return EngineResult(
                    shallow.move, -(WIN - r - 1), 1, nodes, time.perf_counter() - began, "loss", r + 1
                )
        best, finished = shallow.score, 0
        depth = 2
        while depth <= self.depth:
            now = time.perf_counter()
            left = deadline - now
            if left <= 0:
                break
            score = int(K.root(S, depth, opp, max(500, int(self._rate * left))))
            took = time.perf_counter() - now
            done = int(V[K.V_NODES])
            nodes += done
            if V[K.V_ABORT]:  # as in analyse: a rate read low is corrected and the depth tried again
                self._rate = _rate_after_abort(self._rate, done, took)
                if deadline - time.perf_counter() > RETRY * (deadline - began):
                    continue
                break
            if took > 0.01:
                self._rate = max(1_000.0, done / took)
            best, finished = -score, depth
            depth += 2
            if abs(score) > WIN - MATE or took * 8 > deadline - time.perf_counter():
                break  # the search sees the end, or the next depth would not finish
        if not finished:
            return shallow
        return EngineResult(shallow.move, best, finished + 1, nodes, time.perf_counter() - began)

    def search_depth(self, position: Position, depth: int, max_nodes: int | None = None) -> tuple[Move, int]:
        """One search of exactly ``depth`` plies, no clock and no root VCF: the move and score
        (for tests and analysis). ``max_nodes`` bounds its work (the alpha-beta's nodes and the
        leaf VCFs' steps together, the budget the clock is turned into): past it,
        ``LimitExceeded``.
        """
        from noughts.agents import _engine_kernel as K

        game = position.game
        if game.claim_rule is None or position.is_terminal():
            raise NoughtsError("the engine searches running positions of claim games")
        state = self._states.get(game)
        if state is None:
            state = self._states[game] = _State(
                game, self.width, self.leaf_vcf, self.tt, self.three, self.combo, self.lmp
            )
        state.load(position)
        V = state.S[8]
        score = int(
            K.root(state.S, depth, int(position.to_move), 1 << 62 if max_nodes is None else max_nodes)
        )
        if V[K.V_ABORT]:
            raise LimitExceeded(
                f"stopped after {int(V[K.V_NODES]):,} nodes (the node budget); the search of depth {depth} did not finish"
            )
        return int(V[K.V_BEST]), score

    def _double_threat(self, position: Position) -> tuple[str | None, int | None]:
        """Whether the opponent holds two completing cells (and the mover none): a proven loss."""
        game = position.game
        mover = position.to_move
        rule = game.claim_rule
        if rule == Rule.STANDARD or (rule == Rule.MAKER_BREAKER and game.maker is mover.other):
            k = game.board.k
            me, op = position.owned(mover), position.owned(mover.other)
            cells = 0
            for m in game.board.line_masks:
                if not m & me and (m & op).bit_count() == k - 1:
                    cells |= m & ~op
            if cells.bit_count() >= 2:
                return "loss", 2
        return None, None

    def _done(
        self,
        position: Position,
        move: int,
        score: int,
        depth: int,
        nodes: int,
        started: float,
        proven: str | None,
        plies: int | None,
        line: tuple[Move, ...],
    ) -> EngineResult:
        result = EngineResult(move, score, depth, nodes, time.perf_counter() - started, proven, plies, line)
        if move not in position.legal_moves():  # a kernel fault must not pass as a move
            raise NoughtsError(f"the engine chose {move}, which is not a legal move here")
        self.last = result
        return result


def _rate_after_abort(rate: float, done: int, took: float) -> float:
    """The rate after an iteration that ran out of its ``rate``-based node budget with time
    left: ``done`` nodes in ``took`` seconds measure the rate where the run was long enough to
    time; a shorter one only says the rate was too low, and it grows fourfold (at least to what
    the run shows), so that a few retries find it without a wild guess.
    """
    if took >= 0.01:
        return max(1_000.0, done / took)
    return max(rate * 4, done / 0.01)


def _worth_proving(position: Position) -> bool:
    """Whether a win may be near enough for the root's df-pn: the mover has a line two claims
    short of a threat (``k - 3`` of its marks and at least one, none of the other side's), or
    must answer the opponent's threat. Random play leaves wins that start with a quiet move:
    one claim short of a threat is too strict a gate.
    """
    game = position.game
    k = game.board.k
    me, op = position.owned(position.to_move), position.owned(position.to_move.other)
    for m in game.board.line_masks:
        if not m & op and (m & me).bit_count() >= max(1, k - 3):
            return True
        if not m & me and (m & op).bit_count() == k - 1:
            return True
    return False


def _line_value(rule: Rule, maker: Player | None, w: np.ndarray, a: int, b: int) -> int:
    """One line's pattern value for the first player, as the module docstring defines it."""
    if rule == Rule.MAKER_BREAKER:
        makers, breakers = (a, b) if maker is Player.FIRST else (b, a)
        if breakers:
            return 0
        value = int(w[makers]) + 1
        return value if maker is Player.FIRST else -value
    value = 0
    if a and not b:
        value = int(w[a])
    if b and not a:
        value = -int(w[b])
    return -value if rule == Rule.MISERE else value


def reference_evaluation(position: Position) -> int:
    """The engine's static score of a claim position from the mover's view, computed plainly
    from the position's lines (the kernel keeps it incrementally).
    """
    from noughts.agents._engine_kernel import SCORE_UNIT, weights

    game = position.game
    rule = game.claim_rule
    assert rule is not None
    w = weights(game.board.k)
    b0, b1 = position.owned(Player.FIRST), position.owned(Player.SECOND)
    total = 0
    for m in game.board.line_masks:
        total += _line_value(rule, game.maker, w, (m & b0).bit_count(), (m & b1).bit_count())
    if rule == Rule.CUMULATIVE:
        score = position.score()
        assert score is not None
        total += SCORE_UNIT * (score[0] - score[1])
    return total if position.to_move is Player.FIRST else -total


def _completing(position: Position, player: Player) -> set[int]:
    """The cells that complete a line of ``player`` the other side has not touched, where
    completing a line wins for ``player`` (standard rules; Maker under Maker-Breaker rules).
    """
    game = position.game
    rule = game.claim_rule
    if not (rule == Rule.STANDARD or (rule == Rule.MAKER_BREAKER and game.maker is player)):
        return set()
    mine, theirs = position.owned(player), position.owned(player.other)
    k = game.board.k
    return {c for line in game.board.lines if not any(theirs >> c & 1 for c in line)
            and sum(mine >> c & 1 for c in line) == k - 1 for c in line if not mine >> c & 1}  # fmt: skip


def reference_value(position: Position, depth: int, ply: int = 0) -> int:
    """The engine's score of ``position`` at ``depth`` by plain full-width negamax over the
    position API, no pruning, no table, no VCF: the definition the kernel's search (at full
    width, without leaf VCF or table) is held to. Small boards only (it recurses).
    """
    from noughts.agents._engine_kernel import MAXPLY

    mover = position.to_move
    if _completing(position, mover):
        return WIN - (ply + 1)
    threats = _completing(position, mover.other)
    if len(threats) >= 2:
        return -(WIN - (ply + 2))
    if ply >= MAXPLY - 1 or (not threats and depth <= 0):
        return reference_evaluation(position)
    moves = sorted(threats) if threats else position.legal_moves()
    best = -2 * WIN
    for m in moves:
        child = position.play(m)
        if child.is_terminal():
            winner = child.outcome().winner  # type: ignore[union-attr]
            v = 0 if winner is None else (WIN - (ply + 1) if winner is mover else -(WIN - (ply + 1)))
        else:
            v = -reference_value(child, depth if threats else depth - 1, ply + 1)
        best = max(best, v)
    return best


def from_options(**options: str) -> EngineAgent:
    """The agent of a spec like
    ``engine:seconds=0.5,width=12,vcf=12,vct=8,proof=0.25,leaf_vcf=3,depth=64,tt=20,three=1500,combo=0``.
    """
    types = {
        "seconds": float,
        "width": int,
        "vcf": int,
        "vct": int,
        "proof": float,
        "leaf_vcf": int,
        "depth": int,
        "tt": int,
        "three": int,
        "combo": int,
        "lmp": int,
        "aspire": int,
    }
    o: dict[str, Any] = read_options("engine", options, types)
    seconds = o.pop("seconds", None)
    return EngineAgent(seconds, **o)
