"""Conformance checks for games: :func:`check_game` runs them on any game, a user's own too.

A game (:class:`noughts.core.Game`) makes promises that every algorithm in noughts relies on;
:func:`check_game` plays seeded random games through the public API only and checks each
position on the way against them (the model is OpenSpiel's ``random_sim_test``, PettingZoo's
``api_test`` and Gymnasium's ``check_env``). The project's own conformance test runs it over
every game the registry builds.

* **moves and actions**: every integer action names one move and back; every move reads back
  from its notation; ``legal_moves`` lists no move twice and is exactly the set of moves
  ``play`` accepts (the others raise ``IllegalMoveError``, which is also a ``ValueError``, with
  a message); the legal-action mask and list agree with it; things that are no move at all
  (moves are cells, which are ints from 0, or small frozen dataclasses: so ``None``, ``-1``,
  a string, a float, a bool) are refused with ``IllegalMoveError``, impossible
  actions with ``NotationError``, and NumPy integers are actions like ints;
* **values**: ``play`` returns a new position and leaves the old one as it was; a position
  equals (and hashes like) the one its text form reads back to, with the same side to move,
  outcome, score and legal moves; ``render`` and ``repr`` give text;
* **the end**: a running game has a legal move and no outcome; a finished one has an outcome,
  no legal move (every move is refused) and an empty mask; a game that says it has no draws
  never ends drawn; scored games (and only they) have a score; no game lasts longer than
  ``properties.max_length``;
* **symmetry**: each of a position's symmetric images has the same canonical key, side to
  move, outcome, score and number of legal moves, and reads back from its text; positions
  with one canonical key agree on all of these;
* **the game**: ``str(game)`` is its spec, ``repr(game)`` ``noughts.game(spec)``, and for a
  game the registry knows, the spec builds the same game again; ``properties`` are sane
  (zero-sum, at least one move long), as are ``num_actions``, ``notation_help``,
  ``player_label``, ``outcome_text`` and ``symmetry_count``.

Games that need not end (positions can repeat; ``max_length`` is not a positive int) are
checked too: a random game stops after ``max_plies`` moves (default: one more than a bounded
game's ``max_length``, else :data:`LOOPY_MAX_PLIES`), and every check that a running position
must pass still applies there.

>>> import noughts
>>> from noughts.testing import check_game
>>> report = check_game(noughts.game("tictactoe"), games=3)
>>> report.games, report.finished
(3, 3)
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from noughts.core import ENTRIES, Game, NotaktoMove, Outcome, Player, Position, Ring, Veto
from noughts.core.errors import IllegalMoveError, NotationError, NoughtsError
from noughts.core.registry import game as game_from_spec

__all__ = ["LOOPY_MAX_PLIES", "ConformanceError", "ConformanceReport", "check_game"]

LOOPY_MAX_PLIES = 200
"""Where a random game of a game that need not end stops, unless ``max_plies`` says."""

_JUNK: tuple[object, ...] = (
    None,
    -1,
    10**9,
    "a1",
    1.0,
    True,
    (0, 0),
    object(),
    Veto(-2),
    NotaktoMove(-1, 0),
    Ring(-1, 0),
)
"""Things that are no move of any game (bools and floats are not cells, though 1 == True)."""


class ConformanceError(NoughtsError, AssertionError):
    """A game breaks one of its promises; the message names the check, the position and the
    move where it happened.
    """


@dataclass(frozen=True)
class ConformanceReport:
    """What :func:`check_game` checked: random ``games`` played (``finished`` of them to the
    end, the others stopped after ``max_plies``), ``positions`` checked on the way, and the
    distinct canonical ``keys`` among them.
    """

    game: str
    games: int
    finished: int
    positions: int
    keys: int
    max_plies: int


def check_game(
    game: Game,
    *,
    games: int = 8,
    seed: int = 0,
    max_plies: int | None = None,
    symmetry_sample: int = 8,
) -> ConformanceReport:
    """Check that ``game`` keeps the promises of the game protocol (see the module docstring);
    raise :class:`ConformanceError` at the first broken one.

    ``games`` random games are played from the start, seeded by ``seed`` (the same seed checks
    the same games), each to its end or for at most ``max_plies`` moves. ``symmetry_sample``
    bounds the symmetric images checked per position (all of them when there are no more).
    """
    if not isinstance(game, Game):
        raise ConformanceError(f"check_game takes a noughts Game, not {type(game).__name__}")
    bounded = _max_length(game)
    if max_plies is None:  # one ply past a bounded game's end, to catch a game that overruns it
        max_plies = bounded + 1 if bounded is not None else LOOPY_MAX_PLIES
    if max_plies < 1 or games < 1:
        raise ValueError("check_game needs games >= 1 and max_plies >= 1")
    checker = _Checker(game, symmetry_sample)
    checker.check_game_facts()
    moves = checker.check_actions()
    finished = positions = 0
    for i in range(games):
        rng = random.Random(f"{game}/{seed}/{i}")
        line = checker.random_game(rng, max_plies)
        ended = line[-1].is_terminal()
        finished += ended
        positions += len(line)
        checker.at = f"random game {i} (seed {seed})"
        if bounded is not None:
            checker.require(
                len(line) - 1 <= bounded, f"a game lasted {len(line) - 1} plies, beyond max_length {bounded}"
            )
        for ply, position in enumerate(line):
            checker.at = f"ply {ply} of random game {i} (seed {seed}): {_text(position)!r}"
            checker.require(
                position.is_terminal() == (ended and ply == len(line) - 1),
                "is_terminal() is true before the end",
            )
            checker.check_text(position)
            if position.is_terminal():
                checker.check_terminal(position, moves)
            else:
                checker.check_running(position, moves)
            checker.check_symmetry(position, rng)
    return ConformanceReport(str(game), games, finished, positions, len(checker.facts), max_plies)


# -- the checks ---------------------------------------------------------------------------------------


def _text(position: Position) -> str:
    try:
        return position.text()
    except Exception:  # the text form itself may be what is broken
        return object.__repr__(position)


def _max_length(game: Game) -> int | None:
    """The longest game the rules allow, or None where games need not end."""
    length = getattr(game.properties, "max_length", None)
    return length if isinstance(length, int) and not isinstance(length, bool) and length > 0 else None


class _Checker:
    """The checks, with where they are (``at``) for the messages."""

    def __init__(self, game: Game, symmetry_sample: int):
        self.game = game
        self.sample = symmetry_sample
        self.at = "the game"
        self.facts: dict[Hashable, tuple[Any, ...]] = {}

    def fail(self, message: str) -> ConformanceError:
        return ConformanceError(f"{self.game}: {message} (at {self.at})")

    def require(self, ok: object, message: str) -> None:
        if not ok:
            raise self.fail(message)

    def check_game_facts(self) -> None:
        g = self.game
        spec = str(g)
        self.require(isinstance(spec, str) and spec, "str(game) is not its spec")
        self.require(repr(g) == f"noughts.game({spec!r})", f"repr(game) is {repr(g)!r}")
        hash(g)
        self.require(g == g, "a game is not equal to itself")
        if spec.partition("(")[0] in ENTRIES:  # a game the registry builds
            again = game_from_spec(spec)
            self.require(again == g and hash(again) == hash(g), f"the spec {spec!r} builds another game")
            self.require(str(again) == spec, f"the spec {spec!r} builds {again}")
        props = g.properties
        self.require(
            props.zero_sum, "properties.zero_sum is false: noughts' algorithms assume zero-sum games"
        )
        self.require(
            isinstance(g.num_actions, int) and g.num_actions >= 1, "num_actions is not a positive int"
        )
        self.require(g.notation_help(), "notation_help() is empty")
        self.require(
            g.symmetry_count == len(set(g.symmetries)), "symmetry_count is not the number of symmetries"
        )
        for player in Player:
            self.require(g.player_label(player), f"player_label({player}) is empty")
        for outcome in Outcome:
            self.require(g.outcome_text(outcome), f"outcome_text({outcome}) is empty")
        start = g.start()
        self.require(isinstance(start, Position) and start.game == g, "start() is no position of the game")
        self.require(
            (start.score() is not None) == props.is_scored, "a score is given exactly under scoring rules"
        )

    def check_actions(self) -> list[Any]:
        """Every action names a move and back, every move reads back from its notation; bad
        actions are refused. Returns the moves, one per action.
        """
        g = self.game
        moves = []
        for a in range(g.num_actions):
            self.at = f"action {a}"
            m = g.move(a)
            self.require(g.action(m) == a, f"action(move({a})) is {g.action(m)}")
            self.require(
                g.parse_move(g.format_move(m)) == m,
                f"the move {m!r} does not read back from {g.format_move(m)!r}",
            )
            moves.append(m)
        self.at = "the actions"
        for bad in (-1, g.num_actions, 2.0, "0", None, True):
            try:
                g.move(bad)  # type: ignore[arg-type]
            except NotationError:
                continue
            except Exception as error:
                raise self.fail(f"move({bad!r}) raised {type(error).__name__}, not NotationError") from None
            raise self.fail(f"move({bad!r}) is accepted")
        try:
            import numpy as np

            self.require(g.move(np.int64(0)) == g.move(0), "a NumPy integer is not an action like an int")  # type: ignore[arg-type]
        except NotationError:
            raise self.fail("a NumPy integer is refused as an action") from None
        start = g.start()
        for junk in _JUNK:
            self._refused(start, junk)
        return moves

    def _refused(self, position: Position, move: object) -> None:
        try:
            position.play(move)  # type: ignore[arg-type]
        except IllegalMoveError as error:
            self.require(isinstance(error, ValueError), "IllegalMoveError is not a ValueError")
            self.require(str(error), f"playing {move!r} is refused without a message")
            return
        except Exception as error:
            raise self.fail(f"playing {move!r} raised {type(error).__name__}, not IllegalMoveError") from None
        raise self.fail(f"{move!r} is played, though it is no legal move")

    def random_game(self, rng: random.Random, max_plies: int) -> list[Position]:
        line = [self.game.start()]
        while not line[-1].is_terminal() and len(line) <= max_plies:
            legal = line[-1].legal_moves()
            if not legal:
                break  # check_running says what is wrong
            line.append(line[-1].play(rng.choice(legal)))
        return line

    @staticmethod
    def _snapshot(p: Position) -> tuple[Any, ...]:
        return (p.text(), hash(p), p.to_move, p.outcome(), p.score(), tuple(p.legal_moves()))

    def check_text(self, p: Position) -> None:
        g = self.game
        q = g.parse(p.text())
        self.require(
            q == p and hash(q) == hash(p), "the position differs from the one its text reads back to"
        )
        self.require(q.text() == p.text(), "the text form does not read back to itself")
        self.require(q.to_move == p.to_move, "the side to move changes through the text form")
        self.require(q.outcome() == p.outcome(), "the outcome changes through the text form")
        self.require(q.score() == p.score(), "the score changes through the text form")
        self.require(q.legal_moves() == p.legal_moves(), "the legal moves change through the text form")
        self.require(
            (p.score() is not None) == g.properties.is_scored, "a score is given exactly under scoring rules"
        )
        self.require(isinstance(p.render(), str) and p.render(), "render() gives no text")
        self.require(repr(p), "repr() gives no text")

    def check_running(self, p: Position, moves: Sequence[Any]) -> None:
        g = self.game
        legal = p.legal_moves()
        self.require(legal, "a running game has no legal move")
        self.require(p.outcome() is None, "a running game has an outcome")
        self.require(len(set(legal)) == len(legal), "legal_moves lists a move twice")
        before = self._snapshot(p)
        legal_set = set(legal)
        for m in moves:
            if m in legal_set:
                q = p.play(m)
                self.require(isinstance(q, Position) and q != p, f"play({m!r}) returns no new position")
            else:
                self._refused(p, m)
        self.require(self._snapshot(p) == before, "play changed the position it was called on")
        mask = p.legal_action_mask()
        self.require(
            mask.dtype == bool and mask.shape == (g.num_actions,), "the legal-action mask has the wrong shape"
        )
        self.require(
            sorted(int(a) for a in mask.nonzero()[0]) == sorted(g.action(m) for m in legal),
            "the legal-action mask differs from legal_moves",
        )
        self.require(
            p.legal_actions() == [g.action(m) for m in legal], "legal_actions differs from legal_moves"
        )
        for m in legal:
            self.require(g.move(g.action(m)) == m, f"the legal move {m!r} is not its action's move")
            self.require(g.parse_move(g.format_move(m)) == m, f"the legal move {m!r} does not read back")

    def check_terminal(self, p: Position, moves: Sequence[Any]) -> None:
        g = self.game
        self.require(p.legal_moves() == [], "a finished game has legal moves")
        self.require(not p.legal_action_mask().any(), "a finished game's legal-action mask is not empty")
        self.require(isinstance(p.outcome(), Outcome), "a finished game has no outcome")
        for m in moves:
            self._refused(p, m)
        if not g.properties.has_draws:
            self.require(p.outcome() is not Outcome.DRAW, "the game says it has no draws, but one ends drawn")

    def check_symmetry(self, p: Position, rng: random.Random) -> None:
        g = self.game
        key = p.canonical_key()
        hash(key)
        facts = (p.to_move, p.outcome(), p.score(), len(p.legal_moves()))
        self.require(
            self.facts.setdefault(key, facts) == facts, "two positions with one canonical key differ"
        )
        images = list(g.symmetric_images(p))
        self.require(p in images, "a position is not among its own symmetric images")
        for image in images if len(images) <= self.sample else rng.sample(images, self.sample):
            self.require(
                image.canonical_key() == key, f"the image {_text(image)!r} has another canonical key"
            )
            self.require(image.to_move == p.to_move, f"the image {_text(image)!r} has another side to move")
            q = g.parse(image.text())
            self.require(
                q == image and hash(q) == hash(image), f"the image {_text(image)!r} does not read back"
            )
            self.require(q.outcome() == p.outcome(), f"the image {_text(image)!r} is judged differently")
            self.require(q.score() == p.score(), f"the image {_text(image)!r} has another score")
            self.require(
                len(q.legal_moves()) == len(p.legal_moves()), f"the image {_text(image)!r} has other moves"
            )
