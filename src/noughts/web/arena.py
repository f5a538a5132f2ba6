"""The arena one app serves from: its store, limits, worker pool, agents, games and jobs."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from noughts.core import NoughtsError
from noughts.store import Store, StoreError
from noughts.web.engines import AgentCatalogue, SavedRecord
from noughts.web.jobs import JobBoard
from noughts.web.limits import Limits
from noughts.web.sessions import GameService
from noughts.web.training import AgentFiles
from noughts.web.workers import WorkerPool

__all__ = ["Arena"]


class Arena:
    """Everything one app serves from: the store, limits, the worker pool, agents, games, jobs."""

    def __init__(self, store: Store, limits: Limits, owns_store: bool):
        self.store = store
        self.limits = limits
        self.owns_store = owns_store
        self.pool = WorkerPool(limits)
        self.agents = AgentCatalogue(limits, self._saved_record)
        self.games = GameService(store, self.agents, self.pool, limits)
        self.jobs = JobBoard(limits)
        self.started = time.time()
        self.features: list[str] = ["train", "leaderboard"]
        """Pages beyond play, watch and analyse that this arena serves."""
        if store.path == ":memory:":
            self._tmp = tempfile.TemporaryDirectory(prefix="noughts-agents-")
            folder = Path(self._tmp.name)
        else:
            folder = Path(store.path).resolve().parent / "agents"
        folder.mkdir(parents=True, exist_ok=True)
        self.agent_files = AgentFiles(store, folder, self.pool, limits)

    def _saved_record(self, name: str) -> SavedRecord:
        try:
            record = self.store.agent(name)
        except StoreError:
            raise NoughtsError(f"there is no saved agent named {name!r} (see the agents list)") from None
        if not record.path:
            raise NoughtsError(f"the saved agent {name!r} has no file to load")
        return SavedRecord(str(record.path), record.kind, record.spec)

    def close(self) -> None:
        """Stop the jobs and the workers; close the store if the arena opened it."""
        self.jobs.stop_all()
        self.pool.close()
        if self.owns_store:
            self.store.close()
