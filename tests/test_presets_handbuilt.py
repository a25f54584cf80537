"""Hand-built deals for the rules a rules audit found tested only by random deals:
cut-throat for five and six and heasly (the draw one for one, ``limit_discards``,
the dealer robbing, setback and difference scoring), for two (both draw, nobody
robs), the open auction's rounds, ``sancho_classic``'s plain 5 of the same colour
and ``dom_pedro_classic``'s Dom, ``pidro`` as a whole, ``trumps_only`` when the
maker holds no trump, and the robber's freedom from ``must_discard_nontrumps``.
Each deal's points are worked out by hand in its comment; the project's referee
re-derives every record."""

from __future__ import annotations

import json

import pytest
from helpers import SCRIPTED, SUIT, build_deck, run_deal, scripted_policies
from test_kernel_handbuilt import D1, D3, D3_STOCK, checked

from cinch_sim.engine.run import Conditions, run_chunk
from cinch_sim.policies.loading import PolicyError, load_policy
from cinch_sim.records.referee import check_hand
from cinch_sim.records.writer import hand_record
from cinch_sim.rules import Rules, make_rules


def _record(rules, hand) -> dict:
    """The hand's JSON record, checked call by call and card by card by the referee."""
    rec = json.loads(json.dumps(hand_record(rules, hand.out, hand.trace)))
    got = check_hand(rec)
    assert got.status == "valid" and got.points == rec["result"]["points"], got
    return rec


# ---------------------------------------------------------------- cut-throat for five
# Dealer seat 4; everyone passes but the dealer, who bids 7 in hearts (the Left
# Pedro is then 5D). Six cards each, 22 in the stock, its top as given.
C5 = {
    0: "2C 3C 4C 6C 7C 8C",
    1: "2S 3S 4S 6S 7S 8S",
    2: "9S TS JS QS 2D 3D",
    3: "4D 6D 7D 8D 9D TH",
    4: "AH KH 5H 5D 9C TC",
}
C5_STOCK = "QH JH 9H 8H 7H 6H 4H 3H 5C JC QC KC AC 5S KS AS TD JD QD KD AD 2H"
# In turn from eldest, each discards non-trumps and draws as many: seats 0, 1 and 2
# throw all six (22 - 18 = 4 left); seat 3 may throw at most 4, so keeps at least
# 6 - 4 = 2 (it keeps 3: TH 4D 6D, draws QD KD AD). The dealer robs the last card,
# 2H, and sets 9C aside.
C5_KEEPS = {0: "", 1: "", 2: "", 3: "TH 4D 6D"}
C5_ROB = {4: "AH KH 5H 5D 2H TC"}
# T0 s4 AH, 6H 3H JD TH: s4 takes High 1 and Game (TH) 1.   T1 KH 7H 4H TD 4D: s4.
# T2 s4 2H, s0 QH, 5C 5S 6D: s0 takes Low (2H, the lowest trump in play) 1.
# T3 s0 JH, JC KS QD, s4 5D: s0 takes Jack 1 and Left Pedro 5.
# T4 s0 9H, QC AS KD, s4 5H: s0 takes Right Pedro 5.   T5 8H KC AC AD TC: s0.
# Seat 0: 1 + 1 + 5 + 5 = 12; seat 4: 1 + 1 = 2; 14 in all. The dealer bid 7 and took
# 2: set back 7. Each other player scores what he took: [12, 0, 0, 0, -7].
C5_PLAYS = {
    4: ["AH", "KH", "2H", "5D", "5H", "TC"],
    0: ["6H", "7H", "QH", "JH", "9H", "8H"],
    1: ["3H", "4H", "5C", "JC", "QC", "KC"],
    2: ["JD", "TD", "5S", "KS", "AS", "AC"],
    3: ["TH", "4D", "6D", "QD", "KD", "AD"],
}


def _cutthroat5(rules, keeps=C5_KEEPS):
    return run_deal(
        C5, C5_STOCK, dealer=4, rules=rules, bids={0: 0, 1: 0, 2: 0, 3: 0, 4: 7},
        name_trump="H", keeps=keeps, rob_keep=C5_ROB, plays=C5_PLAYS,
    )  # fmt: skip


def test_cutthroat5_draws_one_for_one_and_the_dealer_robs():
    rules = make_rules("cutthroat5")
    hand = _cutthroat5(rules)
    rec = _record(rules, hand)
    assert rec["maker"] == 4 and rec["bid"] == 7 and rec["trump"] == "H"
    assert rec["discards"][3] == ["7D", "8D", "9D"] and rec["discards"][4] == []
    assert rec["draws"] == [
        ["QH", "JH", "9H", "8H", "7H", "6H"],
        ["4H", "3H", "5C", "JC", "QC", "KC"],
        ["AC", "5S", "KS", "AS", "TD", "JD"],
        ["QD", "KD", "AD"],
        ["2H"],
    ]
    assert rec["robber_discards"] == ["9C"]
    # the least each drawer must keep: none while the stock can replace six, 2 for
    # seat 3 with four cards left
    assert [hand.record("discard", s, 4) for s in range(4)] == [0, 0, 0, 2]
    assert [t["winner"] for t in rec["tricks"]] == [4, 4, 0, 0, 0, 0]
    res = rec["result"]
    assert res["points"] == [12, 0, 0, 0, 2] and res["score"] == [12, 0, 0, 0, -7]
    assert not res["made"]
    assert res["captured"] == {
        "high": 4, "low": 0, "jack": 0, "game": 4, "right_pedro": 0, "left_pedro": 0,
    }  # fmt: skip


def test_cutthroat5_refuses_a_discard_the_stock_cannot_replace():
    # seat 3 keeping only TH would throw five with four cards left in the stock
    with pytest.raises(PolicyError, match="discard policy .* at seat 3"):
        _cutthroat5(make_rules("cutthroat5"), keeps={**C5_KEEPS, 3: "TH"})


def test_cutthroat5_under_difference_scoring():
    # The same deal: the set maker scores 0 and every other player what he took plus
    # the bid: 12 + 7 = 19 for seat 0, 0 + 7 = 7 for seats 1 to 3.
    rules = make_rules("cutthroat5", {"scoring": "difference"})
    res = _record(rules, _cutthroat5(rules))["result"]
    assert res["points"] == [12, 0, 0, 0, 2] and res["score"] == [19, 7, 7, 7, 0]


# --------------------------------------------------------------------- the auction
def _auction(caps: dict[int, int], jump: tuple[int, ...] = ()) -> dict:
    """Deal D1 (dealer 3) under ``auction``, each seat raising by one up to its cap
    (or jumping to it): the hand's record."""
    rules = make_rules("auction")
    ps = scripted_policies(4)
    ps.bid = [load_policy("bid", f"{SCRIPTED}:script_raise")] * 4
    for s, cap in caps.items():
        ps.board[0, s, 0] = cap
        ps.board[0, s, 5] = 1 if s in jump else 0
    ps.board[1, :, 0] = SUIT["H"]
    out, tr = run_chunk(rules, ps, 1, 0, 1, 3, Conditions(deck=build_deck(D1)), trace=True)
    return json.loads(json.dumps(hand_record(rules, out[0], tr[0])))


def test_the_auction_goes_round_until_the_others_have_passed():
    # Caps 7, 6, 0, 5 from eldest (seat 0): 0 bids 1, 1 bids 2, 2 passes (out for the
    # hand), 3 bids 3, 0 bids 4, 1 bids 5, 3 passes (6 is over its cap), 0 bids 6,
    # 1 passes (7 is over its cap). Seat 2 is never asked again; seat 0 makes it at 6.
    rec = _auction({0: 7, 1: 6, 2: 0, 3: 5})
    assert rec["bids"] == [
        [0, 1], [1, 2], [2, None], [3, 3], [0, 4], [1, 5], [3, None], [0, 6], [1, None],
    ]  # fmt: skip
    assert (rec["maker"], rec["bid"]) == (0, 6)
    assert check_hand(rec).status == "valid"


def test_a_bid_of_the_top_ends_the_auction():
    rec = _auction({0: 7, 1: 14, 2: 9, 3: 12}, jump=(1,))
    assert rec["bids"] == [[0, 1], [1, 14]] and (rec["maker"], rec["bid"]) == (1, 14)
    assert check_hand(rec).status == "valid"


def test_an_auction_everyone_passes_goes_to_the_dealer():
    # all_pass=dealer_names: the dealer names trumps with no contract (bid 0)
    rec = _auction({0: 0, 1: 0, 2: 0, 3: 0})
    assert rec["bids"] == [[0, None], [1, None], [2, None], [3, None]]
    assert (rec["maker"], rec["bid"]) == (3, 0)
    assert check_hand(rec).status == "valid"


# ------------------------------------------------------------------ sancho_classic
def test_sancho_classic_plays_the_5_of_the_same_colour_as_a_plain_card():
    """sancho_classic: six cards, no draw; trumps hearts, the 5D is a plain diamond.
    T0 s0 AH, s1 KH, s2 5H, s3 2H: s0 takes High 1, Right Pedro 5 and Low (2H) 1 = 7.
    T1 s0 9H (Sancho), s1 holds no heart and throws 5D (were it a trump it would be
    his only legal card), s2 TH, s3 JH: s3 takes Sancho 9, Game 1, Jack 1 = 11.
    T2-T5 s3 leads diamonds and wins them: no points. Seats 0+2 bid 10 and took 7: set
    back 10; seats 1+3 score 11. 7 + 11 = 18, the preset's points."""
    hands = {
        0: "AH 9H 2C 3C 4C 6C",
        1: "5D KH 2S 3S 4S 6S",
        2: "5H TH 7S 8S 9S TS",
        3: "JH 2H 2D 3D 4D 6D",
    }
    plays = {
        0: ["AH", "9H", "2C", "3C", "4C", "6C"],
        1: ["KH", "5D", "2S", "3S", "4S", "6S"],
        2: ["5H", "TH", "7S", "8S", "9S", "TS"],
        3: ["2H", "JH", "2D", "3D", "4D", "6D"],
    }
    rules = make_rules("sancho_classic")
    hand = run_deal(hands, rules=rules, bids={0: 10, 1: 0, 2: 0, 3: 0}, name_trump="H", plays=plays)
    rec = _record(rules, hand)
    assert hand.play_legal(1, 1) == {"5D", "2S", "3S", "4S", "6S"}
    assert [t["winner"] for t in rec["tricks"]] == [0, 3, 3, 3, 3, 3]
    res = rec["result"]
    assert res["points"] == [7, 11] and res["score"] == [-10, 11] and not res["made"]
    assert res["captured"] == {
        "high": 0, "low": 0, "jack": 1, "game": 1, "right_pedro": 0, "sancho": 1,
    }  # fmt: skip


def test_dom_pedro_classic_the_3_of_trumps_is_low_and_dom():
    """dom_pedro_classic: the deal above with 3H for 2H (the 2H is dead), so the 3H is
    the lowest trump in play: Low 1 and Dom 3. T0 s0 AH, KH, 5H, 3H: s0 takes High 1,
    Right Pedro 5, Low 1, Dom 3 = 10.  T1 s3 takes Sancho 9, Game 1, Jack 1 = 11.
    21 in all; seats 0+2 made their 10."""
    hands = {
        0: "AH 9H 2C 3C 4C 6C",
        1: "5D KH 2S 3S 4S 6S",
        2: "5H TH 7S 8S 9S TS",
        3: "JH 3H 2D 3D 4D 6D",
    }
    plays = {
        0: ["AH", "9H", "2C", "3C", "4C", "6C"],
        1: ["KH", "5D", "2S", "3S", "4S", "6S"],
        2: ["5H", "TH", "7S", "8S", "9S", "TS"],
        3: ["3H", "JH", "2D", "3D", "4D", "6D"],
    }
    rules = make_rules("dom_pedro_classic")
    hand = run_deal(hands, rules=rules, bids={0: 10, 1: 0, 2: 0, 3: 0}, name_trump="H", plays=plays)
    res = _record(rules, hand)["result"]
    assert res["points"] == [10, 11] and res["score"] == [10, 11] and res["made"]
    assert res["captured"] == {
        "high": 0, "low": 0, "jack": 1, "game": 1, "right_pedro": 0, "sancho": 1, "dom": 0,
    }  # fmt: skip


# -------------------------------------------------------------------- trumps_only
def test_trumps_only_when_the_maker_holds_no_trump():
    """Trump diamonds (Left Pedro 5H), robber none, everyone keeps six. Seat 0, the
    maker, holds no trump: the next seat clockwise that holds one (seat 1) leads, and
    a winner with no trump left hands the lead on the same way; seats without trumps
    sit out. T0 s1 2D, s2 6D, s3 JD: s3 takes Jack 1 and Low (2D) 1.  T1 s3 QD, s1 3D,
    s2 7D: s3.  T2 s3 has no trump left: s1 leads 4D, s2 8D: s2.  T3 s2 5H (Left
    Pedro), s1 5D (Right Pedro): s1 takes 5 + 5.  T4 s1 KD, T5 s1 AD: High 1. The 10
    of diamonds is not in play. Seats 1+3: 2 + 10 + 1 = 13; the maker's side took 0
    of its bid of 1: -1."""
    keeps = {
        0: "AH KH 2H 9C 8C 7C",
        1: "5D AD KD 2D 3D 4D",
        2: "5H 6D 7D 8D JH TC",
        3: "QD JD TH 9H 5C QS",
    }
    plays = {
        1: ["2D", "3D", "4D", "5D", "KD", "AD"],
        2: ["6D", "7D", "8D", "5H"],
        3: ["JD", "QD"],
    }
    rules = Rules(robber="none", follow_rule="trumps_only")
    hand = checked(
        run_deal(D1, rules=rules, maker=0, trump="D", bid=1, keeps=keeps, plays=plays), rules
    )
    assert hand.leaders() == [1, 3, 1, 2, 1, 1] and hand.winners() == [3, 3, 2, 1, 1, 1]
    assert hand.tricks()[0] == {1: "2D", 2: "6D", 3: "JD"}
    assert hand.points == (0, 13) and hand.score == (-1, 13)


# ----------------------------------------------------- the robber and must-discard
def test_the_robber_may_keep_non_trumps_under_must_discard_nontrumps():
    """robber=dealer, must_discard_nontrumps: every drawer throws all his non-trumps,
    but the robber (dealer, seat 3) keeps six of his hand and the stock's rest, and
    may keep non-trumps once his trumps (5D, 2H) are kept. Trump hearts. Seats 0, 1
    and 2 keep their hearts and draw 4S-7S, 8S 9S, TH 9H 8H 3H; the robber takes the
    last six, 2H TS JS QS KS AS, and keeps 5D 2H AD KD QD JD."""
    rules = Rules(robber="dealer", must_discard_nontrumps=True)
    keeps = {0: "4H 7H", 1: "AH KH QH JH", 2: "5H 6H"}
    deal = {"rules": rules, "maker": 1, "trump": "H", "bid": 1, "keeps": keeps}
    hand = checked(run_deal(D3, D3_STOCK, rob_keep={3: "5D 2H AD KD QD JD"}, **deal), rules)
    assert hand.drawn(3) == ["2H", "TS", "JS", "QS", "KS", "AS"]
    assert hand.robber_discard() == set("7D 8D 9D TD TS JS QS KS AS".split())
    # a drawer may not: seat 1 keeping the AC beside its hearts is refused
    with pytest.raises(PolicyError, match="discard policy .* at seat 1"):
        run_deal(D3, D3_STOCK, **{**deal, "keeps": {**keeps, 1: "AH KH QH JH AC"}})


# ------------------------------------------------------------- cut-throat for two
def test_cutthroat2_both_draw_to_six_and_nobody_robs():
    """Dealer seat 1, trump spades (Left Pedro 5C); seat 0 bids 8, seat 1 passes.
    Seat 0 keeps AS 5S and draws four (5C 9S 8D 7D); seat 1, the dealer, keeps JS TS
    2S KH and draws two (QD KD); nobody robs, the other 28 cards are dead.
    T0 s0 9S, s1 TS: s1 takes Game 1.  T1 s1 JS, s0 5C: s1 takes Jack 1 and Left
    Pedro 5.  T2 s1 2S, s0 AS: s0 takes High 1 and Low (2S) 1.  T3 s0 5S, s1 KH: s0
    takes Right Pedro 5.  T4 s0 8D, s1 QD: s1.  T5 s1 KD, s0 7D: s1.
    Seat 0 took 1 + 1 + 5 = 7 of its 8: set back 8; seat 1 scores 1 + 1 + 5 = 7."""
    hands = {0: "AS 5S 2C 3C 4C 6C 7C 8C 9C", 1: "JS TS 2S KH 8H 9H TH JH QH"}
    plays = {
        0: ["9S", "5C", "AS", "5S", "8D", "7D"],
        1: ["TS", "JS", "2S", "KH", "QD", "KD"],
    }
    rules = make_rules("cutthroat2")
    hand = run_deal(
        hands, "5C 9S 8D 7D QD KD", dealer=1, rules=rules, bids={0: 8, 1: 0},
        name_trump="S", keeps={0: "AS 5S", 1: "JS TS 2S KH"}, plays=plays,
    )  # fmt: skip
    rec = _record(rules, hand)
    assert rec["draws"] == [["5C", "9S", "8D", "7D"], ["QD", "KD"]]
    assert rec["robber_discards"] == []  # nobody robs: the record says so with []
    assert [t["winner"] for t in rec["tricks"]] == [1, 1, 0, 0, 1, 1]
    res = rec["result"]
    assert res["points"] == [7, 7] and res["score"] == [-8, 7] and not res["made"]
    assert res["captured"] == {
        "high": 0, "low": 0, "jack": 1, "game": 1, "right_pedro": 0, "left_pedro": 1,
    }  # fmt: skip


# ------------------------------------------------------- cut-throat for six, heasly
# Dealer seat 5, trump clubs (Left Pedro 5S); seat 2 bids 6, the others pass.
C6 = {
    0: "2H 3H 4H 6H 7H 8H",
    1: "2D 3D 4D 6D 7D 8D",
    2: "AC KC 9H TH JH QH",
    3: "9D TD JD QD KD AD",
    4: "2S 3S 4S 6S 7S 8S",
    5: "TC JC 9S TS JS QS",
}
C6_STOCK = "5C 2C 3C KH AH KS 5S QC 9C AS 4C 6C 7C 8C 5H 5D"
# Seats 0 and 1 throw all six and draw six each (16 - 12 = 4 left); seat 2 keeps AC KC
# and draws the last four (7C 8C 5H 5D); seats 3 and 4 must keep all six, and the
# dealer finds no stock to rob. Every trump is in play.
C6_KEEPS = {0: "", 1: "", 2: "AC KC", 3: C6[3], 4: C6[4]}
# T0 s2 AC, s3 9D, s4 2S, s5 TC, s0 2C, s1 4C: s2 takes High 1, Game 1, Low (2C) 1.
# T1 s2 KC, TD 3S, s5 JC, s0 3C, s1 6C: s2 takes Jack 1.
# T2 s2 8C, JD 4S 9S, s0 5C (its last trump), s1 9C: s1 takes Right Pedro 5.
# T3 s1 5S (Left Pedro), s2 7C, QD 6S TS KH: s2 takes Left Pedro 5.
# T4 s2 5H, KD 7S JS, s0 AH, s1 trumps with QC: s1.   T5 s1 AS, 5D AD 8S QS KS: s1.
# Seat 2: 3 + 1 + 5 = 9, made its 6; seat 1: 5; 14 in all: [0, 5, 9, 0, 0, 0].
C6_PLAYS = {
    2: ["AC", "KC", "8C", "7C", "5H", "5D"],
    3: ["9D", "TD", "JD", "QD", "KD", "AD"],
    4: ["2S", "3S", "4S", "6S", "7S", "8S"],
    5: ["TC", "JC", "9S", "TS", "JS", "QS"],
    0: ["2C", "3C", "5C", "KH", "AH", "KS"],
    1: ["4C", "6C", "9C", "5S", "QC", "AS"],
}


@pytest.mark.parametrize("preset", ["cutthroat6", "heasly"])
def test_six_players_draw_one_for_one_until_the_stock_runs_out(preset):
    rules = make_rules(preset)
    hand = run_deal(
        C6, C6_STOCK, dealer=5, rules=rules, bids={0: 0, 1: 0, 2: 6, 3: 0, 4: 0, 5: 0},
        name_trump="C", keeps=C6_KEEPS, rob_keep={5: C6[5]}, plays=C6_PLAYS,
    )  # fmt: skip
    rec = _record(rules, hand)
    assert rec["draws"] == [
        ["5C", "2C", "3C", "KH", "AH", "KS"],
        ["5S", "QC", "9C", "AS", "4C", "6C"],
        ["7C", "8C", "5H", "5D"],
        [], [], [],
    ]  # fmt: skip
    # the least each must keep: 0 while six can be replaced, then 6 - 4, then all
    assert [hand.record("discard", s, 4) for s in range(5)] == [0, 0, 2, 6, 6]
    assert [t["winner"] for t in rec["tricks"]] == [2, 2, 1, 2, 1, 1]
    res = rec["result"]
    assert res["points"] == [0, 5, 9, 0, 0, 0] and res["score"] == [0, 5, 9, 0, 0, 0]
    assert res["made"]
    assert res["captured"] == {
        "high": 2, "low": 2, "jack": 2, "game": 2, "right_pedro": 1, "left_pedro": 2,
    }  # fmt: skip


# -------------------------------------------------------------------------- pidro
def test_pidro_as_a_whole():
    """pidro, dealer 3: the first three pass and the dealer must bid (6, the least);
    trump spades (Left Pedro 5C). Every drawer throws all his non-trumps and draws
    (4S TD JD QD to seat 0, 6S KD AD 5D to seat 1, 7S TC JC QC to seat 2); the dealer
    robs the last four and keeps his five trumps and the AH. Only trumps are played.
    T0 s3 8S, s0 2S, s1 3S, s2 7S: s3 wins, but Low (the 2 of trumps) goes to the
    side of whoever played it: seats 0+2, 1.  T1 s3 5C, s0 9S, s1 6S, s2 QS: s2 takes
    the Left Pedro 5.  T2 s2 KS, s3 JS, s0 4S, s1 AS: s1 takes High 1 and Jack 1.
    T3 s1 has no trump left, nor s2: s3 leads TS alone (Game 1), T4 5S (Right Pedro
    5). Seats 0+2: 1 + 5 = 6; seats 1+3: 1 + 1 + 1 + 5 = 8, their bid of 6 made."""
    hands = {
        0: "2S 9S 2H 3H 4H 6H 7H 8H 9H",
        1: "AS 3S 2D 3D 4D 6D 7D 8D 9D",
        2: "KS QS 2C 3C 4C 6C 7C 8C 9C",
        3: "JS TS 5S 5C TH JH QH KH AH",
    }
    plays = {
        3: ["8S", "5C", "JS", "TS", "5S"],
        0: ["2S", "9S", "4S"],
        1: ["3S", "6S", "AS"],
        2: ["7S", "QS", "KS"],
    }
    rules = make_rules("pidro")
    hand = run_deal(
        hands, "4S TD JD QD 6S KD AD 5D 7S TC JC QC 8S KC AC 5H", rules=rules,
        bids={0: 0, 1: 0, 2: 0, 3: 6}, name_trump="S",
        keeps={0: "2S 9S", 1: "AS 3S", 2: "KS QS"}, rob_keep={3: "JS TS 5S 5C 8S AH"},
        plays=plays,
    )  # fmt: skip
    rec = _record(rules, hand)
    assert rec["bids"] == [[0, None], [1, None], [2, None], [3, 6]]
    assert [len(d) for d in rec["discards"]] == [7, 7, 7, 0]
    assert rec["robber_discards"] == ["TH", "JH", "QH", "KH", "KC", "AC", "5H"]
    assert [(t["leader"], t["winner"]) for t in rec["tricks"]] == [
        (3, 3), (3, 2), (2, 1), (3, 3), (3, 3),
    ]  # fmt: skip
    assert rec["tricks"][3]["cards"] == ["TS"]  # nobody else holds a trump
    res = rec["result"]
    assert res["points"] == [6, 8] and res["score"] == [6, 8] and res["made"]
    assert res["captured"] == {
        "high": 1, "low": 0, "jack": 1, "game": 1, "right_pedro": 1, "left_pedro": 0,
    }  # fmt: skip


@pytest.mark.parametrize("offender", [1, 4])
def test_a_renege_in_cutthroat5_scores_as_the_rules_say(offender):
    """The cut-throat deal above with one renege typed in (the points unchanged):
    - seat 1 plays 5C in T1, the KH lead, while holding 4H, and 4H in T2 for it: an
      opponent of the maker reneges, so he scores 0, the maker is credited as made
      with the preset's 14, and every other player scores 0: [0, 0, 0, 0, 14];
    - the maker (seat 4) plays TC in T3, the JH lead, while holding 5D (a trump), and
      5D in T5 (where 8H still takes it: seat 0 wins the Left Pedro there instead):
      the maker is set back by his bid of 7 and everyone else scores 0."""
    from cinch_sim.records import referee_record

    rules = make_rules("cutthroat5")
    rec = _record(rules, _cutthroat5(rules))
    first, later = {1: (1, 2), 4: (3, 5)}[offender]
    a = rec["tricks"][first]["cards"]
    b = rec["tricks"][later]["cards"]
    i = (offender - rec["tricks"][first]["leader"]) % 5
    j = (offender - rec["tricks"][later]["leader"]) % 5
    a[i], b[j] = b[j], a[i]
    score = [0, 0, 0, 0, 14] if offender == 1 else [0, 0, 0, 0, -7]
    rec["result"]["score"], rec["result"]["made"] = score, offender != 4
    rec["result"]["renege"] = {"seat": offender, "trick": first}
    verdict = referee_record(rec)
    assert verdict.status == "renege", verdict
    assert verdict.check.result()["score"] == score
    assert verdict.check.result()["points"] == [12, 0, 0, 0, 2]
    assert verdict.check.result()["renege"] == {"seat": offender, "trick": first}
