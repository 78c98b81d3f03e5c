"""The kinds of design: n, the minimum effect and the table, written once per kind.

A design declares its pieces; its kind does the rest, with the scalar fast path
(:func:`~topicsetsize.numerics.search_one.smallest_n_one`, plain floats) before the vectorised
search (:func:`~topicsetsize.numerics.search.smallest_n_for_power`,
:func:`~topicsetsize.designs.ci.smallest_width_n`). The design's public functions (documented,
with their own names) are thin wrappers of a kind's methods. Three kinds:

* :class:`FKind`, an F test of m systems (one-way and two-way ANOVA): the power of
  (n, m, Δ = minD²/(2σ²), α), λ = nΔ, minD = √(2σ²λ/n) (Sakai, IRJ 2016, Section 5);
* :class:`TKind`, a t-test of two systems (paired, unpaired, one-sample): the power of
  (n, minD/σ, α), λ = scale(n)·minD/σ, minD = σ·λ/scale(n) (Sakai, IRJ 2016, Section 3);
* :class:`WidthKind`, an expected CI width (paired, unpaired): the smallest n whose width is at
  most δ (Sakai, IRJ 2016, Section 6), by :func:`smallest_width_n` (and its one-cell
  :func:`smallest_width_n_one`).

Each reads its design's declaration (:data:`topicsetsize.designs.registry.DESIGNS`) for the
names of its inputs and its methods: a ``method`` outside the declared ones is an
:class:`~topicsetsize.InputError` naming the allowed values.

Examples
--------
The one-sample t-test (φ = n − 1, λ = √n·minD/σ: the paired t-test's pieces under other names)
declared and registered at run time:

>>> from topicsetsize.designs import registry
>>> from topicsetsize.designs.ttest import PAIRED
>>> design = registry.register(registry.Design(
...     key="ttest1_doc", name="One-sample t-test", question="one-sample t-test", kind="t",
...     inputs=("alpha", "beta", "min_d", "variance"), criterion="power", methods=("exact",),
...     model="paired", functions={"n": "ttest1_doc_n"}, degrees_of_freedom="φ = n − 1",
...     noncentrality="λ = √n·minD/σ", source="a doctest", module="doc"))
>>> one_sample = PAIRED.renamed("ttest1_doc")
>>> one_sample.n(0.05, 0.20, 0.5, 1.0, "exact"), one_sample.n(0.05, 0.20, 0.5, 1.0, "legacy")
Traceback (most recent call last):
...
topicsetsize.InputError: method='legacy' is not one of 'exact'
>>> one_sample.n(0.05, 0.20, 0.5, 1.0, "exact")
34
>>> registry.unregister("ttest1_doc").key
'ttest1_doc'
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
from scipy import special

from ..numerics.distributions import f_power_rows, z_upper
from ..numerics.precision import F_POWER_TOLERANCE, certify_from, certify_one
from ..numerics.roots import at_least
from ..numerics.search import describe_cells, smallest_n, smallest_n_for_power
from ..numerics.search_one import probit_one, smallest_n_one
from ..numerics.shapes import as_output
from ..params import N_MAX, check, check_all, check_choice, check_each, check_scalars
from .detectable import F_LAMBDA_MAX, lambda_required, raise_unreachable
from .effects import anova_difference, anova_effect, t_effect
from .registry import DESIGNS, Design
from .scales import warn_scale
from .tables import size_table

#: The rows n and n − 1 of a search's power pair (:meth:`FKind.exact_pair`).
_N_AND_BELOW = np.array([[0.0], [1.0]])

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["FKind", "TKind", "WidthKind", "smallest_width_n", "smallest_width_n_one"]


def _two(method, alpha, target):
    """The n from which an exact power is monotone: every n (the default ``monotone``)."""
    return 2


@dataclass(frozen=True)
class _Kind:
    """What every kind shares: its design's declaration and the ``method`` check."""

    key: str

    @property
    def design(self) -> Design:
        return DESIGNS[self.key]

    def method(self, method) -> str:
        """``method`` checked against the design's declared methods (one line if not one)."""
        return check_choice("method", method, DESIGNS[self.key].methods)

    def renamed(self, key: str):
        """The same pieces for another design ``key`` (its own names and methods)."""
        return replace(self, key=key)

    def _table(self, n_cells, alpha, beta, fixed: dict, rows, columns, method):
        """The design's table: rows its ``table_rows``, columns its effect (one search)."""
        design = DESIGNS[self.key]
        given = {"alpha": alpha, "beta": beta, **fixed}
        checked = {k: check(k, x, allow_array=False) for k, x in given.items()}
        method = self.method(method)

        def cells(r, c):        # noted before the search, which may refuse a cell
            warn_scale({**checked, design.table_rows: r, design.effect: c})
            return n_cells(checked, r, c, method)
        return size_table(cells, rows=(design.table_rows, rows), columns=(design.effect, columns))


@dataclass(frozen=True)
class FKind(_Kind):
    """An F test of the system effect over m systems (one-way, two-way ANOVA).

    Pieces: ``power_at(n, m, effect, alpha, method, precise=True)`` (vectorised, Δ the effect;
    ``precise=False`` the search's fast power), ``power_one(n, m, effect, alpha, method)``
    (one cell on floats), ``guess(alpha, beta, m, effect, method)`` (n₀ of the vectorised
    search), ``lambda_one(alpha, beta, dfn, method)`` (λ of the φE → ∞ limit, one cell),
    ``dfe_per_topic(m)`` (φE = dfe_per_topic·(n − 1)), ``power_of_lambda(lam, alpha, dfn, n,
    method)`` (the power at noncentrality λ, for the minimum effect), ``monotone`` and
    ``monotone_one`` (the n from which the power rises, per cell), ``label`` (how an error
    names the cell's method; the method itself if None), ``legacy_pair`` (optional: the legacy
    method's power at n and an upper bound of it at n − 1 from one F point, as
    :meth:`exact_pair` for the exact method, for the search's first steps; issue 28) and
    ``power_cell(n, m, effect, alpha, method, use, points)`` (optional: ``power_at``'s precise
    power, the same bits, at ``n[use]`` of a few n of one cell, a 1-d array, for a scalar call's
    certificate, :func:`~topicsetsize.numerics.precision.certify_one`; issue 28.5).
    ``power_one`` takes ``points`` too: a dict of the call in which it keeps its F points, by φE,
    where ``power_cell`` starts its precise ones.
    """

    power_at: Callable = None
    power_one: Callable = None
    guess: Callable = None
    lambda_one: Callable = None
    dfe_per_topic: Callable = None
    power_of_lambda: Callable = None
    monotone: Callable = _two
    monotone_one: Callable = _two
    label: str | None = None
    legacy_pair: Callable | None = None
    power_cell: Callable | None = None

    def exact_pair(self, n, m, effect, alpha):
        """The exact fast power at n and an upper bound of it at n − 1 (φE = dfe_per_topic·(n − 1)
        and n − 2), from one F point (:func:`~topicsetsize.numerics.distributions.f_power_rows`;
        issue 28)."""
        rows = n - _N_AND_BELOW
        return f_power_rows(alpha, m - 1.0, self.dfe_per_topic(m) * (rows - 1.0), rows * effect)

    def power(self, n, m, min_d, variance, alpha, method):
        """The power at n topics (arguments broadcast; a scalar call gives a float)."""
        method = self.method(method)
        n_, m_, d_, v_, a_ = check_all(n=n, m=m, min_d=min_d, variance=variance, alpha=alpha)
        warn_scale({"min_d": d_, "variance": v_})
        return as_output(self.power_at(n_, m_, anova_effect(d_, v_), a_, method),
                         n, m, min_d, variance, alpha)

    def n(self, alpha, beta, min_d, variance, m, method):
        """The smallest n from which the power stays at or above 1 − β (scalar fast path,
        then the vectorised search)."""
        method = self.method(method)
        one = check_scalars(alpha=alpha, beta=beta, min_d=min_d, variance=variance, m=m)
        n = None if one is None else self.n_one(*one, method)
        if n is not None:
            warn_scale({"min_d": one[2], "variance": one[3]})
            return n
        a, b, d, v, m_ = check_each(alpha=alpha, beta=beta, min_d=min_d, variance=variance, m=m)
        warn_scale({"alpha": a, "beta": b, "min_d": d, "variance": v, "m": m_})
        return as_output(self.n_cells(a, b, d, v, m_, method), alpha, beta, min_d, variance, m)

    def _describe(self, alpha, beta, min_d, variance, m, method):
        return describe_cells({"alpha": alpha, "beta": beta, "min_d": min_d,
                               "variance": variance, "m": m}, self.label or method)

    def n_cells(self, alpha, beta, min_d, variance, m, method: str) -> np.ndarray:
        """The vectorised n of validated arguments that broadcast together."""
        effect = anova_effect(min_d, variance)
        guess = self.guess(alpha, beta, m, effect, method)
        power_at = self.power_at

        def power(n, m_i, effect_i, alpha_i):
            return power_at(n, m_i, effect_i, alpha_i, method, precise=False)

        def precise(n, m_i, effect_i, alpha_i):
            return power_at(n, m_i, effect_i, alpha_i, method)

        return smallest_n_for_power(
            power, beta, guess, cells=(m, effect, alpha),
            describe=self._describe(alpha, beta, min_d, variance, m, method),
            monotone_from=self.monotone(method, alpha, 1.0 - beta), precise_at=precise,
            tolerance=F_POWER_TOLERANCE,
            check_from=lambda: certify_from(self.dfe_per_topic(m)),
            power_pair=self.exact_pair if method == "exact" else self.legacy_pair)

    def n_one(self, alpha, beta, min_d, variance, m, method):
        """n of one cell by :func:`~topicsetsize.numerics.search_one.smallest_n_one` (or None,
        where the vectorised search must decide)."""
        effect = float(anova_effect(min_d, variance))
        dfn = m - 1.0
        per_topic = self.dfe_per_topic(m)
        power_one, power_at, power_cell = self.power_one, self.power_at, self.power_cell
        # the fast powers of this call's search (certify_one's n − 1 and n) and their F points
        # (where the precise ones start), by n and by φE
        seen, points = {}, {}

        def power(n):
            seen[n] = value = power_one(n, m, effect, alpha, method, points)
            return value

        def fast(n):
            return seen[n] if n in seen else power_one(n, m, effect, alpha, method, points)

        with np.errstate(all="ignore"):
            n = self.lambda_one(alpha, beta, dfn, method) / effect if effect > 0 else math.inf
            guess = n * (1.0 + (dfn + 2.0) / max(per_topic * max(n - 1.0, 1.0), 1.0))
            n = smallest_n_one(power, 1.0 - beta, guess,
                               self.monotone_one(method, alpha, 1.0 - beta),
                               transform=probit_one, scan_many=lambda ns: power_at(
                                   ns, m, effect, alpha, method, precise=False))
        return certify_one(lambda x: power_at(x, m, effect, alpha, method), 1.0 - beta, n,
                           lambda i: self._describe(alpha, beta, min_d, variance, m, method)(i),
                           dfe_per_topic=per_topic, fast=fast, power_some=None if power_cell
                           is None else lambda x, use: power_cell(x, m, effect, alpha, method,
                                                                  use, points))

    def min_effect(self, n, m, variance, alpha, beta, method):
        """The smallest minD whose power at n reaches 1 − β: √(2σ²λ/n), λ solved to the last
        bit, then minD stepped up until it has the power itself."""
        method = self.method(method)
        n_, m_, v, a, b = check_all(n=n, m=m, variance=variance, alpha=alpha, beta=beta)
        power_of_lambda, power_at = self.power_of_lambda, self.power_at

        def power(lam, alpha_i, df_a, n_i):
            return power_of_lambda(lam, alpha_i, df_a, n_i, method)

        lam = lambda_required(power, a, b, m_ - 1.0, n_, limit=F_LAMBDA_MAX)
        raise_unreachable(lam, power, method, a, b, m_ - 1.0, n_, limit=F_LAMBDA_MAX)
        d = at_least(anova_difference(lam / n_, v), lambda x: (x == 0) | (np.nan_to_num(power_at(
            n_, m_, anova_effect(x, v), a, method)) >= 1.0 - b))
        return as_output(d, n, m, variance, alpha, beta)

    def table(self, alpha, beta, variance, ms, min_ds, method) -> pd.DataFrame:
        """n over rows m and columns minD, in one vectorised search."""
        return self._table(lambda g, m, d, meth: self.n_cells(
            g["alpha"], g["beta"], d, g["variance"], m, meth), alpha, beta,
            {"variance": variance}, ms, min_ds, method)


@dataclass(frozen=True)
class TKind(_Kind):
    """A two-sided t-test of two systems (paired, unpaired, one-sample).

    Pieces: ``power_at(n, effect, alpha, method)`` (vectorised, effect = minD/σ) and
    ``power_one`` (one cell on floats), ``guess(za, zb, effect)`` (the normal approximation
    of n from z_{α/2}, z_β; floats or arrays), ``scale(n)`` (λ = scale(n)·minD/σ, vectorised),
    ``monotone`` and ``monotone_one`` (the n from which the power rises), ``label`` (how an
    error names the cell's method; the method itself if None), ``power_pair(n, effect, alpha)``
    (optional: the exact method's power at n and an upper bound of it at n − 1 from one critical
    t, :func:`~topicsetsize.numerics.distributions.t_power_pair`; issue 28). The names of the
    effect and its variance are the design's inputs 3 and 4.
    """

    power_at: Callable = None
    power_one: Callable = None
    guess: Callable = None
    scale: Callable = None
    monotone: Callable = _two
    monotone_one: Callable = _two
    label: str | None = None
    power_pair: Callable | None = None

    def _names(self) -> tuple[str, str]:
        inputs = DESIGNS[self.key].inputs
        return inputs[2], inputs[3]

    def power(self, n, min_d, variance, alpha, method):
        """The power at n topics (arguments broadcast; a scalar call gives a float)."""
        method = self.method(method)
        e, s = self._names()
        n_, d_, v_, a_ = check_all(n=n, **{e: min_d, s: variance}, alpha=alpha)
        warn_scale({e: d_, s: v_})
        return as_output(self.power_at(n_, d_ / np.sqrt(v_), a_, method),
                         n, min_d, variance, alpha)

    def n(self, alpha, beta, min_d, variance, method):
        """n from the difference and its variance (the effect minD/σ checked to be usable)."""
        method = self.method(method)
        names = self._names()
        given = {"alpha": alpha, "beta": beta, names[0]: min_d, names[1]: variance}
        one = check_scalars(**given)
        if one is not None:
            a, b, d, v = one
            n = self.n_one(a, b, float(t_effect(d, v, names=names)), method)
            if n is not None:
                warn_scale({names[0]: d, names[1]: v})
                return n
        a, b, d, v = check_each(**given)
        effect = t_effect(d, v, names=names)
        warn_scale(dict(zip(given, (a, b, d, v))))
        describe = describe_cells({"alpha": a, "beta": b, names[0]: d, names[1]: v},
                                  self.label or method)
        return as_output(self.n_cells(a, b, effect, method, describe),
                         alpha, beta, min_d, variance)

    def n_effect(self, alpha, beta, effect, method):
        """n from the standardised effect minD/σ alone (the design's ``effect_size``)."""
        method = self.method(method)
        size = DESIGNS[self.key].effect_size
        one = check_scalars(alpha=alpha, beta=beta, **{size: effect})
        n = None if one is None else self.n_one(*one, method)
        if n is not None:
            return n
        a, b, e = check_each(alpha=alpha, beta=beta, **{size: effect})
        describe = describe_cells({"alpha": a, "beta": b, size: e}, self.label or method)
        return as_output(self.n_cells(a, b, e, method, describe), alpha, beta, effect)

    def n_cells(self, alpha, beta, effect, method: str, describe) -> np.ndarray:
        """The vectorised n of validated arguments (the monotone start is computed on (α, β)
        before they meet the effects)."""
        za = z_upper(alpha / 2.0)
        with np.errstate(over="ignore"):
            guess = self.guess(za, z_upper(beta), effect)
        power_at = self.power_at

        def power(n, effect_i, alpha_i):
            return power_at(n, effect_i, alpha_i, method)

        return smallest_n_for_power(power, beta, guess, cells=(effect, alpha), describe=describe,
                                    monotone_from=self.monotone(method, alpha, 1.0 - beta),
                                    power_pair=self.power_pair if method == "exact" else None)

    def n_one(self, alpha, beta, effect, method):
        """n of one cell on floats (None where the vectorised search must decide)."""
        za = -float(special.ndtri(alpha / 2.0))
        power_one = self.power_one
        with np.errstate(all="ignore"):     # floats: a product overflows to inf, ** raises
            guess = self.guess(za, -float(special.ndtri(beta)), effect)
            return smallest_n_one(lambda n: power_one(n, effect, alpha, method), 1.0 - beta,
                                  guess, self.monotone_one(method, alpha, 1.0 - beta),
                                  transform=probit_one, scan_many=lambda ns: self.power_at(
                                      ns, effect, alpha, method))

    def min_effect(self, n, variance, alpha, beta, method):
        """The smallest minD whose power at n reaches 1 − β: σ·λ/scale(n), λ solved to the last
        bit, then minD stepped up until it has the power itself."""
        method = self.method(method)
        n_, v, a, b = check_all(n=n, **{self._names()[1]: variance}, alpha=alpha, beta=beta)
        power_at, scale = self.power_at, self.scale

        def power(lam, alpha_i, df_a, n_i):
            return power_at(n_i, lam / scale(n_i), alpha_i, method)

        lam = lambda_required(power, a, b, 0.0, n_)
        raise_unreachable(lam, power, method, a, b, 0.0, n_)
        sd = np.sqrt(v)
        d = at_least(sd * lam / scale(n_), lambda x: (x == 0) | (
            power_at(n_, x / sd, a, method) >= 1.0 - b))
        return as_output(d, n, variance, alpha, beta)

    def table(self, alpha, beta, variances, min_ds, method) -> pd.DataFrame:
        """n over rows σ² and columns minD, in one vectorised search."""
        names = self._names()

        def n_cells(g, v, d, meth):
            effect = t_effect(d, v, names=names)
            describe = describe_cells({"alpha": g["alpha"], "beta": g["beta"], names[0]: d,
                                       names[1]: v}, self.label or meth)
            return self.n_cells(g["alpha"], g["beta"], effect, meth, describe)

        return self._table(n_cells, alpha, beta, {}, variances, min_ds, method)


@dataclass(frozen=True)
class WidthKind(_Kind):
    """An expected CI width that falls with n (paired, unpaired).

    Pieces: ``width(n, sd, alpha)`` (vectorised; floats too) and ``guess(za, sd, variance,
    delta)`` (the normal approximation of n; floats or arrays), ``label`` (how an error names
    the cell). The variance's name is the design's input 3.
    """

    width: Callable = None
    guess: Callable = None
    label: str | None = None

    def power(self, n, variance, alpha, method):
        """The expected width at n (a width design's "power")."""
        self.method(method)
        name = DESIGNS[self.key].inputs[2]
        n_, v, a = check_all(n=n, **{name: variance}, alpha=alpha)
        return as_output(self.width(n_, np.sqrt(v), a), n, variance, alpha)

    def n(self, alpha, delta, variance, method):
        """The smallest n whose expected width is at most δ (scalar fast path, then the
        vectorised search)."""
        self.method(method)
        given = {"alpha": alpha, "delta": delta, DESIGNS[self.key].inputs[2]: variance}
        one = check_scalars(**given)
        if one is not None:
            a, d, v = one
            sd = math.sqrt(v)     # floats: a product overflows to inf (no warning to silence)
            guess = self.guess(-float(special.ndtri(a / 2.0)), sd, v, d)
            n = smallest_width_n_one(self.width, d, guess, sd, a)
            if n is not None:
                warn_scale(dict(zip(given, one)))
                return n
        a, d, v = check_all(**given)
        warn_scale(dict(zip(given, (a, d, v))))
        sd = np.sqrt(v)
        with np.errstate(over="ignore", divide="ignore"):   # beyond the float range: 0 or inf,
            guess = self.guess(z_upper(a / 2.0), sd, v, d)  # a guess that the search clips
        describe = describe_cells(dict(zip(given, (a, d, v))), self.label)
        return as_output(smallest_width_n(self.width, d, guess, sd, a, describe),
                         alpha, delta, variance)


def smallest_width_n(width, delta, guess, sd, alpha, describe):
    """The smallest n ≥ 2 with ``width(n, sd, alpha) ≤ delta``, per cell (validated arrays).

    1/width grows like √n, close to linear in √n, which is what :func:`smallest_n` wants.
    """
    fa, fs = alpha.ravel(), sd.ravel()
    # The width falls like 1/√n, so n·(width(n)/δ)² is close to the answer: two such steps from
    # the normal-theory guess land next to it (the t quantile and E[s] move little), and the
    # search then needs one evaluation of the two whole numbers around it.
    guess = np.asarray(guess, float)
    with np.errstate(all="ignore"):
        for _ in range(2):
            start = np.clip(np.where(np.isfinite(guess), guess, 2.0), 2.0, N_MAX)
            better = start * np.square(width(start, sd, alpha) / delta)
            guess = np.where(np.isfinite(better) & (better > 0), better, guess)

    def precision(n, i):
        return 1.0 / width(n, fs[i], fa[i])

    return smallest_n(precision, 1.0 / delta, guess, describe=describe, unreachable=(
        "the width delta is too small for any practical topic set"))


def smallest_width_n_one(width, delta: float, guess: float, sd: float, alpha: float):
    """:func:`smallest_width_n` of one cell on floats, by
    :func:`~topicsetsize.numerics.search_one.smallest_n_one` (None where it cannot certify)."""
    with np.errstate(all="ignore"):
        for _ in range(2):
            start = min(max(guess, 2.0), N_MAX) if guess == guess else 2.0
            better = start * float(np.square(width(start, sd, alpha) / delta))
            guess = better if np.isfinite(better) and better > 0 else guess
        return smallest_n_one(lambda n: float(1.0 / width(n, sd, alpha)), 1.0 / delta, guess, 2)
