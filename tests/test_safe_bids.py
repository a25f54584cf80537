"""The safe-bid table by hand class: Pedros, trumps, the ace and king of trumps; a bid
is safe only when its made rate's whole interval clears the mark; example hands find
their class."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd

from cinch_sim.analysis.hand_worth import HandValue
from cinch_sim.cards import parse_hand
from cinch_sim.report.sections import _example_in_class
from cinch_sim.rules import Rules

AK, A_ONLY, NEITHER = 0b11000, 0b10000, 0b00101  # honour bits: A K Q J T


def _value() -> HandValue:
    v = HandValue.empty(Rules())
    # both Pedros, 5 trumps, A and K: 90 hands took 14 points, 10 took 3
    v.counts[0, 3, 0, 5, AK, 14] = 90
    v.counts[1, 3, 0, 5, AK, 3] = 10
    # both Pedros, 5 trumps, the ace only (and the Q J T mixed in): 15 took 10, 5 took 0
    v.counts[2, 3, 0, 5, A_ONLY, 10] = 10
    v.counts[2, 3, 0, 5, A_ONLY | 0b111, 10] = 5
    v.counts[3, 3, 0, 5, A_ONLY, 0] = 5
    # no Pedro, 2 trumps, neither: 400 hands took 7 or 8 points
    v.counts[0, 0, 0, 2, NEITHER, 7] = 300
    v.counts[0, 0, 0, 2, 0, 8] = 100  # no honour at all: the same class
    return v


def _row(t: pd.DataFrame, pedros: str, trumps: int, top: str) -> pd.Series:
    hit = t[(t["pedros"] == pedros) & (t["trumps"] == trumps) & (t["top_trumps"] == top)]
    assert len(hit) == 1
    return hit.iloc[0]


def test_classes_split_by_the_ace_and_king():
    t = _value().safe_bids()
    assert len(t) == 3 and t["hands"].sum() == 520
    assert set(t["top_trumps"]) == {"A K", "A", "neither"}
    ak = _row(t, "both Pedros", 5, "A K")
    # 90 of 100 take 14: Wilson low end of 90/100 is 0.826 >= 0.7, so safe at 14
    assert ak["hands"] == 100 and ak["bid_70"] == 14 and ak["bid_50"] == 14
    assert ak["make_70"] == 0.9 and round(ak["make_70_lo"], 3) == 0.826
    assert ak["mean_points"] == (90 * 14 + 10 * 3) / 100 and not ak["low_n"]


def test_safe_is_chosen_by_the_interval_not_the_estimate():
    a = _row(_value().safe_bids(), "both Pedros", 5, "A")
    # 15 of 20 make 10 (75%), but Wilson's low end of 15/20 is 0.531: not safe at 70%,
    # safe at even money; 20 hands are a small class
    assert a["hands"] == 20 and a["low_n"]
    assert a["bid_70"] is pd.NA and np.isnan(a["make_70"])
    assert a["bid_50"] == 10 and round(a["make_50_lo"], 3) == 0.531


def test_every_bid_made_by_the_whole_class():
    n = _row(_value().safe_bids(), "no Pedro", 2, "neither")
    # 400 hands all take 7 or more, 100 take 8: safe at 7, not at 8 (25%)
    assert n["bid_70"] == 7 and n["make_70"] == 1.0 and n["bid_50"] == 7


def test_example_hand_is_placed_in_its_class():
    v = _value()
    hand = "AS KS 5S 5C 2S 9H 3D 7C JD"  # spades: A K 5 5(left) 2, five trumps
    adv = SimpleNamespace(
        best_trump_index=1, query=SimpleNamespace(hand=parse_hand(hand)), safe_bid=12,
        risk=0.7,
    )  # fmt: skip
    assert v.hand_class(3, 5, True, True) == {
        "pedros": "both Pedros",
        "trumps": 5,
        "top_trumps": "A K",
    }
    text = _example_in_class(v, v.safe_bids(), hand, "Both Pedros", adv)
    assert "'both Pedros, 5 trumps, the ace and king of trumps': 100 hands" in text
    # Wilson (90 of 100): [0.82563, 0.94477], shown rounded outwards
    assert "safe up to 14 (made 90.0% [82.5, 94.5])" in text
    assert "finds it safe at 12" in text


def test_only_the_bids_the_rules_allow_are_safe():
    # 400 hands took 7 or 8 points: every one takes 7, 100 of 400 take 8, so the
    # standard game (bids 1-14) calls 7 safe
    t = _value().safe_bids()
    std = _row(t, "no Pedro", 2, "neither")
    assert std["bid_70"] == 7
    v = HandValue.empty(Rules(bid_min=8))
    v.counts[0, 0, 0, 2, NEITHER, 7] = 300
    v.counts[0, 0, 0, 2, 0, 8] = 100
    # with bids from 8 up, 7 is no bid; 8 is made by 100 of 400 (25%): none is safe
    row = _row(v.safe_bids(), "no Pedro", 2, "neither")
    assert row["bid_70"] is pd.NA and row["bid_50"] is pd.NA
    # and a bid_max below the points caps the safe bid
    v = HandValue.empty(Rules(bid_max=6))
    v.counts[0, 0, 0, 2, NEITHER, 7] = 300
    assert _row(v.safe_bids(), "no Pedro", 2, "neither")["bid_70"] == 6


def test_each_row_says_whether_the_maker_was_dealt_the_sancho():
    """Bit 2 of a row's Pedros dealt is the split card dealt to the maker: under sancho
    the 9 of trumps, read here against each traced deal (about a third of the hands
    hold it, so both values are tested); never in the standard game, which has none."""
    from cinch_sim import layout as L
    from cinch_sim.cards import SUITS
    from cinch_sim.engine.run import PolicySet, run_chunk
    from cinch_sim.records.writer import dealt_cards
    from cinch_sim.rules import make_rules

    sancho = make_rules("sancho")
    assert sancho.split_card == ("sancho", "9") and Rules().split_card is None
    policies = PolicySet.from_specs(4)
    rows, trace = run_chunk(sancho, policies, seed=3, offset=0, n=400, trace=True)
    seen = set()
    for row, tr in zip(rows, trace, strict=True):
        if row[L.H_THROWN_IN]:
            continue
        dealt = dealt_cards(sancho, tr, int(row[L.H_DEALER]))[int(row[L.H_MAKER])]
        held = f"9{SUITS[int(row[L.H_TRUMP])]}" in dealt
        assert (int(row[L.H_MAKER_PEDROS_DEALT]) >> 2) == held
        seen.add(held)
    assert seen == {True, False}
    rows, _ = run_chunk(Rules(), policies, seed=3, offset=0, n=400)
    assert not (rows[:, L.H_MAKER_PEDROS_DEALT] >> 2).any()


def test_the_sancho_games_group_hands_by_the_sancho_too():
    """Under sancho the safe-bid groups split by the Sancho dealt: a ``sancho`` column,
    groups that partition the hands, the Sancho worth points to its holder's side; an
    example hand finds its group by it. Counts stored
    before the split (five axes) read as a game without it."""
    from cinch_sim.analysis.hand_worth import hand_values
    from cinch_sim.engine.run import PolicySet
    from cinch_sim.rules import make_rules

    sancho = make_rules("sancho")
    v = hand_values(8_000, 5, sancho, PolicySet.from_specs(4), dealer=3)
    t = v.safe_bids()
    assert v.keys == ["pedros", "sancho", "trumps", "top_trumps"]
    assert t["hands"].sum() == v.hands == 8_000
    assert set(t["sancho"]) == {True, False}
    by = t.groupby("sancho")
    mean = by.apply(lambda g: (g["mean_points"] * g["hands"]).sum() / g["hands"].sum())
    # worth points to its holder's side (+1.6 on seed 5: the side also gets it when the
    # partner holds it or the maker robs it from the stock; the sd of a mean about 0.1)
    assert mean[True] > mean[False] + 0.5

    hand = "9S 8C 6D 4D 3S 7H 6H 2C 8S"  # spades: 9 (the Sancho), 8, 3; no Pedro
    adv = SimpleNamespace(
        best_trump_index=1, query=SimpleNamespace(hand=parse_hand(hand)), safe_bid=None,
        risk=0.7,
    )  # fmt: skip
    text = _example_in_class(v, t, hand, "Sancho", adv)
    assert "is in the group 'no Pedro, Sancho, 3 trumps, neither the ace nor" in text
    row = t[(t["pedros"] == "no Pedro") & t["sancho"] & (t["trumps"] == 3)
            & (t["top_trumps"] == "neither")].iloc[0]  # fmt: skip
    assert f"{int(row['hands']):,} hands" in text

    old = HandValue(Rules(), _value().counts[:, :, 0])  # as stored before the split axis
    assert old.counts.shape == _value().counts.shape
    pd.testing.assert_frame_equal(old.safe_bids(), _value().safe_bids())
