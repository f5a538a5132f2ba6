"""Writing records as text: tags in a fixed order, every move numbered, the result marker at the
end, lines broken before :data:`WIDTH` columns (never inside a comment). The form is described
in :mod:`noughts.record.text`, which reads it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from noughts.record.names import FORMAT, MARKERS, VERSION

if TYPE_CHECKING:
    from noughts.record.model import Line, Record

__all__ = ["WIDTH", "write_record", "write_records"]

WIDTH = 79
"""Lines of moves are broken before they pass this many characters (a long token stands alone)."""


# -- writing --------------------------------------------------------------------------------------


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _braced(comment: str) -> str:
    return "{" + comment.replace("\\", "\\\\").replace("}", "\\}") + "}"


def _tag_lines(record: Record) -> list[str]:
    tags: list[tuple[str, str]] = [("Format", f"{FORMAT} {VERSION}"), ("Game", str(record.game))]
    free = dict(record.tags)
    for name in ("Event", "Site", "Date", "Time", "Round"):
        if name in free:
            tags.append((name, free.pop(name)))
    tags += [("First", record.first), ("Second", record.second)]
    tags.append(("Result", "*" if record.result is None else record.result.value))
    if record.start is not None:
        tags.append(("Start", record.start.text()))
    tags += list(free.items())
    return [f"[{name} {_quote(value)}]" for name, value in tags]


def _tokens(line: Line, ply: int) -> Iterator[str]:
    if line.comment is not None:
        yield _braced(line.comment)
    for i, node in enumerate(line.moves):
        yield f"{ply + i}. {node.move}"  # a number stays on the line of its move
        for nag in node.nags:
            yield f"${nag}"
        if node.comment is not None:
            yield _braced(node.comment)
        for variation in node.variations:
            inner = list(_tokens(variation, ply + i))
            inner[0] = "(" + inner[0]
            inner[-1] += ")"
            yield from inner


def _wrap(tokens: Iterable[str], width: int = WIDTH) -> str:
    lines: list[str] = []
    current = ""
    for token in tokens:
        if current and len(current) + 1 + len(token.split("\n", 1)[0]) > width:
            lines.append(current)
            current = token
        else:
            current = f"{current} {token}" if current else token
        if "\n" in current:  # a comment with line breaks: its last line goes on
            head, _, current = current.rpartition("\n")
            lines.append(head)
    if current:
        lines.append(current)
    return "\n".join(lines)


def write_record(record: Record) -> str:
    """The text form of one game (tags, a blank line, the moves and the result), ending with a
    line break.
    """
    moves = _wrap([*_tokens(record.moves, 1), MARKERS[record.result]])
    return "\n".join(_tag_lines(record)) + "\n\n" + moves + "\n"


def write_records(records: Iterable[Record]) -> str:
    """The text form of several games, a blank line between two."""
    return "\n".join(write_record(r) for r in records)
