"""The hand advisor (issue 5): estimates, advice, precision, constraints, independent check."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from cinch_sim import layout as L
from cinch_sim.advisor import AdvisorError, advice_dict, advise, evaluate_hand
from cinch_sim.advisor.query import make_query
from cinch_sim.cards import SUITS, CardError, parse_hand
from cinch_sim.engine.run import Conditions, PolicySet
from cinch_sim.rules import make_rules

ISSUE_HAND = "AS KS 5S 5C 2S 9H 3D 7C JD"
S = {c: i for i, c in enumerate(SUITS)}


def test_strong_hand_makes_a_low_bid_nearly_always():
    # both Pedros, the A, K, J and 10 of spades
    a = advise("5S 5C AS KS JS TS 2H 3D 4C", seat=0, dealer=3, precision=0.02)
    p, lo, hi = a.p_make()
    bids = list(a.bids)
    assert p[S["S"], bids.index(1)] == 1.0  # the A of trumps is a sure point
    assert lo[S["S"], bids.index(5)] > 0.97
    assert a.best_trump == "S" and a.best_trump_index == S["S"]
    assert a.recommended_bid is not None and a.recommended_bid >= 10


def test_no_trump_in_a_suit_rarely_makes_a_high_bid_there():
    # no heart and no 5 of diamonds: hearts as trump should almost never take 13
    a = advise("AS KS QS JS TS 9C 8C 7C 6S", seat=0, dealer=3, precision=0.02)
    p, lo, hi = a.p_make()
    i13 = list(a.bids).index(13)
    assert hi[S["H"], i13] < 0.12
    assert a.best_trump == "S" and a.best_trump_index == S["S"]
    # common random numbers: every suit saw the same number of deals
    assert a.own_hist().sum(axis=(1, 2)).tolist() == [a.hands] * 4


def test_precision_stopping_stops():
    a = advise(ISSUE_HAND, seat=2, dealer=3, precision=0.04, seed=3)
    assert a.precision_reached() <= 0.04
    assert a.hands < 1200  # about 600 deals suffice at p = 1/2
    b = advise(ISSUE_HAND, seat=2, dealer=3, precision=0.001, max_hands=700, seed=3)
    assert b.hands == 700
    assert b.precision_reached() > 0.001
    d = advice_dict(b)
    assert d["hands"] == 700 and d["precision"] == pytest.approx(b.precision_reached())


def test_tighter_precision_uses_more_hands():
    a = advise(ISSUE_HAND, seat=2, dealer=3, precision=0.03)
    b = advise(ISSUE_HAND, seat=2, dealer=3, precision=0.015)
    assert b.hands > 3 * a.hands
    assert b.precision_reached() <= 0.015


def _z(p1, n1, p2, n2):
    p = (p1 * n1 + p2 * n2) / (n1 + n2)
    return (p1 - p2) / math.sqrt(max(p * (1 - p), 1e-12) * (1 / n1 + 1 / n2))


def test_bids_before_change_the_answer_in_the_expected_direction():
    # The hand holds both black 5s; an opponent (seat 1) bidding 12 most likely holds
    # the red Pedros, so red trumps make far less often; a partner's 12 (seat 0) helps.
    free = advise(ISSUE_HAND, seat=2, dealer=3, precision=0.03)
    opp = advise(ISSUE_HAND, seat=2, dealer=3, bids="0:pass,1:12", precision=0.03)
    partner = advise(ISSUE_HAND, seat=2, dealer=3, bids="0:12", precision=0.03)
    assert 0 < opp.hands < opp.tried
    assert advice_dict(opp)["acceptance_rate"] == pytest.approx(opp.hands / opp.tried)
    pf, _, _ = free.p_make()
    po, _, _ = opp.p_make()
    pp, _, _ = partner.p_make()
    i5 = list(free.bids).index(5)
    for suit in "DH":
        s = S[suit]
        assert _z(pf[s, i5], free.hands, po[s, i5], opp.hands) > 5
        assert _z(pp[s, i5], partner.hands, pf[s, i5], free.hands) > 5
        assert opp.mean_points()[s] < free.mean_points()[s] - 1
    # legal bids now start above 12
    assert opp.query.legal_bids == [13, 14]


def test_impossible_bids_raise_a_clear_error():
    # holding all four 5s, nobody else can reach the heuristic's 14
    with pytest.raises(AdvisorError, match="impossible or too rare"):
        advise("5S 5C 5H 5D 2S 3S 4S 6S 7S", seat=1, dealer=3, bids="0:14")


def test_known_cards_are_respected_and_move_the_estimate():
    # the opponent at seat 1 is known to hold both red 5s: red trumps lose them
    a = advise(ISSUE_HAND, seat=2, dealer=3, known=["1:5H,5D"], precision=0.03)
    pp, _, _ = a.pedro_rates()
    free = advise(ISSUE_HAND, seat=2, dealer=3, precision=0.03)
    # both red Pedros sit with an opponent: hearts lose points (the size depends on
    # the play policy: about 0.9 points with the default, some 6 standard errors)
    assert a.mean_points()[S["H"]] < free.mean_points()[S["H"]] - 0.5
    assert pp[S["H"]].max() < 0.5


def test_evaluate_hand_frame():
    df = evaluate_hand(ISSUE_HAND, 2, 3, precision=0.05)
    assert len(df) == 4 * 14
    assert set(df.trump) == set("CSDH")
    assert (df.p_make_lo <= df.p_make).all() and (df.p_make <= df.p_make_hi).all()
    adv = df.attrs["advice"]
    assert adv["best_trump"] in "CSDH"
    assert "by_trump" in df.attrs
    # P(make b) never rises with b (one playout serves every bid)
    for _, g in df.groupby("trump"):
        assert (np.diff(g.sort_values("bid").p_make.to_numpy()) <= 0).all()


def test_expected_score_change_matches_its_definition():
    a = advise(ISSUE_HAND, seat=2, dealer=3, precision=0.05)
    sc = a.score_change()
    h = a.own_hist()[:, 0, :] / a.hands
    pts = np.arange(h.shape[1])
    for s in range(4):
        for i, b in enumerate(a.bids):
            want = (h[s] * np.where(pts >= b, pts, -b)).sum()
            assert sc["ev"][s, i] == pytest.approx(want)


def test_per_contract_mode_agrees_with_shared_playouts():
    # built-in policies ignore the contract: playing every contract gives the same counts
    a = advise(ISSUE_HAND, seat=2, dealer=3, precision=0.05, max_hands=400)
    b = advise(ISSUE_HAND, seat=2, dealer=3, precision=0.05, max_hands=400, contract_aware=True)
    assert b.contract_aware and not a.contract_aware
    assert a.hands == b.hands
    np.testing.assert_array_equal(a.make_counts(), b.make_counts())


@pytest.mark.parametrize(
    "hand, message",
    [
        ("AS KS 5S 5C 2S 9H 3D 7C", "needs 9 cards, got 8"),
        ("AS KS 5S 5C 2S 9H 3D 7C JD QD", "needs 9 cards, got 10"),
        ("AS KS 5S 5C 2S 9H 3D 7C AS", "duplicate card AS"),
        ("AS KS 5S 5C 2S 9H 3D 7C XX", "unknown card 'XX'"),
    ],
)
def test_bad_hands(hand, message):
    with pytest.raises(CardError, match=message):
        make_query(hand, 2, 3)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"seat": 4}, "seat 4 is out of range 0..3"),
        ({"dealer": -1}, "dealer -1 is out of range"),
        ({"bids": "0:9,1:8"}, "does not beat the earlier bid 9"),
        ({"bids": "0:15"}, "bid 15 is impossible"),
        ({"bids": "1:9"}, "seat 0's bid is missing"),
        ({"bids": "3:9"}, "seat 3 bids after you"),
        ({"bids": "2:9"}, "your own seat"),
        ({"bids": "0:nine"}, "is not a number or 'pass'"),
        ({"bids": "0 9"}, "must be SEAT:BID"),
        ({"known": ["1:AS"]}, "AS is already in your hand"),
        ({"known": ["2:QH"]}, "your own seat"),
        ({"known": ["1:QH", "3:QH"]}, "QH is already in seat 1"),
        ({"known": ["1:QX"]}, "unknown card"),
        ({"known": ["9:QH"]}, "seat 9 is out of range"),
    ],
)
def test_bad_queries(kwargs, message):
    args = {"hand": ISSUE_HAND, "seat": 2, "dealer": 3} | kwargs
    with pytest.raises(AdvisorError, match=message):
        make_query(**args)


def test_hand_notations_agree():
    forms = [
        "AS KS 5S 5C 2S 9H 3D 7C JD",
        "as ks 5s 5c 2s 9h 3d 7c jd",
        "A♠ K♠ 5♠ 5♣ 2♠ 9♥ 3♦ 7♣ J♦",
        "AS,KS,5S,5C,2S,9H,3D,7C,JD",
    ]
    assert len({tuple(sorted(parse_hand(f))) for f in forms}) == 1
    assert parse_hand("10♠", size=None) == parse_hand("ts", size=None) == parse_hand("10s", None)


# ---------------------------------------------------- independent plain simulation
def _plain_points(hand: list[int], seat: int, dealer: int, deals: int, seed: int):
    """Deal the other 43 cards with Python's shuffle, build the deal order by hand and
    play each deal through the kernel at each trump: [suit, deal] side points and
    [suit, pedro, deal] captures."""
    from cinch_sim.engine.kernel import simulate_hands

    rules = make_rules()
    pol = PolicySet.from_specs(4)
    table = pol.table()
    ids, params = pol.builtin_ids(), pol.params()
    ra = rules.to_array()
    rng = random.Random(seed)
    rest = [c for c in range(52) if c not in hand]
    team = seat % 2
    pts = np.zeros((4, deals), np.int64)
    ped = np.zeros((4, 2, deals), np.int64)
    out = np.zeros((1, L.H_LEN), np.int32)
    trace = np.zeros((0, L.T_LEN), np.int64)
    for i in range(deals):
        rng.shuffle(rest)
        deck = [-1] * 52
        mine = iter(hand)
        others = iter(rest)
        for r in range(3):
            for j in range(4):
                s = (dealer + 1 + j) % 4
                for k in range(3):
                    deck[r * 12 + j * 3 + k] = next(mine) if s == seat else next(others)
        deck[36:] = list(others)
        for suit in range(4):
            cond = Conditions(deck=deck, force_maker=seat, force_trump=suit)
            simulate_hands(
                ra,
                cond.to_setup(dealer, 0),
                np.uint64(seed),
                np.int64(i),
                np.int64(1),
                table,
                ids,
                params,
                out,
                trace,
            )
            pts[suit, i] = out[0, L.H_POINTS + team]
            for j, slot in enumerate((L.SLOT_RANK0 + 2, L.SLOT_LEFT)):
                ped[suit, j, i] = out[0, L.H_SLOT_TEAM + slot] == team
    return pts, ped


def test_estimates_agree_with_an_independent_plain_simulation():
    """One test over all 56 P(make) and 8 P(Pedro saved) estimates: Fisher's exact test
    for each, Bonferroni over the 64, so the test fails by chance less than 1 in 1000."""
    from scipy.stats import fisher_exact

    hand = parse_hand(ISSUE_HAND)
    a = advise(hand, seat=2, dealer=3, precision=0.012, seed=11)
    n1 = a.hands
    pts, ped = _plain_points(hand, 2, 3, deals=800, seed=5)
    n2 = pts.shape[1]
    k1 = a.make_counts()
    pairs = []
    for s in range(4):
        for i, b in enumerate(a.bids):
            pairs.append((int(k1[s, i]), int((pts[s] >= b).sum())))
        for j in range(2):
            pairs.append((int(a.pedro[s, 0, j]), int(ped[s, j].sum())))
    alpha = 0.001 / len(pairs)
    worst = 1.0
    for x1, x2 in pairs:
        if x1 in (0, n1) and x2 in (0, n2) and (x1 == 0) == (x2 == 0):
            continue  # both certain the same way
        _, pv = fisher_exact([[x1, n1 - x1], [x2, n2 - x2]])
        worst = min(worst, pv)
    assert worst > alpha, f"an estimate disagrees with the plain simulation (p = {worst:.2g})"
    # and a sanity check that the comparison has power: the means agree closely
    np.testing.assert_allclose(a.mean_points(), pts.mean(axis=1), atol=0.6)
