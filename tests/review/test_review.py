"""The review against the solver: values before and after every move, classes, accuracies,
estimates where the solver gives up, distances that are not known, and budgets."""

from __future__ import annotations

import json
import time
from types import SimpleNamespace

import numpy as np
import pytest

import noughts
from noughts.core import Budget, LimitExceeded, Outcome, Player, Position
from noughts.exact.search import Searcher
from noughts.record import Record, read_record
from noughts.review import Evaluation, MoveEstimate, Review, ReviewStopped, review

TTT = noughts.game("tictactoe")


def worth(value, mover: Player) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """How good a move worth ``value`` (the value after it) is for ``mover``, written out here
    from the definition: the result first, then a faster win or a slower loss; a draw is a draw.
    """
    if value.score is not None:
        mine = value.score if mover is Player.FIRST else -value.score
        return ((mine > 0) - (mine < 0), mine)
    if value.outcome is Outcome.DRAW:
        return (0, 0)
    if value.outcome.winner is mover:
        return (1, -value.plies)
    return (-1, value.plies)


def random_game(game, seed: int) -> list[str]:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    p, moves = game.start(), []
    while not p.is_terminal():
        m = p.legal_moves()[int(rng.integers(len(p.legal_moves())))]
        moves.append(game.format_move(m))
        p = p.play(m)
    return moves


@pytest.mark.parametrize(
    "spec", ["tictactoe", "misere(tictactoe)", "cumulative(tictactoe)", "veto(tictactoe)"]
)
@pytest.mark.parametrize("seed", range(6))
def test_marked_moves_are_exactly_those_worse_than_the_best(spec: str, seed: int) -> None:
    game = noughts.game(spec)
    record = read_record(Record(game, random_game(game, seed)).to_text())  # a recorded game
    r = review(record)
    assert r.complete and r.reviewed == record.plies
    for m, before in zip(r.moves, record.positions(), strict=False):
        solved = noughts.solve(game, before)  # every move's value, by the solver
        mover = before.to_move
        top = max(worth(mv.value, mover) for mv in solved.moves)
        played = next(mv.value for mv in solved.moves if game.format_move(mv.move) == m.move)
        assert (m.judgement != "best") == (worth(played, mover) != top), (m, before.text())
        if worth(played, mover)[0] < top[0]:
            assert m.judgement == "mistake"
        elif worth(played, mover) != top:
            assert m.judgement == "inaccuracy"
        assert m.exact and m.player is mover
        assert set(m.best) == {
            game.format_move(mv.move) for mv in solved.moves if worth(mv.value, mover) == top
        }
        assert (m.before.outcome, m.before.score) == (solved.value.outcome, solved.value.score)
        assert (m.after.outcome, m.after.score) == (played.outcome, played.score)
        if played.outcome is not Outcome.DRAW and played.score is None:
            assert m.after.plies == played.plies and m.before.plies == solved.value.plies
    summary = r.players
    for p in Player:
        mine = [m for m in r.moves if m.player is p]
        assert summary[p].moves == len(mine)
        if mine:
            assert summary[p].accuracy == sum(m.judgement == "best" for m in mine) / len(mine)


def _moves(*moves: str) -> Review:
    return review("tictactoe", list(moves))


def _solve(*moves: str):  # type: ignore[no-untyped-def]
    p = TTT.start()
    for m in moves:
        p = p.play(TTT.parse_move(m))
    return {TTT.format_move(mv.move): mv.value for mv in noughts.solve(TTT, p).moves}


def test_a_win_thrown_away_is_a_mistake() -> None:
    values = _solve("a1", "a2", "b1", "b2")  # x to move: c1 wins at once
    assert values["c1"].outcome is Outcome.FIRST and values["c2"].outcome is Outcome.DRAW
    m = _moves("a1", "a2", "b1", "b2", "c2").moves[-1]
    assert (m.judgement, m.best) == ("mistake", ("c1",))
    assert m.before.text(TTT) == "x wins in 1" and m.after.text(TTT) == "draw"


def test_a_win_delayed_is_an_inaccuracy() -> None:
    values = _solve("a1", "b1", "a2", "c1")  # x to move: a3 wins at once, b2 wins later
    assert values["a3"].plies == 0 and values["b2"].outcome is Outcome.FIRST and values["b2"].plies > 0
    m = _moves("a1", "b1", "a2", "c1", "b2").moves[-1]
    assert (m.judgement, m.best) == ("inaccuracy", ("a3",))
    assert m.after.outcome is Outcome.FIRST


def test_a_draw_thrown_away_is_a_mistake() -> None:
    values = _solve("b2")  # o to move: corners draw, edges lose
    assert values["a1"].outcome is Outcome.DRAW and values["b1"].outcome is Outcome.FIRST
    r = _moves("b2", "b1")
    m = r.moves[-1]
    assert m.judgement == "mistake" and set(m.best) == {"a1", "c1", "a3", "c3"}
    assert r.players[Player.SECOND].accuracy == 0.0 and r.players[Player.FIRST].accuracy == 1.0


def test_a_loss_hastened_is_an_inaccuracy_and_the_slowest_loss_is_best() -> None:
    values = _solve("b2", "b1", "a1")  # o to move and lost: c3 delays it
    assert values["c3"].plies > values["c1"].plies
    assert _moves("b2", "b1", "a1", "c1").moves[-1].judgement == "inaccuracy"
    assert _moves("b2", "b1", "a1", "c3").moves[-1].judgement == "best"


def test_a_narrower_margin_is_an_inaccuracy_under_scoring_rules() -> None:
    game = noughts.game("cumulative(tictactoe)")
    found = None
    for seed in range(40):  # a recorded game with a move that keeps the result but gives up points
        r = review(game, random_game(game, seed))
        found = next((m for m in r.moves if m.judgement == "inaccuracy"), None)
        if found is not None:
            break
    assert found is not None
    before = record_position(r.record, found.ply - 1)
    solved = {game.format_move(mv.move): mv.value for mv in noughts.solve(game, before).moves}
    best = solved[found.best[0]]
    mine = solved[found.move]
    assert worth(mine, found.player)[0] == worth(best, found.player)[0]
    assert worth(mine, found.player)[1] < worth(best, found.player)[1]
    assert found.after.text(game).endswith(f"by {abs(mine.score)}") or mine.score == 0


def record_position(record: Record, ply: int) -> Position:
    return record.positions()[ply]


def test_forced_moves_and_the_final_position() -> None:
    r = _moves("a1", "a2", "b1", "b2", "c1")
    assert r.values[-1].text(TTT) == "x wins"  # a finished game: no "in 0"
    assert r.to_json()["positions"][-1]["to_move"] is None
    r = review("tictactoe", [], start="xox/oxo/ox.")
    assert r.moves == () and r.values[0].text(TTT) == "x wins in 1"
    r = review("tictactoe", ["c3"], start="xox/oxo/ox.")
    assert r.moves[0].forced and r.moves[0].judgement == "best"
    r = review("tictactoe", ["b3"], start="xox/oxo/...")
    assert not r.moves[0].forced and r.moves[0].judgement == "inaccuracy"  # c3 wins at once


def test_the_json_document() -> None:
    r = _moves("b2", "b1", "a1", "c1")
    doc = json.loads(json.dumps(r.to_json()))
    assert doc["game"] == "mnk(3,3,3)" and doc["complete"] and doc["reviewed"] == 4
    assert [m["class"] for m in doc["moves"]] == ["best", "mistake", "best", "inaccuracy"]
    assert doc["moves"][1]["before"] == {
        "source": "exact",
        "by": "exact",
        "value": "draw",
        "plies": doc["moves"][1]["before"]["plies"],
        "score": None,
        "eval": 0.0,
        "text": "draw",
    }
    assert doc["moves"][1]["after"]["eval"] == 1.0 and doc["moves"][1]["label"] == "o"
    assert len(doc["positions"]) == 5 and doc["positions"][0]["position"] == ".../.../..."
    assert doc["players"]["second"] == {
        "name": "?",
        "label": "o",
        "moves": 2,
        "judged": 2,
        "best": 0,
        "inaccuracies": 1,
        "mistakes": 1,
        "exact": 2,
        "accuracy": 0.0,
    }


# -- where the solver gives up ------------------------------------------------------------------------


class GivingUp:
    """An exact engine that never finishes (as if every position were too big for its budget)."""

    def __init__(self) -> None:
        self.calls = 0
        self.budget = Budget(None, None)

    def value(self, position: Position):  # type: ignore[no-untyped-def]
        self.calls += 1
        raise LimitExceeded("stopped after 0.1 s (the time budget)")


def test_positions_the_solver_does_not_finish_are_estimated_and_labelled() -> None:
    engine = GivingUp()
    r = review(
        "tictactoe", ["b2", "b1", "a1", "c1"], oracle=engine, estimator="minimax:depth=3", give_up_after=None
    )
    assert r.estimator == "minimax:depth=3"
    for m in r.moves:
        assert not m.exact and m.judgement is not None
        assert m.before.source == "estimate" and m.before.by == "minimax:depth=3"
    assert r.values[-1].is_exact is False or r.values[-1] is None
    # minimax at depth 3 sees o's c1 lose at once, and c3 lose later: an inaccuracy by estimate
    assert r.moves[-1].judgement == "inaccuracy" and r.moves[-1].best == ("c3",)
    assert r.moves[-1].after.text(TTT) == "x wins in 1"
    assert "(estimate by minimax:depth=3)" in r.moves[-1].after.describe(TTT)
    # with no estimator nothing is judged, and nothing is made up
    r = review("tictactoe", ["b2", "b1"], oracle=GivingUp(), estimator=None)
    assert [m.judgement for m in r.moves] == [None, None] and all(v is None for v in r.values)
    assert r.players[Player.FIRST].accuracy is None


def test_an_estimate_calls_a_mistake_only_what_it_proved() -> None:
    # o must take c1; a3 lets x complete the top row next move, which minimax at depth 2 sees
    r = review("tictactoe", ["a1", "b2", "b1", "a3"], oracle=GivingUp(), estimator="minimax:depth=2")
    m = r.moves[-1]
    assert (m.judgement, m.exact, m.best) == ("mistake", False, ("c1",))
    assert m.after.outcome is Outcome.FIRST and m.after.plies == 1
    # a move the estimator merely likes less, proving nothing, is an inaccuracy
    assert [m.judgement for m in r.moves[:3]].count("mistake") == 0


def test_after_failures_in_a_row_the_earlier_positions_go_to_the_estimator() -> None:
    engine = GivingUp()
    review(
        "tictactoe",
        ["b2", "b1", "a1", "c1", "c3"],
        oracle=engine,
        estimator="minimax:depth=1",
        give_up_after=2,
    )
    assert engine.calls == 2  # two positions tried (one call each, as each fails at once)


def test_mcts_estimates_with_proofs_but_no_distances() -> None:
    r = review("tictactoe", ["b2", "b1", "a1", "c1"], oracle=GivingUp(), estimator="mcts:sims=3000,seed=1")
    m = r.moves[-1]
    assert m.before.by.startswith("mcts:sims=3000")
    assert m.after.outcome is Outcome.FIRST and m.after.plies is None  # proven (x takes c3), distance unknown
    assert m.after.text(TTT) == "x wins"


class NoDistances:
    """Exact values with the distance not known (as from a proof engine or a solved quotient)."""

    def __init__(self, game) -> None:  # type: ignore[no-untyped-def]
        self.searcher = Searcher(game)

    def value(self, position: Position):  # type: ignore[no-untyped-def]
        v = self.searcher.value(position)
        return SimpleNamespace(outcome=v.outcome, plies=None, score=v.score)


def test_unknown_distances_display_sanely_and_judge_by_result() -> None:
    r = review("tictactoe", ["a1", "b1", "a2", "c1", "b2"], oracle=NoDistances(TTT))
    m = r.moves[-1]
    assert m.before.text(TTT) == "x wins" and m.after.text(TTT) == "x wins"
    assert m.judgement == "best"  # a win kept: without distances, no win is slower than another
    assert set(m.best) >= {"a3", "b2"}
    assert r.to_json()["moves"][-1]["after"]["plies"] is None
    assert _moves("a1", "b1", "a2", "c1", "b2").moves[-1].judgement == "inaccuracy"  # with them, it is


def test_evaluation_texts() -> None:
    game = noughts.game("maker_breaker(mnk(4,4,4))")
    assert Evaluation.estimate(0.42, "m").text(TTT) == "x +0.42"
    assert Evaluation.estimate(-0.5, "m").text(game) == "Breaker (o) +0.50"
    assert Evaluation.estimate(0.001, "m").text(TTT) == "even"
    assert Evaluation.estimate(5.0, "m").eval == 0.99  # an unproven estimate never reads as a proof
    assert Evaluation.estimate(0.0, "m", outcome=Outcome.SECOND, plies=3).text(TTT) == "o wins in 3"
    with pytest.raises(ValueError):
        Evaluation.estimate(float("nan"), "m")


def test_a_custom_estimator_plugs_in() -> None:
    class Centre:
        label = "likes the centre"

        def estimate(self, position: Position, budget: Budget) -> list[MoveEstimate]:
            sign = 1 if position.to_move is Player.FIRST else -1
            return [
                MoveEstimate(m, Evaluation.estimate(sign * 0.3 if m == 4 else 0.0, self.label))
                for m in position.legal_moves()
            ]

    r = review("tictactoe", ["a1", "b2"], oracle=GivingUp(), estimator=Centre())
    assert [m.judgement for m in r.moves] == ["inaccuracy", "best"] and r.estimator == "likes the centre"
    assert r.moves[0].best == ("b2",) and r.moves[0].after.text(TTT) == "o +0.30"  # o takes the centre


# -- budgets ----------------------------------------------------------------------------------------


class Slow:
    """The real solver, a little slow (so a small budget runs out part way)."""

    def __init__(self, game, pause: float) -> None:  # type: ignore[no-untyped-def]
        self.searcher = Searcher(game)
        self.pause = pause
        self.budget = Budget(None, None)

    def value(self, position: Position):  # type: ignore[no-untyped-def]
        time.sleep(self.pause)
        self.budget.check()
        return self.searcher.value(position)


def test_the_whole_budget_stops_the_review_with_what_was_reviewed() -> None:
    moves = random_game(TTT, 3)
    # each position asks for every legal move's value: the early positions need many calls
    with pytest.raises(ReviewStopped) as caught:
        review("tictactoe", moves, oracle=Slow(TTT, 0.02), budget=Budget(0.3, None), estimator=None)
    partial = caught.value.review
    assert isinstance(caught.value, LimitExceeded)
    assert not partial.complete and partial.stopped
    reviewed = [m.ply for m in partial.moves if m.reviewed]
    assert 0 < len(reviewed) < len(moves)
    assert reviewed == list(
        range(len(moves) - len(reviewed) + 1, len(moves) + 1)
    )  # the end of the game first
    assert f"reviewed {len(reviewed)} of {len(moves)} moves" in str(caught.value)
    assert all(m.exact and m.judgement for m in partial.moves if m.reviewed)
    assert partial.to_json()["complete"] is False


def test_the_review_written_into_the_record() -> None:
    record = read_record(
        '[Format "noughts-record 1"]\n[Game "tictactoe"]\n\n'
        "1. b2 2. b1 {an edge} (2. a1) 3. a1 4. c1 5. c3 1-0"
    )
    r = review(record)
    assert [m.judgement for m in r.moves] == ["best", "mistake", "best", "inaccuracy", "best"]
    annotated = r.annotated()
    nodes = annotated.moves.moves
    assert nodes[1].nags == (2,) and nodes[3].nags == (6,)
    assert nodes[1].comment == "an edge. Mistake: x wins in 5 (was draw); best a1, c1, a3, c3."
    assert [v.moves[0].move for v in nodes[1].variations] == ["a1"]  # already there: not added again
    assert nodes[3].comment == "Inaccuracy: x wins in 1 (was x wins in 4); best c3."
    assert [v.moves[0].move for v in nodes[3].variations] == ["c3"]
    assert annotated.tags["Annotator"] == "noughts review (alpha-beta)"
    assert [n.move for n in nodes] == [n.move for n in record.moves.moves]
    assert read_record(annotated.to_text()) == annotated
