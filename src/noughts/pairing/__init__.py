"""The positional-game toolkit: residual hypergraphs, pairing strategies found as matchings,
their verification, the bigamy corollary and Erdős-Selfridge potentials.

Sources: 002 (matchings, Hopcroft-Karp, the bigamy corollary, the danger potential), 004
§2.3-2.5 (pairings on n x n and 4x4). The Breaker prover (:mod:`noughts.breaker`) and the
outcome classes (:mod:`noughts.exact.classify`) stand on it. Import the submodules directly;
nothing here is loaded until asked for.
"""
