"""left_bower_points reaches the kernel (it was accepted and then ignored), and is
refused where the game has no bowers (docs/rules.md §3.3, §3.6)."""

import numpy as np
import pytest

from cinch_sim import layout as L
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.rules import VARIANTS, Rules, RulesError

# The bowers game of §3.3 as a hand-made Rules: the jack of trumps and the same-colour
# jack are the two highest trumps; the same-colour 5 is a plain card.
BOWERS = dict(
    left_rank="J",
    left_name="left_bower",
    trump_order="JLAKQT98765432",
    point_cards=(("jack", "J", 1), ("game", "T", 1), ("right_pedro", "5", 5)),
)


def test_the_left_bower_scores_its_option_value():
    # High 1 + Low 1 + Jack 1 + Game 1 + Right Pedro 5 + Left Bower 3 = 12 points
    rules = Rules(**BOWERS, left_bower_points=3, bid_max=12)
    assert rules.total_points == 12
    assert rules.to_array()[L.R_LEFT_POINTS] == 3
    ps = PolicySet.from_specs(4, "random", "random", "random", "random")
    rows, _ = run_chunk(rules, ps, 3, 0, 4_000)
    played = rows[rows[:, L.H_THROWN_IN] == 0]
    values = {"high": 1, "low": 1, "jack": 1, "game": 1, "right_pedro": 5, "left_bower": 3}
    expected = np.zeros(len(played), np.int64)
    for name, slot in rules.point_slots.items():
        expected += values[name] * (played[:, L.H_SLOT_TEAM + slot] >= 0)
    taken = played[:, L.H_POINTS : L.H_POINTS + 2].sum(axis=1)
    assert np.array_equal(taken, expected)
    # the bower was in play (and worth 3) in some hands
    assert (played[:, L.H_SLOT_TEAM + rules.point_slots["left_bower"]] >= 0).mean() > 0.5


def test_refused_without_bowers():
    with pytest.raises(RulesError, match="left_bower_points=3 has no meaning without bowers"):
        Rules(left_bower_points=3)
    with pytest.raises(RulesError, match="left_bower_points=5 has no meaning without bowers"):
        Rules().with_options({"left_bower_points": 5})  # given at all: even the default
    assert Rules(**BOWERS, left_bower_points=5).left_card_points == 5


def test_the_top_bid_follows_the_left_bower_s_points_both_ways():
    # all_hands: 1 + 1 + 1 + 1 + 5 (Right Bower) + 5 (Left) = 14 points, bid_max 14;
    # the Left worth 0 makes 9, worth 20 makes 29: the top bid is all the points
    base = VARIANTS["all_hands"]
    for left, points in ((0, 9), (2, 11), (5, 14), (20, 29)):
        r = base.with_options({"left_bower_points": left})
        assert r.total_points == points and r.bid_max == points
    # a top bid set below the points stays, unless the points fall under it
    low = base.with_options({"bid_max": 12})
    assert low.with_options({"left_bower_points": 20}).bid_max == 12
    assert low.with_options({"left_bower_points": 0}).bid_max == 9
