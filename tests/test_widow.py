"""The ``widow`` preset (docs/rules.md §3.7): after the bidding each seat, from eldest,
picks up the next four cards of the stock, its widow, and keeps six of its
thirteen as a robber does (every trump, or six of them with the excess shown).
A hand-built deal whose points are worked out by hand, the kernel refusing a
keep that breaks the rule, and the record referee on both sides of it.

Dealer seat 3, so seat 0 is eldest; trump hearts, so the Left Pedro is 5D."""

import copy

import pytest
from helpers import from_mask, mask, run_deal

from cinch_sim import layout as L
from cinch_sim.policies.loading import PolicyError
from cinch_sim.records import referee_record
from cinch_sim.records.referee import check_hand
from cinch_sim.records.show import show_hand
from cinch_sim.records.writer import hand_record
from cinch_sim.rules import VARIANTS

WIDOW = VARIANTS["widow"]

DEALT = {
    0: "AH KH 2H 9C 8C 7C 2S 3S 4S",
    1: "5D AD KD QD 6C 4C 2D 3D 4D",
    2: "5H AS KS QS JS TS 9S 8S 7S",
    3: "AC KC QC JC TC 6D 7D 8D 9D",
}
# The stock, top first: the widows of seats 0, 1, 2 and 3 in turn.
WIDOWS = {0: "QH JH TH 9H", 1: "6S 8H 5C 3C", 2: "7H 6H 4H 3H", 3: "JD TD 2C 5S"}
STOCK = " ".join(WIDOWS[s] for s in range(4))
# Seat 0: AH KH 2H + QH JH TH 9H = 7 trumps, one more than he keeps: he keeps six
#   (9H goes, face up) and sets aside 9C 8C 7C 2S 3S 4S: 7 cards.
# Seat 1: 5D 8H = 2 trumps, both kept, with AD KD QD 4D.
# Seat 2: 5H 7H 6H 4H 3H = 5 trumps, all kept, with AS.
# Seat 3: no trump; keeps AC KC QC JC TC JD.
KEEP = {
    0: "AH KH QH JH TH 2H",
    1: "5D 8H AD KD QD 4D",
    2: "5H 7H 6H 4H 3H AS",
    3: "AC KC QC JC TC JD",
}
# Seat 0 makes 7 in hearts and leads.
# T1 s0 2H, s1 8H, s2 3H, s3 JD -> 8H: s1 (Low, the 2H, to team 1).
# T2 s1 AD, s2 AS, s3 TC, s0 AH (may trump) -> AH: s0.
# T3 s0 KH, s1 5D (his only trump), s2 4H, s3 QC -> KH: s0 (Left Pedro to team 0).
# T4 s0 QH, s1 4D, s2 6H, s3 KC -> QH: s0.   T5 s0 JH, s1 QD, s2 7H, s3 AC -> JH: s0.
# T6 s0 TH, s1 KD, s2 5H (his last trump, forced), s3 JC -> TH: s0 (Right Pedro).
PLAYS = {
    0: ["2H", "AH", "KH", "QH", "JH", "TH"],
    1: ["8H", "AD", "5D", "4D", "QD", "KD"],
    2: ["3H", "AS", "4H", "6H", "7H", "5H"],
    3: ["JD", "TC", "QC", "KC", "AC", "JC"],
}
# Team 0: High (AH) 1 + Jack (JH) 1 + Game (TH) 1 + Right Pedro 5 + Left Pedro 5 = 13.
# Team 1: Low (2H) 1.  13 + 1 = 14, every point in play (the 9H is dead, not Low or Game).


def play(bid=7, keep=KEEP):
    return run_deal(
        DEALT, STOCK, rules=WIDOW, maker=0, trump="H", bid=bid, rob_keep=keep, plays=PLAYS
    )


def test_each_seat_picks_up_its_widow_in_turn_and_keeps_six():
    h = play()
    assert h.h(L.H_ERROR) == 0
    for s in range(4):
        assert h.drawn(s) == WIDOWS[s].split()
        held = from_mask(mask(DEALT[s] + " " + WIDOWS[s]))
        assert h.discard(s) == held - from_mask(mask(KEEP[s]))
        assert len(h.discard(s)) == 7
    # asked as a robber is: his 13 cards, the stock left after his widow
    assert from_mask(h.record("discard", 0, 6)) == from_mask(mask(DEALT[0] + " " + WIDOWS[0]))
    assert h.record("discard", 0, 7) == 12 and h.record("discard", 3, 7) == 0
    assert int(h.trace[L.T_ROBBER]) == -1 and h.h(L.H_SHORTAGE) == 0


def test_the_worked_hand_scores_as_counted():
    h = play()
    assert h.winners() == [1, 0, 0, 0, 0, 0]
    assert h.points == (13, 1)
    assert h.h(L.H_MADE) == 1 and h.score == (13, 1)
    assert h.slot("low")[0] == 1 and h.slot("game")[0] == 0
    assert h.slot("left")[:2] == (0, 2) and h.slot("right")[:2] == (0, 5)
    # bid 14: 13 taken, set: -14 for team 0, team 1 still scores its 1
    s = play(bid=14)
    assert s.points == (13, 1) and s.h(L.H_MADE) == 0 and s.score == (-14, 1)


def test_a_keep_that_drops_a_trump_is_refused():
    # seat 1 holds two trumps and must keep both: keeping 6S instead of 8H breaks it
    bad = {**KEEP, 1: "5D AD KD QD 4D 6S"}
    with pytest.raises(PolicyError) as e:
        play(keep=bad)
    assert "at seat 1 (second) returned an illegal set of cards to keep after picking up" in (
        str(e.value)
    )
    assert "keep exactly 6 cards, as many of them trumps as it holds" in str(e.value)


def test_non_point_only_keeps_the_2_of_trumps_among_the_excess():
    # excess_trump_discard=non_point_only: of seat 0's seven trumps only K Q 9 may go
    # (A, J, 10, the Pedros and the 2 score). The worked keep sets aside the 9H and
    # scores as counted; setting aside the 2H (a Low) instead is refused, which the
    # default (any trump) allows.
    import dataclasses

    protect = dataclasses.replace(WIDOW, excess_trump_discard="non_point_only")
    h = run_deal(DEALT, STOCK, rules=protect, maker=0, trump="H", bid=7, rob_keep=KEEP,
                 plays=PLAYS)  # fmt: skip
    assert "9H" in h.discard(0) and h.points == (13, 1)
    no_low = {**KEEP, 0: "AH KH QH JH TH 9H"}
    with pytest.raises(PolicyError, match="at seat 0 .* after picking up its widow"):
        run_deal(DEALT, STOCK, rules=protect, maker=0, trump="H", bid=7, rob_keep=no_low)
    h = run_deal(DEALT, STOCK, rules=WIDOW, maker=0, trump="H", bid=7, rob_keep=no_low)
    assert "2H" in h.discard(0) and "9H" not in h.discard(0)


def record():
    rec = hand_record(WIDOW, play().out, play().trace)
    rec["bids"] = [[0, 7], [1, None], [2, None], [3, None]]  # the contract, bid as forced
    return rec


def test_the_record_holds_widows_as_draws_and_the_referee_agrees():
    rec = record()
    assert rec["stock"] == STOCK.split()
    assert rec["draws"] == [WIDOWS[s].split() for s in range(4)]
    # a discard lists the dealt cards set aside, then the widow's
    assert rec["discards"][0] == ["9C", "8C", "7C", "2S", "3S", "4S", "9H"]
    assert rec["discards"][1] == ["6C", "4C", "2D", "3D", "6S", "5C", "3C"]
    assert rec["robber_discards"] == []
    v = referee_record(rec)
    assert v.status == "valid", v.message
    text = show_hand(check_hand(rec))
    assert "Widow and discard:" in text and "widows " in text and "After the widows" in text
    assert "picks up Q♥ J♥ 10♥ 9♥; discards" in text and "(face up: 9♥)" in text


@pytest.mark.parametrize(
    ("change", "field", "says"),
    [
        # the widows handed out in reverse seat order: not the stock's
        (lambda r: r["draws"].reverse(), "draws[0][0]", "seat 0's widow holds QH here"),
        # seat 1 sets aside his 8H (two trumps held, both must stay) and keeps 6S
        (
            lambda r: r["discards"].__setitem__(1, ["6C", "4C", "2D", "3D", "8H", "5C", "3C"]),
            "discards[1]",
            "seat 1 must keep 2 trumps, keeps 1",
        ),
        # seat 2 keeps seven cards
        (lambda r: r["discards"][2].pop(), "discards[2]", "seat 2 must keep 6 cards, keeps 7"),
        (lambda r: r.__setitem__("robber_discards", ["2C"]), "robber_discards", "nobody robs"),
    ],
    ids=["widows_swapped", "trump_dropped", "seven_kept", "robber"],
)
def test_the_referee_refuses_a_widow_broken(change, field, says):
    rec = copy.deepcopy(record())
    change(rec)
    v = referee_record(rec)
    assert v.status == "invalid"
    assert v.field == field and says in v.message
