"""The advisor's deals drawn from pools of hands that make each earlier call (pools.py):
the deals they give, their agreement with rejection, and where they cannot be used."""

from __future__ import annotations

import numpy as np
import pytest

from cinch_sim import layout as L
from cinch_sim.advisor import AdvisorError, advice_dict, advise
from cinch_sim.advisor import estimate as E
from cinch_sim.advisor import pools as P
from cinch_sim.advisor.pools import build_pools, draw_deals, pooled_reason
from cinch_sim.advisor.query import make_query
from cinch_sim.cards import parse_cards, parse_hand
from cinch_sim.engine.run import Conditions, PolicySet, run_chunk
from cinch_sim.rules import make_rules

HAND = "AS KS 5S 5C 2S 9H 3D 7C JD"
RARE = "0:7,1:10,2:11"  # none of 50,000 whole deals fit it under the heuristic bidders


def _query(bids: str, seat: int = 3, **kw):
    return make_query(HAND, seat, 3, bids, **kw)


def test_drawn_deals_join_disjoint_pool_hands_each_deal_by_its_own_index():
    """Every deal holds the player's cards and one hand of each earlier seat's pool,
    no card twice; a deal drawn alone is the same deal as drawn among others."""
    q = _query(RARE, known=["2:4H"])
    pools = build_pools(q, PolicySet.from_specs(4), seed=3, size=300)
    assert (pools.sizes == 300).all() and pools.seats == [0, 1, 2]
    masks = draw_deals(pools, 3, np.arange(100, 400))
    mine = sum(1 << c for c in parse_hand(HAND))
    four_h = 1 << parse_cards("4H")[0]
    for row in masks:
        assert int(row[3]) == mine and int(row[2]) & four_h
        assert sum(bin(int(m)).count("1") for m in row[:4]) == 36  # nine each, none shared
        assert int(row[0] | row[1] | row[2] | row[3]).bit_count() == 36
        for k, seat in enumerate(pools.seats):
            assert row[seat] in pools.hands[k, : pools.sizes[k]]
    assert np.array_equal(draw_deals(pools, 3, np.array([250, 117])), masks[[150, 17]])
    assert not np.array_equal(draw_deals(pools, 4, np.arange(100, 400)), masks)


def test_every_pool_hand_makes_its_call_in_a_whole_deal():
    """Played out whole with the bidders' own policies (no call imposed), the drawn
    deals give exactly the calls asked for: the pools hold what they claim."""
    q = _query(RARE)
    rules, ps = q.rules, PolicySet.from_specs(4)
    pools = build_pools(q, ps, seed=8, size=200)
    index = np.arange(50, dtype=np.int64)
    rows, _ = run_chunk(rules, ps, 8, 0, 0, 3, Conditions(), indices=index,
                        fixed_per_hand=draw_deals(pools, 8, index))  # fmt: skip
    for seat, call in q.bids:
        assert (rows[:, L.H_BIDS + seat] == call).all()


def test_a_rare_auction_is_advised_from_pools():
    """Rejection found none of 50,000 deals for 7, 10, 11 before the dealer and
    refused the query; the pools give an answer, and say how they were drawn."""
    a = advise(HAND, seat=3, bids=RARE, precision=0.04, seed=2)
    assert a.pools is not None and a.pools.startswith("seat 0: ")
    assert a.hands >= 600 and a.tried == a.hands  # every drawn deal fits every call
    d = advice_dict(a)
    assert d["pools"] == a.pools and d["acceptance_rate"] is None
    assert "each deal joins hands drawn to make each call" in a.text()
    assert a.best_trump == "S"  # five spades with A, K and the Right Pedro


def test_a_call_no_hand_makes_is_refused_quickly_with_the_way_out():
    """The heuristic's eldest hand never passes: its pool stays empty, and the query
    stops after NONE_YET hands with the hint, not after millions."""
    with pytest.raises(AdvisorError, match="seat 0's pass came from 0 of 262,144 hands"):
        advise(HAND, seat=2, bids="0:pass,1:pass", precision=0.05)


def test_a_refused_call_says_what_the_bidder_calls_instead():
    """dom_pedro_classic is an open auction, where the heuristic opens at the least it
    would bid and raises one at a time: an opening 8 comes from no hand. The error
    says what its opening calls were (about 94% a 4, else pass: the pass share is
    what the kernel's unconditioned eldest passes) and names another bidder, not one
    that "passes more"; under the traditional model the same auction is advised."""
    from cinch_sim.rules import make_rules

    rules = make_rules("dom_pedro_classic")
    with pytest.raises(AdvisorError) as err:
        advise("KH QH 4C 6D 7D 8C", seat=1, bids="0:8", rules=rules, precision=0.05)
    text = str(err.value)
    assert "seat 0's bid 8 came from 0 of 262,144 hands" in text
    assert "(its calls there: bid 4 9" in text and "%, pass " in text
    assert "another bidder (bid model simple or traditional) may make them" in text
    assert "passes more" not in text
    a = advise("KH QH 4C 6D 7D 8C", seat=1, bids="0:8", rules=rules, precision=0.05,
               bid="traditional")  # fmt: skip
    assert a.hands > 0


AGREE = [(2, "0:8,1:9"), (3, "0:6,1:pass,2:7"), (3, "0:7,1:8,2:pass")]
MORE = [(1, "0:7"), (2, "0:7,1:8"), (3, "0:8,1:pass,2:pass"), (3, "0:6,1:7,2:8"),
        (2, "0:6,1:pass"), (1, "0:9")]  # fmt: skip


def _agree(monkeypatch, seat: int, bids: str, precision: float, seed: int) -> None:
    """Rejection's and the pools' (forced) estimates for every bid in the best suit:
    P(win), P(win and make) and ev against pass within 4 standard errors of their
    difference."""
    kw = dict(seat=seat, dealer=3, bids=bids, precision=precision, seed=seed)
    monkeypatch.setattr(P, "POOLS_BELOW", 0.0)
    whole = advise(HAND, **kw)
    monkeypatch.setattr(P, "POOLS_BELOW", 1.1)
    pooled = advise(HAND, **kw)
    assert whole.pools is None and pooled.pools is not None
    s = whole.best_trump_index
    for f in ("p_win", "p_win_make"):
        p, _, _ = getattr(whole, f)()
        r, _, _ = getattr(pooled, f)()
        se = np.sqrt(p[s] * (1 - p[s]) / whole.hands + r[s] * (1 - r[s]) / pooled.hands)
        assert (np.abs(p[s] - r[s]) <= 4 * se + 1e-9).all(), (f, p[s], r[s])
    a, b = whole.score_change(), pooled.score_change()
    half = [(x["ev_hi"][s, 1:] - x["ev_lo"][s, 1:]) / 2 / 1.96 for x in (a, b)]
    gap = np.abs(a["ev"][s, 1:] - b["ev"][s, 1:])
    ok = np.isnan(gap) | (gap <= 4 * np.hypot(*half) + 1e-9)
    assert ok.all(), (a["ev"][s, 1:], b["ev"][s, 1:])


@pytest.mark.parametrize("seat, bids", AGREE)
def test_pools_and_rejection_give_the_same_estimates(monkeypatch, seat, bids):
    """Where whole deals fit often enough to be kept by rejection, deals drawn from
    the pools give the same estimates."""
    _agree(monkeypatch, seat, bids, 0.025, 17)


@pytest.mark.slow
@pytest.mark.parametrize("seat, bids", AGREE + MORE)
def test_pools_and_rejection_agree_closely_on_nine_auctions(monkeypatch, seat, bids):
    """The same at about 9,600 deals each (precision 0.01), on fresh seeds."""
    _agree(monkeypatch, seat, bids, 0.01, 4242)


def test_pooled_counts_do_not_depend_on_the_chunks(monkeypatch):
    """Each deal's pool picks come from its own index's stream: chunks of 100 deals
    give the very counts of the usual chunks."""
    kw = dict(seat=3, dealer=3, bids=RARE, precision=0.05, seed=12)
    usual = advise(HAND, **kw)
    monkeypatch.setattr(E, "CHUNK", 100)
    small = advise(HAND, **kw)
    for name in ("n", "win", "make", "own", "opp", "diff", "points", "pedro"):
        assert np.array_equal(getattr(usual, name), getattr(small, name)), name
    assert usual.pools == small.pools


def test_the_pools_are_used_only_where_they_can_draw():
    """Two decks, an auction in rounds where a seat calls twice, or a bidder that
    draws random numbers: rejection stays."""
    ps = PolicySet.from_specs(4)
    assert pooled_reason(_query("0:7,1:8"), ps) is None
    two = make_query("AS AS KS 5S 5S 5C 2S 9H 3D 7C JD JD 4H 4H 8C 8C TS QS", 2, 3, "0:7,1:8",
                     rules=make_rules("two_deck"))  # fmt: skip
    assert pooled_reason(two, ps) == "two decks"
    rounds = make_query(HAND, 1, 3, "0:7,1:8,2:9,3:pass,0:10", rules=make_rules("auction"))
    assert pooled_reason(rounds, ps) == "an auction in rounds"
    randoms = PolicySet.from_specs(4, bid="random")
    assert pooled_reason(_query("0:7,1:8"), randoms) == "seat 0's bidder draws random numbers"


def test_deals_stop_at_half_the_smallest_pool_and_say_so(monkeypatch):
    """A pool that cannot fill (here: 131,072 hands tried at most) would lend each
    hand to many deals, and deals sharing hands make the intervals claim too much
    (2 to 4 times too narrow, measured): the query stops at half the pool."""
    monkeypatch.setattr(P, "MAX_PROBES", 2 * P.PROBE_CHUNK)
    a = advise(HAND, seat=3, bids=RARE, precision=0.02, seed=6)
    smallest = min(c["hands"] for c in a.pool_counts)
    assert smallest < 2 * 2401 and a.pool_cap == smallest // 2 == a.hands
    assert "Stopped at" in a.text() and advice_dict(a)["pool_deal_cap"] == a.pool_cap


def test_a_seat_whose_whole_hand_is_known_keeps_it():
    """Seat 0's nine cards given: its pool is that hand, if it makes the call (the
    heuristic opens this hand with a bid); if not, the message says so at once."""
    dealt = "QH JH TH 8H 7H 6H 4H 3C 4C"  # seven hearts: the heuristic opens 10
    a = advise(HAND, seat=2, bids="0:10,1:11", known=[f"0:{dealt}"], precision=0.05, seed=3)
    assert a.pools.startswith("seat 0: its hand, given") and a.pool_counts[0]["known"]
    with pytest.raises(AdvisorError, match="seat 0's known hand does not make its pass"):
        advise(HAND, seat=2, bids="0:pass,1:pass", known=[f"0:{dealt}"], precision=0.05)


def test_the_hint_names_no_bidder_already_in_use():
    """A call the simple bidder never makes (an opening 1): the message does not
    suggest the bidder in use; under the heuristic it does."""
    with pytest.raises(AdvisorError) as info:
        advise(HAND, seat=2, bids="0:1,1:pass", precision=0.05, bid="simple")
    assert str(info.value).endswith("the other seats' bidders seldom make these calls")
    with pytest.raises(AdvisorError, match=r"\(bid model simple or traditional\)"):
        advise(HAND, seat=2, bids="0:1,1:pass", precision=0.05)


def test_a_refusal_says_why_pools_could_not_serve():
    """Where the pools cannot draw (a seat bidding at random), a rare auction is still
    refused by rejection, and the message says why no pools were drawn."""
    with pytest.raises(AdvisorError) as info:
        advise(HAND, seat=3, bids=RARE, precision=0.05, bid={0: "random"})
    assert str(info.value).endswith(
        "(hands drawn call by call cannot serve here: seat 0's bidder draws random numbers)"
    )
