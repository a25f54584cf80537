"""simulate and stats count with one aggregator (HandCounts): the same hands, the same numbers."""

import numpy as np

from cinch_sim import layout as L
from cinch_sim.analysis.counts import HandCounts
from cinch_sim.analysis.tables import make_rate
from cinch_sim.api import analyse, simulate
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.rules import Rules


def test_simulate_by_bid_is_the_make_rate_table_of_analyse():
    sim = simulate(hands=20_000, seed=4)
    ana = analyse(hands=20_000, seed=4, by="bid")
    t = make_rate(ana.counts, "bid")
    assert sim.by_bid()["bid"].tolist() == t["bid"].tolist()
    assert np.array_equal(sim.by_bid()["made"], t["made"])
    assert np.allclose(sim.by_bid()["mean_score_change"], t["mean_score_change"])


def test_pedro_sides_add_up_and_follow_the_capturing_team():
    rules = Rules(players=3, partnerships=False, robber="none")
    rows, _ = run_chunk(rules, PolicySet.from_specs(3, "random", "random", "random", "random"), 9,
                        0, 5_000, dealer=2)  # fmt: skip
    c = HandCounts(rules)
    c.add(rows)
    assert (c.pedro_side.sum(axis=1) == c.played).all()
    # the right Pedro taken by the maker's own side, counted straight from the rows
    p = rows[rows[:, L.H_THROWN_IN] == 0]
    slot = rules.point_slots["right_pedro"]
    mine = p[:, L.H_SLOT_TEAM + slot] == p[:, L.H_MAKER]  # cut-throat: team = seat
    assert c.pedro_side[0, 0] == int(mine.sum())


def test_merged_halves_equal_the_whole():
    rules = Rules()
    rows, _ = run_chunk(rules, PolicySet.from_specs(4), 2, 0, 6_000)
    whole, a, b = HandCounts(rules), HandCounts(rules), HandCounts(rules)
    whole.add(rows)
    a.add(rows[:2_500])
    b.add(rows[2_500:])
    a.merge(b)
    for name in ("n", "made", "points_hist", "pedro", "pedro_side"):
        assert np.array_equal(getattr(a, name), getattr(whole, name)), name
    assert a.hands == whole.hands and a.thrown_in == whole.thrown_in
