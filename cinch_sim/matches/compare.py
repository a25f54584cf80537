"""A duplicate match of two strategies and its summary (``cinch-sim compare``).

The pairs are played by ``matches.play`` and added up by ``matches.pairs``.
**Statistics** (all two-sided, level 95% unless asked):

- *Win rate of A.* The mean pair score s (``matches.pairs``); a binomial
  (Wilson) interval over games would be wrong, since the two games of a pair
  are not independent. The interval is Student's t over pairs with one
  pseudo-pair won and one lost added, clipped to [0, 1]
  (``analysis.intervals.mean_interval``): with hundreds of pairs it is the
  plain t interval, and at or near a sweep (mean 0 or 1) it neither collapses
  to a point nor narrows as the last lost pair is won (it is monotone there,
  which switching to a Wilson interval at the sweep was not). The p-value of
  mean s = 1/2 is the one that interval inverts (the same t, pseudo-pairs
  and all: ``bounded_mean_test``), so it is under 0.05 exactly when the 95%
  interval leaves 50% out.
- *The win rate, luck-adjusted* (a control variate): each pair's luck
  (``matches.luck``: the deals one game played and the other did not, judged
  by the heuristic's hand model; mean zero) is subtracted from its score in
  proportion (``analysis.intervals.control_variate_interval``), reported
  beside the plain estimate with the share of the variance it removed.
- *A sequential stop* (``until="decided"``): a look every ``UNTIL_LOOK_PAIRS``
  pairs, and the match ends at the first look where the always-valid 95%
  confidence sequence of the mean pair score excludes 1/2
  (``analysis.intervals.confidence_sequence``: an empirical-Bernstein
  sequence over the pair scores in order, valid however often it is looked
  at, so an early stop is no licence for a wrong answer). The summary then
  gives that sequence's interval too; the fixed-n t interval beside it is not
  valid after a data-dependent stop.
- *Points per hand.* The estimate pools every paired hand's difference;
  since the hands of one pair are correlated (the score shapes the bidding),
  the interval is the ratio estimator's, clustered by pair (sum of
  differences over paired hands per pair), with t on pairs - 1 degrees of
  freedom (``analysis.intervals.ratio_interval``).
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
    confidence_sequence,
    control_variate_interval,
    rate_fields,
    ratio_interval,
)
from cinch_sim.checks import InputError
from cinch_sim.engine.interrupts import chunk_boundaries
from cinch_sim.engine.threads import using
from cinch_sim.matches.cutthroat import CutThroatComparison, cutthroat_compare
from cinch_sim.matches.pairs import PairStats, side_count_names
from cinch_sim.matches.play import PAIRINGS, PairChunk, check_two_sides, play_pairs, team_policies
from cinch_sim.matches.result import MatchTables
from cinch_sim.policies.strategies import Strategy, resolve_player
from cinch_sim.rules import Rules, resolve_rules
from cinch_sim.version import __version__

UNTILS = ("decided",)
UNTIL_LOOK_PAIRS = 50  # pairs between two looks of the sequential stop (its chunks)


def check_until(until: str | None, r: Rules, chunk: int | None) -> int | None:
    """The chunk a match runs in: ``chunk``, or with a sequential stop its looks (so
    where it stops never depends on a chunk size); a one-line InputError for an
    unknown rule, a cut-throat match or a chunk given beside it."""
    if until is None:
        return chunk
    if until not in UNTILS:
        raise InputError("until", f"{until!r} is not one of: {', '.join(UNTILS)}")
    if r.teams > 2:
        why = "a sequential stop is for two sides (a cut-throat match plays every rotation)"
        raise InputError("until", why)
    if chunk is not None:
        why = (
            f"cannot be set with until: a sequential stop looks at the match every "
            f"{UNTIL_LOOK_PAIRS} pairs, its own chunks (a run begun with a chunk size "
            "cannot add until on resume: start a new one)"
        )
        raise InputError("chunk", why)
    return UNTIL_LOOK_PAIRS


def win_rate_sequence(data: PairStats, level: float = 0.95) -> tuple[float, float, float]:
    """A's win rate and its always-valid confidence sequence's interval."""
    return confidence_sequence(data.cat("pair_score"), level)


def decided(data: PairStats) -> bool:
    """The sequential stop's rule: the win rate's confidence sequence excludes 1/2."""
    _, lo, hi = win_rate_sequence(data)
    return lo > 0.5 or hi < 0.5


def sequence_shown(p: float, lo: float, hi: float, decided: bool) -> str:
    """The confidence sequence as printed: where it decided, with as many decimals as
    it takes for the shown interval to leave out 50% too (0.5006 is not '50.0')."""
    digits = N.sign_digits(100 * lo, 100 * hi, 1, around=50.0) if decided else 1
    return N.rate_with_interval(p, lo, hi, digits)


def win_rate_shown(s: dict[str, Any]) -> str:
    """The win rate as a headline shows it: with its fixed-size interval, or in a match
    with a sequential stop (``until``) with the always-valid one, which alone holds
    when the number of games depended on the results (stopped early or not)."""
    if "until" in s:
        lo, hi = s["win_rate_sequence_ci"]
        how = "stopped early" if s["stopped_early"] else "not decided"
        return f"{sequence_shown(s['win_rate'], lo, hi, s['stopped_early'])} (always-valid: {how})"
    win = N.rate_with_interval(s["win_rate"], *s["win_rate_ci"])
    if any(np.isnan(x) for x in s["win_rate_ci"]):
        win += " (too few games for an interval)"
    return win


def until_text(s: dict[str, Any]) -> str:
    """Where a match with a sequential stop ended and its always-valid interval, in the
    words the command line and a result's repr share (``s``: a summary with ``until``)."""
    lo, hi = s["win_rate_sequence_ci"]
    seq = sequence_shown(s["win_rate"], lo, hi, s["stopped_early"])
    if s["stopped_early"]:
        return (
            f"stopped after {s['games']:,} games: the win rate's always-valid 95% "
            f"interval {seq} leaves out 50%"
        )
    return (
        f"not decided in {s['games']:,} games: the win rate's always-valid 95% "
        f"interval {seq} holds 50% (the one to read when the match could stop early: "
        "the fixed-size interval assumes a number of games fixed in advance)"
    )


@dataclass(repr=False)
class Comparison(MatchTables):
    """A duplicate match of A against B: settings, per-pair data and the summary
    (``.table()``: each side's bids and Pedros; ``.table("games")``: one row a game)."""

    a: Strategy
    b: Strategy
    settings: dict[str, Any]
    data: PairStats
    seconds: float = 0.0
    interrupted: bool = False
    level: float = 0.95
    rules: Rules | None = None  # names the Pedro columns (the standard game's if None)

    cutthroat = False

    @property
    def pairs(self) -> int:
        return self.data.pairs

    @property
    def units(self) -> int:
        """The independent units of the match: duplicate pairs."""
        return self.pairs

    def unit_scores(self) -> np.ndarray:
        """Each pair's score for A (what the ladder resamples)."""
        return self.data.cat("pair_score")

    @property
    def games(self) -> int:
        return 2 * self.pairs

    def summary(self, level: float | None = None) -> dict[str, Any]:
        """The match's numbers. With ``until``, ``stopped_early`` and
        ``win_rate_sequence_ci`` too: after an early stop only that always-valid interval
        holds (``win_rate_ci``, the fixed-size t interval, does not; the repr says so)."""
        level = self.level if level is None else level
        d = self.data
        ps = d.cat("pair_score")
        # t over pairs with a pseudo-pair won and one lost (so it never collapses at a
        # sweep and stays monotone near one), and the p-value that interval inverts
        wr, wlo, whi, wp = bounded_mean_test(ps, 0.0, 1.0, 0.5, level)
        cm, clo, chi, cp, removed = control_variate_interval(ps, d.cat("luck"), 0.5, level)
        cm = float(np.clip(cm, 0, 1))  # a few pairs' luck can move it past a rate's range
        pm, plo, phi, pp = ratio_interval(d.cat("diff_sum"), d.cat("diff_n"), level)
        reason = d.cat("reason").astype(int)
        wins = d.cat("a_win")
        out: dict[str, Any] = {
            "a": self.a.name,
            "b": self.b.name,
            "games": self.games,
            "pairs": self.pairs,
            "level": level,
            "a_wins": int((wins == 1).sum()),
            "b_wins": int((wins == 0).sum()),
            "unfinished": int((reason == L.REASON_UNFINISHED).sum()),
            "negative_limit_endings": int((reason == L.REASON_NEGATIVE_LIMIT).sum()),
            "win_rate": wr,
            "win_rate_ci": [wlo, whi],
            "win_rate_p_value": wp,
            "win_rate_luck_adjusted": cm,
            "win_rate_luck_adjusted_ci": [float(np.clip(clo, 0, 1)), float(np.clip(chi, 0, 1))],
            "win_rate_luck_adjusted_p_value": cp,
            "luck_variance_share": removed,
            "points_per_hand_diff": pm,
            "points_per_hand_diff_ci": [plo, phi],
            "points_p_value": pp,
            "paired_hands": int(d.cat("diff_n").sum()),
            "mean_game_length": float(d.cat("length").mean()) if self.games else float("nan"),
            "mean_margin": float(d.cat("margin").mean()) if self.games else float("nan"),
        }
        if self.settings.get("until"):
            _, clo, chi = win_rate_sequence(d, level)
            out["until"] = self.settings["until"]
            out["stopped_early"] = bool(self.pairs) and decided(d)
            out["win_rate_sequence_ci"] = [clo, chi]
        rules = self.rules or resolve_rules(None)
        names = side_count_names(rules)
        for side, s in ((0, "a"), (1, "b")):
            c = d.counts[side] if d.counts is not None else np.zeros(len(names), np.int64)
            side_out: dict[str, Any] = {
                "contracts": int(c[0]),
                "made": int(c[1]),
                "set": int(c[2]),
                **rate_fields("make_rate", c[1], c[0]),
                "average_bid": float(c[3] / c[0]) if c[0] else float("nan"),
                "no_contract": int(c[4]),
            }
            # one column per key card of the rules, by its own name (left_bower in
            # all_hands; sancho, dom where played)
            for j, (name, _) in enumerate(rules.key_cards):
                n_in, took = c[5 + 2 * j], c[6 + 2 * j]
                side_out.update(rate_fields(f"{name}_capture", took, n_in))
            side_out["contracts_per_game"] = float(c[0] / self.games) if self.games else 0.0
            out[s + "_side"] = side_out
        return out

    def games_frame(self) -> pd.DataFrame:
        """One row per game: the seed and the pair's index under it (which deal it
        again), game (1, 2), A's result, margin, hands, end reason."""
        d = self.data
        n = self.pairs
        # per chunk the arrays alternate game 1, game 2
        pair_idx, game_no = [], []
        start = 0
        for ps in d.pair_score:
            k = ps.size
            for j in (1, 2):
                pair_idx.append(np.arange(start, start + k))
                game_no.append(np.full(k, j))
            start += k
        reason = d.cat("reason").astype(int)
        unit = np.concatenate(pair_idx) if n else np.zeros(0, np.int64)
        seeds, index = self.unit_seeds(start)
        df = pd.DataFrame(
            {
                "seed": seeds[unit],
                "pair": index[unit],
                "game": np.concatenate(game_no) if n else [],
                "a_result": d.cat("a_win"),
                "margin": d.cat("margin"),
                "hands": d.cat("length"),
                "reason": [L.REASON_NAMES[r] for r in reason],
            }
        )
        order = np.lexsort((df["game"].to_numpy(), unit))  # by unit as played, then game
        return df.iloc[order].reset_index(drop=True)

    def headline(self) -> str:
        s = self.summary()
        win = win_rate_shown(s)
        return (
            f"Comparison: {s['a']} vs {s['b']}, {N.counted(s['games'], 'game')} "
            f"({N.counted(s['pairs'], 'duplicate pair')}), {N.seeds(self.settings)}; "
            f"win rate of {s['a']} {win}"
        )

    def notes(self) -> list[str]:
        """With a sequential stop, where it ended, as the command line says it."""
        s = self.summary()
        return [f"until={s['until']!r}: {until_text(s)}"] if "until" in s else []


def match_settings(
    r: Rules,
    sa: Strategy,
    sb: Strategy,
    games: int,
    seed: int,
    max_hands: int,
    pairing: str,
    until: str | None = None,
) -> dict[str, Any]:
    """What a match's outputs record of the settings that made it (``pairing`` is
    ``rotation`` for a cut-throat match: it has no other; ``until`` only when set)."""
    extra = {"until": until} if until else {}
    return {
        "command": "compare",
        "version": __version__,
        "games_requested": games,
        "seed": seed,
        "max_hands": max_hands,
        "pairing": "rotation" if r.teams > 2 else pairing,
        "rules": r.describe(),
        "strategy_a": sa.describe(),
        "strategy_b": sb.describe(),
        **extra,
    }


def check_match(r: Rules, games: int, pairing: str) -> None:
    """Refuse a match that cannot be played, before any game (ValueError)."""
    if r.teams > 2 and pairing != "swap":
        raise ValueError(
            f"pairing={pairing!r} is for two sides; a cut-throat match ({r.preset}, "
            f"{r.teams} sides) rotates strategy A through every seat"
        )
    if r.teams <= 2:
        check_two_sides(r)
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if pairing not in PAIRINGS:
        raise ValueError(f"pairing must be one of {', '.join(PAIRINGS)}, got {pairing!r}")


def compare(
    a: str | Strategy,
    b: str | Strategy,
    games: int = 1000,
    seed: int = 0,
    rules: Rules | None = None,
    max_hands: int = 256,
    pairing: str = "swap",
    chunk_pairs: int = 1000,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    on_chunk: Callable[[PairChunk], None] | None = None,
    trace: bool = False,
    start_pair: int = 0,
    level: float = 0.95,
) -> Comparison | CutThroatComparison:
    """A duplicate match of ``games`` games (an odd number rounded up to whole pairs).

    Rules of more than two sides (cut-throat, 3 to 6 players) play a cut-throat
    match instead (``matches.cutthroat``: rotations of one game per seat,
    ``games`` rounded up to whole rotations); it has one pairing, the rotation.

    ``progress(n)`` is told of every ``n`` finished games; ``on_chunk`` sees
    each chunk of pairs (with the kernel's trace when ``trace``, e.g. to write
    records). Ctrl-C between chunks stops the match and keeps the finished
    pairs (``interrupted`` is then true).
    """
    r = resolve_rules(rules)
    if r.teams > 2:
        if pairing != "swap":
            raise ValueError(
                f"pairing={pairing!r} is for two sides; a cut-throat match ({r.preset}, "
                f"{r.teams} sides) rotates strategy A through every seat"
            )
        return cutthroat_compare(a, b, games, seed, r, max_hands, chunk_pairs, threads,
                                 progress, on_chunk, trace, start_pair, level)  # fmt: skip
    check_two_sides(r)
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if pairing not in PAIRINGS:
        raise ValueError(f"pairing must be one of {', '.join(PAIRINGS)}, got {pairing!r}")
    sa, sb = resolve_player(a), resolve_player(b)
    n_pairs = (games + 1) // 2
    pols = (team_policies(r, sa, sb), team_policies(r, sb, sa))
    settings = match_settings(r, sa, sb, games, seed, max_hands, pairing)
    data = PairStats()
    if trace:
        chunk_pairs = min(chunk_pairs, max(1, 8192 // max_hands))  # trace rows are large
    start = time.perf_counter()
    interrupted = False
    with using(threads), chunk_boundaries() as interrupts:
        try:
            done = 0
            while done < n_pairs:
                interrupts.check()  # Ctrl-C stops between chunks, never inside one
                k = min(chunk_pairs, n_pairs - done)
                ch = play_pairs(
                    r, sa, sb, seed, start_pair + done, k, max_hands, pairing, trace, pols
                )
                data.add(ch)
                if on_chunk is not None:
                    on_chunk(ch)
                done += k
                if progress is not None:
                    progress(2 * k)
        except KeyboardInterrupt:
            interrupted = True
    return Comparison(sa, sb, settings, data, time.perf_counter() - start, interrupted, level, r)
