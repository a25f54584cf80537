"""What a hand is worth to its maker, whatever the bidding would have done.

The bid-success tables of ``analysis.tables`` describe the contracts a bidding
policy chose, so they mix the hand's worth with the policy's taste. Here a
seat is made the maker at the trump its trump policy names (contract 0, so
nothing depends on the bid when the play policies ignore it) and the side's
points are counted by what the maker was dealt. That answers "with both
Pedros and three other trumps, how high can I bid?" directly: the highest b
with P(points >= b) at least the risk level.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from cinch_sim import layout as L
from cinch_sim.analysis.intervals import Z95, wilson
from cinch_sim.engine.run import Conditions, PolicySet, iter_chunks
from cinch_sim.rules import Rules, seat_name

MAX_TRUMPS = 10  # trump counts above this are pooled


@dataclass
class HandValue:
    """Points of the maker's side by what the maker was dealt (streamed counts)."""

    rules: Rules
    # counts[seat_rel, pedros(4), trumps(0..MAX), honours(32), points(0..total)]
    counts: np.ndarray

    @classmethod
    def empty(cls, rules: Rules) -> HandValue:
        shape = (rules.players, 4, MAX_TRUMPS + 1, 32, rules.total_points + 1)
        return cls(rules, np.zeros(shape, np.int64))

    def add(self, rows: np.ndarray, dealer: int) -> None:
        rows = rows[rows[:, L.H_THROWN_IN] == 0]
        maker = rows[:, L.H_MAKER].astype(np.int64)
        team = maker % self.rules.teams
        pts = rows[np.arange(len(rows)), L.H_POINTS + team].astype(np.int64)
        rel = (maker - dealer - 1) % self.rules.players
        key = np.ravel_multi_index(
            (
                rel,
                rows[:, L.H_MAKER_PEDROS_DEALT],
                np.minimum(rows[:, L.H_MAKER_TRUMPS_DEALT], MAX_TRUMPS),
                rows[:, L.H_MAKER_HONOURS_DEALT],
                pts,
            ),
            self.counts.shape,
        )
        self.counts += np.bincount(key, minlength=self.counts.size).reshape(self.counts.shape)

    @property
    def hands(self) -> int:
        return int(self.counts.sum())

    def _dist(self, mask_axes: dict[int, object]) -> np.ndarray:
        """Points distribution over the hands selected by index on some axes."""
        c = self.counts
        for axis in sorted(mask_axes, reverse=True):
            c = np.take(c, mask_axes[axis], axis=axis)
            if np.ndim(mask_axes[axis]) == 0:
                c = np.expand_dims(c, axis)
        return c.reshape(-1, c.shape[-1]).sum(axis=0)

    def safe_bids(self, risks: tuple[float, ...] = (0.5, 0.7), min_hands: int = 30) -> pd.DataFrame:
        """Per (Pedros dealt, trumps dealt): hands, mean points, and the highest bid made
        with probability at least each risk level (its make rate and interval)."""
        rows = []
        per_class = self.counts.sum(axis=(0, 3))  # [pedros, trumps, points]
        labels = ("no Pedro", "Right Pedro", "Left Pedro", "both Pedros")
        for ped in range(4):
            for ntr in range(MAX_TRUMPS + 1):
                dist = per_class[ped, ntr]
                n = int(dist.sum())
                if n == 0:
                    continue
                at_least = dist[::-1].cumsum()[::-1]  # at_least[b] = #(points >= b)
                row = {
                    "pedros": labels[ped],
                    "trumps": ntr if ntr < MAX_TRUMPS else f"{MAX_TRUMPS}+",
                    "hands": n,
                    "mean_points": float((dist * np.arange(dist.size)).sum() / n),
                }
                for risk in risks:
                    best = 0
                    for b in range(1, dist.size):
                        if at_least[b] / n >= risk:
                            best = b
                    tag = f"{int(round(risk * 100))}"
                    row[f"bid_{tag}"] = best
                    if best:
                        lo, hi = wilson(at_least[best], n)
                        row[f"make_{tag}"] = at_least[best] / n
                        row[f"make_{tag}_lo"] = float(lo)
                        row[f"make_{tag}_hi"] = float(hi)
                    else:
                        row[f"make_{tag}"] = row[f"make_{tag}_lo"] = row[f"make_{tag}_hi"] = np.nan
                row["low_n"] = n < min_hands
                rows.append(row)
        return pd.DataFrame(rows)

    def by_trumps(self) -> pd.DataFrame:
        """Mean points of the maker's side by the number of trumps dealt."""
        dist = self.counts.sum(axis=(0, 1, 3))
        return _mean_table(dist, "trumps", list(range(MAX_TRUMPS + 1)))

    def by_seat(self, dealer: int = 3) -> pd.DataFrame:
        dist = self.counts.sum(axis=(1, 2, 3))
        players = self.rules.players
        order = self.rules.turn_order(dealer)
        names = [seat_name(order[r], dealer, players) for r in range(dist.shape[0])]
        return _mean_table(dist, "maker_seat", names)


def _mean_table(dist: np.ndarray, label: str, values: list) -> pd.DataFrame:
    points = np.arange(dist.shape[-1])
    rows = []
    for v, d in zip(values, dist, strict=True):
        n = d.sum()
        if n == 0:
            continue
        m = (d * points).sum() / n
        sd = np.sqrt((d * (points - m) ** 2).sum() / max(n - 1, 1))
        half = Z95 * sd / np.sqrt(n)
        rows.append(
            {label: v, "hands": int(n), "mean_points": m, "mean_lo": m - half, "mean_hi": m + half}
        )
    return pd.DataFrame(rows)


def hand_values(
    hands: int,
    seed: int,
    rules: Rules,
    policies: PolicySet,
    dealer: int = 3,
    seats: tuple[int, ...] | None = None,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> HandValue:
    """Make each of ``seats`` (default: every seat, equal shares) the maker at contract 0."""
    seats = tuple(range(rules.players)) if seats is None else seats
    value = HandValue.empty(rules)
    share = hands // len(seats)
    for i, seat in enumerate(seats):
        cond = Conditions(force_maker=seat, force_bid=0)
        for rows, _ in iter_chunks(
            rules,
            policies,
            share,
            seed,
            dealer,
            threads=threads,
            conditions=cond,
            start=i * share,
            progress=progress,
        ):
            value.add(rows, dealer)
    return value
