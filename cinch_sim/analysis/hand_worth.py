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
from cinch_sim import notation as N
from cinch_sim.analysis.intervals import FEW_HANDS, highest_safe, mean_interval, wilson
from cinch_sim.engine.run import Conditions, PolicySet, iter_chunks
from cinch_sim.rules import Rules, seat_name

MAX_TRUMPS = 10  # trump counts above this are pooled
PEDRO_CLASSES = ("no Pedro", "Right Pedro", "Left Pedro", "both Pedros")


def pedro_classes(rules: Rules) -> tuple[str, ...]:
    """The Pedro classes as the rules name their left card (the Left Bower in all_hands).

    >>> pedro_classes(Rules())[2]
    'Left Pedro'
    """
    if not rules.left_rank or rules.left_name == "left_pedro":
        return PEDRO_CLASSES
    left = N.label(rules.left_name)
    return ("no Pedro", "Right Pedro", left, f"Right Pedro and {left}")


# the safe-bid classes by the top trumps dealt: label -> (ace, king) and the honour codes
_TOP_FLAGS = {
    "A K": (True, True),
    "A": (True, False),
    "K": (False, True),
    "neither": (False, False),
}
TOP_TRUMPS = tuple(
    (label, tuple(h for h in range(32) if (h >> 4 & 1, h >> 3 & 1) == flags))
    for label, flags in _TOP_FLAGS.items()
)
POINTS = np.arange(64, dtype=float)


def _tag(level: float) -> str:
    """A level's column tag: ``0.7 -> '70'``."""
    return f"{int(round(level * 100))}"


@dataclass
class HandValue:
    """Points of the maker's side by what the maker was dealt (streamed counts)."""

    rules: Rules
    # counts[seat_rel, pedros(4), split card(2, or 1 where the rules have none),
    #        trumps(0..MAX), honours(32), points(0..total)]
    counts: np.ndarray

    def __post_init__(self) -> None:
        if self.counts.ndim == 5:  # stored before the split card's axis: a game without one
            if self.rules.split_card:
                raise ValueError(f"counts without the split card's axis for {self.rules.preset}")
            self.counts = self.counts[:, :, None]

    @classmethod
    def empty(cls, rules: Rules) -> HandValue:
        split = 2 if rules.split_card else 1
        shape = (rules.players, 4, split, MAX_TRUMPS + 1, 32, rules.total_points + 1)
        return cls(rules, np.zeros(shape, np.int64))

    def add(self, rows: np.ndarray, dealer: int) -> None:
        rows = rows[rows[:, L.H_THROWN_IN] == 0]
        maker = rows[:, L.H_MAKER].astype(np.int64)
        team = maker % self.rules.teams
        pts = rows[np.arange(len(rows)), L.H_POINTS + team].astype(np.int64)
        rel = (maker - dealer - 1) % self.rules.players
        dealt = rows[:, L.H_MAKER_PEDROS_DEALT]
        key = np.ravel_multi_index(
            (
                rel,
                dealt & 3,
                dealt >> 2 & 1,  # the split card (the Sancho): 0 where the rules have none
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

    @property
    def keys(self) -> list[str]:
        """The columns that name a ``safe_bids`` class: the Pedros, the split card (its
        name, e.g. ``sancho``, where the rules have one), the trumps, the top trumps."""
        split = [self.rules.split_card[0]] if self.rules.split_card else []
        return ["pedros", *split, "trumps", "top_trumps"]

    def safe_bids(
        self, levels: tuple[float, ...] = (0.5, 0.7), min_hands: int = FEW_HANDS
    ) -> pd.DataFrame:
        """Per class of hand (Pedros dealt, the split card dealt where the rules have
        one, trumps dealt, which of the A and K of trumps dealt): hands, mean points,
        and for each level the highest bid made at least that often *by the interval*:
        the lower end of its 95% Wilson interval at or above the level (so a class of
        few hands gets a lower bid, not a lucky one).

        Why these classes: Pedros and length alone mix hands with and without the top
        trumps, whose safe bids differ by several points, and in the Sancho games hands
        with and without the 9-point Sancho. Columns per level (``50`` for 0.5):
        ``bid_50`` (NA: no bid reaches it), ``make_50`` and its interval.
        """
        rows = []
        per = self.counts.sum(axis=0)  # [pedros, split, trumps, honours, points]
        split = self.rules.split_card
        for ped in range(4):
            for held in range(per.shape[1]):
                for ntr in range(MAX_TRUMPS + 1):
                    for top, bits in TOP_TRUMPS:
                        dist = per[ped, held, ntr, list(bits)].sum(axis=0)
                        if dist.sum() == 0:
                            continue
                        row = self._class_row(dist, ped, ntr, top, levels, min_hands)
                        if split:
                            row = {"pedros": row.pop("pedros"), split[0]: bool(held), **row}
                        rows.append(row)
        df = pd.DataFrame(rows)
        for level in levels:
            tag = _tag(level)
            if f"bid_{tag}" in df:
                df[f"bid_{tag}"] = df[f"bid_{tag}"].astype("Int64")
        return df

    def _class_row(self, dist, ped, ntr, top, levels, min_hands) -> dict:
        """One class's row of ``safe_bids``."""
        n = int(dist.sum())
        at_least = dist[::-1].cumsum()[::-1]  # at_least[b] = #(points >= b)
        lo, hi = wilson(at_least, np.full(at_least.size, n))
        mean, mean_lo, mean_hi = mean_interval(
            (dist * POINTS[: dist.size]).sum(),
            (dist * POINTS[: dist.size] ** 2).sum(),
            n,
            0,
            dist.size - 1,
        )
        row = {
            "pedros": pedro_classes(self.rules)[ped],
            "trumps": ntr if ntr < MAX_TRUMPS else f"{MAX_TRUMPS}+",
            "top_trumps": top,
            "hands": n,
            "mean_points": float(mean),
            "mean_points_lo": float(mean_lo),
            "mean_points_hi": float(mean_hi),
        }
        # only the bids the rules allow (Pidro's start at 6)
        bids = range(self.rules.bid_min, min(self.rules.bid_max, dist.size - 1) + 1)
        for level in levels:
            tag = _tag(level)
            best = highest_safe(bids, at_least[bids.start : bids.stop], [n] * len(bids), level)
            row[f"bid_{tag}"] = pd.NA if best is None else best
            row[f"make_{tag}"] = at_least[best] / n if best else np.nan
            row[f"make_{tag}_lo"] = float(lo[best]) if best else np.nan
            row[f"make_{tag}_hi"] = float(hi[best]) if best else np.nan
        row["low_n"] = n < min_hands
        return row

    def hand_class(
        self, pedros: int, trumps: int, ace: bool, king: bool, split: bool = False
    ) -> dict:
        """The labels of the ``safe_bids`` class a hand falls in (``pedros``: 0 none,
        1 the Right, 2 the Left, 3 both; ``split``: it holds the split card), to find
        its row: one value per column of ``keys``."""
        top = next(t for t, (a, k) in _TOP_FLAGS.items() if a == ace and k == king)
        out: dict = {"pedros": pedro_classes(self.rules)[pedros]}
        if self.rules.split_card:
            out[self.rules.split_card[0]] = split
        out["trumps"] = trumps if trumps < MAX_TRUMPS else f"{MAX_TRUMPS}+"
        out["top_trumps"] = top
        return out

    def by_trumps(self, min_hands: int = FEW_HANDS) -> pd.DataFrame:
        """Mean points of the maker's side by the number of trumps dealt (the last row
        pools ``MAX_TRUMPS`` and more: two decks deal up to 18)."""
        dist = self.counts.sum(axis=(0, 1, 2, 4))
        counts = [*range(MAX_TRUMPS), f"{MAX_TRUMPS}+"]
        return _mean_table(dist, "trumps", counts, min_hands)

    def by_seat(self, dealer: int = 3, min_hands: int = FEW_HANDS) -> pd.DataFrame:
        """Mean points of the maker's side by the maker's seat relative to the dealer."""
        dist = self.counts.sum(axis=(1, 2, 3, 4))
        players = self.rules.players
        order = self.rules.turn_order(dealer)
        names = [seat_name(order[r], dealer, players) for r in range(dist.shape[0])]
        return _mean_table(dist, "maker_seat", names, min_hands)

    @property
    def half_points(self) -> int:
        """Half the rules' points, rounded up: 7 of the standard game's 14."""
        return -(-self.rules.total_points // 2)

    def overall(self, min_hands: int = FEW_HANDS) -> pd.DataFrame:
        """Mean points of the maker's side over every hand, and the share taking at least
        half the points (``at_least_7`` in the standard game: ``half_points``)."""
        dist = self.counts.reshape(-1, self.counts.shape[-1]).sum(axis=0)
        out = _mean_table(dist[None, :], "all", ["all hands"], min_hands)
        n, k = int(dist.sum()), self.half_points
        lo, hi = wilson(dist[k:].sum(), n)
        out[f"at_least_{k}"] = dist[k:].sum() / n if n else np.nan
        out[f"at_least_{k}_lo"], out[f"at_least_{k}_hi"] = float(lo), float(hi)
        return out.drop(columns="all")


def _mean_table(
    dist: np.ndarray, label: str, values: list, min_hands: int = FEW_HANDS
) -> pd.DataFrame:
    """Per value: hands, mean points with ``mean_interval``'s t interval, ``low_n``."""
    points = np.arange(dist.shape[-1], dtype=float)
    rows = []
    for v, d in zip(values, dist, strict=True):
        n = int(d.sum())
        if n == 0:
            continue
        m, lo, hi = mean_interval((d * points).sum(), (d * points**2).sum(), n, 0, points[-1])
        rows.append(
            {
                label: v,
                "hands": n,
                "mean_points": float(m),
                "mean_lo": float(lo),
                "mean_hi": float(hi),
                "low_n": n < min_hands,
            }
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
    """Make each of ``seats`` (default: every seat) the maker at contract 0, on
    consecutive hand numbers: equal shares, the first seats one more where ``hands``
    does not divide (so the hands played are the hands asked for)."""
    seats = tuple(range(rules.players)) if seats is None else seats
    value = HandValue.empty(rules)
    base, extra = divmod(hands, len(seats))
    start = 0
    for i, seat in enumerate(seats):
        share = base + (i < extra)
        cond = Conditions(force_maker=seat, force_bid=0)
        chunks = iter_chunks(
            rules,
            policies,
            share,
            seed,
            dealer,
            threads=threads,
            conditions=cond,
            start=start,
            progress=progress,
        )
        start += share
        for rows, _ in chunks:
            value.add(rows, dealer)
    return value
