"""What the page draws: a position as panels of cells, and moves as the cells they touch.

Presentation only; every rule is decided by the game. A board is drawn as one or more
**panels** (2D grids): a flat board is one panel (odd shapes leave holes), an n^d board one
panel per layer (d = 3) or per block of layers (d >= 4), Notakto one panel per board, Otrio one
3x3 panel whose cells hold three ring **slots** (small, medium, large). Every slot has a
**key**, an integer the page sends back to say "this cell": the integer action of the claim
there (Notakto ``board * cells + cell``, Otrio ``3 * cell + size``), or for veto rules the cell
(a click at the veto step forbids the cell, at the claim step claims it).
"""

from __future__ import annotations

import itertools
from typing import Any

from noughts.core import (
    ClaimGame,
    Game,
    Move,
    NotaktoGame,
    NotationError,
    OtrioGame,
    Outcome,
    Player,
    Position,
    Veto,
    VetoGame,
)
from noughts.exact.reference import after_move, move_key
from noughts.exact.result import SolveResult, Value

__all__ = ["board_view", "evaluation_json", "move_at_slot", "move_info", "slot_key"]

RING_SIZES = ("small", "medium", "large")


def slot_key(game: Game, move: Move) -> int | None:
    """The key of the slot a move is made on (None for a veto pass)."""
    if isinstance(game, VetoGame):
        if isinstance(move, Veto):
            return move.cell
        return int(move)  # type: ignore[arg-type]
    return game.action(move)


def move_at_slot(game: Game, position: Position, key: int) -> Move:
    """The move a click on slot ``key`` makes in ``position`` (legal or not: the caller checks).
    Under veto rules that is a veto at the veto step and a claim at the claim step.
    """
    if isinstance(game, VetoGame):
        if not 0 <= key < game.board.num_cells:
            raise NotationError(f"slot {key} is not a cell of {game.board.spec}")
        return Veto(key) if position.state[2] is None else key
    return game.move(key)


def move_info(game: Game, move: Move) -> dict[str, Any]:
    """A move for the page: its notation, integer action, slot key (and what ``move_json``
    adds: cells, Notakto's board, Otrio's ring size, veto steps).
    """
    return {**game.move_json(move), "action": game.action(move), "key": slot_key(game, move)}


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
        panels.append({"title": name, "cells": cells})
    return panels


def _otrio_panels(game: OtrioGame, marks: list[str]) -> list[dict[str, Any]]:
    plane = game.plane
    cells = []
    for r in range(3):
        row: list[dict[str, Any] | None] = []
        for c in range(3):
            cell = plane.cell_at((r, c))
            assert cell is not None
            slots = [
                {"key": 3 * cell + s, "mark": marks[3 * cell + s], "size": RING_SIZES[s]} for s in range(3)
            ]
            row.append({"name": plane.cell_name(cell), "slots": slots})
        cells.append(row)
    return [{"title": "", "cells": cells}]


def _lines_owned(game: Game, position: Position) -> list[int]:
    """Slot keys of every line wholly owned by one player (the winning or losing line)."""
    board = game.board
    keys: list[int] = []
    if isinstance(game, NotaktoGame):
        n = board.num_cells
        for b, bits in enumerate(position.state):
            for line, mask in zip(board.lines, board.line_masks, strict=True):
                if bits & mask == mask:
                    keys.extend(b * n + c for c in line)
        return keys
    if isinstance(game, (ClaimGame, VetoGame)):
        for bits in position.state[:2]:
            for line, mask in zip(board.lines, board.line_masks, strict=True):
                if bits & mask == mask:
                    keys.extend(line)
    return keys


def board_view(game: Game, position: Position) -> dict[str, Any]:
    """Everything the page needs to draw ``position`` and to know what a click means.

    ``panels`` (see the module docstring), ``layout`` (``grid``, ``layers``, ``boards`` or
    ``rings``; with ``panel_columns``, how many panels to a row), ``moves`` (every legal move
    with its slot key), ``highlight`` (slot keys of completed lines), ``step`` (veto rules: ``veto``
    or ``claim``, and the forbidden cell's key), ``dead`` (Notakto: the dead boards),
    ``rings_left`` (Otrio: each player's rings of each size), ``score`` (cumulative rules).
    """
    marks = list(game.marks(position))
    view: dict[str, Any] = {"layout": "grid", "panel_columns": 1}
    if isinstance(game, OtrioGame):
        view["layout"] = "rings"
        view["panels"] = _otrio_panels(game, marks)
        view["rings_left"] = {
            game.player_label(p): dict(zip(RING_SIZES, game.rings_left(position, p), strict=True))
            for p in Player
        }
    elif isinstance(game, NotaktoGame):
        n = game.board.num_cells
        panels = []
        dead = []
        for b in range(game.boards):
            board_marks = marks[b * n : (b + 1) * n]
            bits = position.state[b]
            is_dead = game.is_dead(bits)
            dead.append(is_dead)
            title = f"board {b + 1}" + (" (dead)" if is_dead else "")
            panels.extend(_panels_of_grid(game, board_marks, offset=b * n, title=title))
        view.update(layout="boards", panels=panels, dead=dead, panel_columns=min(game.boards, 4))
    else:
        panels = _panels_of_grid(game, marks)
        grid = game.board.grid
        if len(grid) > 2:
            view["layout"] = "layers"
            view["panel_columns"] = grid[-3]
        view["panels"] = panels
    if isinstance(game, VetoGame):
        veto = position.state[2]
        if position.is_terminal():
            view["step"] = {"kind": "over", "forbidden": None}
        elif veto is None:
            view["step"] = {"kind": "veto", "forbidden": None}
        else:
            view["step"] = {"kind": "claim", "forbidden": None if veto < 0 else veto}
    score = position.score()
    if score is not None:
        view["score"] = {game.player_label(p): score[p] for p in Player}
    view["moves"] = [move_info(game, m) for m in position.legal_moves()]
    view["highlight"] = sorted(set(_lines_owned(game, position)))
    return view


# -- values for the overlay ---------------------------------------------------------------------------


def _verdict(value: Value, mover: Player) -> str:
    if value.outcome is Outcome.DRAW:
        return "draw"
    return "win" if value.outcome.winner is mover else "loss"


def evaluation_json(result: SolveResult) -> dict[str, Any]:
    """The solver's answer as the page shows it: the position's value for the side to move, and
    per legal move its slot key, ``verdict`` (``win``, ``draw`` or ``loss`` for the mover) and
    ``plies`` (to the end of the game, the move included; null where the engine knows only
    the outcome, and then ``distances`` is false), best first.
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
                "plies": None if mv.value.plies is None else mv.value.plies + 1,
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
