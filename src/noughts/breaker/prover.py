"""The Breaker prover: can one side stop the other from completing a line? With a certificate.

:func:`prove_breaker` answers the question of :mod:`noughts.breaker.question` for any board
noughts builds (past the playing limit too, through :func:`noughts.core.registry.hypergraph`):
Breaker's replies are searched (best-first, df-pn) until Breaker has a *pairing* (pairs of free
cells, every line Maker could still complete holding one: 002 §3, generalised to lines that
overlap, :mod:`noughts.breaker.cover`), and every Maker move is answered, up to the symmetries
of the position and the *zones* of earlier answers (a proof leaves the cells outside its zone to
Maker, so the Maker moves there need no search of their own). The kernel is
:mod:`noughts.breaker._kernels`; :mod:`noughts.breaker.reference` is the plain
reference the tests hold it to.

**What a proof means.**

* ``maker_breaker(...)`` games: Breaker wins. A disproof: Maker wins.
* standard games (Maker the first player by default): under the game's own rules the first
  player cannot win. From the empty board the second player cannot win either (strategy
  stealing: an extra cell never hurts, so a second-player win would give the first player one;
  Beck 2008; 002 §2.4, Observation 3), so the game is a **draw**: the result says which
  argument it used. From another position a draw needs both sides' proofs
  (:func:`prove_draw` runs both).
* ``rules="maker_breaker"`` on a standard board asks the stronger question where Breaker never
  uses its own lines; its proof implies the standard one (Observation 2), its disproof does not
  (``mnk(5,5,4)``: Maker wins the Maker-Breaker game; the standard game is a draw).

Budgets: wall and CPU seconds and memory (:class:`noughts.core.Budget`), checked between
slices of :data:`SLICE_NODES` nodes; over budget, ``LimitExceeded`` says how far the search got.
``progress`` is called after every slice with a :class:`Progress`. A proof can be written as a
certificate (:mod:`noughts.breaker.certificate`) that a checker sharing no code with
the search verifies.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from noughts.breaker.question import question
from noughts.breaker.search import (
    SLICE_NODES,
    BreakerProver,
    BreakerResult,
    Progress,
    ProofStore,
    argument_for,
)
from noughts.core import Budget, Game, NoughtsError, Player, Position, Rule

__all__ = [
    "SLICE_NODES",
    "BreakerProver",
    "BreakerResult",
    "DrawResult",
    "Progress",
    "ProofStore",
    "prove_breaker",
    "prove_draw",
]


def prove_breaker(
    game: Game | str,
    position: Position | str | None = None,
    *,
    breaker: Player | str | None = None,
    rules: str | None = None,
    budget: Budget | None = None,
    progress: Callable[[Progress], None] | None = None,
    certificate: str | None = None,
    workers: int | None = 1,
    address: str | None = None,
    record: bool | None = None,
) -> BreakerResult:
    """Prove (or disprove) that Breaker stops Maker (module docstring).

    ``game``: a game or a spec (built past the playing limit if need be); ``position``: a
    position or its text (the start by default); ``breaker``: the breaking side of a standard
    game (``"first"``/``"second"``, default second); ``rules``: ``"maker_breaker"`` or
    ``"standard"`` (default: the game's own). ``certificate``: write the proof's certificate
    there (``.json`` and ``.npz``). ``workers``/``address``: split the proof by Maker's first
    moves over :mod:`noughts.parallel` (1: in this process).

    >>> prove_breaker("mnk(6,6,5)").describe()
    'proved: mnk(6,6,5) is a draw (a Breaker search with pairing leaves (the first player cannot win) and strategy stealing (the second player cannot win))'
    """
    from noughts.core.registry import hypergraph

    g = hypergraph(game) if isinstance(game, str) else game
    pos = None if position is None else (g.parse(position) if isinstance(position, str) else position)
    side = _side(breaker)
    q = question(g, pos, breaker=side, rules=rules)
    if record is None:
        record = certificate is not None
    started = time.perf_counter()
    if (workers is not None and workers != 1) or address is not None:
        from noughts.breaker.parallel import prove_parallel

        result = prove_parallel(
            q, budget=budget, progress=progress, record=record, workers=workers, address=address
        )
    else:
        prover = BreakerProver(q, budget=budget, progress=progress, record=record)
        code = prover.run()
        K = prover.K
        proved = code == K.PROVED
        s = prover.stats
        argument, value = argument_for(q, proved, int(s[K.S_NODES]) == 1 and proved)
        result = BreakerResult(
            question=q,
            proved=proved,
            argument=argument,
            value=value,
            nodes=int(s[K.S_NODES]),
            pairings=int(s[K.S_PAIRINGS]),
            paired=int(s[K.S_PAIRED]),
            covered=int(s[K.S_COVERED]),
            max_depth=int(s[K.S_MAX_DEPTH]),
            seconds=time.perf_counter() - started,
            zone=prover.zone(),
            store=prover.store() if proved else None,
        )
    if certificate is not None and result.proved:
        assert result.store is not None
        result.certificate, result.digest = write_certificate(certificate, result)
    result.seconds = time.perf_counter() - started
    return result


def certificate_arrays(store: ProofStore) -> tuple[dict[str, np.ndarray], int]:
    """The nodes of the store reached from its root, renumbered, as the certificate's arrays
    (:mod:`noughts.breaker.certificate`), and the root's new number.
    """
    K_IMAGE, K_BREAKER, K_MAKER = 4, 2, 3
    order: list[int] = []
    number: dict[int, int] = {}
    stack = [store.root]
    while stack:
        i = stack.pop()
        if i in number:
            continue
        number[i] = len(order)
        order.append(i)
        kind = int(store.kinds[i])
        if kind == K_BREAKER:
            stack.append(int(store.b[i]))
        elif kind == K_MAKER:
            lo, n = int(store.a[i]), int(store.b[i])
            stack.extend(int(store.branches[t, 1]) for t in range(lo, lo + n))
        elif kind == K_IMAGE:
            stack.append(int(store.a[i]))
    syms: dict[int, int] = {}
    kinds = np.zeros(len(order), dtype=np.int8)
    a = np.zeros(len(order), dtype=np.int64)
    b = np.zeros(len(order), dtype=np.int64)
    cells: list[int] = []
    branches: list[tuple[int, int]] = []
    for new, i in enumerate(order):
        kind = int(store.kinds[i])
        kinds[new] = kind
        if kind in (0, 1):  # a leaf's cells
            lo, n = int(store.a[i]), int(store.b[i])
            a[new], b[new] = len(cells), n
            cells.extend(int(c) for c in store.cells[lo : lo + n])
        elif kind == K_BREAKER:
            a[new], b[new] = int(store.a[i]), number[int(store.b[i])]
        elif kind == K_MAKER:
            lo, n = int(store.a[i]), int(store.b[i])
            a[new], b[new] = len(branches), n
            branches.extend(
                (int(store.branches[t, 0]), number[int(store.branches[t, 1])]) for t in range(lo, lo + n)
            )
        else:
            s = int(store.b[i])
            a[new], b[new] = number[int(store.a[i])], syms.setdefault(s, len(syms))
    perms = np.zeros((len(syms), store.perms.shape[1]), dtype=np.int32)
    for s, j in syms.items():
        perms[j] = store.perms[s]
    arrays: dict[str, np.ndarray] = {
        "kind": kinds,
        "a": a,
        "b": b,
        "cells": np.array(cells, dtype=np.int32),
        "branches": np.array(branches, dtype=np.int32).reshape(len(branches), 2),
        "perms": perms,
    }
    return arrays, number[store.root]


def write_certificate(path: str | Path, result: BreakerResult) -> tuple[str, str]:
    """Write ``PATH.json`` and ``PATH.npz`` for a proved result; returns the header's path and
    the arrays' SHA-256.
    """
    import hashlib
    import json

    from noughts.breaker.certificate import FORMAT, KIND, VERSION

    assert result.store is not None and result.proved
    q = result.question
    arrays, root = certificate_arrays(result.store)
    path = Path(path)
    json_path = path if path.suffix == ".json" else path.with_suffix(".json")
    npz_path = json_path.with_suffix(".npz")
    header = {
        "format": FORMAT,
        "version": VERSION,
        "kind": KIND,
        "game": str(q.game),
        "position": q.position.text(),
        "claim": {
            "rules": q.rules,
            "maker": q.maker.name.lower(),
            "breaker": q.breaker.name.lower(),
            "statement": result.claim,
            "value": result.value,
            "argument": result.argument,
        },
        "root": root,
        "nodes": int(arrays["kind"].shape[0]),
        "pairing_leaves": int(np.sum(arrays["kind"] == 0)),
        "maker_nodes": int(np.sum(arrays["kind"] == 3)),
        "search": {
            "nodes": result.nodes,
            "seconds": round(result.seconds, 3),
            "workers": result.workers,
        },
    }
    try:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(npz_path, **arrays)  # type: ignore[arg-type]
        digest = hashlib.sha256(npz_path.read_bytes()).hexdigest()
        header["arrays"] = npz_path.name
        header["sha256"] = digest
        json_path.write_text(json.dumps(header, indent=2) + "\n", encoding="utf-8")
    except OSError as error:
        raise NoughtsError(f"cannot write the certificate {json_path}: {error.strerror or error}") from None
    return str(json_path), digest


@dataclass
class DrawResult:
    """What :func:`prove_draw` found: ``draw`` (True proved, False a side can force a win),
    the argument, and the Breaker results it rests on (one with strategy stealing, else two).
    """

    game: Game
    position: Position
    draw: bool
    argument: str
    parts: list[BreakerResult]
    seconds: float

    def describe(self) -> str:
        if self.draw:
            return f"proved: {self.position.text()!r} of {self.game} is a draw ({self.argument})"
        return f"not a draw: {self.argument}"

    def to_json(self) -> dict[str, Any]:
        """The ``prove draw --json`` document."""
        return {
            "game": str(self.game),
            "position": self.position.text(),
            "draw": self.draw,
            "argument": self.argument,
            "parts": [p.to_json() for p in self.parts],
            "seconds": round(self.seconds, 3),
        }


def prove_draw(
    game: Game | str,
    position: Position | str | None = None,
    *,
    budget: Budget | None = None,
    progress: Callable[[Progress], None] | None = None,
    certificate: str | None = None,
    workers: int | None = 1,
    address: str | None = None,
) -> DrawResult:
    """Prove that a standard game is a draw from ``position``: neither side can force a win.

    From the empty board one Breaker proof suffices (the second player stops the first) with
    strategy stealing (the second player cannot win). Elsewhere both sides' Breaker proofs are
    needed (each stops the other); ``certificate`` then names two files, ``STEM-first.json``
    (the second player stops the first) and ``STEM-second.json``. A disproof of either means
    that side can force a win: not a draw.
    """
    from noughts.core.registry import hypergraph

    started = time.perf_counter()
    g = hypergraph(game) if isinstance(game, str) else game
    if g.claim_rule is not Rule.STANDARD:
        raise NoughtsError(f"a draw is a result of standard games; {g} has none (try prove breaker)")
    pos = g.start() if position is None else (g.parse(position) if isinstance(position, str) else position)
    empty = pos.occupied() == 0
    stem = None if certificate is None else Path(certificate)
    if stem is not None and stem.suffix == ".json":
        stem = stem.with_suffix("")
    parts: list[BreakerResult] = []
    sides = (Player.SECOND,) if empty else (Player.SECOND, Player.FIRST)
    for breaker in sides:
        cert = None
        if stem is not None:
            cert = str(stem) if empty else f"{stem}-{breaker.other.name.lower()}.json"
        r = prove_breaker(
            g,
            pos,
            breaker=breaker,
            rules="standard",
            budget=budget,
            progress=progress,
            certificate=cert,
            workers=workers,
            address=address,
        )
        parts.append(r)
        if not r.proved:
            who = g.player_label(breaker.other)
            return DrawResult(
                g, pos, False, f"{who} can force a win ({r.describe()})", parts, time.perf_counter() - started
            )
    if empty:
        argument = parts[0].argument
    else:
        argument = "each side stops the other from completing a line first (two Breaker searches with pairing leaves)"
    return DrawResult(g, pos, True, argument, parts, time.perf_counter() - started)


def _side(breaker: Player | str | None) -> Player | None:
    if breaker is None or isinstance(breaker, Player):
        return breaker
    key = str(breaker).strip().lower()
    if key not in ("first", "second"):
        raise NoughtsError(f"the breaking side is 'first' or 'second', not {breaker!r}")
    return Player.FIRST if key == "first" else Player.SECOND
