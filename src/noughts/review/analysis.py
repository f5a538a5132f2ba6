"""Review a game against the truth: the value before and after every move, each move classed,
each player's accuracy.

For every position of a game's main line the review asks the exact solver for the value of
every legal move (:func:`noughts.exact.api.move_values`, one engine for the whole game so its
table serves every position), within a budget per position and one for the whole review. A
position the solver does not finish in its budget is handed to an estimator
(:mod:`noughts.review.estimators`, whose work is bounded by what is left of the whole budget),
and everything said about it is labelled an estimate.

A move is

* **best** when it keeps the best value there is: the best result (win, draw, loss; under
  scoring rules the best final score difference's sign) and, within it, the fastest win or
  the slowest loss (scoring rules: the largest margin). Draws are not told apart by length,
  and distances that are not known are not told apart at all;
* an **inaccuracy** when it keeps the result but delays a win or hastens a loss (narrows the
  margin);
* a **mistake** when it gives the result away: a win thrown to a draw or a loss, a draw to a
  loss.

From an estimate, a move is best when the estimator ranks it first; a mistake only where the
estimator has proved what it gives away: a move proved to lose while another move is not, or a
proved result below another move's proved result; any other move is an inaccuracy (the
estimator ranks another move first, and proves nothing about the result). A player's accuracy is their share of best moves
among their judged moves.

Positions are analysed from the end of the game back to its start: the last positions are the
cheapest, and once :attr:`give_up_after` positions in a row have gone past their budget the
earlier (larger) ones go straight to the estimator. When the whole budget runs out the review
stops with :class:`ReviewStopped`, a ``LimitExceeded`` that carries what was reviewed.

>>> import noughts
>>> r = review("tictactoe", ["a1", "b2", "c3", "b1"])
>>> [(m.move, m.judgement) for m in r.moves]
[('a1', 'best'), ('b2', 'best'), ('c3', 'best'), ('b1', 'best')]
>>> r = review("tictactoe", ["b2", "b1"])
>>> m = r.moves[1]
>>> m.judgement, m.before.text(r.game), m.after.text(r.game), m.best
('mistake', 'draw', 'x wins in 5', ('a1', 'c1', 'a3', 'c3'))
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from noughts.core import Game, LimitExceeded, Move, NoughtsError, Player, Position
from noughts.core.budget import Budget
from noughts.exact.engines import PYTHON_SEARCH_CELLS
from noughts.record import Line, Node, Record
from noughts.review.estimators import Estimator, make_estimator
from noughts.review.evaluation import Evaluation, rank

if TYPE_CHECKING:
    from noughts.exact.api import ValueOracle

__all__ = [
    "BEST",
    "INACCURACY",
    "MISTAKE",
    "NAGS",
    "MoveReview",
    "PlayerSummary",
    "Review",
    "ReviewStopped",
    "review",
]

BEST, INACCURACY, MISTAKE = "best", "inaccuracy", "mistake"

NAGS = {INACCURACY: 6, MISTAKE: 2}
"""PGN's annotation glyphs for the classes (``$6`` ?!, ``$2`` ?), in :meth:`Review.annotated`."""

DEFAULT_MAX_SECONDS = 60.0
DEFAULT_POSITION_SECONDS = 5.0
DEFAULT_MAX_MEMORY = 2 * 1024**3


@dataclass(frozen=True)
class MoveReview:
    """One move of the main line, judged.

    ``ply``: its number (1 for the game's first move); ``player``: who made it; ``move``: its
    notation; ``before`` and ``after``: the values of the positions before and after it (None
    where unknown); ``best``: the best moves there (notation, in ``legal_moves()`` order);
    ``judgement``: ``best``, ``inaccuracy``, ``mistake`` or None (not judged); ``exact``: judged
    from exact values; ``forced``: the only legal move; ``reviewed``: the review reached it
    (False after the whole budget ran out).
    """

    ply: int
    player: Player
    move: str
    before: Evaluation | None
    after: Evaluation | None
    best: tuple[str, ...]
    judgement: str | None
    exact: bool
    forced: bool
    reviewed: bool

    def to_json(self, game: Game, name: str) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "player": self.player.name.lower(),
            "label": game.player_label(self.player),
            "name": name,
            "move": self.move,
            "before": None if self.before is None else self.before.to_json(game),
            "after": None if self.after is None else self.after.to_json(game),
            "best": list(self.best),
            "class": self.judgement,
            "exact": self.exact,
            "forced": self.forced,
            "reviewed": self.reviewed,
        }


@dataclass(frozen=True)
class PlayerSummary:
    """One player's moves by class; ``accuracy`` is the share of best moves among the judged."""

    player: Player
    name: str
    moves: int
    best: int
    inaccuracies: int
    mistakes: int
    exact: int

    @property
    def judged(self) -> int:
        return self.best + self.inaccuracies + self.mistakes

    @property
    def accuracy(self) -> float | None:
        return self.best / self.judged if self.judged else None

    def to_json(self, game: Game) -> dict[str, Any]:
        accuracy = self.accuracy
        return {
            "name": self.name,
            "label": game.player_label(self.player),
            "moves": self.moves,
            "judged": self.judged,
            "best": self.best,
            "inaccuracies": self.inaccuracies,
            "mistakes": self.mistakes,
            "exact": self.exact,
            "accuracy": None if accuracy is None else round(accuracy, 4),
        }


@dataclass(frozen=True)
class Review:
    """A game's review: its record, every position's value, every move judged."""

    record: Record
    values: tuple[Evaluation | None, ...]
    """The value of each position of the main line, the start first (None where unknown)."""
    moves: tuple[MoveReview, ...]
    engine: str | None
    """The exact engine (None where none takes the game)."""
    estimator: str | None
    """The estimator's label (None: no estimates)."""
    max_seconds: float | None
    position_seconds: float | None
    complete: bool
    stopped: str | None
    """Why the review stopped early (the budget's message), or None."""
    seconds: float
    nodes: int

    @property
    def game(self) -> Game:
        return self.record.game

    @property
    def players(self) -> dict[Player, PlayerSummary]:
        """Each player's summary (:class:`PlayerSummary`)."""
        names = self.record.players()
        out = {}
        for p in Player:
            mine = [m for m in self.moves if m.player is p]
            out[p] = PlayerSummary(
                p,
                names[p],
                len(mine),
                sum(m.judgement == BEST for m in mine),
                sum(m.judgement == INACCURACY for m in mine),
                sum(m.judgement == MISTAKE for m in mine),
                sum(m.exact and m.judgement is not None for m in mine),
            )
        return out

    @property
    def reviewed(self) -> int:
        """Moves reached by the review."""
        return sum(m.reviewed for m in self.moves)

    def annotated(self) -> Record:
        """The record with the review written into it, as annotators do: each inaccuracy marked
        ``$6`` (?!) and each mistake ``$2`` (?), with a comment giving the value it left and the
        best moves, and the first best move as a variation; the tag ``Annotator`` says who
        judged (unless the record names one already). Comments and variations already there
        are kept.
        """
        game = self.game
        nodes = list(self.record.moves.moves)
        for m in self.moves:
            if m.judgement not in (INACCURACY, MISTAKE) or not m.best:
                continue
            node = nodes[m.ply - 1]
            nag = NAGS[m.judgement]
            before = "?" if m.before is None else m.before.text(game)
            after = "?" if m.after is None else m.after.text(game)
            word = m.judgement.capitalize() + ("" if m.exact else " (estimate)")
            note = f"{word}: {after} (was {before}); best {', '.join(m.best)}."
            if node.comment is None:
                comment = note
            else:
                comment = node.comment + ("" if node.comment[-1:] in ".!?" else ".") + " " + note
            known = {v.moves[0].move for v in node.variations}
            extra = () if known & set(m.best) else (Line((Node(m.best[0]),)),)
            nodes[m.ply - 1] = Node(
                node.move,
                comment,
                node.nags if nag in node.nags else (*node.nags, nag),
                (*node.variations, *extra),
            )
        judge = f"noughts review ({self.engine or 'no exact engine'}"
        if self.estimator is not None and any(v is not None and not v.is_exact for v in self.values):
            judge += f", estimates by {self.estimator}"
        tags = dict(self.record.tags)
        tags.setdefault("Annotator", judge + ")")
        r = self.record
        return Record(r.game, Line(tuple(nodes), r.moves.comment), r.first, r.second, r.result, r.start, tags)

    def to_json(self) -> dict[str, Any]:
        """The ``review --json`` document (its keys: ``docs/records.md``, "Reviewing a game")."""
        game, record = self.game, self.record
        names = record.players()
        positions = record.positions()
        return {
            "game": str(game),
            "first": record.first,
            "second": record.second,
            "result": None if record.result is None else record.result.value,
            "start": positions[0].text(),
            "engine": self.engine,
            "estimator": self.estimator,
            "max_seconds": self.max_seconds,
            "position_seconds": self.position_seconds,
            "complete": self.complete,
            "stopped": self.stopped,
            "reviewed": self.reviewed,
            "positions": [
                {
                    "ply": k,
                    "position": p.text(),
                    "to_move": None if p.is_terminal() else p.to_move.name.lower(),
                    "value": None if v is None else v.to_json(game),
                }
                for k, (p, v) in enumerate(zip(positions, self.values, strict=True))
            ],
            "moves": [m.to_json(game, names[m.player]) for m in self.moves],
            "players": {p.name.lower(): s.to_json(game) for p, s in self.players.items()},
            "seconds": round(self.seconds, 6),
            "nodes": self.nodes,
        }


class ReviewStopped(LimitExceeded):
    """The whole review's budget ran out; ``review`` holds what was reviewed."""

    def __init__(self, message: str, partial: Review):
        super().__init__(message)
        self.review = partial


@dataclass
class _Analysis:
    """What is known of one position's moves: each move's value after it, and how it was found."""

    children: dict[Move, Evaluation] | None  # None: nothing (no estimator, or it failed)
    exact: bool


POLICY_LABELS = {"alpha-beta": "alpha-beta (numba)", "python": "alpha-beta", "table": "solved table"}
"""The review's names of the policy's engines (as the review names the engines themselves)."""


def _engine_label(oracle: object) -> str:
    from noughts.solving import PolicyOracle, choose_engine

    if isinstance(oracle, PolicyOracle):  # what answered, else what the policy runs first
        name = oracle.engine or choose_engine(oracle.game)
        if name == "alpha-beta" and oracle.game.board.num_cells <= PYTHON_SEARCH_CELLS:
            name = "python"
        return POLICY_LABELS.get(name, name)
    return str(
        getattr(oracle, "label", None)
        or {"FastSolver": "alpha-beta (numba)", "Searcher": "alpha-beta", "SolvedTable": "solved table"}.get(
            type(oracle).__name__, type(oracle).__name__
        )
    )


def _exact_children(oracle: ValueOracle, position: Position, budget: Budget) -> dict[Move, Evaluation]:
    """Every legal move's value after it, from the oracle (in ``legal_moves()`` order; values
    whose distance is not known are taken as they are).
    """
    from noughts.solving import PolicyOracle

    if isinstance(oracle, PolicyOracle):  # the policy: each question under the position's budget
        return {
            m: Evaluation.exact(oracle.value_within(position.play(m), budget)) for m in position.legal_moves()
        }
    if hasattr(oracle, "budget"):  # an engine given by the caller, which reads its own budget
        oracle.budget = budget
    return {m: Evaluation.exact(oracle.value(position.play(m))) for m in position.legal_moves()}


def _best_value(children: dict[Move, Evaluation], mover: Player) -> Evaluation:
    """The position's value from its moves': the best move's value, one ply further away."""
    return max(children.values(), key=lambda ev: _key(ev, mover)).after_move()


def _key(ev: Evaluation, mover: Player) -> tuple[float, float]:
    """A total order on moves for ``mover`` (exact values and estimates alike)."""
    r = rank(ev, mover)
    if r.result is None:  # an unproven estimate: its worth on (-1, 1)
        return (ev.for_player(mover), 0.0)
    return (float(r.result), 0.0 if r.margin is None else r.margin)


def _judge(
    children: dict[Move, Evaluation], played: Move, mover: Player, exact: bool
) -> tuple[list[Move], str]:
    """The best moves (legal order) and the played move's class (see the module docstring)."""
    if exact:
        ranks = {m: rank(ev, mover) for m, ev in children.items()}
        top = max(r.result for r in ranks.values() if r.result is not None)
        margins = [r.margin for r in ranks.values() if r.result == top and r.margin is not None]
        top_margin = max(margins) if margins else None
        best = [
            m
            for m, r in ranks.items()
            if r.result == top and (r.margin is None or top_margin is None or r.margin == top_margin)
        ]
        mine = ranks[played]
        if mine.result is not None and mine.result < top:
            return best, MISTAKE
        return best, BEST if played in best else INACCURACY
    keys = {m: _key(ev, mover) for m, ev in children.items()}
    top_key = max(keys.values())
    best = [m for m, k in keys.items() if k == top_key]
    if played in best:
        return best, BEST
    results = {m: rank(ev, mover).result for m, ev in children.items()}
    result = results[played]
    if result is not None:
        proven_better = any(r is not None and r > result for r in results.values())
        could_be_better = result == -1 and any(r is None or r > -1 for r in results.values())
        if proven_better or could_be_better:  # a result given away, as far as the estimator proved
            return best, MISTAKE
    return best, INACCURACY


def _as_record(
    subject: Record | Game | str, moves: Sequence[Move | str], start: Position | str | None
) -> Record:
    if isinstance(subject, Record):
        if moves or start is not None:
            raise NoughtsError("a record holds its own moves and start: pass the record alone")
        return subject
    if isinstance(subject, str):
        from noughts.core import game as make_game

        subject = make_game(subject)
    if not isinstance(subject, Game):
        raise NoughtsError(
            f"a review is of a Record, or of a game and its moves, not {type(subject).__name__}"
        )
    texts = [m if isinstance(m, str) else subject.format_move(m) for m in moves]
    return Record(subject, texts, start=start)  # type: ignore[arg-type]


def _default_oracle(game: Game, budget: Budget) -> ValueOracle | None:
    """The one policy's engines of ``game`` (:class:`noughts.solving.PolicyOracle`, so each
    position gets the engine and value ``noughts.solve`` gives it); None where no exact engine
    takes the game (the review then estimates only).
    """
    from noughts.solving import PolicyOracle

    try:
        oracle: ValueOracle = PolicyOracle(game, budget)
    except LimitExceeded:
        raise
    except NoughtsError:  # no exact engine takes this game: estimates only
        return None
    return oracle


def _move_reviews(
    game: Game,
    positions: Sequence[Position],
    notation: Sequence[str],
    played: Sequence[Move],
    analyses: Sequence[_Analysis | None],
    values: Sequence[Evaluation | None],
) -> list[MoveReview]:
    """Each move of the main line judged against the analysis of the position it was played in."""
    reviews = []
    for i in range(1, len(played) + 1):
        a = analyses[i - 1]
        p = positions[i - 1]
        best: list[Move] = []
        judgement = None
        if a is not None and a.children:
            best, judgement = _judge(a.children, played[i - 1], p.to_move, a.exact)
        reviews.append(
            MoveReview(
                ply=i,
                player=p.to_move,
                move=notation[i - 1],
                before=values[i - 1],
                after=values[i],
                best=tuple(game.format_move(m) for m in best),
                judgement=judgement,
                exact=a is not None and a.exact and judgement is not None,
                forced=len(p.legal_moves()) == 1,
                reviewed=a is not None,
            )
        )
    return reviews


def review(
    subject: Record | Game | str,
    moves: Sequence[Move | str] = (),
    *,
    start: Position | str | None = None,
    budget: Budget | None = None,
    position_seconds: float | None = DEFAULT_POSITION_SECONDS,
    estimator: Estimator | str | None = "auto",
    oracle: ValueOracle | None = None,
    give_up_after: int | None = 2,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review a game's main line (see the module docstring).

    ``subject``: a :class:`~noughts.record.Record`, or a game (or spec) with its ``moves`` (move
    objects or notation) and ``start``. ``budget`` bounds the whole review (default 60 s and
    2 GiB); ``position_seconds`` the exact analysis of each position (None: only the whole
    budget). ``estimator``: an :class:`~noughts.review.estimators.Estimator`, a spec (``auto``,
    ``minimax:depth=2``, ``mcts:sims=2000``) or None / ``none`` for no estimates. ``oracle``:
    the exact engine (default :func:`noughts.exact.api.make_engine`; a solved table works too).
    ``give_up_after``: exact failures in a row after which earlier positions are only estimated
    (None: always try). ``progress(done, total)`` is called after each position.

    Raises :class:`ReviewStopped` (a ``LimitExceeded``) with the partial review when the whole
    budget runs out.
    """
    started = time.perf_counter()
    record = _as_record(subject, moves, start)
    game = record.game
    if budget is None:
        budget = Budget(max_seconds=DEFAULT_MAX_SECONDS, max_memory=DEFAULT_MAX_MEMORY)
    if isinstance(estimator, str):
        estimator = make_estimator(estimator)
    if oracle is None:
        oracle = _default_oracle(game, budget)
    positions = record.positions()
    notation = [n.move for n in record.moves.moves]
    played = record.main_line()
    n = len(played)
    analyses: list[_Analysis | None] = [None] * (n + 1)
    values: list[Evaluation | None] = [None] * (n + 1)
    failures = 0
    stopped: str | None = None
    done = 0

    def position_budget() -> Budget:
        left = budget.remaining()
        if left is None:
            seconds = position_seconds
        else:
            seconds = left if position_seconds is None else min(left, position_seconds)
        return Budget(max_seconds=seconds, max_memory=budget.max_memory, max_cpu_seconds=None)

    try:
        for k in range(n, -1, -1):
            budget.check()
            p = positions[k]
            if p.is_terminal():
                from noughts.exact.reference import terminal_value

                values[k] = Evaluation.exact(terminal_value(p))
                analyses[k] = _Analysis({}, True)
            else:
                analysis = None
                if oracle is not None and (give_up_after is None or failures < give_up_after):
                    try:
                        analysis = _Analysis(_exact_children(oracle, p, position_budget()), True)
                        failures = 0
                    except LimitExceeded:
                        if budget.expired():
                            raise
                        failures += 1
                if analysis is None and estimator is not None:
                    try:
                        analysis = _Analysis(
                            {
                                e.move: e.value
                                for e in estimator.estimate(p, Budget(budget.remaining(), budget.max_memory))
                            },
                            False,
                        )
                    except LimitExceeded:
                        if budget.expired():
                            raise
                analysis = analysis or _Analysis(None, False)
                analyses[k] = analysis
                children = analysis.children
                if children:
                    values[k] = _best_value(children, p.to_move)
                    if k < n:  # the move played: exact beats an estimate, a proof beats a guess
                        known, here = values[k + 1], children[played[k]]
                        if known is None or (
                            not known.is_exact
                            and (here.is_exact or (known.outcome is None and here.outcome is not None))
                        ):
                            values[k + 1] = here
            done += 1
            if progress is not None:
                progress(done, n + 1)
    except LimitExceeded:
        try:
            budget.check()
        except LimitExceeded as whole:  # the review's own budget: say so in its words
            e = whole
        stopped = str(e)
    finally:
        from noughts.solving import PolicyOracle

        if oracle is not None and not isinstance(oracle, PolicyOracle) and hasattr(oracle, "budget"):
            oracle.budget = budget  # a caller's engine, which read the positions' budgets

    reviews = _move_reviews(game, positions, notation, played, analyses, values)
    result = Review(
        record=record,
        values=tuple(values),
        moves=tuple(reviews),
        engine=None if oracle is None else _engine_label(oracle),
        estimator=None if estimator is None else estimator.label,
        max_seconds=budget.max_seconds,
        position_seconds=position_seconds,
        complete=stopped is None,
        stopped=stopped,
        seconds=time.perf_counter() - started,
        nodes=int(getattr(oracle, "nodes", 0)),
    )
    if stopped is not None:
        reached = [m.ply for m in reviews if m.reviewed]
        span = f" (moves {reached[0]}-{reached[-1]})" if reached else ""
        raise ReviewStopped(f"{stopped}; reviewed {len(reached)} of {n} moves{span}", result)
    return result
