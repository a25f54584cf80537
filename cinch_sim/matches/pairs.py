"""What each duplicate pair adds to a match's statistics (A's view).

The unit is the pair, not the game: the two games of a pair share their
deals and are strongly correlated (negatively, when luck dominates), so
games are not independent trials. Per pair, :class:`PairStats` keeps

- the *pair score* s = (w1 + w2) / 2, with w = 1 for a win of A, 0 for a loss
  and 1/2 for a game left unfinished at ``max_hands``;
- the *paired points difference*: a hand's points here are the score change
  of a side (what the game counts: a set bid loses the bid). For hand h of a
  pair (h below the shorter game's length) the paired difference is the mean
  over the two games of (A's change - B's change): the same deal, once with
  A holding each side's cards. Per pair the sum over paired hands and their
  number are kept, the clusters of ``matches.compare``'s ratio interval;
- the pair's *luck* (``matches.luck``): a number of mean zero that moves with
  the pair score, the control variate of the win rate.

Per game it keeps A's result, the margin, the length and the end reason, and
per side summed counts of contracts and Pedros.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cinch_sim import layout as L
from cinch_sim.matches.luck import pair_luck
from cinch_sim.matches.play import PairChunk
from cinch_sim.rules import Rules


@dataclass
class PairStats:
    """Per-pair and per-game numbers of a match (A's view), accumulated chunk by chunk."""

    pair_score: list[np.ndarray] = field(default_factory=list)  # (w1 + w2) / 2
    diff_sum: list[np.ndarray] = field(default_factory=list)  # paired per-hand diffs, summed
    diff_n: list[np.ndarray] = field(default_factory=list)  # paired hands
    luck: list[np.ndarray] = field(default_factory=list)  # matches.luck.pair_luck
    a_win: list[np.ndarray] = field(default_factory=list)  # per game: 1, 0 or 0.5
    margin: list[np.ndarray] = field(default_factory=list)  # per game: A total - B total
    length: list[np.ndarray] = field(default_factory=list)  # per game: hands
    reason: list[np.ndarray] = field(default_factory=list)  # per game: REASON_*
    # per side (0 = A, 1 = B), summed over every hand: contracts, made, set, the sum
    # of the bids, hands named without a contract, then for each key card of the rules
    # (the Pedros, Sancho, Dom): in play, taken by the side (side_count_names, below)
    counts: np.ndarray | None = None

    def add(self, chunk: PairChunk) -> None:
        nets = []
        lens = []
        wins = []
        for j in range(2):
            g, h, ta = chunk.games[j], chunk.hands[j], chunk.a_team[j]
            tb = 1 - ta
            winner = g[:, L.G_WINNER]
            w = np.where(winner == ta, 1.0, np.where(winner == tb, 0.0, 0.5))
            wins.append(w)
            self.a_win.append(w)
            self.margin.append(g[:, L.G_SCORE + ta] - g[:, L.G_SCORE + tb])
            self.length.append(g[:, L.G_N_HANDS].copy())
            self.reason.append(g[:, L.G_REASON].copy())
            lens.append(g[:, L.G_N_HANDS])
            nets.append(h[:, :, L.H_SCORE + ta] - h[:, :, L.H_SCORE + tb])
            self._count(chunk.rules, h, g[:, L.G_N_HANDS], ta)
        self.pair_score.append((wins[0] + wins[1]) / 2)
        m = np.minimum(lens[0], lens[1])
        idx = np.arange(nets[0].shape[1])[None, :] < m[:, None]
        d = (nets[0] + nets[1]) / 2.0
        self.diff_sum.append(np.where(idx, d, 0.0).sum(axis=1))
        self.diff_n.append(m.astype(np.int64))
        self.luck.append(pair_luck(chunk))

    def _count(self, rules: Rules, h: np.ndarray, n_hands: np.ndarray, ta: int) -> None:
        if self.counts is None:
            self.counts = np.zeros((2, len(side_count_names(rules))), np.int64)
        rows = played_rows(h, n_hands)
        maker_team = np.asarray(rules.seat_teams)[rows[:, L.H_MAKER]]
        for side, team in ((0, ta), (1, 1 - ta)):
            ours = maker_team == team
            add_side_counts(self.counts[side], rules, rows, ours, lambda t, team=team: t == team)

    def cat(self, name: str) -> np.ndarray:
        parts = getattr(self, name)
        return np.concatenate(parts) if parts else np.zeros(0)

    @property
    def pairs(self) -> int:
        return sum(x.size for x in self.pair_score)

    def merge(self, other: PairStats) -> None:
        """Append a later run of pairs: the lists join end to end (nothing is re-added,
        so a merge is exact; merged in chunk order it is the run played in one go)."""
        for name in PAIR_LISTS + GAME_LISTS:
            getattr(self, name).extend(getattr(other, name))
        self.counts = add_counts(self.counts, other.counts)

    def to_arrays(self) -> dict[str, np.ndarray]:
        """Every number as named arrays (each list joined, with its parts' sizes), for a
        chunk file; ``from_arrays`` gives the same lists back."""
        counts = np.zeros((2, 0), np.int64) if self.counts is None else self.counts
        return list_arrays(self, PAIR_LISTS + GAME_LISTS, {"counts": counts})

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> PairStats:
        names = PAIR_LISTS + GAME_LISTS
        if "luck" not in arrays:  # a chunk file of a run begun before the luck was kept
            names = tuple(n for n in names if n != "luck")
        lists = split_lists(arrays, names)
        lists.setdefault("luck", [np.full(x.size, np.nan) for x in lists["pair_score"]])
        counts = np.array(arrays["counts"], np.int64)
        return cls(counts=counts if counts.size else None, **lists)


PAIR_LISTS = ("pair_score", "diff_sum", "diff_n", "luck")  # PairStats' lists of one value a pair
GAME_LISTS = ("a_win", "margin", "length", "reason")  # and of one value a game


def list_arrays(stats: Any, names: tuple[str, ...], extra: dict[str, Any]) -> dict[str, Any]:
    """A stats object's lists of arrays as one array each plus ``NAME.sizes`` (both
    kinds of match keep their numbers so)."""
    out = dict(extra)
    for name in names:
        parts = getattr(stats, name)
        out[name] = np.concatenate(parts) if parts else np.zeros(0)
        out[f"{name}.sizes"] = np.array([x.size for x in parts], np.int64)
    return out


def split_lists(arrays: dict[str, Any], names: tuple[str, ...]) -> dict[str, list[np.ndarray]]:
    """``list_arrays`` undone: each joined array cut back into its parts."""
    out = {}
    for name in names:
        cuts = np.cumsum(np.asarray(arrays[f"{name}.sizes"], np.int64))[:-1]
        sizes = arrays[f"{name}.sizes"]
        out[name] = list(np.split(np.asarray(arrays[name]), cuts)) if len(sizes) else []
    return out


def same_stats(a: Any, b: Any) -> bool:
    """Whether two match stats are equal in every number, dtype and part."""
    x, y = a.to_arrays(), b.to_arrays()
    return x.keys() == y.keys() and all(
        np.asarray(x[k]).dtype == np.asarray(y[k]).dtype and np.array_equal(x[k], y[k]) for k in x
    )


def played_rows(h: np.ndarray, n_hands: np.ndarray) -> np.ndarray:
    """The hand rows of a batch of games that were played and not thrown in."""
    played = np.arange(h.shape[1])[None, :] < n_hands[:, None]
    return h[played & (h[:, :, L.H_THROWN_IN] == 0)]


def add_counts(a: np.ndarray | None, b: np.ndarray | None) -> np.ndarray | None:
    """Two sides' summed counts added (None: no hand counted yet, sized by the rules
    at the first hand)."""
    if b is None:
        return a
    return b.copy() if a is None else a + b


def side_count_names(rules: Rules) -> list[str]:
    """The per-side count columns: contracts, made, set, bid sum, no contract, then per
    key card of the rules (the Pedros by their own names, ``left_bower`` in all_hands;
    then Sancho and Dom where played) in play and taken."""
    names = ["contracts", "made", "set", "bid_sum", "no_contract"]
    for name, _ in rules.key_cards:
        names += [f"{name}_in_play", f"{name}_taken"]
    return names


def add_side_counts(c: np.ndarray, rules: Rules, rows: np.ndarray, mine: np.ndarray, ours) -> None:
    """One side's counts into ``c`` (the ``counts`` row both kinds of match keep):
    contracts, made, set, their bids, hands it made without a contract; then for
    each Pedro (Right, then Left) the hands it was in play and those the side took,
    ``ours(slot_team)`` telling the side's slot teams (team or seat) from the others."""
    contract = mine & (rows[:, L.H_BID] > 0)
    c[0] += int(contract.sum())
    c[1] += int((contract & (rows[:, L.H_MADE] == 1)).sum())
    c[2] += int((contract & (rows[:, L.H_MADE] == 0)).sum())
    c[3] += int(rows[contract, L.H_BID].sum())
    c[4] += int((mine & (rows[:, L.H_BID] == 0)).sum())
    for j, (_, slot) in enumerate(rules.key_cards):
        st = rows[:, L.H_SLOT_TEAM + slot]
        c[5 + 2 * j] += int((st >= 0).sum())
        c[6 + 2 * j] += int(((st >= 0) & ours(st)).sum())
