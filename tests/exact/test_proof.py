"""The proof engine (noughts.proving.proof, its df-pn kernel) held to the reference.

Every answer, for both players and both goals (a win; at least a draw), must match the memoised
minimax of noughts.exact.reference on every reachable position of the small claim games, with
the engine's options on and off (threats at the nodes of order 0, 1 and 2, the null-move check,
symmetric keys at every depth or only near the root, the eager threat searches, the threat
searches' table of refuted positions); on positions sampled deep in the larger
games it must match the alpha-beta kernel, and from their starts the plain df-pn of
noughts.proving.pns.
"""

from __future__ import annotations

import pytest
from exact_cases import EXTRA_CORNER, EXTRA_CORNER_SIDE, EXTRA_SIDE, deep_positions, game, reference

import noughts
from noughts.core import LimitExceeded, Outcome, Player, Position
from noughts.core.budget import Budget
from noughts.core.values import Value
from noughts.exact.fast import FastSolver
from noughts.proving.pns import prove_win
from noughts.proving.proof import DRAW, WIN, ProofSearch, ValueSearches, prove_value, supports

CLAIM_GAMES = [
    "tictactoe",
    "misere(tictactoe)",
    "maker_breaker(tictactoe)",
    "maker_breaker(tictactoe,breaker_first=true)",
    EXTRA_SIDE,
    EXTRA_CORNER_SIDE,
    EXTRA_CORNER,
]

OPTIONS = {
    "default": {},
    "no-threats": {"threats": 0},
    "threes": {"threats": 2},
    "no-null-move": {"null_move": False},
    "shallow-symmetry": {"sym_stones": 2},
    "eager": {"eager": 3},
    "eager-threats-first": {"eager": 7},
    "eager-threes": {"eager": 7, "threats": 2},
    "no-threat-table": {"tss_memo": False},
}


def _expected(value: Value, player: Player, goal: int) -> bool:
    if value.score is not None:
        diff = value.score if player is Player.FIRST else -value.score
        return diff >= goal
    if goal >= WIN:
        return value.outcome is Outcome.win_for(player)
    return value.outcome is not Outcome.win_for(player.other)


def _check(values: dict[Position, Value], spec: str, goals: list[int], **options: object) -> int:
    g = game(spec)
    checked = 0
    for player in (Player.FIRST, Player.SECOND):
        for goal in goals:
            search = ProofSearch(g, player, goal, **options)  # type: ignore[arg-type]
            for position, value in values.items():
                proof = search.prove(position)
                assert proof.proved == _expected(value, player, goal), (
                    spec,
                    position.text(),
                    player,
                    goal,
                    value,
                )
                checked += 1
                if proof.move is not None and not position.is_terminal():
                    # the move the table holds keeps the answer
                    after = values[position.play(proof.move)]
                    assert _expected(after, player, goal) == proof.proved, (position.text(), proof.move)
    return checked


@pytest.mark.parametrize("spec", CLAIM_GAMES)
def test_every_reachable_position_matches_the_reference(spec: str) -> None:
    values = reference(spec)
    assert _check(values, spec, [WIN, DRAW]) == 4 * len(values)


@pytest.mark.parametrize(
    ("spec", "option"),
    [("tictactoe", k) for k in OPTIONS if k != "default"]
    + [("maker_breaker(tictactoe)", k) for k in ("eager", "no-threat-table")],
)
def test_the_options_keep_the_answers(spec: str, option: str) -> None:
    _check(reference(spec), spec, [WIN, DRAW], **OPTIONS[option])


def test_cumulative_scores() -> None:
    """Under cumulative rules the goal is a final score difference."""
    spec = "cumulative(tictactoe)"
    _check(reference(spec), spec, [-2, -1, 0, 1, 2])


@pytest.mark.parametrize(
    ("spec", "plies", "count"),
    [
        ("mnk(4,4,4)", 7, 4),
        ("misere(mnk(4,4,4))", 8, 3),
        ("maker_breaker(mnk(4,4,4))", 7, 3),
        ("cumulative(mnk(4,4,4))", 9, 2),
        ("hypercube(3,3)", 8, 4),
    ],
)
def test_sampled_positions_match_the_alpha_beta_kernel(spec: str, plies: int, count: int) -> None:
    g = noughts.game(spec)
    solver = FastSolver(g)
    searches = ValueSearches(g)
    for start in deep_positions(spec, plies, count, seed=5):
        positions = [start] + [start.play(m) for m in start.legal_moves()]
        for position in positions:
            expected = solver.value(position)
            got = searches.value(position)
            assert got.outcome is expected.outcome, (spec, position.text())
            assert got.score == expected.score
            assert got.plies is None or position.is_terminal()


@pytest.mark.parametrize("spec", ["hypercube(3,3)", "mnk(4,3,3)", "maker_breaker(mnk(4,4,4))"])
def test_starts_match_the_plain_df_pn(spec: str) -> None:
    g = noughts.game(spec)
    for player in (Player.FIRST, Player.SECOND):
        plain = prove_win(g, g.start(), player)
        fast = ProofSearch(g, player, WIN).prove(g.start())
        assert fast.proved == plain.proved, (spec, player)


def test_values_of_the_known_games() -> None:
    assert prove_value(noughts.game("tictactoe")).outcome is Outcome.DRAW
    assert prove_value(noughts.game("hypercube(3,3)")).outcome is Outcome.FIRST
    assert prove_value(noughts.game("mnk(4,4,4)")).outcome is Outcome.DRAW
    assert prove_value(noughts.game("maker_breaker(mnk(4,4,4))")).outcome is Outcome.SECOND
    v = prove_value(noughts.game("cumulative(tictactoe)"))
    assert (v.outcome, v.score, v.plies) == (Outcome.DRAW, 0, None)


def test_a_proof_says_what_it_proved() -> None:
    g = noughts.game("hypercube(3,3)")
    proof = ProofSearch(g, Player.FIRST, WIN).prove(g.start())
    assert proof.proved and proof.describe() == "x can force a win"
    assert proof.move is not None and proof.nodes > 0
    no = ProofSearch(g, Player.SECOND, DRAW).prove(g.start())
    assert not no.proved and no.describe() == "o cannot force at least a draw"


def test_budgets_stop_the_search() -> None:
    g = noughts.game("mnk(5,5,4)")
    with pytest.raises(LimitExceeded, match="node budget"):
        ProofSearch(g, Player.FIRST, WIN, max_nodes=100).prove(g.start())
    with pytest.raises(LimitExceeded, match="time budget"):
        ProofSearch(g, Player.FIRST, WIN, Budget(max_seconds=0.001)).prove(g.start())


def test_the_engine_takes_claim_games_only() -> None:
    assert supports(noughts.game("misere(mnk(4,4,4))"))
    assert not supports(noughts.game("veto(tictactoe)"))
    with pytest.raises(ValueError, match="claim games"):
        ProofSearch(noughts.game("notakto"), Player.FIRST, WIN)


def test_the_table_grows_and_keeps_its_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table that starts small grows as entries are written; one that may not grow replaces
    entries and still answers right (only the work changes)."""
    import noughts.proving.proof as proof

    monkeypatch.setattr(proof, "FIRST_ENTRIES", 256)
    g = noughts.game("mnk(4,4,4)")
    grown = ProofSearch(g, Player.FIRST, DRAW)
    assert grown.prove(g.start()).proved
    assert grown.table_bytes > 256 * 8 * 4  # it grew
    assert grown.prove(g.start()).nodes <= 1  # the answer is in the table
    small = noughts.game("hypercube(3,3)")
    tiny = ProofSearch(small, Player.FIRST, WIN, tt_bytes=1 << 14)
    assert tiny.table_bytes <= 1 << 14
    assert tiny.prove(small.start()).proved
    assert not ProofSearch(small, Player.SECOND, DRAW, tt_bytes=1 << 14).prove(small.start()).proved


def test_the_statistics_count_what_the_search_did() -> None:
    """The same answer with the threat searches' table of refuted positions and without it; the
    counts add up (a settled node had a threat search, a search stopped looked at positions)."""
    g = noughts.game("mnk(5,5,4)")
    p = g.parse("...../.x.../..o../...x./.....")
    holds = FastSolver(g).value(p).outcome.winner is not Player.FIRST
    for memo in (True, False):
        search = ProofSearch(g, Player.SECOND, DRAW, tss_memo=memo)
        assert search.prove(p).proved == holds
        stats = search.statistics()
        assert stats["nodes"] == search.nodes > 0
        assert stats["threat_searches"] >= stats["threat_settled"] + stats["threat_cutoffs"]
        assert stats["threat_nodes"] >= stats["threat_searches"]


def test_value_searches_are_eager_for_wins_only() -> None:
    """The searches for a win get the eager threat searches (:data:`EAGER_WINS`); the others,
    and any search given ``eager`` explicitly, do not."""
    from noughts.proving import _dfpn_kernels as D
    from noughts.proving.proof import EAGER_WINS

    g = noughts.game("mnk(4,4,4)")
    searches = ValueSearches(g)
    assert searches.search(Player.FIRST, WIN).kernel_view().params[D.P_EAGER] == EAGER_WINS
    assert searches.search(Player.FIRST, DRAW).kernel_view().params[D.P_EAGER] == 0
    assert ValueSearches(g, eager=0).search(Player.FIRST, WIN).kernel_view().params[D.P_EAGER] == 0
