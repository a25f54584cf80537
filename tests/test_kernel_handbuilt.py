"""Hand-built deals with outcomes worked out by hand (docs/rules.md §1.1-1.14 and the §2
options that act within a hand). Seats 0 and 2 are team 0, seats 1 and 3 team 1.
Unless said otherwise the dealer is seat 3, so seat 0 is eldest. Every hand is
also re-derived by the independent Python referee in helpers.py."""

import pytest
from helpers import SUIT, Referee, mask, run_deal, scripted_policies

from cinch_sim import layout as L
from cinch_sim.engine.run import Conditions, run_chunk
from cinch_sim.policies.loading import PolicyError
from cinch_sim.rules import Rules

NONE = Rules(robber="none")


def checked(hand, rules):
    Referee(rules).check(hand.out, hand.trace, hand.dealer)
    return hand


# --------------------------------------------------------------------- deal D1
# Trump hearts, so the Left Pedro is 5D. robber=none and everybody keeps six
# cards: nobody draws and the 16 stock cards (3H 4H 6H 7H 8H among them) are dead.
D1 = {
    0: "AH KH 2H 9C 8C 7C 2S 3S 4S",
    1: "5D QH AD KD 6C 4C 2D 3D 4D",
    2: "5H JH TC AS KS 3C 6D 7D 8D",
    3: "TH 9H QD JD 5C QS 6S 7S 8S",
}
D1_KEEP = {
    0: "AH KH 2H 9C 8C 7C",
    1: "5D QH AD KD 6C 4C",
    2: "5H JH TC AS KS 3C",
    3: "TH 9H QD JD 5C QS",
}
# Maker seat 0 leads.
# T0 AH QH JH 9H -> A wins: s0.           T1 2H 5D 5H TH (s1, s2, s3 forced) -> 10 wins: s3.
# T2 s3 QS, s0 KH (void in spades), s1 4C, s2 AS -> trump wins: s0.
# T3 9C 6C TC 5C -> TC: s2.     T4 s2 KS, s3 QD, s0 8C, s1 AD -> KS (AD is off suit): s2.
# T5 s2 3C, s3 JD, s0 7C, s1 KD -> 7C: s0.
D1_PLAYS = {
    0: ["AH", "2H", "KH", "9C", "8C", "7C"],
    1: ["QH", "AD", "4C", "6C", "AD", "KD"],  # T1: AD is scripted, but 5D is forced
    2: ["JH", "5H", "AS", "TC", "KS", "3C"],
    3: ["9H", "TH", "QS", "5C", "QD", "JD"],
}
D1_TRICKS = [
    {0: "AH", 1: "QH", 2: "JH", 3: "9H"},
    {0: "2H", 1: "5D", 2: "5H", 3: "TH"},
    {3: "QS", 0: "KH", 1: "4C", 2: "AS"},
    {0: "9C", 1: "6C", 2: "TC", 3: "5C"},
    {2: "KS", 3: "QD", 0: "8C", 1: "AD"},
    {2: "3C", 3: "JD", 0: "7C", 1: "KD"},
]
# Team 0: High (AH, T0) 1 + Jack (JH, T0) 1 = 2.
# Team 1: Low (2H, T1) 1 + Left Pedro 5 + Right Pedro 5 + Game (TH) 1 = 12.  2 + 12 = 14.


def d1(rules=NONE, bid=3, **kw):
    kw.setdefault("maker", 0)
    kw.setdefault("trump", "H" if kw["maker"] >= 0 else None)
    return checked(run_deal(D1, rules=rules, bid=bid, keeps=D1_KEEP, plays=D1_PLAYS, **kw), rules)


def test_d1_trumps_only_plain_cards_dead_the_hand_ends_early():
    # follow_rule=trumps_only: only trumps are played, a seat with none sits out.
    # T1 s0 AH, s1 QH, s2 JH, s3 9H -> s0.  T2 s0 2H, s1 5D, s2 5H, s3 TH -> TH: s3.
    # Now only s0 holds a trump (KH): s3 is out, so s0 leads T3 alone, and with no
    # trump left anywhere the hand ends after 3 tricks; the plain cards are dead.
    # Points as in the full deal: team 0 High 1 + Jack 1 = 2 < bid 3, set;
    # team 1 Low (2H) 1 + Game (TH) 1 + both Pedros 10 = 12.  Scores -3 and 12.
    rules = Rules(robber="none", follow_rule="trumps_only")
    h = d1(rules)
    assert h.tricks() == [*D1_TRICKS[:2], {0: "KH"}]
    assert h.leaders() == [0, 0, 0] and h.winners() == [0, 3, 0]
    assert h.n_tricks == 3
    assert h.play_legal(0, 0) == {"AH", "KH", "2H"}  # no plain lead
    assert h.play_legal(2, 0) == {"JH", "5H"}  # no AS, KS, TC or 3C
    assert h.points == (2, 12) and h.h(L.H_MADE) == 0
    assert h.score == (-3, 12)


@pytest.mark.parametrize("follow", ["may_trump", "strict"])
def test_d1_full_deal_left_pedro_on_trump_lead(follow):
    h = d1(Rules(robber="none", follow_rule=follow))
    assert h.tricks() == D1_TRICKS
    assert h.leaders() == [0, 0, 3, 0, 2, 2]  # §1.10: maker leads, then each winner
    assert h.winners() == [0, 3, 0, 2, 2, 0]
    # §1.11: on the trump lead of T1 seat 1 must play its only trump, the LP 5D,
    # although it holds diamonds (AD, KD) and its script asked for AD.
    assert h.tricks()[1][1] == "5D"
    assert h.play_legal(1, 1) is None  # a single legal card: the kernel plays it
    # T0: seat 1 holds QH and the LP: both are trumps, nothing else is legal.
    assert h.play_legal(1, 0) == {"QH", "5D"}
    assert h.slot("high") == (0, 0, 0, 0)
    assert h.slot("jack") == (0, 0, 2, 2)
    assert h.slot("low") == (1, 1, 0, 0)
    assert h.slot("left") == (1, 1, 1, 1)
    assert h.slot("right") == (1, 1, 2, 2)
    assert h.slot("game") == (1, 1, 3, 3)
    assert h.points == (2, 12)
    assert h.h(L.H_N_TRICKS) == 6
    # §1.14 set: 2 < 3, so the makers lose their bid; opponents score what they took.
    assert h.h(L.H_MADE) == 0
    assert h.score == (-3, 12)


def test_d1_made_bid_scores_everything_taken():
    h = d1(bid=2)  # 2 >= 2
    assert h.h(L.H_MADE) == 1
    assert h.score == (2, 12)


def test_d1_scoring_difference():
    # §2.11 difference: set side 0, opponents 12 + the bid 3 = 15.
    h = d1(Rules(robber="none", scoring="difference"))
    assert h.h(L.H_MADE) == 0
    assert h.score == (0, 15)


def test_d1_low_to_player():
    # §2.10 low_to=player: Low (2H) goes to the side of seat 0 who played it:
    # team 0 has 2 + 1 = 3 and makes its bid of 3; team 1 has 11.
    h = d1(Rules(robber="none", low_to="player"))
    assert h.slot("low") == (0, 1, 0, 0)
    assert h.points == (3, 11)
    assert h.h(L.H_MADE) == 1
    assert h.score == (3, 11)


def test_d1_set_bid_through_the_auction():
    # Seat 0 (eldest) bids 3, the others pass; seat 0 names hearts.
    h = d1(maker=-1, bid=0, bids={0: 3, 1: 0, 2: 0, 3: 0}, name_trump="H")
    assert (h.h(L.H_MAKER), h.h(L.H_BID), h.h(L.H_TRUMP)) == (0, 3, SUIT["H"])
    assert [h.h(L.H_BIDS + s) for s in range(4)] == [3, -1, -1, -1]
    assert h.tricks() == D1_TRICKS
    assert h.h(L.H_MADE) == 0
    assert h.score == (-3, 12)
    # the maker named trump from his dealt hand, choosing among all four suits
    assert h.record("trump", 0, 1) == mask(D1[0])
    assert h.record("trump", 0, 2) == 0b1111


# All pass: the dealer (seat 3) is maker with contract 0 and leads.
# T0 s3 TH, s0 KH, s1 QH, s2 JH -> K: s0.  T1 s0 AH, s1 5D, s2 5H, s3 9H (all forced) -> s0.
# T2 s0 2H, the others hold no trump -> s0.  Team 0 takes every point: 14, team 1 0.
ALL_PASS_PLAYS = {
    0: ["KH", "AH", "2H"],
    1: ["QH", "5D", "AD"],
    2: ["JH", "5H", "AS"],
    3: ["TH", "9H", "QS"],
}


def all_pass(rules):
    return checked(
        run_deal(
            D1,
            rules=rules,
            bids={s: 0 for s in range(4)},
            name_trump="H",
            keeps=D1_KEEP,
            plays=ALL_PASS_PLAYS,
        ),
        rules,
    )


def test_all_pass_dealer_names_trump_without_contract():
    h = all_pass(NONE)
    assert (h.h(L.H_MAKER), h.h(L.H_BID), h.h(L.H_TRUMP)) == (3, 0, SUIT["H"])
    assert [h.h(L.H_BIDS + s) for s in range(4)] == [-1] * 4
    assert h.record("trump", 3, 1) == mask(D1[3])  # the dealer chose trump
    assert h.leaders()[:3] == [3, 0, 0]
    assert h.points == (14, 0)
    # contract 0: the dealer's side cannot be set, even with no points
    assert h.h(L.H_MADE) == 1
    assert h.score == (14, 0)


def test_all_pass_dealer_forced_min():
    # The dealer may not pass: his bid is bid_min = 2; 0 < 2, so he is set by 2.
    h = all_pass(Rules(robber="none", all_pass="dealer_forced_min", bid_min=2))
    assert [h.h(L.H_BIDS + s) for s in range(4)] == [-1, -1, -1, 2]
    assert (h.h(L.H_MAKER), h.h(L.H_BID)) == (3, 2)
    assert h.points == (14, 0)
    assert h.h(L.H_MADE) == 0
    assert h.score == (14, -2)


def test_all_pass_dealer_forced_any():
    # The dealer may not pass but bids what he likes: 5 here, asked with every bid from
    # bid_min and no pass. The same play as above gives team 0 all 14 points, so the
    # dealer's side (team 1) takes 0 < 5 and is set by 5: scores 14 and -5.
    rules = Rules(robber="none", all_pass="dealer_forced_any")
    bids = {0: 0, 1: 0, 2: 0, 3: 5}
    h = checked(
        run_deal(D1, rules=rules, bids=bids, name_trump="H", keeps=D1_KEEP, plays=ALL_PASS_PLAYS),
        rules,
    )
    assert bid_legal(h, 2) == [0, *range(1, 15)]  # the others may pass
    assert bid_legal(h, 3) == list(range(1, 15))  # he may not
    assert [h.h(L.H_BIDS + s) for s in range(4)] == [-1, -1, -1, 5]
    assert (h.h(L.H_MAKER), h.h(L.H_BID)) == (3, 5)
    assert h.points == (14, 0) and h.h(L.H_MADE) == 0
    assert h.score == (14, -5)
    # a bid before him: he may pass again
    h = run_deal(D1, rules=rules, bids={0: 0, 1: 6, 2: 0, 3: 0}, name_trump="H")
    assert bid_legal(h, 3) == [0, *range(7, 15)]
    assert (h.h(L.H_MAKER), h.h(L.H_BID)) == (1, 6)


@pytest.mark.parametrize("rule", ["redeal_next", "redeal_same"])
def test_all_pass_thrown_in(rule):
    h = run_deal(D1, rules=Rules(all_pass=rule), bids={s: 0 for s in range(4)})
    assert h.h(L.H_THROWN_IN) == 1
    assert (h.h(L.H_MAKER), h.h(L.H_BID), h.h(L.H_TRUMP), h.h(L.H_MADE)) == (-1, -1, -1, -1)
    assert h.points == (0, 0) and h.score == (0, 0)
    assert h.n_tricks == 0
    assert h.record("trump", 3, 1) == -1  # nobody named trump


# ------------------------------------------------------------------- bidding §1.4
def bid_legal(h, seat):
    v = h.record("bid", seat, 1)
    return sorted(b for b in range(64) if v >> b & 1)


def test_one_round_strictly_higher_partners_may_overbid():
    # eldest s0 bids 3, s1 5, s2 (s0's partner) overbids with 7, s3 passes.
    h = run_deal(D1, rules=NONE, bids={0: 3, 1: 5, 2: 7, 3: 0}, name_trump="S")
    assert bid_legal(h, 0) == [0, *range(1, 15)]
    assert bid_legal(h, 1) == [0, *range(4, 15)]
    assert bid_legal(h, 2) == [0, *range(6, 15)]
    assert bid_legal(h, 3) == [0, *range(8, 15)]
    assert (h.h(L.H_MAKER), h.h(L.H_BID), h.h(L.H_TRUMP)) == (2, 7, SUIT["S"])
    assert [h.h(L.H_BIDS + s) for s in range(4)] == [3, 5, 7, -1]
    assert h.record("trump", 2, 1) == mask(D1[2])
    assert h.leaders()[0] == 2  # the maker leads
    nb = int(h.trace[L.T_N_BIDS])
    assert nb == 4  # one round only
    assert [int(h.trace[L.T_BIDS + 2 * i]) for i in range(nb)] == [0, 1, 2, 3]
    checked(h, NONE)


def test_bid_equal_to_current_is_rejected():
    with pytest.raises(PolicyError, match="bid"):
        run_deal(D1, rules=NONE, bids={0: 3, 1: 3, 2: 0, 3: 0}, name_trump="S")


def test_bid_range_option():
    # §2.1 bid_min=6, bid_max=10
    r = Rules(robber="none", bid_min=6, bid_max=10)
    h = run_deal(D1, rules=r, bids={0: 0, 1: 8, 2: 0, 3: 0}, name_trump="S")
    assert bid_legal(h, 0) == [0, 6, 7, 8, 9, 10]
    assert bid_legal(h, 3) == [0, 9, 10]
    assert (h.h(L.H_MAKER), h.h(L.H_BID)) == (1, 8)
    with pytest.raises(PolicyError):
        run_deal(D1, rules=r, bids={0: 5, 1: 0, 2: 0, 3: 0}, name_trump="S")


# ------------------------------------------------------------------- deal §1.3
@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_deal_in_threes_from_the_dealers_left(dealer):
    # Deal the cards in the order 0, 1, ..., 51: the first packet of three goes to
    # the dealer's left, then clockwise; cards 36..51 are the stock.
    ps = scripted_policies()
    ps.board[0, :, 0] = 0  # everybody passes
    ps.board[1, :, 0] = 0
    out, tr = run_chunk(Rules(), ps, 1, 0, 1, dealer, Conditions(deck=list(range(52))), trace=True)
    for j in range(4):
        seat = (dealer + 1 + j) % 4
        want = {r * 12 + j * 3 + k for r in range(3) for k in range(3)}
        assert ps.board[0, seat, 2] == sum(1 << c for c in want), seat
    assert list(tr[0, L.T_DECK : L.T_DECK + 52]) == list(range(52))
    assert out[0, L.H_MAKER] == dealer  # all passed


# ------------------------------------------------------- following §1.11 (LP)
# Trump spades: the Left Pedro is 5C; clubs has 12 cards.
D2 = {
    0: "KC QC JC AS KS QS 2H 3H 4H",
    1: "5C 9C 8C 2D 3D 4D 5H 6H 7H",
    2: "2C 3C 4C 2S 6D 7D 8H 9H TH",
    3: "JS TS 9S 8D 9D TD JH QH KH",
}
D2_KEEP = {
    0: "KC QC JC AS KS QS",
    1: "5C 9C 8C 2D 3D 4D",
    2: "2C 3C 4C 2S 6D 7D",
    3: "JS TS 9S 8D 9D TD",
}


def d2(follow, plays, hands=D2, keeps=D2_KEEP):
    r = Rules(robber="none", follow_rule=follow)
    return checked(run_deal(hands, rules=r, maker=0, trump="S", bid=1, keeps=keeps, plays=plays), r)


def test_left_pedro_on_its_natural_suits_lead_may_trump():
    # KC led. Seat 1 holds 9C 8C and the LP: under may_trump it may play the LP,
    # which, being a trump, beats the clubs: KC 5C 2C 8D -> seat 1 wins.
    h = d2("may_trump", {0: ["KC"], 1: ["5C"], 2: ["2C"], 3: ["8D"]})
    assert h.play_legal(1, 0) == {"9C", "8C", "5C"}
    assert h.play_legal(2, 0) == {"2C", "3C", "4C", "2S"}  # a trump is allowed too
    assert h.tricks()[0] == {0: "KC", 1: "5C", 2: "2C", 3: "8D"}
    assert h.winners()[0] == 1
    assert h.slot("left")[:2] == (1, 0)  # LP captured by team 1 in trick 0


def test_left_pedro_on_its_natural_suits_lead_strict():
    # strict: seat 1 can follow clubs, so the LP (a trump) is not allowed.
    h = d2("strict", {0: ["KC"], 2: ["2C"], 3: ["8D"]})
    assert h.play_legal(1, 0) == {"9C", "8C"}
    assert h.play_legal(2, 0) == {"2C", "3C", "4C"}
    assert h.tricks()[0] == {0: "KC", 1: "8C", 2: "2C", 3: "8D"}
    assert h.winners()[0] == 0
    # the message lists what the policy was given: the two clubs, not the LP
    with pytest.raises(PolicyError, match=r"illegal card 5C \(legal here: 8C 9C\)"):
        d2("strict", {0: ["KC"], 1: ["5C"]})


@pytest.mark.parametrize("follow", ["may_trump", "strict"])
def test_left_pedro_is_not_a_card_of_its_natural_suit(follow):
    # Seat 1 holds the LP but no other club: it is void in clubs, so on KC it may
    # play anything (were the LP a club, strict would force it).
    hands = {**D2, 1: "5C 2D 3D 4D 5H 6H 9C 8C 7H"}
    keeps = {**D2_KEEP, 1: "5C 2D 3D 4D 5H 6H"}
    h = d2(follow, {0: ["KC"], 1: ["5H"], 2: ["2C"], 3: ["8D"]}, hands, keeps)
    assert h.play_legal(1, 0) == {"5C", "2D", "3D", "4D", "5H", "6H"}
    assert h.tricks()[0] == {0: "KC", 1: "5H", 2: "2C", 3: "8D"}
    assert h.winners()[0] == 0


@pytest.mark.parametrize("follow", ["may_trump", "strict"])
def test_left_pedro_led_is_a_trump_lead(follow):
    # Seat 0 leads the LP: a trump lead. Seat 1 (9C 8C JS) must play its trump JS
    # (its script asks for 9C); seat 2 has clubs but no trump: anything is legal.
    # Seat 3 must trump. 5C JS 6D 9S -> JS (J > 9 > LP): seat 1.
    hands = {
        0: "5C KC QC AS KS QS 2H 3H 4H",
        1: "JC 9C 8C JS 3D 4D 5H 6H 7H",
        2: "2C 3C 4C 5D 6D 7D 8H 9H TH",
        3: "2S TS 9S 8D 9D TD JH QH KH",
    }
    keeps = {
        0: "5C KC QC AS KS QS",
        1: "9C 8C JS 3D 4D 5H",
        2: "2C 3C 4C 5D 6D 7D",
        3: "2S TS 9S 8D 9D TD",
    }
    h = d2(follow, {0: ["5C"], 1: ["9C"], 2: ["6D"], 3: ["9S"]}, hands, keeps)
    assert h.tricks()[0] == {0: "5C", 1: "JS", 2: "6D", 3: "9S"}
    assert h.play_legal(2, 0) == {"2C", "3C", "4C", "5D", "6D", "7D"}
    assert h.play_legal(3, 0) == {"2S", "TS", "9S"}
    assert h.winners()[0] == 1


def test_trump_order_pedros():
    # Trump spades. T0 s0 leads 6S; s1 5S (Right); s2 5C (Left); s3 4S.
    # 6 > Right Pedro > Left Pedro > 4: seat 0 wins and takes 10 points.
    hands = {
        0: "6S AH KH QH JH TH 2C 3C 4C",
        1: "5S AD KD QD JD TD 6C 7C 8C",
        2: "5C AC KC QC JC TC 2D 3D 4D",
        3: "4S 9H 8H 7H 6H 5H 5D 6D 7D",
    }
    keeps = {
        0: "6S AH KH QH JH TH",
        1: "5S AD KD QD JD TD",
        2: "5C AC KC QC JC TC",
        3: "4S 9H 8H 7H 6H 5H",
    }
    r = Rules(robber="none")
    h = checked(run_deal(hands, rules=r, maker=0, trump="S", bid=1, keeps=keeps), r)
    assert h.tricks()[0] == {0: "6S", 1: "5S", 2: "5C", 3: "4S"}
    assert h.winners()[0] == 0
    assert h.slot("right")[:2] == (0, 0) and h.slot("left")[:2] == (0, 0)
    # 4S is the lowest trump in play (2S 3S in the dead stock): Low to team 0 as well.
    assert h.slot("low") == (0, 0, 3, 3)


# --------------------------------------------- robbing by the maker, points D3
# Trump hearts (LP 5D). Maker seat 1, dealer seat 3; the maker robs (the default).
# Drawers in turn from eldest: s0 keeps 4 and draws 2 (4S 5S), s2 keeps 3 and draws
# 3 (6S 7S 8S), the dealer s3 keeps 5 and draws 1 (9S); the maker takes the other
# 10 (TH 9H 8H 3H 2H TS JS QS KS AS): 19 cards, 9 trumps, so he keeps 6 trumps
# and sets TH 3H 2H aside face up: Game (TH) and the 2 are out of play.
D3 = {
    1: "AH KH QH JH AC KC QC 2S 3S",
    0: "4H 7H 2C 3C 4C 5C 6C 7C 8C",
    2: "5H 6H 9C TC JC 2D 3D 4D 6D",
    3: "5D 7D 8D 9D TD JD QD KD AD",
}
D3_STOCK = "4S 5S 6S 7S 8S 9S TH 9H 8H 3H 2H TS JS QS KS AS"
D3_KEEP = {0: "4H 7H 2C 3C", 2: "5H 6H 9C", 3: "5D 7D 8D 9D TD"}
D3_ROB = {1: "AH KH QH JH 9H 8H"}
# T0 s1 AH, s2 6H, s3 5D (its only trump), s0 7H -> s1.  T1 s1 KH, s2 5H, s3 9S, s0 4H -> s1.
# Then s1 leads QH JH 9H 8H, nobody else holds a trump: s1 wins every trick.
# Low is the lowest trump in play, 4H (2H and 3H set aside). Team 1: High 1 + LP 5
# + RP 5 + Low 1 + Jack 1 = 13; Game is not in play; team 0: 0.
D3_PLAYS = {1: ["AH", "KH", "QH", "JH", "9H", "8H"], 2: ["6H"], 0: ["7H"]}


def d3(rules=None, bid=13):
    rules = rules or Rules()
    return checked(
        run_deal(
            D3,
            D3_STOCK,
            rules=rules,
            maker=1,
            trump="H",
            bid=bid,
            keeps=D3_KEEP,
            rob_keep=D3_ROB,
            plays=D3_PLAYS,
        ),
        rules,
    )


def test_robbing_by_the_maker():
    h = d3()
    assert int(h.trace[L.T_ROBBER]) == 1
    assert h.drawn(0) == ["4S", "5S"]
    assert h.drawn(2) == ["6S", "7S", "8S"]
    assert h.drawn(3) == ["9S"]  # the dealer draws in his turn
    assert h.drawn(1) == ["TH", "9H", "8H", "3H", "2H", "TS", "JS", "QS", "KS", "AS"]
    assert h.discard(1) == set()  # the robber does not discard before the draw
    assert h.robber_discard() == {"TH", "3H", "2H", "AC", "KC", "QC", "2S", "3S"} | {
        "TS",
        "JS",
        "QS",
        "KS",
        "AS",
    }
    # the robber chose from his 9 cards plus the 10 left
    assert h.record("discard", 1, 6) == mask(D3[1]) | mask(D3_STOCK.split()[6:])
    assert h.tricks()[0] == {1: "AH", 2: "6H", 3: "5D", 0: "7H"}
    assert h.tricks()[1] == {1: "KH", 2: "5H", 3: "9S", 0: "4H"}
    assert h.winners() == [1] * 6


def test_low_when_the_deuce_is_out_of_play():
    h = d3()
    assert h.slot("low") == (1, 1, 0, 0)  # 4H: held and played by seat 0, taken by s1
    assert h.slot("high") == (1, 0, 1, 1)
    assert h.slot("left") == (1, 0, 3, 3)
    assert h.slot("right") == (1, 1, 2, 2)
    assert h.slot("jack") == (1, 3, 1, 1)
    # deuce_only: the 2 is out of play, so nobody scores Low: 12 < 13, set.
    h2 = d3(Rules(low_rule="deuce_only"))
    assert h2.slot_team(L.SLOT_LOW) == -1
    assert h2.points == (0, 12)
    assert h2.h(L.H_MADE) == 0 and h2.score == (0, -13)
    # low_to=player: Low goes to seat 0's side: 1 + 12; team 1 set as well.
    h3 = d3(Rules(low_to="player"))
    assert h3.points == (1, 12)
    assert h3.score == (1, -13)


def test_game_when_the_ten_is_out_of_play():
    h = d3()
    assert h.slot("game") == (-1, -1, -1, -1)
    assert h.points == (0, 13)  # 14 - 1: the ten scores for nobody
    assert h.h(L.H_MADE) == 1 and h.score == (0, 13)


def test_robber_must_keep_his_trumps():
    # 9 trumps available: keeping only 5 of them is illegal.
    with pytest.raises(PolicyError, match="discard"):
        run_deal(
            D3,
            D3_STOCK,
            maker=1,
            trump="H",
            bid=1,
            keeps=D3_KEEP,
            rob_keep={1: "AH KH QH JH 9H AS"},
        )
    with pytest.raises(PolicyError, match="discard"):  # seven cards
        run_deal(
            D3,
            D3_STOCK,
            maker=1,
            trump="H",
            bid=1,
            keeps=D3_KEEP,
            rob_keep={1: "AH KH QH JH 9H 8H 3H"},
        )


def test_robbing_by_the_dealer():
    # robber=dealer: the maker (seat 1) discards and draws like the others, in turn
    # from eldest: s0 2 (4S 5S), s1 keeps his 4 trumps and draws 2 (6S 7S), s2 3
    # (8S 9S TH); the dealer takes the other 9 (9H 8H 3H 2H TS JS QS KS AS): 18
    # cards, 5 trumps (5D 9H 8H 3H 2H), all of which he must keep.
    r = Rules(robber="dealer")
    keeps = {**D3_KEEP, 1: "AH KH QH JH"}
    del keeps[3]
    h = checked(
        run_deal(
            D3,
            D3_STOCK,
            rules=r,
            maker=1,
            trump="H",
            bid=1,
            keeps=keeps,
            rob_keep={3: "5D 9H 8H 3H 2H AD"},
        ),
        r,
    )
    assert int(h.trace[L.T_ROBBER]) == 3
    assert h.drawn(0) == ["4S", "5S"]
    assert h.drawn(1) == ["6S", "7S"]
    assert h.drawn(2) == ["8S", "9S", "TH"]
    assert h.drawn(3) == ["9H", "8H", "3H", "2H", "TS", "JS", "QS", "KS", "AS"]
    assert h.discard(1) == {"AC", "KC", "QC", "2S", "3S"}
    assert h.discard(3) == set()
    assert h.robber_discard() == {"7D", "8D", "9D", "TD", "JD", "QD", "KD"} | {
        "TS",
        "JS",
        "QS",
        "KS",
        "AS",
    }
    assert h.leaders()[0] == 1
    with pytest.raises(PolicyError, match="discard"):  # drops the trump 2H
        run_deal(
            D3,
            D3_STOCK,
            rules=r,
            maker=1,
            trump="H",
            bid=1,
            keeps=keeps,
            rob_keep={3: "5D 9H 8H 3H AD KD"},
        )


def test_no_robber_everybody_draws():
    r = Rules(robber="none")
    keeps = {**D3_KEEP, 1: "AH KH QH JH"}
    h = checked(run_deal(D3, D3_STOCK, rules=r, maker=1, trump="H", bid=1, keeps=keeps), r)
    # s0 2, s1 2, s2 3, s3 1: 8 cards drawn, the other 8 stay dead in the stock
    assert int(h.trace[L.T_ROBBER]) == -1
    assert h.drawn(0) == ["4S", "5S"] and h.drawn(1) == ["6S", "7S"]
    assert h.drawn(2) == ["8S", "9S", "TH"] and h.drawn(3) == ["9H"]
    assert list(h.trace[L.T_DRAW_SEAT + 44 : L.T_DRAW_SEAT + 52]) == [-1] * 8
    # 8H 3H 2H stay in the stock: Low is the lowest trump in play, 4H
    assert h.slot("low")[2] == 0


# ----------------------------------------------------------- discard §1.6, §2
def test_discard_legal_cards_exclude_trumps_and_the_left_pedro():
    h = d1()
    # Seat 1 holds 5D (the LP under hearts trump) and QH: neither may go.
    assert h.record("discard", 1, 3) == mask("AD KD 6C 4C 2D 3D 4D")
    assert h.record("discard", 1, 2) == mask(D1[1])
    assert h.discard(1) == {"2D", "3D", "4D"}
    no_lp = {**D1_KEEP, 1: "QH AD KD 6C 4C 2D"}
    seven = {**D1_KEEP, 1: "5D QH AD KD 6C 4C 2D"}
    with pytest.raises(PolicyError, match="discard"):  # throws the LP away
        run_deal(D1, rules=NONE, maker=0, trump="H", bid=1, keeps=no_lp)
    with pytest.raises(PolicyError, match="discard"):  # keeps seven
        run_deal(D1, rules=NONE, maker=0, trump="H", bid=1, keeps=seven)


def test_must_discard_nontrumps():
    r = Rules(robber="none", must_discard_nontrumps=True)
    with pytest.raises(PolicyError, match="discard"):
        run_deal(D1, rules=r, maker=0, trump="H", bid=1, keeps=D1_KEEP)
    # keeping trumps only is fine; each then draws from the stock
    h = checked(run_deal(D1, rules=r, maker=0, trump="H", bid=1), r)
    assert h.discard(1) == {"AD", "KD", "6C", "4C", "2D", "3D", "4D"}


# Seat 0 is dealt 7 hearts and the LP 5D: 8 trumps. Dealer/maker seat 3 robs.
D6 = {
    0: "AH KH QH JH TH 9H 2H 5D 2C",
    1: "3C 4C 5C 6C 7C 8C 9C TC JC",
    2: "QC KC AC 2S 3S 4S 5S 6S 7S",
    3: "8S 9S TS JS QS KS AS 2D 3D",
}


def test_excess_trumps_any():
    # More than six trumps: keep exactly six, the excess goes face up (dead).
    h = run_deal(D6, maker=3, trump="H", bid=1, keeps={0: "KH QH JH TH 9H 5D"})
    assert h.record("discard", 0, 3) == mask(D6[0])  # every card may go
    assert h.record("discard", 0, 4) == 6  # O_MIN_KEEP: the six trumps, exactly
    assert h.record("discard", 1, 4) == 0  # seat 1, without: none need stay
    assert h.discard(0) == {"AH", "2H", "2C"}
    # the next drawer sees the dead trumps face up, not the face-down 2C
    assert h.record("discard", 1, 5) == mask("AH 2H")
    assert h.slot("high") == (-1, -1, -1, -1)  # ace_only: the A is dead
    checked(h, Rules())
    # five trumps kept: the message says how many he holds
    with pytest.raises(PolicyError, match=r"it holds 8 trumps \(hearts\): exactly 6 of them stay"):
        run_deal(D6, maker=3, trump="H", bid=1, keeps={0: "KH QH JH TH 9H 2C"})


def test_high_rule_highest_in_play():
    # §2.16: with the A dead, High is the K of trumps (held and played by seat 0).
    # Seat 0 sets AH 2H aside face up; seat 2 draws 3H 4H, the robber (seat 3) keeps
    # 5H 6H 7H 8H, each lowest card played. T0 s3 8S, s0 trumps with 5D (Left Pedro
    # 5).  T1 s0 9H, s2 3H, s3 5H: Right Pedro 5 and Low (3H, the lowest trump in play)
    # 1.  T2 TH: Game 1.  T3 JH: Jack 1.  T4 QH.  T5 KH: High 1, the K being the
    # highest trump in play. Seats 0+2 take all 14; the maker's side bid 1: -1.
    r = Rules(high_rule="highest_in_play")
    h = checked(run_deal(D6, rules=r, maker=3, trump="H", bid=1, keeps={0: "KH QH JH TH 9H 5D"}), r)
    team, trick, holder, player = h.slot("high")
    assert (holder, player) == (0, 0)
    assert team == h.winners()[trick] % 2
    assert "KH" in h.tricks()[trick].values() and trick == 5
    assert h.points == (14, 0) and h.score == (14, -1)


def test_excess_trumps_non_point_only():
    # §2.6 non_point_only: A, J, 10, the Pedros and the 2 may not go: only K Q 9.
    r = Rules(excess_trump_discard="non_point_only")
    h = checked(run_deal(D6, rules=r, maker=3, trump="H", bid=1, keeps={0: "AH JH TH 9H 2H 5D"}), r)
    assert h.record("discard", 0, 3) == mask("KH QH 9H 2C")
    assert h.record("discard", 0, 4) == 6
    assert h.discard(0) == {"KH", "QH", "2C"}
    with pytest.raises(PolicyError, match="discard"):
        run_deal(D6, rules=r, maker=3, trump="H", bid=1, keeps={0: "KH QH JH TH 9H 5D"})


def test_discards_face_up_are_public():
    # §2.5 discards_face_up: every discard is shown, so the next drawer (seat 1)
    # sees seat 0's face-down-by-default 2C among the face-up cards.
    r = Rules(discards_face_up=True)
    h = run_deal(D6, rules=r, maker=3, trump="H", bid=1, keeps={0: "KH QH JH TH 9H 5D"})
    assert h.record("discard", 1, 5) == mask("AH 2H 2C")


# ------------------------------------------------------------- shortage §1.9
# Trump clubs (LP 5S). Dealer seat 3 is maker and robber; dealt 9 trumps he keeps
# 3C 4C 6C 7C 8C 9C and sets QC JC TC aside (Jack and Game out of play).
# s0 and s1 keep nothing (6 + 6), s2 keeps 2C (5): 17 > 16 in the stock.
D5 = {
    3: "QC JC TC 9C 8C 7C 6C 4C 3C",
    0: "4H 5H 6H 7H 8H 9H TH JH QH",
    1: "KH AH QD KD AD 2S 3S 4S 6S",
    2: "2C 7S 8S 9S TS JS QS KS AS",
}
D5_STOCK = "2D 5S 5C 3D 2H 8D 4D KC 9D 5D 3H TD 6D AC JD 7D"
D5_KEEP = {0: "", 1: "", 2: "2C"}
# round robin from eldest: s0 s1 s2 s0 s1 s2 ... 15 cards give 5 each, s2 is full;
# the 16th goes to s0. s0: 2D 3D 4D 5D 6D 7D; s1 (short, 5): 5S 2H KC 3H AC;
# s2: 2C + 5C 8D 9D TD JD.
# T0 s3 3C, s0 2D, s1 5S (LP beats 3), s2 2C -> s1.   T1 s1 2H, s2 8D, s3 4C, s0 3D -> s3.
# T2 s3 6C, s0 4D, s1 KC, s2 5C -> s1.               T3 s1 3H, s2 9D, s3 7C, s0 5D -> s3.
# T4 s3 8C, s0 6D, s1 AC (his last card), s2 TD -> s1.
# T5 s1 has no card: the next seat clockwise, s2, leads JD; s3 9C, s0 7D -> s3.
# Team 1: High (AC) 1 + Low (2C, T0) 1 + RP (5C, T2) 5 + LP (5S, T0) 5 = 12; team 0: 0.
D5_PLAYS = {
    3: ["3C", "4C", "6C", "7C", "8C", "9C"],
    0: ["2D", "3D", "4D", "5D", "6D", "7D"],
    1: ["5S", "2H", "KC", "3H", "AC"],
    2: ["2C", "8D", "5C", "9D", "TD", "JD"],
}


def test_stock_shortage_round_robin():
    r = Rules()
    h = checked(
        run_deal(
            D5,
            D5_STOCK,
            rules=r,
            maker=3,
            trump="C",
            bid=7,
            keeps=D5_KEEP,
            rob_keep={3: "3C 4C 6C 7C 8C 9C"},
            plays=D5_PLAYS,
        ),
        r,
    )
    assert h.h(L.H_SHORTAGE) == 1
    seats = [int(x) for x in h.trace[L.T_DRAW_SEAT + 36 : L.T_DRAW_SEAT + 52]]
    assert seats == [0, 1, 2] * 5 + [0]
    assert h.drawn(1) == ["5S", "2H", "KC", "3H", "AC"]
    assert h.record("discard", 3, 6) == mask(D5[3])  # the robber found no stock left
    assert h.robber_discard() == {"QC", "JC", "TC"}
    assert h.leaders() == [3, 1, 3, 1, 3, 2]
    assert h.winners() == [1, 3, 1, 3, 1, 3]
    assert h.tricks()[5] == {2: "JD", 3: "9C", 0: "7D"}  # seat 1 is skipped
    assert int(h.trace[L.T_PLAYS + 5 * L.MAX_PLAYERS + 3]) == -1  # s1's place in T5
    assert h.slot("high") == (1, 4, 1, 1)
    assert h.slot("low") == (1, 0, 2, 2)
    assert h.slot("right") == (1, 2, 2, 2)
    assert h.slot("left") == (1, 0, 1, 1)
    assert h.slot("jack")[0] == -1 and h.slot("game")[0] == -1
    assert h.points == (0, 12)
    assert h.score == (0, 12)


def test_stock_shortage_in_order():
    # in_order: s0 takes 6, s1 6, s2 the last 4 (holding 5).
    r = Rules(shortage="in_order")
    h = checked(
        run_deal(
            D5,
            D5_STOCK,
            rules=r,
            maker=3,
            trump="C",
            bid=1,
            keeps=D5_KEEP,
            rob_keep={3: "3C 4C 6C 7C 8C 9C"},
        ),
        r,
    )
    assert h.h(L.H_SHORTAGE) == 1
    seats = [int(x) for x in h.trace[L.T_DRAW_SEAT + 36 : L.T_DRAW_SEAT + 52]]
    assert seats == [0] * 6 + [1] * 6 + [2] * 4
    assert h.n_tricks == 6


def test_stock_shortage_limit_discards():
    # limit_discards: s0 and s1 request 12 of 16; s2 may then keep no fewer than
    # 6 - (16 - 12) = 2 cards, so with one trump it keeps a plain card: no shortage.
    r = Rules(shortage="limit_discards")
    h = checked(
        run_deal(
            D5,
            D5_STOCK,
            rules=r,
            maker=3,
            trump="C",
            bid=1,
            keeps={0: "", 1: ""},
            rob_keep={3: "3C 4C 6C 7C 8C 9C"},
        ),
        r,
    )
    assert [h.record("discard", s, 4) for s in (0, 1, 2)] == [0, 0, 2]
    assert h.h(L.H_SHORTAGE) == 0
    assert len(h.drawn(2)) == 4
    with pytest.raises(PolicyError, match="discard"):
        run_deal(
            D5,
            D5_STOCK,
            rules=r,
            maker=3,
            trump="C",
            bid=1,
            keeps=D5_KEEP,
            rob_keep={3: "3C 4C 6C 7C 8C 9C"},
        )


def test_limit_discards_outranks_must_discard_nontrumps():
    # §2 row 8: with must_discard_nontrumps too, s2 (one trump, 2C) would throw all
    # eight plain cards, but only four can be replaced: it keeps 2C and the lowest
    # plain card (7S), as under limit_discards alone, and keeping 2C alone is refused.
    r = Rules(shortage="limit_discards", must_discard_nontrumps=True)
    deal = {"rules": r, "maker": 3, "trump": "C", "bid": 1, "rob_keep": {3: "3C 4C 6C 7C 8C 9C"}}
    h = checked(run_deal(D5, D5_STOCK, keeps={0: "", 1: ""}, **deal), r)
    assert h.record("discard", 2, 4) == 2 and h.h(L.H_SHORTAGE) == 0
    assert h.discard(2) == set("8S 9S TS JS QS KS AS".split())
    with pytest.raises(PolicyError, match="discard policy .* at seat 2"):
        run_deal(D5, D5_STOCK, keeps={0: "", 1: "", 2: "2C"}, **deal)


def test_top_trumps_by_keep_order_takes_exactly_k():
    # found by the 10,000-hand round trip: with all six point trumps protected
    # under non_point_only, the simple discard asked for 0 more trumps and got all
    import numpy as np

    from cinch_sim.cards import parse_card, to_mask
    from cinch_sim.policies.common import top_trumps_by_keep_order

    trumps = to_mask(parse_card(c) for c in "AS JS TS 6S 5S 2S 5C 9S".split())
    spades, left = 1, parse_card("5C")
    for k in range(0, 9):
        got = int(top_trumps_by_keep_order(np.uint64(trumps), k, spades, left))
        assert got.bit_count() == min(k, 8)
        assert got & ~trumps == 0
    first3 = int(top_trumps_by_keep_order(np.uint64(trumps), 3, spades, left))
    assert first3 == to_mask(parse_card(c) for c in ("5S", "5C", "AS"))  # keep order
