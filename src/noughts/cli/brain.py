"""``noughts brain`` (also installed as ``pbrain-noughts``): noughts as a Gomocup engine, the
protocol of :mod:`noughts.agents.gomocup` on standard input and output, so that piskvork,
Yixin-Board, the Gomocup manager (or noughts' own ``pbrain:`` agent) can run it.
"""

from __future__ import annotations

import functools
import sys
from typing import IO, Annotated, Any

import typer

__all__ = ["brain", "main", "register", "run"]

BRAIN_HELP = (
    "Be a Gomocup (piskvork) engine on standard input and output: START/RECTSTART, BEGIN, TURN,"
    " BOARD, TAKEBACK, INFO, END, ABOUT. Plays freestyle gomoku (INFO rule 0, five or more in a"
    " row) on boards from 5 to 32 a side, with the agent given (default: the engine), each move"
    " timed from INFO timeout_turn and the match clock (timeout_match, time_left). Installed as the"
    " executable pbrain-noughts for managers that run a file."
)


def run(session: object, lines: IO[str], out: IO[str]) -> None:
    """Feed ``lines`` to a :class:`~noughts.agents.gomocup.BrainSession` and write its answers
    to ``out`` (flushed line by line), until ``END`` or the end of the input.
    """
    from noughts.agents.gomocup import BrainSession

    assert isinstance(session, BrainSession)
    for line in lines:
        try:
            answers = session.handle(line)
        except Exception as e:  # a bug must not kill the brain mid-game: say it, go on
            answers = [f"ERROR internal error: {type(e).__name__}: {' '.join(str(e).split())}"]
        for answer in answers:
            out.write(answer + "\n")
        out.flush()
        if session.ended:
            return


def brain(
    agent: Annotated[
        str,
        typer.Option(
            metavar="SPEC", help="The agent that plays (any agent spec, e.g. engine or mcts:sims=2000)."
        ),
    ] = "engine",
    seed: Annotated[
        int | None, typer.Option(help="Seed of the agent's random choices (default: fresh).")
    ] = None,
) -> None:
    """Be a Gomocup engine (see the command's help)."""
    import numpy as np

    import noughts
    from noughts.agents import make_agent
    from noughts.agents.base import check_plays
    from noughts.agents.gomocup import AgentThinker, BrainSession, board_game

    player = make_agent(agent)  # a bad spec: one line, exit 2, before any protocol
    check_plays(player, board_game(15, 15))
    session = BrainSession(AgentThinker(player, np.random.default_rng(seed)), version=noughts.__version__)
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(line_buffering=True)
    run(session, sys.stdin, sys.stdout)


def register(app: typer.Typer) -> None:
    app.command(help=BRAIN_HELP)(brain)


def main() -> None:
    """Entry point of the ``pbrain-noughts`` executable: ``noughts brain`` with its options (bad
    input: one line on stderr, exit status 2, as from ``noughts``).
    """
    from noughts.cli.exits import status_of
    from noughts.core import NoughtsError

    @functools.wraps(brain)
    def checked(*args: Any, **kwargs: Any) -> None:
        try:
            brain(*args, **kwargs)
        except NoughtsError as error:
            typer.echo(f"pbrain-noughts: error: {error}", err=True)
            raise typer.Exit(status_of(error)) from None

    single = typer.Typer(add_completion=False, rich_markup_mode=None)
    single.command(help=BRAIN_HELP)(checked)
    single(prog_name="pbrain-noughts")


if __name__ == "__main__":
    main()
