"""AlphaZero self-play speed on tic-tac-toe: noughts against Pgx + mctx, the same network and search.

What is timed is one call of self-play, compiled, after a warm-up call (compiling is timed apart):

* **noughts**: ``AZTrainer._selfplay``, the function ``noughts train az`` runs each iteration:
  ``B`` games at once, one ``lax.scan`` of 9 moves over noughts' batched claim-game environment
  (finished games stand still), every move chosen by mctx's ``gumbel_muzero_policy`` of ``S``
  simulations with the environment itself as the recurrent function.
* **Pgx**: the self-play of Pgx's AlphaZero example (``examples/alphazero/train.py``), learned
  from it and written here for ``pgx.make("tic_tac_toe")``: a ``lax.scan`` of ``T`` steps over
  ``B`` games, each step the same ``gumbel_muzero_policy`` (root from the network, invalid
  actions masked, ``qtransform_completed_by_mix_value``, Gumbel scale 1) with a recurrent
  function that steps ``vmap(env.step)``, then ``vmap(auto_reset(env.step, env.init))``, so a
  finished game is replaced by a new one at once. ``T = 9`` by default: the same number of
  searches per call as noughts; the games it finishes are counted (``state.terminated``).
  ``--pgx-no-reset`` plays noughts' shape instead (9 steps, no reset: exactly ``B`` games).

**The same network**: noughts' ``LineNet`` with the same weights on both sides. Pgx's observation
(the mover's marks, the opponent's) is turned into noughts' four features per cell (mine,
theirs, empty, first player to move) inside Pgx's search; before timing, the bench plays the
same random games in both environments and checks that the two encodings are equal on every
position, so the network sees the same input (and gives the same output) on both sides. Same
``max_num_considered_actions`` (9), same batch, same simulations.

Interleaved: noughts, Pgx, noughts, Pgx ... ``--reps`` times each; medians and the ratio. Both
run in this one process on the same JAX (CPU unless JAX finds a GPU). Reported: games per second
(games finished per call / seconds), positions searched per second, compile seconds, peak RSS.

    python bench/neural_pgx.py --batch 64 --sims 16 --reps 7
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=64, help="games at once (noughts' default)")
    parser.add_argument("--sims", type=int, default=16, help="simulations per move (noughts' default)")
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--steps", type=int, default=9, help="Pgx: scan length (auto-reset)")
    parser.add_argument("--pgx-no-reset", action="store_true", help="Pgx without auto-reset (9 steps)")
    parser.add_argument("--width", type=int, default=32)
    parser.add_argument("--blocks", type=int, default=3)
    a = parser.parse_args()

    import jax
    import jax.numpy as jnp
    import mctx
    import numpy as np
    import pgx
    from pgx.experimental import auto_reset

    import noughts
    from noughts.neural.az import AZConfig, AZTrainer
    from noughts.neural.checkpoint import init_params
    from noughts.neural.model import NEG, Model
    from noughts.neural.net import NetConfig

    game = noughts.game("tictactoe")
    model = Model(game, NetConfig(a.width, a.blocks))
    env_n = model.env
    params = init_params(model.config, env_n, 0)
    trainer = AZTrainer(model, AZConfig(games=a.batch, sims=a.sims), params, 0)
    tables = env_n.tables()
    env = pgx.make("tic_tac_toe")

    def features(obs: jax.Array) -> jax.Array:
        """Pgx's (B, 3, 3, 2) observation as noughts' (B, 9, 4) features."""
        mine = obs[..., 0].reshape(obs.shape[0], 9)
        theirs = obs[..., 1].reshape(obs.shape[0], 9)
        empty = ~(mine | theirs)
        first = ((mine.sum(axis=1) + theirs.sum(axis=1)) % 2 == 0)[:, None] & jnp.ones_like(mine)
        return jnp.stack([mine, theirs, empty, first], axis=-1).astype(jnp.float32)

    def forward(p: Any, state: Any) -> tuple[jax.Array, jax.Array]:
        logits, value = model.net.apply(p, features(state.observation), tables)
        logits = logits - jnp.max(logits, axis=-1, keepdims=True)
        return jnp.where(state.legal_action_mask, logits, NEG), value

    def recurrent_fn(p: Any, rng: Any, action: jax.Array, state: Any) -> tuple[Any, Any]:
        del rng
        player = state.current_player
        state = jax.vmap(env.step)(state, action)
        logits, value = forward(p, state)
        reward = state.rewards[jnp.arange(state.rewards.shape[0]), player]
        value = jnp.where(state.terminated, 0.0, value)
        discount = jnp.where(state.terminated, 0.0, -1.0 * jnp.ones_like(value))
        return mctx.RecurrentFnOutput(
            reward=reward, discount=discount, prior_logits=logits, value=value
        ), state

    steps = 9 if a.pgx_no_reset else a.steps

    @jax.jit
    def pgx_selfplay(p: Any, key: jax.Array) -> tuple[jax.Array, ...]:
        def step(state: Any, key: jax.Array) -> tuple[Any, tuple[jax.Array, ...]]:
            key1, key2 = jax.random.split(key)
            logits, value = forward(p, state)
            root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=state)
            out = mctx.gumbel_muzero_policy(
                params=p,
                rng_key=key1,
                root=root,
                recurrent_fn=recurrent_fn,
                num_simulations=a.sims,
                invalid_actions=~state.legal_action_mask,
                max_num_considered_actions=9,
                qtransform=mctx.qtransform_completed_by_mix_value,
                gumbel_scale=1.0,
            )
            live = ~state.terminated
            if a.pgx_no_reset:
                state = jax.vmap(env.step)(state, out.action)
            else:
                keys = jax.random.split(key2, a.batch)
                state = jax.vmap(auto_reset(env.step, env.init))(state, out.action, keys)
            return state, (features(state.observation), out.action_weights, state.terminated & live, live)

        key, sub = jax.random.split(key)
        state = jax.vmap(env.init)(jax.random.split(sub, a.batch))
        _, data = jax.lax.scan(step, state, jax.random.split(key, steps))
        return data

    # the same input on both sides: random games played in both environments, compared
    rng = np.random.default_rng(0)
    for _ in range(20):
        ps = env.init(jax.random.PRNGKey(int(rng.integers(1 << 30))))
        ns = env_n.init(1)
        while not bool(ps.terminated):
            legal = np.flatnonzero(np.asarray(ps.legal_action_mask))
            assert (legal == np.flatnonzero(np.asarray(env_n.legal(ns)[0]))).all(), "legal moves differ"
            assert np.array_equal(
                np.asarray(features(ps.observation[None])), np.asarray(env_n.observation(ns))
            )
            move = int(rng.choice(legal))
            ps = env.step(ps, jnp.int32(move))
            ns = env_n.step(ns, jnp.array([move], jnp.int32))
        assert bool(ns.done[0]), "one environment ended the game, the other did not"

    key = jax.random.PRNGKey(0)

    def run_noughts(k: jax.Array) -> tuple[int, int]:
        *_, real, winner = trainer._selfplay(params, k)
        jax.block_until_ready(winner)
        return a.batch, int(np.asarray(real).sum())

    def run_pgx(k: jax.Array) -> tuple[int, int]:
        _, _, finished, live = pgx_selfplay(params, k)
        jax.block_until_ready(finished)
        return int(np.asarray(finished).sum()), int(np.asarray(live).sum())

    runners = {"noughts": run_noughts, "pgx": run_pgx}
    compile_s: dict[str, float] = {}
    for name, fn in runners.items():
        t = time.perf_counter()
        fn(key)
        compile_s[name] = time.perf_counter() - t
    times: dict[str, list[float]] = {n: [] for n in runners}
    games: dict[str, list[int]] = {n: [] for n in runners}
    positions: dict[str, list[int]] = {n: [] for n in runners}
    for _ in range(a.reps):
        for name, fn in runners.items():  # interleaved: noughts, pgx, noughts, pgx ...
            key, sub = jax.random.split(key)
            t = time.perf_counter()
            g, n = fn(sub)
            times[name].append(time.perf_counter() - t)
            games[name].append(g)
            positions[name].append(n)
    rate = {n: statistics.median(g / t for g, t in zip(games[n], times[n], strict=True)) for n in runners}
    pos = {n: statistics.median(g / t for g, t in zip(positions[n], times[n], strict=True)) for n in runners}
    print(f"# tic-tac-toe AlphaZero self-play, batch {a.batch}, {a.sims} simulations, LineNet width {a.width} "
          f"blocks {a.blocks}; Pgx {pgx.__version__} {'no reset' if a.pgx_no_reset else f'auto-reset, {steps} steps'}; "
          f"mctx {mctx.__version__}, JAX {jax.__version__} on {jax.default_backend()}; {a.reps} interleaved reps; "
          f"load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    print(
        "| self-play | games/s (median) | positions searched/s | s per call (median) | games per call | compile s |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for n in runners:
        print(f"| {n} | {rate[n]:,.0f} | {pos[n]:,.0f} | {statistics.median(times[n]):.3f} | "
              f"{statistics.median(games[n]):.0f} | {compile_s[n]:.1f} |")  # fmt: skip
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\nratio noughts / Pgx: games/s {rate['noughts'] / rate['pgx']:.2f}x, "
          f"positions/s {pos['noughts'] / pos['pgx']:.2f}x; peak RSS {peak:.0f} MB (both, one process)")  # fmt: skip


if __name__ == "__main__":
    main()
