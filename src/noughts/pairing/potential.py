"""Erdős-Selfridge: the danger potential and the strategies that follow it (002 §6.1).

* **Criterion** (Erdős and Selfridge 1973; 002 Theorem 6.1 for k-uniform boards): if the sum
  over all lines of ``2^-|A|`` is below 1/2 and Maker moves first (below 1 when Breaker moves
  first), Breaker wins. :func:`erdos_selfridge` computes the sum for any board.
* **Danger** of a position: every survivor (a line Breaker has not touched) with ``u`` free
  cells is worth ``2^-u``; a line Maker owns is worth 1; eliminated lines are worth 0.
* **Breaker's potential move**: the free cell whose claim removes the most danger, i.e. that
  maximises ``sum of 2^-u(A)`` over the survivors ``A`` through it (every survivor through the
  cell dies). **Greedy Maker**: the free cell whose claim adds the most danger, which is the
  same sum (every survivor through the cell doubles). Ties go to the lowest cell index.

Why 1/2: with Maker to move and danger ``D < 1/2``, Maker's move at most doubles it (``< 1``),
and a round of Breaker's potential move then Maker's move never raises it, so no line ever
reaches danger 1 and Breaker wins by the potential strategy. 002 writes ``D_i`` for the
danger just after Maker's ``i``-th move; ``D_i < 1/2`` then certainly suffices (the proof
needs only ``D_i < 1``). :func:`simulate` reports the rounds where each first happens.

The fast path weighs a survivor with ``u`` free cells as the integer ``2^(k-u)`` (``k`` the
line length), so sums and ties are exact, and works on the line x cell incidence matrix with
NumPy; :func:`danger_reference` and :func:`potential_move_reference` are the plain references
over exact fractions that the tests hold it to.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from noughts.core import Game, NoughtsError, Player, Position, Rule
from noughts.core.board import Board
from noughts.pairing.hypergraph import check_breaker

__all__ = [
    "BREAKERS",
    "MAKERS",
    "TIES",
    "ErdosSelfridge",
    "Round",
    "Simulation",
    "danger",
    "danger_reference",
    "erdos_selfridge",
    "plot_simulation",
    "potential_move",
    "potential_move_reference",
    "simulate",
]

MAKERS = ("greedy", "random")
TIES = ("first", "random")
BREAKERS = ("potential", "random")


@dataclass(frozen=True)
class ErdosSelfridge:
    """The Erdős-Selfridge sum of a game's lines and whether it is below the threshold."""

    total: Fraction
    threshold: Fraction
    holds: bool
    lines: int


def erdos_selfridge(game: Game) -> ErdosSelfridge:
    """Sum of ``2^-|A|`` over the lines; ``holds`` when below 1/2 (Maker first) or 1 (Breaker
    first under ``maker_breaker(..., breaker_first=true)``), and then Breaker wins.

    >>> import noughts
    >>> es = erdos_selfridge(noughts.game("hypercube(7,3)"))
    >>> es.total, float(es.total), es.holds             # 193/128 (002 §6.1)
    (Fraction(193, 128), 1.5078125, False)

    Like pairings, the criterion needs a breaking side: misère, veto, Notakto and Otrio are
    refused (``NoughtsError``), as ``pairing find`` refuses them.
    """
    check_breaker(game, None)
    total = sum((Fraction(1, 2 ** len(line)) for line in game.board.lines), Fraction(0))
    breaker_first = game.claim_rule is Rule.MAKER_BREAKER and game.maker is Player.SECOND
    threshold = Fraction(1) if breaker_first else Fraction(1, 2)
    return ErdosSelfridge(total, threshold, total < threshold, len(game.board.lines))


@lru_cache(maxsize=16)
def _incidence(board: Board) -> npt.NDArray[np.int64]:
    out = np.zeros((len(board.lines), board.num_cells), dtype=np.int64)
    for j, line in enumerate(board.lines):
        out[j, list(line)] = 1
    return out


def _bits(board: Board, mask: int) -> npt.NDArray[np.bool_]:
    out = np.zeros(board.num_cells, dtype=bool)
    out[board.cells_in(mask)] = True
    return out


class _State:
    """Survivors, free counts and free cells of a position, as arrays (the fast path)."""

    def __init__(self, board: Board, maker_bits: int, breaker_bits: int):
        self.board = board
        self.k = board.k
        self.inc = _incidence(board)
        self.free = ~_bits(board, maker_bits | breaker_bits)
        breaker = _bits(board, breaker_bits)
        self.alive = ~(self.inc[:, breaker].any(axis=1))
        self.nfree = self.inc[:, self.free].sum(axis=1)

    def weights(self) -> npt.NDArray[np.int64]:
        w = np.left_shift(np.int64(1), np.int64(self.k) - self.nfree)
        return np.where(self.alive, w, 0)

    def danger(self) -> Fraction:
        return Fraction(int(self.weights().sum()), 2**self.k)

    def scores(self) -> npt.NDArray[np.int64]:
        s = self.weights() @ self.inc
        return np.where(self.free, s, -1)

    def best(self, rng: np.random.Generator | None = None) -> int:
        scores = self.scores()
        if rng is None:
            return int(np.argmax(scores))  # the first maximum: lowest cell on ties
        return int(rng.choice(np.flatnonzero(scores == scores.max())))

    def maker_claims(self, cell: int) -> None:
        self.free[cell] = False
        self.nfree -= self.inc[:, cell]

    def breaker_claims(self, cell: int) -> None:
        self.free[cell] = False
        self.nfree -= self.inc[:, cell]
        self.alive &= self.inc[:, cell] == 0

    def maker_won(self) -> bool:
        return bool((self.alive & (self.nfree == 0)).any())


def _sides(position: Position, breaker: Player | None) -> tuple[Player, Player]:
    side = check_breaker(position.game, breaker)
    return side.other, side


def danger(position: Position, breaker: Player | None = None) -> Fraction:
    """The danger Breaker faces in ``position`` (module docstring), exactly.

    >>> import noughts
    >>> danger(noughts.game("maker_breaker(hypercube(7,3))").start())
    Fraction(193, 128)
    """
    maker, side = _sides(position, breaker)
    return _State(position.game.board, position.owned(maker), position.owned(side)).danger()


def potential_move(position: Position, breaker: Player | None = None) -> int:
    """The free cell of largest danger reduction for the breaking side (ties: lowest cell)."""
    maker, side = _sides(position, breaker)
    if position.is_terminal() or not position.legal_moves():
        raise NoughtsError("the game is over: there is no move to choose")
    return _State(position.game.board, position.owned(maker), position.owned(side)).best()


def danger_reference(position: Position, breaker: Player | None = None) -> Fraction:
    """:func:`danger` the plain way, line by line over exact fractions."""
    maker, side = _sides(position, breaker)
    board = position.game.board
    mine, theirs = position.owned(side), position.owned(maker)
    total = Fraction(0)
    for line, mask in zip(board.lines, board.line_masks, strict=True):
        if mask & mine:
            continue
        total += Fraction(1, 2 ** sum(1 for c in line if not (theirs >> c & 1)))
    return total


def potential_move_reference(position: Position, breaker: Player | None = None) -> int:
    """:func:`potential_move` the plain way: try each free cell, keep the first best."""
    maker, side = _sides(position, breaker)
    board = position.game.board
    mine, theirs = position.owned(side), position.owned(maker)
    best, best_cell = Fraction(-1), -1
    for cell in position.legal_moves():
        gain = Fraction(0)
        for j in board.lines_through[cell]:  # type: ignore[index]
            if board.line_masks[j] & mine:
                continue
            gain += Fraction(1, 2 ** sum(1 for c in board.lines[j] if not (theirs >> c & 1)))
        if gain > best:
            best, best_cell = gain, int(cell)  # type: ignore[arg-type]
    return best_cell


@dataclass(frozen=True)
class Round:
    """One round of a simulation: Maker's move and the danger after it (002's ``D_i``), then
    Breaker's move (None when the game ended first) and the danger after it.
    """

    number: int
    maker_move: int
    danger_after_maker: Fraction
    breaker_move: int | None
    danger_after_breaker: Fraction | None


@dataclass(frozen=True)
class Simulation:
    """A game of Maker against Breaker played to its end, round by round."""

    game: Game
    maker: str
    breaker: str
    start_danger: Fraction
    rounds: tuple[Round, ...]
    winner: str  # "Maker", "Breaker", or "nobody" (a full board)
    first_below_half: int | None  # first i with D_i < 1/2 (002's D_i, after Maker's move)
    first_below_half_maker_to_move: int | None  # first round whose danger after Breaker < 1/2
    first_below_one: int | None  # first i with D_i < 1 (enough, by the proof)
    seed: int | None = None
    opening: int | None = None
    ties: str = "first"


def simulate(
    game: Game,
    maker: str = "greedy",
    breaker: str = "potential",
    *,
    seed: int | None = None,
    opening: int | None = None,
    ties: str = "first",
) -> Simulation:
    """Play Maker (``greedy`` or ``random``) against Breaker (``potential`` or ``random``) on
    ``game``'s board from the empty board to the end, Maker first (002 §6.1, Figure 4).

    Lines are Maker's to complete and Breaker's to block whatever the game's rules: the
    simulation is the Maker-Breaker game on the board. ``opening`` fixes Maker's first cell
    (Figure 4 right: the centre, then random moves); ``seed`` seeds the random players.
    ``ties="first"`` breaks ties between equally good cells by the lowest cell index,
    ``ties="random"`` uniformly at random (seeded by ``seed``).

    >>> import noughts
    >>> s = simulate(noughts.game("hypercube(5,3)"))
    >>> s.winner, s.rounds[0].maker_move == noughts.game("hypercube(5,3)").board.cell_at((2, 2, 2))
    ('Breaker', True)
    """
    if maker not in MAKERS:
        raise NoughtsError(f"Maker plays one of {', '.join(MAKERS)}, not {maker!r}")
    if breaker not in BREAKERS:
        raise NoughtsError(f"Breaker plays one of {', '.join(BREAKERS)}, not {breaker!r}")
    check_breaker(game, None)
    board = game.board
    if opening is not None and not 0 <= opening < board.num_cells:
        raise NoughtsError(f"the opening {opening!r} is not a cell of {board.spec}")
    if ties not in TIES:
        raise NoughtsError(f"ties are broken by one of {', '.join(TIES)}, not {ties!r}")
    rng = np.random.default_rng(seed)
    tie_rng = rng if ties == "random" else None
    state = _State(board, 0, 0)
    start = state.danger()
    rounds: list[Round] = []
    winner = "nobody"
    number = 0
    while state.free.any():
        number += 1
        if number == 1 and opening is not None:
            m = opening
        elif maker == "greedy":
            m = state.best(tie_rng)
        else:
            m = int(rng.choice(np.flatnonzero(state.free)))
        state.maker_claims(m)
        after_maker = state.danger()
        if state.maker_won():
            rounds.append(Round(number, m, after_maker, None, None))
            winner = "Maker"
            break
        if not state.free.any():
            rounds.append(Round(number, m, after_maker, None, None))
            break
        b = state.best(tie_rng) if breaker == "potential" else int(rng.choice(np.flatnonzero(state.free)))
        state.breaker_claims(b)
        rounds.append(Round(number, m, after_maker, b, state.danger()))
        if not state.alive.any():
            winner = "Breaker"
            break
    if winner == "nobody" and not state.maker_won():
        winner = "Breaker"  # the board is full and Maker owns no line
    half = Fraction(1, 2)
    first_half = next((r.number for r in rounds if r.danger_after_maker < half), None)
    first_half_b = next(
        (r.number for r in rounds if r.danger_after_breaker is not None and r.danger_after_breaker < half),
        None,
    )
    first_one = next((r.number for r in rounds if r.danger_after_maker < 1), None)
    return Simulation(
        game,
        maker,
        breaker,
        start,
        tuple(rounds),
        winner,
        first_half,
        first_half_b,
        first_one,
        seed,
        opening,
        ties,
    )


def plot_simulation(sim: Simulation, path: str | Path) -> Path:
    """Write the danger round by round as a PNG, like 002 Figure 4 (matplotlib, Agg)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=120)
    xs = [r.number for r in sim.rounds]
    ax.plot(
        xs, [float(r.danger_after_maker) for r in sim.rounds], "o-", ms=3, label="after Maker's move ($D_i$)"
    )
    bx = [r.number for r in sim.rounds if r.danger_after_breaker is not None]
    by = [float(r.danger_after_breaker) for r in sim.rounds if r.danger_after_breaker is not None]
    ax.plot(bx, by, "s--", ms=2.5, alpha=0.7, label="after Breaker's move")
    ax.axhline(0.5, color="crimson", lw=1, label="1/2")
    if sim.first_below_half is not None:
        ax.axvline(sim.first_below_half, color="grey", lw=0.8, ls=":")
    ax.set_yscale("log")
    ax.set_xlabel("round $i$")
    ax.set_ylabel("total danger")
    title = f"{sim.game.board.spec}: {sim.maker} Maker vs {sim.breaker} Breaker ({sim.winner} wins)"
    if sim.first_below_half is not None:
        title += f"; $D_i < 1/2$ from $i = {sim.first_below_half}$"
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    try:
        fig.savefig(path, format="png")
    except OSError as e:
        raise NoughtsError(f"cannot write the plot to {path}: {e.strerror or e}") from None
    finally:
        plt.close(fig)
    return path
