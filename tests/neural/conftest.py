"""One tiny AlphaZero run on tic-tac-toe, shared by the neural tests (JAX compiles it once)."""

from __future__ import annotations

from pathlib import Path

import pytest

TINY = {"width": "32", "blocks": "2", "games": "32", "sims": "8", "updates": "8", "batch": "128",
        "grade_every": "4", "grade_games": "4"}  # fmt: skip
"""A network and a search small enough for the CPU in seconds."""


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    pytest.importorskip("jax")
    pytest.importorskip("mctx")
    import noughts
    from noughts.neural.run import train

    out = tmp_path_factory.mktemp("az") / "az.json"
    result = train("az", noughts.game("tictactoe"), out, options=dict(TINY), seed=0, max_games=8 * 32)
    return out, result


@pytest.fixture
def tiny_options() -> dict[str, str]:
    return dict(TINY)


@pytest.fixture
def tiny_out(tiny_run, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    """A private copy of the tiny run's files (tests may change or extend them)."""
    import shutil

    out, _ = tiny_run
    for f in out.parent.iterdir():
        shutil.copy(f, tmp_path / f.name)
    return tmp_path / out.name
