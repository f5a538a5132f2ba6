"""Persistence: one SQLite file holds game records, match results, saved agents and runs.

>>> from noughts.store import Store
>>> store = Store(":memory:")
>>> gid = store.new_game("tictactoe", "human", "perfect", source="web")
>>> store.append_move(gid, "b2")
1
>>> store.game(gid).moves
['b2']
"""

from noughts.store.sqlite import (
    SCHEMA_VERSION,
    AgentRecord,
    GameRecord,
    GameResult,
    MatchRecord,
    RunRecord,
    Store,
    StoreError,
    default_path,
    project_path,
    store_path,
)

__all__ = [
    "SCHEMA_VERSION",
    "AgentRecord",
    "GameRecord",
    "GameResult",
    "MatchRecord",
    "RunRecord",
    "Store",
    "StoreError",
    "default_path",
    "project_path",
    "store_path",
]
