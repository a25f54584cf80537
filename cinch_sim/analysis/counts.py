"""Streaming counts of played hands: the bottom of the analysis layer.

``HandCounts`` takes the kernel's result rows chunk by chunk and keeps only
counts (one compiled pass, ``row_codes.count_rows``, over a joint key of the features a player knows
before bidding), so memory stays flat however many hands run. Counts merge
exactly (``merge``), so runs can be split and combined.

The joint key of a played hand is (maker's seat relative to the dealer, bid,
trumps in the maker's dealt cards, which Pedros the maker was dealt, which
of A K Q J 10 of trumps the maker was dealt). Every coarser feature (``high``:
how many of those five, ``ace``) is a sum over that key, so any slicing of
the tables adds up to the same total.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cinch_sim.analysis.features import FEATURES
from cinch_sim.analysis.row_codes import SUM_NAMES, count_rows

PEDRO_LABELS = ("none", "right", "left", "both")
HOLDERS = ("maker", "partner", "defender", "none")  # who held a Pedro after the draw
FATES = ("saved", "lost", "out_of_play")  # captured by the holder's side, the other, neither
SIDES = ("bidding_side", "defenders", "not_in_play")  # who captured a Pedro
HONOUR_LETTERS = "TJQKA"  # bit 0 .. bit 4 of H_MAKER_HONOURS_DEALT


class AnalysisError(ValueError):
    """A bad request to the analysis (unknown feature, missing optional package)."""


def check_features(by: Sequence[str] | str) -> tuple[str, ...]:
    """Validate feature names; return them as a tuple without duplicates."""
    if isinstance(by, str):
        by = (by,)
    out: list[str] = []
    for f in by:
        if f not in FEATURES:
            raise AnalysisError(f"unknown feature {f!r} (known: {', '.join(FEATURES)})")
        if f not in out:
            out.append(f)
    return tuple(out)


def pedro_labels(rules) -> tuple[str, ...]:
    """The ``pedros`` feature's values under these rules: PEDRO_LABELS, or where the left
    card is no Pedro (the Left Bower of all_hands) each card by its name, so that no
    value says 'left' for a Bower (hand_worth.pedro_classes words the classes the same).

    >>> from cinch_sim.rules import make_rules
    >>> pedro_labels(make_rules("all_hands"))
    ('none', 'right_pedro', 'left_bower', 'right_pedro_and_left_bower')
    """
    if not rules.left_rank or rules.left_name == "left_pedro":
        return PEDRO_LABELS
    left = rules.left_name
    return ("none", "right_pedro", left, f"right_pedro_and_{left}")


def honours_label(code: int) -> str:
    """'AKT' for the bits of A, K and 10; '-' for none."""
    s = "".join(HONOUR_LETTERS[b] for b in range(4, -1, -1) if code >> b & 1)
    return s or "-"


class HandCounts:
    """Streaming counts of played hands keyed by what the maker knew before bidding."""

    def __init__(self, rules) -> None:
        self.rules = rules
        self.players = rules.players
        self.teams = rules.teams
        self.seat_teams = np.asarray(rules.seat_teams, np.int64)
        self.partnerships = bool(rules.partnerships)
        self.n_bids = rules.bid_max + 1
        self.n_trumps = rules.cards_dealt + 1
        self.hand_size = rules.hand_size
        self.total_points = rules.total_points
        self.key_cards = rules.key_cards  # the Pedros, Sancho, Dom: their capture
        # joint key axes: seat, bid, trumps, pedros (4), honours (32)
        self.shape = (self.players, self.n_bids, self.n_trumps, 4, 32)
        size = int(np.prod(self.shape))
        self.hands = 0
        self.thrown_in = 0
        self.shortages = 0
        self.n = np.zeros(size, np.int64)
        self.made = np.zeros(size, np.int64)
        # running sums: maker's side / defenders' points and score change (and squares),
        # one column of _sums each (a cell's sums share a cache line); ``sums`` names
        # the columns (views: updated in place). Whole numbers, so every merge is exact
        # in any order (a float sum would depend on the order past 2^53)
        self._sums = np.zeros((size, len(SUM_NAMES)), np.int64)
        self.sums = {k: self._sums[:, i] for i, k in enumerate(SUM_NAMES)}
        # points histograms: bid x side (0 maker's side, 1 defenders) x points
        self.points_hist = np.zeros((self.n_bids, 2, self.total_points + 1), np.int64)
        # key card fate: card x holder role x fate x trick (last: not in play)
        self.pedro = np.zeros((len(self.key_cards), 4, 3, self.hand_size + 1), np.int64)
        # key card x who took it: the maker's side, another side, not in play
        self.pedro_side = np.zeros((len(self.key_cards), len(SIDES)), np.int64)

    @property
    def played(self) -> int:
        return self.hands - self.thrown_in

    @property
    def contracts(self) -> int:
        """Played hands with a contract: bid 0 is a hand everybody passed, played out
        with the dealer's trump and no contract to make (``all_pass``)."""
        return int(self.n.reshape(self.shape)[:, 1:].sum())

    @property
    def contracts_made(self) -> int:
        """Contracts made (bid 1 and up: a hand without a contract is neither)."""
        return int(self.made.reshape(self.shape)[:, 1:].sum())

    @property
    def make_rate(self) -> float:
        """Contracts made over contracts; NaN with none."""
        return self.contracts_made / self.contracts if self.contracts else float("nan")

    def make_rate_fields(self) -> dict[str, float]:
        """``make_rate`` with its 95% Wilson interval (``make_rate_lo``, ``_hi``)."""
        from cinch_sim.analysis.intervals import rate_fields

        return rate_fields("make_rate", self.contracts_made, self.contracts)

    def contracts_line(self) -> str:
        """``made 63.5% [62.8, 64.2] of 19,872 contracts; 128 passed out; 0 thrown in``:
        what every headline says of the hands (a hand everybody passed is not a contract
        made)."""
        from cinch_sim import notation as N

        passed = self.played - self.contracts
        f = self.make_rate_fields()
        made = N.rate_with_interval(f["make_rate"], f["make_rate_lo"], f["make_rate_hi"])
        return (
            f"made {made} of {self.contracts:,} contracts; "
            + (f"{passed:,} passed out (no contract); " if passed else "")
            + f"{self.thrown_in:,} thrown in"
        )

    def add(self, rows: np.ndarray) -> None:
        """Count one chunk of the kernel's result rows (one compiled pass, row_codes)."""
        slots = np.array([slot for _, slot in self.key_cards], np.int64)
        thrown, short, bad = count_rows(
            rows, self.seat_teams, slots, np.array(self.shape, np.int64), self.n, self.made,
            self._sums, self.points_hist, self.pedro, self.pedro_side,
        )  # fmt: skip
        if bad != -1:
            raise ValueError(f"bid {bad} outside 0..{self.n_bids - 1} in the kernel's results")
        self.hands += len(rows)
        self.thrown_in += int(thrown)
        self.shortages += int(short)

    def merge(self, other: HandCounts) -> None:
        """Add another aggregator's counts (same rules), e.g. from a parallel run."""
        if other.shape != self.shape or other.pedro.shape != self.pedro.shape:
            raise ValueError("cannot merge counts made under different rules")
        self.hands += other.hands
        self.thrown_in += other.thrown_in
        self.shortages += other.shortages
        self.n += other.n
        self.made += other.made
        for k in self.sums:
            self.sums[k] += other.sums[k]
        self.points_hist += other.points_hist
        self.pedro += other.pedro
        self.pedro_side += other.pedro_side

    # the arrays ``to_arrays`` holds densely (the joint key's cells are kept sparse)
    _DENSE = ("points_hist", "pedro", "pedro_side")

    def to_arrays(self) -> dict[str, np.ndarray]:
        """Every count as named integer arrays (the non-empty cells of the joint key
        only: a chunk fills a few thousand of its cells), for a chunk file;
        ``from_arrays`` gives the same counts back."""
        nz = np.flatnonzero(self.n)
        out = {
            "totals": np.array([self.hands, self.thrown_in, self.shortages], np.int64),
            "cells": nz.astype(np.int64),
            "n": self.n[nz],
            "made": self.made[nz],
            "sums": self._sums[nz],
        }
        out.update({k: getattr(self, k) for k in self._DENSE})
        return out

    @classmethod
    def from_arrays(cls, rules, arrays: dict[str, np.ndarray]) -> HandCounts:
        """The counts ``to_arrays`` wrote, for these rules (a shape that does not fit
        them is a ValueError)."""
        c = cls(rules)
        cells = np.asarray(arrays["cells"], np.int64)
        ok = cells.size == 0 or (cells.min() >= 0 and cells.max() < c.n.size)
        if not ok or any(np.shape(arrays[k]) != getattr(c, k).shape for k in cls._DENSE):
            raise ValueError("these counts were made under other rules")
        c.hands, c.thrown_in, c.shortages = (int(x) for x in arrays["totals"])
        c.n[cells] = arrays["n"]
        c.made[cells] = arrays["made"]
        c._sums[cells] = arrays["sums"]
        for k in cls._DENSE:
            getattr(c, k)[...] = arrays[k]
        return c

    def same(self, other: HandCounts) -> bool:
        """Whether two counts are equal in every number (what a merge must keep)."""
        a, b = self.to_arrays(), other.to_arrays()
        return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)

    def cells(self, by: Sequence[str] = ()) -> Any:
        """The non-empty cells of the joint key, with the named features, as a DataFrame.

        Columns: one per feature of ``by`` (as sort codes), ``hands``, ``made``
        and the running sums. Rows sum to ``played``.
        """
        import pandas as pd

        codes, values = self.cell_codes(by)
        return pd.DataFrame({**codes, **values})

    def cell_codes(self, by: Sequence[str] = ()) -> tuple[dict[str, Any], dict[str, Any]]:
        """The non-empty cells of the joint key as arrays, without pandas: the named
        features' sort codes, and ``hands``, ``made`` and the running sums."""
        nz = np.flatnonzero(self.n)
        seat, bid, trumps, ped, hi = np.unravel_index(nz, self.shape)
        codes = {
            "seat": seat,
            "bid": bid,
            "trumps": trumps,
            "pedros": ped,
            "high": np.array([bin(int(h)).count("1") for h in range(32)])[hi],
            "ace": (hi >> 4) & 1,
            "honours": hi,
        }
        values = {"hands": self.n[nz], "made": self.made[nz]}
        for k, a in self.sums.items():
            values[k] = a[nz]
        return {f: codes[f] for f in check_features(by)}, values

    def feature_labels(self, feature: str, codes: np.ndarray) -> Any:
        """Human labels for a feature's sort codes (ints stay ints)."""
        from cinch_sim.rules import seat_name

        codes = np.asarray(codes)
        if feature == "seat":
            return [seat_name(int(c), self.players - 1, self.players) for c in codes]
        if feature == "pedros":
            labels = pedro_labels(self.rules)
            return [labels[int(c)] for c in codes]
        if feature == "ace":
            return codes.astype(bool)
        if feature == "honours":
            return [honours_label(int(c)) for c in codes]
        return codes.astype(np.int64)
