"""Observations for learning code: a position as feature planes, seen by one player.

An observation is a float32 array of shape ``(*spatial, planes)`` (channels last, as
PettingZoo's classic board games have it). ``spatial`` is the board's grid (``board.grid``: 3x3
for tic-tac-toe, 3x3x3 for ``hypercube(3,3)`` and for Otrio, whose third axis is the ring
size), with a leading axis of boards for Notakto; a board of points without coordinates (a
user's hypergraph written without ``at=``, ``board.placed`` false) has one axis over its points. Each plane has a name
(:attr:`ObservationEncoder.plane_names`):

* ``own``, ``opponent``: the observer's cells and the other player's (claim games, Otrio,
  veto). Who owns which cell is by turn order, so Maker-Breaker with Breaker first works too.
* ``x`` and ``dead`` (Notakto, where both players draw ``x``): the marks, and whole boards that
  are dead (hold a line or are full).
* ``on_board``: 1 on grid points that are cells (only for ``shape`` boards, which have holes).
* ``vetoed`` (veto rules): 1 on the cell forbidden for the claim that follows; ``veto_step``:
  all 1 while a veto (or pass) is due; ``passed``: all 1 while a claim follows a pass.
* ``own_score``, ``opponent_score`` (cumulative rules): the lines each side owns so far, on
  every cell (the bound of the space is the number of lines).
* ``lifetime`` (``forget``, ``vanishing``): on each mark, the plies it has left divided by the
  longest a mark lives (the newest mark is near 1, the next to leave smallest); ``leaving``: 1 on
  the mark that leaves at the end of the next move (:meth:`Game.lifetimes`,
  :meth:`Game.leaving`).
* ``own_in_hand``, ``opponent_in_hand`` (``morris``): the marks each side has still to place,
  on every cell (bounded by ``pieces``).
* ``is_first``: all 1 when the observer is the first player (who moved first in this game;
  under Maker-Breaker that says the role).

Everything here is read from the public position API (the cells each player owns, the veto
step, the boards' marks) and from what the game declares (``layout``, ``has_veto_step``,
``properties``); the tests check the planes against ``game.marks(position)`` and
``position.score()``.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from noughts.core import FadingMarks, Game, MovingPieces, NoughtsError, Player, Position

__all__ = ["ObservationEncoder"]


class ObservationEncoder:
    """Encodes the positions of one game as planes; see the module docstring.

    ``shape``, ``plane_names`` and ``high`` (the largest value of each plane) describe the
    array; ``encode(position, player)`` makes one.
    """

    def __init__(self, game: Game):
        self._boards = game.layout.boards  # several boards of one mark (Notakto), or None
        if game.line_rule is None and self._boards is None:
            raise NoughtsError(f"no observation encoding for {game} ({type(game).__name__})")
        self.game = game
        board = game.board
        self._scored = game.properties.is_scored
        grid = board.grid
        # flat index of each cell's grid point (row-major over the grid)
        strides = [math.prod(grid[i + 1 :]) for i in range(len(grid))]
        coords = board.coords
        if not board.placed:  # points without coordinates: one axis over the points, in their order
            grid, strides, coords = (board.num_cells,), [1], tuple((c,) for c in range(board.num_cells))
        self._points = np.array(
            [sum(c * s for c, s in zip(coord, strides, strict=True)) for coord in coords],
            dtype=np.int64,
        )
        self._grid_size = math.prod(grid)
        self._holes = board.num_cells < self._grid_size
        self._cell_bits = [1 << c for c in range(board.num_cells)]
        names: list[str]
        if self._boards is not None:
            names = ["x", "dead"]
            self.shape: tuple[int, ...] = (self._boards, *grid, 0)
        else:
            names = ["own", "opponent"]
            self.shape = (*grid, 0)
        if self._holes:
            names.append("on_board")
        if game.has_veto_step:
            names += ["vetoed", "veto_step", "passed"]
        if self._scored:
            names += ["own_score", "opponent_score"]
        if isinstance(game.loop, FadingMarks):
            names += ["lifetime", "leaving"]
        if isinstance(game.loop, MovingPieces):
            names += ["own_in_hand", "opponent_in_hand"]
        names.append("is_first")
        self.plane_names: tuple[str, ...] = tuple(names)
        self.shape = (*self.shape[:-1], len(names))
        lines = len(board.lines)
        pieces = float(game.loop.pieces) if isinstance(game.loop, MovingPieces) else 1.0
        self.high = np.array(
            [
                float(lines) if n.endswith("_score") else pieces if n.endswith("_in_hand") else 1.0
                for n in names
            ],
            dtype=np.float32,
        )
        self._on_board = np.zeros(self._grid_size, dtype=np.float32)
        self._on_board[self._points] = 1.0

    @property
    def num_planes(self) -> int:
        """How many planes an observation has (its last axis)."""
        return len(self.plane_names)

    def _cells(self, bits: int) -> npt.NDArray[np.float32]:
        """A bit mask of cells as one flat plane over the grid."""
        plane = np.zeros(self._grid_size, dtype=np.float32)
        cells = self.game.board.cells_in(bits)
        plane[self._points[cells]] = 1.0
        return plane

    def encode(self, position: Position, player: Player) -> npt.NDArray[np.float32]:
        """The planes of ``position`` as ``player`` sees it (any player, to move or not)."""
        game = self.game
        if position.game != game:
            raise NoughtsError(f"the position is one of {position.game}, not of {game}")
        player = Player(player)
        planes: list[npt.NDArray[np.float32]] = []
        if self._boards is not None:
            return self._encode_notakto(position, player)
        masks = position.cell_masks()
        planes.append(self._cells(masks[player]))
        planes.append(self._cells(masks[player.other]))
        if self._holes:
            planes.append(self._on_board)
        if game.loop is not None:
            return self._encode_loopy(game, position, player, planes)
        if game.has_veto_step:
            running = position.outcome() is None
            forbidden = game.forbidden_cell(position) if running else None
            at_veto = game.is_veto_step(position)
            vetoed = np.zeros(self._grid_size, dtype=np.float32)
            if forbidden is not None:
                vetoed[self._points[forbidden]] = 1.0
            planes.append(vetoed)
            planes.append(np.full(self._grid_size, float(at_veto), dtype=np.float32))
            passed = running and not at_veto and forbidden is None  # a claim follows a pass
            planes.append(np.full(self._grid_size, float(passed), dtype=np.float32))
        if self._scored:
            score = position.score()
            assert score is not None
            planes.append(np.full(self._grid_size, float(score[player]), dtype=np.float32))
            planes.append(np.full(self._grid_size, float(score[player.other]), dtype=np.float32))
        planes.append(np.full(self._grid_size, float(player is Player.FIRST), dtype=np.float32))
        return np.stack(planes, axis=-1).reshape(self.shape)

    def _encode_loopy(
        self,
        game: Game,
        position: Position,
        player: Player,
        planes: list[npt.NDArray[np.float32]],
    ) -> npt.NDArray[np.float32]:
        if isinstance(game.loop, FadingMarks):
            life = np.zeros(self._grid_size, dtype=np.float32)
            for cell, left in game.lifetimes(position).items():
                life[self._points[cell]] = max(left, 0) / game.loop.lifetime
            planes.append(life)
            leaving = np.zeros(self._grid_size, dtype=np.float32)
            going = game.leaving(position)
            if going is not None:
                leaving[self._points[going]] = 1.0
            planes.append(leaving)
        else:
            for p in (player, player.other):
                planes.append(np.full(self._grid_size, float(game.in_hand(position, p)), dtype=np.float32))
        planes.append(np.full(self._grid_size, float(player is Player.FIRST), dtype=np.float32))
        return np.stack(planes, axis=-1).reshape(self.shape)

    def _encode_notakto(self, position: Position, player: Player) -> npt.NDArray[np.float32]:
        game = position.game
        marks = game.board_marks(position)
        live = set(game.live_boards(position))
        out = np.zeros((len(marks), self._grid_size, self.num_planes), dtype=np.float32)
        names = self.plane_names
        for b, bits in enumerate(marks):
            out[b, :, 0] = self._cells(bits)
            out[b, :, 1] = float(b not in live)
            if self._holes:
                out[b, :, names.index("on_board")] = self._on_board
        out[:, :, -1] = float(player is Player.FIRST)
        return out.reshape(self.shape)
