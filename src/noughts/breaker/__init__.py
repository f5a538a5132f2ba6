"""The Breaker prover: can one side stop the other from completing a line? With a certificate.

:mod:`~noughts.breaker.question` (the question, read off a game and a position),
:mod:`~noughts.breaker.prover` (``prove_breaker``, ``prove_draw``: the face),
:mod:`~noughts.breaker.search` (df-pn with pairing leaves and zones; its numba kernel
``_kernels``), :mod:`~noughts.breaker.cover` (pairings of overlapping lines; its kernel
``_cover_kernels``), :mod:`~noughts.breaker.parallel` (searches split over
:mod:`noughts.parallel`), :mod:`~noughts.breaker.reference` (the plain recursion the kernel is
held to), :mod:`~noughts.breaker.certificate` (the checker, which shares no code with the search)
and :mod:`~noughts.breaker.values` (the prover as an engine of values for ``solve``). It stands on
the positional-game toolkit (:mod:`noughts.pairing`). Import the submodules directly; nothing here
is loaded until asked for.
"""
