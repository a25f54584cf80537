"""More protected trumps than a hand may keep (docs/rules.md §3.6): under
``excess_trump_discard=non_point_only`` sancho protects 7 trumps (A J 10 9 5 2 and
the Left Pedro) and dom_pedro 8 (and the 3), more than the 6 a hand keeps. The
player then sets aside every non-point trump and as many protected ones as he
must, his choice, face up. Hand-built deals for a drawer and for the robber,
random runs of both presets, and the referee on both sides of the rule.

Trump is hearts throughout, so the Left Pedro is 5D; the dealer (seat 3) is the
maker and robs."""

import dataclasses

import pytest
from helpers import from_mask, mask, run_deal

from cinch_sim import api
from cinch_sim.cards import parse_card
from cinch_sim.policies.loading import PolicyError
from cinch_sim.records import load_records, referee_record
from cinch_sim.records.referee import check_hand, trump_suit
from cinch_sim.records.show import pretty, show_hand
from cinch_sim.records.writer import hand_record
from cinch_sim.rules import make_rules

OPT = {"excess_trump_discard": "non_point_only"}
SANCHO = make_rules("sancho", OPT)
DOM = make_rules("dom_pedro", OPT)

# ---------------------------------------------------------------- a drawer
# Seat 0 (eldest) is dealt nine trumps. The others hold no trump: they keep
# nothing and draw six each, the robber the last four of the stock.
DRAW = {
    3: "2C 3C 4C 5C 6C 7C 8C 9C TC",
    1: "JC QC KC AC 2S 3S 4S 5S 6S",
    2: "7S 8S 9S TS JS QS KS AS 2D",
}
# sancho: 7 protected (AH JH TH 9H 5H 2H 5D) + KH QH. He keeps 6 trumps: 9 - 6 = 3
# go, KH QH by the rule and 7 - 6 = 1 protected of his choice (9H here).
DRAW_SANCHO = {**DRAW, 0: "AH JH TH 9H 5H 2H 5D KH QH"}
# dom_pedro: 8 protected (and 3H) + KH. 9 - 6 = 3 go: KH by the rule and
# 8 - 6 = 2 protected of his choice (9H 3H).
DRAW_DOM = {**DRAW, 0: "AH JH TH 9H 5H 3H 2H 5D KH"}
DRAW_KEEP = "AH JH TH 5H 5D 2H"


def play(hands, rules, stock="", keeps=None, rob_keep=None):
    """Seat 3 bids 1 (the others pass) and names hearts; the rest as scripted."""
    bids = {0: 0, 1: 0, 2: 0, 3: 1}
    return run_deal(
        hands, stock, rules=rules, bids=bids, name_trump="H", keeps=keeps, rob_keep=rob_keep
    )


def refereed(h, rules):
    """The hand's record, which the referee must find valid."""
    rec = hand_record(rules, h.out, h.trace)
    v = referee_record(rec)
    assert v.status == "valid", v.message
    return rec


@pytest.mark.parametrize(
    ("rules", "hands", "forced", "chosen"),
    [(SANCHO, DRAW_SANCHO, "KH QH", "9H"), (DOM, DRAW_DOM, "KH", "9H 3H")],
    ids=["sancho", "dom_pedro"],
)
def test_drawer_with_more_protected_trumps_than_he_keeps(rules, hands, forced, chosen):
    h = play(hands, rules, keeps={0: DRAW_KEEP})
    protected = from_mask(mask(hands[0])) - from_mask(mask(forced))
    # asked about his protected trumps alone, every one of them legal to set aside
    assert from_mask(h.record("discard", 0, 2)) == protected
    assert from_mask(h.record("discard", 0, 3)) == protected
    assert h.discard(0) == from_mask(mask(forced + " " + chosen))
    assert h.drawn(0) == []
    # the next drawer sees them all face up (dead)
    assert from_mask(h.record("discard", 1, 5)) == h.discard(0)
    rec = refereed(h, rules)
    # show: all three set aside are trumps, shown face up
    up = pretty([parse_card(c) for c in rec["discards"][0]])
    assert f"discards {up} (face up: {up}); draws —" in show_hand(check_hand(rec))
    # keeping a non-point trump is refused, even in place of a protected one
    with pytest.raises(PolicyError, match="discard"):
        play(hands, rules, keeps={0: "AH JH TH 5H 5D KH"})


# --------------------------------------------------------------- the robber
# Seat 3 (maker, robber) is dealt nine trumps; the drawers keep four cards each
# and draw two, so he takes the last ten of the stock: 5D 7H 8H QH KH and five
# diamonds. 19 cards, 14 trumps, 13 go.
ROB = {
    3: "AH JH TH 9H 5H 2H 3H 4H 6H",
    0: "2C 3C 4C 5C 6C 7C 8C 9C TC",
    1: "JC QC KC AC 2S 3S 4S 5S 6S",
    2: "7S 8S 9S TS JS QS KS AS 2D",
}
ROB_STOCK = "3D 4D 6D 7D 8D 9D 5D 7H 8H QH KH TD JD QD KD AD"
ROB_KEEPS = {0: "2C 3C 4C 5C", 1: "JC QC KC AC", 2: "7S 8S 9S TS"}
# sancho: 7 protected, 7 non-point (3H 4H 6H 7H 8H QH KH): the 7 non-point by the
# rule, 7 - 6 = 1 protected of his choice (TH), the five diamonds: 7 + 1 + 5 = 13.
# dom_pedro: 8 protected (3H too), 6 non-point: 6 by the rule, 8 - 6 = 2 of his
# choice (TH 3H), the five diamonds: 6 + 2 + 5 = 13.
ROB_KEEP = "AH JH 9H 5H 5D 2H"


@pytest.mark.parametrize(
    ("rules", "forced", "chosen"),
    [(SANCHO, "3H 4H 6H 7H 8H QH KH", "TH"), (DOM, "4H 6H 7H 8H QH KH", "TH 3H")],
    ids=["sancho", "dom_pedro"],
)
def test_robber_with_more_protected_trumps_than_he_keeps(rules, forced, chosen):
    h = play(ROB, rules, ROB_STOCK, keeps=ROB_KEEPS, rob_keep={3: ROB_KEEP})
    assert h.drawn(3) == ROB_STOCK.split()[6:]
    plain = "TD JD QD KD AD"
    # asked about his hand without the non-point trumps
    all_cards = from_mask(mask(ROB[3]) | mask(ROB_STOCK.split()[6:]))
    assert from_mask(h.record("discard", 3, 6)) == all_cards - from_mask(mask(forced))
    assert h.robber_discard() == from_mask(mask(f"{forced} {chosen} {plain}"))
    rec = refereed(h, rules)
    up = pretty([parse_card(c) for c in rec["robber_discards"] if c[-1] == "H"])
    assert f"(face up: {up})" in show_hand(check_hand(rec))  # the trumps, not the diamonds
    with pytest.raises(PolicyError, match="discard"):  # a non-point trump kept
        play(ROB, rules, ROB_STOCK, keeps=ROB_KEEPS, rob_keep={3: "AH JH 9H 5H 5D KH"})


# -------------------------------------------------------------- the referee
def test_referee_refuses_a_point_trump_set_aside_while_a_non_point_one_stays():
    h = play(DRAW_SANCHO, SANCHO, keeps={0: DRAW_KEEP})
    rec = refereed(h, SANCHO)
    rec["discards"][0] = ["QH", "9H", "TH"]  # keeps KH, sets aside two protected
    v = referee_record(rec)
    assert v.status == "invalid" and v.field == "discards[0]" and v.seat == 0
    assert "point trump 9H" in v.message and "non-point trump KH" in v.message

    h = play(ROB, SANCHO, ROB_STOCK, keeps=ROB_KEEPS, rob_keep={3: ROB_KEEP})
    rec = refereed(h, SANCHO)
    rec["robber_discards"] = [c for c in rec["robber_discards"] if c != "KH"] + ["AH"]
    v = referee_record(rec)
    assert v.status == "invalid" and v.field == "robber_discards" and v.seat == 3
    assert "point trump TH" in v.message and "non-point trump KH" in v.message  # TH: his choice


# ------------------------------------------------- random hands, both presets
def _overflows(rec, rules=None) -> int:
    """Sets aside (as drawer or robber) with a protected trump among them: the case."""
    if rec.get("maker") is None:
        return 0
    rules = rules or make_rules(rec["rules"]["preset"], rec["rules"]["options"])
    ts = trump_suit(rules, "CSDH".index(rec["trump"]))
    gone = [*rec["discards"], rec.get("robber_discards") or []]
    return sum(any(parse_card(c) in ts.point_trumps for c in g) for g in gone)


def _check_runs(variant, seeds, hands, tmp_path, discard="heuristic", every=False):
    """Every hand plays (the kernel raises on an illegal keep) and the records of the
    hands with the case (``every``: all of them) referee valid; returns how many
    set-asides took a protected trump."""
    seen = 0
    for seed in seeds:
        path = tmp_path / f"{variant}-{seed}.jsonl"
        api.simulate(
            variant=variant, rules=OPT, hands=hands, seed=seed, records=path, discard=discard
        )
        if every:
            rep = api.referee(path)
            assert rep.ok and rep.summary().startswith(f"{hands} valid"), (seed, rep.summary())
            seen += sum(_overflows(v.record) for v in rep.verdicts)
            continue
        records = list(load_records(path))
        assert len(records) == hands
        for rec in records:
            if _overflows(rec):
                seen += _overflows(rec)
                verdict = referee_record(rec)
                assert verdict.status == "valid", (seed, verdict.message)
    return seen


@pytest.mark.parametrize(
    ("variant", "seed", "hands"), [("sancho", 509, 5_249), ("dom_pedro", 2, 2_000)]
)
def test_random_hands_of_the_case_play_and_referee_clean(variant, seed, hands, tmp_path):
    # seeds where a seat held more protected trumps than he keeps (the run stopped before)
    assert _check_runs(variant, [seed], hands, tmp_path) > 0


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["sancho", "dom_pedro"])
def test_twenty_seeds_play_and_referee_clean(variant, tmp_path):
    assert _check_runs(variant, range(1, 21), 2_000, tmp_path, every=True) > 0


@pytest.mark.parametrize("discard", ["simple", "random", "heuristic_v1"])
def test_every_builtin_discard_keeps_legally(discard, tmp_path):
    # dom_pedro, seeds 4 and 6: three such set-asides each with the heuristic
    assert _check_runs("dom_pedro", [4, 6], 2_000, tmp_path, discard) > 0


def test_two_decks_with_more_protected_copies_than_he_keeps(tmp_path, monkeypatch):
    """Two decks take the same path (docs/rules.md §3.4): two_deck protects at most
    12 copies, the hand size, so the case needs more point cards. With Sancho's
    and the Dom's added, 16 copies are protected; the random discard bids and
    keeps widely enough to reach the case. That game is no preset, whose records
    the writer refuses (no record can name it): here they are written under a
    stand-in ``rules`` entry, deleted before the referee reads them."""
    two = make_rules("two_deck", OPT)
    extra = (("sancho", "9", 9), ("dom", "3", 3))
    rules = dataclasses.replace(two, point_cards=two.point_cards + extra, bid_max=40)
    assert rules.preset == "custom"
    monkeypatch.setattr(type(rules), "to_record", lambda self: {"preset": "custom"})
    path = tmp_path / "two.jsonl"
    api.simulate(rules=rules, hands=3_000, seed=1, discard="random", records=path)
    seen = 0
    for rec in load_records(path):
        if _overflows(rec, rules):  # the case's hands: referee them with their rules
            del rec["rules"], rec["format"]  # a preset no record names
            check_hand(rec, game_rules=rules)
            seen += _overflows(rec, rules)
    assert seen > 0
