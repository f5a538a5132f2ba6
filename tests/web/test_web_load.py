"""A load test on loopback: 200 games at once against ``noughts serve``, no move lost."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import numpy as np
import pytest
from web_cases import ServerProcess, free_port

from noughts.store import Store

GAMES = 200


async def _play(client: httpx.AsyncClient, seed: int) -> tuple[int, list[str], str]:
    """One person (random legal moves) against the perfect player, to the end; a busy arena
    (429) is asked again after its Retry-After, as a client should.
    """
    rng = np.random.default_rng(seed)
    r = await client.post("/api/games", json={"game": "tictactoe", "x": "human", "o": "perfect"})
    assert r.status_code == 201, r.text
    s = r.json()
    headers = {"X-Game-Token": s["token"]}
    while not s["over"]:
        if s["turn"] == "human":
            legal = s["view"]["moves"]
            pick = legal[int(rng.integers(len(legal)))]
            r = await client.post(
                f"/api/games/{s['id']}/move",
                json={"action": pick["action"], "ply": s["ply"]},
                headers=headers,
            )
        else:
            r = await client.post(f"/api/games/{s['id']}/turn", json={"ply": s["ply"]}, headers=headers)
            if r.status_code == 429:
                await asyncio.sleep(float(r.headers["Retry-After"]) * rng.random())
                continue
        assert r.status_code == 200, r.text
        s = r.json()
    return s["id"], s["moves"], s["outcome"]


async def _all(url: str) -> list[tuple[int, list[str], str]]:
    limits = httpx.Limits(max_connections=GAMES, max_keepalive_connections=GAMES)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=60) as client:
        return await asyncio.wait_for(asyncio.gather(*(_play(client, i) for i in range(GAMES))), 240)


@pytest.mark.slow
def test_200_concurrent_games_lose_no_move(tmp_path: Path) -> None:
    db = tmp_path / "load.db"
    # 200 people, each of whom would have an address of their own (one client may run 8 tasks)
    server = ServerProcess(db, free_port(), "--per-client", "1000")
    server.start()
    try:
        results = asyncio.run(_all(server.url))
    finally:
        server.kill()
    assert len({gid for gid, _, _ in results}) == GAMES
    store = Store(db)
    for gid, moves, outcome in results:
        record = store.game(gid)
        assert record.moves == moves and record.status == "finished" and record.outcome == outcome
        assert outcome in ("second", "draw")  # the perfect player never loses
    assert len(store.games(source="web", limit=10 * GAMES)) == GAMES
