"""The retrograde solver: exact values of games whose positions repeat (the loopy games of
:mod:`noughts.core.loopy`), as endgame tablebases are built.

:mod:`~noughts.retrograde.analysis` (the state graph, the retrograde pass, saved tables, the
oracle; its numba kernels ``_kernels``) and :mod:`~noughts.retrograde.check` (a saved table
re-checked by code that shares none with the solver). :mod:`noughts.exact` puts it behind its
engine protocol. Import the submodules directly; nothing here is loaded until asked for.
"""
