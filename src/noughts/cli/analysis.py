"""What ``solve``, ``explain`` and ``count`` print: JSON documents and tables over the solver's
results. Presentation only; the values come from :mod:`noughts.exact`.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text

from noughts.cli.views import MARK_STYLES, styled_line
from noughts.core import Game, Outcome, Player
from noughts.core.text import render_grid
from noughts.core.values import MoveValue, SolveResult, Value

__all__ = [
    "best_line",
    "best_moves_text",
    "cost_line",
    "count_table",
    "marked_board",
    "move_header",
    "move_line",
    "moves_table",
    "value_text",
]

VALUE_STYLES = {"win": "bold green", "draw": "yellow", "loss": "bold red"}


def _verdict(value: Value, mover: Player) -> str:
    """``win``, ``draw`` or ``loss`` for the player who would make the move."""
    if value.outcome is Outcome.DRAW:
        return "draw"
    return "win" if value.outcome.winner is mover else "loss"


def value_text(game: Game, value: Value) -> str:
    """E.g. ``x wins in 7 plies``, ``draw``, ``draw, score 1-1``, ``x wins (distance unknown)``."""
    text = game.outcome_text(value.outcome)
    if value.score is not None:
        return f"{text} (final score difference {value.score:+d}, first minus second)"
    if value.outcome is not Outcome.DRAW:
        if value.plies is None:
            text += " (distance unknown)"
        else:
            text += f" in {value.plies} {'ply' if value.plies == 1 else 'plies'}"
    return text


def _plies(value: Value) -> str:
    """A move's plies to the end, the move included; ``?`` where unknown."""
    return "?" if value.plies is None else str(value.plies + 1)


def move_line(game: Game, mover: Player, mv: MoveValue, index: int, total: int) -> Text:
    """One move's value as ``solve`` prints it once proved: move, result for the mover, the
    outcome (and distance or score), and how many of the moves are done.
    """
    verdict = _verdict(mv.value, mover)
    text = Text.assemble(
        (f"  {game.format_move(mv.move):>6}  ", "bold"),
        (f"{verdict:<{_verdict_width(game, mover)}}", VALUE_STYLES[verdict]),
        "  ",
        styled_line(move_value_text(game, mv.value)),
        (f"  ({index + 1} of {total})", "dim"),
    )
    return text


def _verdict_width(game: Game, mover: Player) -> int:
    return max(5, len(f"for {game.player_label(mover)}"))


def move_header(game: Game, mover: Player) -> Text:
    """The labels over :func:`move_line`'s columns (plies are counted with the move itself)."""
    label = f"for {game.player_label(mover)}"
    return Text(
        f"  {'move':>6}  {label:<{_verdict_width(game, mover)}}  result with perfect play"
        " (plies counting the move)  (proved)",
        style="dim",
    )


def move_value_text(game: Game, value: Value) -> str:
    """A move's value: the outcome, in how many plies counting the move (if known), the score."""
    text = game.outcome_text(value.outcome)
    if value.score is not None:
        return f"{text} (score difference {value.score:+d})"
    if value.outcome is not Outcome.DRAW and value.plies is not None:
        plies = value.plies + 1
        text += f" in {plies} {'ply' if plies == 1 else 'plies'}"
    return text


def best_moves_text(result: SolveResult) -> str:
    """The moves that keep the position's value (as proved so far), in notation."""
    mover = result.position.to_move
    if not result.moves:
        return ""
    top = result.moves[0].value
    best = [
        mv
        for mv in result.moves
        if _verdict(mv.value, mover) == _verdict(top, mover) and mv.value.score == top.score
    ]
    if top.plies is not None:
        best = [mv for mv in best if mv.value.plies == top.plies]
    return " ".join(result.game.format_move(mv.move) for mv in best)


def moves_table(result: SolveResult) -> Table:
    """Every legal move with its value for the mover, best first."""
    game, mover = result.game, result.position.to_move
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("move", style="bold")
    table.add_column(f"for {game.player_label(mover)}")
    table.add_column("result")
    table.add_column("plies", justify="right")
    if game.properties.is_scored:
        table.add_column("score", justify="right")
    for mv in result.moves:
        verdict = _verdict(mv.value, mover)
        row: list[str | Text] = [
            game.format_move(mv.move),
            Text(verdict, style=VALUE_STYLES[verdict]),
            styled_line(game.outcome_text(mv.value.outcome)),
            "" if mv.value.outcome is Outcome.DRAW and not game.properties.bounded else _plies(mv.value),
        ]
        if game.properties.is_scored:
            row.append(f"{mv.value.score:+d}" if mv.value.score is not None else "")
        table.add_row(*row)
    return table


def best_line(result: SolveResult) -> str:
    """The principal variation in notation, or a word where the game is already over; where the
    distances are unknown, a line that keeps the outcome, said so.
    """
    line = " ".join(result.game.format_move(m) for m in result.pv) or "(the game is over)"
    if result.pv and result.value.plies is None:
        line += " (the winner keeps the win; the loser's moves are its first legal ones)"
    return line


def cost_line(result: SolveResult) -> str:
    """What the answer cost, e.g. ``1,234 positions searched in 0.012 s``."""
    if result.engine == "quotient":
        return f"answered by the quotient of one board's positions (no search) in {result.seconds:.3f} s"
    if result.engine == "proof":
        line = f"{result.nodes:,} nodes in {result.seconds:.3f} s (proof engine)"
    elif result.engine == "breaker":
        line = f"{result.nodes:,} nodes in {result.seconds:.3f} s (Breaker prover)"
    else:
        line = f"{result.nodes:,} positions searched in {result.seconds:.3f} s ({result.engine} engine)"
    if result.split is not None:
        s = result.split
        if s.get("note"):
            return f"{line}; {s['note']}"
        line += f", split into {s['jobs']:,} jobs {s['depth']} plies deep on {s['workers']} workers ({s['backend']})"
        if s.get("depth_asked"):
            line += f" (clamped from {s['depth_asked']}: the tree deeper would pass the split's limit)"
        if s.get("jobs_stopped"):
            line += f"; {s['jobs_stopped']:,} jobs stopped once the others settled the value"
    return line


def _cell_mark(value: Value, mover: Player) -> str:
    verdict = _verdict(value, mover)
    if verdict == "draw":
        return "D"
    return ("W" if verdict == "win" else "L") + ("" if value.plies is None else str(value.plies + 1))


def marked_board(result: SolveResult) -> Text | None:
    """The board with every empty cell marked by the value of playing there for the mover
    (W5: wins in 5 plies, D: draw, L6: loses in 6; W and L alone where the distance is
    unknown), where moves are cells; else None.
    """
    game, position = result.game, result.position
    # a cell move's action indexes game.marks (Notakto: board * cells + cell); Otrio's rings,
    # veto's two steps and Morris slides have no one mark per move
    if not game.cell_moves:
        return None
    board = game.board
    chars = list(game.marks(position))
    for mv in result.moves:
        chars[game.action(mv.move)] = _cell_mark(mv.value, position.to_move)
    width = max(len(c) for c in chars)
    n = board.num_cells
    pictures = [render_grid(board, chars[b * n : (b + 1) * n], width=width) for b in range(len(chars) // n)]
    lines = ["   ".join(parts) for parts in zip(*pictures, strict=True)]
    text = Text("\n".join(lines))
    for token, style in (
        ("W", VALUE_STYLES["win"]),
        ("L", VALUE_STYLES["loss"]),
        ("D", VALUE_STYLES["draw"]),
    ):
        text.highlight_regex(rf"{token}\d*", style)
    for mark, style in MARK_STYLES.items():
        text.highlight_regex(rf"(?<=\s){mark}(?=\s|$)", style)
    return text


def count_table(result: Any) -> Table:
    """The counts of ``noughts count`` as a two-column table."""
    data = result.to_json()
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_header=False)
    table.add_column("what", style="bold")
    table.add_column("count", justify="right")
    labels = {
        "positions": "positions (distinct, reachable)",
        "positions_up_to_symmetry": "positions up to symmetry",
        "terminal_positions": "terminal positions",
        "games": "complete games",
        "tree_nodes": "game-tree nodes (paths from the start)",
        "games_up_to_symmetry_orbits": "games up to symmetry (orbits of move sequences)",
        "games_up_to_symmetry_quotient": "games up to symmetry (paths among positions up to symmetry)",
    }
    for key, label in labels.items():
        if key in data and data[key] is not None:
            table.add_row(label, f"{data[key]:,}")
    words = {"first": "won by the first player", "second": "won by the second player", "draw": "drawn"}
    for key, what in (("games_by_outcome", "games"), ("terminal_positions_by_outcome", "terminal positions")):
        for outcome, n in (data.get(key) or {}).items():
            table.add_row(f"  {what} {words.get(outcome, outcome)}", f"{n:,}")
    if data.get("games_by_length"):
        table.add_row("complete games by length", "")
        for length, n in sorted(data["games_by_length"].items(), key=lambda kv: int(kv[0])):
            table.add_row(f"  {length} moves", f"{n:,}")
    if data.get("positions_by_ply"):
        table.add_row("positions by ply", "")
        for ply, n in enumerate(data["positions_by_ply"]):
            table.add_row(f"  ply {ply}", f"{n:,}")
    return table


ENGINE_ROWS = 10
"""The engine view's table shows this many moves, best first (the JSON has every move)."""


def engine_view_table(advice: Any, rows: int = ENGINE_ROWS) -> Table:
    """The engine's view of the best moves (a :class:`noughts.review.advice.Advice` the solver
    did not finish): each move's label (``W7``/``L12`` proven, ``+0.42`` an estimate for the
    mover on -1 lost to +1 won) and whether the engine proved it.
    """
    game, mover = advice.game, advice.position.to_move
    shown = advice.engine[:rows]
    more = len(advice.engine) - len(shown)
    table = Table(
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        title=f"the engine's view for {game.player_label(mover)}, best first",
        caption=f"and {more} more move{'s' if more != 1 else ''} (--json lists every move)" if more else None,
    )
    table.add_column("rank", justify="right")
    table.add_column("move", style="bold")
    table.add_column("value", justify="right")
    table.add_column("how known")
    for rank, r in enumerate(shown, 1):
        how = f"proven {r.proven}" if r.proven is not None else "engine's estimate"
        table.add_row(str(rank), game.format_move(r.move), r.label(), how)
    return table
