"""The casework: computer-assisted Breaker proofs by cases, 7x7x7 Maker-Breaker (002 §4) and
computed plans on any Maker-Breaker game.

:mod:`~noughts.casework.cube7` (the plan, its cases and their pairing leaves; its numba kernels
``_cube7_kernels``), :mod:`~noughts.casework.certificate_file` (the certificate's file format,
the one thing writer and checker share) and :mod:`~noughts.casework.certificate` (the checker).
Import the submodules directly; nothing here is loaded until asked for.
"""
