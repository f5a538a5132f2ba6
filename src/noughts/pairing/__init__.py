"""The positional-game toolkit: residual hypergraphs, pairing strategies found as matchings,
their verification, the bigamy corollary, Erdős-Selfridge potentials and outcome classes.

Sources: 002 (matchings, Hopcroft-Karp, the bigamy corollary, the danger potential), 004
§2.3-2.5 (pairings on n x n and 4x4), 000 §3.1 and Appendix A.2 (outcome classes of cumulative
tic-tac-toe). Import the submodules directly; nothing here is loaded until asked for.
"""
