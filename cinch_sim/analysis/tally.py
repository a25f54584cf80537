"""Streaming counts over simulated hands: memory stays flat however many hands run.

A ``Tally`` takes the kernel's result rows chunk by chunk and keeps only
counts; tables come out as pandas DataFrames with their intervals and the
sample size on every row.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cinch_sim import layout as L
from cinch_sim.analysis.intervals import mean_interval, wilson

MAX_BID = 64
PEDRO_SLOTS = (("right_pedro", L.SLOT_RANK0 + 2), ("left_pedro", L.SLOT_LEFT))


class Tally:
    """Counts by bid level and Pedro fate; add chunks with ``add``."""

    def __init__(self, teams: int = 2) -> None:
        self.teams = teams
        self.hands = 0
        self.thrown_in = 0
        self.shortages = 0
        self.bid_hands = np.zeros(MAX_BID, np.int64)
        self.bid_made = np.zeros(MAX_BID, np.int64)
        self.bid_points = np.zeros(MAX_BID, np.float64)
        self.bid_points_sq = np.zeros(MAX_BID, np.float64)
        self.bid_score = np.zeros(MAX_BID, np.float64)
        self.bid_score_sq = np.zeros(MAX_BID, np.float64)
        # pedro fate: 0 bidding side, 1 defenders, 2 not in play
        self.pedro = np.zeros((len(PEDRO_SLOTS), 3), np.int64)

    def add(self, out: np.ndarray) -> None:
        played = out[out[:, L.H_THROWN_IN] == 0]
        self.hands += len(out)
        self.thrown_in += len(out) - len(played)
        self.shortages += int(out[:, L.H_SHORTAGE].sum())
        if len(played) == 0:
            return
        bid = played[:, L.H_BID].astype(np.int64)
        mteam = played[:, L.H_MAKER] % self.teams
        rows = np.arange(len(played))
        pts = played[rows, L.H_POINTS + mteam].astype(float)
        score = played[rows, L.H_SCORE + mteam].astype(float)
        self.bid_hands += np.bincount(bid, minlength=MAX_BID)
        self.bid_made += np.bincount(bid, weights=played[:, L.H_MADE], minlength=MAX_BID).astype(
            np.int64
        )
        self.bid_points += np.bincount(bid, weights=pts, minlength=MAX_BID)
        self.bid_points_sq += np.bincount(bid, weights=pts * pts, minlength=MAX_BID)
        self.bid_score += np.bincount(bid, weights=score, minlength=MAX_BID)
        self.bid_score_sq += np.bincount(bid, weights=score * score, minlength=MAX_BID)
        for i, (_, slot) in enumerate(PEDRO_SLOTS):
            team = played[:, L.H_SLOT_TEAM + slot]
            self.pedro[i, 0] += int(np.sum(team == mteam))
            self.pedro[i, 1] += int(np.sum((team >= 0) & (team != mteam)))
            self.pedro[i, 2] += int(np.sum(team < 0))

    def by_bid(self) -> pd.DataFrame:
        """Per bid level: hands, made, make rate with a 95% Wilson interval."""
        levels = np.flatnonzero(self.bid_hands)
        n = self.bid_hands[levels]
        k = self.bid_made[levels]
        lo, hi = wilson(k, n)
        pts, _, _ = mean_interval(self.bid_points[levels], self.bid_points_sq[levels], n)
        sc, sc_lo, sc_hi = mean_interval(self.bid_score[levels], self.bid_score_sq[levels], n)
        return pd.DataFrame(
            {
                "bid": levels,
                "hands": n,
                "made": k,
                "make_rate": k / n,
                "make_rate_lo": lo,
                "make_rate_hi": hi,
                "mean_points": pts,
                "mean_score_change": sc,
                "score_change_lo": sc_lo,
                "score_change_hi": sc_hi,
            }
        )

    def pedros(self) -> pd.DataFrame:
        """For each Pedro: captured by the bidding side, by the defenders, not in play."""
        rows = []
        for i, (name, _) in enumerate(PEDRO_SLOTS):
            n = int(self.pedro[i].sum())
            for j, fate in enumerate(("bidding_side", "defenders", "not_in_play")):
                k = int(self.pedro[i, j])
                lo, hi = wilson(k, n)
                rows.append(
                    {
                        "pedro": name,
                        "fate": fate,
                        "hands": n,
                        "count": k,
                        "rate": k / n if n else float("nan"),
                        "rate_lo": float(lo),
                        "rate_hi": float(hi),
                    }
                )
        return pd.DataFrame(rows)
