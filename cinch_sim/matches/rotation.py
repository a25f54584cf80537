"""Cut-throat matches (more than two sides): one strategy rotated through every seat.

With three or more players every seat is a side of its own (docs/rules.md §3.5),
so two strategies cannot trade places as two sides do (``matches.play``).
Instead a *rotation* is one game index played once per seat: in game k of
the rotation strategy A sits in seat k and strategy B in every other seat.
The deals depend only on (seed, game index) and the first dealer is the
game's own cut, so the P games of a rotation see the same cards, and A holds
each seat's cards once (P = players). Each strategy keeps its own random
streams wherever it sits, as in the two-side ``swap`` pairing: A takes
stream 1 and B's seats, clockwise from A, streams 2 ... P, so in game k seat
s plays on stream 1 + (s - k) mod P. With two players this is the ``swap``
pairing exactly. The ``rotate`` pairing (the deal moving on) is not offered
here: the kernel takes one first dealer per batch, so it would cost P times
the kernel time of the rotation.

**What a rotation adds up** (``RotationStats``, A's view): A's wins over the
P games (a game left unfinished at ``max_hands`` counts 1/P, the fair share),
so A's *share* of the rotation's wins is wins / P, in [0, 1]; its fair share
is 1/P. The rotation is the unit of every interval (its games share their
deals and are dependent), as the pair is for two sides. The paired points a
hand: for hand h below the rotation's shortest game, the mean over its P
games of A's score change minus the mean change of B's seats; per rotation
the sum over those hands and their number (the clusters of a ratio interval).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cinch_sim import layout as L
from cinch_sim.engine.run import PolicySet, run_games
from cinch_sim.matches.pairs import (
    add_counts,
    add_side_counts,
    list_arrays,
    played_rows,
    side_count_names,
    split_lists,
)
from cinch_sim.policies.strategies import Strategy
from cinch_sim.records.writer import kernel_game_record
from cinch_sim.rules import Rules


def seat_policies(rules: Rules, a: Strategy, b: Strategy, a_seat: int) -> PolicySet:
    """Strategy ``a`` at ``a_seat``, ``b`` at every other seat."""
    pa, pb = a.policies(), b.policies()
    return PolicySet(
        **{
            k: [pa[k] if s == a_seat else pb[k] for s in range(rules.players)]
            for k in ("bid", "trump", "discard", "play")
        }
    )


def rotation_streams(players: int, a_seat: int) -> list[int]:
    """Each seat's random stream when A sits at ``a_seat``: A keeps stream 1, B's seats
    clockwise from A streams 2 ... players (so B's k-th seat after A keeps its stream).

    >>> rotation_streams(3, 0), rotation_streams(3, 1)
    ([1, 2, 3], [3, 1, 2])
    """
    return [1 + (s - a_seat) % players for s in range(players)]


@dataclass
class RotationChunk:
    """Every game of a run of rotations: kernel arrays for A at seat 0, 1, ..., the rules."""

    start: int  # index of the first rotation (= its game index)
    games: tuple[np.ndarray, ...]  # games[k]: A at seat k
    hands: tuple[np.ndarray, ...]
    trace: tuple[np.ndarray, ...]
    rules: Rules

    @property
    def n(self) -> int:
        return self.games[0].shape[0]


def play_rotations(
    rules: Rules,
    a: Strategy,
    b: Strategy,
    seed: int,
    start: int,
    n: int,
    max_hands: int = 256,
    trace: bool = False,
    policies: tuple[PolicySet, ...] | None = None,
) -> RotationChunk:
    """Rotations start..start+n-1: each game index once with A at each seat."""
    p = rules.players
    pols = policies or tuple(seat_policies(rules, a, b, k) for k in range(p))
    out = [
        run_games(rules, pols[k], seed, start, n, None, max_hands, trace,
                  streams=rotation_streams(p, k))
        for k in range(p)
    ]  # fmt: skip
    g, h, t = zip(*out, strict=True)
    return RotationChunk(start, tuple(g), tuple(h), tuple(t), rules)


def rotation_records(rules: Rules, chunk: RotationChunk) -> list[dict[str, Any]]:
    """``cinch-game/1`` records of a chunk (rotation by rotation: A at seat 0, 1, ...),
    each refereed as ``matches.play.game_records`` does."""
    out = []
    for i in range(chunk.n):
        for k in range(len(chunk.games)):
            try:
                rec = kernel_game_record(
                    rules, chunk.games[k][i], chunk.hands[k][i], chunk.trace[k][i]
                )
            except RuntimeError as e:
                raise RuntimeError(
                    f"game {chunk.start + i} (A at seat {k} of its rotation): {e}"
                ) from None
            out.append(rec)
    return out


@dataclass
class RotationStats:
    """Per-rotation and per-game numbers of a cut-throat match (A's view)."""

    players: int
    share: list[np.ndarray] = field(default_factory=list)  # A's wins / players, per rotation
    diff_sum: list[np.ndarray] = field(default_factory=list)  # paired per-hand diffs, summed
    diff_n: list[np.ndarray] = field(default_factory=list)  # paired hands
    # per game, in the chunk's order (rotation by rotation, A at seat 0, 1, ...)
    a_win: list[np.ndarray] = field(default_factory=list)  # 1, 0, or 1/players unfinished
    winner: list[np.ndarray] = field(default_factory=list)  # winning seat, -1 unfinished
    a_total: list[np.ndarray] = field(default_factory=list)
    best_other: list[np.ndarray] = field(default_factory=list)  # B's best final total
    length: list[np.ndarray] = field(default_factory=list)
    reason: list[np.ndarray] = field(default_factory=list)
    # per side (0 = A's seat, 1 = B's seats together), summed: pairs.side_count_names
    counts: np.ndarray | None = None

    def add(self, chunk: RotationChunk) -> None:
        p = self.players
        rules = chunk.rules
        if self.counts is None:
            self.counts = np.zeros((2, len(side_count_names(rules))), np.int64)
        n = chunk.n
        wins = np.zeros((p, n))
        lens = np.zeros((p, n), np.int64)
        nets = []
        per_game: dict[str, list[np.ndarray]] = {k: [] for k in
                                                 ("a_win", "winner", "a_total", "best_other",
                                                  "length", "reason")}  # fmt: skip
        for k in range(p):
            g, h = chunk.games[k], chunk.hands[k]
            winner = g[:, L.G_WINNER]
            w = np.where(winner == k, 1.0, np.where(winner >= 0, 0.0, 1.0 / p))
            wins[k] = w
            lens[k] = g[:, L.G_N_HANDS]
            totals = g[:, L.G_SCORE : L.G_SCORE + p]
            others = np.delete(totals, k, axis=1)
            per_game["a_win"].append(w)
            per_game["winner"].append(winner.astype(np.int64))
            per_game["a_total"].append(totals[:, k].astype(np.int64))
            per_game["best_other"].append(others.max(axis=1).astype(np.int64))
            per_game["length"].append(g[:, L.G_N_HANDS].astype(np.int64))
            per_game["reason"].append(g[:, L.G_REASON].astype(np.int64))
            change = h[:, :, L.H_SCORE : L.H_SCORE + p].astype(float)
            mine = change[:, :, k]
            nets.append(mine - (change.sum(axis=2) - mine) / (p - 1))
            self._count(rules, h, g[:, L.G_N_HANDS], k)
        # per game, rotation by rotation: game (i, k) at i * p + k
        for name, parts in per_game.items():
            getattr(self, name).append(np.stack(parts, axis=1).reshape(-1))
        self.share.append(wins.sum(axis=0) / p)
        m = lens.min(axis=0)
        idx = np.arange(nets[0].shape[1])[None, :] < m[:, None]
        d = sum(nets) / p
        self.diff_sum.append(np.where(idx, d, 0.0).sum(axis=1))
        self.diff_n.append(m)

    def _count(self, rules: Rules, h: np.ndarray, n_hands: np.ndarray, a_seat: int) -> None:
        rows = played_rows(h, n_hands)
        alone = rows[:, L.H_MAKER] == a_seat
        add_side_counts(self.counts[0], rules, rows, alone, lambda t: t == a_seat)
        add_side_counts(self.counts[1], rules, rows, ~alone, lambda t: t != a_seat)

    def cat(self, name: str) -> np.ndarray:
        parts = getattr(self, name)
        return np.concatenate(parts) if parts else np.zeros(0)

    @property
    def rotations(self) -> int:
        return sum(x.size for x in self.share)

    def merge(self, other: RotationStats) -> None:
        """Append a later run of rotations (``PairStats.merge`` says why it is exact)."""
        for name in ROTATION_LISTS:
            getattr(self, name).extend(getattr(other, name))
        self.counts = add_counts(self.counts, other.counts)

    def to_arrays(self) -> dict[str, np.ndarray]:
        """Every number as named arrays, for a chunk file (``PairStats.to_arrays``)."""
        counts = np.zeros((2, 0), np.int64) if self.counts is None else self.counts
        extra = {"players": np.array(self.players), "counts": counts}
        return list_arrays(self, ROTATION_LISTS, extra)

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> RotationStats:
        counts = np.array(arrays["counts"], np.int64)
        return cls(int(arrays["players"]), counts=counts if counts.size else None,
                   **split_lists(arrays, ROTATION_LISTS))  # fmt: skip


ROTATION_LISTS = ("share", "diff_sum", "diff_n", "a_win", "winner", "a_total", "best_other",
                  "length", "reason")  # fmt: skip
