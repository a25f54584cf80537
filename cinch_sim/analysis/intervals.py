"""Interval estimates used by every table: small, exact where it matters."""

from __future__ import annotations

import numpy as np

Z95 = 1.959963984540054


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
    lo = np.where(n > 0, np.clip(centre - half, 0, 1), np.nan)
    hi = np.where(n > 0, np.clip(centre + half, 0, 1), np.nan)
    return lo, hi


def mean_interval(total, total_sq, n, z: float = Z95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean and normal-approximation interval from running sums (streaming-friendly)."""
    total = np.asarray(total, dtype=float)
    total_sq = np.asarray(total_sq, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = total / n
        var = np.maximum(total_sq / n - mean * mean, 0) * n / np.maximum(n - 1, 1)
        half = z * np.sqrt(var / n)
    return mean, mean - half, mean + half
