"""The game-spec grammar that every face of noughts accepts.

::

    spec  := name | name "(" [arg ("," arg)*] ")"
    arg   := [name "="] value
    value := spec | number | string

Names are identifiers; numbers are integers or decimals; strings are in single or double
quotes. Spaces are allowed between tokens. :func:`parse_spec` gives a :class:`Call` tree;
the registry (:mod:`noughts.core.registry`) turns it into a board or a game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeAlias

from noughts.core.errors import SpecError

__all__ = ["MAX_SPEC_LENGTH", "Call", "Value", "format_value", "parse_spec"]


@dataclass(frozen=True)
class Call:
    """``name(args..., key=value...)``; a bare name is a call with no arguments."""

    name: str
    args: tuple[Value, ...] = ()
    kwargs: tuple[tuple[str, Value], ...] = ()
    column: int = 0


Value: TypeAlias = "Call | int | float | str"

_TOKEN = re.compile(
    r"""\s*(?:
      (?P<name>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<number>-?[0-9]+(?:\.[0-9]+)?)
    | (?P<string>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
    | (?P<punct>[(),=])
    )""",
    re.VERBOSE,
)

_MAX_SPEC_LENGTH = 2000
MAX_SPEC_LENGTH = _MAX_SPEC_LENGTH
"""The longest spec read (a user's hypergraph is written out in its spec, so this bounds it too)."""
_MAX_DEPTH = 32  # specs nest a few levels (veto(misere(mnk(...)))); deeper is junk


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.tokens: list[tuple[str, str, int]] = []
        pos = 0
        while pos < len(text):
            if text[pos:].strip() == "":
                break
            m = _TOKEN.match(text, pos)
            if m is None or m.lastgroup is None:
                col = pos + (len(text[pos:]) - len(text[pos:].lstrip()))
                ch = text[col]
                what = "an unclosed string" if ch in "\"'" else f"unexpected {ch!r}"
                raise SpecError(f"cannot read the game spec: {what}", text, col)
            kind = m.lastgroup
            self.tokens.append((kind, m.group(kind), m.start(kind)))
            pos = m.end()
        self.i = 0
        self.depth = 0

    def peek(self) -> tuple[str, str, int] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def fail(self, message: str) -> SpecError:
        tok = self.peek()
        col = tok[2] if tok else len(self.text.rstrip())
        return SpecError(message, self.text, col)

    def expect(self, value: str) -> None:
        tok = self.peek()
        if tok is None or tok[1] != value:
            found = f"{tok[1]!r}" if tok else "the end"
            raise self.fail(f"cannot read the game spec: expected {value!r}, found {found}")
        self.i += 1

    def call(self) -> Call:
        tok = self.peek()
        if tok is None or tok[0] != "name":
            found = f"{tok[1]!r}" if tok else "the end"
            raise self.fail(f"cannot read the game spec: expected a game name, found {found}")
        self.i += 1
        name, column = tok[1], tok[2]
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise SpecError(f"the game spec nests more than {_MAX_DEPTH} levels deep", self.text, column)
        try:
            return self._call_body(name, column)
        finally:
            self.depth -= 1

    def _call_body(self, name: str, column: int) -> Call:
        args: list[Value] = []
        kwargs: list[tuple[str, Value]] = []
        nxt = self.peek()
        if nxt is not None and nxt[1] == "(":
            self.i += 1
            if (p := self.peek()) is not None and p[1] == ")":
                self.i += 1
                return Call(name, (), (), column)
            while True:
                a, b = self.peek(), self.tokens[self.i + 1] if self.i + 1 < len(self.tokens) else None
                if a is not None and a[0] == "name" and b is not None and b[1] == "=":
                    self.i += 2
                    if any(k == a[1] for k, _ in kwargs):
                        raise SpecError(f"argument {a[1]!r} is given twice", self.text, a[2])
                    kwargs.append((a[1], self.value()))
                else:
                    if kwargs:
                        raise self.fail("a positional argument cannot follow a key=value argument")
                    args.append(self.value())
                tok = self.peek()
                if tok is not None and tok[1] == ",":
                    self.i += 1
                    continue
                self.expect(")")
                break
        return Call(name, tuple(args), tuple(kwargs), column)

    def value(self) -> Value:
        tok = self.peek()
        if tok is None:
            raise self.fail("cannot read the game spec: it ends where an argument should be")
        kind, text, _ = tok
        if kind == "number":
            self.i += 1
            return float(text) if "." in text else int(text)
        if kind == "string":
            self.i += 1
            return re.sub(r"\\(.)", r"\1", text[1:-1])
        if kind == "name":
            return self.call()
        raise self.fail(f"cannot read the game spec: unexpected {text!r}")


def parse_spec(text: str) -> Call:
    """Parse a spec string into a :class:`Call` tree, or raise ``SpecError`` saying where."""
    if not isinstance(text, str):
        raise SpecError(f"a game spec is a string, not {type(text).__name__}")
    if len(text) > _MAX_SPEC_LENGTH:
        raise SpecError(f"the game spec is {len(text)} characters long; at most {_MAX_SPEC_LENGTH}")
    if not text.strip():
        raise SpecError("the game spec is empty; try e.g. 'tictactoe' or 'mnk(4,4,4)'")
    parser = _Parser(text)
    call = parser.call()
    if parser.peek() is not None:
        raise parser.fail(f"cannot read the game spec: unexpected {parser.peek()[1]!r} after the end")  # type: ignore[index]
    return call


def format_value(value: object) -> str:
    """A value as canonical specs write it: ``true``/``false``, numbers, double-quoted strings."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)
