"""The game record: one game's moves, with comments and variations, and the facts around it.

A :class:`Record` is a value: the game (a :class:`~noughts.core.Game`), the players, the result,
an optional starting position, free tags (event, site, date, time control, seed, ...) and the
moves as a tree. The tree is PGN's: a :class:`Line` is a sequence of :class:`Node` (one move
each, in the game's notation, with a comment after it, numeric annotations and the
*variations*: other lines that could have been played instead of this move, from the position
before it). Nothing here depends on how the record is written down: :mod:`noughts.record.text`
reads and writes the plain-text form, :meth:`Record.to_json` and :meth:`Record.from_json` the
JSON one.

A record is checked when it is made: every move of every line is read with
``game.parse_move``, played with ``position.play`` (so the rules, not this module, say what is
legal) and kept in the game's canonical notation (``game.format_move``); the result must agree
with the final position when the moves end the game. Errors are :class:`RecordError`, a
:class:`~noughts.core.NotationError` that names the move (its number, 1 for the first move of
the game) and, when the record was read from text, the line and column.

>>> import noughts
>>> r = Record("tictactoe", ["b2", "A1", "c3"], first="ann", second="bob")
>>> [node.move for node in r.moves.moves], r.result, r.final.text()
(['b2', 'a1', 'c3'], None, 'o../.x./..x')
>>> Record("tictactoe", ["b2", "b2"])
Traceback (most recent call last):
  ...
noughts.record.model.RecordError: move 2: b2 is illegal: the cell is taken by x
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from noughts.core import (
    Game,
    IllegalMoveError,
    Move,
    NotationError,
    NoughtsError,
    Outcome,
    Player,
    Position,
)
from noughts.core import game as make_game
from noughts.record.names import FORMAT, VERSION

__all__ = [
    "DERIVED_KEYS",
    "FORMAT",
    "MAX_DEPTH",
    "RESERVED_TAGS",
    "UNKNOWN_PLAYER",
    "VERSION",
    "Line",
    "Node",
    "Record",
    "RecordError",
    "check_tag_name",
    "check_tag_value",
    "check_version",
    "play_move",
    "walk",
]

UNKNOWN_PLAYER = "?"
"""A player whose name the record does not know (PGN's convention)."""

RESERVED_TAGS = ("Format", "Game", "First", "Second", "Result", "Start")
"""Tags that are fields of :class:`Record`, not free tags."""

DERIVED_KEYS = ("ply", "player", "label", "position")
"""Keys :meth:`Record.to_json` adds to each move with ``positions=True`` (checked on reading)."""

MAX_DEPTH = 64
"""Variations nest at most this deep (a guard against hostile input)."""

_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}\Z")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_COMMENT_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # newlines and tabs are fine


class RecordError(NotationError):
    """A record that cannot be read or does not hold together. ``line`` and ``column`` (both
    1-based) locate the problem in the text it was read from, when there is one.
    """

    def __init__(self, message: str, line: int | None = None, column: int | None = None):
        self.message = message
        self.line = line
        self.column = column
        where = f"line {line}, column {column}: " if line is not None and column is not None else ""
        super().__init__(where + message)


def _comment(text: object, what: str = "a comment") -> str | None:
    if text is None:
        return None
    if not isinstance(text, str):
        raise RecordError(f"{what} is text, not {type(text).__name__}")
    if _COMMENT_CONTROL.search(text):
        raise RecordError(f"{what} holds a control character: {text!r}")
    text = text.strip()
    return text or None


@dataclass(frozen=True)
class Node:
    """One move of a line: its notation, the comment after it, numeric annotation glyphs
    (PGN's ``$1`` good move, ``$2`` mistake, ...), and the variations: lines played instead of
    this move, each from the position before it.
    """

    move: str
    comment: str | None = None
    nags: tuple[int, ...] = ()
    variations: tuple[Line, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.move, str) or not self.move.strip():
            raise RecordError(f"a move is its notation, a non-empty string, not {self.move!r}")
        object.__setattr__(self, "comment", _comment(self.comment))
        nags = tuple(self.nags)
        for n in nags:
            if type(n) is not int or not 0 <= n <= 255:
                raise RecordError(f"an annotation glyph is a number from 0 to 255, not {n!r}")
        object.__setattr__(self, "nags", nags)
        variations = tuple(self.variations)
        for v in variations:
            if not isinstance(v, Line):
                raise RecordError(f"a variation is a Line, not {type(v).__name__}")
            if not v.moves:
                raise RecordError(f"a variation of {self.move} has no moves")
        object.__setattr__(self, "variations", variations)

    def to_json(self) -> dict[str, Any]:
        """``{"move", "comment", "nags", "variations"}`` (each variation a :meth:`Line.to_json`)."""
        return {
            "move": self.move,
            "comment": self.comment,
            "nags": list(self.nags),
            "variations": [v.to_json() for v in self.variations],
        }


@dataclass(frozen=True)
class Line:
    """A sequence of moves, with the comment before its first move."""

    moves: tuple[Node, ...] = ()
    comment: str | None = None

    def __post_init__(self) -> None:
        moves = tuple(Node(m) if isinstance(m, str) else m for m in self.moves)
        for m in moves:
            if not isinstance(m, Node):
                raise RecordError(f"a line's moves are Nodes or notation strings, not {type(m).__name__}")
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "comment", _comment(self.comment))

    def __len__(self) -> int:
        return len(self.moves)

    def to_json(self) -> dict[str, Any]:
        """``{"comment", "moves"}``."""
        return {"comment": self.comment, "moves": [n.to_json() for n in self.moves]}

    @staticmethod
    def from_json(doc: object, where: str = "the moves", depth: int = 0) -> Line:
        """A line from :meth:`to_json`'s form (derived keys ``ply``, ``player``, ``position``
        are allowed and checked by :meth:`Record.from_json`).
        """
        if depth > MAX_DEPTH:
            raise RecordError(f"variations nest more than {MAX_DEPTH} deep")
        if isinstance(doc, list):  # a bare list of moves
            doc = {"moves": doc}
        obj = _object(doc, where, {"comment", "moves"})
        moves = obj.get("moves", [])
        if not isinstance(moves, list):
            raise RecordError(f"{where}: 'moves' is a list, not {type(moves).__name__}")
        nodes = []
        for i, item in enumerate(moves, 1):
            here = f"{where}, move {i}"
            if isinstance(item, str):
                nodes.append(Node(item))
                continue
            n = _object(item, here, {"move", "comment", "nags", "variations", *DERIVED_KEYS})
            if "move" not in n:
                raise RecordError(f"{here}: no 'move'")
            nags = n.get("nags", [])
            variations = n.get("variations", [])
            if not isinstance(nags, list) or not isinstance(variations, list):
                raise RecordError(f"{here}: 'nags' and 'variations' are lists")
            nodes.append(
                Node(
                    n["move"],
                    n.get("comment"),
                    tuple(nags),
                    tuple(
                        Line.from_json(v, f"{here}, variation {j}", depth + 1)
                        for j, v in enumerate(variations, 1)
                    ),
                )
            )
        return Line(tuple(nodes), obj.get("comment"))


def _object(doc: object, where: str, keys: set[str]) -> dict[str, Any]:
    if not isinstance(doc, dict):
        raise RecordError(f"{where} is a JSON object, not {type(doc).__name__}")
    unknown = sorted(set(doc) - keys)
    if unknown:
        raise RecordError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(keys))})")
    return doc


def _read(read: Any, text: str, what: str) -> Any:
    """``read(text)``, its error (a spec's, a position's) turned into a one-line ``RecordError``."""
    try:
        return read(text)
    except RecordError:
        raise
    except NoughtsError as e:
        raise RecordError(f"{what}: {str(e).splitlines()[0]}") from None


def _player(name: object, which: str) -> str:
    if name is None:
        return UNKNOWN_PLAYER
    if not isinstance(name, str):
        raise RecordError(f"the {which} player is named by a string, not {type(name).__name__}")
    name = name.strip()
    if not name or _CONTROL.search(name):
        raise RecordError(f"the {which} player's name must be one line of text, not {name!r}")
    return name


def _outcome(result: object) -> Outcome | None:
    if result is None or isinstance(result, Outcome):
        return result
    if isinstance(result, str):
        if result == "*":
            return None
        try:
            return Outcome(result)
        except ValueError:
            pass
    raise RecordError(f"a result is 'first', 'second', 'draw' or '*' (not finished), not {result!r}")


def check_tag_name(name: object) -> str:
    """``name`` if it can name a tag (a letter, then letters, digits or ``_``), else ``RecordError``."""
    if not isinstance(name, str) or not _TAG_NAME.match(name):
        raise RecordError(f"a tag's name is a letter then letters, digits or _ (at most 64), not {name!r}")
    return name


def check_tag_value(name: str, value: object) -> str:
    """``value`` if it is one line of text, else ``RecordError`` naming the tag."""
    if not isinstance(value, str) or _CONTROL.search(value):
        raise RecordError(f"the value of tag {name} must be one line of text, not {value!r}")
    return value


def _tags(tags: object) -> dict[str, str]:
    if not isinstance(tags, Mapping):
        raise RecordError(f"tags are a mapping of names to strings, not {type(tags).__name__}")
    out: dict[str, str] = {}
    for name, value in tags.items():
        check_tag_name(name)
        if name in RESERVED_TAGS:
            raise RecordError(f"{name} is a field of the record, not a free tag")
        out[name] = check_tag_value(name, value)
    return out


@dataclass(frozen=True, eq=True)
class Record:
    """One game's record; see the module docstring.

    ``game``: a :class:`~noughts.core.Game` or its spec. ``moves``: a :class:`Line` or a list of
    moves in notation (or :class:`Node`). ``first``, ``second``: who played (``"?"`` when not
    known). ``result``: an :class:`~noughts.core.Outcome` (or ``first``/``second``/``draw``), or
    None while the game is unfinished; when the moves end the game, None is filled in from the
    final position and a different result is an error (a game may still end by adjudication,
    resignation or a move cap before its final position is over). ``start``: the position
    the game starts from (a position or its text) when it is not the game's start. ``tags``:
    free tags, name to one line of text (``Event``, ``Site``, ``Date``, ``Round``,
    ``TimeControl``, ``Seed``, ``Source``, ``Annotator``, ...).
    """

    game: Game
    moves: Line = field(default_factory=Line)
    first: str = UNKNOWN_PLAYER
    second: str = UNKNOWN_PLAYER
    result: Outcome | None = None
    start: Position | None = None
    tags: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        game = self.game
        if isinstance(game, str):
            game = _read(make_game, game, "game")
        if not isinstance(game, Game):
            raise RecordError(f"a record's game is a Game or a spec, not {type(game).__name__}")
        set_ = object.__setattr__
        set_(self, "game", game)
        start = self.start
        if isinstance(start, str):
            start = _read(game.parse, start, "start")
        if start is not None:
            if not isinstance(start, Position) or start.game != game:
                raise RecordError(f"the start is a position of {game} or its text, not {start!r}")
            if start == game.start():
                start = None
        set_(self, "start", start)
        moves = self.moves
        if not isinstance(moves, Line):
            if isinstance(moves, str) or not isinstance(moves, Iterable):
                raise RecordError(
                    f"a record's moves are a Line or a list of moves, not {type(moves).__name__}"
                )
            moves = Line(tuple(moves))
        set_(self, "first", _player(self.first, "first"))
        set_(self, "second", _player(self.second, "second"))
        set_(self, "tags", _tags(self.tags))
        result = _outcome(self.result)
        checked, final = _check_line(game, self.start_position, moves, 1, 0)
        set_(self, "moves", checked)
        outcome = final.outcome()
        if outcome is not None:
            if result is None:
                result = outcome
            elif result is not outcome:
                raise RecordError(
                    f"the result is {_result_word(game, result)} but the moves end the game: "
                    f"{game.outcome_text(outcome)}"
                )
        set_(self, "result", result)
        set_(self, "_final", final)

    def __hash__(self) -> int:
        return hash(
            (
                self.game,
                self.moves,
                self.first,
                self.second,
                self.result,
                self.start,
                tuple(self.tags.items()),
            )
        )

    # -- what the record holds ----------------------------------------------------------------

    @property
    def start_position(self) -> Position:
        """The position the game starts from."""
        return self.game.start() if self.start is None else self.start

    @property
    def final(self) -> Position:
        """The position after the main line."""
        final: Position = self.__dict__["_final"]
        return final

    @property
    def plies(self) -> int:
        """Moves in the main line."""
        return len(self.moves.moves)

    def main_line(self) -> list[Move]:
        """The main line's moves (the game's move objects)."""
        return [self.game.parse_move(n.move) for n in self.moves.moves]

    def positions(self) -> list[Position]:
        """The positions along the main line, the start first and the final position last."""
        out = [self.start_position]
        for move in self.main_line():
            out.append(out[-1].play(move))
        return out

    def players(self) -> dict[Player, str]:
        """Who played each side."""
        return {Player.FIRST: self.first, Player.SECOND: self.second}

    @property
    def result_text(self) -> str:
        """The result in the game's words (``x wins``, ``draw``), or ``unfinished``."""
        return "unfinished" if self.result is None else self.game.outcome_text(self.result)

    # -- other forms --------------------------------------------------------------------------

    def to_text(self) -> str:
        """The plain-text form (:mod:`noughts.record.text`; read it back with ``read_record``)."""
        from noughts.record.writer import write_record

        return write_record(self)

    def to_json(self, *, positions: bool = False) -> dict[str, Any]:
        """The JSON form (one game; see ``docs/records.md``). With ``positions`` every move also carries
        ``ply`` (its number, 1 for the game's first move), ``player`` (``first``/``second``),
        ``label`` (the player as the game calls them, e.g. ``x``) and ``position`` (the
        position's text after it), and the document the start position's text as
        ``start_position``: what a board that steps through the game needs, without the rules.
        """
        doc: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "game": str(self.game),
            "first": self.first,
            "second": self.second,
            "result": None if self.result is None else self.result.value,
            "start": None if self.start is None else self.start.text(),
            "tags": dict(self.tags),
            "comment": self.moves.comment,
            "moves": [n.to_json() for n in self.moves.moves],
        }
        if positions:
            doc["start_position"] = self.start_position.text()
            _annotate(self.game, self.start_position, doc["moves"], 1)
        return doc

    @staticmethod
    def from_json(doc: object) -> Record:
        """A record from :meth:`to_json`'s form (``format`` and ``version`` optional, checked
        when present; the derived keys of ``positions=True`` are checked against the moves).
        """
        keys = {
            "format",
            "version",
            "game",
            "first",
            "second",
            "result",
            "start",
            "tags",
            "comment",
            "moves",
            "start_position",
        }
        obj = _object(doc, "a record", keys)
        check_version(obj.get("format", FORMAT), obj.get("version", VERSION))
        if "game" not in obj:
            raise RecordError("a record names its game: 'game' is missing")
        spec = obj["game"]
        if not isinstance(spec, str):
            raise RecordError(f"'game' is a spec string, not {type(spec).__name__}")
        start = obj.get("start")
        if start is not None and not isinstance(start, str):
            raise RecordError(f"'start' is a position's text, not {type(start).__name__}")
        record = Record(
            spec,  # type: ignore[arg-type]
            Line.from_json({"comment": obj.get("comment"), "moves": obj.get("moves", [])}),
            first=obj.get("first"),  # type: ignore[arg-type]
            second=obj.get("second"),  # type: ignore[arg-type]
            result=obj.get("result"),
            start=start,  # type: ignore[arg-type]
            tags=obj.get("tags", {}),
        )
        if "start_position" in obj and obj["start_position"] != record.start_position.text():
            raise RecordError(
                f"'start_position' is {obj['start_position']!r}, but the game starts from "
                f"{record.start_position.text()!r}"
            )
        _check_derived(record.game, record.start_position, obj.get("moves", []), 1)
        return record


def check_version(name: object, version: object) -> None:
    """Refuse a record of another format or of a newer version than :data:`VERSION`."""
    if name != FORMAT:
        raise RecordError(f"not a noughts record: its format is {name!r}, not {FORMAT!r}")
    if type(version) is not int or version < 1:
        raise RecordError(f"unknown {FORMAT} version {version!r}")
    if version > VERSION:
        raise RecordError(
            f"this record is {FORMAT} {version}; this noughts reads version {VERSION} and older: upgrade noughts"
        )


def _result_word(game: Game, result: Outcome) -> str:
    return f"'{result.value}' ({game.outcome_text(result)})"


def play_move(position: Position, text: str, ply: int) -> tuple[str, Position]:
    """Read move number ``ply`` (``text``, in notation) and play it: its canonical notation and
    the position after it. ``RecordError`` names the move when it cannot be read or is illegal.
    """
    game = position.game
    shown = text if len(text) <= 40 else text[:37] + "..."
    if position.is_terminal():
        outcome = position.outcome()
        assert outcome is not None
        raise RecordError(
            f"move {ply} ({shown}) comes after the end of the game ({game.outcome_text(outcome)})"
        )
    try:
        move = game.parse_move(text)
        after = position.play(move)
    except (NotationError, IllegalMoveError) as e:  # both messages name the move and say why
        raise RecordError(f"move {ply}: {e}") from None
    except NoughtsError as e:  # a rules family that reports notation otherwise
        raise RecordError(f"move {ply}: cannot read {shown!r}: {e}") from None
    return game.format_move(move), after


def _check_line(game: Game, position: Position, line: Line, ply: int, depth: int) -> tuple[Line, Position]:
    """The line with every move checked and in canonical notation, and the position at its end."""
    if depth > MAX_DEPTH:
        raise RecordError(f"variations nest more than {MAX_DEPTH} deep")
    nodes = []
    for i, node in enumerate(line.moves):
        variations = tuple(_check_line(game, position, v, ply + i, depth + 1)[0] for v in node.variations)
        text, position = play_move(position, node.move, ply + i)
        if text != node.move or variations != node.variations:
            node = Node(text, node.comment, node.nags, variations)
        nodes.append(node)
    if all(a is b for a, b in zip(nodes, line.moves, strict=True)):
        return line, position
    return Line(tuple(nodes), line.comment), position


def _annotate(game: Game, position: Position, moves: list[dict[str, Any]], ply: int) -> None:
    for i, node in enumerate(moves):
        before = position
        for variation in node["variations"]:
            _annotate(game, before, variation["moves"], ply + i)
        position = position.play(game.parse_move(node["move"]))
        mover = before.to_move
        node["ply"] = ply + i
        node["player"] = mover.name.lower()
        node["label"] = game.player_label(mover)
        node["position"] = position.text()


def _check_derived(game: Game, position: Position, moves: Sequence[Any], ply: int) -> None:
    """The ``ply``, ``player`` and ``position`` of a ``positions=True`` document, where given,
    must be what the moves make them.
    """
    for i, node in enumerate(moves):
        if not isinstance(node, dict):
            position = position.play(game.parse_move(node))
            continue
        before = position
        for variation in node.get("variations", []):
            inner = variation["moves"] if isinstance(variation, dict) else variation
            _check_derived(game, before, inner, ply + i)
        position = position.play(game.parse_move(node["move"]))
        want = {
            "ply": ply + i,
            "player": before.to_move.name.lower(),
            "label": game.player_label(before.to_move),
            "position": position.text(),
        }
        for key, value in want.items():
            if key in node and node[key] != value:
                raise RecordError(f"move {ply + i} ({node['move']}): '{key}' is {node[key]!r}, not {value!r}")


def walk(line: Line, start: Position, ply: int = 1) -> Iterator[tuple[int, Node, Position, Position]]:
    """Every move of ``line`` and of its variations, depth first: ``(ply, node, before, after)``."""
    game = start.game
    position = start
    for i, node in enumerate(line.moves):
        for variation in node.variations:
            yield from walk(variation, position, ply + i)
        after = position.play(game.parse_move(node.move))
        yield ply + i, node, position, after
        position = after
