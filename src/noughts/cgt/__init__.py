"""Impartial games under misère play: quotients of finite game sets, and Notakto from them.

The layer beside :mod:`noughts.exact`, above :mod:`noughts.core`. A position of Notakto on many
boards is a disjunctive sum, so its outcome follows from the *misère quotient* of one board's
positions (Plambeck and Siegel 2008): a finite commutative monoid in which every sum's outcome
is read off the product of its boards' elements.

* :mod:`noughts.cgt.positions`: the single-board positions of a Notakto board up to symmetry, a
  finite game set given by its options;
* :mod:`noughts.cgt.monoid`: finite commutative monoids (tables, reduction, presentations);
* :mod:`noughts.cgt.quotient`: the quotient of a game set, built and checked (misère or normal
  play);
* :mod:`noughts.cgt.notakto`: Notakto's quotient and perfect play from it;
* :mod:`noughts.cgt.check`: an independent check of a quotient document from the rules;
* :mod:`noughts.cgt.reference`: outcomes of sums by plain memoised search, the truth the
  quotients are held to.
"""

from noughts.cgt.monoid import Monoid, Presentation, match_presentation, presented_size_bound
from noughts.cgt.notakto import EmptyBoards, NotaktoQuotient, notakto_quotient, one_board_spec
from noughts.cgt.positions import ZERO, GameSet, NotaktoPositions, notakto_positions
from noughts.cgt.quotient import Quotient, QuotientStopped, misere_quotient

__all__ = [
    "ZERO",
    "EmptyBoards",
    "GameSet",
    "Monoid",
    "NotaktoPositions",
    "NotaktoQuotient",
    "Presentation",
    "Quotient",
    "QuotientStopped",
    "match_presentation",
    "misere_quotient",
    "notakto_positions",
    "notakto_quotient",
    "one_board_spec",
    "presented_size_bound",
]
