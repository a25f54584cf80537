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
    v.counts[0, 3, 5, AK, 14] = 90
    v.counts[1, 3, 5, AK, 3] = 10
    # both Pedros, 5 trumps, the ace only (and the Q J T mixed in): 15 took 10, 5 took 0
    v.counts[2, 3, 5, A_ONLY, 10] = 10
    v.counts[2, 3, 5, A_ONLY | 0b111, 10] = 5
    v.counts[3, 3, 5, A_ONLY, 0] = 5
    # no Pedro, 2 trumps, neither: 400 hands took 7 or 8 points
    v.counts[0, 0, 2, NEITHER, 7] = 300
    v.counts[0, 0, 2, 0, 8] = 100  # no honour at all: the same class
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
    v.counts[0, 0, 2, NEITHER, 7] = 300
    v.counts[0, 0, 2, 0, 8] = 100
    # with bids from 8 up, 7 is no bid; 8 is made by 100 of 400 (25%): none is safe
    row = _row(v.safe_bids(), "no Pedro", 2, "neither")
    assert row["bid_70"] is pd.NA and row["bid_50"] is pd.NA
    # and a bid_max below the points caps the safe bid
    v = HandValue.empty(Rules(bid_max=6))
    v.counts[0, 0, 2, NEITHER, 7] = 300
    assert _row(v.safe_bids(), "no Pedro", 2, "neither")["bid_70"] == 6
