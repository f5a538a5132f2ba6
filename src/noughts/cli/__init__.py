"""The command line: a thin shell over the library."""

HUMAN = "human"
"""What ``--x`` and ``--o`` call a person at the terminal (instead of an agent spec)."""


def plural(n: int, word: str, words: str | None = None) -> str:
    """``n`` and the word for that many: ``1 game``, ``2 games``, ``1 ply``/``2 plies`` (``words``).

    >>> plural(1, "game"), plural(1_000, "game"), plural(1, "ply", "plies"), plural(0, "ply", "plies")
    ('1 game', '1,000 games', '1 ply', '0 plies')
    """
    return f"{n:,} {word if n == 1 else words or word + 's'}"
