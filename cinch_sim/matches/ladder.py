"""The ladder: every pair of strategies in duplicate, rated together.

A Bradley-Terry model fitted by maximum likelihood (the MM algorithm) to
every matchup's game scores, with one virtual drawn game per matchup so a
strategy that wins every game keeps a finite rating; ratings on the Elo
scale (400 log10 of the strength), mean 0. Each matchup's pairs are pooled
with one pseudo-pair won and one lost, as the match's own interval has them;
the fit takes the pool's mean. Intervals are the 2.5 and 97.5 percentiles of
a bootstrap that resamples each matchup's pool and refits (``BOOTSTRAP``
resamples by default: with 200 the ends moved by up to 32 Elo between seeds).
Centred ratings move together (one strategy's gain is the others' loss), so
each strategy's difference from the best, with its own bootstrap interval, is
given too: that is the question "is it really worse?".

**More than two sides** (cut-throat, P players). Every ordered pair of
strategies plays a cut-throat match (``matches.cutthroat``: A alone, rotated
through every seat, B in the other P - 1), both ways round, so each strategy
is once the one and once the field, on the same deals and the same
rotations. They are rated by the Luce choice model, Bradley-Terry's
extension to a winner among many: a game's winner is seat s with
probability gamma_s / (sum of the table's gammas), so A alone wins with
gamma_A / (gamma_A + (P - 1) gamma_B). With two players it is Bradley-Terry.
Fitted by the same MM algorithm (Hunter 2004) to the wins of each matchup,
with one virtual game per matchup won at the fair share (1/P by A, the rest
by the field); the bootstrap resamples rotations within each matchup. On the
Elo scale, 400 points are 10 to 1 odds for one seat of the stronger against
one of the weaker.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from cinch_sim import notation as N
from cinch_sim.checks import LADDER_BOOTSTRAP
from cinch_sim.engine.interrupts import chunk_boundaries
from cinch_sim.matches.compare import Comparison, compare
from cinch_sim.matches.cutthroat import CutThroatComparison
from cinch_sim.policies.strategies import Strategy, distinct_names, resolve_player
from cinch_sim.rules import Rules, resolve_rules
from cinch_sim.version import __version__
from cinch_sim.views import Tables, json_records, no_nan

BOOTSTRAP = LADDER_BOOTSTRAP  # resamples for the ratings' intervals
TABLE_ALIASES = {"ladder": "ratings"}  # the command line's names of the tables


def bradley_terry(
    wins: np.ndarray, games: np.ndarray, prior: float = 1.0, iters: int = 10_000, tol: float = 1e-10
) -> np.ndarray:
    """Elo-scale ratings (mean 0) from ``wins[i, j]`` (i's score against j) and ``games[i, j]``.

    ``prior`` virtual drawn games per matchup keep ratings finite. MM updates
    (Hunter 2004): gamma_i <- W_i / sum_j n_ij / (gamma_i + gamma_j). Leading
    axes of ``wins`` (and ``games``) are a batch, fitted at once (the bootstrap).
    """
    w = np.asarray(wins, float)
    n = np.broadcast_to(np.asarray(games, float), w.shape)
    played = n > 0
    w = w + np.where(played, prior / 2, 0.0)
    n = n + np.where(played, prior, 0.0)
    gamma = np.ones(w.shape[:-1])
    W = w.sum(axis=-1)
    for _ in range(iters):
        denom = (n / (gamma[..., :, None] + gamma[..., None, :])).sum(axis=-1)
        new = np.where(denom > 0, W / np.where(denom > 0, denom, 1), 1.0)
        new = new / np.exp(np.log(new).mean(axis=-1, keepdims=True))
        if np.max(np.abs(new - gamma)) < tol:
            gamma = new
            break
        gamma = new
    elo = 400 * np.log10(gamma)
    return elo - elo.mean(axis=-1, keepdims=True)


def luce(
    wins: np.ndarray,
    alone: np.ndarray,
    field: int,
    prior: float = 1.0,
    iters: int = 10_000,
    tol: float = 1e-10,
) -> np.ndarray:
    """Elo-scale ratings (mean 0) of the Luce choice model from cut-throat matches.

    ``alone[i, j]``: games with strategy i in one seat and j in the other ``field``
    seats; ``wins[i, j]``: i's wins in the games between i and j (either way round).
    ``prior`` virtual games per played matchup, won at the fair share (i
    1/(field + 1), j the rest), keep ratings finite. MM updates (Hunter 2004):
    gamma_i <- W_i / sum_j (alone_ij / (gamma_i + field gamma_j)
    + field alone_ji / (gamma_j + field gamma_i)). Leading axes of ``wins`` are a
    batch. With ``field`` 1 this is ``bradley_terry`` with games alone + alone.T.
    """
    w = np.asarray(wins, float)
    n = np.asarray(alone, float)
    played = n > 0
    share = 1.0 / (field + 1)
    w = w + np.where(played, prior * share, 0.0) + np.where(played.T, prior * (1 - share), 0.0)
    n = n + np.where(played, prior, 0.0)
    gamma = np.ones(w.shape[:-1])
    W = w.sum(axis=-1)
    for _ in range(iters):
        gi, gj = gamma[..., :, None], gamma[..., None, :]
        denom = (n / (gi + field * gj) + field * n.T / (gj + field * gi)).sum(axis=-1)
        new = np.where(denom > 0, W / np.where(denom > 0, denom, 1), 1.0)
        new = new / np.exp(np.log(new).mean(axis=-1, keepdims=True))
        if np.max(np.abs(new - gamma)) < tol:
            gamma = new
            break
        gamma = new
    elo = 400 * np.log10(gamma)
    return elo - elo.mean(axis=-1, keepdims=True)


@dataclass(repr=False)
class Ladder(Tables):
    """Every pair of strategies in duplicate, and their Bradley-Terry ratings
    (``.table()``: the ratings, best first; ``.table("matchups")``: every match;
    ``.table("games")``: every game of every match)."""

    strategies: list[Strategy]
    matches: list[Comparison | CutThroatComparison]
    settings: dict[str, Any]
    bootstrap: int = BOOTSTRAP
    seconds: float = 0.0
    interrupted: bool = False
    _rated: dict[int, pd.DataFrame] = field(default_factory=dict, init=False, compare=False)

    def table_names(self) -> tuple[str, ...]:
        return ("ratings", "matchups", "games")

    def games_frame(self) -> pd.DataFrame:
        """Every matchup's games, one row a game, as ``compare``'s games table, after
        the two strategies of its matchup (``a``, ``b``): per-game results for
        every pair of strategies in one table."""
        frames = []
        for m in self.matches:
            g = m.games_frame()
            g.insert(0, "b", m.b.name)
            g.insert(0, "a", m.a.name)
            frames.append(g)
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()

    def table(self, name: str | None = None) -> pd.DataFrame:
        """The table ``name`` (``ratings`` by default); ``"ladder"``, the command line's
        name for the ratings (``--table ladder``, ladder.csv), is the same table."""
        return super().table(TABLE_ALIASES.get(name, name) if name else name)

    def to_dict(self) -> dict[str, Any]:
        """Settings, ratings and matchups as strict JSON (NaN and NA as None): what
        ``cinch-sim ladder --format json`` prints."""
        out = dict(self.settings)
        out["interrupted"] = self.interrupted
        out["games_played"] = self.games_played  # games_per_matchup is what was asked
        out["unplayed"] = [list(p) for p in self.unplayed()]
        out["seconds"] = round(self.seconds, 3)
        out["ratings"] = json_records(self.table())
        out["matchups"] = json_records(self.matchups())
        return no_nan(out)

    def _table(self, name: str) -> pd.DataFrame:
        if name == "matchups":
            return self.matchups()
        if name == "games":
            return self.games_frame()
        seed = self.settings.get("seed", 0)
        if seed not in self._rated:  # the bootstrap refits: once per seed is enough
            self._rated[seed] = self.ratings(seed)
        return self._rated[seed].copy()

    def headline(self) -> str:
        r = self.table()
        ranks = ", ".join(
            f"{x.rank}. {x.strategy} {N.number(x.rating, 0)}"
            if x.games
            else f"{x.strategy} unplayed"
            for x in r.itertuples()
        )
        per = self.settings["games_per_matchup"]
        games = f"{per:,} games per matchup"
        if self.interrupted:
            games = f"{self.games_played:,} of {per * self.matchup_count:,} games played"
        return (
            f"Ladder: {len(self.strategies)} strategies, {games}, {N.seeds(self.settings)}; {ranks}"
        )

    @property
    def matchup_count(self) -> int:
        """The matchups asked: every pair of strategies (every ordered pair, cut-throat),
        played or not."""
        n = len(self.strategies)
        return n * (n - 1) // (1 if self.cutthroat else 2)

    def unplayed(self) -> list[tuple[str, str]]:
        """The matchups asked of which no game was played (a run Ctrl-C stopped), as
        (A, B): the ratings rest on the others, and a reader is told so."""
        names = [s.name for s in self.strategies]
        played = {(c.a.name, c.b.name) for c in self.matches if c.units}
        pairs = [(names[i], names[j]) for i, j in pairs_in_order(self.cutthroat, len(names))]
        return [p for p in pairs if p not in played]

    @property
    def games_played(self) -> int:
        """Games played over every matchup (fewer than asked when Ctrl-C stopped it)."""
        return sum(c.games for c in self.matches)

    @property
    def players(self) -> int:
        """Seats at the table (sides, when each is alone): 2 for a partnership game."""
        return int(self.settings.get("sides", 2))

    @property
    def cutthroat(self) -> bool:
        return self.players > 2

    def _matrices(self):
        """(wins, games, alone): i's wins and the games between i and j (either way
        round), and the games with i alone against j (the cut-throat fit's design)."""
        names = [s.name for s in self.strategies]
        k = len(names)
        wins, games, alone = np.zeros((k, k)), np.zeros((k, k)), np.zeros((k, k))
        for c in self.matches:
            i, j = names.index(c.a.name), names.index(c.b.name)
            ps = c.unit_scores()
            per = c.games / c.units if c.units else 0  # games a unit: 2, or the players
            wins[i, j] += per * ps.sum()
            wins[j, i] += per * (ps.size - ps.sum())
            games[i, j] += per * ps.size
            games[j, i] += per * ps.size
            alone[i, j] += per * ps.size
        return wins, games, alone

    def _fit(self, wins: np.ndarray, games: np.ndarray, alone: np.ndarray) -> np.ndarray:
        if self.cutthroat:
            return luce(wins, alone, self.players - 1)
        return bradley_terry(wins, games)

    def _seat_games(self, games: np.ndarray, alone: np.ndarray) -> np.ndarray:
        """Seats each strategy held over its games: its games at two sides; alone once,
        in the field P - 1 times, cut-throat."""
        if not self.cutthroat:
            return games.sum(axis=1)
        return alone.sum(axis=1) + (self.players - 1) * alone.sum(axis=0)

    def ratings(self, seed: int = 0) -> pd.DataFrame:
        """Rating, bootstrap interval, difference from the best (and its interval), games
        and overall score per strategy, best first.

        A strategy that played no game (the ladder was interrupted first) is
        unplayed: no rating, interval or rank (NaN, and NA in ``rank``), listed
        last; the others are rated among themselves.
        """
        wins, games, alone = self._matrices()
        played = games.sum(axis=1) > 0
        sub = np.ix_(played, played)
        elo = np.full(len(self.strategies), np.nan)
        lo, hi, vs, vs_lo, vs_hi, score_lo, score_hi = (elo.copy() for _ in range(7))
        seats = self._seat_games(games, alone)
        if played.any():
            elo[played] = self._fit(self._pooled_wins()[sub], games[sub], alone[sub])
            best = int(np.nanargmax(elo))
            vs[played] = elo[played] - elo[best]
            if self.bootstrap:
                boots = np.full((self.bootstrap, len(self.strategies)), np.nan)
                every = self._resampled_wins(seed)
                resampled = every[:, *sub]
                # the score's interval: the pools' resamples (wide enough where a sweep
                # has no other spread) joined with the games' own, which reach as far
                # as the games do (1 won of 300: down to 0%, not to the 0.3% won)
                own = self._resampled_wins(seed, pseudo=False)
                with np.errstate(invalid="ignore", divide="ignore"):
                    shares = every.sum(axis=2)[:, played] / seats[played]
                    own_shares = own.sum(axis=2)[:, played] / seats[played]
                lo_pool, hi_pool = np.percentile(shares, [2.5, 97.5], axis=0)
                lo_own, hi_own = np.percentile(own_shares, [2.5, 97.5], axis=0)
                score_lo[played] = np.fmin(lo_pool, lo_own)
                score_hi[played] = np.fmax(hi_pool, hi_own)
                boots[:, played] = self._fit(resampled, games[sub], alone[sub])
                lo[played], hi[played] = np.percentile(boots[:, played], [2.5, 97.5], axis=0)
                diff = boots - boots[:, [best]]
                vs_lo[played], vs_hi[played] = np.percentile(diff[:, played], [2.5, 97.5], axis=0)
                # a sweep's estimate is the resamples' extreme: an interval holds it
                lo, hi = np.fmin(lo, elo), np.fmax(hi, elo)
                vs_lo, vs_hi = np.fmin(vs_lo, vs), np.fmax(vs_hi, vs)
                vs_lo[best] = vs_hi[best] = np.nan  # the best against itself: no interval
        with np.errstate(invalid="ignore", divide="ignore"):
            # the share of its games won (two sides); per seat it held (cut-throat)
            score = wins.sum(axis=1) / seats
        if self.bootstrap:  # as the ratings (no resamples: no interval, not a point's)
            score_lo, score_hi = np.fmin(score_lo, score), np.fmax(score_hi, score)
        df = pd.DataFrame(
            {
                "strategy": [s.name for s in self.strategies],
                "rating": elo,
                "rating_lo": lo,
                "rating_hi": hi,
                "vs_best": vs,
                "vs_best_lo": vs_lo,
                "vs_best_hi": vs_hi,
                "games": games.sum(axis=1).astype(int),
                # what the score is: the share of its games won, or of the seats it held
                ("wins_per_seat" if self.cutthroat else "score"): score,
                "score_lo": score_lo,
                "score_hi": score_hi,
            }
        )
        # best first; the unplayed (NaN rating) last, in the order they were given
        df = df.sort_values("rating", ascending=False, kind="stable", na_position="last")
        df = df.reset_index(drop=True)
        # equal ratings share a rank (1, 1, 3), equal to the fit's rounding: two
        # strategies that played alike are not ranked apart by a last bit
        tied = df["rating"].round(6).rank(method="min", ascending=False)
        rank = pd.array(tied.to_numpy(), dtype="Int64")
        rank[(df["games"] == 0).to_numpy()] = pd.NA
        df.insert(0, "rank", rank)
        return df

    def _pools(self, pseudo: bool = True):
        """Per matchup with units: (i, j, games a unit, units, the values a unit took, how
        often each is drawn). The pool is the units with one pseudo-unit lost and one won,
        as the match's own interval adds them (``bounded_mean``), or with ``pseudo``
        false the units alone (the games' own spread, for the score's interval). A
        sweep has nothing else to resample, and the ratings are fitted to the same
        pool's mean, so each sits among its own resamples rather than at their end (a
        sweep's real zero wins were every resample's minimum, and the mean-0 scale then
        pushed every other rating's resamples below it: "+569 [+534, +571]")."""
        names = [s.name for s in self.strategies]
        for c in self.matches:
            ps = c.unit_scores()
            if not ps.size:
                continue
            pool = np.concatenate([ps, [0.0, 1.0]]) if pseudo else ps
            values, counts = np.unique(pool, return_counts=True)
            i, j = names.index(c.a.name), names.index(c.b.name)
            yield i, j, c.games / c.units, ps.size, values, counts / counts.sum()

    def _pooled_wins(self) -> np.ndarray:
        """The win matrix the ratings are fitted to: each matchup's units times its pool's
        mean score (what a resample draws on average; games as played)."""
        k = len(self.strategies)
        out = np.zeros((k, k))
        for i, j, per, n, values, prob in self._pools():
            total = n * float(values @ prob)
            out[i, j] += per * total
            out[j, i] += per * (n - total)
        return out

    def _resampled_wins(self, seed: int, pseudo: bool = True) -> np.ndarray:
        """``bootstrap`` win matrices, each from the matchups' pools (``_pools``, with or
        without the pseudo-units) resampled with replacement within each matchup, as
        many units as were played.

        A pair score takes few values (0, 1/4, ..., 1), so drawing how many times
        each value is picked (multinomial) is the same resampling, done at once;
        so does a rotation's share (cut-throat), resampled rotation by rotation.
        """
        rng = np.random.default_rng(seed)
        k = len(self.strategies)
        out = np.zeros((self.bootstrap, k, k))
        for i, j, per, n, values, prob in self._pools(pseudo):
            total = rng.multinomial(n, prob, size=self.bootstrap) @ values
            out[:, i, j] += per * total
            out[:, j, i] += per * (n - total)
        return out

    def matchups(self) -> pd.DataFrame:
        if self.cutthroat:
            return self._cutthroat_matchups()
        rows = []
        for c in self.matches:
            s = c.summary()
            rows.append(
                {
                    "a": c.a.name,
                    "b": c.b.name,
                    "games": s["games"],
                    "win_rate_a": s["win_rate"],
                    "win_rate_lo": s["win_rate_ci"][0],
                    "win_rate_hi": s["win_rate_ci"][1],
                    "win_rate_p_value": s["win_rate_p_value"],
                    "points_per_hand_diff": s["points_per_hand_diff"],
                    "points_diff_lo": s["points_per_hand_diff_ci"][0],
                    "points_diff_hi": s["points_per_hand_diff_ci"][1],
                    "mean_game_length": s["mean_game_length"],
                    "unfinished": s["unfinished"],
                }
            )
        return pd.DataFrame(rows)

    def _cutthroat_matchups(self) -> pd.DataFrame:
        """One row per ordered pair: A alone against B in every other seat."""
        rows = []
        for c in self.matches:
            s = c.summary()
            rows.append(
                {
                    "a": c.a.name,
                    "b": c.b.name,
                    "players": s["players"],
                    "games": s["games"],
                    "rotations": s["rotations"],
                    "share_a": s["a_share"],
                    "share_lo": s["a_share_ci"][0],
                    "share_hi": s["a_share_ci"][1],
                    "fair_share": s["fair_share"],
                    "share_p_value": s["a_share_p_value"],
                    "points_per_hand_diff": s["points_per_hand_diff"],
                    "points_diff_lo": s["points_per_hand_diff_ci"][0],
                    "points_diff_hi": s["points_per_hand_diff_ci"][1],
                    "mean_game_length": s["mean_game_length"],
                    "unfinished": s["unfinished"],
                }
            )
        return pd.DataFrame(rows)


def edge_note(ratings: pd.DataFrame) -> str | None:
    """Where a rating sits at an end of its own interval (``+875 [+700, +876]``), that
    the end is to be read as open: the resamples did not reach past the estimate on
    that side. The ratings are fitted to the pools the resamples draw from, so this
    is rare (few resamples); a reader is told, not left to trust a one-sided
    interval. None where no rating does."""
    played = ratings[ratings["games"] > 0].dropna(subset=["rating_lo", "rating_hi"])
    edge = played[
        ((played["rating"] - played["rating_lo"]).abs() < 0.5)
        | ((played["rating_hi"] - played["rating"]).abs() < 0.5)
    ]
    if edge.empty:
        return None
    names = N.joined(list(edge["strategy"]))
    if len(edge) == 1:
        head = f"The rating of {names} sits at an end of its interval"
    else:
        head = f"The ratings of {names} sit at an end of their intervals"
    return f"{head}: no resample went past it on that side, so read that end as open"


def games_per_matchup(r: Rules, games: int) -> int:
    """The games a matchup plays when ``games`` are asked: whole units, a duplicate
    pair (2 games) or a cut-throat rotation (a game per seat), rounded up."""
    per = r.players if r.teams > 2 else 2
    return per * (-(-games // per))


def ladder_settings(
    r: Rules,
    strats: Sequence[Strategy],
    games: int,
    seed: int,
    max_hands: int,
    pairing: str,
    bootstrap: int,
) -> dict[str, Any]:
    """What a ladder's outputs record of the settings that made it."""
    return {
        "command": "ladder",
        "version": __version__,
        "sides": r.teams,
        "games_per_matchup": games_per_matchup(r, games),
        "seed": seed,
        "max_hands": max_hands,
        "pairing": "rotation" if r.teams > 2 else pairing,  # as compare records it
        "rules": r.describe(),
        "strategies": [s.describe() for s in strats],
        "bootstrap": bootstrap,
    }


def matchup_order(r: Rules, n: int) -> list[tuple[int, int]]:
    """The matchups of ``n`` strategies, by index: every pair, or every ordered pair
    when the rules have more than two sides (cut-throat: both ways round)."""
    return pairs_in_order(r.teams > 2, n)


def pairs_in_order(cutthroat: bool, n: int) -> list[tuple[int, int]]:
    """``matchup_order`` by whether the table is cut-throat (a ladder knows that)."""
    order = itertools.permutations if cutthroat else itertools.combinations
    return list(order(range(n), 2))


def ladder(
    strategies: Sequence[str | Strategy],
    games: int = 1000,
    seed: int = 0,
    rules: Rules | None = None,
    max_hands: int = 256,
    pairing: str = "swap",
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    bootstrap: int = BOOTSTRAP,
    chunk_pairs: int = 1000,
) -> Ladder:
    """Play every pair of strategies in a duplicate match of ``games`` games.

    Every matchup uses the same seed, so all of them see the same deals.
    With more than two sides each ordered pair plays a cut-throat match (both
    ways round), rated by the Luce model. Ctrl-C stops after the current chunk;
    finished matchups (and the finished pairs of the current one) are kept.
    """
    r = resolve_rules(rules)
    strats = distinct_names([resolve_player(s) for s in strategies])
    if len(strats) < 2:
        raise ValueError("a ladder needs at least two strategies")
    settings = ladder_settings(r, strats, games, seed, max_hands, pairing, bootstrap)
    matches = []
    t0 = time.perf_counter()
    interrupted = False
    # a Ctrl-C between two matchups is kept for the next one, which stops at once
    with chunk_boundaries():
        order = itertools.permutations if r.teams > 2 else itertools.combinations
        for sa, sb in order(strats, 2):
            c = compare(sa, sb, games, seed, r, max_hands, pairing, chunk_pairs, threads, progress)
            if c.units:
                matches.append(c)
            if c.interrupted:
                interrupted = True
                break
    return Ladder(strats, matches, settings, bootstrap, time.perf_counter() - t0, interrupted)
