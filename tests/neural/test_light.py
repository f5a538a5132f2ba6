"""The network in NumPy (noughts.neural.light) held to the JAX network it reads the weights of."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import noughts
from noughts.core import NoughtsError

pytest.importorskip("jax")
pytest.importorskip("mctx")

GAMES = [
    "tictactoe",
    "misere(mnk(4,4,4))",
    "maker_breaker(hypercube(3,3))",
    "notakto(boards=3)",
    "notakto(mnk(4,4,3),boards=2,misere=false)",
    "mnk(5,5,4)",
]


def _random_positions(game: noughts.Game, rng: np.random.Generator, n: int) -> list[noughts.Position]:
    out = []
    while len(out) < n:
        p = game.start()
        for _ in range(int(rng.integers(0, 2 * game.board.num_cells // 3))):
            if p.is_terminal():
                break
            moves = p.legal_moves()
            p = p.play(moves[int(rng.integers(len(moves)))])
        if not p.is_terminal():
            out.append(p)
    return out


def _params(game: noughts.Game, width: int, blocks: int, seed: int):  # type: ignore[no-untyped-def]
    """Fresh weights, shaken so that every bias and scale matters."""
    import jax

    from noughts.neural.checkpoint import init_params
    from noughts.neural.model import Model
    from noughts.neural.net import NetConfig

    model = Model(game, NetConfig(width, blocks))
    rng = np.random.default_rng(seed)
    params = init_params(model.config, model.env, seed)
    return model, jax.tree_util.tree_map(
        lambda a: a + 0.3 * rng.standard_normal(a.shape).astype(a.dtype), params
    )


def test_the_layout_is_flax_s() -> None:
    import jax

    from noughts.neural.light import param_layout

    for width, blocks in ((5, 2), (3, 11)):  # 11 blocks: _Block_10 sorts before _Block_2
        _, params = _params(noughts.game("tictactoe"), width, blocks, 0)
        leaves = jax.tree_util.tree_flatten_with_path(params)[0]
        names = ["/".join(str(k.key) for k in path[1:]) for path, _ in leaves]
        assert [(n, tuple(leaf.shape)) for n, (_, leaf) in zip(names, leaves, strict=True)] == param_layout(
            width, blocks
        )


@pytest.mark.parametrize("spec", GAMES)
def test_the_same_logits_and_values_as_the_jax_network(spec: str) -> None:
    from noughts.neural.checkpoint import flatten
    from noughts.neural.light import LightNet

    game = noughts.game(spec)
    model, params = _params(game, 6, 3, 1)
    positions = _random_positions(game, np.random.default_rng(7), 24)
    light = LightNet(game, 6, 3, flatten(params))
    obs = model.env.observation(model.env.encode(positions))
    assert np.array_equal(light.features(positions), np.asarray(obs))  # the same input
    logits, value = model.net.apply(params, obs, model.env.tables())
    mine_logits, mine_value = light.evaluate(positions)
    assert np.allclose(mine_logits, np.asarray(logits), atol=1e-4)
    assert np.allclose(mine_value, np.asarray(value), atol=1e-4)


def test_the_light_agent_plays_and_explains_as_the_jax_agent(tmp_path: Path) -> None:
    from noughts.neural.agents import NeuralAgent
    from noughts.neural.checkpoint import Checkpoint, save_checkpoint
    from noughts.neural.light import load_light

    game = noughts.game("mnk(4,4,4)")
    model, params = _params(game, 8, 2, 3)
    rng = np.random.default_rng(0)
    for kind in ("az", "dqn"):
        path = save_checkpoint(Checkpoint(kind, game, model.config, params), tmp_path / f"{kind}.json")
        light = load_light(path)
        heavy = NeuralAgent(Checkpoint(kind, game, model.config, params), 0)
        key = "q" if kind == "dqn" else "prior"
        for p in _random_positions(game, np.random.default_rng(5), 12):
            a, b = light.explain(p), heavy.explain(p)
            assert [m["move"] for m in a["moves"]] == [m["move"] for m in b["moves"]]
            assert np.allclose([m[key] for m in a["moves"]], [m[key] for m in b["moves"]], atol=2e-4)
            assert a["value"] == pytest.approx(b["value"], abs=2e-4)
            # the same move, up to cells the board's symmetries tie (the network is equivariant:
            # equal in exact arithmetic, so rounding picks one)
            scores = {m["move"]: m[key] for m in b["moves"]}
            for move in (game.format_move(light.choose(p, rng)), a["move"]):
                assert scores[move] >= max(scores.values()) - 2e-4
    with pytest.raises(NoughtsError, match="cannot play"):
        light.choose(noughts.game("tictactoe").start(), rng)


def test_damaged_checkpoints_are_refused(tmp_path: Path) -> None:
    from noughts.neural.checkpoint import Checkpoint, save_checkpoint
    from noughts.neural.light import LightNet, load_light

    game = noughts.game("tictactoe")
    model, params = _params(game, 4, 1, 0)
    path = save_checkpoint(Checkpoint("az", game, model.config, params), tmp_path / "az.json")
    meta = json.loads(path.read_text())
    meta["network"]["width"] = 5  # the weights no longer fit
    path.write_text(json.dumps(meta))
    with pytest.raises(NoughtsError):
        load_light(path)
    with pytest.raises(NoughtsError, match="do not fit"):
        LightNet(game, 4, 1, np.zeros(3, np.float32))
    with pytest.raises(NoughtsError, match="finite"):
        from noughts.neural.light import param_layout

        n = sum(int(np.prod(s)) for _, s in param_layout(4, 1))
        LightNet(game, 4, 1, np.full(n, np.nan, np.float32))
    with pytest.raises(NoughtsError, match="claim games"):
        LightNet(noughts.game("veto(tictactoe)"), 4, 1, np.zeros(1, np.float32))


def test_it_never_imports_jax(tmp_path: Path) -> None:
    from noughts.neural.checkpoint import Checkpoint, save_checkpoint

    game = noughts.game("tictactoe")
    model, params = _params(game, 4, 1, 0)
    path = save_checkpoint(Checkpoint("az", game, model.config, params), tmp_path / "az.json")
    code = (
        "import sys, numpy as np, noughts\n"
        "from noughts.neural.light import load_light\n"
        f"a = load_light({str(path)!r})\n"
        "m = a.choose(noughts.game('tictactoe').start(), np.random.default_rng(0))\n"
        "print(sorted(n for n in ('jax', 'flax', 'optax', 'mctx') if n in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
