"""Auction-blind policies (``registry.Builtin.auction_blind``): a discard or play policy
that reads neither the contract nor the bids plays a hand alike whatever the maker
bid. The advisor relies on it to play a maker's hand once, at the top bid, for every
bid that made him the maker (advisor/estimate.py, ``_Playouts``), so it is checked
here bit for bit: each deal where seat 0 wins the auction at a bid of 7 is played
exactly as it is when seat 0 bids 14."""

from __future__ import annotations

import numpy as np
import pytest

from cinch_sim import layout as L
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.policies.loading import load_policy
from cinch_sim.policies.registry import BUILTINS
from cinch_sim.rules import Rules

# what the contract changes in a row; every other field is the hand as played
AUCTION = [L.H_BID, L.H_MADE, *range(L.H_BIDS, L.H_BIDS + L.MAX_PLAYERS)]
AUCTION += list(range(L.H_SCORE, L.H_SCORE + L.MAX_TEAMS))
BLIND = sorted(
    {(b.kind, b.name) for b in BUILTINS if b.kind in ("discard", "play") and b.auction_blind}
)


def _rows(rules: Rules, play: str, discard: str, bid: int, n: int) -> np.ndarray:
    ps = PolicySet.from_specs(4, play=play, discard=discard)
    ps.bid[0] = load_policy("bid", "fixed", (float(bid),))
    ps.trump[0] = load_policy("trump", "fixed", (1.0,))
    rows, _ = run_chunk(rules, ps, 11, 0, n, 3)
    return rows


@pytest.mark.parametrize("kind, name", BLIND)
def test_a_maker_s_hand_plays_alike_at_every_bid(kind, name):
    rules = Rules()
    play = name if kind == "play" else "heuristic"
    discard = name if kind == "discard" else "heuristic"
    n = 60 if name == "dd" else 400
    low = _rows(rules, play, discard, 7, n)
    top = _rows(rules, play, discard, rules.bid_max, n)
    maker = low[:, L.H_MAKER] == 0  # the later seats let the 7 stand
    assert maker.sum() >= 5 and (top[:, L.H_MAKER] == 0).all()
    keep = [i for i in range(low.shape[1]) if i not in AUCTION]
    assert np.array_equal(low[maker][:, keep], top[maker][:, keep])
    assert (low[maker, L.H_BID] == 7).all()


def test_pimc_is_not_auction_blind():
    # its objective is the score margin, which the contract decides
    (pimc,) = [b for b in BUILTINS if b.kind == "play" and b.name == "pimc"]
    assert not pimc.auction_blind
