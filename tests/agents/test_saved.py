import json
import zipfile

import numpy as np
import pytest

import noughts
from noughts.agents import make_agent
from noughts.agents.saved import load_agent, load_arena_zip, save_agent
from noughts.agents.td import TDAgent
from noughts.core import NoughtsError
from noughts.exact.states import state_space
from noughts.learn.evaluation import initial_values


@pytest.fixture
def saved(tmp_path):
    game = noughts.game("cumulative(tictactoe)")
    space = state_space(game)
    v1, v2 = initial_values(space, "wtcd")
    path = save_agent(TDAgent(game, space, v1, v2, config={"init": "wtcd"}), tmp_path / "a.json")
    return path


def test_round_trip(saved):
    agent = load_agent(saved)
    again = make_agent(str(saved))
    assert isinstance(agent, TDAgent) and np.array_equal(agent.v1, again.v1)
    game = noughts.game("cumulative(tictactoe)")
    v1, _ = initial_values(state_space(game), "wtcd")
    assert np.array_equal(agent.v1, v1) and agent.config == {"init": "wtcd"}
    doc = json.loads(saved.read_text())
    assert doc["format"] == "noughts-agent" and doc["version"] == 1 and doc["kind"] == "td"
    assert doc["arrays"] == "a.npz"


def _edit(path, **changes):
    doc = json.loads(path.read_text())
    doc.update(changes)
    path.write_text(json.dumps(doc))


@pytest.mark.parametrize(
    "change, message",
    [
        ({"format": "pickle"}, "not a noughts agent"),
        ({"version": 99}, "format version 99"),
        ({"kind": "os"}, "unknown agent kind"),
        ({"arrays": "../../etc/passwd.npz"}, "plain file name"),
        ({"arrays": "other.npz"}, "missing"),
        ({"arrays_sha256": "0" * 64}, "checksum"),
        ({"game": "mnk(3,3,3)"}, "numbered differently"),
        ({"game": "nonsense((("}, "cannot load agent"),
        ({"positions": True}, "positions"),
    ],
)
def test_hostile_or_broken_files_get_one_clear_error(saved, change, message):
    _edit(saved, **change)
    with pytest.raises(NoughtsError, match=message):
        load_agent(saved)


def test_bad_json_and_bad_arrays(saved, tmp_path):
    bad = tmp_path / "b.json"
    bad.write_text("{not json")
    with pytest.raises(NoughtsError, match="not valid JSON"):
        load_agent(bad)
    bad.write_text("[" * 200_000 + "]" * 200_000)
    with pytest.raises(NoughtsError, match="nested too deeply"):
        load_agent(bad)
    bad.write_text("[1, 2]")
    with pytest.raises(NoughtsError, match="not an object"):
        load_agent(bad)
    with pytest.raises(NoughtsError, match="cannot load agent"):
        load_agent(tmp_path / "absent.json")
    # values out of range, with a matching checksum: the kind's validation catches it
    npz = saved.with_suffix(".npz")
    with np.load(npz) as d:
        arrays = {k: d[k] for k in d.files}
    arrays["v1"] = arrays["v1"] * 5
    np.savez(npz, **arrays)
    import hashlib

    _edit(saved, arrays_sha256=hashlib.sha256(npz.read_bytes()).hexdigest())
    with pytest.raises(NoughtsError, match=r"in \[-1, 1\]"):
        load_agent(saved)


def test_object_arrays_are_refused(saved):
    npz = saved.with_suffix(".npz")
    np.savez(npz, v1=np.array([object()], dtype=object), v2=np.zeros(3))
    import hashlib

    _edit(saved, arrays_sha256=hashlib.sha256(npz.read_bytes()).hexdigest())
    with pytest.raises(NoughtsError, match=r"cannot read|not numbers"):
        load_agent(saved)


def _arena_zip(path, table, grid=3):
    with zipfile.ZipFile(path, "w") as z:
        for name in ("agent1.json", "agent2.json"):
            z.writestr(
                name,
                json.dumps(
                    {
                        "q_table": table,
                        "epsilon": 0.05,
                        "lr": 0.2,
                        "gamma": 0.95,
                        "wins": 3,
                        "losses": 1,
                        "draws": 2,
                    }
                ),
            )
        z.writestr("config.json", json.dumps({"grid_size": grid, "win_length": 3, "lr1": 0.2}))
    return path


def test_arena_zip_import(tmp_path):
    snap = load_arena_zip(_arena_zip(tmp_path / "s.zip", {"[[0,0,0,0,1,0,0,0,0], [0,1]]": 0.742}))
    assert snap.grid_size == 3 and snap.win_length == 3 and len(snap.agents) == 2
    assert snap.agents[0].q == {((0, 0, 0, 0, 1, 0, 0, 0, 0), (0, 1)): 0.742}
    assert snap.agents[0].params == {"epsilon": 0.05, "lr": 0.2, "gamma": 0.95}
    assert snap.agents[1].record == {"wins": 3, "losses": 1, "draws": 2}


@pytest.mark.parametrize(
    "table, message",
    [
        ({"[[0,0,0], [0,1]]": 0.1}, "3x3 board"),
        ({"[[0,0,0,0,1,0,0,0,0], [1,1]]": 0.1}, "taken cell"),
        ({"[[0,0,0,0,1,0,0,0,0], [0,1]]": "high"}, "finite number"),
        ({"__import__('os')": 0.1}, "is not"),
    ],
)
def test_arena_zip_validation(tmp_path, table, message):
    with pytest.raises(NoughtsError, match=message):
        load_arena_zip(_arena_zip(tmp_path / "s.zip", table))


def test_arena_zip_missing_member_and_not_a_zip(tmp_path):
    p = tmp_path / "s.zip"
    with zipfile.ZipFile(p, "w") as z:
        z.writestr("agent1.json", "{}")
    with pytest.raises(NoughtsError, match=r"no agent2\.json"):
        load_arena_zip(p)
    p.write_text("hello")
    with pytest.raises(NoughtsError, match="not a zip"):
        load_arena_zip(p)
