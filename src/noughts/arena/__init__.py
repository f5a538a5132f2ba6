"""Agents against each other and against the truth: grades, matches, tournaments, ratings.

Modules are imported where used: :mod:`noughts.arena.grade` (the oracle grade),
:mod:`noughts.arena.match` (games and matches), :mod:`noughts.arena.tournament` (round
robins) and :mod:`noughts.arena.ratings` (Bradley-Terry and Elo).
"""
