"""Training learners from the browser, and the arena's registry of saved agents.

A training run is a background job (:mod:`noughts.web.jobs`) over
:func:`noughts.learn.train.train`: after each chunk of episodes it adds a point to the run's
series (the chunk's first-player win, draw and second-player win rates, epsilon, the table's
size, the oracle grade where the learner grades itself fast), which the page charts. A run is
recorded in the store (``runs``) when it starts and when it ends. A finished or stopped run's
agent can be saved under a name: the files go to the arena's agents folder (beside the store)
and the name into the store's registry, so seats and batches name it ``saved:NAME``; it can be
downloaded as a zip of its JSON and ``.npz``, and a zip of that form can be uploaded (loaded and
validated by :func:`noughts.agents.saved.load_agent`, then saved again under the new name).
"""

from __future__ import annotations

import dataclasses
import importlib
import io
import json
import re
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

from noughts.agents.saved import load_agent, save_agent
from noughts.core import Game, NoughtsError
from noughts.learn.train import DEFAULT_RATE, LEARNERS, learner_class, train
from noughts.store import Store
from noughts.web.jobs import Job

__all__ = ["AgentFiles", "TrainingJob", "check_name", "learners"]

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,39}$")
MAX_POINTS = 400
"""Points of a run's series kept for the charts (older ones are thinned)."""


def check_name(name: str) -> str:
    """A saved agent's name: letters, digits, ``_``, ``.``, ``-``; at most 40 characters."""
    if not NAME.match(name) or name.endswith(".json"):
        raise NoughtsError(
            f"an agent's name is 1-40 letters, digits, '_', '.' or '-' (starting with a letter or digit), not {name!r}"
        )
    return name


def learners() -> list[dict[str, str]]:
    """The learners a run can use, with what their options are."""
    out = []
    for kind in LEARNERS:
        cls = learner_class(kind)
        doc = " ".join((cls.from_options.__doc__ or "").split())
        doc = re.sub(r":[a-z]+:`~?([^`]+)`", r"\1", doc).replace("``", "")
        doc = doc.replace("A learner from command-line options", "Options")
        module = importlib.import_module(cls.__module__)
        for name, obj in vars(module).items():
            if name.endswith("Config") and dataclasses.is_dataclass(obj) and isinstance(obj, type):
                defaults = ", ".join(
                    f"{f.name}={f.default}"
                    for f in dataclasses.fields(obj)
                    if f.default is not dataclasses.MISSING
                )
                doc += f" {name} defaults: {defaults}."
        out.append({"kind": kind, "options": doc})
    return out


class TrainingJob(Job):
    """One learner trained for ``episodes`` episodes in chunks, its progress kept as a series."""

    kind = "training"

    def __init__(
        self, run_id: int, game: Game, learner: str, options: dict[str, str], episodes: int, store: Store
    ):
        super().__init__(run_id)
        self.game = game
        self.learner_kind = learner
        self.options = options
        self.episodes = episodes
        self.store = store
        self.learner: Any = learner_class(learner).from_options(game, **options)  # refuses bad options now
        self.series: list[dict[str, Any]] = []
        self.done = 0
        self.saved: str | None = None
        self._last_grade = 0.0

    def run(self) -> None:
        rate = DEFAULT_RATE.new_state()
        previous = [0, 0, 0]
        chunk = max(100, min(5000, self.episodes // 60))

        def on_chunk(episodes: int) -> None:
            counts = [int(rate.counts[i]) for i in range(3)]
            delta = [c - p for c, p in zip(counts, previous, strict=True)]
            previous[:] = counts
            total = max(sum(delta), 1)
            point: dict[str, Any] = {
                "episodes": int(episodes),
                "first": delta[0] / total,
                "draw": delta[1] / total,
                "second": delta[2] / total,
                "epsilon": _epsilon(self.learner),
                "size": _table_size(self.learner),
                "grade": None,
            }
            now = time.perf_counter()
            if hasattr(self.learner, "policy_grade") and now - self._last_grade > 0.5:
                point["grade"] = float(self.learner.policy_grade())
                self._last_grade = time.perf_counter()
            self.series.append(point)
            if len(self.series) > MAX_POINTS:
                self.series = self.series[::2]
            self.done = int(episodes)
            if self.stop_event.is_set():
                raise _Stopped

        try:
            train(self.learner, max_episodes=self.episodes, chunk=chunk, rate=rate, on_chunk=on_chunk)
        except _Stopped:
            pass
        finally:
            status = "stopped" if self.stop_event.is_set() else "finished"
            self.store.set_run_status(self.id, status)

    def state(self) -> dict[str, Any]:
        """The run as the API returns it."""
        return {
            "id": self.id,
            "game": str(self.game),
            "learner": self.learner_kind,
            "options": self.options,
            "episodes": self.episodes,
            "done": self.done,
            "status": self.status,
            "error": self.error,
            "seconds": round(self.seconds, 3),
            "saved": self.saved,
            "series": self.series,
        }


class _Stopped(Exception):
    """Raised from a run's progress callback to end it after the chunk in hand."""


def _epsilon(learner: Any) -> float | None:
    value = getattr(learner, "epsilon", None)
    if value is None:
        value = getattr(getattr(learner, "config", None), "epsilon", None)
    return None if value is None else float(value)


def _table_size(learner: Any) -> int | None:
    summary = getattr(learner, "summary", None)
    if summary is not None:
        data = summary()
        for key in ("positions", "states", "table_size"):
            if key in data:
                return int(data[key])
    space = getattr(learner, "space", None)
    size = getattr(space, "size", None)
    return None if size is None else int(size)


class AgentFiles:
    """The arena's saved agents: files in ``folder``, names in the store's registry."""

    def __init__(self, store: Store, folder: Path):
        self.store = store
        self.folder = folder

    def save(self, name: str, agent: Any, game: Game | str, metadata: dict[str, Any]) -> dict[str, Any]:
        """Save ``agent`` as ``name`` (refused if the name is taken) and register it."""
        check_name(name)
        if any(a.name == name for a in self.store.agents()):
            raise NoughtsError(f"there is already an agent named {name!r}; choose another name")
        path = save_agent(agent, self.folder / f"{name}.json")
        kind = str(json.loads(path.read_text())["kind"])
        record = self.store.register_agent(name, kind, path=path, spec=str(game), metadata=metadata)
        return {"name": record.name, "kind": record.kind, "game": record.spec, "spec": f"saved:{name}"}

    def zip_of(self, name: str) -> bytes:
        """A saved agent's JSON and ``.npz`` as one zip."""
        record = self.store.agent(name)
        if not record.path:
            raise NoughtsError(f"the agent {name!r} has no files")
        json_path = Path(record.path)
        npz_path = json_path.with_suffix(".npz")
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
            for p in (json_path, npz_path):
                if not p.exists():
                    raise NoughtsError(f"the file of agent {name!r} is missing from the arena's folder")
                z.write(p, p.name)
        return buffer.getvalue()

    def upload(self, name: str, data: bytes) -> dict[str, Any]:
        """Register a zip of a saved agent's ``.json`` and ``.npz`` under ``name``, after loading
        it (every check of :func:`noughts.agents.saved.load_agent`).
        """
        check_name(name)
        try:
            archive = zipfile.ZipFile(io.BytesIO(data))
        except zipfile.BadZipFile:
            raise NoughtsError("the upload is not a zip file; upload the zip that Download gives") from None
        with archive, tempfile.TemporaryDirectory(dir=self.folder) as tmp:
            members = archive.infolist()
            jsons = [m for m in members if m.filename.endswith(".json")]
            npzs = [m for m in members if m.filename.endswith(".npz")]
            if len(members) != 2 or len(jsons) != 1 or len(npzs) != 1:
                raise NoughtsError("the zip must hold one agent: its .json and its .npz, nothing else")
            for m in members:
                if "/" in m.filename or "\\" in m.filename or m.filename.startswith("."):
                    raise NoughtsError(f"the zip's file {m.filename!r} is not a plain file name")
                if m.file_size > 512 * 2**20:
                    raise NoughtsError(f"the zip's file {m.filename!r} is too large")
                (Path(tmp) / m.filename).write_bytes(archive.read(m))
            agent = load_agent(Path(tmp) / jsons[0].filename)
            meta = json.loads((Path(tmp) / jsons[0].filename).read_text())
            return self.save(name, agent, str(meta["game"]), {"uploaded": True})
