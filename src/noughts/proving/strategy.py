"""Strategy certificates from the proof engine's proofs.

A proof that the attacker reaches its goal is a strategy for it; a disproof is a strategy for
the defender (it keeps the attacker from the goal: a win's disproof is the defender's strategy
to at least draw). :func:`extract_strategy` writes that strategy down by playing out every
game it allows from the proof engine's table (:func:`noughts.proving._strategy_kernels.extract`;
positions the table no longer answers are proved again), and :func:`write_strategies` puts one
or two strategies into a certificate (:mod:`noughts.core.certificates` has the file format,
:mod:`noughts.proving.strategy_check` the checker and the claim's fields): a win needs the
winner's strategy, a draw both players' strategies to at least draw.

The certificate stores the player's move only where the checker cannot find it itself (a claim
that completes a line, the block of the opponent's only threat), and each position once under
the board's symmetries.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from noughts.core import Game, LimitExceeded, NoughtsError, Player, Position
from noughts.core.budget import Budget
from noughts.core.certificates import write_certificate
from noughts.core.errors import SpecError
from noughts.core.text import format_grid
from noughts.kernels.codes import DONE, ENTER
from noughts.proving.proof import WIN, Proof, ProofSearch

__all__ = [
    "MAX_GROUP",
    "Leaves",
    "Strategy",
    "certificate_group",
    "certificate_record",
    "dedup_rows",
    "extract_strategy",
    "write_strategies",
]

MAX_GROUP = 4096
"""Boards with a larger symmetry group are certified without symmetry."""


@dataclass(frozen=True)
class Leaves:
    """Where a strategy ends before the game does, at a position whose static premise the
    checker verifies (:mod:`noughts.proving.strategy_check` has the kinds and why each is sound):
    ``words`` (one row per leaf, as :class:`Strategy`'s), ``kinds`` (the checker's codes:
    :data:`noughts.proving.strategy_check.LEAF_KINDS`), ``mirror`` (a mirror leaf's row of
    ``mirrors``, the cell permutations; else -1), and a pairing leaf's pairs of cells: rows
    ``pair_start[i]`` to ``pair_start[i] + pair_count[i]`` of ``pairs``.
    """

    words: np.ndarray
    kinds: np.ndarray
    mirror: np.ndarray
    mirrors: np.ndarray
    pair_start: np.ndarray
    pair_count: np.ndarray
    pairs: np.ndarray


@dataclass(frozen=True)
class Strategy:
    """One player's strategy from ``position``, reaching ``goal`` (:data:`noughts.proving.proof.WIN`,
    ``DRAW``, or a score under cumulative rules): ``words`` (one row per recorded position: the
    first player's cells then the second's, as uint64 words) and ``moves`` (the player's move
    there). ``positions`` counts the positions played out, ``proofs`` those proved again.
    """

    position: Position
    player: Player
    goal: int
    words: np.ndarray
    moves: np.ndarray
    positions: int
    proofs: int
    seconds: float
    leaves: Leaves | None = None


def extract_strategy(
    search: ProofSearch,
    proof: Proof,
    budget: Budget | None = None,
    progress: Callable[[int], None] | None = None,
) -> Strategy:
    """The strategy ``proof`` (a result of ``search.prove``) stands for: the attacker's if it
    proved the goal, the defender's if it disproved it.
    """
    from noughts.proving import _strategy_kernels as X
    from noughts.proving import _tss_kernels as T
    from noughts.proving._dfpn_kernels import P_BOARD_SYMS

    started = time.perf_counter()
    game = search.game
    position = proof.position
    player = search.attacker if proof.proved else search.attacker.other
    goal = search.goal if proof.proved else 1 - search.goal
    board = game.board
    cells = board.num_cells
    w = max(1, (cells + 63) // 64)
    tables = board.tables
    own = np.full(cells, -1, dtype=np.int8)
    for p in (Player.FIRST, Player.SECOND):
        for c in board.cells_in(position.owned(p)):
            own[c] = int(p)
    cnt = np.zeros((tables.num_lines, 2), dtype=np.int32)
    on_lines = own[tables.line_cells]
    cnt[:, 0] = (on_lines == 0).sum(axis=1)
    cnt[:, 1] = (on_lines == 1).sum(axis=1)
    depth = cells + 2
    path = np.zeros(depth, dtype=np.int64)
    iters = np.zeros(depth, dtype=np.int64)
    seen = np.zeros((1 << 12, 2 * w), dtype=np.uint64)
    used = np.zeros(1 << 12, dtype=np.uint8)
    words = np.zeros((1 << 12, 2 * w), dtype=np.uint64)
    moves = np.zeros(1 << 12, dtype=np.int32)
    view = search.kernel_view()
    tss_depth = view.tss_depth
    tss = T.workspace(cells, max(1, tss_depth))
    state = np.zeros(X.NUM_X, dtype=np.int64)
    state[X.X_MODE] = ENTER
    state[X.X_HINT] = -1
    proofs = 0
    first_mark = game.marks(game.start().play(game.start().legal_moves()[0]))[0]
    marks = (first_mark, "o" if first_mark == "x" else "x")
    slice_nodes = 1 << 14
    if position.is_terminal():
        return Strategy(position, player, goal, words[:0], moves[:0], 0, 0, 0.0)
    extract: Any = X.extract  # a numba dispatcher: its signature is the kernel's
    dedup = dedup_rows(view.perms, certificate_group(game))
    while True:
        view = search.kernel_view()  # the table may have grown
        params = view.params.copy()
        params[P_BOARD_SYMS] = min(int(params[P_BOARD_SYMS]), dedup)
        status = extract(
            params,
            int(player),
            goal,
            tables.line_cells,
            tables.through,
            tables.nthrough,
            view.perms,
            view.inverse,
            *view.table,
            view.table_mask,
            own,
            cnt,
            int(position.to_move),
            path,
            iters,
            seen,
            used,
            words,
            moves,
            *tss,
            tss_depth,
            view.tss_nodes,
            state,
            slice_nodes,
        )
        if status == DONE:
            break
        if status == X.GROW_SEEN:
            bigger = np.zeros((2 * len(seen), 2 * w), dtype=np.uint64)
            bigger_used = np.zeros(2 * len(seen), dtype=np.uint8)
            X.rehash(seen, used, bigger, bigger_used)
            seen, used = bigger, bigger_used
            continue
        if status == X.GROW_RECORDS:
            words = np.concatenate([words, np.zeros_like(words)])
            moves = np.concatenate([moves, np.zeros_like(moves)])
            continue
        if status == X.BAD:
            raise NoughtsError(
                f"the proof of {game} does not hold up as a strategy (reason {int(state[X.X_REASON])}): "
                "this is a bug in the proof engine"
            )
        if status == X.NEED_PROOF:
            # asked of the cells as they stand (the search's own arrays; no Position is built)
            proved, hint = search.prove_cells(own)
            proofs += 1
            if proved != (player is search.attacker):
                here = _position_of(game, own, marks)
                raise NoughtsError(f"the proof engine contradicts itself at {here.text()}: this is a bug")
            if hint is None:
                # settled by a bound of the open lines: any move keeps it
                hint = int(np.flatnonzero(own < 0)[0])
            state[X.X_HINT] = hint
            continue
        if progress is not None:
            progress(int(state[X.X_NODES]))
        if budget is not None:
            budget.check(
                search.memory() + words.nbytes + seen.nbytes,
                f"{int(state[X.X_NODES]):,} positions of the strategy written out",
            )
    n = int(state[X.X_RECORDS])
    return Strategy(
        position,
        player,
        goal,
        words[:n].copy(),
        moves[:n].copy(),
        int(state[X.X_NODES]),
        proofs,
        time.perf_counter() - started,
    )


def _position_of(game: Game, own: np.ndarray, marks: tuple[str, str]) -> Position:
    chars = ["." if o < 0 else marks[o] for o in own]
    return game.parse(format_grid(game.board, chars))


def dedup_rows(perms: np.ndarray, group: np.ndarray | None) -> int:
    """How many of the proof's first symmetries ``perms`` (the identity first) the strategy
    writer may merge positions by: the longest prefix inside the certificate's ``group`` (None:
    the identity alone). A position skipped as the image of one met before must be one the
    checker finds under the certificate's group, or the certificate misses it.

    >>> ident, swap = [0, 1, 2], [2, 1, 0]
    >>> dedup_rows(np.array([ident, swap]), None), dedup_rows(np.array([ident, swap]), np.array([ident, swap]))
    (1, 2)
    >>> dedup_rows(np.array([ident, swap]), np.array([ident]))
    1
    """
    if group is None:
        return 1
    allowed = {np.asarray(row, dtype=np.int64).tobytes() for row in group}
    n = 0
    for row in perms:
        if np.asarray(row, dtype=np.int64).tobytes() not in allowed:
            break
        n += 1
    return max(1, n)


def certificate_group(game: Game) -> np.ndarray | None:
    """The symmetries that key the certificate's positions: the board's whole group (as the
    checker computes it), or None (no symmetry) where it is larger than :data:`MAX_GROUP`.
    """
    board = game.board
    if board.given_lines:  # a board given by its lines: its largest listed subgroup within the cap,
        # which holds the proof engine's (a prefix of the same chain); the checker takes the same
        return np.array(board.symmetries[: board.line_group.subgroup_size(MAX_GROUP)], dtype=np.int64)
    if board.symmetry_count > MAX_GROUP:
        return None
    try:
        return np.array(board.symmetries, dtype=np.int64)
    except (LimitExceeded, SpecError):
        return None


def _claim_part(game: Game, strategy: Strategy) -> dict[str, Any]:
    who = "first" if strategy.player is Player.FIRST else "second"
    if game.properties.is_scored:
        return {"player": who, "score": strategy.goal}
    # without draws (Maker-Breaker) not losing is winning
    wins = strategy.goal >= WIN or not game.properties.has_draws
    return {"player": who, "goal": "win" if wins else "draw"}


def certificate_record(
    path: Path | str,
    strategies: list[Strategy],
    value: Any = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """:func:`write_strategies`, then what a result reports of the certificate: its two files,
    digest, stored moves (and leaves, where it has them).
    """
    from noughts.core.certificates import certificate_paths

    header = write_strategies(path, strategies, value, extra)
    json_path, npz_path = certificate_paths(path)
    return {
        "file": str(json_path),
        "arrays": str(npz_path),
        "sha256": header["sha256"],
        "stored_moves": header["stored_moves"],
        **({"leaves": header["leaves"]} if "leaves" in header else {}),
    }


def write_strategies(
    path: Path | str,
    strategies: list[Strategy],
    value: Any = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Write a certificate holding ``strategies`` (one or two, of the same position) and the
    ``value`` they prove together (see :mod:`noughts.proving.strategy_check`); returns its header.
    """
    from noughts.proving import _strategy_kernels as X

    if not 1 <= len(strategies) <= 2:
        raise ValueError("a certificate holds one or two strategies")
    position = strategies[0].position
    game = position.game
    group = certificate_group(game)
    perms = group if group is not None else np.arange(game.board.num_cells, dtype=np.int64)[None, :]
    arrays: dict[str, np.ndarray] = {}
    stored = []
    leaf_counts: list[int] = []
    mirror_rows: dict[tuple[int, ...], int] = {}
    for i, strategy in enumerate(strategies):
        keys = np.zeros_like(strategy.words)
        out = np.zeros(len(strategy.moves), dtype=np.int64)
        X.canonical_records(strategy.words, strategy.moves.astype(np.int64), perms, keys, out)
        # one row per position (the first found), sorted by the words in order
        order = np.lexsort(keys.T[::-1]) if len(keys) else np.zeros(0, dtype=np.int64)
        keys, out = keys[order], out[order]
        if len(keys):
            fresh = np.ones(len(keys), dtype=bool)
            fresh[1:] = (keys[1:] != keys[:-1]).any(axis=1)
            keys, out = keys[fresh], out[fresh]
        dtype = np.uint8 if game.board.num_cells <= 256 else np.uint16
        arrays[f"keys{i}"] = np.ascontiguousarray(keys, dtype=np.uint64)
        arrays[f"moves{i}"] = out.astype(dtype)
        stored.append(len(keys))
        if strategy.leaves is not None and len(strategy.leaves.kinds):
            _leaf_arrays(strategy.leaves, i, perms, dtype, arrays, mirror_rows)
            leaf_counts.append(len(arrays[f"leafkeys{i}"]))
        else:
            leaf_counts.append(0)
    if mirror_rows:
        arrays["mirrors"] = np.array(list(mirror_rows), dtype=dtype)
    claim: dict[str, Any] = {"strategies": [_claim_part(game, s) for s in strategies]}
    if value is not None:
        claim["value"] = value
    header_extra = {
        "symmetry": "board" if group is not None else "none",
        "stored_moves": stored,
        "positions_played_out": [s.positions for s in strategies],
        **({"leaves": leaf_counts} if any(leaf_counts) else {}),
        **(extra or {}),
    }
    return write_certificate(path, "strategy", str(game), position.text(), claim, arrays, header_extra)


def _leaf_arrays(
    leaves: Leaves,
    i: int,
    perms: np.ndarray,
    dtype: type,
    arrays: dict[str, np.ndarray],
    mirror_rows: dict[tuple[int, ...], int],
) -> None:
    """Strategy ``i``'s leaves as the checker reads them: each position as its least image
    (``leafkeys{i}``, sorted, one row per position), its kind (``leafkinds{i}``), its argument
    (``leafargs{i}``: a mirror's row of ``mirrors``, conjugated into the image, or the start
    and count of its ``pairs{i}``, cells of the image).
    """
    from noughts.proving import _strategy_kernels as X

    n = len(leaves.kinds)
    keys = np.zeros_like(leaves.words)
    sym = np.zeros(n, dtype=np.int64)
    X.least_images(leaves.words, perms, keys, sym)
    order = np.lexsort(keys.T[::-1])
    fresh = np.ones(n, dtype=bool)
    fresh[1:] = (keys[order][1:] != keys[order][:-1]).any(axis=1)
    order = order[fresh]
    args = np.zeros((len(order), 2), dtype=np.int64)
    sym_of = sym[order]
    # mirror leaves (few): the mirror conjugated into the image, g s g^-1
    for row in np.flatnonzero(leaves.mirror[order] >= 0).tolist():
        g = perms[sym_of[row]]
        s = leaves.mirrors[int(leaves.mirror[order[row]])]
        conj = np.empty_like(s)
        conj[g] = g[s]
        args[row, 0] = mirror_rows.setdefault(tuple(int(c) for c in conj), len(mirror_rows))
    # pairing leaves (many): their pairs in key order, each cell mapped into the image
    counts = leaves.pair_count[order].astype(np.int64)
    starts = leaves.pair_start[order].astype(np.int64)
    total = int(counts.sum())
    if total:
        new_starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        owner = np.repeat(np.arange(len(order)), counts)
        rows = starts[owner] + (np.arange(total) - new_starts[owner])
        pairs = perms[sym_of[owner][:, None], leaves.pairs[rows]]
        paired = counts > 0
        args[paired, 0] = new_starts[paired]
        args[paired, 1] = counts[paired]
        arrays[f"pairs{i}"] = pairs.astype(dtype)
    arrays[f"leafkeys{i}"] = np.ascontiguousarray(keys[order], dtype=np.uint64)
    arrays[f"leafkinds{i}"] = leaves.kinds[order].astype(np.uint8)
    arrays[f"leafargs{i}"] = args.astype(np.int32)
