"""Games every environment test runs on: one of each rules family and board kind, kept small."""

ENV_GAMES = [
    "tictactoe",
    "misere(tictactoe)",
    "mnk(4,4,4)",
    "notakto(boards=2)",
    "otrio",
    "veto(tictactoe)",
    "hypercube(3,3)",
    "cumulative(tictactoe)",
    "maker_breaker(mnk(3,3,3),breaker_first=true)",
    'shape("###./####/###.",3)',
    "veto(cumulative(mnk(3,3,3)))",
]
