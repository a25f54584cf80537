"""The report's sections: for each study, the text, tables and charts a player reads.

Each ``add_*`` function takes the results of one study (already run by
``build``) and appends one section to a ``render.Report``: paragraphs written
for players, tables formatted as text (the same strings go to HTML, Markdown
and CSV) and charts. Nothing here runs a simulation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from cinch_sim import notation as N
from cinch_sim.advisor.estimate import Advice
from cinch_sim.advisor.present import advice_reason
from cinch_sim.analysis.analyse import Analysis
from cinch_sim.analysis.hand_worth import HandValue
from cinch_sim.cards import SUITS
from cinch_sim.report import charts
from cinch_sim.report.render import Report, format_frame


# ------------------------------------------------------------------ formatting
def _pct(x: float) -> str:
    """A rate as people read it (notation.rate)."""
    return N.rate(x)


def _interval(lo: float, hi: float, pct: bool = True, signed: bool = False) -> str:
    """A rate's interval in percentage points, or a mean's (notation); NaN as a dash."""
    return N.rate_interval(lo, hi) if pct else N.interval(lo, hi, signed=signed)


def _intervals(
    lo: Iterable[float], hi: Iterable[float], pct: bool = True, signed: bool = False
) -> list[str]:
    """``_interval`` of each pair of bounds."""
    return [_interval(a, b, pct, signed) for a, b in zip(lo, hi, strict=True)]


def _fixed(values: pd.Series, spec: str) -> pd.Series:
    """Each value formatted with ``spec`` (``".2f"``, ``"+.2f"``, ...)."""
    return values.map(lambda x: format(x, spec))


def _provenance(an: Analysis) -> str:
    """Where a chart's numbers come from, said once, under the chart: the hands and the
    seed (the rules and strategies are in the report's first table)."""
    return f"From {an.counts.hands:,} hands, seed {an.settings.get('seed')}."


# -------------------------------------------------------------------- sections
def add_introduction(
    report: Report, settings: Sequence[tuple[str, str]], notice: str | None = None
) -> None:
    """What the numbers are, and the settings and rules they come from; ``notice``
    first (that the report was interrupted, and what it lacks)."""
    sec = report.section("What this report is")
    if notice:
        sec.text(notice)
    sec.text(
        "Every number below comes from simulated Cinch hands played by computer strategies "
        "under the rules listed here. Percentages come with a 95% interval: the range that "
        "would contain the true value in 19 runs out of 20 of this size. Rows based on few "
        "hands are marked."
    )
    sec.table("settings", pd.DataFrame(list(settings), columns=["setting", "value"]))


def add_bid_success(report: Report, an: Analysis) -> None:
    """How often the heuristic bidder's contracts are made, by bid level."""
    by_bid = an.make_rate(("bid",))
    sec = report.section("How often each bid is made")
    made = by_bid["made"].sum() / by_bid["hands"].sum()
    passed_out = " Bid 0 means everybody passed and the dealer named trumps without a contract."
    sec.text(
        f"With the heuristic strategy at every seat, the bidding side made its contract in "
        f"{_pct(made)} of {an.counts.played:,} hands."
        + (passed_out if (by_bid["bid"] == 0).any() else "")
    )
    tbl = pd.DataFrame(
        {
            "bid": by_bid["bid"],
            "hands": by_bid["hands"],
            "made": by_bid["make_rate"].map(_pct),
            "95% interval": _intervals(by_bid["make_rate_lo"], by_bid["make_rate_hi"]),
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
        charts.make_rate_chart(an),
        "The share of contracts made at each bid level; the grey band is the 95% interval. "
        f"Bids with fewer than {an.min_hands} hands are not drawn (the table marks them "
        f"under 'few hands'). {_provenance(an)}",
        "Make rate against bid level with a 95% band",
    )


def add_safe_bids(report: Report, base: HandValue) -> None:
    """The highest bid made at even money and at 70%, by Pedros and trumps dealt."""
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
            "mean points": _fixed(keep["mean_points"], ".1f"),
            "bid up to (50%)": keep["bid_50"],
            "bid up to (70%, safe)": keep["bid_70"],
            "made at safe bid": [
                f"{_pct(m)} {span}"
                for m, span in zip(
                    keep["make_70"], _intervals(keep["make_70_lo"], keep["make_70_hi"]), strict=True
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


def add_hand_features(report: Report, base: HandValue, dealer: int) -> None:
    """The maker's side's points by card dealt, by trumps dealt and by the maker's seat."""
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
                    "points with": _fixed(cv["mean_with"], ".2f"),
                    "points without": _fixed(cv["mean_without"], ".2f"),
                    "difference": _fixed(cv["difference"], "+.2f"),
                    "95% interval": _intervals(
                        cv["difference_lo"], cv["difference_hi"], pct=False, signed=True
                    ),
                }
            )
        ),
    )
    sec.table(
        "points_by_trumps",
        _mean_points_table(base.by_trumps(), "trumps", "trumps dealt"),
        "Points of the maker's side by trumps (the Left Pedro included) in the 9 dealt cards.",
    )
    sec.table(
        "points_by_seat",
        _mean_points_table(base.by_seat(dealer), "maker_seat", "maker's seat"),
        "Points of the maker's side by the maker's seat relative to the dealer.",
    )


def _mean_points_table(df: pd.DataFrame, key: str, label: str) -> pd.DataFrame:
    """A ``HandValue`` mean table (by trumps, by seat) for the page."""
    return format_frame(
        pd.DataFrame(
            {
                label: df[key],
                "hands": df["hands"],
                "mean points": _fixed(df["mean_points"], ".2f"),
                "95% interval": _intervals(df["mean_lo"], df["mean_hi"], pct=False),
            }
        )
    )


def add_robbing(report: Report, values: dict[str, HandValue]) -> None:
    """The same hands under each robbing rule: who gains from the right to rob."""
    sec = report.section("The right to rob the pack")
    rob_rows = [_robbing_row(robber, v) for robber, v in values.items()]
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


def _robbing_row(robber: str, v: HandValue) -> dict[str, object]:
    """Mean points of the maker's side (normal interval) and P(at least 7) under one rule."""
    dist = v.counts.sum(axis=(0, 1, 2, 3))
    n = dist.sum()
    pts = np.arange(dist.size)
    m = (dist * pts).sum() / n
    sd = np.sqrt((dist * (pts - m) ** 2).sum() / max(n - 1, 1))
    at7 = dist[7:].sum() / n
    return {
        "who robs": robber,
        "hands": int(n),
        "mean points": f"{m:.2f}",
        "95% interval": _interval(
            m - 1.96 * sd / np.sqrt(n), m + 1.96 * sd / np.sqrt(n), pct=False
        ),
        "P(at least 7)": _pct(at7),
    }


def add_pedro_capture(report: Report, an: Analysis) -> None:
    """Who held each Pedro after the draw, and how often that side kept it."""
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
                    "Pedro": pc["pedro"].str.replace("_", " ").str.title(),
                    "holder": pc["holder"],
                    "fate": pc["fate"],
                    "hands": pc["hands"],
                    "rate": pc["rate"].map(_pct),
                    "95% interval": _intervals(pc["rate_lo"], pc["rate_hi"]),
                }
            )
        ),
    )
    sec.chart(
        "pedro_capture",
        charts.pedro_holder_chart(an),
        "Who held each Pedro after the draw, as a share of all played hands: blue, the "
        "holder's side took it (saved); red, the other side caught it (lost); hatched bars, "
        f"the Left Pedro. {_provenance(an)}",
        "Stacked bars: who held each Pedro after the draw, saved or lost",
    )
    sec.chart(
        "pedro_by_trick",
        charts.pedro_trick_chart(an),
        "The trick each Pedro fell in, as a share of all played hands, and whether the side "
        "that held it after the draw kept it; the same hands as the chart above.",
        "Stacked bars: the trick each Pedro fell in, saved or lost",
    )


def add_ladder(report: Report, lad, games: int, target: int) -> None:
    """The strategies' ratings and every pair's duplicate match (``lad``: a ``Ladder``)."""
    sec = report.section("Which strategy wins")
    ratings = lad.ratings()
    played = (
        f"Ctrl-C stopped the ladder: each pair below played the games its row counts, to "
        f"{target} in duplicate (a strategy that played none is unplayed, without a rating)"
        if lad.interrupted
        else f"Every pair of strategies played {games:,} games to {target} in duplicate"
    )
    sec.text(
        f"{played}: each deal sequence is played twice with the sides swapping seats, so the "
        "luck of the cards cancels. Ratings are on the Elo scale (400 points = 10 to 1 odds), "
        "with 95% bootstrap intervals."
    )
    sec.table(
        "ladder",
        format_frame(
            pd.DataFrame(
                {
                    "rank": ratings["rank"].map(lambda r: "–" if r is pd.NA else f"{r}"),
                    "strategy": ratings["strategy"],
                    # a strategy the interrupted ladder never reached has no rating
                    "rating": _ratings_text(ratings["rating"]),
                    "95% interval": [
                        N.interval(a, b, 0, signed=True)
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
                    "95% interval": _intervals(mu["win_rate_lo"], mu["win_rate_hi"]),
                    "points per hand, A-B": _fixed(mu["points_per_hand_diff"], "+.2f"),
                    "hands per game": _fixed(mu["mean_game_length"], ".1f"),
                }
            )
        ),
    )
    try:
        sec.chart(
            "ladder",
            charts.ladder_chart(ratings),
            "Each strategy's rating with its 95% bootstrap interval, on the Elo scale; the "
            "ratings average 0. From the games in the table above.",
            "Strategy ratings with intervals",
        )
    except Exception:  # a chart is a convenience; the table above carries the numbers
        pass


def _ratings_text(ratings: pd.Series) -> pd.Series:
    """Each rating as ``+120``; "unplayed" for a strategy that played no game."""
    return ratings.map(lambda x: "unplayed" if x != x else f"{x:+.0f}")


def add_example_advice(report: Report, examples: Iterable[tuple[str, str, Advice]]) -> None:
    """For each example (hand, label, advice): the advice and, per bid, P(win the
    auction), P(make | maker) by trump and the expected gain over passing."""
    sec = report.section("Advice for a few hands")
    sec.text(
        "Each hand sits at seat 0, eldest hand, with the dealer at seat 3 and no bid before "
        "it. The other 43 cards are dealt at random many times; for each bid and trump the "
        "hand bids it, the later seats bid with the simulator's own bidder (they may "
        "overbid), and the hand is played out. We count how often the hand wins the "
        "auction, how often it then makes the bid, and the expected score margin over the "
        "whole hand against passing on the same deals."
    )
    for text, label, adv in examples:
        pw, _, _ = adv.p_win()
        p, lo, hi = adv.p_make()
        ev = adv.score_change()["ev"]
        best = adv.best_trump_index
        row = {"bid": [str(b) for b in adv.bids]}
        row["P(win auction)"] = [_pct(x) for x in pw[best]]
        for suit in adv.suits_run:
            row[f"P(make) in {SUITS[suit]}"] = [_pct(x) for x in p[suit]]
        row[f"interval ({SUITS[best]})"] = _intervals(lo[best], hi[best])
        row[f"ev vs pass ({SUITS[best]})"] = [N.number(x, 2, signed=True) for x in ev[best, 1:]]
        sec.text(f"{label}: {text}. {advice_reason(adv)}")
        sec.table(
            f"advice_{len(sec.blocks)}",
            format_frame(pd.DataFrame(row)),
            f"{adv.hands:,} deals; the widest 95% interval of P(win) and P(win and make) "
            f"is ± {100 * adv.precision_reached():.1f} percentage points.",
        )


def add_method_notes(report: Report) -> None:
    """How the numbers are made: the random stream, the intervals, the strategies."""
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
