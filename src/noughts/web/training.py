"""Training learners from the browser, and the arena's registry of saved agents.

A training run is a background job (:mod:`noughts.web.jobs`) over
:func:`noughts.learn.train.train`, run in a worker process within
:attr:`Limits.max_training_seconds` and the worker's memory share: after each chunk of episodes it adds a point to the run's
series (the chunk's first-player win, draw and second-player win rates, epsilon, the table's
size, the oracle grade where the learner grades itself fast), which the page charts. A run is
recorded in the store (``runs``) when it starts and when it ends. A finished or stopped run's
agent can be saved under a name: the files go to the arena's agents folder (beside the store)
and the name into the store's registry, so seats and batches name it ``saved:NAME``; it can be
downloaded as a zip of its JSON and ``.npz``, and a zip of that form can be uploaded (its
directory checked before anything is unpacked, then loaded and validated by
:func:`noughts.agents.saved.load_agent` in a worker, then copied under the new name).
"""

from __future__ import annotations

import dataclasses
import importlib
import io
import json
import re
import tempfile
import threading
import zipfile
from pathlib import Path
from typing import Any

from noughts.agents.saved import copy_saved
from noughts.core import Game, NoughtsError
from noughts.core.archive import check_zip, open_zip, read_member
from noughts.learn.train import LEARNERS, learner_class
from noughts.store import Store
from noughts.web.jobs import Job
from noughts.web.limits import Limits
from noughts.web.workers import WorkerPool

__all__ = ["AgentFiles", "TrainingJob", "check_name", "learners"]

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,39}$")
MAX_POINTS = 400
"""Points of a run's series kept for the charts (older ones are thinned)."""

START_WAIT = 4.0
"""Seconds a request to train waits for the worker to build its learner, so that bad options
and hopeless games are refused in the answer itself."""


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
    """One learner trained for ``episodes`` episodes in a worker (see :mod:`noughts.web.jobs`),
    its progress kept as a series; its agent is saved to ``out`` when it ends or is stopped.
    """

    kind = "training"

    def __init__(
        self,
        run_id: int,
        game: Game,
        learner: str,
        options: dict[str, str],
        episodes: int,
        store: Store,
        pool: WorkerPool,
        limits: Limits,
        out: Path,
    ):
        super().__init__(run_id)
        self.game = game
        self.learner_kind = learner
        self.options = options
        self.episodes = episodes
        self.store = store
        self.pool = pool
        self.limits = limits
        self.out = out
        self.series: list[dict[str, Any]] = []
        self.done = 0
        self.saved: str | None = None
        self.exception: NoughtsError | None = None
        self.started_event = threading.Event()
        self.file: Path | None = None
        self.checkpoint: tuple[Path, int] | None = None
        """The last checkpoint the worker wrote: its file and the episodes it had learned."""

    def _point(self, point: dict[str, Any]) -> None:
        if point.get("started"):
            self.started_event.set()
            return
        if "checkpoint" in point:  # the agent as of ``episodes``, written whole
            self.checkpoint = (Path(point["checkpoint"]), int(point["episodes"]))
            return
        self.series.append(point)
        if len(self.series) > MAX_POINTS:
            self.series = self.series[::2]
        self.done = int(point["episodes"])

    def run(self) -> None:
        try:
            result = self.pool.run(
                "train",
                {
                    "game": str(self.game),
                    "learner": self.learner_kind,
                    "options": self.options,
                    "episodes": self.episodes,
                    "seconds": self.limits.max_training_seconds,
                    "out": str(self.out),
                },
                seconds=self.limits.max_training_seconds
                + 30,  # the run stops itself at its time; then it saves
                lane="job",
                client=f"job-training-{self.id}",
                on_progress=self._point,
                stop=self.stop_event,
                wait=5.0,
            )
        except NoughtsError as e:
            if self.checkpoint is not None and self.started_event.is_set() and self.exception is None:
                # killed at its memory cap or its time: it keeps what it learned, as of its checkpoint
                self.file, self.done = self.checkpoint
                self.error = f"{e}; its agent as of its last checkpoint ({self.done:,} episodes) can be saved"
                self.stop_event.set()
                self.store.set_run_status(self.id, "stopped")
                return
            self.exception = e
            self.store.set_run_status(self.id, "failed")
            raise
        finally:
            self.started_event.set()
        self.done = int(result["episodes"])
        self.file = Path(result["file"])
        if result["status"] == "stopped":
            self.stop_event.set()
        self.store.set_run_status(self.id, "stopped" if self.stop_event.is_set() else "finished")

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


class AgentFiles:
    """The arena's saved agents: files in ``folder``, names in the store's registry."""

    def __init__(self, store: Store, folder: Path, pool: WorkerPool, limits: Limits):
        self.store = store
        self.folder = folder
        self.pool = pool
        self.limits = limits

    def _free(self, name: str) -> None:
        check_name(name)
        if any(a.name == name for a in self.store.agents()):
            raise NoughtsError(f"there is already an agent named {name!r}; choose another name")

    def register(self, name: str, source: Path, metadata: dict[str, Any]) -> dict[str, Any]:
        """Copy the saved agent at ``source`` to ``name`` in the arena's folder and register it."""
        self._free(name)
        path = copy_saved(source, self.folder / f"{name}.json")
        doc = json.loads(path.read_text())
        record = self.store.register_agent(
            name, str(doc["kind"]), path=path, spec=str(doc["game"]), metadata=metadata
        )
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

    def upload(self, name: str, data: bytes, client: str = "local") -> dict[str, Any]:
        """Register a zip of a saved agent's ``.json`` and ``.npz`` under ``name``. The zip's
        directory is checked before anything is unpacked (:mod:`noughts.core.archive`: sizes,
        members, encryption, compression); the agent is then loaded and validated in a worker
        (every check of :func:`noughts.agents.saved.load_agent`), and only then registered.
        """
        self._free(name)
        archive = open_zip(data, what="the upload")
        with archive, tempfile.TemporaryDirectory(dir=self.folder, prefix=".upload-") as tmp:
            members = check_zip(
                archive, what="the upload", max_bytes=self.limits.max_upload_unpacked, max_members=2
            )
            jsons = [m for m in members if m.filename.endswith(".json")]
            npzs = [m for m in members if m.filename.endswith(".npz")]
            if len(members) != 2 or len(jsons) != 1 or len(npzs) != 1:
                raise NoughtsError("the zip must hold one agent: its .json and its .npz, nothing else")
            for m in members:
                (Path(tmp) / m.filename).write_bytes(read_member(archive, m, what="the upload"))
            source = Path(tmp) / jsons[0].filename
            self.pool.run("inspect", {"path": str(source)}, seconds=30.0, client=client, lane="work")
            return self.register(name, source, {"uploaded": True})


def wait_started(job: TrainingJob) -> None:
    """Wait (briefly) for a run's learner to be built in its worker; raise its refusal (bad
    options, a game too large for a table) if it was refused.
    """
    job.started_event.wait(START_WAIT)
    if job.exception is not None:
        raise job.exception
