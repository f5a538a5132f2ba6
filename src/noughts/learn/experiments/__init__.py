"""Experiments that ``noughts experiment NAME`` runs, each reproducing a source's study.

The contract for an experiment module ``noughts.learn.experiments.<module>``:

* ``NAME``: the name users type (``cumulative-td``); ``DESCRIPTION``: one line;
* ``run(config, out_dir, quick=False, executor=None) -> Path``: run it and write a folder
  (CSV, Markdown tables, PNG figures, the configuration as JSON) under ``out_dir``, returning
  the folder. ``config`` (a dict or None) overrides defaults; ``quick`` is the small version
  that runs in CI in seconds; ``executor`` is a :mod:`noughts.parallel` executor (``.map``)
  or None to run in this process. Bad input raises ``NoughtsError``, and so does a missing
  matplotlib (:func:`need_plots`: the ``plots`` extra), before any work. Each finished run is
  saved in the folder's :data:`FINISHED` subfolder as it arrives and read back by a later start
  of the same jobs (:func:`~noughts.learn.experiments.runs.run_jobs`), so Ctrl-C loses only the runs in flight.

Modules are listed here by name and imported only when asked for.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from noughts.core import NoughtsError
from noughts.learn.experiments.runs import FINISHED, need_plots

__all__ = ["EXPERIMENTS", "FINISHED", "experiment", "experiment_names", "need_plots"]

EXPERIMENTS: dict[str, str] = {
    "cumulative-td": "cumulative_td",  # 000 §4: TD with evaluation-function initialisation
    "linear-lms": "linear_lms",  # 001: the LMS linear agent
    "arena": "arena",  # 003 §9.2: the RL Battle Arena's experiments
}
"""Experiment name -> module in this package."""


def experiment_names() -> list[str]:
    """The experiment names, sorted."""
    return sorted(EXPERIMENTS)


def experiment(name: str) -> ModuleType:
    """The module of experiment ``name``; ``NoughtsError`` if unknown or not available."""
    module = EXPERIMENTS.get(name.strip())
    if module is None:
        raise NoughtsError(f"unknown experiment {name!r}; known: {', '.join(experiment_names())}")
    try:
        return importlib.import_module(f"{__name__}.{module}")
    except ModuleNotFoundError as e:
        if e.name == f"{__name__}.{module}":
            raise NoughtsError(f"experiment {name!r} is not available in this noughts") from None
        raise
