"""The pairing agent: answers with the partner, falls back by its rule, never loses where its
pairing is sound."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import noughts
from noughts.agents import RandomAgent, make_agent
from noughts.agents.pairing import PairingAgent, from_options
from noughts.core import NoughtsError, Outcome, Player
from noughts.pairing.files import pairing_json
from noughts.pairing.matching import find_pairing


def play(game: noughts.Game, first: object, second: object, seed: int) -> noughts.Position:
    rng = np.random.default_rng(seed)
    p = game.start()
    while not p.is_terminal():
        agent = first if p.to_move is Player.FIRST else second
        p = p.play(agent.choose(p, rng))  # type: ignore[attr-defined]
    return p


@pytest.mark.parametrize("spec", ["mnk(5,5,5)", "mnk(6,6,6)"])
def test_second_player_pairing_never_loses_to_random(spec: str) -> None:
    game = noughts.game(spec)
    agent = make_agent("pairing")
    assert isinstance(agent, PairingAgent)
    for seed in range(15):
        end = play(game, RandomAgent(), agent, seed)
        assert end.outcome() is not Outcome.FIRST


def test_breaker_wins_4x4_maker_breaker_from_move_two() -> None:
    game = noughts.game("maker_breaker(mnk(4,4,4))")
    agent = PairingAgent()
    reasons = set()
    for seed in range(20):
        rng = np.random.default_rng(seed)
        p = game.start()
        while not p.is_terminal():
            if p.to_move is Player.FIRST:
                p = p.play(RandomAgent().choose(p, rng))
            else:
                p = p.play(agent.choose(p, rng))
                reasons.add(agent.last_reason)
        assert p.outcome() is Outcome.SECOND
    assert {"answer", "potential"} <= reasons  # no pairing on the empty board: potential first


def test_agent_answers_with_the_partner_from_a_file(tmp_path: Path) -> None:
    game = noughts.game("mnk(5,5,5)")
    pairing = find_pairing(game.start()).pairing
    assert pairing is not None
    path = tmp_path / "p.pairing"  # a spec ending in .json names a saved agent (agents/base.py)
    path.write_text(json.dumps(pairing_json(pairing)))
    agent = make_agent(f"pairing:file={path}")
    assert isinstance(agent, PairingAgent) and agent.fixed == pairing
    json_path = tmp_path / "p.json"
    json_path.write_text(path.read_text())
    assert from_options(file=str(json_path)).fixed == pairing
    partner = pairing.partner
    for a, b in pairing.pairs:
        p = game.start().play(a)
        assert agent.choose(p, np.random.default_rng(0)) == b
        assert partner[b] == a
    with pytest.raises(NoughtsError, match="not of"):
        agent.choose(noughts.game("mnk(6,6,6)").start().play(0), np.random.default_rng(0))
    with pytest.raises(NoughtsError, match="is to move"):
        agent.choose(game.start(), np.random.default_rng(0))


def test_agent_options() -> None:
    with pytest.raises(NoughtsError, match=r"unknown option.* depth for agent pairing: it takes file"):
        make_agent("pairing:depth=3")
    with pytest.raises(NoughtsError, match="cannot read pairing file"):
        make_agent("pairing:file=/nonexistent/p.pairing")
