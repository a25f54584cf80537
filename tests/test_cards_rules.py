"""Card tokens (docs/records.md notation) and Rules validation (docs/rules.md §2)."""

import numpy as np
import pytest

from cinch_sim import layout as L
from cinch_sim.cards import (
    CardError,
    format_card,
    from_mask,
    left_card,
    parse_card,
    parse_hand,
    parse_suit,
    to_mask,
    trump_mask,
)
from cinch_sim.rules import Rules, RulesError, make_rules, parse_rule_assignments


def test_card_numbering():
    assert parse_card("2C") == 0
    assert parse_card("AC") == 12
    assert parse_card("TS") == 13 + 8
    assert parse_card("AH") == 51
    # same-colour suit is s ^ 1: clubs/spades, diamonds/hearts
    assert left_card(parse_suit("S")) == parse_card("5C")
    assert left_card(parse_suit("H")) == parse_card("5D")


@pytest.mark.parametrize("tok", ["10s", "TS", "ts", "10\u2660", "T\u2660\ufe0f"])
def test_parse_variants(tok):
    assert parse_card(tok) == parse_card("TS")


def test_format_round_trip():
    assert [parse_card(format_card(c)) for c in range(52)] == list(range(52))
    assert len({format_card(c) for c in range(52)}) == 52


@pytest.mark.parametrize("tok", ["", "1S", "TX", "11H", "S", "QQ", "AHH", 5])
def test_parse_rejects(tok):
    with pytest.raises(CardError):
        parse_card(tok)


def test_format_rejects_out_of_range():
    with pytest.raises(CardError):
        format_card(52)
    with pytest.raises(CardError):
        format_card(-1)


def test_parse_hand_checks_size_and_duplicates():
    assert len(parse_hand("AS KS QS JS TS 9S 8S 7S 6S")) == 9
    with pytest.raises(CardError, match="duplicate"):
        parse_hand("AS AS QS JS TS 9S 8S 7S 6S")
    with pytest.raises(CardError):
        parse_hand("AS KS")


def test_masks():
    cards = [0, 13, 51]
    assert from_mask(to_mask(cards)) == cards
    tm = trump_mask(parse_suit("H"))
    assert bin(tm).count("1") == 14  # docs/rules.md §1.2: 14 trumps
    assert tm >> parse_card("5D") & 1


def test_suit_names():
    assert parse_suit("spades") == parse_suit("S") == parse_suit("\u2660") == 1
    with pytest.raises(CardError):
        parse_suit("X")


def test_defaults_reproduce_section_1():
    r = Rules()
    assert (r.bid_min, r.bid_max, r.target) == (1, 14, 51)
    assert (r.robber, r.follow_rule, r.shortage, r.all_pass) == (
        "maker",
        "may_trump",
        "round_robin",
        "dealer_no_contract",
    )
    assert r.total_points == 14
    assert r.options() == {}
    a = r.to_array()
    assert a[L.R_TOTAL_POINTS] == 14 and a[L.R_PLAYERS] == 4
    # trump strength: A highest (14) ... 5 right 5, left 4 ... 2 lowest (1)
    s = a[L.R_TRUMP_STRENGTH : L.R_TRUMP_STRENGTH + 14]
    assert s[12] == 14 and s[3] == 5 and s[13] == 4 and s[2] == 3 and s[0] == 1
    assert sorted(s) == list(range(1, 15))


@pytest.mark.parametrize(
    "kw",
    [
        dict(bid_min=8, bid_max=7),
        dict(bid_min=0),
        dict(bid_max=15),
        dict(target=0),
        dict(target=-5),
        dict(robber="partner"),
        dict(follow_rule="must_follow"),
        dict(shortage="none"),
        dict(all_pass="pass"),
        dict(low_rule="two"),
        dict(scoring="points"),
        dict(high_rule="ace"),
        dict(min_score_loss=0),
        dict(excess_trump_discard="all"),
        dict(low_to="holder"),
    ],
)
def test_rules_rejects(kw):
    with pytest.raises(RulesError):
        Rules(**kw)


def test_with_options_coerces_and_rejects():
    r = make_rules("standard", {"robber": "DEALER", "bid_min": "6", "min_score_loss": "off"})
    assert (r.robber, r.bid_min, r.min_score_loss) == ("dealer", 6, None)
    assert r.options() == {"robber": "dealer", "bid_min": 6}
    with pytest.raises(RulesError, match="unknown rule option"):
        Rules().with_options({"robbr": "dealer"})
    with pytest.raises(RulesError):
        Rules().with_options({"target": "fifty"})
    with pytest.raises(RulesError):
        Rules().with_options({"must_discard_nontrumps": "maybe"})
    with pytest.raises(RulesError):
        make_rules("no_such_preset")
    with pytest.raises(RulesError):
        parse_rule_assignments(["robber"])
    assert parse_rule_assignments(["robber = none"]) == {"robber": "none"}


def test_rules_array_reflects_options():
    a = Rules(robber="none", follow_rule="strict", shortage="in_order").to_array()
    b = Rules().to_array()
    assert a[L.R_ROBBER] == L.ROBBER_NONE and b[L.R_ROBBER] == L.ROBBER_MAKER
    assert a[L.R_FOLLOW] == L.FOLLOW_STRICT and b[L.R_FOLLOW] == L.FOLLOW_MAY_TRUMP
    assert a[L.R_SHORTAGE] == L.SHORT_IN_ORDER
    assert a.dtype == np.int64 and len(a) == L.R_LEN
