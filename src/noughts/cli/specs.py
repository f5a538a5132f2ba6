"""Agent specs as the command line reads them: ``saved:NAME`` names a saved agent registered in
the store (``noughts train --name NAME``, or the web arena's Save), as it does in the web arena.
"""

from __future__ import annotations

from pathlib import Path

from noughts.agents.base import split_spec
from noughts.core import NoughtsError

__all__ = ["SAVED", "resolve_agent"]

SAVED = "saved"


def resolve_agent(spec: str, db: Path | None) -> str:
    """``spec`` with a ``saved:NAME[,seconds=S]`` replaced by the saved agent's file
    (``FILE.json[:seconds=S]``), looked up in the store ``db`` (default: the per-user store);
    any other spec unchanged. ``NoughtsError`` if no agent has that name.
    """
    text = spec.strip()
    if text.partition(":")[0] != SAVED:
        return text
    rest = text.partition(":")[2]
    name, _, options = rest.partition(",")
    name = name.strip()
    if not name:
        raise NoughtsError("write a saved agent as saved:NAME (noughts train --name NAME registers one)")
    if options:
        split_spec("x:" + options)  # options readable as key=value
    from noughts.store import Store, StoreError

    with Store(db) as store:
        try:
            record = store.agent(name)
        except StoreError:
            known = ", ".join(a.name for a in store.agents()) or "none yet"
            raise NoughtsError(
                f"no saved agent named {name!r} in the store (saved agents: {known})"
            ) from None
    if not record.path:
        raise NoughtsError(f"the saved agent {name!r} has no file to load")
    return str(record.path) + (f":{options}" if options else "")
