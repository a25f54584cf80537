"""The report's sections: for each study, the text, tables and charts a player reads.

Each ``add_*`` function takes the results of one study (already run by
``build``) and appends one section to a ``render.Report``: paragraphs written
for players, tables formatted as text (the same strings go to HTML, Markdown
and CSV) and charts. Nothing here runs a simulation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from cinch_sim import notation as N
from cinch_sim.advisor.estimate import MIN_MAKER_DEALS, Advice
from cinch_sim.advisor.present import advice_reason, first_bid_won, never_won_words
from cinch_sim.analysis.analyse import Analysis
from cinch_sim.analysis.card_values import MIN_DEALS, CardValues
from cinch_sim.analysis.hand_worth import HandValue
from cinch_sim.analysis.intervals import FEW_HANDS, SAFE_MEANING
from cinch_sim.analysis.words import (
    CHOSEN_BIDS_NOTE,
    after_the_draw,
    capture_phrase,
    key_card_phrase,
    makers,
    only_pedros_captured,
)
from cinch_sim.cards import SUIT_NAMES, SUITS
from cinch_sim.matches.ladder import edge_note
from cinch_sim.policies.strategies import Strategy
from cinch_sim.report import charts
from cinch_sim.report.render import Report, format_frame
from cinch_sim.rules import Rules


# ------------------------------------------------------------------ formatting
def _pct(x: float) -> str:
    """A rate as people read it (notation.rate)."""
    return N.rate(x)


def _rate(fields: Mapping[str, float], name: str) -> str:
    """``63.5% [62.8, 64.2]``: the rate ``name`` of flat fields with its ``_lo``, ``_hi``."""
    return N.rate_with_interval(fields[name], fields[f"{name}_lo"], fields[f"{name}_hi"])


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


def _few(low_n: Iterable[bool]) -> list[str]:
    """The 'few hands' column: ``yes`` on rows under the small-class limit."""
    return ["yes" if bool(x) else "" for x in low_n]


FEW = FEW_HANDS  # a class of fewer hands is marked "few hands" in every table
MANY_HANDS = 500  # a strong player's safe bids compared where its interval is narrow


def _provenance(an: Analysis) -> str:
    """Where a chart's numbers come from, said once, under the chart: the hands and the
    seed (the rules and strategies are in the report's first table)."""
    return f"From {an.counts.hands:,} hands, {N.seeds(an.settings)}."


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
        "hands are marked. Three players appear: the heuristic (quick rules of thumb from "
        "the advice printed with the rules, tuned by simulation); PIMC (Perfect Information Monte "
        "Carlo: before each card it deals the unseen cards many times in ways that fit "
        "what its seat has seen, works out each deal with every card shown, and plays the "
        "card that did best on average); and perfect play (double-dummy: every seat sees "
        "every card, the bound of what the cards can give, not a player one can meet). "
        "The game is the preset named below, as docs/rules.md gives it; every rule "
        "option's value is in run.json, beside this page."
    )
    sec.table("settings", pd.DataFrame(list(settings), columns=["setting", "value"]))


def add_bid_success(report: Report, an: Analysis) -> None:
    """How often the heuristic bidder's contracts are made, by bid level."""
    by_bid = an.make_rate(("bid",))
    sec = report.section("How often each bid is made")
    c = an.counts
    sec.text(
        f"With the heuristic strategy at every seat, {_makers(c.rules)} made the contract in "
        f"{_rate(c.make_rate_fields(), 'make_rate')} of {c.contracts:,} contracts."
        + (
            f" In {c.played - c.contracts:,} hands (bid 0) everybody passed and the dealer "
            "named trumps without a contract: no make rate."
            if c.played > c.contracts
            else ""
        )
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
        f"Make rate of the contracts the heuristic bidder chose, by bid level. {CHOSEN_BIDS_NOTE}",
        by_bid[["bid", "hands", "made", "make_rate", "make_rate_lo", "make_rate_hi", "low_n"]],
    )
    sec.chart(
        "make_rate_by_bid",
        charts.make_rate_chart(an),
        "The share of contracts made at each bid level; the grey band is the 95% interval. "
        f"Bids with fewer than {an.min_hands} hands are not drawn (the table marks them "
        f"under 'few hands'). {_provenance(an)}",
        "Make rate against bid level with a 95% band",
    )


def add_safe_bids(
    report: Report,
    base: HandValue,
    examples: Sequence[tuple[str, str, Advice]] = (),
    strong: Mapping[str, HandValue] | None = None,
    left_out: str | None = None,
    auction: Analysis | None = None,
) -> None:
    """The highest bid made at even money and at 70%, by Pedros, trumps and top trumps
    dealt, and (``strong``: by player, ``pimc`` and ``dd``) the safe bid when every seat
    plays PIMC or double-dummy (``left_out``: why a player is not); where the auction
    (``auction``: the bid study) seldom ends; then where each example hand falls and
    what the advisor says of it."""
    safe = base.safe_bids(min_hands=FEW)
    keys = base.keys
    strong = {p: strong[p] for p in STRONG_SUFFIX if strong and p in strong}
    for player, hv in strong.items():
        other = hv.safe_bids(min_hands=FEW)[[*keys, "hands", "bid_70"]]
        suffix = STRONG_SUFFIX[player]
        other = other.rename(columns={"hands": f"hands_{suffix}", "bid_70": f"bid_70_{suffix}"})
        safe = safe.merge(other, on=keys, how="left")
        safe[f"hands_{suffix}"] = safe[f"hands_{suffix}"].fillna(0).astype(int)
    sec = report.section("The safe bid by hand type")
    r = base.rules
    side = (
        "the points the side takes with the partner's help"
        if r.partnerships
        else ("the points the player takes")
    )
    robbing = {
        "maker": ", after the maker robs the pack",
        "dealer": ", with the dealer robbing the pack",
        "none": "",
    }[r.robber]
    split = r.split_card
    sec.text(
        "Here every hand is played as if its holder had won the bidding and named the trump "
        "suit the heuristic strategy likes best, so the numbers describe the hand, not the "
        "bidding. Hands are grouped by the Pedros, "
        + (f"whether the {N.label(split[0])} was dealt, " if split else "")
        + "the number of trumps"
        + (f" (the {N.label(r.left_name)} included)" if r.left_rank else "")
        + " and which of the ace and king of trumps were dealt. 'Bid up to' is the "
        "highest bid the group makes at least half the time (even money) or at least 70% of "
        f"the time (safe), counting {side}{robbing}. Here, as everywhere in this report, "
        f"{SAFE_MEANING}. So a group of few hands gets a lower bid rather than a lucky one, "
        "and a dash means no bid reaches the mark with that confidence. Points come in "
        "lumps (a Pedro is 5), so a group's points often gather at two ends, its Pedros "
        "saved or lost: then the even-money bid can stand far above the safe one, and a "
        "group with a higher mean can have a lower safe bid." + _groups_note(r)
    )
    table = pd.DataFrame(
        {
            "Pedros dealt": safe["pedros"],
            **({f"{N.label(split[0])} dealt": safe[split[0]].map(_yes)} if split else {}),
            "trumps dealt": safe["trumps"].astype(str),
            "ace, king of trumps": safe["top_trumps"],
            "hands": safe["hands"],
            "mean points": [
                N.number_with_interval(m, lo, hi, 1)
                for m, lo, hi in zip(
                    safe["mean_points"], safe["mean_points_lo"], safe["mean_points_hi"], strict=True
                )
            ],
            "bid up to (50%)": _bids(safe["bid_50"]),
            "bid up to (70%, safe)": _bids(safe["bid_70"]),
            "made at safe bid": [
                N.rate_with_interval(m, lo, hi)
                for m, lo, hi in zip(
                    safe["make_70"], safe["make_70_lo"], safe["make_70_hi"], strict=True
                )
            ],
            "few hands": _few(safe["low_n"]),
        }
    )
    for player in strong:
        column = f"safe bid, {PLAYER_WORDS[player].removeprefix('the ')}"
        suffix = STRONG_SUFFIX[player]
        table.insert(
            len(table.columns) - 1,
            column,
            _bids_of_enough(safe[f"bid_70_{suffix}"], safe[f"hands_{suffix}"]),
        )
    sec.table(
        "safe_bid_by_hand",
        format_frame(table),
        "'mean points' and 'made at safe bid': the mean points of the group's hands and "
        "the share of them that took at least the safe bid, each with its 95% interval."
        f" 'few hands': fewer than {FEW} hands, read with care."
        + (
            f" Under {_player_words(list(strong))}: the safe bid, with in brackets the "
            f"hands of the group that player played (far fewer than the heuristic's); "
            f"'few (N)': only N (fewer than {FEW}), too few for a safe bid; 'no hands': none."
            if strong
            else ""
        ),
        safe,
        labels=3,
    )
    if costly := _pedros_that_cost(safe, keys, r):
        sec.text(costly)
    if auction is not None and (low := _seldom_won(auction.make_rate(("bid",)), safe)):
        sec.text(low)
    for player, hv in strong.items():
        sec.text(_strong_safe_bids(safe, player, hv))
    if left_out:
        sec.text(left_out)
    for text, label, adv in examples:
        sec.text(_example_in_class(base, safe, text, label, adv))
    if examples:
        sec.text(
            "Where the two differ, the group's number is an average over all its hands, "
            "each played as if it had won the bidding, while the advisor's is for the hand "
            "itself, in the auctions it wins: its lower trumps and side cards make it "
            "stronger or weaker than its group's average, and the other seats' bids tell "
            "it when it is up against strength. Both call a bid safe by the same rule."
        )


# the safe-bid groups by the top trumps dealt (``HandValue``'s ``top_trumps``), in words
TOP_WORDS = {
    "A K": "the ace and king of trumps",
    "A": "the ace of trumps, not the king",
    "K": "the king of trumps, not the ace",
    "neither": "neither the ace nor the king of trumps",
}


def _pedros_that_cost(safe: pd.DataFrame, keys: list[str], rules: Rules) -> str:
    """The groups holding a Pedro whose mean points lie below (the whole interval) those
    of the same trumps, ace and king without one, with why: else a player reads a
    Pedro that lowers a hand's worth as a bug."""
    from cinch_sim.analysis.hand_worth import pedro_classes

    none, *single, pair = pedro_classes(rules)
    same = [k for k in keys if k != "pedros"]
    enough = safe[~safe["low_n"].astype(bool)]

    def below(holding: list[str], without: str) -> list:
        """The groups of ``holding`` whose whole interval lies below the same trumps,
        ace and king in class ``without``: (the gap, the row, the other row)."""
        base = enough[enough["pedros"] == without].set_index(same)
        out = []
        for _, row in enough[enough["pedros"].isin(holding)].iterrows():
            at = tuple(row[k] for k in same)
            if at in base.index and row["mean_points_hi"] < base.loc[at, "mean_points_lo"]:
                out.append((base.loc[at, "mean_points"] - row["mean_points"], row, base.loc[at]))
        return out

    found = below([*single, pair], none)
    # both against one: the second takes the place of a trump too (a review read "both
    # Pedros, 9.6 points; the Right Pedro alone, 10.0" as a fault)
    pairs = [f for one in single for f in below([pair], one)]
    if not found:
        return ""
    _, row, other = max(found, key=lambda f: f[0])
    groups = (
        "group holds one and yet averages" if len(found) == 1 else "groups hold one and yet average"
    )
    noun = "Pedro or Bower" if rules.left_name == "left_bower" else "Pedro"
    rival, rivals = (
        ("the other side", "the other side's")
        if rules.partnerships
        else ("another player", "another player's")
    )

    def points(x: pd.Series) -> str:
        return N.number_with_interval(x["mean_points"], x["mean_points_lo"], x["mean_points_hi"], 1)

    return (
        f"A {noun} can be worth less than the trump it displaces: {len(found)} {groups} "
        "fewer points (the whole 95% interval below) than the hands of the same number of "
        "trumps, ace and king without one, where another trump holds its place. "
        f"The widest gap: {row['trumps']} trumps, {TOP_WORDS[row['top_trumps']]}: "
        f"{row['pedros']} dealt "
        f"{points(row)} points, {none} {points(other)}. A {noun} scores only for the side "
        "that takes it in a trick, and every card is played: with few trumps above it, its "
        f"holder must sooner or later play it into a trick {rival} can win, while the "
        f"same count of higher trumps would capture {rivals} instead. "
        + _both_below_one(pairs, noun, points)
        + "That compares groups of hands; what a card adds to the very same deal, against "
        "a low trump in its place, is what the card values measure."
    )


def _both_below_one(pairs: list, noun: str, points) -> str:
    """The sentence on groups holding both Pedros below the same hands holding one (the
    whole interval below), the widest gap named; nothing where there is none."""
    if not pairs:
        return ""
    _, row, other = max(pairs, key=lambda f: f[0])
    n = len({(r["trumps"], r["top_trumps"]) for _, r, _ in pairs})  # each group once
    groups = "group" if n == 1 else "groups"
    return (
        f"Two can do worse than one for the same reason: in {n} {groups} the hands dealt "
        f"{row['pedros']} average fewer points than the same hands dealt one of them alone "
        f"(the widest gap: {row['trumps']} trumps, {TOP_WORDS[row['top_trumps']]}: "
        f"{row['pedros']} {points(row)}, the {other['pedros']} alone {points(other)}), the "
        f"second {noun} holding the place of a higher trump. "
    )


def _yes(held: bool) -> str:
    """A yes-or-no column for the page."""
    return "yes" if held else "no"


def _bids(bids: pd.Series) -> list[str]:
    """A bid column for the page: a dash where no bid reaches the mark."""
    return [N.DASH if b is pd.NA else f"{int(b)}" for b in bids]


def _bids_of_enough(bids: pd.Series, hands: pd.Series) -> list[str]:
    """A strong player's bid column, each with the hands it rests on, ``7 (34)``: a
    reader compared a PIMC bid on 34 hands with the heuristic's on 1,423 unawares;
    ``few (N)`` where that player's own sample of the group is under FEW hands, since
    its (cautious) safe bid then says little."""
    return [
        "no hands" if n == 0 else f"few ({int(n)})" if n < FEW else f"{text} ({int(n):,})"
        for text, n in zip(_bids(bids), hands, strict=True)
    ]


def _example_in_class(
    base: HandValue, safe: pd.DataFrame, text: str, label: str, adv: Advice
) -> str:
    """Where an example hand falls in the safe-bid table, beside the advisor's safe bid
    for the very hand, and why the two may differ."""
    from cinch_sim.cards import RANKS, card, left_card, suit_mask, to_mask, trump_mask

    trump = adv.best_trump_index
    hand = to_mask(adv.query.hand)
    rules = base.rules

    def has(c: int) -> bool:
        return bool(hand >> c & 1)

    # the rules' left card (the Left Bower in all_hands; none in the classic presets)
    left = RANKS.index(rules.left_rank) if rules.left_rank else None
    tmask = trump_mask(trump, left) if left is not None else suit_mask(trump)
    trumps = sum(1 for c in adv.query.hand if tmask >> c & 1)  # per copy, as dealt
    has_left = left is not None and has(left_card(trump, left))
    pedros = int(has(card(trump, RANKS.index("5")))) + 2 * int(has_left)
    ace, king = has(card(trump, RANKS.index("A"))), has(card(trump, RANKS.index("K")))
    split = rules.split_card
    held = split is not None and has(card(trump, RANKS.index(split[1])))
    key = base.hand_class(pedros, trumps, ace, king, held)
    hit = safe[
        np.logical_and.reduce(
            [safe[k].astype(str) == str(v) for k, v in key.items()]  # trumps: 3 or "10+"
        )
    ]
    held_words = ""
    if split:
        held_words = f"{'' if held else 'no '}{N.label(split[0])}, "
    where = (
        f"{label} ({text}), with {SUIT_NAMES[SUITS[trump]]} trumps, is in the group "
        f"'{key['pedros']}, {held_words}{key['trumps']} trumps, {TOP_WORDS[key['top_trumps']]}'"
    )
    if hit.empty:
        return f"{where}, which no simulated hand fell in."
    r = hit.iloc[0]
    bid = r["bid_70"]
    group = (
        f"{where}: {int(r['hands']):,} hands, safe up to "
        f"{N.DASH if bid is pd.NA else int(bid)}"
        + (
            f" (made {N.rate_with_interval(r['make_70'], r['make_70_lo'], r['make_70_hi'])})"
            if bid is not pd.NA
            else ""
        )
    )
    own = adv.safe_bid
    return (
        f"{group}. The advisor, dealing the rest of the pack around this very hand from its "
        "seat with no bid before it, "
        + (
            f"finds it safe at {own} (made as maker at least {N.rate(adv.risk, 0)} of the "
            "time, by the same rule)."
            if own is not None
            else "finds no safe bid."
        )
    )


def add_hand_features(report: Report, base: HandValue, dealer: int) -> None:
    """The maker's side's points by trumps dealt and by the maker's seat."""
    sec = report.section("What trump length and seat are worth")
    r = base.rules
    left = f" (the {N.label(r.left_name)} included)" if r.left_rank else ""
    by_trumps, by_seat = base.by_trumps(FEW), base.by_seat(dealer, FEW)
    sec.table(
        "points_by_trumps",
        _mean_points_table(by_trumps, "trumps", "trumps dealt"),
        f"Points of {_makers(r)} by trumps{left} in the {r.cards_dealt} dealt cards. "
        "Hands with more trumps differ in other ways too: this is a plain comparison.",
        by_trumps,
    )
    sec.table(
        "points_by_seat",
        _mean_points_table(by_seat, "maker_seat", "maker's seat"),
        f"Points of {_makers(r)} by the maker's seat relative to the dealer. As in the "
        "safe-bid table, each hand is played as if its maker had won the bidding, and the "
        f"maker's seat turns with the hand number ({_per_seat(by_seat)} hands each): with no "
        "auction to win, the seat changes only "
        + (
            "which widow each player picks up and the order of the play"
            if r.widow
            else "the order of the discards, the draw and the play"
            if r.draw
            else "the order of the play"
        )
        + (
            f", and whether {_makers(r)} robs the pack (the dealer robs)"
            if r.robber == "dealer" and r.draw
            else ""
        )
        + f". {_seat_verdict(by_seat, r.partnerships)}",
        by_seat,
    )


def _groups_note(rules: Rules) -> str:
    """What the safe-bid groups (Pedros, the split card, trumps, ace and king) leave
    out under ``rules``: a big point card of the preset's own besides the split card
    (the Dom, where the Sancho splits), and trumps that outrank the ace (the Bowers)."""
    split = rules.split_card
    own = [
        f"the {N.label(name)} ({points} points)"
        for name, rank, points in rules.point_cards
        if points >= 3 and rank != "5" and (split is None or name != split[0])
    ]
    out = ""
    if own:
        out += (
            f" The groups do not split hands by {N.joined(own)}, "
            "so each group mixes hands with and without "
            + ("it" if len(own) == 1 else "them")
            + ", and the advisor below judges such a hand better."
        )
    above = rules.trump_order[: rules.trump_order.index("A")]
    if above:
        bowers = rules.left_name == "left_bower"  # the jack of trumps is the Right Bower
        names = [
            f"the {N.label(rules.left_name)}" if c == "L"
            else "the Right Bower" if bowers and c == "J" else f"the {c}"
            for c in above
        ]  # fmt: skip
        out += (
            f" Here {N.joined(names)} outrank the ace, so 'ace, king of trumps' are not the "
            "top trumps."
        )
    return out


def _makers(rules: Rules) -> str:
    """Who a contract's points belong to (``analysis.words.makers``)."""
    return makers(rules.partnerships)


def _robbing_verdict(data: pd.DataFrame, who: str) -> str:
    """Which robbing rule gives the most and which the least; rules whose mean points
    are equal to the last digit name it (the same points on every hand: at heasly
    the stock runs out before the dealer's turn to rob)."""
    means = dict(zip(data["robber"], data["mean_points"], strict=True))
    hi, lo = max(means.values()), min(means.values())
    if hi == lo:
        return f"{who.capitalize()} takes the same under each ({hi:.2f} points on average)."

    def named(value: float) -> str:
        same = [r for r, m in means.items() if m == value]
        text = " and ".join(ROBBING_GERUND.get(r, f"robber={r}") for r in same)
        text += " alike" if len(same) > 1 else ""
        if {"dealer", "none"} <= set(same):  # the same deals, to the last bit: no robbing
            text += " (the dealer never robs here: the stock runs out before his turn)"
        return text

    return (
        f"{who.capitalize()} takes most with {named(hi)} ({hi:.2f} points on average) "
        f"and least with {named(lo)} ({lo:.2f})."
    )


def _seat_verdict(by_seat: pd.DataFrame, partnerships: bool) -> str:
    """Whether the maker's seat matters, read from the rows' intervals."""
    rows = list(by_seat.itertuples())
    if not any(N.shown_above(a.mean_lo, b.mean_hi) for a in rows for b in rows):
        return (
            "The rows' intervals overlap: the seat itself is worth little once the contract is won."
        )
    best = max(rows, key=lambda t: t.mean_points)
    worst = min(rows, key=lambda t: t.mean_points)

    def seat(name: str) -> str:
        return "the dealer" if name == "dealer" else name

    who = makers(partnerships)
    return (
        f"The seat matters here (intervals apart): {who} takes "
        f"{N.number(best.mean_points, 2)} points when the maker is {seat(best.maker_seat)}, "
        f"{N.number(worst.mean_points, 2)} when the maker is {seat(worst.maker_seat)}."
    )


CARD_COLUMNS = ("card", "deals", "value", "lo", "hi", "made_diff", "made_lo", "made_hi")


def add_card_values(
    report: Report, values: dict[str, CardValues], left_out: str | None = None
) -> None:
    """Each card's value by paired replays, one column per player (``values``: by the
    strategy's name), with the method in one sentence and what the data say about
    whether the conclusion depends on the player; ``left_out``: why a player is not
    measured, said after the table."""
    sec = report.section("What each card is worth")
    first = next(iter(values.values()))
    partnerships = first.rules.partnerships
    sec.text(first.method())
    sec.text(first.method_for_players())
    tables = {name: v.values().set_index("card") for name, v in values.items()}
    cards = list(tables[next(iter(tables))].index)
    cols: dict[str, list[str]] = {"card": cards}
    for name, t in tables.items():
        name = PLAYER_COLUMNS.get(name, name)
        cols[f"{name}: deals"] = [
            N.count(t.loc[c, "deals"]) + ("*" if t.loc[c, "deals"] < MIN_DEALS else "")
            for c in cards
        ]
        cols[f"{name}: points"] = [
            N.number_with_interval(t.loc[c, "value"], t.loc[c, "lo"], t.loc[c, "hi"], signed=True)
            for c in cards
        ]
        cols[f"{name}: make rate"] = [
            N.number_with_interval(
                100 * t.loc[c, "made_diff"], 100 * t.loc[c, "made_lo"],
                100 * t.loc[c, "made_hi"], digits=1, signed=True,
            )
            for c in cards
        ]  # fmt: skip
    played = "; ".join(
        f"{PLAYER_COLUMNS.get(name, name)}: {v.hands_played:,} hands played"
        for name, v in values.items()
    )
    data = pd.concat(  # the CSV: one row per player and card, numbers only
        [
            t.reset_index()[[*CARD_COLUMNS]].assign(
                player=name, low_n=lambda f: f["deals"] < MIN_DEALS
            )
            for name, t in tables.items()
        ],
        ignore_index=True,
    )
    sec.table(
        "card_values",
        format_frame(pd.DataFrame(cols)),
        "Points: the mean paired difference in the points of the maker"
        + ("'s side" if partnerships else "")
        + ", with its 95% "
        "interval; make rate: the difference in the share of contracts made, in percentage "
        f"points. {played}; * fewer than {MIN_DEALS} deals, too few to trust the interval.",
        data[["player", *[c for c in data.columns if c != "player"]]],
    )
    for paragraph in _player_dependence(tables).split(PARAGRAPH):
        sec.text(paragraph)
    if below := _below_nothing(tables, partnerships):
        sec.text(below)
    stored = {n: v for n, v in values.items() if "stored" in v.settings}
    if stored:
        sec.text(_stored_card_note(stored))
    if left_out:
        sec.text(left_out)


def _below_nothing(tables: dict[str, pd.DataFrame], partnerships: bool) -> str:
    """The cards some player values below zero (the whole interval), with why that can
    be: else a player reads a Pedro worth less than nothing as a bug."""
    who = makers(partnerships)
    other = "the other side" if partnerships else "another player"
    found: dict[str, list[str]] = {}
    for name, t in tables.items():
        for c in t.index:
            if t.loc[c, "deals"] >= MIN_DEALS and t.loc[c, "hi"] < 0:
                value, lo, hi = t.loc[c, ["value", "lo", "hi"]]
                found.setdefault(c, []).append(
                    f"{N.number_with_interval(value, lo, hi, signed=True)} under "
                    f"{PLAYER_WORDS.get(name, name)}"
                )
    if not found:
        return ""
    return (
        "Worth less than nothing here: "
        + "; ".join(f"{_the(c)}, {N.joined(v)}" for c, v in found.items())
        + f". {who.capitalize()} ends with fewer points holding such a card than holding the "
        "stand-in, the card then lying where the stand-in lay. That happens when holding "
        "the card means exposing it (a point card its holder must play into a trick "
        f"{other} can take) while in another hand the maker's high trumps capture it."
    )


def _stored_card_note(stored: dict[str, CardValues]) -> str:
    """Which columns come from studies stored with cinch_sim, how large, and why."""
    parts = [
        f"{PLAYER_COLUMNS.get(n, n)}'s{' card values' * (i == 0)} ({v.hands_played:,} deals, "
        f"seed {v.settings['seed']}, {_duration(v.settings['stored']['seconds'])} to play)"
        for i, (n, v) in enumerate(stored.items())
    ]
    text = N.joined(parts)
    again = (
        " (`report --card-values-hands N` plays PIMC's here instead, on N hands)"
        if "pimc" in stored
        else ""
    )
    return (
        f"{text[0].upper()}{text[1:]} were played once and "
        "stored with this version of cinch_sim: the very study this report would play, too "
        f"long to wait for each time{again}."
    )


def _duration(seconds: float) -> str:
    """``35 minutes``, ``80 seconds``."""
    return f"{seconds / 60:.0f} minutes" if seconds >= 120 else f"{seconds:.0f} seconds"


PLAYER_WORDS = {"heuristic": "the heuristic", "pimc": "PIMC", "dd": "perfect play"}
PLAYER_COLUMNS = {"pimc": "PIMC", "dd": "perfect play"}
# the safe-bid table's columns of each strong player (hands_perfect, bid_70_pimc, ...)
STRONG_SUFFIX = {"pimc": "pimc", "dd": "perfect"}
# how the example hands' advice under each strong player opens
STRONG_ADVICE = {
    "pimc": "Under PIMC (every seat plays PIMC, seeing only its own cards; stored with "
    "this version of cinch_sim, ",
    "dd": "Under perfect play (every seat double-dummy, every card seen; ",
}
MOST_SENTENCES = 6  # of each kind: the clearest first
PARAGRAPH = "\n\n"  # between the kinds of sentence


def _player_words(names: Sequence[str]) -> str:
    return N.joined([PLAYER_WORDS.get(n, n) for n in names])


def _player_dependence(tables: dict[str, pd.DataFrame]) -> str:
    """What the data say about the players, in sentences computed from the intervals:
    which cards' values differ between players, which orderings of two cards (one
    worth more than the other, the intervals apart) hold for every player and which
    only for some. Cards with fewer than MIN_DEALS deals for a player are left out."""
    if len(tables) < 2:
        return f"Only the {next(iter(tables))} player was measured here."
    first = tables[next(iter(tables))]

    def enough(t: pd.DataFrame, c: str) -> bool:
        return c in t.index and t.loc[c, "deals"] >= MIN_DEALS and not pd.isna(t.loc[c, "lo"])

    # a player with too few deals for most cards is left out of the comparison
    names = [n for n, t in tables.items() if 2 * sum(enough(t, c) for c in first.index) >= len(t)]
    short = [n for n in tables if n not in names]
    out = []
    if short:
        out.append(
            f"Too few deals to compare for {_player_words(short)} (fewer than {MIN_DEALS} "
            "for most cards)."
        )
    if len(names) < 2:
        return " ".join(
            out + [f"Only {_player_words(names or list(tables)[:1])} can be read here."]
        )
    tables = {n: tables[n] for n in names}
    few = [c for c in first.index if not all(enough(t, c) for t in tables.values())]
    if len(few) == len(first.index):
        return " ".join(
            out + [f"Every card has fewer than {MIN_DEALS} deals for one of the players."]
        )
    cards = [c for c in first.index if c not in few]
    apart = [
        c
        for c in cards
        if any(
            N.shown_above(tables[x].loc[c, "lo"], tables[y].loc[c, "hi"])
            for x in names
            for y in names
            if x != y
        )
    ]
    if apart:
        out.append(
            "What these cards are worth depends on the player (intervals apart): "
            + "; ".join(
                f"{_the(c)}, "
                + ", ".join(
                    f"{N.number(tables[n].loc[c, 'value'], 2, signed=True)} under "
                    f"{PLAYER_WORDS.get(n, n)}"
                    for n in names
                )
                for c in apart
            )
            + "."
        )
    else:
        out.append(
            f"For every card with {MIN_DEALS} deals or more, the players' intervals overlap: "
            "these deals do not tell the players apart on any one card."
        )
    every, some = [], []
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            # per player: how far a's interval clears b's (> 0) or b's clears a's (< 0)
            up = {n: tables[n].loc[a, "lo"] - tables[n].loc[b, "hi"] for n in names}
            down = {n: tables[n].loc[b, "lo"] - tables[n].loc[a, "hi"] for n in names}
            # apart as printed: the intervals shown rounded outwards do not touch
            over = [n for n in names if _clears(tables[n], a, b)]
            under = [n for n in names if _clears(tables[n], b, a)]
            if len(over) == len(names) or len(under) == len(names):
                hi, lo, gaps = (a, b, up) if over else (b, a, down)
                if _next_below(tables[names[0]], cards, hi) == lo:
                    every.append((min(gaps.values()), hi, lo))
            elif over or under:
                # told the way most players (then the widest gap) tell it
                key = (len(over), max(up.values())) >= (len(under), max(down.values()))
                hi, lo, who, rev = (a, b, over, under) if key else (b, a, under, over)
                gap = max(up.values()) if key else max(down.values())
                some.append((gap, hi, lo, who, rev))
    out.append(PARAGRAPH)
    if every:  # the steps down the first player's order that every player shows
        out.append(
            f"True under {_player_words(names)} alike: "
            + "; ".join(f"{_the(a)} {_is(a)} worth more than {_the(b)}" for _, a, b in every)
            + "."
        )
    out.append(PARAGRAPH)
    if some:
        some.sort(key=lambda x: x[0], reverse=True)
        for _, a, b, who, rev in some[:MOST_SENTENCES]:
            unclear = [n for n in names if n not in who and n not in rev]
            tail = [f"the reverse under {_player_words(rev)}"] if rev else []
            tail += [f"not clearly under {_player_words(unclear)}"] if unclear else []
            out.append(
                f"{_the(a)[0].upper()}{_the(a)[1:]} {_is(a)} worth more than {_the(b)} under "
                f"{_player_words(who)}, {N.joined(tail)}."
            )
    else:
        out.append("No ordering of two cards holds for one player and not for another.")
    if few:
        out.append(f"Fewer than {MIN_DEALS} deals for one of the players: {N.joined(few)}.")
    parts = (p.strip() for p in " ".join(out).split(PARAGRAPH))
    return PARAGRAPH.join(p for p in parts if p)


SELDOM = 0.01  # a share of the contracts below which the auction "seldom" ends


def _seldom_won(by_bid: pd.DataFrame, safe: pd.DataFrame) -> str:
    """Where safe bids fall below the level the auction seldom ends under (fewer than
    SELDOM of the heuristic bidder's contracts), a sentence saying so: a player reads a
    safe 7 in a game whose auctions end at 13 as a bid to make."""
    won = by_bid[by_bid["bid"] > 0].sort_values("bid")
    total = int(won["hands"].sum())
    if total == 0:
        return ""
    below = won["hands"].cumsum() - won["hands"]  # contracts under each level
    floor = int(won["bid"][below <= SELDOM * total].max())
    under = int((safe["bid_70"].dropna() < floor).sum())
    if under == 0:
        return ""
    share = 1 - float(below[won["bid"] == floor].iloc[0]) / total
    return (
        f"In this game the auction seldom ends low: {N.rate_floor(share)} of the {total:,} "
        f"contracts the heuristic bidder won were at {floor} or more ('How often each bid "
        "is made'). "
        f"The safe bids under {floor} here ({under} groups) say what such a hand is worth "
        "as the maker, not a bid that would often win the auction."
    )


def _clears(t: pd.DataFrame, a: str, b: str) -> bool:
    """Card a's interval above card b's, as the table prints them."""
    return N.shown_above(t.loc[a, "lo"], t.loc[b, "hi"])


def _strong_safe_bids(safe: pd.DataFrame, player: str, values: HandValue) -> str:
    """The safe bids under ``player``'s play (``pimc``, ``dd``) against the heuristic's,
    counted over the groups both measured with at least FEW hands."""
    suffix = STRONG_SUFFIX[player]
    hands, bid = f"hands_{suffix}", f"bid_70_{suffix}"
    both = safe[
        (safe["hands"] >= FEW) & (safe[hands] >= FEW) & safe["bid_70"].notna() & safe[bid].notna()
    ]
    diff = (both[bid] - both["bid_70"]).astype(int)
    n = len(both)
    who = PLAYER_WORDS[player]
    text = (
        f"'Safe bid, {who.removeprefix('the ')}': the same study with every seat "
        + (
            "playing double-dummy (every card seen: the bound of perfect play, not a player), "
            if player == "dd"
            else "playing PIMC (each seat sees only its own cards, as the heuristic does; "
            "played once and stored with this version of cinch_sim, as so many PIMC hands "
            "take minutes), "
        )
        + f"{values.hands:,} hands. "
    )
    if n == 0:
        return text + f"No group has {FEW} hands or more and a safe bid under both."
    higher = diff[diff > 0]
    by = f" (by {N.number(higher.mean(), 1)} on average)" if len(higher) else ""
    text += (
        f"Of the {n} groups with {FEW} hands or more and a safe bid under both, {who}'s "
        f"safe bid is higher in {len(higher)}{by}, lower in {int((diff < 0).sum())} and the "
        f"same in {int((diff == 0).sum())}."
    )
    # a safe bid is read from an interval's lower end: fewer hands, a lower bid
    big = diff[both[hands] >= MANY_HANDS]
    if not len(big):
        return text + (
            f" No group has {MANY_HANDS} hands under {who}: on fewer hands its intervals "
            "are wider and its safe bids lower whatever the play, so these counts say "
            "little about the play."
        )
    return text + (
        f" Part of that is the hands' number, not the play: on fewer hands an interval is "
        f"wider, and the safe bid, read from its lower end, lower. Over the {len(big)} "
        f"groups with {MANY_HANDS} hands or more under {who}, it is higher in "
        f"{int((big > 0).sum())}, lower in {int((big < 0).sum())} and the same in "
        f"{int((big == 0).sum())}."
    )


def _the(label: str) -> str:
    """``the Right Pedro``, ``both Pedros``."""
    return label if label.startswith("both") else f"the {label}"


def _is(label: str) -> str:
    """The verb for a card label: ``are`` for a pair (``both Pedros``, ``Right Bower
    and Left Bower``), else ``is``."""
    return "are" if label.startswith("both") or " and " in label else "is"


def _next_below(t: pd.DataFrame, cards: Sequence[str], a: str) -> str | None:
    """The card just below ``a`` in ``t``'s order of value, among ``cards``."""
    order = sorted(cards, key=lambda c: -t.loc[c, "value"])
    i = order.index(a)
    return order[i + 1] if i + 1 < len(order) else None


def _mean_points_table(df: pd.DataFrame, key: str, label: str) -> pd.DataFrame:
    """A ``HandValue`` mean table (by trumps, by seat) for the page."""
    return format_frame(
        pd.DataFrame(
            {
                label: df[key],
                "hands": df["hands"],
                "mean points": _fixed(df["mean_points"], ".2f"),
                "95% interval": _intervals(df["mean_lo"], df["mean_hi"], pct=False),
                "few hands": _few(df["low_n"]),
            }
        )
    )


_NUMBERS = {2: "two", 3: "three"}
# the robbing rules as a sentence's "with ..." says them (not the option's code)
ROBBING_GERUND = {
    "maker": "the maker robbing",
    "dealer": "the dealer robbing",
    "none": "nobody robbing",
}
ROBBING_WORDS = {
    "maker": "the maker robs (as the game's own rules text has it)",
    "dealer": "the dealer robs (the classic rule)",
    "none": "nobody robs",
}


def add_robbing(report: Report, values: dict[str, HandValue], default: str = "maker") -> None:
    """The same hands under each robbing rule: who gains from the right to rob
    (``default``: the rules' own robbing rule, named as this report's)."""
    sec = report.section("The right to rob the pack")
    data = pd.concat(
        [v.overall(FEW).assign(robber=robber) for robber, v in values.items()], ignore_index=True
    )
    data = data[["robber", *[c for c in data.columns if c != "robber"]]]
    half = next(iter(values.values())).half_points
    the_rules = next(iter(values.values())).rules
    rules = [f"{ROBBING_WORDS[r]}" + (", the rule of this report" if r == default else "")
             for r in values]  # fmt: skip
    sec.text(
        f"The same hands under {_NUMBERS.get(len(values), len(values))} rules for the "
        f"stock: {'; '.join(rules)}. " + _robbing_verdict(data, _makers(the_rules))
    )
    sec.table(
        "robbing",
        format_frame(
            pd.DataFrame(
                {
                    "who robs": data["robber"],
                    "hands": data["hands"],
                    "mean points": _fixed(data["mean_points"], ".2f"),
                    "95% interval": _intervals(data["mean_lo"], data["mean_hi"], pct=False),
                    f"P(at least {half})": [
                        N.rate_with_interval(p, lo, hi)
                        for p, lo, hi in zip(
                            data[f"at_least_{half}"],
                            data[f"at_least_{half}_lo"],
                            data[f"at_least_{half}_hi"],
                            strict=True,
                        )
                    ],
                    "few hands": _few(data["low_n"]),
                }
            )
        ),
        f"Points of {_makers(the_rules)} under each robbing rule (heuristic strategy); "
        f"P(at least {half}): the share of hands in which it took at least half the "
        f"{the_rules.total_points} points, with its 95% interval.",
        data,
    )


def add_pedro_capture(report: Report, an: Analysis) -> None:
    """Who held each Pedro after the draw (as dealt, with none), and how often that side
    kept it."""
    rules = an.counts.rules
    cards = rules.key_cards  # all_hands: the Left Bower; Sancho, Dom where played
    if len(cards) == 1:
        one = key_card_phrase(rules, cards[0][0])
        title, each = f"{one} is", one
    elif only_pedros_captured(rules):
        title, each = "the Pedros are", "each Pedro"
    else:
        both = capture_phrase(rules)  # all_hands: a Pedro and a Bower
        title, each = f"{both} are", both
    sec = report.section(f"When {title} saved and lost")
    after = after_the_draw(rules)
    pc = an.tables()["pedro_capture"]
    pc = pc[pc["holder_hands"] > 0]
    # a Pedro nobody held after the draw has one fate: its row would be 100% by
    # definition, so it is said in words and kept only in the CSV
    out = pc[pc["holder"] == "none"]
    shown = pc[pc["holder"] != "none"]
    keeper = "the holder's side" if an.counts.rules.partnerships else "the holder himself"
    other = "the other side" if an.counts.rules.partnerships else "another player"
    played = max(an.counts.played, 1)
    unplayed = (
        " Not in play ("
        + (
            ("among the discards" if rules.widow else "left in the stock or among the discards")
            if rules.draw
            else "not dealt"
        )
        + "): "
        + N.joined(
            [
                f"{key_card_phrase(rules, p)} in {N.count(h)} hands ({_pct(h / played)} of those "
                "played)"
                for p, h in zip(out["pedro"], out["hands"], strict=True)
            ]
        )
        + "."
        if len(out)
        else ""
    )
    copies = " With two decks each row follows the copy played first." if rules.decks > 1 else ""
    sec.text(
        f"Who held {each}{after}, and whether {keeper} took it (saved) or "
        f"{other} caught it (lost).{unplayed}{copies}"
    )
    sec.table(
        "pedro_capture",
        format_frame(
            pd.DataFrame(
                {
                    ("Pedro" if only_pedros_captured(rules) else "card"): shown["pedro"]
                    .str.replace("_", " ")
                    .str.title(),
                    "holder": shown["holder"],
                    "fate": shown["fate"],
                    "hands": shown["hands"],
                    "rate": shown["rate"].map(_pct),
                    "95% interval": _intervals(shown["rate_lo"], shown["rate_hi"]),
                    "few hands": _few(shown["low_n"]),
                }
            )
        ),
        f"'rate': the share of the holder's hands with that fate; 'few hands': the holder "
        f"held it in fewer than {FEW} hands.",
        pc[
            ["pedro", "holder", "fate", "hands", "holder_hands", "rate", "rate_lo", "rate_hi"]
            + ["low_n"]
        ],
    )
    sec.chart(
        "pedro_capture",
        charts.pedro_holder_chart(an),
        f"Who held {each}{after}, as a share of all played hands: blue, {keeper} "
        f"took it (saved); red, {other} caught it (lost)"
        f"{_hatched(an)}"
        + (f"; grey, not in play (the mean of {_the_cards(rules)})" if len(out) else "")
        + f". {_provenance(an)}",
        f"Stacked bars: who held {each}{after}, saved or lost",
    )
    sec.chart(
        "pedro_by_trick",
        charts.pedro_trick_chart(an),
        f"The trick {each} fell in, as a share of all played hands, and whether "
        + ("the side that held it" if an.counts.rules.partnerships else "the player who held it")
        + f"{after} kept it; the same hands as the chart above.",
        f"Stacked bars: the trick {each} fell in, saved or lost",
    )


def _the_cards(rules: Rules) -> str:
    """The key cards together: 'the Pedros', 'the 3 cards'."""
    return "the Pedros" if only_pedros_captured(rules) else f"the {len(rules.key_cards)} cards"


def _hatched(an: Analysis) -> str:
    """Which cards the chart hatches (the rules' second on), as the caption says it."""
    rules = an.counts.rules
    later = [key_card_phrase(rules, name) for name, _ in rules.key_cards[1:]]
    if not later:
        return ""
    if len(later) == 1:
        return f"; hatched bars, {later[0]}"
    return f"; hatched bars, {N.joined(later)}, each its own way"


def add_left_out(report: Report, title: str, why: str) -> None:
    """A section that has no meaning for these rules: its title and one line saying why."""
    report.section(title).text(why)


def add_ladder(report: Report, lad, target: int) -> None:
    """The strategies' ratings and every pair's duplicate match (``lad``: a ``Ladder``);
    at a cut-throat table, every ordered pair's cut-throat match."""
    sec = report.section("Which strategy wins")
    games = lad.settings["games_per_matchup"]  # the games asked, rounded up to whole units
    ratings = lad.ratings()
    if lad.cutthroat:
        _cutthroat_ladder(sec, lad, ratings, games, target)
        return
    played = (
        f"Ctrl-C stopped the ladder: each pair below played the games its row counts, to "
        f"{target} in duplicate (a strategy that played none is unplayed, without a rating)"
        if lad.interrupted
        else f"Every pair of strategies played {games:,} games to {target} in duplicate"
    )
    sec.text(
        f"{played}: each deal sequence is played twice with the sides swapping seats, so the "
        "luck of the cards cancels. Ratings are on the Elo scale (400 points = 10 to 1 odds), "
        f"with 95% intervals from {lad.bootstrap:,} bootstrap resamples of the pairs."
    )
    sec.table(
        "ladder",
        _ladder_table(ratings, "score"),
        "'behind the best': the rating minus the best strategy's, with its own 95% "
        "interval (the ratings' intervals move together, so read this one to tell two "
        "strategies apart).",
        ratings,
        labels=2,
    )
    if note := edge_note(ratings):
        sec.text(f"{note}.")
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
                    "points per hand, A-B": _points_diff(mu),
                    "hands per game": _fixed(mu["mean_game_length"], ".1f"),
                }
            )
        ),
        "'A wins': A's share of the games, each duplicate pair counted as one unit; its "
        "interval is Student's t over the pairs. 'points per hand': A's points a hand less "
        "B's, with its 95% interval.",
        mu,
        labels=2,
    )
    _ladder_chart(sec, ratings)


def _ladder_table(ratings: pd.DataFrame, score: str) -> pd.DataFrame:
    """The ratings for the page; ``score``: the last column's header."""
    return format_frame(
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
                "behind the best": [
                    N.number_with_interval(x, a, b, 0, signed=True) if x == x else N.DASH
                    for x, a, b in zip(
                        ratings["vs_best"],
                        ratings["vs_best_lo"],
                        ratings["vs_best_hi"],
                        strict=True,
                    )
                ],  # fmt: skip
                "games": ratings["games"],
                score: [
                    N.rate_with_interval(x, a, b)
                    for x, a, b in zip(
                        ratings[_score_column(ratings)],
                        ratings["score_lo"],
                        ratings["score_hi"],
                        strict=True,
                    )
                ],  # fmt: skip
            }
        )
    )


def _score_column(ratings: pd.DataFrame) -> str:
    """The ratings' score column: ``score`` (two sides) or ``wins_per_seat`` (cut-throat)."""
    return "wins_per_seat" if "wins_per_seat" in ratings else "score"


def _ladder_chart(sec, ratings: pd.DataFrame) -> None:
    try:
        sec.chart(
            "ladder",
            charts.ladder_chart(ratings),
            "Each strategy's rating with its 95% bootstrap interval, on the Elo scale; the "
            "ratings average 0. From the games in the table above.",
            "Strategy ratings with intervals",
        )
    except Exception:  # a chart is a convenience; the tables carry the numbers
        pass


def _cutthroat_ladder(sec, lad, ratings: pd.DataFrame, games: int, target: int) -> None:
    """The ladder of a cut-throat table: A alone, rotated through every seat, against B
    in all the others, every pair both ways round; Luce ratings."""
    p = lad.players
    fair = _pct(1 / p)
    played = (
        "Ctrl-C stopped the ladder: each pair below played the games its row counts"
        if lad.interrupted
        else f"Every pair of strategies played {games:,} games each way round"
    )
    sec.text(
        f"Each player is a side of his own here, so a match is played cut-throat at a table "
        f"of {p}. {played}, to {target}: one strategy alone, rotated through every seat over "
        f"the same deals, the other in the remaining {p - 1} seats, so the luck of the seats "
        f"and the cards is shared out. A strategy no better and no worse than the field wins "
        f"its fair share of the games, 1 in {p} ({fair}). The ratings are the Luce model's "
        "(Bradley-Terry for a winner among many) on the Elo scale: 400 points are 10 to 1 "
        f"odds for one seat against another; 95% intervals from {lad.bootstrap:,} bootstrap "
        "resamples of the rotations."
    )
    sec.table(
        "ladder",
        _ladder_table(ratings, "wins a seat"),
        "'behind the best': the rating minus the best strategy's, with its own 95% "
        "interval (the ratings' intervals move together, so read this one to tell two "
        f"strategies apart). 'wins a seat': its wins per seat it held (fair share {fair}; "
        f"at most {_pct(2 / p)}, winning every game alone and as the field, whose {p - 1} "
        "seats share one win).",
        ratings,
        labels=2,
    )
    if note := edge_note(ratings):
        sec.text(f"{note}.")
    mu = lad.matchups()
    sec.table(
        "matchups",
        format_frame(
            pd.DataFrame(
                {
                    "A (alone)": mu["a"],
                    "B (others)": mu["b"],
                    "games": mu["games"],
                    "A's share of wins": mu["share_a"].map(_pct),
                    "95% interval": _intervals(mu["share_lo"], mu["share_hi"]),
                    "fair share": mu["fair_share"].map(_pct),
                    "points per hand, A - B seat": _points_diff(mu),
                    "hands per game": _fixed(mu["mean_game_length"], ".1f"),
                }
            )
        ),
        "'A's share of wins': the share of the games A won, alone against B's seats; each "
        f"rotation ({p} games on the same deals, A once in each seat) is one unit, and the "
        "interval is Student's t over the rotations. 'points per hand': A's points a hand "
        "less a B seat's, with its 95% interval.",
        mu,
        labels=2,
    )
    _ladder_chart(sec, ratings)


def _points_diff(matchups: pd.DataFrame) -> list[str]:
    """Each matchup's points a hand, A less B, with its 95% interval."""
    return [
        N.number_with_interval(x, lo, hi, 2, signed=True)
        for x, lo, hi in zip(
            matchups["points_per_hand_diff"],
            matchups["points_diff_lo"],
            matchups["points_diff_hi"],
            strict=True,
        )
    ]


def _ratings_text(ratings: pd.Series) -> pd.Series:
    """Each rating as ``+120``; "unplayed" for a strategy that played no game."""
    return ratings.map(lambda x: "unplayed" if x != x else f"{x:+.0f}")


def add_example_advice(
    report: Report,
    examples: Iterable[tuple[str, str, Advice]],
    dealer: int,
    rules: Rules,
    strong: Mapping[str, Mapping[str, Advice]] | None = None,
    left_out: str | None = None,
) -> None:
    """For each example (hand, label, advice): the advice and, per bid, P(win the
    auction), P(make | maker) by trump and the expected gain over passing; and
    (``strong``: by player, ``pimc`` and ``dd``, then by hand) the advice when every
    seat plays PIMC or double-dummy (``left_out``: why a player is not)."""
    sec = report.section("Advice for a few hands")
    eldest = (dealer + 1) % rules.players
    sec.text(
        f"Each hand sits at seat {eldest}, eldest hand, with the dealer at seat {dealer} and "
        f"no bid before it. The other {52 * rules.decks - rules.cards_dealt} cards are dealt "
        "at random many times; for each bid and trump the hand bids it, the later seats bid "
        "with the simulator's own bidder (they may overbid), and the hand is played out. We "
        "count how often the hand wins the auction, how often it then makes the bid, and the "
        "expected score margin over the whole hand against passing on the same deals. A bid is "
        "advised, best or safe, only where the hand won the auction with it on at least "
        f"{MIN_MAKER_DEALS} deals ('as maker'); below that its make rate is shown but "
        "judges nothing (marked *). Safe means what it means in the safe-bid table: "
        "the lower end of the make rate's 95% interval at the mark. The two answer "
        "different questions: the best bid is the one worth the most on average; a safe bid "
        "above it is still made often enough, but on these deals it loses more in sets than "
        "it gains in auctions won (unless the advice names it as good)."
    )
    if left_out:
        sec.text(left_out)
    for number, (text, label, adv) in enumerate(examples, 1):
        pw, pw_lo, pw_hi = adv.p_win()
        p, lo, hi = adv.p_make()
        sc = adv.score_change()
        ev, ev_lo, ev_hi = sc["ev"], sc["ev_lo"], sc["ev_hi"]
        best = adv.best_trump_index
        row = {"bid": [str(b) for b in adv.bids]}
        row["P(win auction)"] = [
            N.rate_with_interval(x, a, b)
            for x, a, b in zip(pw[best], pw_lo[best], pw_hi[best], strict=True)
        ]
        for suit in adv.suits_run:
            row[f"P(make) in {SUITS[suit]}"] = [_pct(x) for x in p[suit]]
        row[f"interval ({SUITS[best]})"] = _intervals(lo[best], hi[best])
        judged = adv.judged()[best]
        row[f"as maker ({SUITS[best]})"] = [
            f"{int(k):,}" + ("" if ok else " *")
            for k, ok in zip(adv.win[best, 1:], judged, strict=True)
        ]
        row[f"ev vs pass ({SUITS[best]})"] = [
            N.number_with_interval(x, a, b, 2, signed=True)
            for x, a, b in zip(ev[best, 1:], ev_lo[best, 1:], ev_hi[best, 1:], strict=True)
        ]
        sec.text(f"{label}: {text}. {N.capital(advice_reason(adv))}.")
        for player in STRONG_SUFFIX:
            other = (strong or {}).get(player, {}).get(text)
            if other is not None:
                sec.text(f"{STRONG_ADVICE[player]}{other.hands:,} deals): {advice_reason(other)}.")
        data = {
            "bid": list(adv.bids),
            "p_win_auction": pw[best],
            "p_win_lo": pw_lo[best],
            "p_win_hi": pw_hi[best],
        }
        for suit in adv.suits_run:
            data[f"p_make_{SUITS[suit]}"] = p[suit]
        data["p_make_lo"], data["p_make_hi"] = lo[best], hi[best]
        data["as_maker"] = adv.win[best, 1:]
        data["judged"] = judged
        data["ev_vs_pass"] = ev[best, 1:]
        data["ev_lo"], data["ev_hi"] = ev_lo[best, 1:], ev_hi[best, 1:]
        # the lowest bids, never won on these deals (the later seats always bid more), are
        # one line under the table, not rows of 0% and dashes (the web page's way too)
        first = first_bid_won(adv)
        never = f"{N.capital(never_won_words(adv))} (not shown). " if first else ""
        sec.table(
            f"advice_{number}",  # the example's number: stable whatever the text around
            format_frame(pd.DataFrame({k: v[first:] for k, v in row.items()})),
            f"{never}{adv.hands:,} deals: enough that the share of deals on which the hand wins "
            "the auction, and on which it wins and makes its bid, is known to within "
            f"± {100 * adv.precision_reached():.1f} percentage points (95%). P(make) counts "
            "only the deals won, so a bid won on few deals has a wide interval.",
            pd.DataFrame(data),
        )


def _per_seat(table: pd.DataFrame) -> str:
    """The hands each seat made: ``250,000``, or a range where they differ."""
    lo, hi = int(table["hands"].min()), int(table["hands"].max())
    return f"{lo:,}" if lo == hi else f"{lo:,} to {hi:,}"


def add_method_notes(
    report: Report, strategies: Sequence[Strategy] = (), cutthroat: bool = False
) -> None:
    """How the numbers are made: the random stream, the intervals (the rotations'
    only at a cut-throat table), the strategies used (each as its own description
    says)."""
    sec = report.section("Method notes")
    told = "; ".join(f"'{s.name}': {s.description}" for s in strategies if s.description)
    sec.text(
        "Hands are dealt from a counter-based random stream keyed by the seed and the hand "
        "number, so the same command and seed reproduce every number. Intervals for rates "
        "are Wilson score intervals. Intervals for means are Student's t intervals fitted "
        "to each row's number of hands, with one make-believe hand at each end of the "
        "possible range added, and never run past that range (no points to every point of "
        "a deal): so a row of few hands gets a wide interval, never a falsely certain one, "
        f"and rows of fewer than {FEW} hands are marked in every table. "
        + (
            "Shares of the wins between strategies use the same t interval over rotations "
            "(one game per seat on the same deals; never empty, even when one strategy won "
            "every game)"
            if cutthroat
            else "Win rates between strategies use the same t interval over duplicate pairs "
            "(never empty, even when one side won every game)"
        )
        + "; card values, paired Student's t intervals over deals (with a pseudo-difference "
        "at each end of the range); the ladder's intervals "
        "come from resampling the games"
        + (" by rotations." if cutthroat else " by duplicate pairs.")
        + (f" The strategies used: {told}." if told else "")
    )
