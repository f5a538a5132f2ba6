"""The computer-assisted proof that Breaker wins Maker-Breaker 7x7x7 (002 §4), re-run.

**The strategy (002 §4.2-4.3).** Coordinates here are the source's, 1-based. The four
*superdiagonals* A: (k,k,k), B: (k,8-k,k), C: (8-k,k,k), D: (8-k,8-k,k) meet at the centre
(4,4,4); their other cells are the cells of degree 7.

* Maker opens in the centre (class ``centre``, §4.2). Breaker takes P = (2,2,2) on A. Up to a
  symmetry fixing the centre and P, Maker's second move has first coordinate at most 4, and
  Breaker takes Q = (5,3,5) on B. Breaker's third move is the first free cell of
  (7,1,1), (1,7,7), (7,7,1), (1,1,7) (the corners of C and D), the fourth the first free cell of
  the other of C and D, from its corner inwards. The four moves eliminate 7 + 7 + 7 + 6 = 27
  lines; 166 survive on 335 free cells, and Breaker pairs.
* Maker opens elsewhere (class ``other``, §4.3). Breaker takes the centre. Up to a symmetry,
  both of Maker's first two moves have first coordinate at most 4; Breaker takes X = (7,7,7)
  on A, then Y = (5,3,5) on B, or Z = (6,2,6) if Maker took Y: 13 + 6 + 6 = 25 lines
  eliminated; 168 survive on 337 free cells.

The source gives the cells' coordinates as formulas, which the text we have has lost; the cells
above are the choices that satisfy every claim it makes about them (7, 7, 7 and 6 new lines
eliminated, 27 in all; the first coordinate of Breaker's B-cell above 4), and
:func:`check_plan_claims` checks those claims. The other choice satisfying them,
P = (3,3,3) with Q = (6,2,6), is :data:`ALT_CENTRE`.

**Where the source's normalisation falls short.** Rotations about A fix the centre and P, and
so do all symmetries that do (the coordinate permutations); none moves a cell whose
coordinates are all at least 5 into the half "first coordinate at most 4". So the 27 second
moves in {5,6,7}^3 are not covered by the source's 194. They are harmless: Q = (5,3,5) is still
free after them, so Breaker plays the same way, and the complete casework adds them
(``complete=True``, the default). Likewise in §4.3 two first moves strictly on opposite sides
of the centre in every coordinate (e.g. (1,1,1) and (7,7,7)) can never both be brought into the
half; such a pair lies in the two octants of one superdiagonal, so a symmetry maps it to the
octants of D, where A and B are untouched and Breaker's X, Y, Z are free; these 27 x 27 pairs
are added too. The published counts (194·339·337 = 22,163,142 and 195·194·339 = 12,824,370)
are the sub-counts of the source's own normalisation, reproduced by
``count_cases(plan("centre-as-published"))`` and ``count_cases(plan("other-as-published"))``.
They count move sequences, not distinct boards (Maker's last two moves in either order often
give the same board).

**The computation.** A *node* fixes every move but Maker's last; :mod:`_cube7_kernels`
settles all of a node's leaves with one repaired matching and one alternating search (see
there). Work is split by Maker's first free choices (the second move in ``centre``, the
first in ``other``) and mapped over :mod:`noughts.parallel`. The reference,
:func:`reference_leaf`, builds each leaf's graph and runs SciPy's Hopcroft-Karp from nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from noughts.core.board import Board
from noughts.core.codes import Rule
from noughts.core.common import Player
from noughts.core.errors import LimitExceeded, NoughtsError
from noughts.core.registry import game as make_game

if TYPE_CHECKING:
    from noughts.parallel.backends import Progress

__all__ = [
    "ALT_CENTRE",
    "ChunkResult",
    "Plan",
    "count_boards",
    "count_cases",
    "cube7_plans",
    "greedy_cases",
    "greedy_list",
    "iter_leaves",
    "iter_nodes",
    "known_plan",
    "node_arrays",
    "orbit_representatives",
    "plan",
    "plan_names",
    "prove_computed",
    "reference_leaf",
    "settle_chunk",
    "split_prefixes",
]

Coord = tuple[int, ...]

CENTRE = (4, 4, 4)
SUPER = {
    "A": [(k, k, k) for k in range(1, 8)],
    "B": [(k, 8 - k, k) for k in range(1, 8)],
    "C": [(8 - k, k, k) for k in range(1, 8)],
    "D": [(8 - k, 8 - k, k) for k in range(1, 8)],
}
CORNERS = ((7, 1, 1), (1, 7, 7), (7, 7, 1), (1, 1, 7))
"""Breaker's third move in §4.2: the first free cell of this list (the corners of C, then D)."""

DEFAULT_CENTRE = {"P": (2, 2, 2), "Q": (5, 3, 5)}
ALT_CENTRE = {"P": (3, 3, 3), "Q": (6, 2, 6)}
DEFAULT_OTHER = {"X": (7, 7, 7), "Y": (5, 3, 5), "Z": (6, 2, 6)}


@dataclass(frozen=True)
class Plan:
    """Breaker's first moves and Maker's canonical domains for one opening class.

    A case is a sequence of ``depth`` Maker moves, each answered by Breaker: level ``i`` has
    Maker's domain (the cells Maker's move may be, after the symmetry normalisation; ``None``
    for every free cell) and Breaker's priority list (Breaker takes its first free cell).
    Cells are noughts cell indices of ``board``; :meth:`domain` and :meth:`priority` see the
    moves so far. Plans are built by name (:func:`plan`) so worker processes rebuild them.
    """

    name: str
    board_spec: str
    depth: int
    split: int
    """Chunks are the distinct move sequences of the first ``split`` levels."""
    title: str
    source_count: int | None = None
    """The count the source publishes for this class, where it publishes one."""
    data: dict[str, object] = field(default_factory=dict, compare=False, hash=False)

    @functools.cached_property
    def board(self) -> Board:
        return make_game(self.board_spec).board

    def domain(self, level: int, maker: Sequence[int]) -> frozenset[int] | None:
        """The canonical cells for Maker's move at ``level`` (None: any free cell)."""
        domains = self.data["domains"]
        assert callable(domains)
        result: frozenset[int] | None = domains(level, tuple(maker))
        return result

    def priority(self, level: int, maker: Sequence[int], breaker: Sequence[int]) -> tuple[int, ...]:
        """Breaker's priority list at ``level`` (it takes the first free cell)."""
        prio = self.data["priority"]
        assert callable(prio)
        result: tuple[int, ...] = prio(level, tuple(maker), tuple(breaker))
        return result

    def describe(self) -> dict[str, object]:
        """The plan as data, for the certificate (cells in the source's 1-based coordinates)."""
        desc = self.data.get("describe")
        return {"name": self.name, "board": self.board_spec, "depth": self.depth, **(desc or {})}  # type: ignore[dict-item]


def _cube7_cells() -> tuple[Board, dict[Coord, int]]:
    board = make_game("maker_breaker(hypercube(7,3))").board
    index = {tuple(x + 1 for x in board.coords[c]): c for c in range(board.num_cells)}
    return board, index


def _centre_plan(complete: bool, cells: Mapping[str, Coord], name: str) -> Plan:
    _, at = _cube7_cells()
    centre = at[CENTRE]
    half = frozenset(c for coord, c in at.items() if coord[0] <= 4)
    high = frozenset(c for coord, c in at.items() if min(coord) >= 5)
    second = (half | high) if complete else half
    p, q = at[cells["P"]], at[cells["Q"]]
    corners = tuple(at[x] for x in CORNERS)
    c_cells = {at[x] for x in SUPER["C"]}
    rest = {
        "C": tuple(at[x] for x in SUPER["D"] if x != CENTRE),  # third move on C: fourth on D
        "D": tuple(at[x] for x in SUPER["C"] if x != CENTRE),
    }

    def domains(level: int, maker: tuple[int, ...]) -> frozenset[int] | None:
        return frozenset({centre}) if level == 0 else second if level == 1 else None

    def priority(level: int, maker: tuple[int, ...], breaker: tuple[int, ...]) -> tuple[int, ...]:
        if level == 0:
            return (p,)
        if level == 1:
            return (q,)
        if level == 2:
            return corners
        return rest["C"] if breaker[2] in c_cells else rest["D"]

    return Plan(
        name=name,
        board_spec="maker_breaker(hypercube(7,3))",
        depth=4,
        split=2,
        title="Maker opens in the centre (002 §4.2)",
        source_count=22_163_142,
        data={
            "domains": domains,
            "priority": priority,
            "complete": complete,
            "describe": {
                "complete": complete,
                "breaker": {
                    "1": [cells["P"]],
                    "2": [cells["Q"]],
                    "3": list(CORNERS),
                    "4": "the other of C, D from its corner",
                },
                "maker_second": "first coordinate <= 4" + (" or all coordinates >= 5" if complete else ""),
            },
        },
    )


def _other_plan(complete: bool, name: str) -> Plan:
    _, at = _cube7_cells()
    centre = at[CENTRE]
    half = frozenset(c for coord, c in at.items() if coord[0] <= 4)
    first = half - {centre}
    low = frozenset(c for coord, c in at.items() if max(coord[:2]) <= 3 and coord[2] >= 5)  # octant (-,-,+)
    high = frozenset(c for coord, c in at.items() if min(coord[:2]) >= 5 and coord[2] <= 3)  # octant (+,+,-)
    x, y, z = (at[DEFAULT_OTHER[k]] for k in "XYZ")

    def domains(level: int, maker: tuple[int, ...]) -> frozenset[int] | None:
        if level == 0:
            return first
        if level == 1:
            return (half | high) if complete and maker[0] in low else half
        return None

    def priority(level: int, maker: tuple[int, ...], breaker: tuple[int, ...]) -> tuple[int, ...]:
        return ((centre,), (x,), (y, z))[level]

    return Plan(
        name=name,
        board_spec="maker_breaker(hypercube(7,3))",
        depth=3,
        split=1,
        title="Maker opens elsewhere (002 §4.3)",
        source_count=12_824_370,
        data={
            "domains": domains,
            "priority": priority,
            "complete": complete,
            "describe": {
                "complete": complete,
                "breaker": {
                    "1": [CENTRE],
                    "2": [DEFAULT_OTHER["X"]],
                    "3": [DEFAULT_OTHER["Y"], DEFAULT_OTHER["Z"]],
                },
                "maker_first_two": "first coordinate <= 4"
                + (" or (1..3,1..3,5..7) then (5..7,5..7,1..3)" if complete else ""),
            },
        },
    )


def _analogue_plan(name: str) -> Plan:
    """Small boards run through the same machinery (whole case trees, for the tests).

    ``mnk4`` is 002 §3: Maker's first move on 4x4 up to symmetry (corner, edge, interior as in
    Figure 2), Breaker on (2,3) (the cell c2), then a pairing. ``mnk4-2`` and ``mnk4-3`` let
    Maker move anywhere for two and three rounds against fixed priority lists (many of those
    leaves fail, which tests the failure paths); in ``mnk4-edge`` Breaker opens on an edge cell,
    which blocks two lines only, so no leaf has a pairing.
    """
    board = make_game("maker_breaker(mnk(4,4,4))").board

    def cell(r: int, c: int) -> int:
        found = board.cell_at((r - 1, c - 1))
        assert found is not None
        return found

    if name == "mnk4":
        dom0 = frozenset({cell(4, 1), cell(3, 1), cell(3, 2)})
        prios: list[tuple[int, ...]] = [(cell(2, 3), cell(3, 2))]
        doms: list[frozenset[int] | None] = [dom0]
    elif name == "mnk4-2":
        prios = [(cell(2, 3), cell(3, 2)), (cell(1, 1), cell(4, 4), cell(1, 4), cell(4, 1))]
        doms = [None, None]
    elif name == "mnk4-3":
        prios = [
            (cell(2, 2), cell(3, 3)),
            (cell(2, 3), cell(3, 2), cell(1, 1)),
            (cell(1, 4), cell(4, 1), cell(1, 1), cell(4, 4)),
        ]
        doms = [None, None, None]
    elif name == "mnk4-edge":  # Breaker on an edge cell (2 lines): too few cells, every leaf fails
        prios = [(cell(1, 2), cell(1, 3))]
        doms = [None]
    else:
        raise NoughtsError(f"unknown plan {name!r}: choose from {', '.join(plan_names())}")

    def domains(level: int, maker: tuple[int, ...]) -> frozenset[int] | None:
        return doms[level]

    def priority(level: int, maker: tuple[int, ...], breaker: tuple[int, ...]) -> tuple[int, ...]:
        return prios[level]

    return Plan(
        name=name,
        board_spec="maker_breaker(mnk(4,4,4))",
        depth=len(prios),
        split=min(1, len(prios) - 1),
        title=f"4x4 analogue, {len(prios)} round(s)",
        data={"domains": domains, "priority": priority, "complete": True, "describe": {"analogue": True}},
    )


# -- computed plans: Breaker's opening found by a rule, not chosen by hand -----------------------

CUBE7 = "maker_breaker(hypercube(7,3))"

GREEDY_MAX_CASES = 200_000_000
"""The most cases :func:`prove_computed` enumerates by default (its work budget)."""

GREEDY_MAX_DEPTH = 8


@functools.cache
def _incidence(board_spec: str) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    """``through[c, l]`` = 1.0 where cell c lies on line l (float: a BLAS product), and each
    cell's lines as an index array.
    """
    board = make_game(board_spec).board
    through = np.zeros((board.num_cells, len(board.lines)), np.float64)
    for j, line in enumerate(board.lines):
        through[list(line), j] = 1.0
    return through, tuple(np.array(t, np.int64) for t in board.lines_through)


def greedy_list(board_spec: str, maker: Sequence[int], breaker: Sequence[int]) -> tuple[int, ...]:
    """Breaker's computed priority list: every cell, best first (Breaker takes the first free one).

    A cell ranks by the surviving lines (no Breaker cell yet) it would eliminate, most first;
    ties by Maker's cells on those lines (``maker``: the moves Maker made before this round),
    most first; then by the lowest cell. Only Breaker's and Maker's earlier cells enter, so
    the list is the same whatever Maker's move of the round (the kernel's premise) and maps
    onto itself under every symmetry fixing the position, up to the last tie-break.
    """
    return _greedy_list(board_spec, tuple(sorted(m for m in maker if m >= 0)), tuple(sorted(breaker)))


@functools.lru_cache(maxsize=1 << 16)
def _greedy_list(board_spec: str, maker: tuple[int, ...], breaker: tuple[int, ...]) -> tuple[int, ...]:
    through, lines_of = _incidence(board_spec)
    alive = np.ones(through.shape[1])
    for b in breaker:
        alive[lines_of[b]] = 0.0
    maker_on = np.zeros(through.shape[1])
    for m in maker:
        maker_on[lines_of[m]] += 1.0
    new = through @ alive
    danger = through @ (alive * maker_on)
    # new lines first, then Maker's cells on them (fewer than 2**20 of either), then the cell
    order = np.argsort(-(new * (1 << 20) + danger), kind="stable")
    return tuple(order.tolist())


def orbit_representatives(board: Board, maker: Sequence[int], breaker: Sequence[int]) -> frozenset[int]:
    """The least free cell of each orbit of the free cells under the symmetries of ``board``
    that map Maker's cells onto themselves and Breaker's cells onto themselves (the position's
    stabiliser): Maker's moves up to symmetry, computed instead of argued.
    """
    syms = np.asarray(board.tables.symmetry_perms(), np.int64)
    ms, bs = sorted(set(maker)), sorted(set(breaker))
    keep = np.ones(len(syms), bool)
    for cells in (ms, bs):
        if cells:
            keep &= (np.sort(syms[:, cells], axis=1) == np.array(cells)).all(axis=1)
    stab = syms[keep]
    taken = set(ms) | set(bs)
    least = stab.min(axis=0)  # the least image of each cell under the stabiliser: its orbit's least cell
    return frozenset(int(c) for c in range(board.num_cells) if c not in taken and least[c] == c)


def greedy_plan_name(spec: str, opening: str, depth: int) -> str:
    """The name of a computed plan: ``greedy:{spec}:{opening}:{depth}``."""
    return f"greedy:{spec}:{opening}:{depth}"


def openings(board: Board) -> tuple[str, ...]:
    """The opening classes of a computed plan: Maker opens in the centre or elsewhere on a board
    with a centre cell (every side odd), anywhere on the others.
    """
    return ("centre", "other") if all(n % 2 for n in board.grid) else ("all",)


def _greedy_plan(name: str) -> Plan:
    """A computed plan, ``greedy:{spec}:{opening}:{depth}`` (see :func:`prove_computed`)."""
    try:
        spec, opening, depth_text = name.removeprefix("greedy:").rsplit(":", 2)
    except ValueError:
        raise NoughtsError(f"unknown plan {name!r}: a computed plan is greedy:SPEC:OPENING:DEPTH") from None
    game = make_game(spec)
    spec = game.spec
    if game.claim_rule is not Rule.MAKER_BREAKER or game.maker is not Player.FIRST or game.has_veto_step:
        raise NoughtsError(f"plan {name!r}: a computed plan needs a Maker-Breaker game with Maker first")
    board = game.board
    if opening not in openings(board):
        raise NoughtsError(f"plan {name!r}: the opening classes of {spec} are {', '.join(openings(board))}")
    if not depth_text.isdigit() or not 1 <= int(depth_text) <= GREEDY_MAX_DEPTH:
        raise NoughtsError(f"plan {name!r}: the depth must be 1 to {GREEDY_MAX_DEPTH}")
    depth = int(depth_text)
    centre = board.cell_at([(n - 1) // 2 for n in board.grid]) if opening != "all" else None

    def replies(maker: tuple[int, ...]) -> tuple[int, ...]:
        breaker: tuple[int, ...] = ()
        for i in range(len(maker)):
            taken = set(maker[: i + 1]) | set(breaker)
            breaker += (_first_free(greedy_list(spec, maker[:i], breaker), taken),)
        return breaker

    def domains(level: int, maker: tuple[int, ...]) -> frozenset[int] | None:
        if level == 0:
            first = orbit_representatives(board, (), ())
            if opening == "centre":
                return frozenset({centre}) if centre is not None else frozenset()
            return first - {centre} if opening == "other" else first
        if level == 1:
            return orbit_representatives(board, maker, replies(maker))
        return None

    def priority(level: int, maker: tuple[int, ...], breaker: tuple[int, ...]) -> tuple[int, ...]:
        return greedy_list(spec, maker[:level], breaker)

    title = {
        "centre": "Maker opens in the centre",
        "other": "Maker opens elsewhere",
        "all": "every opening",
    }[opening]
    return Plan(
        name=name,
        board_spec=spec,
        depth=depth,
        split=min(2, depth - 1) if opening == "centre" else min(1, depth - 1),
        title=f"{title}; Breaker's {depth} first moves computed (greedy)",
        data={
            "domains": domains,
            "priority": priority,
            "complete": True,
            "describe": {
                "computed": "greedy",
                "breaker": "the free cell eliminating the most surviving lines; ties: the most cells of"
                " Maker's earlier moves on them, then the lowest cell",
                "maker": "moves 1 and 2 up to the symmetries fixing the position (orbit representatives),"
                " later moves every free cell",
                "opening": opening,
            },
        },
    )


def _first_chunk_pairs(name: str) -> bool:
    """Whether every case of the plan's first chunk has a pairing (a cheap probe of a depth)."""
    pl = plan(name)
    result = settle_chunk((name, split_prefixes(pl)[0]))
    return len(result.fail_node) == 0


def greedy_cases(name: str) -> int:
    """The number of cases of a computed plan, without enumerating them: its histories of
    Maker's first two moves (the rounds reduced by symmetry), times every free cell for each
    later move of Maker (Breaker's replies take one cell a round).
    """
    pl = plan(name)
    n = pl.board.num_cells
    rounds = min(pl.depth, 2)
    cases = len(list(_walk(pl, 0, rounds, (), ())))
    for level in range(rounds, pl.depth):
        cases *= n - 2 * level
    return cases


def prove_computed(
    spec: str = CUBE7,
    *,
    workers: int | None = None,
    address: str | None = None,
    out: str | None = None,
    progress: Progress | None = None,
    max_cases: int = GREEDY_MAX_CASES,
    max_seconds: float | None = None,
    tried: Callable[[str, int, str], None] | None = None,
) -> tuple[ProofResult, tuple[str, ...]]:
    """Prove that Breaker wins the Maker-Breaker game ``spec`` (Maker first) by casework with a
    computed opening: no hand-chosen plan.

    For each opening class (:func:`openings`) Breaker plays :func:`greedy_list`'s moves for
    the least number of rounds (1, 2, ... up to :data:`GREEDY_MAX_DEPTH`) after which a
    pairing settles every case: a depth whose first chunk already fails is passed over at once;
    the full casework (with its certificate, ``out``) runs once, and a class that still fails
    somewhere is tried one round deeper. ``tried(class, depth, verdict)`` hears of each depth
    tried. Returns the final :func:`prove` result and the plans' names. The work budget is
    ``max_cases``: a depth that would enumerate more cases (:func:`greedy_cases`) raises
    :class:`LimitExceeded`, saying how far the search got; :class:`NoughtsError` where no depth
    up to the limit pairs. ``max_seconds`` bounds the whole (probes between chunks, the
    casework as :func:`prove` bounds it).
    """
    import time

    started = time.perf_counter()

    def left() -> float | None:
        if max_seconds is None:
            return None
        remaining = max_seconds - (time.perf_counter() - started)
        if remaining <= 0:
            raise LimitExceeded(
                f"stopped after {time.perf_counter() - started:.1f} s (the time budget) while trying depths:"
                f" {', '.join(f'{o} {d - 1}' for o, d in depths.items())} greedy Breaker move(s) ruled out"
            )
        return remaining

    game = make_game(spec)
    spec, board = game.spec, game.board
    if game.claim_rule is not Rule.MAKER_BREAKER or game.maker is not Player.FIRST or game.has_veto_step:
        raise NoughtsError(
            f"{spec}: the casework asks whether Breaker wins a Maker-Breaker game with Maker first"
        )
    depths = dict.fromkeys(openings(board), 1)

    def name_of(opening: str) -> str:
        name = greedy_plan_name(spec, opening, depths[opening])
        if depths[opening] > GREEDY_MAX_DEPTH:
            raise NoughtsError(
                f"{spec}, Maker opening {opening}: no greedy opening of at most {GREEDY_MAX_DEPTH}"
                " Breaker moves pairs every case"
            )
        cases = greedy_cases(name)
        if cases > max_cases:
            raise LimitExceeded(
                f"{spec}, Maker opening {opening}: {depths[opening] - 1} greedy Breaker move(s) leave cases"
                f" without a pairing, and {depths[opening]} would mean {cases:,} cases (the budget is"
                f" {max_cases:,})"
            )
        return name

    while True:
        for opening in depths:
            while True:
                left()  # the budget, between probes
                if _first_chunk_pairs(name_of(opening)):
                    break
                if tried is not None:
                    tried(opening, depths[opening], "its first chunk has cases without a pairing")
                depths[opening] += 1
        names = tuple(name_of(o) for o in depths)
        result = prove(
            names, workers=workers, address=address, out=out, progress=progress, max_seconds=left()
        )
        if not result.failures:
            return result, names
        for opening, name in zip(depths, names, strict=True):
            if result.class_failures[name]:
                if tried is not None:
                    tried(
                        opening, depths[opening], f"{result.class_failures[name]:,} cases without a pairing"
                    )
                depths[opening] += 1
                name_of(opening)


_PLANS = (
    "centre",
    "other",
    "centre-as-published",
    "other-as-published",
    "centre-alt",
    "mnk4",
    "mnk4-2",
    "mnk4-3",
    "mnk4-edge",
)


def plan_names() -> tuple[str, ...]:
    """The plans :func:`plan` builds by name (besides the computed ones, ``greedy:SPEC:OPENING:DEPTH``)."""
    return _PLANS


def known_plan(name: str) -> bool:
    """Whether :func:`plan` builds ``name``: a named plan, or a valid computed one."""
    if name in _PLANS:
        return True
    if not name.startswith("greedy:"):
        return False
    try:
        plan(name)
    except NoughtsError:
        return False
    return True


@functools.cache
def plan(name: str) -> Plan:
    """The plan called ``name`` (cached: each process builds it once)."""
    if name == "centre":
        return _centre_plan(True, DEFAULT_CENTRE, name)
    if name == "centre-alt":
        return _centre_plan(True, ALT_CENTRE, name)
    if name == "centre-as-published":
        return _centre_plan(False, DEFAULT_CENTRE, name)
    if name == "other":
        return _other_plan(True, name)
    if name == "other-as-published":
        return _other_plan(False, name)
    if name.startswith("greedy:"):
        return _greedy_plan(name)
    return _analogue_plan(name)


def cube7_plans(complete: bool = True) -> tuple[Plan, Plan]:
    """The two opening classes of the 7x7x7 proof (``complete=False``: the source's own sets)."""
    if complete:
        return plan("centre"), plan("other")
    return plan("centre-as-published"), plan("other-as-published")


# -- enumeration ------------------------------------------------------------------------------


def _first_free(prio: Sequence[int], taken: set[int]) -> int:
    for p in prio:
        if p not in taken:
            return p
    return -1


def _options(pl: Plan, level: int, maker: tuple[int, ...], taken: set[int]) -> list[int]:
    dom = pl.domain(level, maker)
    cells = range(pl.board.num_cells) if dom is None else sorted(dom)
    return [c for c in cells if c not in taken]


def _walk(
    pl: Plan, level: int, stop: int, maker: tuple[int, ...], breaker: tuple[int, ...]
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    if level == stop:
        yield maker, breaker
        return
    taken = set(maker) | set(breaker)
    for m in _options(pl, level, maker, taken):
        mk = maker + (m,)
        b = _first_free(pl.priority(level, mk, breaker), taken | {m})
        if b < 0:
            raise NoughtsError(
                f"plan {pl.name}: Breaker's rule at move {level + 1} has no free cell after {mk}"
            )
        yield from _walk(pl, level + 1, stop, mk, breaker + (b,))


def split_prefixes(pl: Plan) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The chunks: every (Maker, Breaker) sequence of the first ``pl.split`` rounds, in order."""
    return list(_walk(pl, 0, pl.split, (), ()))


def iter_nodes(
    pl: Plan, prefix: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every node (all rounds but the last) below ``prefix``, in the canonical order."""
    maker, breaker = prefix
    yield from _walk(pl, len(maker), pl.depth - 1, maker, breaker)


def iter_leaves(pl: Plan) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every case (Maker's and Breaker's moves, all rounds), one at a time (small plans only)."""
    yield from _walk(pl, 0, pl.depth, (), ())


def count_cases(pl: Plan) -> int:
    """The number of cases (leaves): for each node, Maker's options in the last round."""
    last = pl.depth - 1
    total = 0
    for maker, breaker in iter_nodes(pl):
        dom = pl.domain(last, maker)
        taken = set(maker) | set(breaker)
        if dom is None:
            total += pl.board.num_cells - len(taken)
        else:
            total += len(dom - taken)
    return total


def count_boards(pl: Plan) -> int:
    """The number of distinct boards (Maker's and Breaker's cell sets) among the cases.

    The source calls its counts "board configurations"; they count move sequences, and Maker's
    last moves in another order often give the same board. Vectorised per node (NumPy).
    """
    last = pl.depth - 1
    n = pl.board.num_cells
    keys = []
    for maker, breaker in iter_nodes(pl):
        taken = set(maker) | set(breaker)
        dom = pl.domain(last, maker)
        cells = np.array([c for c in (range(n) if dom is None else sorted(dom)) if c not in taken], np.int64)
        if not len(cells):
            continue
        prio = [p for p in pl.priority(last, maker + (-1,), breaker) if p not in taken]
        f0, f1 = (prio + [-1, -1])[:2]
        reply = np.where(cells == f0, f1, f0)
        mk = np.sort(np.column_stack([np.full(len(cells), c) for c in maker] + [cells]), axis=1)
        bk = np.sort(np.column_stack([np.full(len(cells), c) for c in breaker] + [reply]), axis=1)
        code_m = np.zeros(len(cells), np.int64)
        code_b = np.zeros(len(cells), np.int64)
        for j in range(mk.shape[1]):  # n**depth < 2**63 for the boards here (343**4 ~ 1.4e10)
            code_m = code_m * (n + 1) + mk[:, j]
            code_b = code_b * (n + 1) + bk[:, j] + 1
        keys.append(np.column_stack([code_m, code_b]))
    if not keys:
        return 0
    return len(np.unique(np.concatenate(keys), axis=0))


@dataclass
class NodeArrays:
    """A chunk's nodes in the kernel's form (see :func:`_cube7_kernels.settle_nodes`)."""

    maker: np.ndarray
    breaker: np.ndarray
    prio: np.ndarray
    domain_id: np.ndarray
    domains: np.ndarray


def node_arrays(pl: Plan, prefix: tuple[tuple[int, ...], tuple[int, ...]]) -> NodeArrays:
    """The nodes below ``prefix`` as arrays, with Maker's last-round domains interned."""
    nodes = list(iter_nodes(pl, prefix))
    d = pl.depth - 1
    n_cells = pl.board.num_cells
    maker = np.full((len(nodes), max(d, 1)), -1, np.int32)
    breaker = np.full((len(nodes), max(d, 1)), -1, np.int32)
    prios: list[tuple[int, ...]] = []
    ids: list[int] = []
    interned: dict[frozenset[int] | None, int] = {}
    rows: list[np.ndarray] = []
    for i, (mk, bk) in enumerate(nodes):
        maker[i, : len(mk)] = mk
        breaker[i, : len(bk)] = bk
        # Breaker's last list does not depend on Maker's last move in any plan here
        prios.append(pl.priority(d, mk + (-1,), bk))
        dom = pl.domain(d, mk)
        if dom not in interned:
            row = np.ones(n_cells, np.uint8)
            if dom is not None:
                row[:] = 0
                row[sorted(dom)] = 1
            interned[dom] = len(rows)
            rows.append(row)
        ids.append(interned[dom])
    width = max((len(p) for p in prios), default=1)
    prio = np.full((len(nodes), width), -1, np.int32)
    for i, p in enumerate(prios):
        prio[i, : len(p)] = p
    domains = np.stack(rows) if rows else np.ones((1, n_cells), np.uint8)
    return NodeArrays(maker, breaker, prio, np.array(ids, np.int32), domains)


@functools.cache
def board_arrays(board_spec: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``line_cells``, and the lines through each cell as CSR (``ptr``, ``lines_at``)."""
    board = make_game(board_spec).board
    line_cells = np.array(board.lines, np.int32)
    ptr = np.zeros(board.num_cells + 1, np.int32)
    ptr[1:] = np.cumsum([len(t) for t in board.lines_through])
    lines_at = np.array([j for t in board.lines_through for j in t], np.int32)
    return line_cells, ptr, lines_at


# -- settling a chunk (runs in the workers) ----------------------------------------------------


@dataclass
class ChunkResult:
    """What a worker sends back for one chunk: counts, failures and the two delta streams."""

    plan: str
    prefix: tuple[tuple[int, ...], tuple[int, ...]]
    nodes: int
    leaves: int
    source_leaves: int
    """Leaves inside the source's own normalisation (plans with an ``-as-published`` twin)."""
    fail_node: np.ndarray
    fail_cell: np.ndarray
    d1_ptr: np.ndarray
    d1_copy: np.ndarray
    d1_cell: np.ndarray
    d2_ptr: np.ndarray
    d2_copy: np.ndarray
    d2_cell: np.ndarray


def settle_chunk(task: tuple[str, tuple[tuple[int, ...], tuple[int, ...]]]) -> ChunkResult:
    """Settle every leaf below one prefix of one plan (the parallel unit of work)."""
    from noughts.casework._cube7_kernels import settle_nodes

    name, prefix = task
    pl = plan(name)
    arrays = node_arrays(pl, prefix)
    line_cells, ptr, lines_at = board_arrays(pl.board_spec)
    n = arrays.maker.shape[0]
    n_copies = 2 * line_cells.shape[0]
    n_cells = pl.board.num_cells
    out_leaves = np.zeros(n, np.int64)
    cap = n * n_cells + 1
    fail_node = np.zeros(cap, np.int32)
    fail_cell = np.zeros(cap, np.int32)
    d1_ptr = np.zeros(n + 1, np.int64)
    d2_ptr = np.zeros(n + 1, np.int64)
    d1_copy = np.zeros(n * n_copies + 1, np.int16)
    d1_cell = np.zeros(n * n_copies + 1, np.int16)
    d2_copy = np.zeros(n * n_copies + 1, np.int16)
    d2_cell = np.zeros(n * n_copies + 1, np.int16)
    n_fail, n1, n2 = settle_nodes(
        line_cells,
        ptr,
        lines_at,
        n_cells,
        arrays.maker,
        arrays.breaker,
        arrays.prio,
        arrays.domain_id,
        arrays.domains,
        out_leaves,
        fail_node,
        fail_cell,
        d1_ptr,
        d1_copy,
        d1_cell,
        d2_ptr,
        d2_copy,
        d2_cell,
    )
    return ChunkResult(
        plan=name,
        prefix=prefix,
        nodes=n,
        leaves=int(out_leaves.sum()),
        source_leaves=_source_leaves(pl, arrays, out_leaves),
        fail_node=fail_node[:n_fail].copy(),
        fail_cell=fail_cell[:n_fail].copy(),
        d1_ptr=d1_ptr,
        d1_copy=d1_copy[:n1].copy(),
        d1_cell=d1_cell[:n1].copy(),
        d2_ptr=d2_ptr,
        d2_copy=d2_copy[:n2].copy(),
        d2_cell=d2_cell[:n2].copy(),
    )


def _source_leaves(pl: Plan, arrays: NodeArrays, leaves: np.ndarray) -> int:
    """How many of these leaves the source's normalisation has (-1 without a published twin).

    A node is the source's if each of Maker's moves lies in the twin plan's domain; its leaves
    are then the source's too, as both plans give Maker's last move the same domain.
    """
    twin_name = pl.name + "-as-published"
    if twin_name not in _PLANS:
        return -1
    twin = plan(twin_name)
    last = pl.depth - 1
    inside: dict[tuple[int, ...], bool] = {}
    total = 0
    for i in range(arrays.maker.shape[0]):
        mk = tuple(int(c) for c in arrays.maker[i, :last])
        ok = True
        for level in range(last):
            key = mk[: level + 1]
            if key not in inside:
                dom = twin.domain(level, mk[:level])
                inside[key] = dom is None or mk[level] in dom
            if not inside[key]:
                ok = False
                break
        if ok:
            if twin.domain(last, mk) != pl.domain(last, mk):
                raise NoughtsError(f"plan {pl.name}: its last-round domain differs from the source's")
            total += int(leaves[i])
    return total


# -- the reference: SciPy's Hopcroft-Karp from nothing, one leaf at a time ---------------------


def reference_leaf(board: Board, maker: Sequence[int], breaker: Sequence[int]) -> bool:
    """Whether the position has a pairing (002 §3), by building its graph and matching anew."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import maximum_bipartite_matching

    taken = set(maker) | set(breaker)
    hit = set(breaker)
    survivors = [line for line in board.lines if not hit.intersection(line)]
    if not survivors:
        return True
    rows, cols = [], []
    for j, line in enumerate(survivors):
        for cell in line:
            if cell not in taken:
                rows += [2 * j, 2 * j + 1]
                cols += [cell, cell]
    graph = csr_matrix(
        (np.ones(len(rows), np.int8), (rows, cols)), shape=(2 * len(survivors), board.num_cells)
    )
    match = maximum_bipartite_matching(graph, perm_type="column")
    return bool((match >= 0).all())


def check_plan_claims(pl: Plan) -> dict[str, list[list[int]]]:
    """The source's claims about Breaker's moves, measured (§4.2-4.3).

    For every distinct sequence of Breaker's moves the plan can produce: how many lines each
    move eliminates that the earlier ones had not (``new_lines``, the set of values per move),
    and the survivors and free cells at the end (each a one-element list of the sorted set).
    """
    board = pl.board
    new: list[set[int]] = [set() for _ in range(pl.depth)]
    survivors: set[int] = set()
    free: set[int] = set()
    seen: set[tuple[int, ...]] = set()
    last = pl.depth - 1
    for maker, breaker in iter_nodes(pl):
        taken = set(maker) | set(breaker)
        prio = pl.priority(last, maker + (-1,), breaker)
        replies = [p for p in prio if p not in taken][:2]  # f0, and f1 where Maker takes f0
        for reply in replies:
            seq = breaker + (reply,)
            if seq in seen:
                continue
            seen.add(seq)
            dead: set[int] = set()
            for level, cell in enumerate(seq):
                lines = set(board.lines_through[cell])
                new[level].add(len(lines - dead))
                dead |= lines
            survivors.add(len(board.lines) - len(dead))
    free.add(board.num_cells - 2 * pl.depth)
    return {
        "new_lines": [sorted(s) for s in new],
        "survivors": [sorted(survivors)],
        "free": [sorted(free)],
    }


# -- the proof --------------------------------------------------------------------------------


@dataclass
class ProofResult:
    """What :func:`prove` did: cases by opening class, failures, time, and the certificate."""

    cases: dict[str, int]
    source_cases: dict[str, int]
    nodes: dict[str, int]
    class_failures: dict[str, int]
    failures: int
    failure_examples: list[str]
    seconds: float
    certificate: str | None
    digest: str | None
    executor: str
    workers: int

    def to_json(self) -> dict[str, object]:
        """The ``prove cube7 --json`` document."""
        return {
            "theorem": "Breaker wins Maker-Breaker on 7x7x7 (002 Theorem 4.1)",
            "cases": self.cases,
            "total_cases": sum(self.cases.values()),
            "source_normalisation_cases": self.source_cases,
            "nodes": self.nodes,
            "failures": self.failures,
            "failures_by_class": self.class_failures,
            "failure_examples": self.failure_examples,
            "proved": self.failures == 0,
            "seconds": round(self.seconds, 3),
            "certificate": self.certificate,
            "sha256": self.digest,
            "executor": self.executor,
            "workers": self.workers,
        }


def prove(
    plans: Sequence[str] = ("centre", "other"),
    *,
    workers: int | None = None,
    address: str | None = None,
    out: str | None = None,
    progress: Progress | None = None,
    max_seconds: float | None = None,
) -> ProofResult:
    """Run the casework of ``plans`` over the parallel executor and write the certificate.

    Every leaf of every plan is settled (see the module docstring); ``out`` is the
    certificate's path (``.json`` and ``.npz`` beside it), None for no certificate. With
    ``max_seconds`` the work stops once that many seconds have passed when a chunk comes back
    (the chunks are the plans' first rounds), raising :class:`LimitExceeded` with the chunks
    and cases settled by then.
    """
    import time
    from pathlib import Path

    from noughts.casework.certificate_file import case_name, write_certificate
    from noughts.parallel import executor

    start = time.perf_counter()
    tasks = [(name, prefix) for name in plans for prefix in split_prefixes(plan(name))]
    with executor(workers, address) as ex:
        if max_seconds is None:
            results = ex.map(
                settle_chunk,
                tasks,
                description="casework" if progress else None,
                progress=progress,
                chunksize=max(1, len(tasks) // (8 * ex.workers)),
            )
        else:
            deadline = start + max_seconds
            done = ex.map_until(
                settle_chunk,
                tasks,
                lambda i, r: time.perf_counter() > deadline,
                description="casework" if progress else None,
                progress=progress,
            )
            settled = [r for r in done if r is not None]
            if len(settled) < len(tasks):
                raise LimitExceeded(
                    f"stopped after {time.perf_counter() - start:.1f} s (the time budget): {len(settled):,} of"
                    f" {len(tasks):,} chunks settled, {sum(r.leaves for r in settled):,} cases,"
                    f" {sum(len(r.fail_node) for r in settled):,} of them without a pairing"
                )
            results = settled
        backend, n_workers = ex.name, ex.workers
    cases: dict[str, int] = {}
    nodes: dict[str, int] = {}
    source: dict[str, int] = {}
    class_failures: dict[str, int] = {}
    failures = 0
    examples: list[str] = []
    arrays: dict[str, np.ndarray] = {}
    classes = []
    for name in plans:
        pl = plan(name)
        mine = [r for r in results if r.plan == name]
        cases[name] = sum(r.leaves for r in mine)
        nodes[name] = sum(r.nodes for r in mine)
        fails = sum(len(r.fail_node) for r in mine)
        failures += fails
        for r in mine:
            if len(examples) >= 20 or not len(r.fail_node):
                continue
            node_list = list(iter_nodes(pl, r.prefix))
            for i, cell in zip(r.fail_node[:20].tolist(), r.fail_cell[:20].tolist(), strict=True):
                mk, bk = node_list[i]
                mk = mk + (cell,)
                taken = set(mk) | set(bk)
                reply = [p for p in pl.priority(pl.depth - 1, mk, bk) if p not in taken][:1]
                examples.append(f"{name} case {case_name(pl.board, mk, bk + tuple(reply))}")
        if mine and mine[0].source_leaves >= 0:
            source[name] = sum(r.source_leaves for r in mine)
        class_failures[name] = fails
        arrays[f"{name}__chunk_nodes"] = np.array([r.nodes for r in mine], np.int32)
        for key in ("d1", "d2"):
            lens = np.concatenate([np.diff(getattr(r, f"{key}_ptr")) for r in mine]).astype(np.uint16)
            arrays[f"{name}__{key}_len"] = lens
            arrays[f"{name}__{key}_copy"] = np.concatenate([getattr(r, f"{key}_copy") for r in mine])
            arrays[f"{name}__{key}_cell"] = np.concatenate([getattr(r, f"{key}_cell") for r in mine])
        classes.append(
            {
                "plan": name,
                "title": pl.title,
                "description": pl.describe(),
                "nodes": nodes[name],
                "cases": cases[name],
                "failures": fails,
                "source_count": pl.source_count,
                "source_normalisation_cases": source.get(name),
            }
        )
    digest = None
    cert = None
    if out is not None:
        claim = {
            "theorem": "Breaker wins Maker-Breaker on 7x7x7 (002 Theorem 4.1)"
            if set(plans) == {"centre", "other"}
            else f"Breaker wins {plan(plans[0]).board_spec} (a computed opening, then pairings)"
            if all(p.startswith("greedy:") for p in plans)
            and sorted(p.rsplit(":", 1)[0] for p in plans)
            == sorted(
                greedy_plan_name(plan(plans[0]).board_spec, o, 0).rsplit(":", 1)[0]
                for o in openings(plan(plans[0]).board)
            )
            else f"casework of {', '.join(plans)}",
            "board": plan(plans[0]).board_spec,
            "classes": classes,
            "failures": failures,
            "failure_examples": examples,
            "seconds": round(time.perf_counter() - start, 3),
        }
        digest = write_certificate(Path(out), claim, arrays)
        cert = str(Path(out).with_suffix(".json"))
    return ProofResult(
        cases,
        source,
        nodes,
        class_failures,
        failures,
        examples,
        time.perf_counter() - start,
        cert,
        digest,
        backend,
        n_workers,
    )
