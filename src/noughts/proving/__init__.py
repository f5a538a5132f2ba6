"""The proof engine: who wins a claim game, proved, with a certificate that an independent
checker verifies.

:mod:`~noughts.proving.proof` (depth-first proof-number search, df-pn, with threat-space search
at its nodes; its numba kernel ``_dfpn_kernels``), :mod:`~noughts.proving.pns` (the plain df-pn
it is held to), :mod:`~noughts.proving.threats` (threat-space search; its kernel
``_tss_kernels``, public to other kernels through :mod:`~noughts.proving.threat_kernels`),
:mod:`~noughts.proving.strategy` (a proof turned into a strategy certificate; its kernel
``_strategy_kernels``) and :mod:`~noughts.proving.strategy_check` (the checker, which shares no
code with the search). :mod:`noughts.exact` puts the proof engine behind its engine protocol.
Import the submodules directly; nothing here is loaded until asked for.
"""
