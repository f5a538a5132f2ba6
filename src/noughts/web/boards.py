"""What the page draws: a position as panels of cells, and moves as the cells they touch.

Presentation only; every rule is decided by the game. A board is drawn as one or more
**panels** (2D grids): a flat board is one panel (odd shapes leave holes), an n^d board one
panel per layer (d = 3) or per block of layers (d >= 4), Notakto one panel per board, Otrio one
3x3 panel whose cells hold three ring **slots** (small, medium, large). Every slot has a
**key**, an integer the page sends back to say "this cell": the integer action of the claim
there (Notakto ``board * cells + cell``, Otrio ``3 * cell + size``), or for veto rules the cell
(a click at the veto step forbids the cell, at the claim step claims it). A Morris slide
(:class:`~noughts.core.Slide`) has the key of its target cell and says where it comes ``from``
(the origin's key): the page takes two clicks, the mark and then where it goes, and sends the
slide's integer action.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from noughts.core import (
    FadingMarks,
    Game,
    Move,
    MovingPieces,
    NotationError,
    Outcome,
    Player,
    Position,
    Slide,
    Veto,
)
from noughts.core.board import column_letters
from noughts.core.values import SolveResult, Value
from noughts.exact.reference import after_move, move_key

if TYPE_CHECKING:
    from noughts.agents.engine import EngineResult

__all__ = [
    "GRADES",
    "board_view",
    "engine_view_json",
    "evaluation_json",
    "grade",
    "move_at_slot",
    "move_info",
    "slot_key",
]


def slot_key(game: Game, move: Move) -> int | None:
    """The key of the slot a move is made on (None for a veto pass; a slide's target cell)."""
    if isinstance(move, Slide):
        return move.target
    if game.has_veto_step:
        if isinstance(move, Veto):
            return move.cell
        return int(move)  # type: ignore[arg-type]
    return game.action(move)


def move_at_slot(game: Game, position: Position, key: int) -> Move:
    """The move a click on slot ``key`` makes in ``position`` (legal or not: the caller checks).
    Under veto rules that is a veto at the veto step and a claim at the claim step.
    """
    if game.has_veto_step:
        if not 0 <= key < game.board.num_cells:
            raise NotationError(f"slot {key} is not a cell of {game.board.spec}")
        return Veto(key) if game.is_veto_step(position) else key
    return game.move(key)


def move_info(game: Game, move: Move) -> dict[str, Any]:
    """A move for the page: its notation, integer action, slot key (and what ``move_json``
    adds: cells, Notakto's board, Otrio's ring size, veto steps; a slide's ``from`` key).
    """
    info = {**game.move_json(move), "action": game.action(move), "key": slot_key(game, move)}
    if isinstance(move, Slide):
        info["from"] = move.origin
    return info


def _panels_of_grid(game: Game, marks: list[str], offset: int = 0, title: str = "") -> list[dict[str, Any]]:
    """One board's cells as panels: 2D grids, one per layer (or block of layers) beyond two axes."""
    board = game.board
    grid = board.grid
    if len(grid) == 1:
        grid = (1, grid[0])
        coords = [(0, *c) for c in board.coords]
    else:
        coords = list(board.coords)
    rows, cols = grid[-2], grid[-1]
    leading = grid[:-2]
    panels = []
    # the labels of rows and columns, as moves are typed: b2 on flat boards, 2,1,3 on n^d
    row_names = [str(r + 1) for r in range(rows)]
    column_names = (
        [column_letters(c) for c in range(cols)] if board.dims == 2 else [str(c + 1) for c in range(cols)]
    )
    index = {c: i for i, c in enumerate(coords)}
    for prefix in itertools.product(*(range(g) for g in leading)):
        cells: list[list[dict[str, Any] | None]] = []
        for r in range(rows):
            row: list[dict[str, Any] | None] = []
            for c in range(cols):
                cell = index.get((*prefix, r, c))
                if cell is None:
                    row.append(None)
                else:
                    row.append(
                        {
                            "name": board.cell_name(cell),
                            "slots": [{"key": offset + cell, "mark": marks[cell]}],
                        }
                    )
            cells.append(row)
        name = title
        if prefix:
            layer = "layer " + ",".join(str(p + 1) for p in prefix)
            name = f"{title} {layer}".strip()
        panels.append({"title": name, "cells": cells, "rows": row_names, "columns": column_names})
    return panels


def _slot_panels(game: Game, marks: list[str]) -> list[dict[str, Any]]:
    """The panel of a game whose board's cells are slots in the cells of a flat plane
    (``layout.plane``; Otrio: each cell holds a small, a medium and a large ring).
    """
    plane, names = game.layout.plane, game.layout.slots
    assert plane is not None
    n = len(names)
    rows, cols = plane.grid
    cells = []
    for r in range(rows):
        row: list[dict[str, Any] | None] = []
        for c in range(cols):
            cell = plane.cell_at((r, c))
            if cell is None:
                row.append(None)
                continue
            slots = [{"key": n * cell + s, "mark": marks[n * cell + s], "size": names[s]} for s in range(n)]
            row.append({"name": plane.cell_name(cell), "slots": slots})
        cells.append(row)
    return [
        {
            "title": "",
            "cells": cells,
            "rows": [str(r + 1) for r in range(3)],
            "columns": [column_letters(c) for c in range(3)],
        }
    ]


def _lines_owned(game: Game, position: Position) -> list[int]:
    """Slot keys of every line wholly owned by one player (the winning or losing line)."""
    board = game.board
    keys: list[int] = []
    if game.layout.boards is not None:
        n = board.num_cells
        for b, bits in enumerate(game.board_marks(position)):
            for line, mask in zip(board.lines, board.line_masks, strict=True):
                if bits & mask == mask:
                    keys.extend(b * n + c for c in line)
        return keys
    if game.line_rule is not None:  # cells belong to players
        for player in Player:
            for j in game.completed_lines(position, player):
                keys.extend(board.lines[j])
    return keys


def board_view(game: Game, position: Position) -> dict[str, Any]:
    """Everything the page needs to draw ``position`` and to know what a click means.

    ``panels`` (see the module docstring), ``layout`` (``grid``, ``layers``, ``boards`` or
    ``rings``; with ``panel_columns``, how many panels to a row), ``moves`` (every legal move
    with its slot key), ``highlight`` (slot keys of completed lines), ``step`` (veto rules: ``veto``
    or ``claim``, and the forbidden cell's key), ``dead`` (Notakto: the dead boards),
    ``rings_left`` (Otrio: each player's rings of each size), ``score`` (cumulative rules),
    ``lifetimes`` and ``leaving`` (``forget``, ``vanishing``: the plies each mark has left, by
    slot key, and the key of the mark that leaves after the next move), ``in_hand`` and
    ``phase`` (``morris``: the marks each player has still to place, ``placing`` or ``moving``),
    ``lines`` and ``won_lines`` (boards given by their lines; layout ``points`` where the board
    has no coordinates: see :func:`_given_lines`).
    """
    marks = list(game.marks(position))
    view: dict[str, Any] = {"layout": "grid", "panel_columns": 1}
    layout = game.layout
    if layout.slots:
        view["layout"] = "rings"
        view["panels"] = _slot_panels(game, marks)
        left = {p: game.pieces_left(position, p) for p in Player}
        if all(pieces is not None for pieces in left.values()):
            view["rings_left"] = {
                game.player_label(p): dict(zip(layout.slots, pieces, strict=True))  # type: ignore[arg-type]
                for p, pieces in left.items()
            }
    elif layout.boards is not None:
        n = game.board.num_cells
        panels = []
        live = set(game.live_boards(position))
        dead = []
        for b in range(layout.boards):
            board_marks = marks[b * n : (b + 1) * n]
            is_dead = b not in live
            dead.append(is_dead)
            title = f"board {b + 1}" + (" (dead)" if is_dead else "")
            panels.extend(_panels_of_grid(game, board_marks, offset=b * n, title=title))
        view.update(layout="boards", panels=panels, dead=dead, panel_columns=min(layout.boards, 4))
    else:
        panels = _panels_of_grid(game, marks)
        grid = game.board.grid
        if len(grid) > 2:
            view["layout"] = "layers"
            view["panel_columns"] = grid[-3]
        view["panels"] = panels
        _given_lines(game, position, view)
    if game.has_veto_step:
        if position.is_terminal():
            view["step"] = {"kind": "over", "forbidden": None}
        elif game.is_veto_step(position):
            view["step"] = {"kind": "veto", "forbidden": None}
        else:
            view["step"] = {"kind": "claim", "forbidden": game.forbidden_cell(position)}
    if isinstance(game.loop, FadingMarks):
        view["lifetimes"] = {str(c): left for c, left in game.lifetimes(position).items()}
        view["leaving"] = game.leaving(position)
    if isinstance(game.loop, MovingPieces):
        view["in_hand"] = {game.player_label(p): game.in_hand(position, p) for p in Player}
        view["phase"] = None if position.is_terminal() else game.phase(position)
    score = position.score()
    if score is not None:
        view["score"] = {game.player_label(p): score[p] for p in Player}
    view["moves"] = [move_info(game, m) for m in position.legal_moves()]
    view["highlight"] = sorted(set(_lines_owned(game, position)))
    return view


MAX_VIEW_INCIDENCES = 20_000
"""A board given by its lines sends them to the page (hover, the list) up to this many cells in
all its lines (AG(2,64)'s 4,160 lines of 64 are left to ``noughts show``)."""


def _given_lines(game: Game, position: Position, view: dict[str, Any]) -> None:
    """A board given by its lines (planes, tori, a user's): ``lines`` (each a list of slot keys,
    in the order written) and ``won_lines`` (the indices of completed lines), so the page lists
    them and lights every line through a hovered point; a board without coordinates
    (``board.placed`` false) is drawn as ``points`` on a circle (each cell's ``x`` and ``y`` in
    the unit square, :func:`noughts.core.hypergraphs.circle_layout`).
    """
    from noughts.core.hypergraphs import circle_layout

    board = game.board
    if not board.given_lines or len(board.lines) * board.k > MAX_VIEW_INCIDENCES:
        return
    view["lines"] = [list(line) for line in board.lines]
    won: set[int] = set()
    if game.line_rule is not None:
        for player in Player:
            won.update(game.completed_lines(position, player))
    view["won_lines"] = sorted(won)
    if not board.placed:
        view["layout"] = "points"
        spots = circle_layout(board.num_cells)
        for row in view["panels"][0]["cells"]:
            for cell in row:
                if cell is not None:
                    x, y = spots[cell["slots"][0]["key"]]
                    cell["x"], cell["y"] = round(x, 4), round(y, 4)


# -- values for the overlay ---------------------------------------------------------------------------


def _verdict(value: Value, mover: Player) -> str:
    if value.outcome is Outcome.DRAW:
        return "draw"
    return "win" if value.outcome.winner is mover else "loss"


def evaluation_json(result: SolveResult) -> dict[str, Any]:
    """The solver's answer as the page shows it: the position's value for the side to move, and
    per legal move its slot key, ``verdict`` (``win``, ``draw`` or ``loss`` for the mover) and
    ``plies`` (to the end of the game, the move included; null for a draw in a game that need not
    end, and where the engine knows only the outcome, and then ``distances`` is false), best first.
    """
    game, position = result.game, result.position
    mover = position.to_move
    moves = []
    top = move_key(after_move(result.moves[0].value), mover) if result.moves else None
    best = []
    for mv in result.moves:
        if move_key(after_move(mv.value), mover) == top:
            best.append(game.format_move(mv.move))
        moves.append(
            {
                **move_info(game, mv.move),
                "verdict": _verdict(mv.value, mover),
                # a draw in a game that need not end has no length
                "plies": None
                if mv.value.plies is None
                or (mv.value.outcome is Outcome.DRAW and not game.properties.bounded)
                else mv.value.plies + 1,
                "score": mv.value.score,
                "describe": mv.value.describe(game),
            }
        )
    return {
        "verdict": _verdict(result.value, mover) if not position.is_terminal() else None,
        "describe": result.value.describe(game),
        "moves": moves,
        "best": best,
        "distances": result.value.plies is not None,
        "engine": result.engine,
    }


GRADES: tuple[tuple[str, str], ...] = (
    ("win", "proven win"),
    ("good", "better (estimate)"),
    ("even", "about even (estimate)"),
    ("bad", "worse (estimate)"),
    ("loss", "proven loss"),
)
"""The overlay's grades of an engine's move value, best first, with what each says in words."""

EDGE = 0.2
"""An estimate at or beyond this on the normalised scale (-1 lost, 1 won) is graded ``good`` or
``bad``; nearer zero, ``even``."""


def grade(result: EngineResult) -> str:
    """The overlay's grade (see :data:`GRADES`) of one move's engine value: ``win``/``loss``
    only for a proof, else the estimate's side of :data:`EDGE`.
    """
    if result.proven is not None:
        return str(result.proven)
    if result.value >= EDGE:
        return "good"
    if result.value <= -EDGE:
        return "bad"
    return "even"


def engine_view_json(
    game: Game, position: Position, results: list[EngineResult], engine: str, seconds: float
) -> dict[str, Any]:
    """The engine's view of every move (:meth:`noughts.agents.engine.EngineAgent.move_values`,
    best first) as the page shows it: per move its slot key, ``value`` (-1 to 1 for the mover),
    ``label`` (``W7`` / ``L12`` proven, ``+0.42`` an estimate: never the engine's internal
    score), ``grade``, ``proven``, ``plies`` and ``rank`` (1: the engine's best); the position's
    verdict in words; the grades' legend.
    """
    mover = game.player_label(position.to_move)
    moves = []
    for rank, r in enumerate(results, 1):
        moves.append(
            {
                **move_info(game, r.move),
                "value": round(r.value, 3),
                "label": r.label(),
                "grade": grade(r),
                "proven": r.proven,
                "plies": r.plies,
                "rank": rank,
                "describe": _describe_move(r),
            }
        )
    best = results[0] if results else None
    top = [m["move"] for m in moves if best is not None and m["label"] == moves[0]["label"]]
    if best is None:
        describe = "no moves"
    elif best.proven == "win":
        describe = f"{mover} wins: {moves[0]['move']} is {_describe_move(best)}"
    elif all(r.proven == "loss" for r in results):
        describe = (
            f"{mover} loses: every move is a proven loss (the longest in {best.plies} {_plies(best.plies)})"
        )
    else:
        describe = (
            f"the engine's best for {mover} is {moves[0]['move']} ({best.label()}, an estimate, not a proof)"
        )
        losses = sum(1 for r in results if r.proven == "loss")
        if losses:
            describe += f"; {losses} {'move is a proven loss' if losses == 1 else 'moves are proven losses'}"
    return {
        "engine": engine,
        "estimate": best is None or best.proven is None,
        "describe": describe,
        "best": top,
        "moves": moves,
        "proven": sum(1 for r in results if r.proven is not None),
        "grades": [{"grade": g, "text": text} for g, text in GRADES],
        "seconds": seconds,
    }


def _describe_move(r: EngineResult) -> str:
    if r.proven is not None:
        return f"a proven {r.proven} in {r.plies} {_plies(r.plies)}"
    return f"an estimate of {r.label()} for the mover (-1 lost, +1 won)"


def _plies(n: int | None) -> str:
    return "ply" if n == 1 else "plies"
