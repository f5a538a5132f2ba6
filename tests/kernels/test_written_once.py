"""Each kernel primitive is written once, in noughts.kernels: a grep over the library's source.

A second copy of popcount, of the lowest-bit trick, of SplitMix64, of the rule or result codes or
of the claim rules in a kernel would drift from the first; these tests fail the day one appears.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import noughts.core

SRC = Path(noughts.core.__file__).resolve().parent.parent
FILES = {str(p.relative_to(SRC)): p.read_text() for p in sorted(SRC.rglob("*.py"))}

PRIMITIVES = {
    "popcount": "kernels/bits.py",
    "lowest_cell": "kernels/bits.py",
    "nth_cell": "kernels/bits.py",
    "cell_bit": "kernels/bits.py",
    "rng_next": "kernels/bits.py",
    "rng_uniform": "kernels/bits.py",
    "rng_below": "kernels/bits.py",
    "stream_start": "kernels/bits.py",
    "SplitMix64": "kernels/rng.py",
    "derive_seed": "kernels/rng.py",
    "claim_after": "kernels/claim.py",
    "claim_after_many": "kernels/claim_numpy.py",
    "completes": "kernels/claim.py",
    "cumulative_result": "kernels/claim.py",
    "line_result": "kernels/claim.py",
    "covers_line": "kernels/masks.py",
    "unowned": "kernels/masks.py",
    "ptr": "kernels/masks.py",
    "bucket": "kernels/table.py",
    "same_key": "kernels/table.py",
    "place": "kernels/table.py",
    "move_payload": "kernels/table.py",
    "set_slot": "kernels/table.py",
    "set_add": "kernels/table.py",
    "line_counts": "kernels/counts.py",
    "claim_counted": "kernels/counts.py",
    "unclaim_counted": "kernels/counts.py",
    "count_claim": "kernels/counts.py",
    "mark_counted": "kernels/counts.py",
    "unmark_counted": "kernels/counts.py",
}
"""Each primitive and the one module that defines it."""

COPIES = [
    "_popcount",
    "_nth_bit",
    "_nth_empty",
    "_lowest_index",
    "_splitmix",
    "claim_outcome",
    "bit",
    "_judge",
    "_hash",  # the Breaker prover's table
    "_slot_of",  # the proof engine's
    "tt_rehash",
    "_same_key",
    "_seen_or_add",  # the misère walk's set (the independent checker keeps its own: not a kernel)
    "_unclaim",  # the threat search's and the proof engine's undo over the line counts
    "_put",  # the strategy walk's
    "_take",
]
"""The names the copies went by before there was one layer: none may come back in a kernel."""

CONSTANTS = {
    "0x5555555555555555": None,  # a hand-written popcount
    "0x0101010101010101": None,
    "0x03F79D71B4CB0A89": None,  # a de Bruijn lowest bit
    "0x9E3779B97F4A7C15": "kernels/rng.py",  # SplitMix64's increment
    "0xBF58476D1CE4E5B9": "kernels/rng.py",  # its output mix
    "0x94D049BB133111EB": "kernels/rng.py",
    "0xC2B2AE3D27D4EB4F": "kernels/table.py",  # the table's hash (xxHash's prime)
    "0x165667B19E3779F9": None,  # the Breaker prover's own hash, before there was one table
    "0x27D4EB2F165667C5": None,
    "0xD1B54A32D192ED03": "kernels/rng.py",  # its stream spread
}
"""Telltale constants of the primitives and the only module they may appear in (None: none)."""

KERNELS = [name for name in FILES if re.search(r"(^|/)_\w*kernels?\.py$", name)]


def _definitions(name: str) -> list[str]:
    pattern = re.compile(
        rf"^\s*(def|class)\s+{re.escape(name)}\b|^{re.escape(name)}\s*(:[^=]*)?=", re.MULTILINE
    )
    return [path for path, text in FILES.items() if pattern.search(text)]


def test_the_kernel_modules_are_found() -> None:
    assert {"exact/_kernels.py", "agents/_mcts_kernel.py", "envs/_batch_kernels.py"} <= set(KERNELS)
    assert "learn/_td_kernels.py" in KERNELS and "exact/_count_kernels.py" in KERNELS


@pytest.mark.parametrize("name", sorted(PRIMITIVES))
def test_each_primitive_is_defined_once(name: str) -> None:
    assert _definitions(name) == [PRIMITIVES[name]]


@pytest.mark.parametrize("name", COPIES)
def test_no_kernel_keeps_its_own_copy(name: str) -> None:
    assert [path for path in _definitions(name) if path in KERNELS] == []


@pytest.mark.parametrize("constant", sorted(CONSTANTS))
def test_the_primitives_constants_stand_in_one_place(constant: str) -> None:
    where = [path for path, text in FILES.items() if constant.lower() in text.lower()]
    home = CONSTANTS[constant]
    assert where == ([] if home is None else [home])


def test_rule_and_result_codes_are_declared_once() -> None:
    """The codes are core's enums; kernels.codes gives them to numba as plain ints derived from
    them; nothing else assigns a rule or result code at module level."""
    codes = re.compile(
        r"^(STANDARD|MISERE|MAKER_BREAKER|CUMULATIVE|RUNNING|NONE|FIRST_WINS|SECOND_WINS)\s*=", re.M
    )
    assert [path for path, text in FILES.items() if codes.search(text)] == ["kernels/codes.py"]
    derived = re.compile(
        r"^(STANDARD|MISERE|MAKER_BREAKER|CUMULATIVE|RUNNING|FIRST|SECOND|DRAW) = int\((Rule|Result)\.\1\)$",
        re.M,
    )
    assert len(derived.findall(FILES["kernels/codes.py"])) == 8


def test_the_stack_machine_statuses_are_declared_once() -> None:
    """DONE and PAUSED, the status of every call to a kernel that runs in slices, are
    kernels.codes's; a kernel numbers its own statuses (a pool to grow) from OWN_STATUS on, its
    modes are ENTER, LOOP, RETURN (and its own after RETURN), a bounded search answers FOUND,
    NOT_FOUND or CUTOFF."""
    names = "DONE|PAUSED|OWN_STATUS|ENTER|LOOP|RETURN|FOUND|NOT_FOUND|CUTOFF"
    statuses = re.compile(rf"^({names})\s*(:[^=]*)?=|^({names}|NEXT|RESUME), [A-Z_, ]+=", re.M)
    assert [path for path, text in FILES.items() if statuses.search(text)] == [
        "exact/strategy_check.py",  # the independent checker shares no code with the searches
        "kernels/codes.py",
    ]
    numbered = re.compile(r"^(GROW\w*|FULL|BAD|NEED_\w+) = \d", re.M)
    assert [path for path in KERNELS if numbered.search(FILES[path])] == []  # OWN_STATUS + n
    machines = [path for path in KERNELS if re.search(r"\bPAUSED\b", FILES[path])]
    assert len(machines) >= 5  # alpha-beta, df-pn, the Breaker prover, the strategy and misère walks
    for path in machines:
        assert re.search(r"^from noughts\.kernels\.codes import \(?[^)]*?\bPAUSED\b", FILES[path], re.M), path


def test_a_claim_is_judged_in_one_place() -> None:
    """The masks' judge (claim_after) and the line counts' (claim_counted) end with the same
    judgement, written once: the cumulative scores and the line rules in kernels/claim.py (the
    NumPy twin judges whole arrays at once, its own way)."""
    judge = re.compile(r"if aux0 > aux1:|return \(1 - mover if rule == MISERE else mover\)")
    assert [path for path, text in FILES.items() if judge.search(text)] == ["kernels/claim.py"]
    assert "cumulative_result(" in FILES["kernels/counts.py"] and "line_result(" in FILES["kernels/counts.py"]


def test_no_kernel_driver_builds_its_own_tables() -> None:
    """The padded lines-through-cell tables come from ``board.tables`` (core/tables.py)."""
    builds = re.compile(r"max_lines_through_cell")
    assert [
        path for path, text in FILES.items() if builds.search(text) and not path.startswith(("core/", "cli/"))
    ] == []


def test_no_kernel_dispatches_on_the_game_class() -> None:
    """Kernels and their drivers read ``game.claim_rule`` and ``game.maker``, never the class."""
    drivers = [
        *KERNELS,
        "exact/fast.py",
        "agents/mcts.py",
        "envs/batch.py",
        "learn/qlearning.py",
        "learn/linear.py",
    ]
    for path in drivers:
        text = FILES[path]
        assert "_RULES" not in text, path
        assert not re.search(r"isinstance\([^)]*Game\b|type\(\w*game\) (is|in)", text), path


def test_one_transposition_table() -> None:
    """The alpha-beta kernel, the proof engine and the Breaker prover keep their payload and
    use kernels/table.py for the rest: no kernel scans a bucket, hashes a key or rehashes a
    table of its own."""
    scan = re.compile(r"for \w+ in range\((slot|base|first), (slot|base|first) \+|& ~\(BUCKET|h \^= h >> ")
    mine = {"kernels/table.py", "exact/strategy_check.py"}  # (the checker hashes its own set)
    assert [path for path, text in FILES.items() if scan.search(text) and path not in mine] == []
    users = ["exact/_kernels.py", "exact/_dfpn_kernels.py", "pairing/_breaker_kernels.py"]
    for path in users:
        assert re.search(
            r"^from noughts\.kernels\.table import .*\bplace(_two_tier)?\b", FILES[path], re.M
        ), path
    for path in ["exact/_strategy_kernels.py", "exact/_misere_kernels.py"]:
        assert re.search(r"^from noughts\.kernels\.table import .*\bset_add\b", FILES[path], re.M), path


def test_a_claim_over_the_line_counts_is_written_once() -> None:
    """Adding or taking back a mark on the lines through a cell (``cnt[through[c, t], p] += 1``)
    is kernels/counts.py's, whatever else a kernel keeps beside the counts."""
    loop = re.compile(r"cnt\[through\[\w+, \w+\], [^\]]+\] [+-]= 1")
    allowed = {
        "kernels/counts.py",
        "agents/_engine_kernel.py",  # the engine's make/unmake (issue 30's gomoku side, not moved yet)
    }
    assert sorted(path for path, text in FILES.items() if loop.search(text) and path not in allowed) == []
