"""Checkpoints round-trip, load as agents everywhere an agent goes, and bad files are refused."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("mctx")

import jax

import noughts
from noughts.agents import make_agent
from noughts.arena.match import play_match
from noughts.core import NoughtsError
from noughts.neural.checkpoint import Checkpoint, flatten, init_params, load_checkpoint, save_checkpoint
from noughts.neural.env import Env
from noughts.neural.model import Model
from noughts.neural.net import NetConfig


def invoke(*args: str):  # the command as a user runs it (wide, colourless)
    from typer.testing import CliRunner

    from noughts.cli.app import app

    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})


def test_a_checkpoint_round_trips(tmp_path) -> None:
    game = noughts.game("misere(mnk(4,4,3))")
    config = NetConfig(width=8, blocks=1)
    params = init_params(config, Env(game), seed=3)
    info = {"games": 5, "note": "x"}
    path = save_checkpoint(Checkpoint("dqn", game, config, params, info, np.arange(3.0)), tmp_path / "c.json")
    back = load_checkpoint(path)
    assert (back.kind, back.game, back.config, back.info) == ("dqn", game, config, info)
    a, b = jax.tree_util.tree_leaves(params), jax.tree_util.tree_leaves(back.params)
    assert len(a) == len(b) > 4 and all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert np.array_equal(flatten(back.params), flatten(params))
    assert back.opt_state is not None and back.opt_state.tolist() == [0.0, 1.0, 2.0]
    assert sorted(np.load(path.with_suffix(".npz"), allow_pickle=False)) == ["optimizer", "weights"]


def test_the_weights_fit_every_board_and_respect_its_symmetry(tiny_run) -> None:
    out, _ = tiny_run
    ckpt = load_checkpoint(out)
    for spec in ("mnk(5,5,4)", "hypercube(3,3)"):  # the same weights read a bigger board, and a 3D one
        model = Model(noughts.game(spec), ckpt.config)
        logits, value = jax.jit(model.evaluate)(ckpt.params, model.env.init(2))
        assert logits.shape == (2, model.env.num_cells) and value.shape == (2,)
    game = noughts.game("tictactoe")
    model = Model(game, ckpt.config)
    p = game.parse("xo./.../...")
    images = [p, *game.symmetric_images(p)]
    assert len(set(images)) == 8  # no symmetry fixes this position
    logits, values = jax.jit(model.evaluate)(ckpt.params, model.env.encode(images))
    logits, values = np.asarray(logits), np.asarray(values)
    for i in range(1, len(images)):  # a symmetry of the board permutes the priors alike
        assert sorted(np.round(logits[i], 4)) == sorted(np.round(logits[0], 4))
        assert values[i] == pytest.approx(values[0], abs=1e-5)


def test_the_agent_plays_legal_moves_in_a_match(tiny_run) -> None:
    out, _ = tiny_run
    result = play_match("tictactoe", f"az:{out},sims=8", "random", games=4, seed=1)
    assert result.games == 4
    r = invoke("match", f"az:{out},sims=0", "random", "tictactoe", "--games", "2", "--no-record", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["games"] == 2
    plain = make_agent(str(out))  # the saved-agent registry loads it too, with the default search
    assert plain.name == "az:sims=32"
    timed = make_agent(f"az:{out},sims=4,seconds=5")
    assert timed.name.endswith("seconds=5")


def _rewrite(path, change):  # change the JSON document, keep it intact otherwise
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


def _rehash(path, arrays):  # write new arrays with a matching checksum
    npz = path.with_suffix(".npz")
    np.savez(npz, **arrays)
    _rewrite(path, lambda d: d.update(arrays_sha256=hashlib.sha256(npz.read_bytes()).hexdigest()))


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda p: p.with_suffix(".npz").write_bytes(b"PK\x03\x04junk"), "does not match the checksum"),
        (lambda p: _rewrite(p, lambda d: d["network"].update(width=17)), "do not fit its network"),
        (lambda p: _rewrite(p, lambda d: d["network"].update(blocks=0)), "blocks must be a whole number"),
        (lambda p: _rewrite(p, lambda d: d.update(network="big")), "'network' must name a linenet"),
        (lambda p: _rewrite(p, lambda d: d.update(game="cumulative(tictactoe)")), "claim games"),
        (lambda p: _rewrite(p, lambda d: d.update(version=99)), "format version 99"),
        (lambda p: p.write_text("{not json"), "not valid JSON"),
    ],
)
def test_bad_checkpoints_are_refused_with_one_message(tiny_out, damage, message) -> None:
    damage(tiny_out)
    with pytest.raises(NoughtsError, match=message):
        make_agent(f"az:{tiny_out}")
    r = invoke("match", f"az:{tiny_out}", "random", "tictactoe", "--games", "1", "--no-record")
    assert r.exit_code == 2 and "Traceback" not in r.output


def test_arrays_that_do_not_fit_are_refused(tiny_out) -> None:
    weights = np.load(tiny_out.with_suffix(".npz"))["weights"]
    _rehash(tiny_out, {"weights": weights[:-1]})
    with pytest.raises(NoughtsError, match="do not fit its network"):
        load_checkpoint(tiny_out)
    _rehash(tiny_out, {"weights": weights.astype(np.int64)})
    with pytest.raises(NoughtsError, match="do not fit its network"):
        load_checkpoint(tiny_out)
    _rehash(tiny_out, {"weights": np.where(np.arange(weights.size) == 5, np.nan, weights)})
    with pytest.raises(NoughtsError, match="not all finite"):
        load_checkpoint(tiny_out)
    _rehash(tiny_out, {"weights": weights, "extra": np.zeros(2)})
    with pytest.raises(NoughtsError, match="arrays other than weights"):
        load_checkpoint(tiny_out)
    _rehash(tiny_out, {"other": weights})
    with pytest.raises(NoughtsError, match="holds no weights"):
        load_checkpoint(tiny_out)


def test_agent_specs_are_checked(tiny_run) -> None:
    out, _ = tiny_run
    with pytest.raises(NoughtsError, match="name the checkpoint"):
        make_agent("az")
    with pytest.raises(NoughtsError, match="sims is 0"):
        make_agent(f"az:{out},sims=1")
    with pytest.raises(NoughtsError, match="of kind az, not dqn"):
        make_agent(f"dqn:{out}")
    with pytest.raises(NoughtsError, match=r"nowhere\.json: No such file"):
        make_agent("az:nowhere.json")
    with pytest.raises(NoughtsError, match="made for mnk\\(3,3,3\\)"):
        play_match("mnk(4,4,4)", f"az:{out}", "random", games=1, seed=0)


def test_jax_is_not_imported_by_the_rest(tiny_run) -> None:
    assert jax is not None  # (this process imported it; tests/test_architecture.py checks fresh ones)


def test_the_web_arena_takes_no_checkpoint_files() -> None:
    from noughts.web.engines import check_agent_spec
    from noughts.web.limits import Limits

    for spec in ("az:runs/az.json", "az:file=az", "dqn:file=x"):
        with pytest.raises(NoughtsError, match="file"):
            check_agent_spec(spec, Limits())
    with pytest.raises(NoughtsError, match="write key=value"):  # a bare name is no option either
        check_agent_spec("az:x.json,sims=4", Limits())
