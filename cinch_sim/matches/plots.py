"""Figures for whole-game comparisons (matplotlib ``Figure`` objects, Agg, never shown)."""

from __future__ import annotations

import matplotlib

from cinch_sim import notation as N

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402


def win_rate_figure(summary: dict) -> Figure:
    """A's game win rate with its interval, against the line of no difference."""
    fig = Figure(figsize=(6, 2.2))
    ax = fig.add_subplot()
    wr = summary["win_rate"]
    lo, hi = summary["win_rate_ci"]
    ax.axvline(0.5, color="grey", lw=1, ls="--")
    ax.errorbar([wr], [0], xerr=[[wr - lo], [hi - wr]], fmt="o", capsize=6, color="C0")
    ax.set_xlim(0, 1)
    ax.set_yticks([0], [f"{summary['a']}\nvs {summary['b']}"])
    ax.set_xlabel(f"game win rate of {summary['a']} ({summary['level']:.0%} interval)")
    ax.set_title(f"{summary['games']:,} games in duplicate: {N.rate_with_interval(wr, lo, hi)}")
    fig.tight_layout()
    return fig


def share_figure(summary: dict) -> Figure:
    """A cut-throat match: A's share of the wins with its interval, against the fair
    share 1/players."""
    fig = Figure(figsize=(6, 2.2))
    ax = fig.add_subplot()
    sh = summary["a_share"]
    lo, hi = summary["a_share_ci"]
    fair = summary["fair_share"]
    ax.axvline(fair, color="grey", lw=1, ls="--")
    ax.errorbar([sh], [0], xerr=[[sh - lo], [hi - sh]], fmt="o", capsize=6, color="C0")
    ax.set_xlim(0, 1)
    ax.set_yticks([0], [f"{summary['a']}\nvs {summary['b']}"])
    ax.set_xlabel(
        f"share of the wins of {summary['a']}, alone at a table of {summary['players']} "
        f"({summary['level']:.0%} interval; dashed: the fair share {N.rate(fair)})"
    )
    ax.set_title(
        f"{summary['games']:,} games, {summary['rotations']:,} rotations: "
        f"{N.rate_with_interval(sh, lo, hi)}"
    )
    fig.tight_layout()
    return fig


def margin_figure(games: pd.DataFrame, a: str, b: str) -> Figure:
    """Distribution of final score margins (A's total minus B's) over every game."""
    fig = Figure(figsize=(6, 3.5))
    ax = fig.add_subplot()
    m = np.asarray(games["margin"], float)
    if m.size:
        lo, hi = np.floor(m.min()), np.ceil(m.max())
        bins = np.arange(lo - 0.5, hi + 1.5, max(1.0, np.ceil((hi - lo + 1) / 60)))
        ax.hist(m, bins=bins, color="C0", alpha=0.8)
    ax.axvline(0, color="grey", lw=1, ls="--")
    ax.set_xlabel(f"final margin ({a}'s total - {b}'s total)")
    ax.set_ylabel("games")
    ax.set_title("Final score margins")
    fig.tight_layout()
    return fig


def ladder_figure(ratings: pd.DataFrame, model: str = "Bradley-Terry") -> Figure:
    """Ratings (Elo scale) with their bootstrap intervals, best at the top; strategies
    that played no game (an interrupted ladder) have no rating to draw."""
    df = ratings[ratings["games"] > 0].iloc[::-1]
    fig = Figure(figsize=(6, 0.5 * len(df) + 1.5))
    ax = fig.add_subplot()
    y = np.arange(len(df))
    r = df["rating"].to_numpy()
    err = [r - df["rating_lo"].to_numpy(), df["rating_hi"].to_numpy() - r]
    ax.errorbar(r, y, xerr=err, fmt="o", capsize=5, color="C0")
    ax.set_yticks(y, df["strategy"])
    ax.axvline(0, color="grey", lw=1, ls="--")
    ax.set_xlabel(f"{model} rating, Elo scale (95% bootstrap interval)")
    ax.set_title("Ladder")
    fig.tight_layout()
    return fig


def save(fig: Figure, path) -> None:
    """Write a figure as PNG (atomic: temporary file, then rename)."""
    import io

    from cinch_sim.outputs import atomic_write_bytes

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=120)
    atomic_write_bytes(path, buf.getvalue())
