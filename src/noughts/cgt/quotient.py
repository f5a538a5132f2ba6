r"""Misère quotients of finite sets of impartial games (Plambeck and Siegel), computed and checked.

**What a quotient is.** Let ``A`` be a finite hereditarily closed set of impartial games (a
:class:`~noughts.cgt.positions.GameSet`) and ``cl(A)`` all finite sums of its games, written as
*words* (multisets of games). Two words are indistinguishable, ``G == H``, when ``G + X`` and
``H + X`` have the same outcome for every word ``X``. The classes form a commutative monoid
``Q``, the *misère quotient*, and ``P`` (the classes of the P-positions) makes it a bipartite
monoid; each game's class is its *image*, and the image of a word is the product of its games'
images (Plambeck, "Taming the wild in impartial combinatorial games", INTEGERS 5, 2005;
Plambeck and Siegel, "Misère quotients for impartial games", JCTA 115, 2008). Then the outcome
of any sum is read off the product of its games' images, which is how noughts plays Notakto on
any number of boards. Under normal play the same construction gives the group of Sprague-Grundy
values; the two differ only in the empty word, which is an N-position under misère play and a
P-position under normal play.

**The certificate.** ``(Q, P, image)`` is the quotient exactly when (i) the images generate
``Q``, (ii) ``(Q, P)`` is *reduced* (distinct elements are told apart by some ``z``: ``xz in P``
but not ``yz``), and (iii) it is *faithful*: a word is a P-position iff its image is in ``P``.
Faithfulness is a local rule: by induction on words it holds iff for every word ``w``,
``image(w) in P`` exactly when no option of ``w`` has its image in ``P`` (the empty word under
misère play excepted: it is an N-position). Write ``Tr(w)`` for the images of ``w``'s options
and ``sigma(w) = {z : Tr(w) z meets P}``; the rule at ``w`` reads ``image(w) in P <=> 1 not in
sigma(w)``, and since ``Tr(w + v) = Tr(w) image(v) | image(w) Tr(v)``,

    ``sigma(w + G) = x^-1 sigma(w)  |  y^-1 tau(G)``,  with ``x = image(G)``, ``y = image(w)``,

where ``tau(G) = {z : Tr(G) z meets P}`` and ``x^-1 S = {z : xz in S}``. So the pair
``(image(w), sigma(w))`` is all a word carries forward, and two games with the same ``tau`` are
indistinguishable. Better still, the rule at ``w + nG`` (``n >= 1``) is

    ``y x^n in P  <=>  x^n not in sigma(w)  and  y x^(n-1) not in tau(G)``,

which for all words of image ``y`` at once needs only ``I_y`` and ``U_y``, the intersection and
the union of their ``sigma``\ s; and these update by the same formula (inverse images keep
intersections and unions). The :class:`_Summary` of ``I`` and ``U`` checks faithfulness over
every word exactly, game by game, in time polynomial in ``|Q|`` ("replay").

**The construction** adds the games in order (options first), keeping the quotient of the games
so far. A game whose ``tau`` was seen takes that game's image. Otherwise the quotient is kept if
some element ``x`` passes the replay test for the new game (a *conservative extension*:
``x`` is then the game's image). If none does, the quotient must grow, and old classes may even
split (adding a game can tell apart words that were indistinguishable before). This is the step
Siegel's MisereSolver takes: a *candidate* is a product of a submonoid of the old quotient with
free cyclic monoids ``<g | g^(i+p) = g^i>`` for the new game and for any old games set free;
its P-portion is marked by the local rule along each element's least-height word (options have
smaller height, so every option's image is marked first); the candidate is reduced and replayed.
When the replay fails, the least-height word where the rule fails is found (a shortest path over
the ``(image, sigma)`` states), and since every smaller word is then correct, its true outcome is
the opposite of the candidate's: the candidate is *recalibrated* by setting free the fewest of
that word's kinds of games that get it right, and the loop repeats. Every quotient returned has
passed the replay of all its games; :mod:`noughts.cgt.check` verifies it again by another method.

>>> from noughts.cgt.positions import GameSet
>>> nim = GameSet.from_options([[-1], [-1, 0], [-1, 0, 1]])  # nim heaps of 1, 2 and 3: <a, b | a^2 = 1, b^3 = b>
>>> q = misere_quotient(nim)
>>> len(q.monoid), q.is_p(q.element([0])), q.is_p(q.element([1, 1]))
(6, True, True)
>>> normal = misere_quotient(nim, misere=False)  # the Sprague-Grundy group {0, 1, 2, 3}
>>> len(normal.monoid), [normal.is_p(normal.element(w)) for w in ([0, 0], [0, 1], [0, 1, 2])]
(4, [True, False, True])
"""

from __future__ import annotations

import heapq
import itertools
import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from noughts.cgt.monoid import Monoid, Presentation, presentation, reduce_bipartite
from noughts.cgt.positions import ZERO, GameSet
from noughts.core import Budget, LimitExceeded, NoughtsError

__all__ = ["Quotient", "QuotientStopped", "misere_quotient"]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

MAX_CANDIDATE = 1 << 22
"""The most elements a candidate's free product may have before it is left untried."""

MAX_SUBSETS = 512
"""Sets of kinds set free tried per recalibration before the construction gives up."""

MAX_ROUNDS = 1000
"""Recalibrations tried per growth of the quotient before the construction gives up."""

_FAILURES = 32
"""Failing words of the least failing height gathered per recalibration (a fix is preferred
that gets more of them right, so a family of failures is mended at once)."""

_CHECK_EVERY = 256
"""Games between budget checks."""


class QuotientStopped(LimitExceeded):
    """The construction stopped (its budget ran out, or no candidate could be made): the message
    says why; ``reached`` holds the figures (games placed, the size of the quotient of those).
    """

    def __init__(self, message: str, reached: dict[str, Any]):
        super().__init__(message)
        self.reached = reached


@dataclass(frozen=True, eq=False)
class Quotient:
    """The quotient of a game set (see the module docstring): ``monoid`` with ``in_p`` its
    P-portion, ``images[j]`` game ``j``'s element; ``misere`` False for the normal-play one.
    """

    games: GameSet
    monoid: Monoid
    in_p: BoolArray
    images: IntArray
    misere: bool = True
    seconds: float = 0.0
    expansions: int = 0
    """How many times the quotient grew while the games were added."""
    candidates: int = 0
    """How many candidates were tried in all (each growth tries at least one)."""

    def element(self, games: Iterable[int]) -> int:
        """The image of the sum of ``games`` (indices; :data:`ZERO` is the identity)."""
        t = self.monoid.table
        e = 0
        for j in games:
            if j != ZERO:
                e = int(t[e, self.images[j]])
        return e

    def is_p(self, element: int) -> bool:
        """Whether the words of this element are P-positions (the player to move loses)."""
        return bool(self.in_p[element])

    @property
    def p_portion(self) -> list[int]:
        return [int(x) for x in np.nonzero(self.in_p)[0]]

    @cached_property
    def generators(self) -> tuple[int, ...]:
        """A set of the games' images that generates the monoid, chosen from the games of least
        height up (simple positions first), with any generator the others make dropped.
        """
        order = sorted(range(len(self.games)), key=lambda j: (int(self.games.heights[j]), j))
        chosen: list[int] = []
        have = {0}
        for j in order:
            x = int(self.images[j])
            if x not in have:
                chosen.append(x)
                have = set(self.monoid.generated(chosen).tolist())
                if len(have) == len(self.monoid):
                    break
        for g in reversed(list(chosen)):
            rest = [h for h in chosen if h != g]
            if len(self.monoid.generated(rest)) == len(self.monoid):
                chosen = rest
        return tuple(chosen)

    @cached_property
    def presentation(self) -> Presentation:
        """Generators (:attr:`generators`), relations and each element's least word."""
        return presentation(self.monoid, self.generators)

    def name(self, element: int) -> str:
        """An element as its least word in the generators, e.g. ``b^2c``."""
        return self.presentation.name(element)


# -- the replay: faithfulness over every word, exactly ------------------------------------------------


class _Summary:
    """``I_y`` and ``U_y`` (rows of bools over the elements) for the words seen so far; rows of
    unseen images hold the neutral values (all True in ``I``, all False in ``U``).
    """

    def __init__(self, n: int):
        self.inter = np.ones((n, n), dtype=bool)
        self.union = np.zeros((n, n), dtype=bool)
        self.seen = np.zeros(n, dtype=bool)
        self.seen[0] = True
        self.inter[0] = False  # the empty word has no options: sigma is empty

    def _steps(self, t: npt.NDArray[np.int32], x: int) -> list[tuple[int, int]]:
        """``(x^n, x^(n-1))`` for every ``n >= 1`` up to where the pairs repeat."""
        powers = [0]
        seen = {0: 0}
        while True:
            nxt = int(t[powers[-1], x])
            if nxt in seen:
                index, period = seen[nxt], len(powers) - seen[nxt]
                break
            seen[nxt] = len(powers)
            powers.append(nxt)

        def pw(k: int) -> int:
            return powers[k] if k < len(powers) else powers[index + (k - index) % period]

        return [(pw(k), pw(k - 1)) for k in range(1, index + period + 1)]

    def check(self, t: npt.NDArray[np.int32], in_p: BoolArray, x: int, tau: BoolArray) -> bool:
        """Whether the rule holds at every ``w + nG`` for a game ``G`` of image ``x`` and
        ``tau``, ``w`` any word seen so far.
        """
        ys = np.nonzero(self.seen)[0]
        for xn, xm in self._steps(t, x):
            c = t[ys, xm]
            blocked = tau[c]  # some option G' of a copy of G gives a P-position
            target_p = in_p[t[ys, xn]]
            ok_p = ~self.union[ys, xn] & ~blocked
            ok_n = blocked | self.inter[ys, xn]
            if not np.where(target_p, ok_p, ok_n).all():
                return False
        return True

    def absorb(self, t: npt.NDArray[np.int32], x: int, tau: BoolArray) -> None:
        """Add the words ``w + nG`` (every ``n >= 1``) to the summary."""
        ys = np.nonzero(self.seen)[0]
        updates = []  # computed from the summary as it was, then merged
        for xn, xm in self._steps(t, x):
            c = t[ys, xm]
            fresh = tau[t[c]]  # rows: {z : c z in tau}
            cols = t[xn]
            new_i = self.inter[np.ix_(ys, cols)] | fresh
            new_u = self.union[np.ix_(ys, cols)] | fresh
            updates.append((t[ys, xn], new_i, new_u))
        for target, new_i, new_u in updates:
            np.logical_and.at(self.inter, target, new_i)
            np.logical_or.at(self.union, target, new_u)
            self.seen[target] = True


def _tau(t: npt.NDArray[np.int32], in_p: BoolArray, option_images: IntArray) -> BoolArray:
    """``{z : T z meets P}`` for the option images ``T``."""
    if not len(option_images):
        return np.zeros(len(in_p), dtype=bool)
    return np.asarray(in_p[t[option_images]].any(axis=0), dtype=bool)


def _option_images(games: GameSet, images: IntArray, j: int) -> IntArray:
    opts = games.options(j)
    return np.unique(np.where(opts == ZERO, 0, images[np.maximum(opts, 0)]))


def _replay(
    games: GameSet,
    count: int,
    monoid: Monoid,
    in_p: BoolArray,
    images: IntArray,
    misere: bool,
    check: Callable[[], None] | None = None,
) -> tuple[_Summary, dict[bytes, int]] | None:
    """Check faithfulness over every word of games ``0 .. count-1`` (see the module
    docstring); the summary and each ``tau`` seen with its image, or None if the rule fails.
    ``check()`` is called every few kinds of games (a budget check).
    """
    if bool(in_p[0]) == misere:
        return None  # the empty word: N under misère play, P under normal play
    t = monoid.table
    summary = _Summary(len(monoid))
    taus: dict[bytes, int] = {}
    cache: dict[bytes, BoolArray] = {}
    done: set[tuple[int, bytes]] = set()
    for j in range(count):
        x = int(images[j])
        opts = _option_images(games, images, j)
        okey = opts.tobytes()
        tau = cache.get(okey)
        if tau is None:
            tau = cache[okey] = _tau(t, in_p, opts)
        key = tau.tobytes()
        if (x, key) in done:
            continue  # a game of a kind seen before adds no state and needs no check
        if check is not None and not len(done) % 8:
            check()
        if not summary.check(t, in_p, x, tau):
            return None
        summary.absorb(t, x, tau)
        done.add((x, key))
        taus.setdefault(key, x)
    return summary, taus


# -- candidates ------------------------------------------------------------------------------------


@dataclass
class _Trial:
    """A candidate quotient of games ``0 .. count-1``."""

    monoid: Monoid
    in_p: BoolArray
    images: IntArray
    size: int = 0  # elements of the free product it was reduced from

    def mark(self, word: Sequence[int]) -> bool:
        t = self.monoid.table
        e = 0
        for j in word:
            e = int(t[e, self.images[j]])
        return bool(self.in_p[e])


class _Product:
    """A submonoid of a trial times free cyclic monoids; elements coded as ``k * radix + digits``."""

    def __init__(self, base: npt.NDArray[np.int32], cycles: Sequence[tuple[int, int]]):
        self.base = base.astype(np.int64)
        self.cycles = list(cycles)
        self.lengths = [i + p for i, p in cycles]
        self.radix = math.prod(self.lengths)
        self.mults = [math.prod(self.lengths[r + 1 :]) for r in range(len(cycles))]
        self.space = len(base) * self.radix

    def generator(self, r: int) -> int:
        """The code of the ``r``-th cyclic component's generator."""
        return self.mults[r]

    def times(self, a: IntArray, b: IntArray | int) -> IntArray:
        ka, ra = np.divmod(a, self.radix)
        kb, rb = np.divmod(np.asarray(b, dtype=np.int64), self.radix)
        out = self.base[ka, kb] * self.radix
        for (i, p), length, mult in zip(self.cycles, self.lengths, self.mults, strict=True):
            s = (ra // mult) % length + (rb // mult) % length
            out = out + np.where(s < length, s, i + (s - i) % p) * mult
        return out


class _Builder:
    def __init__(
        self,
        games: GameSet,
        misere: bool,
        budget: Budget,
        progress: Callable[[int, int, int], None] | None,
    ):
        self.games = games
        self.misere = misere
        self.budget = budget
        self.progress = progress
        self.started = time.perf_counter()
        self.monoid = Monoid([[0]])
        self.in_p = np.array([not misere])
        self.images = np.full(len(games), -1, dtype=np.int64)
        self.summary = _Summary(1)
        self.taus: dict[bytes, int] = {}
        self.tau_of: dict[bytes, BoolArray] = {}  # option images -> tau, under the current quotient
        self.done = 0
        self.expansions = 0
        self.candidates = 0
        self.last_candidate = 0
        self.stage = ""  # what the construction is doing beyond placing positions
        self.strategy = "trial"

    # -- figures for a stop -------------------------------------------------------------------------

    def reached(self, reason: str) -> dict[str, Any]:
        return {
            "reason": reason,
            "positions": len(self.games),
            "positions_placed": self.done,
            "size": len(self.monoid),
            "p_portion": int(self.in_p.sum()),
            "expansions": self.expansions,
            "candidates": self.candidates,
            "last_candidate_size": self.last_candidate,
            "seconds": round(time.perf_counter() - self.started, 3),
        }

    def progress_text(self) -> str:
        text = (
            f"the quotient of the first {self.done:,} of {len(self.games):,} positions has "
            f"{len(self.monoid):,} elements ({int(self.in_p.sum())} P)"
        )
        return text + (f"; {self.stage}" if self.stage else "")

    def _check_trial(self, trial: _Trial) -> Callable[[], None]:
        return lambda: self.check_budget(memory=8 * len(trial.monoid) ** 2)

    def check_budget(self, memory: int = 0) -> None:
        held = memory + self.games.nbytes() + 6 * len(self.monoid) ** 2
        try:
            self.budget.check(memory=held, progress=self.progress_text())
        except LimitExceeded as e:
            raise QuotientStopped(str(e), self.reached("budget")) from None

    # -- the main loop ------------------------------------------------------------------------------

    def run(self) -> Quotient:
        games = self.games
        for j in range(len(games)):
            if not j % _CHECK_EVERY:
                self.check_budget()
                if self.progress is not None:
                    self.progress(j, len(games), len(self.monoid))
            t = self.monoid.table
            opts = _option_images(games, self.images, j)
            tau = self.tau_of.get(opts.tobytes())
            if tau is None:
                tau = self.tau_of[opts.tobytes()] = _tau(t, self.in_p, opts)
            x = self.taus.get(tau.tobytes())
            if x is None:
                x = self.conservative(tau)
                if x is None:
                    (self.expand_monotone if self.strategy == "monotone" else self.expand)(j)
                    self.done = j + 1
                    continue
                self.summary.absorb(t, x, tau)
                self.taus[tau.tobytes()] = x
            self.images[j] = x
            self.done = j + 1
        final = _replay(games, len(games), self.monoid, self.in_p, self.images, self.misere)
        if final is None:  # the construction keeps this invariant; a failure here is a bug
            raise AssertionError("the quotient built fails its own replay")
        if self.progress is not None:
            self.progress(len(games), len(games), len(self.monoid))
        return Quotient(
            games,
            self.monoid,
            self.in_p.copy(),
            self.images.copy(),
            self.misere,
            time.perf_counter() - self.started,
            self.expansions,
            self.candidates,
        )

    def conservative(self, tau: BoolArray) -> int | None:
        """An element the new game can take with the quotient unchanged, or None."""
        t = self.monoid.table
        wants_p = not tau[0]  # the game alone is P iff no option is
        for x in np.nonzero(self.in_p == wants_p)[0]:
            if self.summary.check(t, self.in_p, int(x), tau):
                return int(x)
        return None

    # -- growth -------------------------------------------------------------------------------------

    def expand(self, j: int) -> None:
        """Grow the quotient to take game ``j`` (see the module docstring)."""
        count = j + 1
        base = _Trial(self.monoid, self.in_p, self.images.copy())
        trial = self.candidate(base, count, free_new=j, free=[], cycles=[])
        if trial is None:
            raise QuotientStopped(
                f"the first candidate for position {j:,} is too large; {self.progress_text()}",
                self.reached("candidate too large"),
            )
        for rounds in range(MAX_ROUNDS):
            self.stage = (
                f"growing it for position {j:,}: candidate {rounds + 1} has {len(trial.monoid):,} elements"
            )
            self.check_budget(memory=8 * trial.size * 4)
            replayed = _replay(
                self.games,
                count,
                trial.monoid,
                trial.in_p,
                trial.images,
                self.misere,
                self._check_trial(trial),
            )
            if replayed is not None:
                self.monoid, self.in_p = trial.monoid, trial.in_p
                self.images[:count] = trial.images[:count]
                self.summary, self.taus = replayed
                self.tau_of = {}
                self.expansions += 1
                self.stage = ""
                return
            failures = self.least_failures(trial, count)
            if not failures:
                raise AssertionError("the replay and the state search disagree on a candidate")
            trial = self.recalibrate(trial, count, failures)
        raise QuotientStopped(
            f"no candidate for position {j:,} passed after {MAX_ROUNDS} recalibrations; {self.progress_text()}",
            self.reached("recalibration rounds exhausted"),
        )

    def expand_monotone(self, j: int) -> None:
        """Grow the quotient to take game ``j``: candidates made from the quotient of the games
        before it, setting free more and more kinds of games (never fewer), each set chosen to
        get the least failure of the one before right.
        """
        count = j + 1
        base = _Trial(self.monoid, self.in_p, self.images.copy())
        kind = np.append(self.kinds(base, j)[0], -1)
        freed: dict[int, tuple[int, int]] = {}
        new_cycle = (2, 2)

        def make(free: dict[int, tuple[int, int]], gc: tuple[int, int]) -> _Trial | None:
            keys = sorted(free)
            return self.candidate(
                base, count, free_new=j, free=keys, cycles=[free[k] for k in keys], kind=kind, new_cycle=gc
            )

        for rounds in range(MAX_ROUNDS):
            trial = make(freed, new_cycle)
            if trial is None:
                raise QuotientStopped(
                    f"the candidates for position {j:,} grew too large; {self.progress_text()}",
                    self.reached("candidate too large"),
                )
            self.stage = (
                f"growing it for position {j:,}: candidate {rounds + 1} has {len(trial.monoid):,} elements, "
                f"{len(freed)} kinds of positions set free"
            )
            self.check_budget(memory=8 * trial.size * 4)
            replayed = _replay(
                self.games,
                count,
                trial.monoid,
                trial.in_p,
                trial.images,
                self.misere,
                self._check_trial(trial),
            )
            if replayed is not None:
                self.monoid, self.in_p = trial.monoid, trial.in_p
                self.images[:count] = trial.images[:count]
                self.summary, self.taus = replayed
                self.tau_of = {}
                self.expansions += 1
                self.stage = ""
                return
            failure = self.least_failure(trial, count)
            if failure is None:
                raise AssertionError("the replay and the state search disagree on a candidate")
            word, truth = failure
            counts: dict[int, int] = {}
            for g in word:
                counts[int(kind[g])] = counts.get(int(kind[g]), 0) + 1
            fresh = sorted(k for k in counts if k >= 0 and k not in freed)
            fixes: list[tuple[int, dict[int, tuple[int, int]], tuple[int, int]]] = []
            for size in range(1, min(3, len(fresh)) + 1):
                for subset in itertools.combinations(fresh, size):
                    trial_free = dict(freed)
                    for k in subset:
                        g = int(np.nonzero(kind == k)[0][0])
                        i, p = base.monoid.index_period(int(base.images[g]))
                        trial_free[k] = (max(i, counts[k]) + 1, math.lcm(p, 2))
                    cand = make(trial_free, new_cycle)
                    if cand is not None and cand.mark(word) == truth:
                        fixes.append((len(cand.monoid), trial_free, new_cycle))
                if fixes:
                    break
            if not fixes:  # longer cycles for what is free already
                bumped = {k: ((i + 2, p * 2) if k in counts else (i, p)) for k, (i, p) in freed.items()}
                gc = (new_cycle[0] + 2, new_cycle[1] * 2) if -1 in counts else new_cycle
                cand = make(bumped, gc)
                if cand is not None and cand.mark(word) == truth:
                    fixes.append((len(cand.monoid), bumped, gc))
            if not fixes:
                raise QuotientStopped(
                    f"no candidate for position {j:,} gets its least failure right (a sum of {len(word)} "
                    f"positions); {self.progress_text()}",
                    self.reached("recalibration failed"),
                )
            _, freed, new_cycle = min(fixes, key=lambda f: f[0])
        raise QuotientStopped(
            f"no candidate for position {j:,} passed after {MAX_ROUNDS} recalibrations; {self.progress_text()}",
            self.reached("recalibration rounds exhausted"),
        )

    def kinds(self, trial: _Trial, count: int) -> tuple[IntArray, list[tuple[int, bytes]]]:
        """Each game's kind under ``trial``: its image and its options' images."""
        index: dict[tuple[int, bytes], int] = {}
        kind = np.zeros(count, dtype=np.int64)
        for g in range(count):
            key = (int(trial.images[g]), _option_images(self.games, trial.images, g).tobytes())
            kind[g] = index.setdefault(key, len(index))
        return kind, list(index)

    def recalibrate(self, trial: _Trial, count: int, failures: list[tuple[list[int], bool]]) -> _Trial:
        """The candidate that sets free the fewest kinds of the first failing word's games and
        gets its outcome (P or not) right; among those at most twice the smallest, the one that
        gets the most of the other ``failures`` (words of the same height) right, then the
        smallest. Every candidate is
        made from ``trial`` (a finer monoid before its reduction), so it marks every word below
        the failure as ``trial`` did, rightly: the least failure only moves up (Siegel).
        """
        word, truth = failures[0]
        kind, _ = self.kinds(trial, count)
        involved = sorted({int(kind[g]) for g in word})
        tried = 0
        for size in range(1, len(involved) + 1):
            fixes: list[tuple[int, int, _Trial]] = []
            for subset in itertools.combinations(involved, size):
                tried += 1
                if tried > MAX_SUBSETS:
                    break
                cycles = []
                for k in subset:
                    most = max(sum(1 for g in w if kind[g] == k) for w, _ in failures)
                    members = [g for g in word if kind[g] == k]
                    i, p = trial.monoid.index_period(int(trial.images[members[0]]))
                    cycles.append((max(i, most) + 1, math.lcm(p, 2)))
                cand = self.candidate(
                    trial, count, free_new=None, free=list(subset), cycles=cycles, kind=kind
                )
                if cand is not None and cand.mark(word) == truth:
                    right = sum(cand.mark(w) == t for w, t in failures)
                    fixes.append((-right, len(cand.monoid), cand))
            if fixes:
                smallest = min(size for _, size, _ in fixes)
                near = [f for f in fixes if f[1] <= 2 * smallest]  # not a much larger one for a few more
                return min(near, key=lambda f: f[:2])[2]
        raise QuotientStopped(
            f"no recalibration of a {len(trial.monoid):,}-element candidate fixes its least failure "
            f"(a sum of {len(word)} positions); {self.progress_text()}",
            self.reached("recalibration failed"),
        )

    def candidate(
        self,
        trial: _Trial,
        count: int,
        free_new: int | None,
        free: list[int],
        cycles: list[tuple[int, int]],
        kind: IntArray | None = None,
        new_cycle: tuple[int, int] = (2, 2),
    ) -> _Trial | None:
        """The reduced candidate made from ``trial`` by setting free the games of the kinds
        ``free`` (each a cyclic generator with ``cycles``' index and period) and, with
        ``free_new``, the new game (a cyclic generator with ``new_cycle``); None if it would be
        too large.
        """
        self.candidates += 1
        if kind is None:
            kind = np.full(count, -1, dtype=np.int64)
        is_free = np.isin(kind, free) if free else np.zeros(count, dtype=bool)
        if free_new is not None:
            is_free[free_new] = True
        kept = np.unique(trial.images[:count][~is_free])
        keep = trial.monoid.generated(kept)
        remap = np.full(len(trial.monoid), -1, dtype=np.int64)
        remap[keep] = np.arange(len(keep))
        base = remap[np.asarray(trial.monoid.table)[np.ix_(keep, keep)]]
        all_cycles = list(cycles) + ([new_cycle] if free_new is not None else [])
        prod = _Product(base.astype(np.int32), all_cycles)
        if prod.space > MAX_CANDIDATE:
            return None
        code = np.zeros(count, dtype=np.int64)
        code[~is_free] = remap[trial.images[:count][~is_free]] * prod.radix
        for r, k in enumerate(free):
            code[kind == k] = prod.generator(r)
        if free_new is not None:
            code[free_new] = prod.generator(len(free))
        reduced = self.mark_and_reduce(prod, code, count)
        if reduced is None:
            return None
        monoid, in_p, labels_of_code, size = reduced
        self.last_candidate = size
        return _Trial(monoid, in_p, labels_of_code(code), size)

    def mark_and_reduce(
        self, prod: _Product, code: IntArray, count: int
    ) -> tuple[Monoid, BoolArray, Callable[[IntArray], IntArray], int] | None:
        """Mark the P-portion of the product by the local rule along least-height words, then
        reduce it (see the module docstring). None if it has too many elements.
        """
        games = self.games
        gens, rep = _generators(code, games.heights[:count])
        weight = [int(w) for w in games.heights[rep]]
        # the reachable elements (the submonoid the games generate) and the generators' actions
        index = np.full(prod.space, -1, dtype=np.int64)
        index[0] = 0
        found = [np.zeros(1, dtype=np.int64)]
        frontier = found[0]
        total = 1
        while len(frontier):
            new = np.unique(prod.times(frontier[:, None], gens[None, :]))
            new = new[index[new] < 0]
            index[new] = np.arange(total, total + len(new))
            total += len(new)
            found.append(new)
            frontier = new
            if total > MAX_CANDIDATE // 4:
                return None
            self.check_budget(memory=total * (8 * len(gens) + 64))
        codes = np.concatenate(found)
        n = len(codes)
        act = np.stack([index[prod.times(codes, int(g))] for g in gens], axis=1)
        gen_of_code = {int(g): gi for gi, g in enumerate(gens)}
        rep_opts = []  # each representative game's options, as generator indices (-1: the zero game)
        for gi in range(len(gens)):
            opts = games.options(int(rep[gi]))
            rep_opts.append(
                np.unique(
                    np.array([-1 if o == ZERO else gen_of_code[int(code[o])] for o in opts], dtype=np.int64)
                )
            )
        # least-height words by buckets of height (Dial's algorithm): parent and generator
        rows = act.tolist()
        dist = [-1] * n
        parent = [(-1, -1)] * n
        dist[0] = 0
        buckets: dict[int, list[int]] = {0: [0]}
        order: list[int] = []
        done = [False] * n
        h = 0
        while buckets:
            layer = buckets.pop(h, None)
            h += 1
            if layer is None:
                continue
            d = h - 1
            for e in layer:
                if dist[e] != d or done[e]:
                    continue
                done[e] = True
                order.append(e)
                row = rows[e]
                for gi, w in enumerate(weight):
                    tgt = row[gi]
                    nd = d + w
                    if dist[tgt] < 0 or nd < dist[tgt]:
                        dist[tgt] = nd
                        parent[tgt] = (e, gi)
                        buckets.setdefault(nd, []).append(tgt)
        # mark: the options of word(e) = options of word(parent) times g, and parent times the
        # options of g's representative game
        in_p = np.zeros(n, dtype=bool)
        in_p[0] = not self.misere
        options: list[IntArray | None] = [None] * n
        options[0] = np.zeros(0, dtype=np.int64)
        identity_opt = np.zeros(1, dtype=np.int64)
        for e in order[1:]:
            par, gi = parent[e]
            ro = rep_opts[gi]
            via_rep = act[par, ro[ro >= 0]]
            if len(ro) and ro[0] < 0:
                via_rep = np.concatenate([via_rep, identity_opt + par])
            opts = np.unique(np.concatenate([act[options[par], gi], via_rep]))
            options[e] = opts
            in_p[e] = not in_p[opts].any()
        labels = reduce_bipartite(act, in_p)
        classes = int(labels.max()) + 1
        reps = np.zeros(classes, dtype=np.int64)
        reps[labels[::-1]] = codes[::-1]  # the first element of each class
        table = labels[index[prod.times(reps[:, None], reps[None, :])]]
        class_p = np.zeros(classes, dtype=bool)
        class_p[labels] = in_p

        def labels_of_code(c: IntArray) -> IntArray:
            return labels[index[c]]

        return Monoid(table), class_p, labels_of_code, n

    # -- the least failure --------------------------------------------------------------------------

    def least_failure(self, trial: _Trial, count: int) -> tuple[list[int], bool] | None:
        """A least-height word where ``trial`` breaks the local rule, and its true outcome (the
        opposite of the trial's, since every smaller word is then marked right); None if
        there is none. A shortest-path search over the states ``(image, sigma)``.
        """
        failures = self.least_failures(trial, count, most=1)
        return failures[0] if failures else None

    def least_failures(
        self, trial: _Trial, count: int, most: int = _FAILURES
    ) -> list[tuple[list[int], bool]]:
        """Like :meth:`least_failure`, up to ``most`` words of the least failing height (each
        state once), the first the one :meth:`least_failure` gives.
        """
        t = trial.monoid.table
        in_p = trial.in_p
        n = len(trial.monoid)
        kinds: dict[tuple[int, bytes], int] = {}
        for g in range(count):
            x = int(trial.images[g])
            tau = _tau(t, in_p, _option_images(self.games, trial.images, g))
            key = (x, tau.tobytes())
            if key not in kinds or self.games.heights[g] < self.games.heights[kinds[key]]:
                kinds[key] = g
        xs = np.array([x for x, _ in kinds], dtype=np.int64)
        taus = np.stack([np.frombuffer(tb, dtype=bool) for _, tb in kinds])
        gs = [g for g in kinds.values()]
        hs = [int(self.games.heights[g]) for g in gs]
        tx = t[xs]  # tx[k, z]: x_k z
        # a state is (image, packed sigma); every move from it at once: sigma x_k | y tau_k
        start = (0, np.packbits(np.zeros(n, dtype=bool)).tobytes())
        if bool(in_p[0]) == self.misere:
            return [([], not self.misere)]
        failures: list[tuple[list[int], bool]] = []
        failing_height = -1
        best = {start: 0}
        parent: dict[tuple[int, bytes], tuple[tuple[int, bytes], int] | None] = {start: None}
        heap = [(0, 0, start)]
        tick = itertools.count(1)
        closed: set[tuple[int, bytes]] = set()
        while heap:
            d, _, state = heapq.heappop(heap)
            if state in closed:
                continue
            if failures and d > failing_height:
                break
            closed.add(state)
            if not len(closed) % 4096:
                self.check_budget(memory=len(best) * (n // 8 + 100))
            y, sb = state
            sigma = np.unpackbits(np.frombuffer(sb, dtype=np.uint8), count=n).astype(bool)
            if state != start and bool(in_p[y]) == bool(sigma[0]):
                word = []
                at: tuple[int, bytes] | None = state
                while parent[at] is not None:  # type: ignore[index]
                    at, g = parent[at]  # type: ignore[index, misc]
                    word.append(g)
                failures.append((sorted(word), not bool(in_p[y])))
                failing_height = d
                if len(failures) >= most:
                    break
                continue
            if failures:
                continue  # the failures of this height are being gathered; nothing beyond
            images = t[y, xs].tolist()
            rows = np.packbits(sigma[tx] | taus[:, t[y]], axis=1)
            for k, row in enumerate(rows):
                nxt = (images[k], row.tobytes())
                nd = d + hs[k]
                if nd < best.get(nxt, 1 << 62):
                    best[nxt] = nd
                    parent[nxt] = (state, gs[k])
                    heapq.heappush(heap, (nd, next(tick), nxt))
        return failures


def _generators(code: IntArray, heights: IntArray) -> tuple[IntArray, IntArray]:
    """The distinct codes of the games, each with its game of least height."""
    order = np.lexsort((np.arange(len(code)), heights, code))
    first = np.ones(len(order), dtype=bool)
    first[1:] = code[order[1:]] != code[order[:-1]]
    rep = order[first]
    return code[rep], rep


def misere_quotient(
    games: GameSet,
    *,
    misere: bool = True,
    budget: Budget | None = None,
    progress: Callable[[int, int, int], None] | None = None,
) -> Quotient:
    """The misère quotient of ``games`` (with ``misere=False``, the normal-play quotient); see
    the module docstring. ``budget`` bounds the work: past it, or when no candidate can be
    made, :class:`QuotientStopped` says how far it got. ``progress(done, total, size)`` is
    called as games are placed.
    """
    if budget is None:
        budget = Budget(max_seconds=None, max_memory=None)
    if len(games) == 0:
        raise NoughtsError("a quotient needs at least one game")
    return _Builder(games, misere, budget, progress).run()
