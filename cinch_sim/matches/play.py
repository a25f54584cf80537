"""Whole games and duplicate matches between two strategies; the ladder of many.

**Games.** The games kernel (``engine.run_games``) plays each game to the
target under RULES.md §1.15; :func:`game_end` is a small pure-Python statement
of the same end rule, used as a reference by the tests.

**Duplicate matches.** Pair ``i`` is game index ``i`` played twice: its deals
depend only on (seed, game index), so both games of a pair see the same
cards. Two ways to seat the strategies (``pairing``):

- ``"swap"`` (default): the same first dealer (the game's own cut), A in seats
  0 and 2 in the first game, B there in the second. Each strategy keeps its
  own random streams wherever it sits (the kernel numbers each seat's stream,
  ``engine.run_games(streams=...)``), so a randomised strategy against itself
  plays two different games on the same cards (independent streams), while
  a deterministic strategy against itself still gives exact 1-1 draws.
- ``"rotate"``: the second game is dealt by the next seat clockwise and the
  strategies keep their seats, so B sits exactly where A sat relative to the
  deal. Costs about 2.5x the kernel time of ``swap``: the kernel takes one
  first dealer per batch, so the second games run once per dealer seat.

Under ``all_pass=redeal_same`` the two games of a pair can fall out of step
(a hand thrown in in one game and not the other moves the deal differently),
so later deals are no longer dealt to the same positions.

**Statistics** (all two-sided, level 95% unless asked):

- *Win rate of A.* The unit is the pair, not the game: the two games of a
  pair share their deals and are strongly correlated (negatively, when luck
  dominates), so games are not independent trials and a binomial (Wilson)
  interval over games would be wrong. Each pair scores s = (w1 + w2) / 2 with
  w = 1 for a win of A, 0 for a loss and 1/2 for a game left unfinished at
  ``max_hands``. The win rate is the mean of s; its interval is Student's t
  over pairs (s is bounded and there are hundreds of pairs, so the t
  interval is accurate), clipped to [0, 1]; the p-value is the one-sample
  t-test of mean s = 1/2. When every pair is a clean sweep (mean 0 or 1) the
  t interval collapses to a point, so the Wilson interval over pairs and the
  sign-test p-value 2^(1 - pairs) are given instead.
- *Points per hand.* A hand's points here are the score change of a side
  (what the game counts: a set bid loses the bid). For hand h of a pair
  (h below the shorter game's length) the paired difference is the mean over
  the two games of (A's change - B's change): the same deal, once with A
  holding each side's cards. The estimate pools every paired hand; since the
  hands of one pair are correlated (the score shapes the bidding), the
  interval is the ratio estimator's, clustered by pair (sum of differences
  over paired hands per pair), with t on pairs - 1 degrees of freedom.
- *Ladder.* A Bradley-Terry model fitted by maximum likelihood (the MM
  algorithm) to every matchup's game scores, with one virtual drawn game per
  matchup so a strategy that wins every game keeps a finite rating; ratings
  on the Elo scale (400 log10 of the strength), mean 0. Intervals are the
  2.5 and 97.5 percentiles of a bootstrap that resamples pairs within each
  matchup and refits.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sst

from cinch_sim import __version__
from cinch_sim import layout as L
from cinch_sim.analysis.intervals import Z95, wilson
from cinch_sim.engine.interrupts import chunk_boundaries
from cinch_sim.engine.run import PolicySet, run_games
from cinch_sim.engine.threads import using
from cinch_sim.policies.strategies import Strategy, resolve_strategy
from cinch_sim.rules import Rules

PAIRINGS = ("swap", "rotate")
RIGHT_SLOT = L.SLOT_RANK0 + 2  # the Right Pedro's point slot (the standard rules)
LEFT_SLOT = L.SLOT_LEFT


# --------------------------------------------------------------------------- end rule
def game_end(
    scores: Sequence[int],
    maker_team: int | None,
    made: bool,
    target: int,
    min_score_loss: int | None = None,
) -> tuple[int | None, str | None]:
    """RULES.md §1.15 after one hand: ``(winner, reason)``, or ``(None, None)`` to play on.

    ``scores`` are the totals after the hand; ``maker_team`` is None for a hand
    thrown in (nothing changed, nothing to check). The bidding side is checked
    first: if it made its bid and reached the target it wins, even when the
    opponents also did. Otherwise the opponent at or above the target with the
    highest total wins (the first such team on a tie). Only then the negative
    limit: a side at or below ``-min_score_loss`` loses; the best of the other
    sides wins (None when every side is below the limit).
    """
    if maker_team is None:
        return None, None
    T = len(scores)
    if made and scores[maker_team] >= target:
        return maker_team, "target"
    over = [t for t in range(T) if t != maker_team and scores[t] >= target]
    if over:
        return max(over, key=lambda t: scores[t]), "target"
    if min_score_loss is not None:
        lost = [t for t in range(T) if scores[t] <= -min_score_loss]
        if lost:
            rest = [t for t in range(T) if t not in lost]
            return (max(rest, key=lambda t: scores[t]) if rest else None), "negative_limit"
    return None, None


def replay_end(
    rules: Rules, first_dealer: int, hand_rows: np.ndarray, n_hands: int
) -> tuple[int | None, str, int, list[int]]:
    """Replay a kernel game's hands through :func:`game_end` and the dealer rule.

    Returns (winner, reason, hands until the end, dealers the rule expects).
    """
    T = rules.teams
    totals = [0] * T
    dealer = first_dealer
    dealers = []
    for h in range(n_hands):
        row = hand_rows[h]
        dealers.append(dealer)
        thrown = bool(row[L.H_THROWN_IN])
        if not (thrown and rules.all_pass == "redeal_same"):
            dealer = (dealer + 1) % rules.players
        if thrown:
            continue
        totals = [totals[t] + int(row[L.H_SCORE + t]) for t in range(T)]
        maker = int(row[L.H_MAKER])
        mteam = maker % T if rules.partnerships else maker
        w, why = game_end(totals, mteam, row[L.H_MADE] == 1, rules.target, rules.min_score_loss)
        if why is not None:
            return w, why, h + 1, dealers
    return None, "unfinished", n_hands, dealers


# --------------------------------------------------------------------------- statistics
def t_interval(
    values: np.ndarray, null: float, level: float = 0.95
) -> tuple[float, float, float, float]:
    """(mean, low, high, p-value of mean == null): Student's t over independent units."""
    v = np.asarray(values, dtype=float)
    k = v.size
    if k == 0:
        return float("nan"), float("nan"), float("nan"), float("nan")
    m = float(v.mean())
    if k < 2:
        return m, float("nan"), float("nan"), float("nan")
    se = float(v.std(ddof=1)) / np.sqrt(k)
    q = float(sst.t.ppf(0.5 + level / 2, k - 1))
    if se == 0:
        return m, m, m, (1.0 if m == null else 0.0)
    p = float(2 * sst.t.sf(abs(m - null) / se, k - 1))
    return m, m - q * se, m + q * se, p


def ratio_interval(
    sums: np.ndarray, counts: np.ndarray, level: float = 0.95
) -> tuple[float, float, float, float]:
    """Pooled mean sum/count with a cluster (ratio estimator) interval; p-value of mean == 0."""
    s = np.asarray(sums, dtype=float)
    n = np.asarray(counts, dtype=float)
    keep = n > 0
    s, n = s[keep], n[keep]
    k = s.size
    if k == 0:
        return float("nan"), float("nan"), float("nan"), float("nan")
    m = float(s.sum() / n.sum())
    if k < 2:
        return m, float("nan"), float("nan"), float("nan")
    resid = s - m * n
    se = float(np.sqrt((resid**2).sum() / (k * (k - 1))) / n.mean())
    q = float(sst.t.ppf(0.5 + level / 2, k - 1))
    if se == 0:
        return m, m, m, (1.0 if m == 0 else 0.0)
    p = float(2 * sst.t.sf(abs(m) / se, k - 1))
    return m, m - q * se, m + q * se, p


# --------------------------------------------------------------------------- playing
def team_policies(rules: Rules, team0: Strategy, team1: Strategy) -> PolicySet:
    """Seats of team 0 (even seats) play ``team0``, the others ``team1``."""
    _check_two_sides(rules)
    p0, p1 = team0.policies(), team1.policies()
    seats = range(rules.players)
    return PolicySet(
        **{
            k: [p0[k] if s % 2 == 0 else p1[k] for s in seats]
            for k in ("bid", "trump", "discard", "play")
        }
    )


def _check_two_sides(rules: Rules) -> None:
    if rules.teams != 2:
        raise ValueError(
            f"a match needs two sides; these rules have {rules.teams} "
            "(cut-throat with more than 2 players is not supported)"
        )


@dataclass
class PairChunk:
    """Both games of a run of pairs: kernel arrays, and A's team in each game."""

    start: int  # index of the first pair (= its game index)
    games: tuple[np.ndarray, np.ndarray]
    hands: tuple[np.ndarray, np.ndarray]
    trace: tuple[np.ndarray, np.ndarray]
    a_team: tuple[int, int]

    @property
    def n(self) -> int:
        return self.games[0].shape[0]


def play_pairs(
    rules: Rules,
    a: Strategy,
    b: Strategy,
    seed: int,
    start: int,
    n: int,
    max_hands: int = 256,
    pairing: str = "swap",
    trace: bool = False,
    policies: tuple[PolicySet, PolicySet] | None = None,
) -> PairChunk:
    """Play pairs start..start+n-1: each game index twice, the strategies trading places."""
    if pairing not in PAIRINGS:
        raise ValueError(f"pairing must be one of {', '.join(PAIRINGS)}, got {pairing!r}")
    ab, ba = policies or (team_policies(rules, a, b), team_policies(rules, b, a))
    # Each strategy keeps its own random streams wherever it sits (A: 1, 3, ...;
    # B: 2, 4, ...), so the replay of a deal is not a mirror of the first game
    # even when both sides play the same randomised strategy.
    seats = range(rules.players)
    first = [1 + s for s in seats]
    second = [1 + (s + 1 if s % 2 == 0 else s - 1) for s in seats]
    g1, h1, t1 = run_games(rules, ab, seed, start, n, None, max_hands, trace, streams=first)
    if pairing == "swap":
        g2, h2, t2 = run_games(rules, ba, seed, start, n, None, max_hands, trace, streams=second)
        return PairChunk(start, (g1, g2), (h1, h2), (t1, t2), (0, 1))
    want = (g1[:, L.G_FIRST_DEALER] + 1) % rules.players
    g2, h2, t2 = np.empty_like(g1), np.empty_like(h1), np.empty_like(t1)
    for d in range(rules.players):
        sel = np.flatnonzero(want == d)
        if sel.size == 0:
            continue
        lo, hi = int(sel[0]), int(sel[-1]) + 1
        gg, hh, tt = run_games(rules, ab, seed, start + lo, hi - lo, d, max_hands, trace)
        g2[sel], h2[sel] = gg[sel - lo], hh[sel - lo]
        if trace:
            t2[sel] = tt[sel - lo]
    return PairChunk(start, (g1, g2), (h1, h2), (t1, t2), (0, 0))


@dataclass
class PairStats:
    """Per-pair and per-game numbers of a match (A's view), accumulated chunk by chunk."""

    pair_score: list[np.ndarray] = field(default_factory=list)  # (w1 + w2) / 2
    diff_sum: list[np.ndarray] = field(default_factory=list)  # paired per-hand diffs, summed
    diff_n: list[np.ndarray] = field(default_factory=list)  # paired hands
    a_win: list[np.ndarray] = field(default_factory=list)  # per game: 1, 0 or 0.5
    margin: list[np.ndarray] = field(default_factory=list)  # per game: A total - B total
    length: list[np.ndarray] = field(default_factory=list)  # per game: hands
    reason: list[np.ndarray] = field(default_factory=list)  # per game: REASON_*
    # per side (0 = A, 1 = B): summed counts over every hand
    counts: np.ndarray = field(default_factory=lambda: np.zeros((2, 9), np.int64))

    COUNT_NAMES = (
        "contracts",
        "made",
        "set",
        "bid_sum",
        "no_contract",
        "right_in_play",
        "right_taken",
        "left_in_play",
        "left_taken",
    )

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
            self._count(h, g[:, L.G_N_HANDS], ta)
        self.pair_score.append((wins[0] + wins[1]) / 2)
        m = np.minimum(lens[0], lens[1])
        idx = np.arange(nets[0].shape[1])[None, :] < m[:, None]
        d = (nets[0] + nets[1]) / 2.0
        self.diff_sum.append(np.where(idx, d, 0.0).sum(axis=1))
        self.diff_n.append(m.astype(np.int64))

    def _count(self, h: np.ndarray, n_hands: np.ndarray, ta: int) -> None:
        played = np.arange(h.shape[1])[None, :] < n_hands[:, None]
        rows = h[played & (h[:, :, L.H_THROWN_IN] == 0)]
        maker_team = rows[:, L.H_MAKER] % 2
        for side, team in ((0, ta), (1, 1 - ta)):
            mine = maker_team == team
            contract = mine & (rows[:, L.H_BID] > 0)
            c = self.counts[side]
            c[0] += int(contract.sum())
            c[1] += int((contract & (rows[:, L.H_MADE] == 1)).sum())
            c[2] += int((contract & (rows[:, L.H_MADE] == 0)).sum())
            c[3] += int(rows[contract, L.H_BID].sum())
            c[4] += int((mine & (rows[:, L.H_BID] == 0)).sum())
            for k, slot in ((5, RIGHT_SLOT), (7, LEFT_SLOT)):
                st = rows[:, L.H_SLOT_TEAM + slot]
                c[k] += int((st >= 0).sum())
                c[k + 1] += int((st == team).sum())

    def cat(self, name: str) -> np.ndarray:
        parts = getattr(self, name)
        return np.concatenate(parts) if parts else np.zeros(0)

    @property
    def pairs(self) -> int:
        return sum(x.size for x in self.pair_score)


@dataclass
class Comparison:
    """A duplicate match of A against B: settings, per-pair data and the summary."""

    a: Strategy
    b: Strategy
    settings: dict[str, Any]
    data: PairStats
    seconds: float = 0.0
    interrupted: bool = False
    level: float = 0.95

    @property
    def pairs(self) -> int:
        return self.data.pairs

    @property
    def games(self) -> int:
        return 2 * self.pairs

    def summary(self, level: float | None = None) -> dict[str, Any]:
        level = self.level if level is None else level
        d = self.data
        ps = d.cat("pair_score")
        wr, wlo, whi, wp = t_interval(ps, 0.5, level)
        if ps.size and wr in (0.0, 1.0):
            # every pair lost (or won) both games: the t interval collapses to a point;
            # the Wilson interval over pairs and the sign test stay honest there
            lo_, hi_ = wilson(wr * ps.size, ps.size, float(sst.norm.ppf(0.5 + level / 2)))
            wlo, whi = float(lo_), float(hi_)
            wp = float(min(1.0, 2 * 0.5**ps.size))
        elif not np.isnan(wlo):
            wlo, whi = float(max(0.0, wlo)), float(min(1.0, whi))
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
            "points_per_hand_diff": pm,
            "points_per_hand_diff_ci": [plo, phi],
            "points_p_value": pp,
            "paired_hands": int(d.cat("diff_n").sum()),
            "mean_game_length": float(d.cat("length").mean()) if self.games else float("nan"),
            "mean_margin": float(d.cat("margin").mean()) if self.games else float("nan"),
        }
        for side, s in ((0, "a"), (1, "b")):
            c = d.counts[side]
            with np.errstate(invalid="ignore", divide="ignore"):
                out[s + "_side"] = {
                    "contracts": int(c[0]),
                    "made": int(c[1]),
                    "set": int(c[2]),
                    "make_rate": float(c[1] / c[0]) if c[0] else float("nan"),
                    "average_bid": float(c[3] / c[0]) if c[0] else float("nan"),
                    "no_contract": int(c[4]),
                    "right_pedro_capture": float(c[6] / c[5]) if c[5] else float("nan"),
                    "left_pedro_capture": float(c[8] / c[7]) if c[7] else float("nan"),
                    "contracts_per_game": float(c[0] / self.games) if self.games else 0.0,
                }
        return out

    def to_dict(self) -> dict[str, Any]:
        """Settings and summary; NaN (nothing to estimate) becomes None, so the JSON is strict."""
        out = dict(self.settings)
        out.update(self.summary())
        out["interrupted"] = self.interrupted
        out["seconds"] = round(self.seconds, 3)
        return _no_nan(out)

    def games_frame(self) -> pd.DataFrame:
        """One row per game: pair, game (1, 2), A's result, margin, hands, end reason."""
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
        df = pd.DataFrame(
            {
                "pair": np.concatenate(pair_idx) if n else [],
                "game": np.concatenate(game_no) if n else [],
                "a_result": d.cat("a_win"),
                "margin": d.cat("margin"),
                "hands": d.cat("length"),
                "reason": [L.REASON_NAMES[r] for r in reason],
            }
        )
        return df.sort_values(["pair", "game"], kind="stable").reset_index(drop=True)

    def table(self) -> pd.DataFrame:
        """Per-side figures (bids, Pedros) as a small frame."""
        s = self.summary()
        rows = []
        for side, name in (("a_side", self.a.name), ("b_side", self.b.name)):
            r = {"strategy": name}
            r.update(s[side])
            rows.append(r)
        return pd.DataFrame(rows)


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
) -> Comparison:
    """A duplicate match of ``games`` games (an odd number rounded up to whole pairs).

    ``progress(n)`` is told of every ``n`` finished games; ``on_chunk`` sees
    each chunk of pairs (with the kernel's trace when ``trace``, e.g. to write
    records). Ctrl-C between chunks stops the match and keeps the finished
    pairs (``interrupted`` is then true).
    """
    from cinch_sim.rules import resolve_rules

    r = resolve_rules(rules)
    _check_two_sides(r)
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if pairing not in PAIRINGS:
        raise ValueError(f"pairing must be one of {', '.join(PAIRINGS)}, got {pairing!r}")
    sa, sb = resolve_strategy(a), resolve_strategy(b)
    n_pairs = (games + 1) // 2
    pols = (team_policies(r, sa, sb), team_policies(r, sb, sa))
    settings = {
        "command": "compare",
        "version": __version__,
        "games_requested": games,
        "seed": seed,
        "max_hands": max_hands,
        "pairing": pairing,
        "rules": r.describe(),
        "strategy_a": sa.describe(),
        "strategy_b": sb.describe(),
    }
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
    return Comparison(sa, sb, settings, data, time.perf_counter() - start, interrupted, level)


def _no_nan(x):
    if isinstance(x, dict):
        return {k: _no_nan(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_no_nan(v) for v in x]
    if isinstance(x, float) and x != x:
        return None
    return x


# --------------------------------------------------------------------------- records
def game_records(rules: Rules, chunk: PairChunk) -> list[dict[str, Any]]:
    """``cinch-game/1`` records of a chunk (pair by pair: game 1, then game 2), refereed.

    Every record is built from the kernel's hand trace and passed through the
    referee (``records.game_record``); a winner or reason that differs from
    the kernel's raises ``RuntimeError`` (a kernel bug, never silently kept).
    """
    from cinch_sim.records.writer import game_record, iter_hand_records

    out = []
    for i in range(chunk.n):
        for j in range(2):
            g = chunk.games[j][i]
            n = int(g[L.G_N_HANDS])
            hands = list(iter_hand_records(rules, chunk.hands[j][i, :n], chunk.trace[j][i, :n]))
            rec = game_record(rules, hands, int(g[L.G_FIRST_DEALER]))
            kw = int(g[L.G_WINNER])
            kr = L.REASON_NAMES[int(g[L.G_REASON])]
            if (rec["winner"] if rec["winner"] is not None else -1) != kw or rec["reason"] != kr:
                raise RuntimeError(
                    f"game {chunk.start + i} (game {j + 1} of its pair): the kernel says "
                    f"winner {kw} ({kr}), the referee says {rec['winner']} ({rec['reason']})"
                )
            out.append(rec)
    return out


# --------------------------------------------------------------------------- ladder
def bradley_terry(
    wins: np.ndarray, games: np.ndarray, prior: float = 1.0, iters: int = 10_000, tol: float = 1e-10
) -> np.ndarray:
    """Elo-scale ratings (mean 0) from ``wins[i, j]`` (i's score against j) and ``games[i, j]``.

    ``prior`` virtual drawn games per matchup keep ratings finite. MM updates
    (Hunter 2004): gamma_i <- W_i / sum_j n_ij / (gamma_i + gamma_j).
    """
    w = np.asarray(wins, float).copy()
    n = np.asarray(games, float).copy()
    played = n > 0
    w = w + np.where(played, prior / 2, 0.0)
    n = n + np.where(played, prior, 0.0)
    k = w.shape[0]
    gamma = np.ones(k)
    W = w.sum(axis=1)
    for _ in range(iters):
        denom = (n / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new = np.where(denom > 0, W / np.where(denom > 0, denom, 1), 1.0)
        new = new / np.exp(np.log(new).mean())
        if np.max(np.abs(new - gamma)) < tol:
            gamma = new
            break
        gamma = new
    elo = 400 * np.log10(gamma)
    return elo - elo.mean()


@dataclass
class Ladder:
    """Every pair of strategies in duplicate, and their Bradley-Terry ratings."""

    strategies: list[Strategy]
    matches: list[Comparison]
    settings: dict[str, Any]
    bootstrap: int = 200
    seconds: float = 0.0
    interrupted: bool = False

    def _matrices(self, scores: list[np.ndarray] | None = None):
        names = [s.name for s in self.strategies]
        k = len(names)
        wins = np.zeros((k, k))
        games = np.zeros((k, k))
        for m, c in enumerate(self.matches):
            i, j = names.index(c.a.name), names.index(c.b.name)
            ps = c.data.cat("pair_score") if scores is None else scores[m]
            wins[i, j] += 2 * ps.sum()
            wins[j, i] += 2 * (ps.size - ps.sum())
            games[i, j] += 2 * ps.size
            games[j, i] += 2 * ps.size
        return wins, games

    def ratings(self, seed: int = 0) -> pd.DataFrame:
        """Rating, bootstrap interval, games and overall score per strategy, best first."""
        wins, games = self._matrices()
        elo = bradley_terry(wins, games)
        rng = np.random.default_rng(seed)
        base = [c.data.cat("pair_score") for c in self.matches]
        boots = np.empty((self.bootstrap, len(self.strategies)))
        for b in range(self.bootstrap):
            res = [x[rng.integers(0, x.size, x.size)] if x.size else x for x in base]
            bw, bg = self._matrices(res)
            boots[b] = bradley_terry(bw, bg)
        lo = np.percentile(boots, 2.5, axis=0) if self.bootstrap else np.full(elo.size, np.nan)
        hi = np.percentile(boots, 97.5, axis=0) if self.bootstrap else np.full(elo.size, np.nan)
        with np.errstate(invalid="ignore", divide="ignore"):
            score = wins.sum(axis=1) / games.sum(axis=1)
        df = pd.DataFrame(
            {
                "strategy": [s.name for s in self.strategies],
                "rating": elo,
                "rating_lo": lo,
                "rating_hi": hi,
                "games": games.sum(axis=1).astype(int),
                "score": score,
            }
        )
        df = df.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)
        df.insert(0, "rank", np.arange(1, len(df) + 1))
        return df

    def matchups(self) -> pd.DataFrame:
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


def ladder(
    strategies: Sequence[str | Strategy],
    games: int = 1000,
    seed: int = 0,
    rules: Rules | None = None,
    max_hands: int = 256,
    pairing: str = "swap",
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    bootstrap: int = 200,
    chunk_pairs: int = 1000,
) -> Ladder:
    """Play every pair of strategies in a duplicate match of ``games`` games.

    Every matchup uses the same seed, so all of them see the same deals.
    Ctrl-C stops after the current chunk; finished matchups (and the
    finished pairs of the current one) are kept.
    """
    from cinch_sim.policies.strategies import distinct_names
    from cinch_sim.rules import resolve_rules

    r = resolve_rules(rules)
    strats = distinct_names([resolve_strategy(s) for s in strategies])
    if len(strats) < 2:
        raise ValueError("a ladder needs at least two strategies")
    settings = {
        "command": "ladder",
        "version": __version__,
        "games_per_matchup": 2 * ((games + 1) // 2),
        "seed": seed,
        "max_hands": max_hands,
        "pairing": pairing,
        "rules": r.describe(),
        "strategies": [s.describe() for s in strats],
        "bootstrap": bootstrap,
    }
    matches = []
    t0 = time.perf_counter()
    interrupted = False
    for sa, sb in itertools.combinations(strats, 2):
        c = compare(sa, sb, games, seed, r, max_hands, pairing, chunk_pairs, threads, progress)
        if c.pairs:
            matches.append(c)
        if c.interrupted:
            interrupted = True
            break
    return Ladder(strats, matches, settings, bootstrap, time.perf_counter() - t0, interrupted)


__all__ = [
    "PAIRINGS",
    "Comparison",
    "Ladder",
    "PairChunk",
    "Z95",
    "bradley_terry",
    "compare",
    "game_end",
    "game_records",
    "ladder",
    "play_pairs",
    "ratio_interval",
    "replay_end",
    "t_interval",
    "team_policies",
]
