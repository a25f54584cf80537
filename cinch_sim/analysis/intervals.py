"""Interval estimates used by every table: small, exact where it matters."""

from __future__ import annotations

import math

import numpy as np

# Student's t lives below every layer (records.review needs it too); named here as before
from cinch_sim.student import t_interval, t_quantile  # noqa: F401

Z95 = 1.959963984540054


def rate_fields(name: str, successes: float, trials: float) -> dict[str, float]:
    """``{name: k / n, name_lo, name_hi}``: a rate and its 95% Wilson interval as a
    summary's flat fields (NaN for all three where nothing was tried)."""
    if not trials:
        return {name: float("nan"), f"{name}_lo": float("nan"), f"{name}_hi": float("nan")}
    lo, hi = wilson(successes, trials)
    return {name: float(successes / trials), f"{name}_lo": float(lo), f"{name}_hi": float(hi)}


def wilson(successes, trials, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a binomial proportion (vectorised).

    Chosen over the normal interval because make rates sit near 0 or 1 for
    extreme bids, where the normal interval leaves [0, 1] and undercovers.
    Rows with no trials get NaN.
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # at k = 0 and k = n the ends are 0 and 1 exactly (rounding left 1e-19 and 1 - 1e-16,
    # an interval that did not hold its own estimate)
    lo = np.where(n > 0, np.where(k <= 0, 0.0, np.clip(centre - half, 0, 1)), np.nan)
    hi = np.where(n > 0, np.where(k >= n, 1.0, np.clip(centre + half, 0, 1)), np.nan)
    return lo, hi


SAFE_MEANING = (
    "a bid is safe at a level (70% unless you choose another) when the lower end of "
    "the 95% Wilson interval of its make rate is at least that level: the estimate "
    "alone is not enough, so a bid seen on few hands is not called safe by luck"
)


# two of the advisor's bids whose expected margins differ by less than this (points a
# hand) are as good: a strong hand's 11 to 14 all make 97%, and thousands of paired
# deals can tell 0.02 points apart, which no player would bid on (a review: "11 is
# as good, 13 is not?")
TIE_POINTS = 0.1

# a row (a bid, a class of hands) counted on fewer hands than this is kept but flagged
# (low_n, '*', 'few hands'): its interval is wide and the normal approximation behind
# some of them is poor there; every table, command and the report read it from here
FEW_HANDS = 30


def highest_safe(bids, made, trials, level: float, min_trials: int = 1) -> int | None:
    """The highest of ``bids`` that is safe at ``level`` (``SAFE_MEANING``): made on
    ``made[i]`` of ``trials[i]`` hands, at least ``min_trials`` of them, and the
    lower 95% Wilson bound at least ``level``. None: no bid is safe. The one rule
    for "safe" wherever a safe bid is shown (the advisor, the safe-bid table)."""
    lo, _ = wilson(made, trials)
    n = np.asarray(trials)
    ok = [int(b) for b, low, t in zip(bids, lo, n, strict=True) if t >= min_trials and low >= level]
    return max(ok) if ok else None


def mean_interval(
    total, total_sq, n, low: float, high: float, level: float = 0.95
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean and a t interval that fits its n, from running sums (streaming-friendly).

    Values lie in [low, high] (0 and 14 points, say). One pseudo-value at each
    end of that range is added before the Student's t interval is taken (the
    add-one-each idea of Agresti and Caffo, here for a bounded mean), and the
    interval is clipped to the range. Why: a plain t or normal interval is
    [14.00, 14.00] for 12 hands that all took 14 points, certain where little
    is known, and runs past 0 or 14 for 2 hands. The pseudo-values keep a
    spread at any n, so the interval widens as n shrinks and never collapses;
    with hundreds of hands they move an end by well under a standard error.
    The interval always holds the mean itself (which uses the real values only).
    Rows with no values get NaN.
    """
    low_a, high_a = np.asarray(low, dtype=float), np.asarray(high, dtype=float)
    n = np.asarray(n, dtype=float)
    mean, m, se, k = _with_pseudo_values(total, total_sq, n, low_a, high_a)
    with np.errstate(invalid="ignore", divide="ignore"):
        q = t_quantile(k - 1, 0.5 + level / 2)
        lo = np.clip(np.minimum(m - q * se, mean), low_a, high_a)
        hi = np.clip(np.maximum(m + q * se, mean), low_a, high_a)
    empty = n <= 0
    return np.where(empty, np.nan, mean), np.where(empty, np.nan, lo), np.where(empty, np.nan, hi)


def _with_pseudo_values(total, total_sq, n, low, high):
    """(the mean, the mean with one pseudo-value at each end, its standard error, the
    count with them): what ``mean_interval`` and ``bounded_mean_test`` share."""
    total = np.asarray(total, dtype=float)
    total_sq = np.asarray(total_sq, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = total / n
        k = n + 2
        m = (total + low + high) / k
        ss = total_sq + low**2 + high**2 - k * m * m
        se = np.sqrt(np.maximum(ss, 0) / (k - 1) / k)
    return mean, m, se, k


def bounded_mean(
    values: np.ndarray, low: float, high: float, level: float = 0.95
) -> tuple[float, float, float]:
    """``mean_interval`` of a sample of values in [low, high]: (mean, low end, high end)."""
    v = np.asarray(values, dtype=float)
    m, lo, hi = mean_interval(v.sum(), (v * v).sum(), v.size, low, high, level)
    return float(m), float(lo), float(hi)


def bounded_mean_test(
    values: np.ndarray, low: float, high: float, null: float, level: float = 0.95
) -> tuple[float, float, float, float]:
    """``bounded_mean`` and the p-value of "mean == null" that the interval inverts:
    the same t with its pseudo-values, so p < 1 - level exactly when the interval
    at ``level`` leaves ``null`` out, whatever the level. A null between the mean and
    the pseudo-valued mean is inside every interval (each holds the mean): p = 1.
    (A plain t-test beside this interval could disagree with it on a few pairs: 25.0%
    [4.9, 55.1] beside p = 0.033.)"""
    from scipy.special import stdtr  # the p-value's t tail (the quantile: t_quantile)

    v = np.asarray(values, dtype=float)
    mean, lo, hi = bounded_mean(v, low, high, level)
    if v.size == 0:
        return mean, lo, hi, float("nan")
    _, m, se, k = _with_pseudo_values(v.sum(), (v * v).sum(), float(v.size), low, high)
    if min(mean, m) <= null <= max(mean, m):
        return mean, lo, hi, 1.0
    return mean, lo, hi, float(2 * stdtr(k - 1, -abs(m - null) / se))


def ratio_interval(
    sums: np.ndarray, counts: np.ndarray, level: float = 0.95
) -> tuple[float, float, float, float]:
    """Pooled mean sum/count with a cluster (ratio estimator) interval; p-value of mean == 0.

    Each unit (cluster) contributes a sum over its ``counts`` items; units with
    no items are left out. The standard error is the ratio estimator's, with
    Student's t on units - 1 degrees of freedom.
    """
    from scipy.special import stdtr  # the p-value's t tail (the quantile: t_quantile)

    s = np.asarray(sums, dtype=float)
    n = np.asarray(counts, dtype=float)
    keep = n > 0
    s, n = s[keep], n[keep]
    k = s.size
    if k == 0:
        return float("nan"), float("nan"), float("nan"), float("nan")
    m = float(s.sum() / n.sum())
    if k < 2:
        return m, float("nan"), float("nan"), float("nan")
    resid = s - m * n
    se = float(np.sqrt((resid**2).sum() / (k * (k - 1))) / n.mean())
    q = float(t_quantile(k - 1, 0.5 + level / 2))
    if se == 0:
        return m, m, m, (1.0 if m == 0 else 0.0)
    p = float(2 * stdtr(k - 1, -abs(m) / se))
    return m, m - q * se, m + q * se, p


def control_variate_interval(
    values: np.ndarray, control: np.ndarray, null: float, level: float = 0.95
) -> tuple[float, float, float, float, float]:
    """(mean, low, high, p-value of mean == null, share of the variance removed): the
    mean of ``values`` with ``control``, a number of known mean 0 measured beside each,
    subtracted in proportion.

    It is the intercept of the least-squares line of values on control (the line's
    height where the control takes its mean), with that intercept's textbook
    standard error and Student's t on units - 2 degrees of freedom, so the
    estimated slope costs its degree of freedom. The share removed is the
    squared correlation: the fraction fewer units the same width needs.
    """
    from scipy.special import stdtr  # the p-value's t tail (the quantile: t_quantile)

    y = np.asarray(values, dtype=float)
    x = np.asarray(control, dtype=float)
    k = y.size
    nan = float("nan")
    if k < 3 or x.shape != y.shape or not np.all(np.isfinite(x)):  # no luck measured
        return (float(y.mean()) if k else nan), nan, nan, nan, nan
    dx, dy = x - x.mean(), y - y.mean()
    sxx, syy = float(dx @ dx), float(dy @ dy)
    if sxx == 0 or syy == 0:
        return float(y.mean()), nan, nan, nan, nan
    slope = float(dx @ dy) / sxx
    m = float(y.mean() - slope * x.mean())
    resid = dy - slope * dx
    s2 = float(resid @ resid) / (k - 2)
    se = math.sqrt(s2 * (1.0 / k + float(x.mean()) ** 2 / sxx))
    q = float(t_quantile(k - 2, 0.5 + level / 2))
    removed = float(dx @ dy) ** 2 / (sxx * syy)
    if se == 0:
        return m, m, m, (1.0 if m == null else 0.0), removed
    p = float(2 * stdtr(k - 2, -abs(m - null) / se))
    return m, m - q * se, m + q * se, p, removed


def confidence_sequence(
    values, level: float = 0.95, cap: float = 0.5
) -> tuple[float, float, float]:
    """(mean, low, high) after the last of ``values`` (each in [0, 1], in the order they
    came) of an always-valid confidence sequence for their mean: however many times
    it is looked at, and whenever a run stops because of what it showed, the chance
    that the interval ever misses the mean is at most 1 - level
    (``confidence_sequences`` says how). ``mean`` is the plain mean."""
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return float("nan"), float("nan"), float("nan")
    lo, hi = confidence_sequences(x, level, cap)
    return float(x.mean()), float(lo[-1]), float(hi[-1])


def confidence_sequences(values, level: float = 0.95, cap: float = 0.5):
    """The always-valid interval after each of ``values`` (in [0, 1], in order): arrays
    (low, high), clipped to [0, 1].

    The predictable plug-in empirical-Bernstein sequence (Waudby-Smith and Ramdas,
    J. R. Stat. Soc. B 2024, Theorem 2): with a = 1 - level, value i gets a weight
    l_i fixed before it is seen, min(sqrt(2 ln(2/a) / (s2_{i-1} i ln(i + 1))), cap),
    from the running variance s2; after n values the interval is
    sum(l x) / sum(l) +- (ln(2/a) + sum(v psi(l))) / sum(l), v_i = 4 (x_i - m_{i-1})^2,
    psi(l) = (-ln(1 - l) - l) / 4, the running mean m and variance s2 started at 1/2
    and 1/4. It narrows with the values' own spread, so pair scores that are often
    splits (1/2) are decided sooner than a bound for the widest spread would allow.
    """
    x = np.asarray(values, dtype=float)
    log_term = math.log(2.0 / (1.0 - level))
    t = np.arange(1, x.size + 1, dtype=float)
    m = (0.5 + np.cumsum(x)) / (t + 1)  # m_i: the running mean after value i
    s2 = (0.25 + np.cumsum((x - m) ** 2)) / (t + 1)
    m_before = np.concatenate(([0.5], m[:-1]))
    s2_before = np.concatenate(([0.25], s2[:-1]))
    lam = np.minimum(np.sqrt(2.0 * log_term / (s2_before * t * np.log(t + 1))), cap)
    psi = (-np.log1p(-lam) - lam) / 4.0
    v = 4.0 * (x - m_before) ** 2
    weight = np.cumsum(lam)
    centre = np.cumsum(lam * x) / weight
    radius = (log_term + np.cumsum(v * psi)) / weight
    return np.maximum(0.0, centre - radius), np.minimum(1.0, centre + radius)
