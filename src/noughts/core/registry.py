"""One registry from spec strings to boards and games: ``noughts.game("misere(mnk(3,3,3))")``.

Each entry names its parameters (kind, default, bounds), so every spec gets the same checks
and the same clear errors, and ``str(game)`` gives the canonical spec back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from noughts.core.board import Board, hypercube, hypergraph_boards, mnk, shape
from noughts.core.claim import ClaimGame, CumulativeGame, MakerBreakerGame, MisereGame, StandardGame
from noughts.core.errors import SpecError
from noughts.core.game import Game
from noughts.core.hypergraphs import affine, projective, torus
from noughts.core.hypergraphs import hypergraph as user_hypergraph
from noughts.core.loopy import BLOCKED, COUNTS, JUDGES, ForgetGame, MorrisGame, VanishingGame
from noughts.core.notakto import MAX_BOARDS, NotaktoGame
from noughts.core.otrio import OtrioGame
from noughts.core.spec import Call, Value, parse_spec
from noughts.core.veto import VetoGame

__all__ = ["ENTRIES", "Entry", "Param", "board", "build", "game", "hypergraph", "rules_summary"]

_REQUIRED = object()


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # "int", "bool", "str", "choice" (one of choices), "board", "claim" (board or claim game)
    default: Any = _REQUIRED
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()

    @property
    def required(self) -> bool:
        """Whether a spec must give this argument (it has no default)."""
        return self.default is _REQUIRED


@dataclass(frozen=True)
class Entry:
    name: str
    makes: str  # "board" or "game"
    params: tuple[Param, ...]
    factory: Callable[..., Any]
    summary: str


def _tictactoe() -> Board:
    return mnk(3, 3, 3)


ENTRIES: dict[str, Entry] = {
    e.name: e
    for e in (
        Entry(
            "mnk",
            "board",
            (Param("m", "int", minimum=1), Param("n", "int", minimum=1), Param("k", "int", minimum=1)),
            mnk,
            "m rows, n columns, k in a row across, down or diagonally",
        ),
        Entry("tictactoe", "board", (), _tictactoe, "mnk(3,3,3)"),
        Entry(
            "hypercube",
            "board",
            (Param("n", "int", minimum=1), Param("d", "int", minimum=1), Param("k", "int", None, minimum=1)),
            hypercube,
            "the n^d cube; lines of n cells (or k with k=K)",
        ),
        Entry(
            "shape",
            "board",
            (Param("mask", "str"), Param("k", "int", minimum=1)),
            shape,
            'rows of "#" (cell) and "." (none) separated by "/"; k in a row',
        ),
        # boards given by their lines (core/hypergraphs.py): finite planes, tori, a user's lines
        Entry(
            "affine",
            "board",
            (Param("q", "int", minimum=2),),
            affine,
            "the affine plane AG(2,q), q a prime power",
        ),
        Entry(
            "projective",
            "board",
            (Param("q", "int", minimum=2),),
            projective,
            "the projective plane PG(2,q), q a prime power",
        ),
        Entry(
            "torus",
            "board",
            (Param("m", "int", minimum=1), Param("n", "int", minimum=1), Param("k", "int", minimum=1)),
            torus,
            "m x n, k in a row in four directions, wrapping around the edges",
        ),
        Entry(
            "hypergraph",
            "board",
            (
                Param("lines", "str", ""),
                Param("points", "str", ""),
                Param("at", "str", ""),
                Param("file", "str", ""),
            ),
            user_hypergraph,
            'your own lines: "a b c / c d e / ..." (or file="lines.json" at the command line)',
        ),
        Entry(
            "standard",
            "game",
            (Param("board", "board"),),
            StandardGame,
            "first to own a line wins; full board draws",
        ),
        Entry(
            "misere",
            "game",
            (Param("board", "board"),),
            MisereGame,
            "first to own a line loses; full board draws",
        ),
        Entry(
            "maker_breaker",
            "game",
            (Param("board", "board"), Param("breaker_first", "bool", False)),
            MakerBreakerGame,
            "Maker wins by owning a line, Breaker by touching every line",
        ),
        Entry(
            "cumulative",
            "game",
            (Param("board", "board"),),
            CumulativeGame,
            "fill the board; most lines owned wins",
        ),
        Entry(
            "veto",
            "game",
            (Param("game", "claim"),),
            VetoGame,
            "the opponent may forbid one cell before each claim",
        ),
        Entry(
            "notakto",
            "game",
            (
                Param("board", "board", _tictactoe),
                Param("boards", "int", 1, 1, MAX_BOARDS),
                Param("misere", "bool", True),
            ),
            NotaktoGame,
            "both play x on live boards; who kills the last board loses (misere=false: wins)",
        ),
        Entry("otrio", "game", (), OtrioGame, "rings of three sizes on 3x3 (two players)"),
        Entry(
            "forget",
            "game",
            (
                Param("board", "board"),
                Param("turns", "int", 3, 1, 64),
                Param("count", "choice", "own", choices=COUNTS),
                Param("judge", "choice", "after", choices=JUDGES),
            ),
            ForgetGame,
            "004's Tic-Tac-Toe Forget: a mark leaves after `turns` turns; need not end",
        ),
        Entry(
            "vanishing",
            "game",
            (
                Param("board", "board"),
                Param("keep", "int", 3, 1, 64),
                Param("judge", "choice", "after", choices=JUDGES),
            ),
            VanishingGame,
            "at most `keep` marks each, a new one removes the oldest; need not end",
        ),
        Entry(
            "morris",
            "game",
            (
                Param("board", "board", _tictactoe),
                Param("pieces", "int", 3, 1, 2048),
                Param("diagonals", "bool", True),
                Param("diagonal_mills", "bool", True),
                Param("jump", "bool", False),
                Param("judge", "choice", "after", choices=JUDGES),
                Param("blocked", "choice", "loses", choices=BLOCKED),
            ),
            MorrisGame,
            "Three Men's Morris: place `pieces` marks, then slide them; need not end",
        ),
    )
}


def _where(spec: str, call: Call) -> tuple[str, int]:
    return spec, call.column


def _bind(entry: Entry, call: Call, spec: str) -> list[Any]:
    params = entry.params
    if len(call.args) > len(params):
        raise SpecError(
            f"{entry.name} takes at most {len(params)} argument{'s' if len(params) != 1 else ''}"
            f" ({', '.join(p.name for p in params) or 'none'}), got {len(call.args)}",
            spec,
            call.column,
        )
    values: dict[str, Value] = {}
    for p, v in zip(params, call.args, strict=False):
        values[p.name] = v
    names = {p.name for p in params}
    for key, v in call.kwargs:
        if key not in names:
            raise SpecError(
                f"{entry.name} has no argument {key!r}; its arguments are {', '.join(sorted(names)) or 'none'}",
                spec,
                call.column,
            )
        if key in values:
            raise SpecError(f"{entry.name}: argument {key!r} is given twice", spec, call.column)
        values[key] = v
    out = []
    for p in params:
        if p.name not in values:
            if p.default is _REQUIRED:
                raise SpecError(f"{entry.name} needs its argument {p.name!r}", spec, call.column)
            out.append(p.default() if callable(p.default) else p.default)
            continue
        out.append(_convert(entry, p, values[p.name], call, spec))
    return out


def _convert(entry: Entry, p: Param, v: Value, call: Call, spec: str) -> Any:
    label = f"{entry.name}: {p.name}"
    if p.kind == "int":
        if isinstance(v, bool) or not isinstance(v, int):
            raise SpecError(f"{label} must be a whole number, not {_show(v)}", spec, _col(v, call))
        if p.minimum is not None and v < p.minimum:
            raise SpecError(f"{label} must be at least {p.minimum}, not {v}", spec, call.column)
        if p.maximum is not None and v > p.maximum:
            raise SpecError(f"{label} must be at most {p.maximum}, not {v}", spec, call.column)
        return v
    if p.kind == "bool":
        if isinstance(v, Call) and not v.args and not v.kwargs and v.name in ("true", "false"):
            return v.name == "true"
        raise SpecError(f"{label} must be true or false, not {_show(v)}", spec, _col(v, call))
    if p.kind == "str":
        if not isinstance(v, str):
            raise SpecError(f"{label} must be a quoted string, not {_show(v)}", spec, _col(v, call))
        return v
    if p.kind == "choice":  # a quoted string or a bare word: count="plies" or count=plies
        word = v.name if isinstance(v, Call) and not v.args and not v.kwargs else v
        if not isinstance(word, str) or word not in p.choices:
            allowed = ", ".join(repr(c) for c in p.choices)
            raise SpecError(f"{label} must be one of {allowed}, not {_show(v)}", spec, _col(v, call))
        return word
    if not isinstance(v, Call):
        raise SpecError(f"{label} must be a board such as mnk(3,3,3), not {_show(v)}", spec, call.column)
    made = build(v, spec)
    if p.kind == "board":
        if not isinstance(made, Board):
            raise SpecError(
                f"{label} must be a board such as mnk(3,3,3), not the game {made}", spec, v.column
            )
        return made
    # "claim": a board (standard rules) or a claim game
    if isinstance(made, Board):
        return StandardGame(made)
    if not isinstance(made, ClaimGame) or isinstance(made, OtrioGame):
        raise SpecError(
            f"{label} must be a board or a standard, misere, maker_breaker or cumulative game, not {made}",
            spec,
            v.column,
        )
    return made


def _col(v: Value, call: Call) -> int:
    return v.column if isinstance(v, Call) else call.column


def _show(v: Value) -> str:
    if isinstance(v, Call):
        return f"{v.name!r}"
    return repr(v)


def build(call: Call, spec: str) -> Board | Game:
    """Build the board or game a parsed spec names."""
    entry = ENTRIES.get(call.name)
    if entry is None:
        known = ", ".join(sorted(ENTRIES))
        raise SpecError(f"unknown game or board {call.name!r}; known: {known}", spec, call.column)
    args = _bind(entry, call, spec)
    try:
        return entry.factory(*args)  # type: ignore[no-any-return]
    except SpecError as e:
        if e.text is None:
            raise SpecError(e.message, spec, call.column) from None
        raise


def game(spec: str | Game | Board) -> Game:
    """The game a spec names, e.g. ``game("misere(mnk(3,3,3))")``; a bare board means
    standard rules. Raises ``SpecError`` pointing at the problem.
    """
    if isinstance(spec, Game):
        return spec
    if isinstance(spec, Board):
        return StandardGame(spec)
    made = build(parse_spec(spec), spec)
    if isinstance(made, Board):
        return StandardGame(made)
    return made


def hypergraph(spec: str | Game | Board) -> Game:
    """The game a spec names, its board built up to ``HYPERGRAPH_MAX_CELLS`` cells, for analysis
    of its lines (the pairing toolkit, the Breaker prover); :func:`game` keeps the playing limit.

    >>> hypergraph("hypercube(11,4)").board.num_cells
    14641
    """
    with hypergraph_boards():
        return game(spec)


def board(spec: str) -> Board:
    """The board a spec names (``mnk``, ``hypercube``, ``shape``, ``tictactoe``), or the board a
    game spec is played on.
    """
    made = build(parse_spec(spec), spec)
    return made if isinstance(made, Board) else made.board


def rules_summary(game: Game) -> str:
    """The rules of ``game`` in words, from the registry's summaries (veto names its inner rules)."""
    name = game.spec.partition("(")[0]
    entry = ENTRIES.get(name)
    if entry is None or entry.makes == "board":  # a bare board is played under standard rules
        entry = ENTRIES["standard"]
    text = f"{entry.name}: {entry.summary}"
    if isinstance(game, VetoGame):
        text += f"; the claims follow {rules_summary(game.inner)}"
    return text
