"""Searches as deep as games are long, without touching the recursion limit.

The engines (alpha-beta, df-pn, the reference table build) and the pairing search run on
explicit stacks: here they solve a game thousands of plies long under a recursion limit barely
above the caller's depth, and leave the limit as they found it. The plain reference stays a
recursion and is bounded instead (``reference.MAX_PLIES``): the deepest game it is used on
fits Python's default limit, and a deeper one is refused with a clear ``LimitExceeded``.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from exact_cases import DEEP_SAMPLES, SLOW_SMALL_GAMES, SMALL_GAMES, game

from noughts.core import GameProperties, IllegalMoveError, LimitExceeded, Outcome, Player, Position, mnk
from noughts.core.game import Game
from noughts.exact import reference
from noughts.exact.search import Searcher
from noughts.exact.table import build_table_reference
from noughts.pairing.matching import find_pairing
from noughts.pairing.verify import search_pairing
from noughts.proving.pns import Prover
from noughts.solving import solve
from noughts.testing import check_game

DEFAULT_RECURSION_LIMIT = 1000
"""CPython's default (sys.getrecursionlimit() in a fresh interpreter)."""


class Heap(Game):
    """Take one or two tokens (or, with ``most=1``, one) from a heap of ``tokens``; whoever
    takes the last one wins. With two, the player to move loses exactly when the heap is a
    multiple of 3, and the loser makes it last longest by taking one token at a time, so a lost
    heap of 3k lasts 2k plies; with one, the first player wins an odd heap.
    """

    def __init__(self, tokens: int, most: int = 2):
        self.tokens = tokens
        self.most = most
        self.board = mnk(1, 1, 1)  # a nominal board: the heap has no cells
        self.spec = f"heap({tokens},{most})"
        self.num_actions = most  # action a takes a + 1 tokens
        self.properties = GameProperties(zero_sum=True, has_draws=False, is_scored=False, max_length=tokens)
        self.key_columns = ("tokens", "to_move")

    def _at(self, left: int, to_move: Player) -> Position:
        return Position(self, (left,), to_move, Outcome.win_for(to_move.other) if left == 0 else None)

    def start(self) -> Position:
        return self._at(self.tokens, Player.FIRST)

    def legal_moves(self, position: Position) -> list[Any]:
        return [m for m in range(1, self.most + 1) if m <= position.state[0]]

    def play(self, position: Position, move: Any) -> Position:
        if type(move) is not int or move not in self.legal_moves(position):
            raise IllegalMoveError(f"{move!r} tokens cannot be taken here")
        return self._at(position.state[0] - move, position.to_move.other)

    def canonical_key(self, position: Position) -> Any:
        return (position.state[0], int(position.to_move))

    def key_words(self, key: Any) -> tuple[int, ...]:
        return key  # type: ignore[no-any-return]

    @property
    def key_word_bits(self) -> int:
        return self.tokens.bit_length()

    def symmetric_images(self, position: Position) -> Iterator[Position]:
        yield position

    def format_position(self, position: Position) -> str:
        return f"{position.state[0]} {'x' if position.to_move is Player.FIRST else 'o'}"

    def parse(self, text: str) -> Position:
        left, _, mover = text.partition(" ")
        return self._at(int(left), Player.FIRST if mover == "x" else Player.SECOND)

    def format_move(self, move: Any) -> str:
        return str(move)

    def parse_move(self, text: str) -> Any:
        return int(text)

    def action(self, move: Any) -> int:
        return int(move) - 1

    def move(self, action: Any) -> Any:
        return self._check_action(action) + 1

    def render(self, position: Position) -> str:
        return self.format_position(position)

    def notation_help(self) -> str:
        return f"1 to {self.most} (tokens to take)"


@contextmanager
def stack_of(frames: int) -> Iterator[None]:
    """A recursion limit ``frames`` above the caller's depth (restored afterwards)."""
    saved = sys.getrecursionlimit()
    sys.setrecursionlimit(len(traceback.extract_stack()) + frames)
    try:
        yield
    finally:
        sys.setrecursionlimit(saved)


DEEP = 3000  # a multiple of 3: the second player wins, in 2000 plies


@pytest.mark.parametrize("most", [1, 2])
def test_the_heap_keeps_the_game_protocol(most: int) -> None:
    assert check_game(Heap(40, most), games=10).finished == 10


def test_engines_solve_a_game_thousands_of_plies_long_on_a_shallow_stack() -> None:
    heap = Heap(DEEP)
    chain = Heap(DEEP + 1, most=1)  # one move a turn: df-pn's numbers stay small however deep
    limit = sys.getrecursionlimit()
    with stack_of(60):
        value = Searcher(heap).value(heap.start())
        table = build_table_reference(heap)
        result = solve(heap, max_seconds=None)
        proof = Prover(chain, Player.FIRST, fast=False).prove(chain.start())
        disproof = Prover(chain, Player.SECOND, fast=False).prove(chain.start())
    assert sys.getrecursionlimit() == limit  # nothing changed it behind the test's back
    assert (value.outcome, value.plies) == (Outcome.SECOND, 2 * DEEP // 3)
    assert table.value(heap.start()) == value
    assert result.value == value and len(result.pv) == value.plies
    assert proof.proved and not disproof.proved


def test_proof_numbers_that_grow_huge_are_not_taken_for_a_disproof() -> None:
    """A heap of 240 is a second-player win. Its proof numbers pass 2^60 (the DAG counts each
    transposition again), which df-pn's sums once capped at INFINITY, the mark of a disproved
    node: the search then reported "cannot force a win". Sums now stop just below it."""
    heap = Heap(240)
    assert Prover(heap, Player.SECOND, fast=False).prove(heap.start()).proved


def test_the_pairing_search_goes_as_deep_as_the_board_on_a_shallow_stack() -> None:
    g = game("maker_breaker(mnk(8,8,8))")
    found = find_pairing(g.start()).pairing
    assert found is not None
    with stack_of(40), pytest.raises(LimitExceeded, match="3,000 positions"):
        search_pairing(found, max_positions=3000)  # the first line alone is 64 plies deep


def test_the_reference_holds_its_deepest_games_on_the_default_stack() -> None:
    """Every game the tests hold to the reference is within its bound, and a line of the full
    bound fits the default limit from here (a test's depth), with room to spare."""
    deepest = max(game(spec).properties.max_length for spec in [*SMALL_GAMES, *SLOW_SMALL_GAMES])
    deepest = max(deepest, *(game(spec).properties.max_length for spec, _, _ in DEEP_SAMPLES))
    assert deepest <= reference.MAX_PLIES
    assert sys.getrecursionlimit() == DEFAULT_RECURSION_LIMIT
    here = len(traceback.extract_stack())
    assert here + reference.MAX_PLIES + 100 < DEFAULT_RECURSION_LIMIT
    heap = Heap(reference.MAX_PLIES)  # the first line takes one token at a time: MAX_PLIES deep
    values = reference.reference_values(heap)
    assert values[heap.start()].outcome is (Outcome.SECOND if heap.tokens % 3 == 0 else Outcome.FIRST)
    assert values[heap.start()] == Searcher(heap).value(heap.start())


def test_the_reference_refuses_deeper_games_clearly() -> None:
    heap = Heap(reference.MAX_PLIES + 5)
    with pytest.raises(LimitExceeded, match=f"at most {reference.MAX_PLIES} plies"):
        reference.reference_values(heap)
    assert sys.getrecursionlimit() == DEFAULT_RECURSION_LIMIT
