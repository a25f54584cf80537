"""The web page under the presets beyond the standard game (a review of cutthroat3,
pidro, two_deck and sancho): the page says what its numbers mean at the table it
is at, as the command line does, and offers only what the server can do."""

from __future__ import annotations

import pytest
from test_web_table import _answer, _play_hand

from cinch_sim import layout as L
from cinch_sim.web import queries
from cinch_sim.web.table import Table

HAND = "AS KS 5S 5C 2S 9H 3D 7C JD"


def _first_stage(body: dict) -> dict:
    """The page's first answer to an advice request (the quickest stage)."""
    q = queries.advise_query(body)
    return queries.advise_stages(q)[0](lambda *a, **k: None)


def test_cut_throat_advice_says_its_margin_is_against_the_average_opponent():
    """advice_dict's ``score_change`` reaches the page: cut-throat's ev is "your score
    change minus the average opponent's" (the page never said what it meant); the
    page's table has no own and opp columns, so its note names none."""
    from cinch_sim.advisor.present import ev_text

    alone = _first_stage({"hand": HAND, "variant": "cutthroat3", "dealer": 2})
    assert alone["score_change"] == ev_text(alone=True, sides=False)
    assert "average opponent's" in alone["score_change"] and "own:" not in alone["score_change"]
    assert alone["margins"] is False and alone["stuck_note"] is None
    partners = _first_stage({"hand": HAND, "dealer": 3})
    assert partners["score_change"] == ev_text(alone=False, sides=False)


def test_the_cut_throat_bid_hint_says_what_its_margin_means():
    from cinch_sim.advisor.present import ev_text

    t = Table("cutthroat3", 0, seed=7)
    h = t.hint()
    assert h["kind"] == "bid" and "note" not in h
    assert h["score_change"] == ev_text(alone=True, sides=False)


def test_a_stuck_dealer_s_bids_show_their_own_margins_and_say_why():
    """pidro, the dealer after three passes may not pass: there is no ev against pass
    (every cell was "–" beside "expected margin +9.5"), so the table shows each bid's
    own margin (own - opp) with its interval, as the advisor ranks them, with the
    command line's note."""
    from cinch_sim import notation as N
    from cinch_sim.advisor.present import STUCK_DEALER
    from cinch_sim.api import advise

    body = {"hand": HAND, "seat": 3, "dealer": 3, "bids": "0:pass,1:pass,2:pass",
            "variant": "pidro"}  # fmt: skip
    r = _first_stage(body)
    stuck = f"({STUCK_DEALER}: the bids are ranked by their own margins)"
    assert r["margins"] and r["stuck_note"] == stuck
    adv = advise(HAND, 3, 3, bids=body["bids"], variant="pidro", precision=0.05)
    sc = adv.score_change()
    s = adv.best_trump_index
    rows = r["rows"][adv.best_trump]
    want = [N.number(sc["own"][s, c] - sc["opp"][s, c], 2, signed=True) for c in range(1, 10)]
    assert [x["ev"] for x in rows] == want and N.DASH not in want
    # each judged margin with its own t interval, which holds it (it had none)
    m, lo, hi = adv.margin()
    judged = adv.judged()[s]
    assert judged.any()
    for i, x in enumerate(rows):
        c = i + 1
        if judged[i]:
            assert x["ev_interval"] == N.interval(lo[s, c], hi[s, c], 2, True)
            assert lo[s, c] <= m[s, c] <= hi[s, c]
        else:
            assert x["ev_interval"] == N.DASH
    best = 1 + list(adv.bids).index(adv.best_ev_bid)  # the sentence's margin, the table's
    margin = N.number_with_interval(m[s, best], lo[s, best], hi[s, best], 2, True)
    assert f"expected margin {margin}" in r["advice"]


def test_a_stuck_dealer_s_bid_hint_says_why_there_is_no_pass():
    from cinch_sim.advisor.present import STUCK_DEALER

    t = Table("pidro", 3, seed=69)  # seats 0, 1 and 2 pass: the dealer is stuck
    s = t.state()
    assert [b["bid"] for b in s["bids"]] == [None] * 3 and 0 not in s["question"]["legal"]
    h = t.hint()
    assert h["call"] != "pass" and "expected margin" in h["advice"]
    assert h["note"] == f"{STUCK_DEALER}: the bids are ranked by their own margins"


def test_a_bid_never_won_shows_no_ev():
    """Bids 1 to 5 from the eldest hand are always overbid: their deals are passing's,
    and the table said "ev vs pass 0.00" for them, as if judged even."""
    from cinch_sim.api import advise

    adv = advise(HAND, 0, 3, precision=0.05)
    rows = queries.advice_rows(adv)["S"]
    never = [r for r in rows if r["as_maker"] == 0]
    assert never and all(r["ev"] == "–" and r["ev_interval"] == "–" for r in never)
    assert all(r["ev"] != "–" for r in rows if r["as_maker"] > 0)


@pytest.mark.parametrize("seat, means", [(0, "score"), (1, "points")])
def test_pimc_s_cut_throat_figures_are_what_its_utility_is(seat, means):
    """With three sides PIMC maximises each player's own: the maker's own score change
    (policies.pimc._utility), a defender's own points; not a gain on any other side.
    Seed 7 at cutthroat3: seat 0 bids 14 and is the maker; seat 1 passes, a defender."""
    t = Table("cutthroat3", seat, seed=7)
    s = t.state()
    while s["question"]["kind"] != "play":
        q = s["question"]
        s = t.choose(q["legal"][0] if q["kind"] == "bid" and seat == 1 else _answer(q))
    h = t.hint()
    assert h["pimc_means"] == means
    maker = int(t._run()[0][L.H_MAKER])
    assert (maker == seat) == (means == "score")
    values = list(h["pimc_why"].values())
    if means == "points":  # the points he ends the hand with
        assert all(0 <= v <= t.rules.total_points for v in values)
    else:  # made: his points; set: the bid of 14 lost
        assert all(-14 <= v <= t.rules.total_points for v in values)
    assert Table("standard", 0, seed=5)._pimc_means() == "margin"


def test_the_discard_hint_that_keeps_nothing_is_an_answer():
    """sancho, no trump held: the heuristic keeps no card, "" (the page dropped it)."""
    t = Table("sancho", 0, seed=0)
    s = t.state()
    while s["question"]["kind"] != "discard":
        s = t.choose(s["question"]["legal"][0])
    q = s["question"]
    assert q["trumps"] == [] and q["keep"][0] == 0
    h = t.hint()
    assert h == {"kind": "discard", "heuristic": ""}


def test_the_variants_say_where_double_dummy_cannot_play():
    """two decks and six seats: dd is refused ("dd cannot play two_deck ..."), so the
    variant list says so (the advisor page turns that choice off), in the refusal's words."""
    from cinch_sim.api import advise
    from cinch_sim.checks import InputError

    v = queries.variants()
    assert v["standard"]["dd"] is None and v["cutthroat5"]["dd"] is None
    assert v["standard"]["partnerships"] and not v["cutthroat3"]["partnerships"]
    assert v["two_deck"]["decks"] == 2 and v["two_deck"]["cards"] == 18
    for name, hand in [("two_deck", f"{HAND} {HAND}"), ("heasly", "AS KS 5S 5C 2S 9H")]:
        assert v[name]["dd"].startswith(f"dd cannot play {name}")
        with pytest.raises(InputError) as exc:
            advise(hand, variant=name, play="dd", max_hands=10)
        assert v[name]["dd"] in str(exc.value)


def test_a_cut_throat_review_names_seats_not_sides():
    """The review of a cut-throat hand says "seat 0" and "the maker" (it said "side 0"
    and "the maker's side"): each hand says whether its sides are partnerships."""
    t = Table("cutthroat3", 1, seed=7)
    done = _play_hand(t)
    assert done["partnerships"] is False and done["review"]["partnerships"] is False
    hands = queries.review([done["record"]])["hands"]
    assert hands[0]["partnerships"] is False
    assert Table("standard", 0, seed=3).state()["partnerships"] is True
