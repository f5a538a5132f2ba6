r"""The plain-text form of game records: tags, then the moves with comments and variations.

PGN's shape, for every game of noughts::

    [Format "noughts-record 1"]
    [Game "mnk(3,3,3)"]
    [Date "2025-03-14"]
    [First "ann"]
    [Second "perfect"]
    [Result "draw"]

    {A quiet game.} 1. b2 2. a1 3. c3 {nothing to fear yet} (3. b1 4. b3 5. c3 $2) 4. c1
    5. a3 6. a2 7. b1 8. b3 9. c2 1/2-1/2

* **Tags**: one ``[Name "value"]`` each; the value is a string with ``\"`` and ``\\``
  escaped and no line break. ``Format`` comes first in a file and names the format and its
  version (``noughts-record 1``; a newer version is refused, so is another format); ``Game`` is
  the game's spec and is required in every game; ``First`` and ``Second`` name the players
  (``?`` when not known), ``Result`` is ``first``, ``second``, ``draw`` or ``*`` (not finished),
  ``Start`` the starting position's text where it is not the game's start. Any other tag is kept
  as it is (``Event``, ``Site``, ``Date``, ``Round``, ``TimeControl``, ``Seed``, ...).
* **Moves** in the game's notation (``game.format_move``), separated by white space. Every move
  may be preceded by its number, ``N.`` (``N...`` is read too): moves are numbered one by one,
  1 for the game's first, whoever makes them (under veto rules one side makes two in a row),
  and a variation numbers its moves from the move it replaces. A number that is not the next
  move's is an error.
* ``{comment}`` after a move (before the first move: about the line), with ``\}`` and ``\\``
  escaped; ``$N`` a numeric annotation (PGN's NAGs: ``$1`` good, ``$2`` mistake, ``$6``
  dubious, ...); ``( ... )`` a variation: moves played instead of the move before it, nested
  to any depth (at most :data:`~noughts.record.model.MAX_DEPTH`).
* The moves end with the result, as in PGN: ``1-0`` (the first player won), ``0-1`` (the
  second), ``1/2-1/2`` (a draw) or ``*`` (not finished); it must agree with the ``Result`` tag,
  and where there is no tag it gives the result. The last game of a text may leave it out.
* A file holds one game or many: each game starts at its first tag.

Reading is strict: anything else is a :class:`~noughts.record.model.RecordError` naming the line
and column, and every move is checked by the rules as it is read (the error names the move's
number). Writing gives the canonical form: tags in a fixed order, every move numbered, lines
broken before 80 columns (never inside a comment).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from noughts.core import Game, NoughtsError, Outcome, Position
from noughts.core import game as make_game
from noughts.record.model import (
    MAX_DEPTH,
    Line,
    Node,
    Record,
    RecordError,
    check_tag_name,
    check_tag_value,
    check_version,
    play_move,
)
from noughts.record.names import FORMAT, TERMINATORS, VERSION
from noughts.record.writer import WIDTH, write_record, write_records

__all__ = ["TERMINATORS", "WIDTH", "read_record", "read_records", "write_record", "write_records"]

_NUMBER = re.compile(r"(\d{1,9})\.(\.\.)?\Z")
_GLUED_NUMBER = re.compile(r"\d{1,9}\.+\S")
_NAG = re.compile(r"\$(\d{1,3})\Z")
_SPECIAL = set('[]{}()"')


# -- reading --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Token:
    kind: str  # "[", "]", "(", ")", "string", "comment", "nag", "number", "word", "end"
    text: str
    line: int
    column: int
    value: Any = None

    def error(self, message: str) -> RecordError:
        return RecordError(message, self.line, self.column)


class _Scanner:
    """The tokens of a record's text, each with its line and column (1-based)."""

    def __init__(self, text: str):
        self.text = text[1:] if text.startswith("\ufeff") else text
        self.i = 0
        self.line = 1
        self.column = 1

    def _advance(self, n: int = 1) -> None:
        for ch in self.text[self.i : self.i + n]:
            if ch == "\n":
                self.line += 1
                self.column = 1
            else:
                self.column += 1
        self.i += n

    def _delimited(self, close: str, what: str, line: int, column: int) -> str:
        r"""The text up to ``close`` (escapes ``\close`` and ``\\``), the opener consumed."""
        out = []
        text = self.text
        while True:
            if self.i >= len(text):
                raise RecordError(f"{what} opened here is never closed", line, column)
            ch = text[self.i]
            if ch == "\\" and self.i + 1 < len(text) and text[self.i + 1] in (close, "\\"):
                out.append(text[self.i + 1])
                self._advance(2)
                continue
            if ch == close:
                self._advance()
                return "".join(out)
            if ch == "\n" and close == '"':
                raise RecordError(f"{what} opened here runs to the end of its line", line, column)
            out.append(ch)
            self._advance()

    def tokens(self) -> Iterator[_Token]:
        text = self.text
        while True:
            while self.i < len(text) and text[self.i].isspace():
                self._advance()
            line, column = self.line, self.column
            if self.i >= len(text):
                yield _Token("end", "", line, column)
                return
            ch = text[self.i]
            if ch in "[]()":
                self._advance()
                yield _Token(ch, ch, line, column)
            elif ch == '"':
                self._advance()
                yield _Token("string", "", line, column, self._delimited('"', "a string", line, column))
            elif ch == "{":
                self._advance()
                yield _Token("comment", "", line, column, self._delimited("}", "a comment", line, column))
            elif ch == "}":
                raise RecordError("a } closes no comment", line, column)
            else:
                start = self.i
                while self.i < len(text) and not text[self.i].isspace() and text[self.i] not in _SPECIAL:
                    self._advance()
                word = text[start : self.i]
                if word.startswith("$"):
                    m = _NAG.match(word)
                    if m is None or int(m.group(1)) > 255:
                        raise RecordError(
                            f"{word!r} is no annotation: write $ and a number up to 255", line, column
                        )
                    yield _Token("nag", word, line, column, int(m.group(1)))
                elif word in TERMINATORS:
                    yield _Token("result", word, line, column, TERMINATORS[word])
                elif (m := _NUMBER.match(word)) is not None:
                    yield _Token("number", word, line, column, int(m.group(1)))
                else:
                    yield _Token("word", word, line, column)


class _Parser:
    def __init__(self, text: str):
        self.tokens = _Scanner(text).tokens()
        self.token = next(self.tokens)
        self.games = 0

    def next(self) -> _Token:
        token = self.token
        if token.kind != "end":
            self.token = next(self.tokens)
        return token

    def records(self) -> Iterator[Record]:
        if self.token.kind == "end":
            raise self.token.error('the record holds no game: it starts with tags, e.g. [Game "tictactoe"]')
        while self.token.kind != "end":
            yield self.record()

    # -- one game ---------------------------------------------------------------------------------

    def record(self) -> Record:
        first = self.token
        if first.kind != "[":
            raise first.error(
                'a game starts with its tags, e.g. [Game "tictactoe"]'
                + (
                    ' (a record read as text starts with [Format "noughts-record 1"])'
                    if not self.games
                    else ""
                )
            )
        tags: dict[str, tuple[str, _Token]] = {}
        while self.token.kind == "[":
            self.next()
            name = self.next()
            if name.kind != "word":
                raise name.error('a tag is [Name "value"]: its name comes first')
            value = self.next()
            if value.kind != "string":
                raise value.error(f'tag {name.text}: its value is a quoted string, e.g. [{name.text} "..."]')
            close = self.next()
            if close.kind != "]":
                raise close.error(f"tag {name.text}: a ] closes it after its value")
            if name.text in tags:
                raise name.error(
                    f"tag {name.text} is given twice in one game (a game's moves end with its result,"
                    " e.g. *, before the next game's tags)"
                )
            try:
                check_tag_name(name.text)
                check_tag_value(name.text, value.value)
            except RecordError as e:
                raise (name if "name" in e.message else value).error(e.message) from None
            tags[name.text] = (value.value, value)
        fmt = tags.pop("Format", None)
        if fmt is None:
            if not self.games:
                raise first.error(f'a record starts with its format: [Format "{FORMAT} {VERSION}"]')
        else:
            fmt_name, _, version = fmt[0].partition(" ")
            try:
                check_version(fmt_name, int(version) if version.isdigit() else version)
            except RecordError as e:
                raise fmt[1].error(e.message) from None
        self.games += 1
        game_tag = tags.pop("Game", None)
        if game_tag is None:
            raise first.error('a game names its game in a tag: [Game "tictactoe"]')
        game = _located(game_tag[1], make_game, game_tag[0])
        start_tag = tags.pop("Start", None)
        start = game.start() if start_tag is None else _located(start_tag[1], game.parse, start_tag[0])
        result_tag = tags.pop("Result", None)
        result: Outcome | None = None
        if result_tag is not None and result_tag[0] != "*":
            try:
                result = Outcome(result_tag[0])
            except ValueError:
                raise result_tag[1].error(
                    f"a result is first, second, draw or * (not finished), not {result_tag[0]!r}"
                ) from None
        players = {k: tags.pop(k)[0] if k in tags else None for k in ("First", "Second")}
        moves, final = self.line(game, start, 1, 0)
        said: _Token | None = result_tag[1] if result_tag is not None else None
        if self.token.kind == "result":
            marker = self.next()
            if said is not None and marker.value is not result:
                raise marker.error(
                    f"the moves end with {marker.text} but the Result tag says {result_tag[0]!r}"  # type: ignore[index]
                )
            result, said = marker.value, marker
            if self.token.kind not in ("[", "end"):
                raise self.token.error("a game ends at its result: the next game starts with its tags")
        outcome = final.outcome()
        if outcome is not None and said is not None and result is not outcome:
            word = "*" if result is None else result.value
            raise said.error(
                f"the result is {word!r} but the moves end the game: {game.outcome_text(outcome)}"
            )
        try:
            return Record(
                game,
                moves,
                first=players["First"],  # type: ignore[arg-type]
                second=players["Second"],  # type: ignore[arg-type]
                result=result,
                start=start,
                tags={name: value for name, (value, _) in tags.items()},
            )
        except RecordError as e:  # a tag's name or value: say where the game starts
            raise first.error(e.message) from None

    def line(self, game: Game, position: Position, ply: int, depth: int) -> tuple[Line, Position]:
        """Read moves from ``position`` up to the end of the line (a ``)``, the next game's tags
        or the end of the text); the line and the position at its end.
        """
        comment: list[str] = []
        nodes: list[dict[str, Any]] = []
        before: list[Position] = []
        number: _Token | None = None
        while True:
            token = self.token
            kind = token.kind
            if kind in ("end", "[", ")", "result"):
                if number is not None:
                    raise number.error(f"move number {number.text} has no move after it")
                if kind == ")" and depth == 0:
                    raise token.error("a ) closes no variation")
                if kind != ")" and depth > 0:
                    raise token.error("a variation is not closed: a ) is missing before this")
                break
            self.next()
            if kind == "comment":
                (nodes[-1]["comment"] if nodes else comment).append(token.value)
            elif kind == "number":
                if number is not None:
                    raise token.error(f"two move numbers in a row ({number.text} {token.text})")
                if token.value != ply + len(nodes):
                    raise token.error(f"the move here is number {ply + len(nodes)}, not {token.value}")
                number = token
            elif kind == "word":
                if _GLUED_NUMBER.match(token.text) and not _readable(game, token.text):
                    raise token.error(f"write the move number apart from the move: {token.text!r}")
                try:
                    text, after = play_move(position, token.text, ply + len(nodes))
                except RecordError as e:
                    raise token.error(e.message) from None
                before.append(position)
                nodes.append({"move": text, "comment": [], "nags": [], "variations": []})
                position = after
                number = None
            elif kind == "nag":
                if not nodes or number is not None:
                    raise token.error(f"an annotation ({token.text}) follows the move it is about")
                nodes[-1]["nags"].append(token.value)
            elif kind == "(":
                if not nodes or number is not None:
                    raise token.error("a variation ( ... ) follows the move it replaces")
                if depth + 1 > MAX_DEPTH:
                    raise token.error(f"variations nest more than {MAX_DEPTH} deep")
                variation, _ = self.line(game, before[-1], ply + len(nodes) - 1, depth + 1)
                if not variation.moves:
                    raise token.error("a variation holds at least one move")
                self.next()  # the )
                nodes[-1]["variations"].append(variation)
            else:  # a string or a ]
                raise token.error(f"unexpected {token.text or 'string'} among the moves")
        line = Line(
            tuple(
                Node(n["move"], " ".join(n["comment"]) or None, tuple(n["nags"]), tuple(n["variations"]))
                for n in nodes
            ),
            " ".join(comment) or None,
        )
        return line, position


def _located(token: _Token, read: Any, text: str) -> Any:
    try:
        return read(text)
    except NoughtsError as e:
        message = str(e).split("\n", 1)[0]  # a spec error's picture of the spec points into the tag
        raise token.error(message) from None


def _readable(game: Game, text: str) -> bool:
    try:
        game.parse_move(text)
    except NoughtsError:
        return False
    return True


def read_records(text: str) -> list[Record]:
    """Every game of a record's text, in order; ``RecordError`` (with line and column) if any
    part of it cannot be read or a move is illegal.
    """
    if not isinstance(text, str):
        raise RecordError(f"a record is text, not {type(text).__name__}")
    return list(_Parser(text).records())


def read_record(text: str) -> Record:
    """The one game of a record's text (``RecordError`` if it holds several)."""
    records = read_records(text)
    if len(records) != 1:
        raise RecordError(f"the record holds {len(records)} games, not one")
    return records[0]
