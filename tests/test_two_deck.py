"""Two decks (docs/rules.md §3.4, the ``two_deck`` preset): hand-built deals with the points
worked out by hand, invariants over random hands, records through the referee, and
the refusals of everything built on the double-dummy solver.

Cards are numbered suit * 13 + rank (suits C S D H, ranks 2..A), so a 52-bit mask
holds faces; with two decks a hand is two planes (faces held, faces held twice)
and the trace and records hold each face as many times as it is dealt."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter

import numpy as np
import pytest
from helpers import SUIT, cards, scripted_policies

from cinch_sim import api
from cinch_sim import layout as L
from cinch_sim.cards import format_card, parse_card
from cinch_sim.engine.run import Conditions, PolicySet, run_chunk
from cinch_sim.policies.loading import PolicyError
from cinch_sim.records.referee import check_hand, trump_suit
from cinch_sim.records.writer import iter_hand_records
from cinch_sim.rules import make_rules

TWO = make_rules("two_deck")
# The preset without its draw, six cards each: small enough to script every play
# (the scripted policies script six tricks); the other 80 cards are dead.
SIX = dataclasses.replace(TWO, preset="two_deck_six", cards_dealt=6, hand_size=6, draw=False,
                          robber="none")  # fmt: skip
SLOT = TWO.point_slots  # name -> result slot


def deck104(hands: dict[int, str], rules, dealer: int = 3, stock_top: str = "") -> list[int]:
    """A 104-card deal order (faces, each twice) giving each seat its cards in threes
    from the dealer's left; the stock is ``stock_top`` (top first), then the rest in
    ascending order."""
    P, D = rules.players, rules.cards_dealt
    deck: list[int] = [-1] * (P * D)
    for j in range(P):
        seat = (dealer + 1 + j) % P
        h = cards(hands[seat])
        assert len(h) == D
        for r in range(D // 3):
            for k in range(3):
                deck[r * 3 * P + j * 3 + k] = h[r * 3 + k]
    top = cards(stock_top)
    left = Counter({c: 2 for c in range(52)})
    left.subtract(deck + top)
    assert min(left.values()) >= 0, "a card is given three times"
    return deck + top + sorted(left.elements())


def play_scripted(hands, plays, trump, rules=SIX, maker=0, bid=1):
    """One hand-built deal, every play scripted (seat -> card per trick)."""
    ps = scripted_policies(4)
    for s, seq in plays.items():
        for t, c in enumerate(seq):
            if c:  # None: the lowest legal card
                ps.board[3, s, t] = parse_card(c)
    cond = Conditions(deck=deck104(hands, rules), force_maker=maker,
                      force_trump=SUIT[trump], force_bid=bid)  # fmt: skip
    out, tr = run_chunk(rules, ps, 1, 0, 1, 3, cond, trace=True)
    return out[0], tr[0]


def teams_of(out, name: str) -> list[int]:
    """The sides credited with a point, one per copy in play (sorted)."""
    k = SLOT[name]
    return sorted(int(t) for t in (out[L.H_SLOT_TEAM + k], out[L.H2_SLOT_TEAM + k]) if t >= 0)


def tricks_of(tr) -> list[dict[int, str]]:
    res = []
    for t in range(int(tr[L.T_N_TRICKS])):
        leader = int(tr[L.T_LEADER + t])
        res.append(
            {(leader + k) % 4: format_card(int(tr[L.T_PLAYS + t * L.MAX_PLAYERS + k]))
             for k in range(4)}
        )  # fmt: skip
    return res


# ------------------------------------------------------------ the whole preset
# two_deck as dealt: 18 each, 32 in the stock, the draw to 12, the maker robs and
# keeps 12, twelve tricks. Dealer 3, maker seat 0 (eldest) at 14 in hearts: the Left
# Pedro is 5D, 28 trumps, every one in play below.
WHOLE = {
    0: "KH KH QH QH JH JH TH TH 9H 9H 5H 5H 2C 2C 3C 3C 4C 4C",
    1: "AH AH 5D 5D 2H 2H 4H 4H 3H 3H 2S 2S 3S 3S 4S 4S 6S 6S",
    2: "6C 6C 7C 7C 8C 8C 9C 9C TC TC JC JC QC QC 5S 5S 7S 7S",
    3: "8H 8H 7H 7H 6H 6H 2D 2D 3D 3D 4D 4D 6D 6D 7D 7D 8D 8D",
}
# Each keeps both copies of the faces named: seat 1 twelve (no draw), seat 2 six
# (draws KC KC AC AC 5C 5C), seat 3 ten (draws QD QD). The maker, who robs, waits,
# then takes the other 24 and keeps his twelve hearts (his 12 trumps: all there are
# for him), setting aside 30.
WHOLE_STOCK = "KC KC AC AC 5C 5C QD QD"
WHOLE_KEEP = {1: "AH 5D 2H 4H 3H 2S", 2: "9C TC JC", 3: "8H 7H 6H 8D 7D"}
# T1, T2 s0 9H, s1 2H, s2 5C, s3 6H: s0 takes each copy of Low (2H, the lowest rank in
#   play) 1 + 1.   T3 s0 TH, s1 AH, 9C 7H: s1 takes High 1 and Game 1.
# T4 s1 the other AH, 9C 7H, s0 TH: s1 again, High 1 and Game 1.
# T5 s1 5D, TC 8H, s0 JH: s0 takes Left Pedro 5 and Jack 1.   T6 s0 JH, s1 5D, TC
#   8H: the same, 6.   T7-T12, each the lowest legal card: s0 leads 5H, 5H, QH, QH,
#   KH, KH and wins them all, the two Right Pedros among them (5 + 5).
# Seats 0+2: 2 + 12 + 10 = 24, made; seats 1+3: 4. 28 points, as many as the preset has.
WHOLE_PLAYS = {
    0: ["9H", "9H", "TH", "TH", "JH", "JH"],
    1: ["2H", "2H", "AH", "AH", "5D", "5D"],
    2: ["5C", "5C", "9C", "9C", "TC", "TC"],
    3: ["6H", "6H", "7H", "7H", "8H", "8H"],
}


def play_dealt(hands, stock_top, keeps, rob_keep, plays=None, discard=None) -> dict:
    """The whole preset, dealt as given (dealer 3), seat 0 bidding 14 in hearts and the
    others passing; ``keeps`` (and the robber's ``rob_keep``) name faces kept in both
    passes (the face, then its copy), or ``discard`` names a built-in discard for seat
    0 (the maker, who robs): the hand's record, checked by the referee."""
    import json

    from helpers import mask

    from cinch_sim.records.writer import hand_record

    ps = scripted_policies(4)
    for s, bid in {0: 14, 1: 0, 2: 0, 3: 0}.items():
        ps.board[0, s, 0] = bid
    ps.board[1, :, 0] = SUIT["H"]
    for s, keep in keeps.items():
        ps.board[2, s, 0] = mask(keep)
    ps.board[2, 0, 1] = mask(rob_keep)
    if discard is not None:  # a built-in's choice, with its own parameters
        builtin = PolicySet.from_specs(4, discard=discard)
        ps.discard[0] = builtin.discard[0]
        ps.board[2, 0, :] = builtin.params(TWO)[2, 0, :]
    for s, seq in (plays or {}).items():
        for t, c in enumerate(seq):
            ps.board[3, s, t] = parse_card(c)
    cond = Conditions(deck=deck104(hands, TWO, 3, stock_top))
    out, tr = run_chunk(TWO, ps, 1, 0, 1, 3, cond, trace=True)
    rec = json.loads(json.dumps(hand_record(TWO, out[0], tr[0])))
    assert check_hand(rec).status == "valid"
    return rec


def test_the_whole_preset_deals_draws_robs_and_plays_twelve_tricks():
    rec = play_dealt(WHOLE, WHOLE_STOCK, WHOLE_KEEP, "KH QH JH TH 9H 5H", WHOLE_PLAYS)
    assert [len(d) for d in rec["discards"]] == [0, 6, 12, 8]
    assert rec["draws"][1:] == [[], ["KC", "KC", "AC", "AC", "5C", "5C"], ["QD", "QD"]]
    assert len(rec["draws"][0]) == 24 and len(rec["robber_discards"]) == 30
    assert not set(rec["robber_discards"]) & set("KH QH JH TH 9H 5H".split())
    assert len(rec["tricks"]) == 12
    assert [t["winner"] for t in rec["tricks"]] == [0, 0, 1, 1, 0, 0] + [0] * 6
    assert [t["cards"][0] for t in rec["tricks"][6:]] == ["5H", "5H", "QH", "QH", "KH", "KH"]
    res = rec["result"]
    assert res["points"] == [24, 4] and res["score"] == [24, 4] and res["made"]
    assert res["captured"] == {
        "high": [1, 1], "low": [0, 0], "jack": [0, 0], "game": [1, 1],
        "right_pedro": [0, 0], "left_pedro": [0, 0],
    }  # fmt: skip


def test_a_robber_with_more_trumps_than_he_keeps_may_keep_any_twelve():
    """The robber (the maker, seat 0) holds 18 hearts and robs 4H 4H 3H 3H among the
    22 cards left: 22 trumps. He keeps both copies of A K Q J 10 9 and sets aside
    both 8s, 7s, 6s, 4s and 3s: pass 1 keeps six of his eleven trump faces (at least
    12 - 11 second copies = 1), pass 2 their six second copies. The engine asked him
    for every face once before (docs/policies.md, two passes), so this was refused."""
    hands = {
        0: "AH AH KH KH QH QH JH JH TH TH 9H 9H 8H 8H 7H 7H 6H 6H",
        1: "5H 5H 5D 5D 2H 2H 2S 2S 3S 3S 4S 4S 6S 6S 7S 7S 8S 8S",
        2: "2C 2C 3C 3C 4C 4C 6C 6C 7C 7C 8C 8C 9C 9C TC TC JC JC",
        3: "2D 2D 3D 3D 4D 4D 6D 6D 7D 7D 8D 8D 9D 9D TD TD JD JD",
    }
    keeps = {1: "5H 5D 2H 2S 3S 4S", 2: "9C TC JC", 3: "TD JD 9D 8D"}
    rec = play_dealt(hands, "QC QC KC KC AC AC QD QD KD KD", keeps, "AH KH QH JH TH 9H")
    assert len(rec["draws"][0]) == 22
    aside = rec["robber_discards"]
    assert sorted(c for c in aside if c.endswith("H")) == sorted(
        "8H 8H 7H 7H 6H 6H 4H 4H 3H 3H".split()
    )
    led = [c for t in rec["tricks"] for c in t["cards"] if c[-1] == "H" and c[0] in "AKQJT9"]
    assert len(led) == 12  # both copies of each of his six faces played


# ------------------------------------------------------------------ deal A
# Trump hearts (the Left Pedro 5D is not in play). Maker seat 0 leads.
A = {
    0: "AH 5H 9C 8C 7C 6C",
    1: "QH 2S 3S 4S 6S 7S",
    2: "QH 3H 8S 9S TS JS",
    3: "5H 2H 2D 3D 4D 6D",
}
A_PLAYS = {
    0: ["9C", "5H", "AH", "8C", "7C", "6C"],
    1: ["QH", "2S", "3S", "4S", "6S", "7S"],
    2: ["QH", "8S", "3H", "9S", "TS", "JS"],
    3: ["5H", "2D", "2H", "3D", "4D", "6D"],
}
# T1 s0 9C, s1 QH, s2 QH, s3 5H: all void in clubs, three trumps. The two QH are
#    identical: the first played (seat 1, team 1) wins, not seat 2 (team 0). Team 1
#    takes a Right Pedro (5).
# T2 s1 leads 2S; s2 8S (follows), s3 2D, s0 5H (void: trumps) -> 5H wins, seat 0:
#    the other Right Pedro (5) to team 0.
# T3 s0 AH; s1 3S (no trump left), s2 3H, s3 2H (forced) -> AH: High 1 and Low (2H,
#    the lowest trump in play, one copy) 1 to team 0.
# T4-T6 s0 leads clubs, nobody else holds one or a trump: seat 0 wins each.
# Team 0: 5 + 1 + 1 = 7; team 1: 5. No Jack, Game or Left Pedro in play.


def test_the_first_of_two_identical_cards_wins_and_each_pedro_copy_scores():
    out, tr = play_scripted(A, A_PLAYS, "H")
    assert out[L.H_ERROR] == 0
    assert tricks_of(tr)[0] == {0: "9C", 1: "QH", 2: "QH", 3: "5H"}
    assert [int(tr[L.T_WINNER + t]) for t in range(6)] == [1, 0, 0, 0, 0, 0]
    assert int(tr[L.T_LEADER + 1]) == 1  # the first QH's seat leads the next trick
    assert (out[L.H_POINTS], out[L.H_POINTS + 1]) == (7, 5)
    assert teams_of(out, "right_pedro") == [0, 1]  # one copy to each side
    # the copy played first (trick 1, seat 3) in the first slot, the second (trick 2,
    # seat 0) in the second-copy slot
    k = SLOT["right_pedro"]
    assert (out[L.H_SLOT_TRICK + k], out[L.H_SLOT_PLAYER + k]) == (0, 3)
    assert (out[L.H2_SLOT_TRICK + k], out[L.H2_SLOT_PLAYER + k]) == (1, 0)
    assert teams_of(out, "high") == [0] and teams_of(out, "low") == [0]
    assert teams_of(out, "jack") == teams_of(out, "left_pedro") == []


# ------------------------------------------------------------------ deal B
# Trump spades (the Left Pedro is 5C, not in play). Both copies of 2S, the lowest
# trump rank in play, are in play: Low scores 1 per copy, each to its capturer.
B = {
    0: "2S KH 8H 7H 6H 5H",
    1: "2S 3D 4D 6D 7D 8D",
    2: "AS JS 3C 4C 6C 7C",
    3: "KS QS 9D TD QD JD",
}
B_PLAYS = {
    0: ["KH", "2S", "8H", "7H", "6H", "5H"],
    1: ["2S", "3D", "4D", "6D", "7D", "8D"],
    2: ["3C", "AS", "JS", "4C", "6C", "7C"],
    3: ["KS", "QS", "9D", "TD", "QD", "JD"],
}
# T1 s0 KH; s1 2S, s2 3C, s3 KS (all void in hearts) -> KS, seat 3: the first 2S,
#    Low's first copy, to team 1.
# T2 s3 leads QS; s0 2S (his only trump), s1 3D, s2 AS -> AS, seat 2: High 1 and
#    Low's second copy 1 to team 0.
# T3 s2 JS; nobody else has a trump -> seat 2: Jack 1 to team 0.
# T4-T6 s2 leads clubs, nobody follows or trumps: seat 2 wins.
# Team 0: 1 + 1 + 1 = 3; team 1: 1.


def test_low_scores_each_copy_of_the_lowest_trump():
    out, tr = play_scripted(B, B_PLAYS, "S")
    assert out[L.H_ERROR] == 0
    assert [int(tr[L.T_WINNER + t]) for t in range(6)] == [3, 2, 2, 2, 2, 2]
    assert (out[L.H_POINTS], out[L.H_POINTS + 1]) == (3, 1)
    assert teams_of(out, "low") == [0, 1]
    k = SLOT["low"]
    assert (out[L.H_SLOT_TRICK + k], out[L.H_SLOT_PLAYER + k]) == (0, 1)  # played first
    assert (out[L.H2_SLOT_TRICK + k], out[L.H2_SLOT_PLAYER + k]) == (1, 0)
    assert teams_of(out, "high") == teams_of(out, "jack") == [0]
    assert teams_of(out, "right_pedro") == []


def test_a_card_held_twice_can_be_played_twice():
    # Deal A with seat 0 holding both AH (and not 6C): he leads one in trick 3 and the
    # other in trick 5 (nobody has a trump left: 6S, TS, 4D follow), the 7C last. A
    # face held twice stays in his hand after the first copy is played.
    hands = {**A, 0: "AH AH 9C 8C 7C 5H"}
    plays = {**A_PLAYS, 0: ["9C", "5H", "AH", "8C", "AH", None]}
    out, tr = play_scripted(hands, plays, "H")
    assert out[L.H_ERROR] == 0
    played = [c for t in tricks_of(tr) for c in t.values()]
    assert Counter(played)["AH"] == 2
    # Both Highs to team 0 (tricks 3 and 5, both won by seat 0): 5 + 2 + 1 = 8 and 5.
    assert teams_of(out, "high") == [0, 0]
    assert (out[L.H_POINTS], out[L.H_POINTS + 1]) == (8, 5)


def test_an_illegal_card_names_the_faces_the_policy_could_play():
    # Deal A, but seat 2 holds 8S twice and a diamond: on trick 2's 2S lead it must
    # follow spades or trump (may_trump), so its legal faces are 8S TS 3H (card order),
    # the 8S once (a face mask); the 7D it plays is refused with them listed.
    hands = {**A, 2: "QH 3H 8S 8S TS 7D"}
    plays = {**A_PLAYS, 2: ["QH", "7D"]}
    with pytest.raises(PolicyError, match=r"illegal card 7D \(legal here: 8S TS 3H\)"):
        play_scripted(hands, plays, "H")


# ------------------------------------------------------------------ random hands
MIXES = {
    "random": ("random",) * 4,
    "heuristic": ("heuristic",) * 4,
    "w3": ("simple", "simple", "simple", "greedy"),
}


@pytest.fixture(scope="module", params=list(MIXES))
def played(request):
    ps = PolicySet.from_specs(4, *MIXES[request.param])
    out, tr = run_chunk(TWO, ps, 11, 0, 400, dealer=2, trace=True)
    return out, tr, list(iter_hand_records(TWO, out, tr))


def test_random_hands_deal_each_card_twice_and_play_twelve_tricks(played):
    out, tr, recs = played
    assert out.shape[1] == L.row_len(2) and tr.shape[1] == L.trace_len(2)
    for rec in recs:
        assert [len(h) for h in rec["hands"]] == [18] * 4 and len(rec["stock"]) == 32
        every = Counter(c for h in rec["hands"] for c in h) + Counter(rec["stock"])
        assert len(every) == 52 and set(every.values()) == {2}
        if "tricks" in rec:
            assert len(rec["tricks"]) == 12  # twelve cards each after the draw
    assert (out[:, L.H_N_TRICKS] == 12).all()


def test_random_hands_pass_the_referee_and_round_trip(played):
    _, _, recs = played
    for rec in recs:
        hc = check_hand(rec)  # every play legal, every point recomputed per copy
        assert hc.status == "valid"
        assert hc.to_record() == rec


def test_points_are_the_point_cards_in_play(played):
    """Each side's points add up to the copies of the point cards in play (28 at most),
    High and Low counted per copy of the ace and of the lowest trump rank in play."""
    out, _, recs = played
    for row, rec in zip(out, recs, strict=True):
        hc = check_hand(rec)
        ts = trump_suit(TWO, hc.trump)
        held = Counter(c for h in hc.after_draw for c in h)
        trumps = [c for c in held if ts.is_trump(c)]
        low = min(trumps, key=lambda c: ts.strength[c])
        want = held[parse_card(f"A{'CSDH'[hc.trump]}")] + held[low]  # High, Low
        for _, rank, pts in TWO.point_cards:
            want += pts * held[parse_card(rank + "CSDH"[hc.trump])]
        want += TWO.left_points * held[ts.left]
        got = int(row[L.H_POINTS] + row[L.H_POINTS + 1])
        assert got == want <= 28


def test_one_and_two_threads_give_the_same_hands():
    ps = PolicySet.from_specs(4, "heuristic", "heuristic", "heuristic", "heuristic")
    one = api.simulate(hands=3000, seed=4, variant="two_deck", threads=1)
    two = api.simulate(hands=3000, seed=4, variant="two_deck", threads=2)
    assert one.table().equals(two.table())
    a = run_chunk(TWO, ps, 4, 0, 500, trace=True)
    from cinch_sim.engine.run import iter_chunks

    chunks = list(iter_chunks(TWO, ps, 500, 4, 3, chunk=128, threads=2, trace=True))
    rows = np.concatenate([c[0] for c in chunks])
    trace = np.concatenate([c[1] for c in chunks])
    assert np.array_equal(a[0], rows) and np.array_equal(a[1], trace)


def test_the_policies_see_face_masks_and_the_second_plane():
    # hand and legal stay 52-bit face masks: the observing test policies of the one-deck
    # game play two decks legally (checked by the kernel), and O_HAND2 holds the faces
    # held twice, a subset of the hand
    ps = PolicySet.from_specs(4, "random", "random", "random", "random")
    out, _ = run_chunk(TWO, ps, 3, 0, 200)
    assert (out[:, L.H_ERROR] == 0).all()
    assert L.O_HAND2 < L.OBS_LEN and L.O_KEPT < L.OBS_LEN


# ------------------------------------------------------------------ refusals
def test_the_solver_and_pimc_are_not_refused():
    """The solver and PIMC play two decks (tests/test_solver.py, tests/test_pimc.py
    check their values): no refusal is left before any hand is played."""
    from cinch_sim.engine.run import check_solver_players

    check_solver_players(TWO, PolicySet.from_specs(4, play="pimc"))


def test_the_report_reads_two_decks():
    """The report's example hands are its nine cards twice, labelled so; PIMC's card
    values are left out by default (twelve tricks), and said why."""
    from cinch_sim.report.build import ReportSettings, example_hands

    hands = example_hands(TWO)
    assert all(len(text.split()) == 18 for text, _ in hands)
    text, label = hands[0]
    assert Counter(text.split())["AS"] == 2 and label.endswith(", each twice")
    assert label.startswith("The A, K, Right Pedro and Left Pedro of spades")
    rs = ReportSettings(hands=20_000, rules=TWO)
    assert set(rs.card_hands()) == {"heuristic"}
    assert "with two decks" in rs.card_players_left_out()
    assert "pimc" in ReportSettings(hands=20_000).card_hands()


def test_card_values_swap_one_copy():
    """A copy of the Right Pedro is worth points to the maker under two decks, and the
    swap keeps each face twice in the replayed deck."""
    from cinch_sim.analysis.card_values import swapped

    deck = [0, 1, 2, 1, 3, 0, 2, 3]  # maker dealt positions 0..3: faces 0, 1, 2, 1
    out = swapped(deck, [1], [3], maker_at=[0, 1, 2, 3])
    assert out == [0, 3, 2, 1, 1, 0, 2, 3]  # his first 1 for the first 3, which lay at 4
    cv = api.card_values(hands=1000, seed=3, variant="two_deck")  # lower end 0.21
    values = cv.table().set_index("card")
    assert values.loc["Right Pedro", "lo"] > 0
    assert "one copy is swapped" in cv.method()


def _first_record_with(recs, test):
    return next(rec for rec in recs if test(rec))


def test_the_referee_refuses_what_two_decks_do_not_allow(played):
    import copy

    from cinch_sim.records.parse import RecordError

    _, _, recs = played

    # a trick won by the first of two identical cards: crediting the second copy's
    # seat is refused (the first played of two identical cards wins)
    def twin(rec):
        """(trick index, the seat that played the winning card's second copy) or None."""
        for i, t in enumerate(rec.get("tricks", [])):
            seats = [(t["leader"] + k) % 4 for k in range(4)]
            won = t["cards"][seats.index(t["winner"])]
            copies = [s for s, c in zip(seats, t["cards"], strict=True) if c == won]
            if len(copies) == 2:
                return i, copies[1]
        return None

    rec = copy.deepcopy(_first_record_with(recs, twin))
    i, second = twin(rec)
    rec["tricks"][i]["winner"] = second
    with pytest.raises(RecordError, match="wins with") as err:
        check_hand(rec)
    assert err.value.field == f"tricks[{i}].winner"
    # a third copy of a card
    rec = copy.deepcopy(recs[0])
    rec["stock"][0] = rec["hands"][0][0]
    rec["stock"][1] = rec["hands"][0][0]
    with pytest.raises(RecordError, match="a third copy of|duplicate"):
        check_hand(rec)
    # each of the 52 cards exactly twice: a stock card left out
    rec = copy.deepcopy(recs[0])
    gone = rec["stock"].pop()
    with pytest.raises(RecordError, match=f"exactly twice .*short of {gone}"):
        check_hand(rec)

    # points per copy: a copy credited to the wrong side
    def split_pedros(r):
        return r.get("result", {}).get("captured", {}).get("right_pedro") == [0, 1]

    rec = copy.deepcopy(_first_record_with(recs, split_pedros))
    rec["result"]["captured"]["right_pedro"] = [1, 1]
    with pytest.raises(RecordError, match="captured.right_pedro"):
        check_hand(rec)
    # the one-deck form of a captured value is refused too
    rec["result"]["captured"]["right_pedro"] = 0
    with pytest.raises(RecordError, match="captured.right_pedro"):
        check_hand(rec)


# ------------------------------------------------------------ fixed cards, the advisor
def _dealt(trace_row: np.ndarray, rules, dealer: int = 3) -> dict[int, Counter]:
    """Each seat's dealt cards (with copies) read off a trace row's 104-card deal order:
    packets of three from the dealer's left."""
    deck = list(trace_row[L.T_DECK : L.T_DECK + 52]) + list(trace_row[L.T_DECK2 : L.T_DECK2 + 52])
    P, D = rules.players, rules.cards_dealt
    hands: dict[int, Counter] = {s: Counter() for s in range(P)}
    pos = 0
    for _ in range(D // 3):
        for j in range(P):
            hands[(dealer + 1 + j) % P].update(deck[pos : pos + 3])
            pos += 3
    return hands


def test_fixed_cards_may_be_dealt_twice():
    """The advisor's deals: seat 0 is dealt its 18 cards (five faces twice) and seat 1
    the KS and 5C; the KS, held once by each, and the 5C, once by each, are then
    placed twice, so no copy of them is left to the shuffle. Every deal still holds
    every face exactly twice."""
    from cinch_sim.cards import parse_cards, to_mask

    mine = parse_cards("AS AS KS 5S 5S 5C 2S 9H 3D 7C JD JD 4H 4H 8C 8C TS QS")
    cond = Conditions(
        fixed={0: to_mask(mine), 1: to_mask(parse_cards("KS 5C"))},
        fixed_twice={0: to_mask(parse_cards("AS 5S JD 4H 8C"))},
    )
    ps = PolicySet.from_specs(4, "random", "random", "random", "random")
    _, tr = run_chunk(TWO, ps, 5, 0, 60, 3, cond, True)
    ks, c5 = parse_card("KS"), parse_card("5C")
    for row in tr:
        deck = list(row[L.T_DECK : L.T_DECK + 52]) + list(row[L.T_DECK2 : L.T_DECK2 + 52])
        assert Counter(deck) == Counter(list(range(52)) * 2)
        hands = _dealt(row, TWO)
        assert hands[0] == Counter(mine)
        assert hands[1][ks] == 1 and hands[1][c5] == 1  # the other copies are seat 0's
        assert all(hands[s][ks] == 0 and hands[s][c5] == 0 for s in (2, 3))


def test_a_face_twice_needs_two_decks():
    from cinch_sim.cards import parse_cards, to_mask

    m = to_mask(parse_cards("AS"))
    with pytest.raises(ValueError, match="one deck: no card can be dealt twice"):
        Conditions(fixed={0: m}, fixed_twice={0: m}).check(make_rules("standard"))
    with pytest.raises(ValueError, match="must be among its fixed cards"):
        Conditions(fixed={0: 0}, fixed_twice={0: m}).to_setup(3)


@pytest.mark.parametrize(
    "hand, known, message",
    [
        ("AS AS AS KS 5S 5C 2S 9H 3D 7C JD JD 4H 4H 8C 8C TS QS", [], "AS is given 3 times"),
        ("AS AS KS 5S 5C 2S 9H 3D 7C JD JD 4H 4H 8C 8C TS QS", [], "needs 18 cards, got 17"),
        ("AS AS KS 5S 5S 5C 2S 9H 3D 7C JD JD 4H 4H 8C 8C TS QS", ["1:AS"],
         "AS is in the pack twice, and both copies are already placed: your hand (both "
         "copies)"),
        ("AS KH KS 5S 5S 5C 2S 9H 3D 7C JD JD 4H 4H 8C 8C TS QS", ["1:AS", "2:AS"],
         "AS is in the pack twice, and both copies are already placed: your hand and seat "
         "1's known cards"),
        ("AS KH KS 5S 5S 5C 2S 9H 3D 7C JD JD 4H 4H 8C 8C TS QS", ["1:QD,QD,QD"],
         "QD is in the pack twice, and both copies are already placed: seat 1's known "
         "cards (both copies)"),
    ],
)  # fmt: skip
def test_the_advisor_reads_cards_held_twice(hand, known, message):
    from cinch_sim.advisor import AdvisorError
    from cinch_sim.advisor.query import make_query
    from cinch_sim.cards import CardError

    with pytest.raises((AdvisorError, CardError), match=re.escape(message)):
        make_query(hand, 0, known=known, rules=TWO)


def test_the_advisor_fixes_the_faces_held_twice():
    from cinch_sim.advisor.query import make_query
    from cinch_sim.cards import parse_cards, to_mask

    hand = "AS AS KS 5S 5S 5C 2S 9H 3D 7C JD JD 4H 4H 8C 8C TS QS"
    q = make_query(hand, 0, known=["1:AH AH"], rules=TWO)
    assert q.fixed() == {0: to_mask(parse_cards(hand)), 1: to_mask(parse_cards("AH"))}
    assert q.fixed_twice() == {0: to_mask(parse_cards("AS 5S JD 4H 8C")),
                               1: to_mask(parse_cards("AH"))}  # fmt: skip


def test_one_deck_still_refuses_a_card_twice():
    from cinch_sim.advisor.query import make_query
    from cinch_sim.cards import CardError

    with pytest.raises(CardError, match="duplicate card AS"):
        make_query("AS AS KS 5S 5C 2S 9H 3D 7C", 0)


def test_advise_plays_two_decks():
    """A hand with both Right Pedros, both aces and the king of spades: spades is the
    trump to name, and its make rate at a bid of 14 (half the 28 points) is high."""
    adv = api.advise(
        "AS AS KS 5S 5S 5C 2S 9H 3D 7C JD JD 4H 4H 8C 8C TS QS",
        seat=0, variant="two_deck", max_hands=400, seed=2,
    )  # fmt: skip
    assert adv.best_trump == "S"
    suits = adv.table("suits").set_index("trump")
    assert suits.loc["S", "mean_points"] > suits.drop("S")["mean_points"].max()


def test_the_solvers_limit_has_one_value():
    """limits.py keeps the search's bound without importing numba (the CLI's --help
    stays instant); the two must agree."""
    from cinch_sim.solver import limits, search

    assert limits.MAX_COPIES2 == search.MAX_COPIES2


# The heuristic's own keep with more trumps than the hand holds. Seat 0 (maker at 14
# in hearts, the robber) is dealt one copy of every heart but the 5, both 5H (Right
# Pedro) and both 5D (Left Pedro): 14 trump faces and 2 second copies, 16 trumps, and
# robs no more (seat 1 holds the other hearts). By points, a copy beside its face, the
# best 12 are 5H 5H 5D 5D (5 each), then the one-pointers A (High), J (Jack), 10
# (Game) and 2 (Low: kept, it is in play), then K Q 9 8 by strength: 7H 6H 4H 3H go.
# Keeping every face first (heuristic_v2) kept 14 - 2 = 12 faces, A K Q J 10 9 8 7 6
# 4 5H 5D, and set aside 3H 2H and the second 5H and 5D: 10 points of Pedros out of
# play, and the Low of the 2 left to the other copy.
MANY_TRUMPS = {
    0: "AH KH QH JH TH 9H 8H 7H 6H 4H 3H 2H 5H 5H 5D 5D 2C 3C",
    1: "AH KH QH JH TH 9H 8H 7H 6H 4H 3H 2H 2S 3S 4S 6S 7S 8S",
    2: "4C 4C 6C 6C 7C 7C 8C 8C 9C 9C TC TC JC JC QC QC 5S 5S",
    3: "2D 2D 3D 3D 4D 4D 6D 6D 7D 7D 8D 8D 9D 9D TD TD JD JD",
}


@pytest.mark.parametrize(
    "version, aside",
    [("heuristic", "7H 6H 4H 3H"), ("heuristic_v2", "3H 2H 5H 5D")],
)
def test_the_heuristic_keeps_the_best_twelve_trumps_of_both_copies(version, aside):
    keeps = {1: "AH KH QH JH TH 9H 8H 7H 6H 4H 3H 2H", 2: "9C TC JC", 3: "TD JD 9D 8D"}
    rec = play_dealt(MANY_TRUMPS, "", keeps, "", discard=version)
    assert rec["maker"] == 0 and len(rec["draws"][0]) == 22  # the stock, no trump in it
    trumps = [c for c in rec["robber_discards"] + rec["discards"][0] if c[-1] == "H" or c == "5D"]
    assert sorted(trumps) == sorted(aside.split())


def test_the_keep_of_both_copies_changes_only_the_hands_it_is_for():
    """scripts/paired_params.py plays the same hands with one parameter changed: the
    keep of both copies (on by default) set to its own value changes no hand; off, it
    changes the hands of a player with more trumps than he keeps (0.86% of them), and
    no other choice."""
    from helpers import load_script

    from cinch_sim.policies.strategies import param_names

    script = load_script("paired_params")
    base = PolicySet.from_specs(4)
    default = base.params(TWO)
    slot = param_names("discard", "heuristic").index("best_of_both_copies")
    a = script.play(TWO, base, default, 5, 8000)
    same = default.copy()
    same[2, :, slot] = 1.0
    assert np.array_equal(a, script.play(TWO, base, same, 5, 8000))
    off = default.copy()
    off[2, :, slot] = 0.0
    b = script.play(TWO, base, off, 5, 8000)
    differ = np.flatnonzero(np.any(a != b, axis=1))
    assert 20 <= len(differ) <= 160  # 0.86% of 8,000 is 69
    # the same contracts (the keep comes after the bidding), other hands kept
    assert np.array_equal(a[differ, L.H_BID], b[differ, L.H_BID])
    assert np.array_equal(a[differ, L.H_MAKER], b[differ, L.H_MAKER])


def test_the_paired_script_can_hand_the_other_side_s_play_to_another_player():
    """``--others``: the side whose parameter changes keeps the policy, the other seats
    play with the one named (whether a rule tuned in self-play holds against another
    player's defence); without it every seat plays the policy."""
    from helpers import load_script

    from cinch_sim.rules import make_rules

    script = load_script("paired_params")
    rules = make_rules("standard")
    ps = script.policy_set(rules, "heuristic", [0, 2], "greedy")
    assert [p.spec for p in ps.play] == ["heuristic", "greedy", "heuristic", "greedy"]
    assert {p.spec for p in ps.bid} == {"heuristic"}
    same = script.policy_set(rules, "heuristic", [0, 2], None)
    assert {p.spec for p in same.play} == {"heuristic"}
