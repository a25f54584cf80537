"""Invariants over many random hands (docs/rules.md §1 with the §2 options).

Every traced hand is re-derived by the independent referee in helpers.py:
every card once, every bid, discard, draw and play legal, each trick's winner,
the point cards in play and who captured them, made/set and the score.
The untraced count invariants run over 100,000+ hands from the result rows alone.
"""

import numpy as np
import pytest
from helpers import Referee

from cinch_sim import layout as L
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.rules import VARIANTS, Rules

RANDOM = dict(bid="random", trump="random", discard="random", play="random")
SIMPLE = dict(bid="simple", trump="simple", discard="simple", play="greedy")

CONFIGS = {
    "default": (Rules(), RANDOM),
    "robber_dealer": (Rules(robber="dealer"), RANDOM),
    "robber_none_short": (Rules(robber="none"), SIMPLE),  # four drawers: frequent shortage
    "in_order": (Rules(robber="none", shortage="in_order"), SIMPLE),
    "limit_discards": (
        Rules(robber="none", shortage="limit_discards", must_discard_nontrumps=True),
        SIMPLE,
    ),
    "strict": (Rules(follow_rule="strict"), RANDOM),
    "non_point_only": (Rules(excess_trump_discard="non_point_only"), RANDOM),
    "low_high_options": (
        Rules(low_rule="deuce_only", low_to="player", high_rule="highest_in_play"),
        RANDOM,
    ),
    "difference": (Rules(scoring="difference", bid_min=3, bid_max=9), RANDOM),
    "forced_min": (Rules(all_pass="dealer_forced_min", bid_min=5), SIMPLE),
    "trumps_only": (Rules(follow_rule="trumps_only"), RANDOM),
    # Finnish Pidro's options (docs/rules.md, the presets) on the standard deal
    "pidro_options": (
        Rules(
            follow_rule="trumps_only",
            all_pass="dealer_forced_any",
            must_discard_nontrumps=True,
            excess_trump_discard="non_point_only",
            robber="dealer",
            shortage="in_order",
            low_rule="deuce_only",
            low_to="player",
            bid_min=6,
            target=62,
        ),  # fmt: skip
        dict(bid="heuristic", trump="heuristic", discard="heuristic", play="heuristic"),
    ),
    # simple passes below 6: with bid_min 5 a stuck dealer bids 5, or his own 6..14
    "forced_any": (Rules(all_pass="dealer_forced_any", bid_min=5), SIMPLE),
    # random passes one time in three at bid_min 13: all three pass in 1/27 of hands
    "forced_any_random": (Rules(all_pass="dealer_forced_any", bid_min=13), RANDOM),
    "forced_any_heuristic": (
        Rules(all_pass="dealer_forced_any", bid_min=10),
        dict(bid="heuristic", trump="heuristic", discard="heuristic", play="heuristic"),
    ),
    "redeal": (Rules(all_pass="redeal_next"), SIMPLE),
    # every seat picks up a widow and keeps six of thirteen, as a robber does
    "widow": (VARIANTS["widow"], RANDOM),
    "widow_non_point_only": (
        VARIANTS["widow"].with_options({"excess_trump_discard": "non_point_only"}),
        dict(bid="heuristic", trump="heuristic", discard="heuristic", play="heuristic"),
    ),
    "bench_w2": (Rules(robber="dealer"), dict(SIMPLE, play="random")),
}


def referee_run(name, n, seed):
    rules, pols = CONFIGS[name]
    ps = PolicySet.from_specs(4, **pols)
    out, tr = run_chunk(rules, ps, seed, 0, n, dealer=seed % 4, trace=True)
    ref = Referee(rules)
    for i in range(n):
        try:
            ref.check(out[i], tr[i], seed % 4)
        except AssertionError as e:
            raise AssertionError(f"{name}, hand {i} (seed {seed}): {e}") from None
    return out


def test_referee_default_rules_5k_hands():  # 20k of every config: the slow set
    out = referee_run("default", 5_000, 11)
    assert (out[:, L.H_N_TRICKS] == 6).all()


@pytest.mark.parametrize("name", [k for k in CONFIGS if k != "default"])
def test_referee_rule_options(name):
    out = referee_run(name, 2_000, 7)
    if name == "robber_none_short":
        assert out[:, L.H_SHORTAGE].sum() > 0  # the shortage path was exercised
    if name == "redeal":
        assert out[:, L.H_THROWN_IN].sum() > 0
    if name in ("trumps_only", "pidro_options"):  # hands end early: a seat ran out
        assert (out[:, L.H_N_TRICKS] < 6).mean() > 0.2
    if name.startswith("forced_any"):  # the dealer was stuck, and bid (never thrown in)
        dealer = 7 % 4
        others_passed = (out[:, [L.H_BIDS + s for s in range(4) if s != dealer]] < 0).all(axis=1)
        assert others_passed.sum() > 20 and (out[others_passed, L.H_MAKER] == dealer).all()
        assert (out[others_passed, L.H_BID] >= CONFIGS[name][0].bid_min).all()
        assert out[:, L.H_THROWN_IN].sum() == 0


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CONFIGS))
def test_referee_rule_options_long(name):
    referee_run(name, 20_000, 1234)


# high low jack game right, the unused rank slots 0, then the left card
VALUES = np.zeros(L.N_POINT_SLOTS, dtype=np.int64)
VALUES[[L.SLOT_HIGH, L.SLOT_LOW, L.SLOT_RANK0, L.SLOT_RANK0 + 1]] = 1
VALUES[[L.SLOT_RANK0 + 2, L.SLOT_LEFT]] = 5


@pytest.mark.parametrize("name", ["default", "robber_none_short", "bench_w2"])
def test_counts_over_100k_hands(name):
    rules, pols = CONFIGS[name]
    n = 120_000
    ps = PolicySet.from_specs(4, **pols)
    out, _ = run_chunk(rules, ps, 99, 0, n, dealer=1)
    slots = np.arange(L.N_POINT_SLOTS)
    team = out[:, L.H_SLOT_TEAM + slots]
    holder = out[:, L.H_SLOT_HOLDER + slots]
    player = out[:, L.H_SLOT_PLAYER + slots]
    trick = out[:, L.H_SLOT_TRICK + slots]
    vals = VALUES[: L.N_POINT_SLOTS]
    # a point card is in play exactly when it has a holder, a player and a trick
    inplay = holder >= 0
    assert ((player >= 0) == inplay).all() and ((trick >= 0) == inplay).all()
    assert ((team >= 0) == inplay).all()
    # captured points equal the point cards in play, per side
    for t in range(2):
        want = ((team == t) * vals).sum(axis=1)
        assert (out[:, L.H_POINTS + t] == want).all()
    total = out[:, L.H_POINTS] + out[:, L.H_POINTS + 1]
    assert (total == (inplay * vals).sum(axis=1)).all()
    assert total.max() == 14 and total.min() >= 0
    # the A always falls to its holder's side (it cannot be captured)
    hi = inplay[:, L.SLOT_HIGH]
    assert (team[hi, L.SLOT_HIGH] == holder[hi, L.SLOT_HIGH] % 2).all()
    # the holder plays its own point card (nobody else holds it)
    assert (holder[inplay] == player[inplay]).all()
    assert (trick[inplay] < out[inplay.any(axis=1), L.H_N_TRICKS].max()).all()
    # made / set / score (§1.14)
    mt = out[:, L.H_MAKER] % 2
    rows = np.arange(n)
    mp = out[rows, L.H_POINTS + mt]
    op = out[rows, L.H_POINTS + 1 - mt]
    bid = out[:, L.H_BID]
    made = mp >= bid
    assert (out[:, L.H_MADE] == made).all()
    assert (out[rows, L.H_SCORE + mt] == np.where(made, mp, -bid)).all()
    assert (out[rows, L.H_SCORE + 1 - mt] == op).all()
    # tricks: 6, fewer cards only after a shortage
    nt = out[:, L.H_N_TRICKS]
    assert (nt[out[:, L.H_SHORTAGE] == 0] == 6).all()
    assert (nt <= 6).all()
    assert (out[:, L.H_ERROR] == 0).all()
