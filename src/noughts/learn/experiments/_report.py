"""What the experiments share: their settings, running their jobs, and parts of their reports.

Each experiment module (see :mod:`noughts.learn.experiments`) merges the user's settings over
its defaults, writes them to ``config.json``, runs plain-data jobs (:mod:`.runs`: in this
process or on a :mod:`noughts.parallel` executor, each result saved as it arrives), keeps the raw
results in ``runs.json`` and reports the solver's grades (:func:`noughts.arena.grade.grade`) in
CSV and Markdown; those steps live here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from noughts.core import NoughtsError

Job = dict[str, Any]


def prepare(
    name: str,
    config: dict[str, Any] | None,
    out_dir: Path,
    quick: bool,
    default: dict[str, Any],
    quick_default: dict[str, Any],
) -> tuple[dict[str, Any], Path]:
    """The settings (``config`` over ``quick_default`` or ``default``) and the output folder.

    Keys that ``default`` lacks raise ``NoughtsError``; the folder is created and the settings
    are written to ``config.json`` in it.
    """
    cfg = {**(quick_default if quick else default), **(config or {})}
    unknown = set(cfg) - set(default)
    if unknown:
        raise NoughtsError(f"unknown {name} setting(s) {sorted(unknown)}; known: {sorted(default)}")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "config.json").write_text(json.dumps({"experiment": name, "quick": quick, **cfg}, indent=2))
    return cfg, out_dir


def write_runs(results: list[Job], out_dir: Path) -> None:
    """The raw results, as ``runs.json``."""
    (out_dir / "runs.json").write_text(json.dumps(results, indent=2))


def wdl(side: dict[str, Any]) -> str:
    """``wins/draws/losses`` of one side of a match or a grade (``{"wins": ..., ...}``)."""
    return f"{side['wins']}/{side['draws']}/{side['losses']}"


def grade_cells(grade: dict[str, Any]) -> list[Any]:
    """A grade's CSV cells: optimal move rate, positions, sampled, as first and as second (W/D/L)."""
    return [
        grade["optimal_move_rate"],
        grade["positions"],
        grade["sampled"],
        wdl(grade["as_first"]),
        wdl(grade["as_second"]),
    ]


def grade_markdown(grade: dict[str, Any]) -> str:
    """A grade's Markdown cells (joined by ``|``, without the outer bars), in the order of
    :func:`grade_cells`, the sampled flag shown as ``(sample)`` after the positions.
    """
    sample = " (sample)" if grade["sampled"] else ""
    return (
        f"{grade['optimal_move_rate']:.3f} | {grade['positions']:,}{sample} "
        f"| {wdl(grade['as_first'])} | {wdl(grade['as_second'])}"
    )


def slug(game: str) -> str:
    """A game spec as a file-name part: ``mnk(4,4,3)`` -> ``mnk_4_4_3``."""
    return game.replace("(", "_").replace(")", "").replace(",", "_")


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the Agg backend (files only, no display)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig: Any, path: Path) -> None:
    """Lay out ``fig``, write it to ``path`` (PNG, 100 dpi) and close it."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
