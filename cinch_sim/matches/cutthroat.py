"""A cut-throat match of two strategies (more than two sides) and its summary.

Played by ``matches.rotation``: per deal set (game index) one game with A at
each seat and B at all the others. **Statistics** (two-sided, level 95%):

- *A's share of the wins.* The mean over rotations of A's wins / players,
  against the fair share 1/players (what A would win if it were no better
  and no worse than B). The games of a rotation share their deals, so the
  unit is the rotation: Student's t over rotations with one pseudo-rotation
  won and one lost, clipped to [0, 1] (``analysis.intervals.bounded_mean``,
  as the two-side win rate over pairs). The p-value of mean share =
  1/players is the one that interval inverts (``bounded_mean_test``): under
  0.05 exactly when the 95% interval leaves the fair share out.
- *B's share per seat.* B is the field: its P - 1 seats together won
  1 - A's share of the games, so one of its seats won (1 - share) / (P - 1),
  against the same fair share; its interval is A's, mapped.
- *Points a hand, A minus the field.* Per hand below a rotation's shortest
  game, A's score change minus the mean change of B's seats, averaged over
  the rotation's games; the ratio estimator's interval clustered by rotation
  (``analysis.intervals.ratio_interval``), t on rotations - 1.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from cinch_sim import layout as L
from cinch_sim import notation as N
from cinch_sim.analysis.intervals import (
    bounded_mean_test,
    rate_fields,
    ratio_interval,
)
from cinch_sim.engine.interrupts import chunk_boundaries
from cinch_sim.engine.threads import using
from cinch_sim.matches.pairs import side_count_names
from cinch_sim.matches.result import MatchTables
from cinch_sim.matches.rotation import (
    RotationChunk,
    RotationStats,
    play_rotations,
    seat_policies,
)
from cinch_sim.policies.strategies import Strategy, resolve_player
from cinch_sim.rules import Rules, resolve_rules
from cinch_sim.version import __version__


def share_p_value(shares: np.ndarray, fair: float, level: float = 0.95) -> float:
    """Two-sided p-value of mean share == ``fair``, the one A's share's interval
    inverts: under 1 - level exactly when that interval leaves ``fair`` out.

    >>> round(share_p_value(np.ones(5), 1 / 2), 4)  # 5 won: [50.8, 100.0] leaves 50% out
    0.0465
    """
    return bounded_mean_test(shares, 0.0, 1.0, fair, level)[3]


@dataclass(repr=False)
class CutThroatComparison(MatchTables):
    """A cut-throat match: A at each seat in turn, B at the others, over the same deals
    (``.table()``: each side's bids and Pedros; ``.table("games")``: one row a game)."""

    a: Strategy
    b: Strategy
    settings: dict[str, Any]
    data: RotationStats
    rules: Rules
    seconds: float = 0.0
    interrupted: bool = False
    level: float = 0.95

    cutthroat = True

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def rotations(self) -> int:
        return self.data.rotations

    @property
    def units(self) -> int:
        """The independent units of the match: rotations."""
        return self.rotations

    @property
    def games(self) -> int:
        return self.players * self.rotations

    def unit_scores(self) -> np.ndarray:
        """A's share of each rotation's wins (what the ladder resamples)."""
        return self.data.cat("share")

    def summary(self, level: float | None = None) -> dict[str, Any]:
        level = self.level if level is None else level
        d, p = self.data, self.players
        fair = 1.0 / p
        sh = d.cat("share")
        # the interval and the p-value it inverts, from one computation (NaN: no rotation)
        share, lo, hi, share_p = bounded_mean_test(sh, 0.0, 1.0, fair, level)
        pm, plo, phi, pp = ratio_interval(d.cat("diff_sum"), d.cat("diff_n"), level)
        reason = d.cat("reason").astype(int)
        winner = d.cat("winner").astype(int)
        a_win = d.cat("a_win")
        lengths = d.cat("length")
        out: dict[str, Any] = {
            "a": self.a.name,
            "b": self.b.name,
            "players": p,
            "a_seats": 1,
            "b_seats": p - 1,
            "games": self.games,
            "rotations": self.rotations,
            "level": level,
            "fair_share": fair,
            "a_wins": int((a_win == 1).sum()),
            "b_wins": int(((a_win == 0) & (winner >= 0)).sum()),
            "unfinished": int((reason == L.REASON_UNFINISHED).sum()),
            "negative_limit_endings": int((reason == L.REASON_NEGATIVE_LIMIT).sum()),
            "a_share": share,
            "a_share_ci": [lo, hi],
            "a_share_p_value": share_p,
            "b_share_per_seat": (1 - share) / (p - 1),
            "b_share_per_seat_ci": [(1 - hi) / (p - 1), (1 - lo) / (p - 1)],
            "points_per_hand_diff": pm,
            "points_per_hand_diff_ci": [plo, phi],
            "points_p_value": pp,
            "paired_hands": int(d.cat("diff_n").sum()),
            "mean_game_length": float(lengths.mean()) if lengths.size else float("nan"),
        }
        for side, s in ((0, "a"), (1, "b")):
            out[s + "_side"] = _side(self.rules, d.counts, side, self.games, (1, p - 1)[side])
        return out

    def games_frame(self) -> pd.DataFrame:
        """One row per game: the seed and the rotation's index under it (which deal it
        again), A's seat, A's result, the winning seat, A's total, the best total of B's
        seats, hands, end reason."""
        d, p = self.data, self.players
        n = self.rotations
        reason = d.cat("reason").astype(int)
        seeds, index = self.unit_seeds(n)
        return pd.DataFrame(
            {
                "seed": np.repeat(seeds, p),
                "rotation": np.repeat(index, p),
                "a_seat": np.tile(np.arange(p), n),
                "a_result": d.cat("a_win"),
                "winner_seat": d.cat("winner").astype(int),
                "a_total": d.cat("a_total").astype(int),
                "best_b_total": d.cat("best_other").astype(int),
                "hands": d.cat("length").astype(int),
                "reason": [L.REASON_NAMES[r] for r in reason],
            }
        )

    def headline(self) -> str:
        s = self.summary()
        share = N.rate_with_interval(s["a_share"], *s["a_share_ci"])
        if any(np.isnan(x) for x in s["a_share_ci"]):
            share += " (too few games for an interval)"
        return (
            f"Cut-throat comparison, {s['players']} players: {s['a']} alone vs {s['b']} in the "
            f"other seats, {s['games']:,} games ({s['rotations']:,} rotations), seed "
            f"{self.settings['seed']}; share of wins of {s['a']} {share}, fair share "
            f"{N.rate(s['fair_share'])}"
        )


def _side(rules: Rules, counts: np.ndarray | None, side: int, games: int, seats: int) -> dict:
    """One side's bids and key cards from its summed counts (``pairs.side_count_names``);
    ``seats``: how many seats the side held in each game."""
    names = side_count_names(rules)
    c = dict(zip(names, counts[side] if counts is not None else np.zeros(len(names)),
                 strict=True))  # fmt: skip
    out: dict[str, Any] = {
        "seats": seats,
        "contracts": int(c["contracts"]),
        "made": int(c["made"]),
        "set": int(c["set"]),
        **rate_fields("make_rate", c["made"], c["contracts"]),
        "average_bid": float(c["bid_sum"] / c["contracts"]) if c["contracts"] else float("nan"),
        "no_contract": int(c["no_contract"]),
    }
    for name, _ in rules.key_cards:
        n_in = c[f"{name}_in_play"]
        out.update(rate_fields(f"{name}_capture", c[f"{name}_taken"], n_in))
    out["contracts_per_game"] = float(c["contracts"] / games) if games else 0.0
    return out


def cutthroat_compare(
    a: str | Strategy,
    b: str | Strategy,
    games: int = 1000,
    seed: int = 0,
    rules: Rules | None = None,
    max_hands: int = 256,
    chunk_rotations: int = 1000,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    on_chunk: Callable[[RotationChunk], None] | None = None,
    trace: bool = False,
    start_rotation: int = 0,
    level: float = 0.95,
) -> CutThroatComparison:
    """A cut-throat match of ``games`` games, rounded up to whole rotations (one game
    per seat). ``progress``, ``on_chunk`` and Ctrl-C as in ``matches.compare.compare``."""
    r = resolve_rules(rules)
    if r.teams < 3:
        raise ValueError(
            f"a cut-throat match needs three sides or more; these rules have {r.teams}"
        )
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    p = r.players
    sa, sb = resolve_player(a), resolve_player(b)
    n_rot = -(-games // p)
    pols = tuple(seat_policies(r, sa, sb, k) for k in range(p))
    settings = {
        "command": "compare",
        "version": __version__,
        "games_requested": games,
        "seed": seed,
        "max_hands": max_hands,
        "pairing": "rotation",
        "rules": r.describe(),
        "strategy_a": sa.describe(),
        "strategy_b": sb.describe(),
    }  # as matches.compare.match_settings gives them (it imports this module)
    data = RotationStats(p)
    if trace:
        chunk_rotations = min(chunk_rotations, max(1, 8192 // max_hands))
    start = time.perf_counter()
    interrupted = False
    with using(threads), chunk_boundaries() as interrupts:
        try:
            done = 0
            while done < n_rot:
                interrupts.check()
                k = min(chunk_rotations, n_rot - done)
                ch = play_rotations(r, sa, sb, seed, start_rotation + done, k, max_hands,
                                    trace, pols)  # fmt: skip
                data.add(ch)
                if on_chunk is not None:
                    on_chunk(ch)
                done += k
                if progress is not None:
                    progress(p * k)
        except KeyboardInterrupt:
            interrupted = True
    return CutThroatComparison(
        sa, sb, settings, data, r, time.perf_counter() - start, interrupted, level
    )
