import pytest

import noughts
from noughts.core import LimitExceeded, NoughtsError
from noughts.exact.reference import reference_values
from noughts.exact.states import (
    OUTCOME_CODES,
    enumerate_claim,
    enumerate_reference,
    exact_values,
    optimal_action_sets,
    state_space,
)

CLAIM_3X3 = [
    "tictactoe",
    "misere(tictactoe)",
    "cumulative(tictactoe)",
    "maker_breaker(tictactoe)",
    "maker_breaker(tictactoe,breaker_first=true)",
]


def _as_map(space):
    pos = [space.position(i) for i in range(space.size)]
    return {
        pos[i]: (
            int(space.to_move[i]),
            int(space.outcome[i]),
            frozenset((a, pos[t]) for a, t in enumerate(space.next[i].tolist()) if t >= 0),
        )
        for i in range(space.size)
    }


@pytest.mark.parametrize("spec", CLAIM_3X3)
def test_claim_enumeration_matches_the_reference_walk(spec):
    game = noughts.game(spec)
    fast, ref = enumerate_claim(game), enumerate_reference(game)
    assert fast.size == ref.size
    assert _as_map(fast) == _as_map(ref)
    assert fast.position(fast.start) == game.start()


def test_counts_agree_with_the_exact_counter():
    # 5,478 positions of tic-tac-toe (noughts.count); cumulative rules never stop early, so every
    # board with x-count - o-count in {0, 1} is reachable: sum over k of C(9,k) C(9-k, k//2 ...)
    assert state_space(noughts.game("tictactoe")).size == noughts.count("tictactoe").positions
    boards = sum(
        1
        for code in range(3**9)
        if (lambda d: d.count(1) - d.count(2) in (0, 1))([(code // 3**i) % 3 for i in range(9)])
    )
    assert state_space(noughts.game("cumulative(tictactoe)")).size == boards == 6046


def test_index_and_position_round_trip():
    game = noughts.game("cumulative(tictactoe)")
    space = state_space(game)
    for i in range(0, space.size, 97):
        assert space.index(space.position(i)) == i
    with pytest.raises(NoughtsError):
        space.index(noughts.game("tictactoe").start())


def test_outcome_codes_and_to_move_agree_with_positions():
    space = state_space(noughts.game("misere(tictactoe)"))
    for i in range(0, space.size, 31):
        p = space.position(i)
        assert space.outcome[i] == OUTCOME_CODES[p.outcome()]
        assert space.to_move[i] == int(p.to_move)


def test_reference_walk_handles_other_games():
    game = noughts.game("notakto(mnk(2,2,2))")
    space = enumerate_reference(game)
    assert space.size > 1
    assert (space.outcome >= 0).any()
    # the same positions as the exact counter and the reference minimax find
    assert space.size == noughts.count(str(game)).positions == len(reference_values(game))
    for i in range(space.size):
        assert space.outcome[i] == OUTCOME_CODES[space.position(i).outcome()]


def test_too_many_states_is_a_clear_error():
    with pytest.raises(LimitExceeded, match="more than 1,000 reachable positions"):
        enumerate_claim(noughts.game("tictactoe"), max_states=1000)
    with pytest.raises(LimitExceeded):
        enumerate_reference(noughts.game("tictactoe"), max_states=1000)


@pytest.mark.parametrize("spec", ["tictactoe", "cumulative(tictactoe)", "maker_breaker(tictactoe)"])
def test_exact_values_match_the_reference_minimax(spec):
    game = noughts.game(spec)
    space = state_space(game)
    ref = reference_values(game)
    values = exact_values(space)
    for i in range(space.size):
        v = ref[space.position(i)]
        if game.properties.is_scored:
            assert values[i] == v.score
        else:
            assert values[i] == {"first": 1, "draw": 0, "second": -1}[v.outcome.value]


def test_optimal_sets_keep_the_value():
    game = noughts.game("cumulative(tictactoe)")
    space = state_space(game)
    values = exact_values(space)
    sets = optimal_action_sets(space)
    assert values[space.start] == 0  # 000 Theorem 2: a draw, and the best score difference is 0
    for i in range(0, space.size, 13):
        if space.outcome[i] >= 0:
            assert sets[i] == 0
            continue
        keep = [a for a in range(9) if space.next[i, a] >= 0 and values[space.next[i, a]] == values[i]]
        assert keep and sets[i] == sum(1 << a for a in keep)


def test_claim_subclasses_are_not_taken_for_plain_claim_games():
    # Otrio subclasses StandardGame but its positions are not two cell masks: the bit-board path
    # must refuse it (state_space then walks it through the position API)
    with pytest.raises(NoughtsError, match="not a claim game"):
        enumerate_claim(noughts.game("otrio"))
