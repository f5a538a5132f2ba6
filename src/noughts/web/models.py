"""The JSON the arena's API reads and writes, as pydantic models (they make the OpenAPI schema).

Requests are validated here (types, lengths, ranges); what needs the game to check (a spec, a
move, an agent) is checked by the library and refused with a ``{"error": ...}`` answer.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from noughts.core.spec import MAX_SPEC_LENGTH

__all__ = [
    "AgentInfo",
    "AnalyseRequest",
    "Analysis",
    "BatchRequest",
    "BatchState",
    "BoardRequest",
    "CountRequest",
    "ErrorMessage",
    "EstimateRequest",
    "EvaluateRequest",
    "GameInfo",
    "GameState",
    "GameSummary",
    "MoveRequest",
    "NewGame",
    "Preset",
    "RecordText",
    "RecordWrite",
    "ReviewRequest",
    "SaveRequest",
    "SeatsRequest",
    "StartedBatch",
    "StepRequest",
    "SuggestRequest",
    "Suggestion",
    "TrainingRequest",
    "TurnRequest",
    "UndoRequest",
]


def _spec() -> Any:
    return Field(
        min_length=1,
        max_length=MAX_SPEC_LENGTH,  # a user's hypergraph writes its lines in the spec (issue 27)
        description="A game spec, e.g. tictactoe or misere(mnk(4,4,4)).",
    )


AGENT_HELP = (
    "human, or an agent: random, perfect, perfect:tie=random, minimax:depth=3, mcts:sims=500, "
    "pairing, saved:NAME (a saved agent by its registry name); any agent with seconds=S for its "
    "move time limit (the arena's default otherwise). Names are lower case, read exactly."
)


def _position() -> Any:
    return Field(default=None, max_length=4000, description="A position in the game's text form.")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class BoardRequest(_Strict):
    """A position to draw on the analysis board; ``last``: the move that led to it (marked)."""

    game: str = _spec()
    position: str | None = _position()
    last: str | None = Field(default=None, max_length=40, description="The move that led here, in notation.")


class StepRequest(_Strict):
    """One move from a position, in notation or as the key of the board slot clicked."""

    game: str = _spec()
    position: str | None = _position()
    move: str | None = Field(default=None, max_length=40)
    key: int | None = Field(default=None, ge=0, le=1_000_000, description="A board slot (a click).")


class RecordText(_Strict):
    """A game record, as text or JSON (one game or a collection)."""

    text: str = Field(max_length=1_000_000, description="The record's text (or its JSON).")


class RecordWrite(_Strict):
    """A record in its JSON form (see the README), to check and write."""

    record: dict[str, Any] = Field(description="The record: game, start, first, second, tags, moves.")
    as_json: bool = Field(default=False, description="Write the JSON collection instead of the text form.")


class ReviewRequest(_Strict):
    """A record whose main line to review against the solver, within ``max_seconds``."""

    record: dict[str, Any] = Field(description="The record, in its JSON form.")
    max_seconds: float | None = Field(default=None, gt=0, le=3600)


class ErrorMessage(BaseModel):
    """Every 4xx answer: one clear sentence."""

    error: str


class Preset(BaseModel):
    """A game from the sources, ready to pick, with the opponent that answers it in time."""

    spec: str
    name: str
    note: str
    opponent: str


class GameInfo(BaseModel):
    """A game's facts and its empty board, for the game picker."""

    game: str
    rules: str
    cells: int
    lines: int
    symmetries: int
    players: list[str]
    notation: str
    start: str
    position: str
    to_move: str | None
    result: str | None
    view: dict[str, Any]


class AgentInfo(BaseModel):
    """An agent a player slot can hold."""

    spec: str
    name: str
    note: str
    saved: bool = False


class NewGame(_Strict):
    """Start a game: the game, who plays first (x) and second (o), and where to start."""

    game: str = _spec()
    x: str = Field(default="human", min_length=1, max_length=100, description=AGENT_HELP)
    o: str = Field(default="perfect", min_length=1, max_length=100, description=AGENT_HELP)
    position: str | None = _position()


class MoveRequest(_Strict):
    """A person's move, in notation (``b2``, ``2:b2``, ``b2m``, ``!b2``, ``pass``), as an
    integer action, or as the key of the board slot clicked (one of the three). ``ply``, if given, is the number of moves the client has seen; a move sent
    against a stale game (another tab moved first) is refused.
    """

    move: str | None = Field(default=None, max_length=40)
    action: int | None = Field(default=None, ge=0, le=1_000_000)
    key: int | None = Field(default=None, ge=0, le=1_000_000, description="A board slot (a click).")
    ply: int | None = Field(default=None, ge=0, le=100_000)


class TurnRequest(_Strict):
    """Ask the agent whose turn it is to move. ``ply`` as in :class:`MoveRequest`."""

    ply: int | None = Field(default=None, ge=0, le=100_000)


class UndoRequest(_Strict):
    """Take back moves: ``plies`` of them, or (by default) back to the last position where a
    person was to move.
    """

    plies: int | None = Field(default=None, ge=1, le=100_000)


class GameSummary(BaseModel):
    """A recorded game in the list of games."""

    id: int
    game: str
    x: str
    o: str
    plies: int
    status: str
    result: str | None
    source: str | None = None
    created: str | None = None
    updated: str | None = None


class GameState(BaseModel):
    """A game as played so far: players, moves, position, board, and whose turn it is."""

    id: int
    game: str
    name: str = Field(default="", description="The game's human name (Tic-tac-toe), for the status line.")
    x: str
    o: str
    start: str
    position: str
    moves: list[str]
    movers: list[str] = Field(default_factory=list, description="Who made each move (x or o), as the moves.")
    ply: int
    to_move: str | None
    turn: str | None
    over: bool
    outcome: str | None
    result: str | None
    notation: str
    view: dict[str, Any]
    decision: dict[str, Any] | None = Field(
        default=None,
        description="The last agent move: by, move, proven (true: proven best; false: the perfect player's "
        "fallback, not proven; null: the agent claims nothing), note, seconds. Null after a person's move.",
    )
    error: str | None = Field(default=None, description="The last agent failure, until the game moves on.")
    owned: bool = Field(default=True, description="Whether changes to the game need its token.")
    token: str | None = Field(default=None, description="The game's token: given once, when the game starts.")


class SeatsRequest(_Strict):
    """Change who plays x or o (either or both): ``human`` or an agent spec."""

    x: str | None = Field(default=None, min_length=1, max_length=100, description=AGENT_HELP)
    o: str | None = Field(default=None, min_length=1, max_length=100, description=AGENT_HELP)


class AnalyseRequest(_Strict):
    """Solve a position exactly within a time budget."""

    game: str = _spec()
    position: str | None = _position()
    max_seconds: float | None = Field(default=None, gt=0, le=60, description="The solver's time budget.")


class Analysis(BaseModel):
    """The solver's verdict: the ``solve --json`` document plus the page's per-move view."""

    solved: bool
    reason: str | None = None
    solve: dict[str, Any] | None = None
    evaluation: dict[str, Any] | None = None


class CountRequest(_Strict):
    """Count a game's positions and games exactly within a time budget."""

    game: str = _spec()
    max_seconds: float | None = Field(default=None, gt=0, le=60)


class SuggestRequest(_Strict):
    """Ask an agent which move it would play."""

    game: str = _spec()
    position: str | None = _position()
    agent: str = Field(default="perfect", min_length=1, max_length=100, description=AGENT_HELP)
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)


class Suggestion(BaseModel):
    """An agent's choice, and whether it is proven best (as in a game's ``decision``)."""

    agent: str
    move: dict[str, Any]
    seconds: float
    proven: bool | None = None
    note: str = ""


class BatchRequest(_Strict):
    """Play many games between two agents, alternating nothing: x always moves first."""

    game: str = _spec()
    x: str = Field(min_length=1, max_length=100, description=AGENT_HELP)
    o: str = Field(min_length=1, max_length=100, description=AGENT_HELP)
    games: int = Field(default=100, ge=1, le=1_000_000)
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)


class BatchState(BaseModel):
    """A batch's progress: games played so far and their results."""

    id: int
    game: str
    x: str
    o: str
    games: int
    played: int
    first: int
    second: int
    draw: int
    status: str
    error: str | None
    seconds: float


class StartedBatch(BatchState):
    """A batch just started, with its token (given only here: stopping it needs it)."""

    token: str


class TrainingRequest(_Strict):
    """Train a learner by self-play for a number of episodes."""

    game: str = _spec()
    learner: str = Field(
        default="qlearning", min_length=1, max_length=40, description="td, qlearning or linear."
    )
    options: dict[str, str] = Field(
        default_factory=dict, max_length=20, description="The learner's options, e.g. {'alpha': '0.5'}."
    )
    episodes: int = Field(default=20_000, ge=100, le=10_000_000)


class SaveRequest(_Strict):
    """Save a run's agent to the registry under a name."""

    name: str = Field(min_length=1, max_length=40)


class EstimateRequest(_Strict):
    """Ask the minimax agent for its own score of every legal move (no solver)."""

    game: str = _spec()
    position: str | None = _position()
    depth: int = Field(default=2, ge=1, le=3, description="The minimax search depth.")


class EvaluateRequest(_Strict):
    """Ask the engine for its view of every legal move (no solver): a value and a label each."""

    game: str = _spec()
    position: str | None = _position()
    max_seconds: float | None = Field(
        default=None, gt=0, le=60, description="The engine's time budget (default 1 s)."
    )
