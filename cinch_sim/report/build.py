"""The strategy report: the analyses a Cinch player asks for, as one readable page.

``build_report`` runs every study (bid success, what a hand is worth, the
right to rob, Pedro capture, the strategy ladder, advice for example hands)
and returns a ``render.Report``; ``write_report`` writes it as HTML, Markdown,
PNG charts and CSV tables, with ``run.json``. Text is written for players.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from cinch_sim import __version__
from cinch_sim.report.render import Report, format_frame
from cinch_sim.rules import Rules

DEFAULT_STRATEGIES = ("heuristic", "greedy", "simple", "random")
EXAMPLE_HANDS = (
    ("AS KS 5S 5C 2S 9H 3D 7C JD", "Both Pedros with the A and K of spades"),
    ("5H JH 8H 4H AD 9C 6S 3S 2C", "The Right Pedro of hearts with the Jack"),
    ("AC KD QD 7H 6H 9S 8C 4D 3H", "No five at all: a weak hand"),
)
ROBBER_RULES = ("maker", "dealer", "none")
# work units for the progress bar
STEPS = {"bids": 1, "values": 3, "ladder": 4, "advice": 2}


@dataclasses.dataclass
class ReportSettings:
    hands: int = 1_000_000
    games: int = 4000
    seed: int = 0
    rules: Rules = dataclasses.field(default_factory=Rules)
    strategies: tuple[str, ...] = DEFAULT_STRATEGIES
    dealer: int = 3
    threads: int | None = None
    advice_precision: float = 0.01

    def describe(self) -> dict[str, Any]:
        return {
            "command": "report",
            "version": __version__,
            "hands": self.hands,
            "games_per_pair": self.games,
            "seed": self.seed,
            "dealer": self.dealer,
            "rules": self.rules.describe(),
            "strategies": list(self.strategies),
            "advice_precision": self.advice_precision,
            "policies_for_hand_studies": "heuristic at every seat and plug point",
        }


def _pct(x: float) -> str:
    return "–" if x != x else f"{100 * x:.1f}%"


def _interval(lo: float, hi: float, pct: bool = True, digits: int = 2) -> str:
    if lo != lo:
        return "–"
    if pct:
        return f"{100 * lo:.1f}–{100 * hi:.1f}%"
    return f"{lo:.{digits}f} to {hi:.{digits}f}"


def build_report(
    settings: ReportSettings, progress: Callable[[int], None] | None = None
) -> tuple[Report, dict[str, Any]]:
    """Run every study; return the report and a dict of raw results (for run.json)."""
    from cinch_sim.analysis.analyse import analyse
    from cinch_sim.analysis.handvalue import hand_values
    from cinch_sim.analysis.plots import make_rate_figure, pedro_figure
    from cinch_sim.engine.run import PolicySet
    from cinch_sim.matches.ladder import ladder

    step = progress or (lambda n: None)
    s = settings
    rules = s.rules
    report = Report("Cinch strategy report")
    raw: dict[str, Any] = {}

    # ---- what this is
    intro = report.section("What this report is")
    intro.text(
        "Every number below comes from simulated Cinch hands played by computer strategies "
        "under the rules listed here. Percentages come with a 95% interval: the range that "
        "would contain the true value in 19 runs out of 20 of this size. Rows based on few "
        "hands are marked."
    )
    rows = [
        ("cinch_sim version", __version__),
        ("hands simulated per study", f"{s.hands:,}"),
        ("games per strategy pair", f"{s.games:,}"),
        ("seed", str(s.seed)),
        ("dealer", f"seat {s.dealer}"),
        ("strategies", ", ".join(s.strategies)),
    ] + [(f"rule: {k}", str(v)) for k, v in rules.describe().items()]
    intro.table("settings", pd.DataFrame(rows, columns=["setting", "value"]))

    # ---- bid success
    an = analyse(
        hands=s.hands, seed=s.seed, rules=rules, dealer=s.dealer, threads=s.threads, by=("bid",)
    )
    step(STEPS["bids"])
    by_bid = an.make_rate(("bid",))
    sec = report.section("How often each bid is made")
    made = by_bid["made"].sum() / by_bid["hands"].sum()
    sec.text(
        f"With the heuristic strategy at every seat, the bidding side made its contract in "
        f"{_pct(made)} of {an.counts.played:,} hands. Bid 0 means everybody passed and the "
        "dealer named trumps without a contract."
    )
    tbl = pd.DataFrame(
        {
            "bid": by_bid["bid"],
            "hands": by_bid["hands"],
            "made": by_bid["make_rate"].map(_pct),
            "95% interval": [
                _interval(a, b)
                for a, b in zip(by_bid["make_rate_lo"], by_bid["make_rate_hi"], strict=True)
            ],
            "few hands": by_bid["low_n"].map(lambda x: "yes" if x else ""),
        }
    )
    sec.table(
        "make_rate_by_bid",
        format_frame(tbl),
        "Make rate of the contracts the heuristic bidder chose, by bid level.",
    )
    sec.chart(
        "make_rate_by_bid",
        make_rate_figure(an),
        an.caption(),
        "Make rate against bid level with 95% bands",
    )
    raw["make_rate_by_bid"] = by_bid

    # ---- what a hand is worth (forced maker)
    policies = PolicySet.from_specs(rules.players)
    values = {}
    for robber in ROBBER_RULES:
        r = dataclasses.replace(rules, robber=robber)
        values[robber] = hand_values(s.hands, s.seed, r, policies, s.dealer, threads=s.threads)
        step(1)
    base = values[rules.robber]
    safe = base.safe_bids()
    sec = report.section("The safe bid by hand type")
    sec.text(
        "Here every hand is played as if its holder had won the bidding and named the trump "
        "suit the heuristic strategy likes best, so the numbers describe the hand, not the "
        "bidding. 'Bid up to' is the highest bid made at least half the time (even money) or "
        "at least 70% of the time (safe), counting the points the side takes with the "
        "partner's help and, under these rules, after robbing the pack."
    )
    keep = safe[safe["hands"] >= 30]
    table = pd.DataFrame(
        {
            "Pedros dealt": keep["pedros"],
            "trumps dealt": keep["trumps"].astype(str),
            "hands": keep["hands"],
            "mean points": keep["mean_points"].map(lambda x: f"{x:.1f}"),
            "bid up to (50%)": keep["bid_50"],
            "bid up to (70%, safe)": keep["bid_70"],
            "made at safe bid": [
                f"{_pct(m)} ({_interval(lo, hi)})"
                for m, lo, hi in zip(
                    keep["make_70"], keep["make_70_lo"], keep["make_70_hi"], strict=True
                )
            ],
        }
    )
    sec.table(
        "safe_bid_by_hand",
        format_frame(table),
        "Classes with fewer than 30 hands are left out of this table (they are in the CSV).",
    )
    both = keep[(keep["pedros"] == "both Pedros")]
    if len(both):
        r0 = both.iloc[len(both) // 2]
        sec.text(
            f"For example: with both Pedros and {r0['trumps']} trumps in all, bid up to "
            f"{r0['bid_70']} to be safe, or {r0['bid_50']} at even money."
        )
    raw["safe_bids"] = safe

    sec = report.section("What each card, trump length and seat is worth")
    cv = base.card_values()
    sec.text(
        "Average points the maker's side takes when the maker was dealt the card, against "
        "hands without it. This is a plain comparison, not a controlled experiment: a hand "
        "with the ace often has other strengths too. Under the default rules the maker robs "
        "the pack, so he often finds the Pedros he was not dealt."
    )
    sec.table(
        "card_values",
        format_frame(
            pd.DataFrame(
                {
                    "card dealt": cv["feature"],
                    "hands with": cv["hands_with"],
                    "points with": cv["mean_with"].map(lambda x: f"{x:.2f}"),
                    "points without": cv["mean_without"].map(lambda x: f"{x:.2f}"),
                    "difference": cv["difference"].map(lambda x: f"{x:+.2f}"),
                    "95% interval": [
                        _interval(a, b, pct=False)
                        for a, b in zip(cv["difference_lo"], cv["difference_hi"], strict=True)
                    ],
                }
            )
        ),
    )
    bt = base.by_trumps()
    sec.table(
        "points_by_trumps",
        format_frame(
            pd.DataFrame(
                {
                    "trumps dealt": bt["trumps"],
                    "hands": bt["hands"],
                    "mean points": bt["mean_points"].map(lambda x: f"{x:.2f}"),
                    "95% interval": [
                        _interval(a, b, pct=False)
                        for a, b in zip(bt["mean_lo"], bt["mean_hi"], strict=True)
                    ],
                }
            )
        ),
        "Points of the maker's side by trumps (the Left Pedro included) in the 9 dealt cards.",
    )
    bs = base.by_seat(s.dealer)
    sec.table(
        "points_by_seat",
        format_frame(
            pd.DataFrame(
                {
                    "maker's seat": bs["maker_seat"],
                    "hands": bs["hands"],
                    "mean points": bs["mean_points"].map(lambda x: f"{x:.2f}"),
                    "95% interval": [
                        _interval(a, b, pct=False)
                        for a, b in zip(bs["mean_lo"], bs["mean_hi"], strict=True)
                    ],
                }
            )
        ),
        "Points of the maker's side by the maker's seat relative to the dealer.",
    )

    sec = report.section("The right to rob the pack")
    rob_rows = []
    for robber, v in values.items():
        dist = v.counts.sum(axis=(0, 1, 2, 3))
        n = dist.sum()
        pts = np.arange(dist.size)
        m = (dist * pts).sum() / n
        sd = np.sqrt((dist * (pts - m) ** 2).sum() / max(n - 1, 1))
        at7 = dist[7:].sum() / n
        rob_rows.append(
            {
                "who robs": robber,
                "hands": int(n),
                "mean points": f"{m:.2f}",
                "95% interval": _interval(
                    m - 1.96 * sd / np.sqrt(n), m + 1.96 * sd / np.sqrt(n), pct=False
                ),
                "P(at least 7)": _pct(at7),
            }
        )
    means = {row["who robs"]: float(row["mean points"]) for row in rob_rows}
    best = max(means, key=means.get)
    worst = min(means, key=means.get)
    sec.text(
        "The same hands under three rules for the stock: the maker robs (the original's "
        "rule, this project's default), the dealer robs (the classic rule), nobody robs. "
        f"The maker's side takes most when the rule is robber={best} "
        f"({means[best]:.2f} points on average) and least under robber={worst} "
        f"({means[worst]:.2f})."
    )
    sec.table(
        "robbing",
        format_frame(pd.DataFrame(rob_rows)),
        "Points of the maker's side under each robbing rule (heuristic strategy).",
    )

    # ---- Pedro capture
    sec = report.section("When the Pedros are saved and lost")
    pc = an.tables()["pedro_capture"]
    pc = pc[pc["holder_hands"] > 0]
    sec.text(
        "Who held each Pedro after the draw, and whether that side kept it (saved) or the "
        "other side caught it (lost)."
    )
    sec.table(
        "pedro_capture",
        format_frame(
            pd.DataFrame(
                {
                    "Pedro": pc["pedro"].str.replace("_", " "),
                    "holder": pc["holder"],
                    "fate": pc["fate"],
                    "hands": pc["hands"],
                    "rate": pc["rate"].map(_pct),
                    "95% interval": [
                        _interval(a, b) for a, b in zip(pc["rate_lo"], pc["rate_hi"], strict=True)
                    ],
                }
            )
        ),
    )
    sec.chart("pedro_capture", pedro_figure(an), an.caption(), "Pedro capture as stacked bars")

    # ---- strategy ladder
    sec = report.section("Which strategy wins")
    lad = ladder(list(s.strategies), games=s.games, seed=s.seed, rules=rules, threads=s.threads)
    step(STEPS["ladder"])
    ratings = lad.ratings()
    sec.text(
        f"Every pair of strategies played {s.games:,} games to {rules.target} in duplicate: "
        "each deal sequence is played twice with the sides swapping seats, so the luck of "
        "the cards cancels. Ratings are on the Elo scale (400 points = 10 to 1 odds), "
        "with 95% bootstrap intervals."
    )
    sec.table(
        "ladder",
        format_frame(
            pd.DataFrame(
                {
                    "rank": ratings["rank"],
                    "strategy": ratings["strategy"],
                    "rating": ratings["rating"].map(lambda x: f"{x:+.0f}"),
                    "95% interval": [
                        f"{a:+.0f} to {b:+.0f}"
                        for a, b in zip(ratings["rating_lo"], ratings["rating_hi"], strict=True)
                    ],
                    "games": ratings["games"],
                    "score": ratings["score"].map(_pct),
                }
            )
        ),
    )
    mu = lad.matchups()
    sec.table(
        "matchups",
        format_frame(
            pd.DataFrame(
                {
                    "A": mu["a"],
                    "B": mu["b"],
                    "games": mu["games"],
                    "A wins": mu["win_rate_a"].map(_pct),
                    "95% interval": [
                        _interval(a, b)
                        for a, b in zip(mu["win_rate_lo"], mu["win_rate_hi"], strict=True)
                    ],
                    "points per hand, A-B": mu["points_per_hand_diff"].map(lambda x: f"{x:+.2f}"),
                    "hands per game": mu["mean_game_length"].map(lambda x: f"{x:.1f}"),
                }
            )
        ),
    )
    try:
        from cinch_sim.matches.plots import ladder_figure

        sec.chart(
            "ladder",
            ladder_figure(ratings),
            "Ratings with 95% intervals.",
            "Strategy ratings with intervals",
        )
    except Exception:  # a chart is a convenience; the table above carries the numbers
        pass
    raw["ladder"] = ratings

    # ---- advice for example hands
    from cinch_sim.advisor.query import advise
    from cinch_sim.cards import SUITS

    sec = report.section("Advice for a few hands")
    sec.text(
        "Each hand sits at seat 0, eldest hand, with the dealer at seat 3 and no bid before "
        "it. The other 43 cards are dealt at random many times; for each trump suit we count "
        "how often the side takes at least each number of points."
    )
    for text, label in EXAMPLE_HANDS:
        adv = advise(
            text,
            seat=(s.dealer + 1) % rules.players,
            dealer=s.dealer,
            rules=rules,
            precision=s.advice_precision,
            seed=s.seed,
            threads=s.threads,
        )
        p, lo, hi = adv.p_make()
        best = adv.best_trump
        bids = list(adv.bids)
        row = {"bid": [str(b) for b in bids]}
        for suit in range(4):
            row[f"P(make) in {SUITS[suit]}"] = [_pct(x) for x in p[suit]]
        row[f"interval ({SUITS[best]})"] = [
            _interval(a, b) for a, b in zip(lo[best], hi[best], strict=True)
        ]
        sec.text(f"{label}: {text}. {adv.reason()}")
        sec.table(
            f"advice_{len(sec.blocks)}",
            format_frame(pd.DataFrame(row)),
            f"{adv.hands:,} deals; widest 95% half-width {adv.precision_reached():.3f}.",
        )
    step(STEPS["advice"])

    # ---- method
    sec = report.section("Method notes")
    sec.text(
        "Hands are dealt from a counter-based random stream keyed by the seed and the hand "
        "number, so the same command and seed reproduce every number. Intervals for rates "
        "are Wilson score intervals; for means, normal intervals; the ladder's from "
        "resampling pairs of games. The strategies are simple rules of thumb: 'heuristic' "
        "bids from a linear estimate of the hand (Pedros, high trumps, length), pulls trumps "
        "with sure winners and saves Pedros under the partner's winning card; 'greedy' "
        "always takes a trick it can win cheaply; 'simple' bids from Pedros and honours and "
        "plays at random; 'random' does anything legal. No strategy sees hidden cards."
    )
    return report, raw


def total_steps() -> int:
    return sum(STEPS.values())
