"""The 7x7x7 proof with a computed opening (``prove cube7 --computed``): Breaker's greedy rule,
Maker's moves up to the position's symmetries, the depth found by trying; each part held to a
plain version written here."""

from __future__ import annotations

import random

import pytest

from noughts.casework import cube7 as C
from noughts.casework.certificate import check_casework, coverage
from noughts.core.registry import game as make_game

CUBE = "maker_breaker(hypercube(7,3))"
MNK4 = "maker_breaker(mnk(4,4,4))"


def _name(spec, opening, depth):
    return C.greedy_plan_name(spec, opening, depth)


def _plain_greedy(board, maker, breaker):
    """Breaker's rule in plain loops: (new surviving lines eliminated, Maker cells on them, -cell)."""
    dead = {j for j, line in enumerate(board.lines) if set(line) & set(breaker)}
    mk = {m for m in maker if m >= 0}

    def key(c):
        new = [j for j in board.lines_through[c] if j not in dead]
        return (-len(new), -sum(len(set(board.lines[j]) & mk) for j in new), c)

    return tuple(sorted(range(board.num_cells), key=key))


def _plain_orbits(board, maker, breaker):
    """Orbits of the free cells under the symmetries fixing both sides' sets, by brute force."""
    stab = [
        g
        for g in board.symmetries
        if {g[m] for m in maker} == set(maker) and {g[b] for b in breaker} == set(breaker)
    ]
    free = [c for c in range(board.num_cells) if c not in set(maker) | set(breaker)]
    return {frozenset(g[c] for g in stab) for c in free}


@pytest.mark.parametrize("spec", [CUBE, "maker_breaker(mnk(4,4,4))"])
def test_greedy_list_and_orbits_match_plain_loops(spec):
    board = make_game(spec).board
    rng = random.Random(12)
    for _ in range(6):
        cells = rng.sample(range(board.num_cells), 5)
        maker, breaker = tuple(cells[:3]), tuple(cells[3:])
        assert C.greedy_list(spec, maker, breaker) == _plain_greedy(board, maker, breaker)
        reps = C.orbit_representatives(board, maker, breaker)
        orbits = _plain_orbits(board, maker, breaker)
        assert reps == {min(o) for o in orbits}


def test_first_moves_reproduce_the_sources_ideas():
    board = make_game(CUBE).board
    centre = board.cell_at((3, 3, 3))
    # Maker's first moves up to symmetry: one per sorted triple of distances from the centre
    expected = {tuple(sorted(abs(x - 3) for x in board.coords[c])) for c in range(board.num_cells)}
    assert len(C.orbit_representatives(board, (), ())) == len(expected) == 20
    # Maker elsewhere: Breaker takes the centre (13 lines, 002 §4.3)
    for m in C.orbit_representatives(board, (), ()) - {centre}:
        assert C.greedy_list(CUBE, (), ())[0] == centre
        assert C._first_free(C.greedy_list(CUBE, (), ()), {m}) == centre
    # Maker in the centre: a cell of a superdiagonal, 7 lines (002 §4.2)
    reply = C._first_free(C.greedy_list(CUBE, (), ()), {centre})
    assert len(board.lines_through[reply]) == 7 and len(set(board.coords[reply])) == 1


def test_the_4x4_analogue_is_found_at_depth_one_and_certified(tmp_path):
    # 002 §3: one Breaker move, then a pairing, for each of Maker's three openings
    out = tmp_path / "mnk4.json"
    result, names = C.prove_computed(MNK4, workers=1, out=str(out), progress=False)
    assert names == (_name(MNK4, "all", 1),)
    assert result.failures == 0 and result.cases == {_name(MNK4, "all", 1): 3}
    check = check_casework(out)
    assert check.valid and check.verified == 3


def test_cube7_depths_below_the_found_ones_fail_and_a_chunk_of_each_found_one_pairs():
    # fewer Breaker moves leave cases without a pairing (so the search must go to 4 and 3) ...
    assert not C._first_chunk_pairs(_name(CUBE, "centre", 3))
    assert not C._first_chunk_pairs(_name(CUBE, "other", 2))
    # ... and at 4 and 3 sampled leaves agree with SciPy's Hopcroft-Karp from nothing
    rng = random.Random(3)
    for name in (_name(CUBE, "centre", 4), _name(CUBE, "other", 3)):
        pl = C.plan(name)
        prefix = C.split_prefixes(pl)[0]
        result = C.settle_chunk((name, prefix))
        assert len(result.fail_node) == 0 and result.leaves > 0
        nodes = list(C.iter_nodes(pl, prefix))
        for maker, breaker in rng.sample(nodes, 3):
            taken = set(maker) | set(breaker)
            prio = pl.priority(pl.depth - 1, maker + (-1,), breaker)
            for m in rng.sample([c for c in range(pl.board.num_cells) if c not in taken], 5):
                reply = next(p for p in prio if p not in taken | {m})
                assert C.reference_leaf(pl.board, maker + (m,), breaker + (reply,))


def test_the_normalisation_covers_every_move():
    # the checker's own coverage test (7x7x7's runs inside the slow whole proof's check)
    cov = coverage(C.plan(_name(MNK4, "all", 1)))
    assert cov["uncovered_count"] == 0 and cov["first"] == set(range(16))


def test_unknown_computed_plans_are_refused():
    for name in (
        _name(CUBE, "middle", 4),
        _name(CUBE, "all", 4),  # 7x7x7 has a centre: its classes are centre and other
        _name(CUBE, "centre", 99),
        _name("hypercube(4,3)", "all", 1),  # not Maker-Breaker
        _name("maker_breaker(hypercube(4,3), maker=second)", "all", 1),
        "greedy:nonsense",
    ):
        assert not C.known_plan(name)
        with pytest.raises(C.NoughtsError):
            C.plan(name)
    assert C.known_plan(_name(CUBE, "centre", 4)) and C.known_plan("centre")


def test_the_case_count_is_computed_without_enumerating():
    # the counts the whole proof reports (BENCHMARKS.md), from the formula; the walk agrees on 4x4
    assert C.greedy_cases(_name(CUBE, "centre", 4)) == 9_367_926
    assert C.greedy_cases(_name(CUBE, "other", 3)) == 971_913
    for depth in (1, 2, 3):
        assert C.greedy_cases(_name(MNK4, "all", depth)) == C.count_cases(C.plan(_name(MNK4, "all", depth)))


def test_the_case_budget_stops_before_the_work(tmp_path):
    with pytest.raises(C.LimitExceeded, match="would mean"):
        C.prove_computed(CUBE, workers=1, progress=False, max_cases=1_000_000)


@pytest.mark.slow
def test_the_whole_7x7x7_proof_with_a_computed_opening(tmp_path):
    out = tmp_path / "cube7-computed.json"
    result, names = C.prove_computed(workers=2, out=str(out), progress=False)
    assert names == (_name(CUBE, "centre", 4), _name(CUBE, "other", 3))
    assert result.failures == 0
    check = check_casework(out)
    assert check.valid, check.first_failure
    assert check.verified == sum(result.cases.values())


def test_the_command_line(tmp_path):
    from typer.testing import CliRunner

    from noughts.cli.app import app

    runner = CliRunner()
    out = tmp_path / "c.json"
    done = runner.invoke(app, ["prove", "casework", MNK4, "--workers", "1", "--out", str(out), "--json"])
    assert done.exit_code == 0, done.output
    assert '"proved": true' in done.output
    checked = runner.invoke(app, ["prove", "check", str(out)])
    assert checked.exit_code == 0 and "valid" in checked.output
    for args, code, message in (
        (["prove", "cube7", "--computed", "--plan", "mnk4"], 2, "--computed finds its own plans"),
        (["prove", "casework", "hypercube(4,3)"], 2, "Maker-Breaker game with Maker first"),
        (["prove", "casework", CUBE, "--max-cases", "1000"], 3, "would mean"),
    ):
        result = runner.invoke(app, [*args, "--out", str(tmp_path / "d.json")])
        assert result.exit_code == code, result.output
        assert message in result.output and "Traceback" not in result.output


def test_the_time_budget_stops_the_casework_between_chunks(tmp_path):
    with pytest.raises(C.LimitExceeded, match="the time budget"):
        C.prove_computed(CUBE, workers=1, progress=False, max_seconds=0.5)
    # the published casework too: it reports the chunks and cases settled by then
    with pytest.raises(C.LimitExceeded, match=r"chunks settled, [\d,]+ cases"):
        C.prove(("centre",), workers=1, progress=False, max_seconds=0.2)
