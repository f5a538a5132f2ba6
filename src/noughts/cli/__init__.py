"""The command line: a thin shell over the library."""

HUMAN = "human"
"""What ``--x`` and ``--o`` call a person at the terminal (instead of an agent spec)."""
