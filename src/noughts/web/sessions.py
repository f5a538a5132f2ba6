"""Games in play in the arena, recorded move by move in the store.

The store is the record: a game is written when it starts and every move when it is made
(:meth:`noughts.store.Store.append_move` commits at once), so a server that stops loses nothing
and :meth:`GameService.get` reopens any game by replaying its recorded moves. Live games are
kept in memory too (the positions along the game, so undo is free), each with a lock, so two
requests on one game are served one after the other and neither move is lost.

A game that need not end (marks vanish or move) between two agents stops after the game's
``properties.truncation`` moves, recorded as a draw by the move cap; a person at the board plays
on as long as they like.
**Ownership.** A game is created with an unguessable token (returned once, with the new game;
only its SHA-256 is recorded). Anyone may watch a game; moving, undoing, asking its agent to
move and changing its seats need the token (:class:`NotOwner`, HTTP 403, otherwise). Games
imported here get a token for the importer; games played at the terminal (``noughts play``)
have the token it printed; a game recorded without a token (imported by ``noughts games
import``, or recorded before tokens) can be watched by anyone and played by no one.

**Games that cannot die.** An agent's move is made in a worker process under the agent's move
time limit, without holding the game's lock: a person may undo or change a seat meanwhile (the
late move is then dropped, :class:`StaleGame`). When an agent fails (out of time, out of memory,
a saved agent that cannot play this game) the game records the error and stays as it was: undo
works, and any seat can be handed to a person or to another agent at any time.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import noughts
from noughts.core import Game, LimitExceeded, Move, NotationError, NoughtsError, Outcome, Player, Position
from noughts.record.store import token_hash as store_token_hash
from noughts.store import GameRecord, Store, StoreError
from noughts.web.boards import board_view, move_at_slot, move_info
from noughts.web.engines import HUMAN, AgentCatalogue
from noughts.web.limits import Limits
from noughts.web.records import game_name
from noughts.web.specs import GAMES, check_game
from noughts.web.workers import Busy, WorkerPool

__all__ = ["GameNotFound", "GameService", "LiveGame", "NotOwner", "StaleGame", "check_game"]


LISTED_SOURCES = ("web", "play", "import", "web-import")
"""The games the Games page lists: played here, at the terminal (``noughts play``), imported
(``noughts games import``, the analysis board's Save); not the games of matches and batches.
"""


class GameNotFound(NoughtsError):
    """No game (or batch, or job) has the id a request names."""


class StaleGame(NoughtsError):
    """A move sent against an older state of a game than the one recorded (another client moved)."""


class NotOwner(NoughtsError):
    """A change asked of a game without its token: watching is for everyone, playing for its owner."""


def token_hash(token: str) -> str:
    """What the store keeps of a game's token (:func:`noughts.record.store.token_hash`)."""
    return store_token_hash(token)


@dataclass
class LiveGame:
    """A game in play: its record's id, players, and every position along it."""

    id: int
    game: Game
    players: tuple[str, str]
    positions: list[Position]
    moves: list[Move]
    rng: np.random.Generator
    finished: bool = False
    capped: bool = False
    """Stopped at the move cap of a game that need not end (two agents): a draw."""
    token: str | None = None  # the token's SHA-256 (None: a game recorded without one: watch only)
    last: dict[str, Any] | None = None  # the last agent move: proven or not, and why
    error: str | None = None  # the last agent failure, until the game moves on
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def position(self) -> Position:
        """The position now."""
        return self.positions[-1]

    @property
    def ply(self) -> int:
        """Moves made so far."""
        return len(self.moves)

    def player(self, who: Player) -> str:
        """Who plays ``who``: ``human`` or an agent spec."""
        return self.players[who]

    def state(self) -> dict[str, Any]:
        """The game as the API returns it (see :class:`noughts.web.models.GameState`)."""
        game, position = self.game, self.position
        outcome = Outcome.DRAW if self.capped else position.outcome()
        turn = None if outcome is not None else self.player(position.to_move)
        return {
            "id": self.id,
            "game": str(game),
            "name": game_name(game),
            "x": self.players[0],
            "o": self.players[1],
            "start": self.positions[0].text(),
            "position": position.text(),
            "moves": [game.format_move(m) for m in self.moves],
            "movers": [game.player_label(p.to_move) for p in self.positions[: len(self.moves)]],
            "ply": self.ply,
            "to_move": None if outcome is not None else game.player_label(position.to_move),
            "turn": turn,
            "over": outcome is not None,
            "outcome": None if outcome is None else outcome.value,
            "result": None
            if outcome is None
            else "draw by the move cap"
            if self.capped
            else game.outcome_text(outcome),
            "notation": game.notation_help(),
            "view": {
                **board_view(game, position),
                "last": move_info(game, self.moves[-1]) if self.moves else None,
            },
            "decision": self.last,
            "error": self.error,
            "owned": self.token is not None,
        }

    def check_token(self, token: str | None) -> None:
        """``NotOwner`` unless ``token`` is this game's (a game recorded without one is watched only)."""
        if self.token is None:
            raise NotOwner(
                f"game {self.id} was recorded without a token: anyone can watch it, and no one can play on in it"
                " (start a new game from its position on the analysis board)"
            )
        if not token or not hmac.compare_digest(token_hash(token), self.token):
            raise NotOwner(
                f"game {self.id} belongs to whoever started it: you can watch it, but only its player can move,"
                " take back moves or change seats (with the game's token, in the play link given when it started)"
            )


class GameService:
    """Start, continue, take back and list the arena's games, every change recorded in ``store``."""

    def __init__(self, store: Store, agents: AgentCatalogue, pool: WorkerPool, limits: Limits):
        self.store = store
        self.agents = agents
        self.pool = pool
        self.limits = limits
        self._live: OrderedDict[int, LiveGame] = OrderedDict()
        self._lock = threading.Lock()

    # -- starting and finding games ---------------------------------------------------------------

    def _check_players(self, game: Game, x: str, o: str) -> tuple[str, str]:
        players = (self.agents.check(x), self.agents.check(o))
        for who, spec in zip(("x", "o"), players, strict=True):
            why = self.agents.playable(spec, game)
            if why is not None:
                raise NoughtsError(f"{spec} cannot play {game} ({who}'s seat): {why}")
        return players

    def create(self, spec: str, x: str, o: str, position: str | None = None) -> tuple[LiveGame, str]:
        """Start a game of ``spec`` between ``x`` (first) and ``o`` (second), each ``human`` or an
        agent spec, from the empty board or ``position`` (its text). Returns the game and its
        token (see the module docstring).
        """
        game = check_game(spec, self.limits)
        players = self._check_players(game, x, o)
        start = game.start() if position is None or not position.strip() else game.parse(position)
        start_text = None if start == game.start() else start.text()
        seed = secrets.randbits(63)
        token = secrets.token_urlsafe(24)
        digest = token_hash(token)
        gid = self.store.new_game(
            str(game),
            players[0],
            players[1],
            source="web",
            start=start_text,
            metadata={"seed": seed, "token": digest},
        )
        live = LiveGame(gid, game, players, [start], [], np.random.default_rng(seed), token=digest)
        if start.is_terminal():
            self.store.finish_game(gid, start.outcome())
            live.finished = True
        self._keep(live)
        return live, token

    def _keep(self, live: LiveGame) -> None:
        with self._lock:
            self._live[live.id] = live
            self._live.move_to_end(live.id)
            while len(self._live) > self.limits.max_live_games:
                self._live.popitem(last=False)

    def get(self, gid: int) -> LiveGame:
        """A game by id: the live one, or reopened from its record."""
        with self._lock:
            live = self._live.get(gid)
            if live is not None:
                self._live.move_to_end(gid)
                return live
        try:
            record = self.store.game(gid)
        except StoreError:
            raise GameNotFound(f"there is no game {gid}") from None
        live = self._replay(record)
        with self._lock:
            live = self._live.setdefault(gid, live)  # another request may have reopened it first
        self._keep(live)
        return live

    def _replay(self, record: GameRecord) -> LiveGame:
        game = GAMES.get(record.spec)
        position = game.start() if record.start is None else game.parse(record.start)
        positions, moves = [position], []
        for text in record.moves:
            move = game.read_move(position, text)
            position = position.play(move)
            positions.append(position)
            moves.append(move)
        seed = int(record.metadata.get("seed", 0)) + len(record.moves)
        token = record.metadata.get("token")
        live = LiveGame(
            record.id,
            game,
            (record.first, record.second),
            positions,
            moves,
            np.random.default_rng(seed),
            token=token if isinstance(token, str) else None,
        )
        live.finished = record.status == "finished"
        live.capped = live.finished and not position.is_terminal()
        return live

    def summaries(
        self, status: str | None = None, limit: int = 50, offset: int = 0, source: str | None = None
    ) -> list[dict[str, Any]]:
        """The arena's recorded games, most recently played first: those of
        :data:`LISTED_SOURCES`, or of ``source``.
        """
        records = self.store.games(status, source=source or LISTED_SOURCES, limit=limit, offset=offset)
        out = []
        for r in records:
            result = None
            if r.outcome is not None:
                try:
                    game = GAMES.get(r.spec)
                    result = game.outcome_text(noughts.Outcome(r.outcome))
                except NoughtsError:
                    result = r.outcome
            out.append(
                {
                    "id": r.id,
                    "game": r.spec,
                    "x": r.first,
                    "o": r.second,
                    "plies": r.plies,
                    "source": r.source,
                    "status": r.status,
                    "result": result,
                    "created": r.created,
                    "updated": r.updated,
                }
            )
        return out

    # -- moves ------------------------------------------------------------------------------------

    @staticmethod
    def _check_ply(live: LiveGame, ply: int | None) -> None:
        if ply is not None and ply != live.ply:
            raise StaleGame(
                f"game {live.id} has {live.ply} moves, not {ply}: it changed since you last saw it; reload it"
            )

    @classmethod
    def _position_to_play(cls, live: LiveGame, ply: int | None) -> Position:
        """The position of ``live`` (held under its lock) where a move is to be made: the game
        has ``ply`` moves when that is given, and is not over.
        """
        cls._check_ply(live, ply)
        position = live.position
        if live.capped:
            raise NoughtsError(f"game {live.id} is over (a draw by the move cap)")
        if position.is_terminal():
            raise NoughtsError(f"game {live.id} is over ({live.game.outcome_text(position.outcome())})")  # type: ignore[arg-type]
        return position

    def _record(self, live: LiveGame, move: Move) -> None:
        """Play ``move`` (legal: checked by the caller) and record it, the end too."""
        position = live.position.play(move)
        ply = self.store.append_move(live.id, live.game.format_move(move))
        if ply != live.ply + 1:  # another process wrote to this game's record: trust the record
            self.store.undo_move(live.id)
            with self._lock:
                self._live.pop(live.id, None)
            raise StaleGame(
                f"game {live.id} was changed elsewhere (another server on the same store); reload it"
            )
        live.positions.append(position)
        live.moves.append(move)
        live.error = None
        outcome = position.outcome()
        cap = live.game.properties.truncation
        if outcome is None and cap is not None and live.ply >= cap and HUMAN not in live.players:
            live.capped = True
            outcome = Outcome.DRAW
        if outcome is not None:
            self.store.finish_game(live.id, outcome)
            live.finished = True

    def play(
        self,
        gid: int,
        move: str | None = None,
        action: int | None = None,
        ply: int | None = None,
        key: int | None = None,
        token: str | None = None,
    ) -> LiveGame:
        """A person's move in game ``gid``: in notation, as an integer action, or as the slot
        ``key`` of a click on the board (see :mod:`noughts.web.boards`); exactly one of them.
        """
        live = self.get(gid)
        live.check_token(token)
        with live.lock:
            position = self._position_to_play(live, ply)
            if live.player(position.to_move) != HUMAN:
                raise NoughtsError(
                    f"it is {live.player(position.to_move)}'s turn in game {gid}; ask it to move (POST .../turn)"
                )
            if sum(x is not None for x in (move, action, key)) != 1:
                raise NotationError(
                    "send one of: a move in notation ('move'), an integer action ('action'), a board slot ('key')"
                )
            if move is not None:
                chosen = live.game.read_move(position, move)
            else:
                if action is not None:
                    chosen = live.game.move(action)
                else:
                    assert key is not None
                    chosen = move_at_slot(live.game, position, key)
                live.game.check_move(position, chosen)
            live.last = None
            self._record(live, chosen)
        return live

    def turn(
        self,
        gid: int,
        ply: int | None = None,
        token: str | None = None,
        client: str = "local",
        since: float | None = None,
    ) -> tuple[LiveGame, dict[str, Any]]:
        """The agent to move in game ``gid`` makes its move within its time limit (in a worker;
        see the module docstring); returns the game and the move.
        """
        live = self.get(gid)
        live.check_token(token)
        with live.lock:
            position = self._position_to_play(live, ply)
            spec = live.player(position.to_move)
            if spec == HUMAN:
                raise NoughtsError(f"it is the person's turn in game {gid}: send their move")
            at = live.ply
            seed = int(live.rng.integers(2**63))
        game = live.game
        try:
            inline = self.agents.inline(spec)
            if inline is not None:
                move = inline.choose(position, np.random.default_rng(seed))
                decision: dict[str, Any] = {
                    "move": game.format_move(move),
                    "proven": None,
                    "note": "",
                    "seconds": 0.0,
                }
            else:
                resolved = self.agents.resolve(spec)
                decision = self.pool.run(
                    "move",
                    {
                        "game": str(game),
                        "position": position.text(),
                        "agent": resolved.spec,
                        "seed": seed,
                        "seconds": resolved.seconds,
                    },
                    seconds=resolved.seconds,
                    client=client,
                    lane="play",
                    game=str(game),
                    startup=self.limits.load_seconds,
                    since=since,
                )
                move = game.read_move(position, decision["move"])
        except Busy:
            raise  # the arena is busy, not the agent at fault: ask again later
        except NoughtsError as e:
            message = f"{spec} could not move: {e}"
            with live.lock:
                if live.ply == at:
                    live.error = message
            failed = LimitExceeded(message) if isinstance(e, LimitExceeded) else NoughtsError(message)
            raise failed from None
        with live.lock:
            if live.ply != at or live.player(position.to_move) != spec or live.position != position:
                raise StaleGame(
                    f"game {gid} changed while {spec} was thinking (a move, an undo or a seat change); its move is dropped"
                )
            live.last = {
                "by": spec,
                "move": decision["move"],
                "proven": decision.get("proven"),
                "note": decision.get("note", ""),
                "seconds": round(float(decision.get("seconds", 0.0)), 3),
            }
            self._record(live, move)
        return live, move_info(live.game, move)

    def seats(self, gid: int, x: str | None, o: str | None, token: str | None = None) -> LiveGame:
        """Change who plays either seat, at any time (a person takes over, an agent takes over)."""
        live = self.get(gid)
        live.check_token(token)
        with live.lock:
            players = self._check_players(
                live.game, x if x is not None else live.players[0], o if o is not None else live.players[1]
            )
            self.store.set_players(gid, players[0], players[1])
            live.players = players
            live.error = None
        return live

    def undo(self, gid: int, plies: int | None = None, token: str | None = None) -> LiveGame:
        """Take back ``plies`` moves, or by default back to the last position where a person was
        to move (one ply when no person plays).
        """
        live = self.get(gid)
        live.check_token(token)
        with live.lock:
            if live.finished:
                raise NoughtsError(f"game {gid} is over and recorded as such; start a new game to try again")
            if live.ply == 0:
                raise NoughtsError(f"game {gid} has no move to take back")
            if plies is None:
                plies = 1
                humans = [i for i in range(live.ply) if live.player(live.positions[i].to_move) == HUMAN]
                if humans:
                    plies = live.ply - humans[-1]
            if plies > live.ply:
                raise NoughtsError(f"game {gid} has only {live.ply} moves to take back, not {plies}")
            for _ in range(plies):
                self.store.undo_move(gid)
                live.positions.pop()
                live.moves.pop()
            live.last = None
            live.error = None
        return live
