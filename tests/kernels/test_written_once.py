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
]
"""The names the copies went by before there was one layer: none may come back in a kernel."""

CONSTANTS = {
    "0x5555555555555555": None,  # a hand-written popcount
    "0x0101010101010101": None,
    "0x03F79D71B4CB0A89": None,  # a de Bruijn lowest bit
    "0x9E3779B97F4A7C15": "kernels/rng.py",  # SplitMix64's increment
    "0xBF58476D1CE4E5B9": "kernels/rng.py",  # its output mix
    "0x94D049BB133111EB": "kernels/rng.py",
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
    kernels.codes's; a kernel numbers its own statuses (a pool to grow) from OWN_STATUS on."""
    statuses = re.compile(r"^(DONE|PAUSED|OWN_STATUS)\s*(:[^=]*)?=", re.M)
    assert [path for path, text in FILES.items() if statuses.search(text)] == ["kernels/codes.py"]
    machines = [path for path in KERNELS if re.search(r"\bPAUSED\b", FILES[path])]
    assert len(machines) >= 5  # alpha-beta, df-pn, the Breaker prover, the strategy and misère walks
    for path in machines:
        assert re.search(r"^from noughts\.kernels\.codes import .*\bPAUSED\b", FILES[path], re.M), path


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
