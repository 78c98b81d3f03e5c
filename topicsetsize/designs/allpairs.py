r"""All-pairs power of Tukey's HSD test, and the topic set size that achieves it.

The ANOVA design of topic set size design (T. Sakai, "Designing test collections for comparing
many systems", CIKM 2014) promises that the F test notices *some* difference among m systems
when the best and the worst differ by minD. What an evaluation reports, though, is which
*pairs* differ, by a multiple-comparison procedure such as Tukey's HSD. This module gives, by
simulation, the probability that Tukey's HSD declares significant (in the right direction)

* **all pairs**: every pair of systems whose true difference is at least minD, and
* **best–worst**: at least the pair of the best and the worst system,

for m systems, n topics and the residual variance σ², and the smallest n for a target power.

The model is the two-way ANOVA without replication that topic-by-run matrices follow,
x_ij = μ_i + τ_j + ε_ij with topic effects τ_j and independent ε_ij ~ N(0, σ²), and the test
is the classical HSD with topics as blocks: pair (a, b) is significant where

.. math:: |\bar x_a - \bar x_b| \ge q(1-\alpha; m, \phi_E)\,\sqrt{V_E/n},
          \qquad \phi_E = (m-1)(n-1),

with q the studentized range quantile (``scipy.stats.studentized_range``) and V_E the two-way
residual variance (J. W. Tukey, 1953; the blocked form: e.g. D. C. Montgomery, *Design and
Analysis of Experiments*, Chapter 4 (randomized complete blocks); T. Sakai, *Laboratory
Experiments in Information Retrieval*, Springer 2018, Chapter 4).

The simulation draws the sufficient statistics instead of whole matrices. In this model the run
means are x̄_i = μ_i + τ̄ + ε̄_i: the common τ̄ cancels from every difference, so the differences
are those of independent N(μ_i, σ²/n) means; and (m − 1)(n − 1)·V_E/σ² is χ² with (m − 1)(n − 1)
degrees of freedom, independent of the run means (the residuals are orthogonal to the run and
topic means). A trial therefore costs m normal draws and one χ² draw, whatever n is. The tests
check this against a brute-force simulation of full matrices.

The draws are common random numbers: every n reuses the same standard normals z_i and the
same uniform u (V_E = σ²·F⁻¹_χ²(u; φ_E)/φ_E), so the simulated power is a smooth, nearly
monotone function of n and the search for n is not thrown off by independent noise at each n.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from ..numerics.search import SearchLimitError, smallest_n
from ..params import N_MAX, check, check_choice
from .effects import t_effect
from .registry import ALLPAIRS_CONFIGURATIONS, ALLPAIRS_TARGETS, DESIGNS
from .scales import warn_scale

__all__ = ["CONFIGURATIONS", "TARGETS", "AllPairsPower", "AllPairsN", "configuration_means",
           "allpairs_power", "allpairs_n", "checked_arguments"]

#: The configurations of the m true means (see :func:`configuration_means`), as the registry
#: declares them.
CONFIGURATIONS = ALLPAIRS_CONFIGURATIONS
#: What :func:`allpairs_n` sizes for.
TARGETS = ALLPAIRS_TARGETS
#: The design's methods, from its declaration (Monte Carlo only).
METHODS = DESIGNS["allpairs"].methods

_CHUNK_ELEMENTS = 2 ** 20


@dataclass(frozen=True)
class AllPairsPower:
    """Simulated power of Tukey's HSD at n topics.

    Attributes
    ----------
    all_pairs : float
        Share of trials in which every pair whose true difference is ≥ minD was significant
        in the right direction.
    best_worst : float
        Share of trials in which the best–worst pair was significant in the right direction.
    all_pairs_se, best_worst_se : float
        Their Monte Carlo standard errors √(p(1 − p)/trials).
    n, m, trials : int
    min_d, variance, alpha : float
    configuration : str
    df : int
        Residual degrees of freedom (m − 1)(n − 1).
    critical : float
        The studentized range quantile q(1 − α; m, df).
    """

    all_pairs: float
    best_worst: float
    all_pairs_se: float
    best_worst_se: float
    n: int
    m: int
    min_d: float
    variance: float
    alpha: float
    configuration: str
    trials: int
    df: int
    critical: float


@dataclass(frozen=True)
class AllPairsN:
    """The smallest n found by :func:`allpairs_n`, with the simulated powers around it.

    Attributes
    ----------
    n : int
        Smallest n whose simulated power (common random numbers) reaches 1 − β.
    power : AllPairsPower
        The simulated power at n.
    power_below : AllPairsPower or None
        The simulated power at n − 1 (below the target), None for n = 2.
    target : str
        "all-pairs" or "best-worst": the power that was sized for.
    n_low, n_high : int or None
        The Monte Carlo interval on n at confidence ``level``: the n that the true power needs
        lies in [n_low, n_high] (n_high None where the trials are too few to bound it above).
    level : float
        The confidence level of that interval.
    """

    n: int
    power: AllPairsPower
    power_below: AllPairsPower | None
    target: str
    n_low: int
    n_high: int | None
    level: float


def configuration_means(m: int, *, min_d: float, configuration: str = "least-favourable"
                        ) -> np.ndarray:
    r"""The m true system means of a configuration, in increasing order.

    * ``"least-favourable"``: two systems minD apart and the other m − 2 at their midpoint,
      μ = (−minD/2, 0, …, 0, +minD/2): the least favourable configuration of the ANOVA design
      (Sakai, CIKM 2014; Nagata 2003). The only pair whose true difference is ≥ minD is the
      best–worst pair, so there "all pairs" and "best–worst" are the same event. For the HSD
      the best–worst power does not depend on where the other means lie: this is also the
      power under any configuration with range minD.
    * ``"equally-spaced"``: μ_i = i·minD, i = 0, …, m − 1, neighbours exactly minD apart. Every
      one of the m(m − 1)/2 pairs differs by at least minD and has to be detected; the
      best–worst pair differs by (m − 1)·minD. It is not the hardest configuration for the
      all-pairs target: the next one puts more pairs at exactly minD.
    * ``"two-clusters"``: ⌊m/2⌋ systems at 0 and the other ⌈m/2⌉ at minD: ⌊m/2⌋·⌈m/2⌉ pairs
      exactly minD apart (m = 10: 25, against the 9 neighbours of equally-spaced), the most that
      means can put at the smallest difference to be detected, and each of them has to be
      detected. At m = 10, minD = .1, σ² = .02 and the 106 topics that equally-spaced sizes for
      80%, it gives about 70% (a reviewer's simulation, 2026-12-06). It is the demanding case
      for the all-pairs target; no configuration is proven to bound every other.

    Examples
    --------
    >>> configuration_means(4, min_d=0.1).tolist()
    [-0.05, 0.0, 0.0, 0.05]
    >>> configuration_means(3, min_d=0.1, configuration="equally-spaced").round(2).tolist()
    [0.0, 0.1, 0.2]
    >>> configuration_means(5, min_d=0.1, configuration="two-clusters").tolist()
    [0.0, 0.0, 0.1, 0.1, 0.1]
    """
    m = check("m", m, allow_array=False)
    min_d = check("min_d", min_d, allow_array=False)
    configuration = check_choice("configuration", configuration, CONFIGURATIONS)
    if configuration == "equally-spaced":
        return np.arange(m) * min_d
    if configuration == "two-clusters":
        return np.where(np.arange(m) < m // 2, 0.0, min_d)
    mu = np.zeros(m)
    mu[0], mu[-1] = -min_d / 2, min_d / 2
    return mu


def _check_m(m) -> int:
    """m of a simulated design: the registry's ``m_simulated`` range (at most 1000)."""
    return check("m", m, allow_array=False, key="m_simulated")


class _Simulator:
    """Common random numbers for one (m, minD, σ², α, configuration, trials, seed) design."""

    def __init__(self, m, min_d, variance, alpha, configuration, trials, seed, progress):
        self.m, self.min_d, self.variance, self.alpha = m, min_d, variance, alpha
        self.configuration, self.trials, self.progress = configuration, trials, progress
        # One SeedSequence: every n re-creates the same generator, hence the same draws.
        self.seed = seed if isinstance(seed, np.random.SeedSequence) else (
            np.random.SeedSequence(int(np.random.default_rng(seed).integers(2 ** 63))))
        self.chunk = max(1, min(trials, _CHUNK_ELEMENTS // m))
        self.cache: dict[int, AllPairsPower] = {}

    def power(self, n: int) -> AllPairsPower:
        n = int(n)
        if n not in self.cache:
            self.cache[n] = self._simulate(n)
        return self.cache[n]

    def _simulate(self, n: int) -> AllPairsPower:
        m, trials = self.m, self.trials
        df = (m - 1) * (n - 1)
        if m == 2:   # q(1 − α; 2, φ) = √2·t(1 − α/2; φ), far cheaper than the general quantile
            q = math.sqrt(2.0) * float(stats.t.isf(self.alpha / 2, df))
        else:
            q = float(stats.studentized_range.ppf(1 - self.alpha, m, df))
        # Standardised gap between neighbours (equally spaced) or best and worst (least fav.)
        gap = self.min_d / math.sqrt(self.variance) * math.sqrt(n)   # n/σ² may overflow
        rng = np.random.default_rng(self.seed)
        all_hits = best_hits = 0
        for start in range(0, trials, self.chunk):
            k = min(self.chunk, trials - start)
            z = rng.standard_normal((k, m))
            u = rng.random(k)
            threshold = q * np.sqrt(special.chdtri(df, u) / df)  # q·√(V_E/σ²), upper tail u
            if self.configuration == "equally-spaced":
                # All pairs significant upwards <=> every neighbour pair is (the differences
                # of farther pairs are sums of positive neighbour differences).
                step = gap + np.diff(z, axis=1)
                all_ok = step.min(axis=1) >= threshold
                best_ok = (m - 1) * gap + z[:, -1] - z[:, 0] >= threshold
            elif self.configuration == "two-clusters":
                # Every pair across the clusters significant upwards <=> the lowest of the upper
                # cluster beats the highest of the lower one by the threshold.
                low = m // 2
                all_ok = gap + z[:, low:].min(axis=1) - z[:, :low].max(axis=1) >= threshold
                best_ok = gap + z[:, -1] - z[:, 0] >= threshold
            else:
                best_ok = gap + z[:, -1] - z[:, 0] >= threshold
                all_ok = best_ok
            all_hits += int(np.count_nonzero(all_ok))
            best_hits += int(np.count_nonzero(best_ok))
            if self.progress is not None:
                self.progress(k)
        pa, pb = all_hits / trials, best_hits / trials
        return AllPairsPower(pa, pb, math.sqrt(pa * (1 - pa) / trials),
                             math.sqrt(pb * (1 - pb) / trials), n, m, self.min_d,
                             self.variance, self.alpha, self.configuration, trials, df, q)


def allpairs_power(n: int, *, m: int, min_d: float, variance: float, alpha: float = 0.05,
                   configuration: str = "least-favourable", trials: int = 10000, seed=None,
                   progress: Callable[[int], object] | None = None,
                   method: str = "simulated") -> AllPairsPower:
    r"""Simulated power of Tukey's HSD to detect all pairs ≥ minD, and the best–worst pair.

    In trial t, with standard normals z_i and an independent χ²_φ draw c (φ = (m − 1)(n − 1)),
    the standardised run means are μ_i√n/σ + z_i and the HSD threshold is q(1 − α; m, φ)·√(c/φ);
    pair (a, b) with μ_b > μ_a is detected when

    .. math:: (\mu_b - \mu_a)\sqrt{n}/\sigma + z_b - z_a \ge q(1-\alpha; m, \phi)\sqrt{c/\phi}.

    This is the classical Tukey HSD of a two-way (runs × topics) layout, in distribution (see
    the module notes: the run means and V_E are sufficient). Only detections in the true
    direction count; a significant pair in the wrong direction is an error, not a detection
    (its probability is negligible at any useful power). The means μ follow ``configuration``
    (:func:`configuration_means`).

    For m = 2 the HSD is the two-sided paired t-test (q(1 − α; 2, φ) = √2·t(1 − α/2; φ)) and
    the power is the paired t-test power for minDt = minD and σ_t² = 2σ² (T. Sakai, "Topic set
    size design", IRJ 19(3), 2016, Eq. 3), apart from the wrong-direction tail.

    Parameters
    ----------
    n : int
        Number of topics (≥ 2).
    m : int
        Number of systems (2 ≤ m ≤ 1000).
    min_d : float
        Minimum detectable difference minD (> 0).
    variance : float
        Residual variance σ² of the two-way model. The two-way V_E of a past matrix
        (:func:`topicsetsize.estimates.variance.two_way_residual_variance`) estimates it; the
        one-way V_E of the ANOVA design also contains the topic variance, so on raw scores it
        is larger and errs on the safe side; after std-AB (every topic's mean the same) it is
        not (TREC 2010 Web AP std-AB: V_E .0165, V_E2 .0167).
    alpha : float, default 0.05
        Family-wise significance level of the HSD.
    configuration : {"least-favourable", "equally-spaced", "two-clusters"}
    trials : int, default 10000
    seed : int, numpy.random.Generator, numpy.random.SeedSequence or None
    progress : callable, optional
        Called as ``progress(k)`` after each chunk of k trials.
    method : {"simulated"}
        Monte Carlo (the design's one method).

    Returns
    -------
    AllPairsPower

    Examples
    --------
    >>> r = allpairs_power(50, m=5, min_d=0.1, variance=0.02, seed=1)
    >>> round(r.best_worst, 3), round(r.best_worst_se, 4), round(r.critical, 3)
    (0.789, 0.0041, 3.894)
    >>> r = allpairs_power(50, m=5, min_d=0.1, variance=0.02, configuration="equally-spaced",
    ...                    seed=1)
    >>> round(r.all_pairs, 3), round(r.best_worst, 3)
    (0.315, 1.0)
    """
    n = check("n", n, allow_array=False)
    m = _check_m(m)
    min_d = check("min_d", min_d, allow_array=False)
    variance = check("variance", variance, allow_array=False)
    alpha = check("alpha", alpha, allow_array=False)
    configuration = check_choice("configuration", configuration, CONFIGURATIONS)
    trials = check("trials", trials, allow_array=False)
    check_choice("method", method, METHODS)
    warn_scale({"min_d": min_d, "variance": variance})      # valid values: a note
    return _Simulator(m, min_d, variance, alpha, configuration, trials, seed,
                      progress).power(n)


def checked_arguments(alpha, beta, min_d, variance, m, configuration, target) -> tuple:
    """The arguments of :func:`allpairs_n` (and of
    :func:`~topicsetsize.designs.tukey_pair.one_pair_n`), checked, in order: a value out of its
    declared range is a one-line :class:`~topicsetsize.InputError`.

    >>> checked_arguments(0.05, 0.2, 0.1, 0.02, 5, "least-favourable", "all-pairs")
    (0.05, 0.2, 0.1, 0.02, 5, 'least-favourable', 'all-pairs')
    """
    return (check("alpha", alpha, allow_array=False), check("beta", beta, allow_array=False),
            check("min_d", min_d, allow_array=False),
            check("variance", variance, allow_array=False), _check_m(m),
            check_choice("configuration", configuration, CONFIGURATIONS),
            check_choice("target", target, TARGETS))


def allpairs_n(alpha: float, beta: float, min_d: float, variance: float, m: int, *,
               configuration: str = "least-favourable", target: str = "all-pairs",
               trials: int = 10000, seed=None,
               progress: Callable[[int], object] | None = None,
               method: str = "simulated", level: float = 0.95) -> AllPairsN:
    r"""Smallest n at which Tukey's HSD has simulated power 1 − β to detect all pairs ≥ minD.

    The power is :func:`allpairs_power` (``target="all-pairs"``) or its best–worst power
    (``target="best-worst"``), simulated with common random numbers: the same normal and χ²
    quantile draws at every n, so that the simulated power is a deterministic, nearly monotone
    function of n. The search (:func:`topicsetsize.numerics.search.smallest_n`) starts from the
    normal
    approximation n₀ = (σ/D)²·(q_∞ + √2·z)², with q_∞ = q(1 − α; m, ∞), D the gap of the pair
    that binds (minD; (m − 1)·minD for the equally-spaced best–worst pair) and z the normal
    quantile of the per-pair power ((1 − β), or (1 − β)^(1/(m − 1)) for the m − 1 neighbour
    pairs of the equally-spaced configuration), brackets and bisects. The answer satisfies
    power(n) ≥ 1 − β > power(n − 1) for the simulated curve.

    **Monte Carlo error.** The answer is a random quantity: a different seed can move it by a
    few topics, by about SE/slope with SE = √(β(1 − β)/trials) and slope the power gained per
    topic. Both powers (at n and n − 1) and their SEs are returned, and an interval on n in
    topics, [n_low, n_high], found on the same simulated curve by inverting the binomial
    count of its trials: with T trials and p = 1 − β, n_low is the smallest n at which at least
    k_lo trials detect (k_lo the binomial(T, p) quantile at (1 − level)/2) and n_high the
    smallest at which more than k_hi do (k_hi its upper quantile). Where the true power at n*,
    the n it needs, reaches p, fewer than k_lo detections there have probability below
    (1 − level)/2, so n_low ≤ n*; where the true power at n_high were below p, more than k_hi
    detections would have probability at most (1 − level)/2, so n* ≤ n_high: the interval
    covers n* with probability at least ``level`` (for a monotone curve; the common random
    numbers make it nearly so). Raise ``trials`` until it is narrow enough for the purpose.

    Parameters
    ----------
    alpha, beta : float
        Family-wise significance level and Type II error probability (target power 1 − β).
    min_d : float
        Minimum detectable difference minD.
    variance : float
        Residual variance σ² (see :func:`allpairs_power`).
    m : int
        Number of systems (2 ≤ m ≤ 1000).
    configuration : {"least-favourable", "equally-spaced", "two-clusters"}
    target : {"all-pairs", "best-worst"}
    trials : int, default 10000
    seed : int, numpy.random.Generator, numpy.random.SeedSequence or None
    progress : callable, optional
        Called as ``progress(k)`` after each chunk of k simulated trials.
    method : {"simulated"}
        Monte Carlo (the design's one method).
    level : float, default 0.95
        Confidence level of the interval on n.

    Returns
    -------
    AllPairsN

    Raises
    ------
    topicsetsize.SearchLimitError
        If no n up to 10⁹ reaches the target.

    Examples
    --------
    >>> r = allpairs_n(0.05, 0.20, 0.1, 0.02, 5, seed=1)
    >>> r.n, round(r.power.all_pairs, 3), round(r.power_below.all_pairs, 3)
    (52, 0.808, 0.799)
    >>> r.n_low, r.n_high
    (51, 52)
    """
    alpha, beta, min_d, variance, m, configuration, target = checked_arguments(
        alpha, beta, min_d, variance, m, configuration, target)
    trials = check("trials", trials, allow_array=False)
    check_choice("method", method, METHODS)
    level = check("level", level, allow_array=False)
    sim = _Simulator(m, min_d, variance, alpha, configuration, trials, seed, progress)
    field = "all_pairs" if target == "all-pairs" else "best_worst"

    def value(ns, idx):
        return np.array([getattr(sim.power(int(k)), field) for k in ns])

    spaced = configuration == "equally-spaced"
    pairs = m - 1 if spaced and target == "all-pairs" else 1
    gap = (m - 1) * min_d if spaced and target == "best-worst" else min_d
    # the effect gap/σ, in one ratio: minD² or σ² alone may overflow or underflow; an effect
    # beyond floating point is refused, as the other designs do (power.t_effect)
    effect = float(t_effect(np.asarray(gap), np.asarray(variance), names=("min_d", "variance")))
    warn_scale({"min_d": min_d, "variance": variance})      # valid values: a note
    z = stats.norm.ppf((1 - beta) ** (1 / pairs))
    q_inf = float(stats.studentized_range.ppf(1 - alpha, m, np.inf))
    with np.errstate(over="ignore"):
        guess = float(np.clip(np.square(np.float64(q_inf + math.sqrt(2) * z) / effect), 2.0, N_MAX))

    def search(targets, guesses):
        return smallest_n(value, targets, guesses, n_max=N_MAX,
                          transform=lambda p: stats.norm.ppf(np.clip(p, 1e-6, 1 - 1e-6)),
                          describe=lambda i: f"m={m}, min_d={min_d:g}, variance={variance:g}, "
                                             f"configuration={configuration!r}")

    n = int(search([1 - beta], [guess])[0])
    below = sim.power(n - 1) if n > 2 else None
    low, high = _interval(search, field, sim.power(n), below, beta, trials, level)
    return AllPairsN(n, sim.power(n), below, target, low, high, level)


def _interval(search, field, at_n, below, beta, trials, level) -> tuple[int, int | None]:
    """[n_low, n_high] of :func:`allpairs_n`: the smallest n with at least k_lo detections and
    the smallest with more than k_hi, on the same simulated curve (None where k_hi = trials)."""
    binomial = stats.binom(trials, 1 - beta)
    tail = (1 - level) / 2
    counts = [float(binomial.ppf(tail)), float(binomial.isf(tail)) + 1]
    if counts[1] > trials:          # every trial detecting is not rare enough to bound n
        counts.pop()
    n, p = at_n.n, getattr(at_n, field)
    slope = p - getattr(below, field) if below is not None else 0.0
    targets = [k / trials for k in counts]  # the criterion's own fractions: hits / trials
    guesses = [n + (t - p) / slope if slope > 0 else n for t in targets]
    try:
        found = search(targets, np.clip(guesses, 2.0, N_MAX))
    except SearchLimitError:        # the upper count is out of reach below the search limit
        found = [search(targets[:1], guesses[:1])[0]]
    low = min(int(found[0]), n)     # the curve is nearly monotone: keep n inside
    return low, (max(int(found[1]), n) if len(found) > 1 else None)
