"""Every preset of docs/rules.md §3.1 as data: the table, the refusals of §3.6, and a
conformance run over the preset table (random hands of each preset under each
built-in policy, their records through the project's referee). A new preset is
tested by adding one row to EXPECTED."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from cinch_sim import api
from cinch_sim.cards import parse_card
from cinch_sim.policies.strategies import resolve_strategy
from cinch_sim.records.referee import check_hand
from cinch_sim.rules import PRESETS, VARIANTS, RulesError, make_rules, preset_rows

BASE = ("high", "low", "jack", "game", "right_pedro")
# name: (players, sides, dealt, kept (= tricks), points, target, captured keys or
# None when not playable yet), from docs/rules.md §3.1 and docs/records.md "Variants".
EXPECTED: dict[str, tuple] = {
    "standard": (4, 2, 9, 6, 14, 51, (*BASE, "left_pedro")),
    "auction": (4, 2, 9, 6, 14, 51, (*BASE, "left_pedro")),
    "sancho": (4, 2, 9, 6, 23, 51, (*BASE, "sancho", "left_pedro")),
    "dom_pedro": (4, 2, 9, 6, 26, 51, (*BASE, "sancho", "dom", "left_pedro")),
    "all_hands": (4, 2, 9, 6, 14, 51, (*BASE, "left_bower")),
    "no_draw": (4, 2, 9, 9, 14, 51, (*BASE, "left_pedro")),
    "two_deck": (4, 2, 18, 12, 28, 102, (*BASE, "left_pedro")),
    "cutthroat2": (2, 2, 9, 6, 14, 51, (*BASE, "left_pedro")),
    "cutthroat3": (3, 3, 9, 6, 14, 51, (*BASE, "left_pedro")),
    "cutthroat5": (5, 5, 6, 6, 14, 51, (*BASE, "left_pedro")),
    "cutthroat6": (6, 6, 6, 6, 14, 51, (*BASE, "left_pedro")),
    "heasly": (6, 6, 6, 6, 14, 62, (*BASE, "left_pedro")),
    "sancho_classic": (4, 2, 6, 6, 18, 50, (*BASE, "sancho")),
    "dom_pedro_classic": (4, 2, 6, 6, 21, 50, (*BASE, "sancho", "dom")),
    "pidro": (4, 2, 9, 6, 14, 62, (*BASE, "left_pedro")),
    "widow": (4, 2, 9, 6, 14, 51, (*BASE, "left_pedro")),
}
PLAYABLE = [p.name for p in PRESETS if p.playable]
POLICIES = ("random", "heuristic", "greedy", "simple")


def test_the_table_has_every_preset_in_order():
    assert [p.name for p in PRESETS] == list(EXPECTED)
    assert list(VARIANTS) == [n for n, e in EXPECTED.items() if e[-1] is not None]


@pytest.mark.parametrize("name", list(EXPECTED))
def test_listed_row(name):
    players, sides, dealt, kept, points, target, keys = EXPECTED[name]
    row = {r["variant"]: r for r in preset_rows()}[name]
    assert (row["players"], row["dealt"], row["kept"], row["tricks"]) == (
        players,
        dealt,
        kept,
        kept,
    )
    low = make_rules(name).bid_min if keys is not None else 1  # pidro bids from 6
    assert (row["points"], row["bids"], row["target"]) == (points, f"{low}-{points}", target)
    assert row["sides"] == ("two pairs" if sides == 2 and players == 4 else "each alone")
    assert row["playable"] == (keys is not None)
    if keys is None:  # refused by --variant in one line saying what is missing
        with pytest.raises(RulesError, match=f"variant {name} is not playable yet: "):
            make_rules(name)
        return
    r = make_rules(name)
    assert (r.players, r.teams, r.cards_dealt, r.hand_size) == (players, sides, dealt, kept)
    assert (r.total_points, r.bid_max, r.target) == (points, points, target)
    assert tuple(r.point_slots) == keys or set(r.point_slots) == set(keys)
    assert r.to_record() == {"preset": name, "options": {}}


def test_variants_command_lists_them_all():
    df = api.variants()
    assert list(df["variant"]) == list(EXPECTED)
    # every preset, two_deck too (two decks are in the kernel); a bool, not text
    assert df["playable"].dtype == bool and df["playable"].all()
    assert df.set_index("variant").loc["two_deck", "deck"] == 104


@pytest.mark.parametrize(
    "variant, options, message",
    [
        (
            "no_draw",
            {"robber": "maker"},
            "robber=maker has no meaning without a discard and draw, in no_draw",
        ),
        ("sancho_classic", {"shortage": "in_order"}, "shortage=in_order has no meaning"),
        ("no_draw", {"must_discard_nontrumps": "true"}, "no_draw"),
        ("sancho", {"bid_max": "24"}, "bid_max=24 must be .* to 23, the points in a deal"),
        ("standard", {"left_bower_points": "4"}, "without bowers .* in standard"),
        ("two_deck", {"bid_max": "29"}, "bid_max=29 must be .* to 28, the points"),
        ("dom_pedro", {"bid_max": "27"}, "bid_max=27 must be .* to 26"),
        ("widow", {"robber": "maker"}, "robber=maker has no meaning with a widow .* in widow"),
        ("widow", {"shortage": "in_order"}, "shortage=in_order has no meaning with a widow"),
        ("widow", {"must_discard_nontrumps": "true"}, "has no meaning with a widow"),
        # a value given as Python's (or a record's JSON) is quoted as JSON: false
        ("no_draw", {"must_discard_nontrumps": False}, "must_discard_nontrumps=false has no"),
        ("nonesuch", {}, "unknown variant 'nonesuch'"),
    ],
)
def test_combinations_without_meaning_are_refused(variant, options, message):
    with pytest.raises(RulesError, match=message):
        make_rules(variant, options)


def test_options_on_a_preset_are_recorded_as_what_differs():
    r = make_rules("all_hands", {"left_bower_points": "3", "target": "42"})
    # 1 + 1 + 1 + 1 + 5 + 3 = 12 points: the top bid follows them down, and says so
    assert r.total_points == 12 and r.bid_max == 12
    assert r.to_record() == {
        "preset": "all_hands",
        "options": {"bid_max": 12, "target": 42, "left_bower_points": 3},
    }
    a = make_rules("standard", {"bid_rounds": "auction"})
    assert a.bid_rounds == make_rules("auction").bid_rounds == 0
    assert a.to_record() == {"preset": "standard", "options": {"bid_rounds": "auction"}}
    assert make_rules("auction", {"bid_rounds": "one"}).to_record()["options"] == {
        "bid_rounds": "one"
    }


def test_odd_players_cannot_be_partners():
    from cinch_sim.rules import Rules

    with pytest.raises(RulesError, match="players=3 cannot sit as two sides"):
        Rules(players=3, robber="none")


def test_the_api_takes_a_variant():
    sim = api.simulate(hands=200, seed=1, variant="cutthroat3", rules={"target": 40})
    assert sim.settings["rules"]["preset"] == "cutthroat3"
    assert sim.settings["rules"]["options"] == {"target": 40}
    assert sim.settings["dealer"] == 2  # the last seat by default
    with pytest.raises(ValueError, match="pairing: rotate is for two sides; cutthroat3 has 3"):
        api.compare("greedy", "random", games=2, variant="cutthroat3", pairing="rotate")


def _invariants(rec: dict, name: str) -> None:
    """What every hand of the preset must show (docs/records.md "Variants")."""
    players, sides, dealt, kept, points, _, keys = EXPECTED[name]
    r = make_rules(name)
    assert rec["rules"] == {"preset": name, "options": {}}
    hands, stock = rec["hands"], rec["stock"]
    assert [len(h) for h in hands] == [dealt] * players
    # each card once (two_deck: each exactly twice, docs/records.md "Variants")
    assert Counter(c for h in hands for c in h) + Counter(stock) == Counter(
        {c: r.decks for c in set(c for h in hands for c in h) | set(stock)}
    )
    assert len({c for h in hands for c in h} | set(stock)) == 52
    res = rec["result"]
    assert len(res["points"]) == len(res["score"]) == sides
    if res.get("thrown_in"):
        return
    assert ("discards" in rec) == r.draw and ("draws" in rec) == r.draw
    assert ("robber_discards" in rec) == r.draw
    assert tuple(res["captured"]) == tuple(r.point_slots)
    assert set(res["captured"]) == set(keys)
    # every trick has one card per player; tricks = cards kept (no shortage here:
    # no preset asks for more than the stock holds, but cut-throat 5/6 may limit);
    # under trumps_only (pidro) one per player still holding a trump, trumps only,
    # and the hand ends when none is left
    if r.follow_rule == "trumps_only":
        trumps = r.trump_cards("CSDH".index(rec["trump"]))
        assert all(1 <= len(t["cards"]) <= players for t in rec["tricks"])
        assert all(trumps >> parse_card(c) & 1 for t in rec["tricks"] for c in t["cards"])
        assert len(rec["tricks"]) <= kept
    else:
        assert all(len(t["cards"]) == players for t in rec["tricks"])
        assert len(rec["tricks"]) == kept
    # the points are the point cards in play, each to the side credited
    value = {"high": 1, "low": 1, "jack": 1, "game": 1, "right_pedro": 5, "left_pedro": 5}
    value |= {"left_bower": 5, "sancho": 9, "dom": 3}
    taken = [0] * sides
    for k, side in res["captured"].items():
        if r.decks > 1:  # the sorted list of the sides credited, one per copy in play
            assert side == sorted(side) and len(side) <= r.decks
            for s in side:
                taken[s] += value[k]
        elif side is not None:
            taken[side] += value[k]
    assert taken == res["points"]
    assert sum(taken) <= points


@pytest.mark.parametrize("name", PLAYABLE)
@pytest.mark.parametrize("policy", POLICIES)
def test_random_hands_of_every_preset(tmp_path, name, policy):
    """300 hands of each preset under each built-in strategy: the invariants hold and
    the project's referee accepts every record (every play legal, every point)."""
    path = tmp_path / "hands.jsonl"
    strategy = resolve_strategy(policy)
    pol = {k: getattr(strategy, k) for k in ("bid", "trump", "discard", "play")}
    api.simulate(hands=300, seed=7, variant=name, records=path, **pol)
    lines = path.read_text().splitlines()
    assert len(lines) == 300
    for line in lines:
        rec = json.loads(line)
        _invariants(rec, name)
        hc = check_hand(rec)
        assert hc.renege is None and not hc.misdeal
        assert hc.points == rec["result"]["points"]


@pytest.mark.parametrize(
    "name",
    ["sancho", "dom_pedro", "all_hands", "no_draw", "dom_pedro_classic", "cutthroat2"]
    + ["cutthroat3", "cutthroat6", "two_deck"],
)
def test_game_records_round_trip(tmp_path, name):
    from cinch_sim.records.referee import check_game

    path = tmp_path / "games.jsonl"
    api.compare("greedy", "random", games=4, seed=3, variant=name, records=path)
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        assert rec["target"] == make_rules(name).target
        assert all(len(t) == make_rules(name).teams for t in rec["totals"])
        check_game(rec)


# ------------------------------------------------------------ hand-built deals
# Each deal: the cards dealt (in threes from the dealer's left), one bid (the others pass),
# what each seat keeps (everyone keeps six, so nobody draws) and every card played;
# the points are worked out by hand in the comments, and the project's referee
# re-derives the record too.


def _play(rules, hands, dealer, maker, trump, bid, keeps=None, plays=None):
    from helpers import SUIT, build_deck, mask, scripted_policies

    from cinch_sim.engine.run import Conditions, run_chunk
    from cinch_sim.records.writer import hand_record

    P = rules.players
    deck = build_deck(hands, "", dealer, P, rules.cards_dealt)
    ps = scripted_policies(P)
    for s, keep in (keeps or {}).items():
        ps.board[2, s, 0] = mask(keep)
    for s, seq in (plays or {}).items():
        for t, c in enumerate(seq):
            ps.board[3, s, t] = parse_card(c)
    for seat in range(P):  # the maker bids, every other seat passes
        ps.board[0, seat, 0] = bid if seat == maker else 0
    ps.board[1, :, 0] = SUIT[trump]
    cond = Conditions(deck=deck)
    out, tr = run_chunk(rules, ps, 1, 0, 1, dealer, cond, trace=True)
    rec = json.loads(json.dumps(hand_record(rules, out[0], tr[0])))
    hc = check_hand(rec)  # the project's referee agrees, card by card
    assert hc.renege is None and hc.points == rec["result"]["points"]
    return rec


def _tricks(rec):
    return [(t["leader"], t["cards"], t["winner"]) for t in rec["tricks"]]


def test_sancho_taken_with_both_pedros():
    """Trump hearts, Sancho 9H; robber=none and everyone keeps six (nobody draws).
    T0 KH AH TH QH: AH (s1) takes High and Game.    T1 2S 7S 2D 4C: 7S (s2).
    T2 8S 3D 3C 3S: 8S (s2).  T3 5H 5D 9H 2H: Sancho 9H (s0) takes both Pedros,
    Sancho and Low: 5 + 5 + 9 + 1 = 20 for seats 0+2.  T4 2C 4S 9S JH: JH (s3) takes
    Jack.  T5 4D 5C 6S JS: 4D.  Seats 1+3: High 1 + Game 1 + Jack 1 = 3; 20 + 3 = 23."""
    hands = {
        0: "9H KH 2C 3C 4C 5C 7C 8C 9C",
        1: "AH 2H 2S 3S 4S 6S TC JC QC",
        2: "5H TH 7S 8S 9S JS KC AC 6C",
        3: "JH 5D QH 2D 3D 4D QS KS AS",
    }
    keeps = {s: " ".join(h.split()[:6]) for s, h in hands.items()}
    plays = {
        0: ["KH", "4C", "3C", "9H", "2C", "5C"],
        1: ["AH", "2S", "3S", "2H", "4S", "6S"],
        2: ["TH", "7S", "8S", "5H", "9S", "JS"],
        3: ["QH", "2D", "3D", "5D", "JH", "4D"],
    }
    rules = make_rules("sancho", {"robber": "none"})
    rec = _play(rules, hands, 3, 0, "H", 10, keeps, plays)
    assert [w for _, _, w in _tricks(rec)] == [1, 2, 2, 0, 3, 3]
    res = rec["result"]
    assert res["points"] == [20, 3] and res["score"] == [20, 3] and res["made"]
    assert res["captured"] == {
        "high": 1, "low": 0, "jack": 1, "game": 1,
        "right_pedro": 0, "sancho": 0, "left_pedro": 0,
    }  # fmt: skip


def test_dom_pedro_the_3_of_trumps_is_low_and_dom():
    """dom_pedro: the Sancho deal above with 3H for 2H (the 2H is dead in the stock).
    The 3H is then the lowest trump in play: Low 1 and Dom 3 to whoever takes it,
    seats 0+2 in T3: 5 + 5 + 9 + 1 + 3 = 23; seats 1+3 as before 3; 23 + 3 = 26."""
    hands = {
        0: "9H KH 2C 3C 4C 5C 7C 8C 9C",
        1: "AH 3H 2S 3S 4S 6S TC JC QC",
        2: "5H TH 7S 8S 9S JS KC AC 6C",
        3: "JH 5D QH 2D 3D 4D QS KS AS",
    }
    keeps = {s: " ".join(h.split()[:6]) for s, h in hands.items()}
    plays = {
        0: ["KH", "4C", "3C", "9H", "2C", "5C"],
        1: ["AH", "2S", "3S", "3H", "4S", "6S"],
        2: ["TH", "7S", "8S", "5H", "9S", "JS"],
        3: ["QH", "2D", "3D", "5D", "JH", "4D"],
    }
    rules = make_rules("dom_pedro", {"robber": "none"})
    rec = _play(rules, hands, 3, 0, "H", 10, keeps, plays)
    res = rec["result"]
    assert res["points"] == [23, 3] and res["score"] == [23, 3] and res["made"]
    assert res["captured"] == {
        "high": 1, "low": 0, "jack": 1, "game": 1,
        "right_pedro": 0, "sancho": 0, "dom": 0, "left_pedro": 0,
    }  # fmt: skip


@pytest.mark.parametrize("left_points", [5, 3])
def test_bowers_rank_highest_and_the_left_one_is_a_trump(left_points):
    """all_hands, trump hearts: Right Bower JH, Left Bower JD, then AH KH ... 5H 2H;
    the 5D is a plain diamond.  T0 s0 leads AD; s1 (whose only diamond-faced card is
    JD, a trump) plays JD; s2 follows QD; s3 trumps with AH: the Left Bower beats the
    A of trumps, s1 takes High 1 + Left Bower 5.  T1 KH JH 2H 5H: the Right Bower (s2)
    takes Jack 1, Low 1, Right Pedro 5.  T2-T5 spades led by s2 (the 5D is played as a
    plain card).  The 10 of trumps is in the dead stock: no Game.  7 + 6 = 13.
    With ``left_bower_points=3`` the Left Bower's trick is worth 1 + 3 = 4 (12 in all)."""
    hands = {
        0: "AD 5H 2C 3C 4C 6C 7C 8C 9C",
        1: "JD KH 2S 3S 4S 6S TC JC QC",
        2: "QD JH 7S 8S 9S TS KC AC 5C",
        3: "AH 2H 5D 7D 8D 9D QS KS AS",
    }
    keeps = {s: " ".join(h.split()[:6]) for s, h in hands.items()}
    plays = {
        0: ["AD", "5H", "2C", "3C", "4C", "6C"],
        1: ["JD", "KH", "2S", "3S", "4S", "6S"],
        2: ["QD", "JH", "7S", "8S", "9S", "TS"],
        3: ["AH", "2H", "5D", "7D", "8D", "9D"],
    }
    rules = make_rules("all_hands", {"robber": "none", "left_bower_points": left_points})
    rec = _play(rules, hands, 3, 0, "H", 7, keeps, plays)
    assert _tricks(rec)[:2] == [(0, ["AD", "JD", "QD", "AH"], 1), (1, ["KH", "JH", "2H", "5H"], 2)]
    res = rec["result"]
    theirs = 1 + left_points
    assert res["points"] == [7, theirs] and res["score"] == [7, theirs] and res["made"]
    assert res["captured"] == {
        "high": 1, "low": 0, "jack": 0, "game": None, "right_pedro": 0, "left_bower": 1,
    }  # fmt: skip


def test_cutthroat_maker_set_while_the_others_score():
    """cutthroat3, dealer 2, trump hearts, seat 0 bids 5 and keeps only KH as trump.
    T0 KH AH 5H: s1 takes High 1 + Right Pedro 5 = 6.  T1 s1 2H, s2 5D (its last
    trump), s0 2C: the Left Pedro (s2) takes Low 1 + Left Pedro 5 = 6.  T2-T5 spades
    led by s2.  No Jack or Game in play (dead stock).  Seat 0 took 0 < 5: set back 5;
    seats 1 and 2 score what they took: [-5, 6, 6]."""
    hands = {
        0: "KH 2C 3C 4C 5C 6C 7C 8C 9C",
        1: "AH 2H 2S 3S 4S 6S TC JC QC",
        2: "5H 5D 7S 8S 9S TS KC AC QS",
    }
    keeps = {s: " ".join(h.split()[:6]) for s, h in hands.items()}
    plays = {
        0: ["KH", "2C", "3C", "4C", "5C", "6C"],
        1: ["AH", "2H", "2S", "3S", "4S", "6S"],
        2: ["5H", "5D", "7S", "8S", "9S", "TS"],
    }
    rec = _play(make_rules("cutthroat3"), hands, 2, 0, "H", 5, keeps, plays)
    assert [w for _, _, w in _tricks(rec)] == [1, 2, 2, 2, 2, 2]
    res = rec["result"]
    assert res["points"] == [0, 6, 6] and res["score"] == [-5, 6, 6] and not res["made"]
    assert res["captured"]["right_pedro"] == 1 and res["captured"]["left_pedro"] == 2


def test_no_draw_plays_nine_tricks_with_the_cards_dealt():
    """no_draw, trump hearts: no discard or draw, the 16 undealt cards are dead.
    T0 AH 2H TH 5D: s0 takes High 1, Low 1 (the lowest trump dealt), Game 1, Left
    Pedro 5.  T1 KH QH 5H JH: s0 takes Right Pedro 5 and Jack 1: 14 for seats 0+2,
    none left for the seven plain tricks after."""
    hands = {
        0: "AH KH 2C 3C 4C 5C 6C 7C 8C",
        1: "QH 2H 2S 3S 4S 6S 7S 8S 9S",
        2: "5H TH 2D 3D 4D 6D 7D 8D 9D",
        3: "JH 5D TS JS QS KS AS 9C TC",
    }
    plays = {0: ["AH", "KH"], 1: ["2H", "QH"], 2: ["TH", "5H"], 3: ["5D", "JH"]}
    rec = _play(make_rules("no_draw"), hands, 3, 0, "H", 6, plays=plays)
    assert len(rec["tricks"]) == 9
    assert "discards" not in rec and "draws" not in rec and "robber_discards" not in rec
    assert sorted(c for t in rec["tricks"] for c in t["cards"]) == sorted(
        c for h in hands.values() for c in h.split()
    )
    res = rec["result"]
    assert res["points"] == [14, 0] and res["score"] == [14, 0] and res["made"]


def test_left_bower_points_reach_the_kernel_and_the_referee(tmp_path):
    """all_hands with the Left Bower worth 2: 1 + 1 + 1 + 1 + 5 + 2 = 11 points."""
    path = tmp_path / "hands.jsonl"
    api.simulate(
        hands=300, seed=5, variant="all_hands", rules={"left_bower_points": 2}, records=path
    )
    seen = 0
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        assert rec["rules"]["options"] == {"bid_max": 11, "left_bower_points": 2}
        hc = check_hand(rec)
        assert hc.points == rec["result"]["points"] and sum(hc.points) <= 11
        side = rec["result"]["captured"]["left_bower"]
        if side is not None:
            others = {"high": 1, "low": 1, "jack": 1, "game": 1, "right_pedro": 5}
            rest = sum(v for k, v in others.items() if rec["result"]["captured"][k] == side)
            assert rec["result"]["points"][side] == rest + 2
            seen += 1
    assert seen > 100


def test_rules_set_by_hand_name_the_preset_they_play(tmp_path):
    """The structure names the game: a preset's fields set by hand are that preset
    (``Rules(widow=4, robber="none")`` once recorded itself as the standard game and
    bid from the standard game's hand model), and a structure no preset has is
    ``custom``, which plays but is refused by the records before any hand."""
    import dataclasses

    from cinch_sim.checks import InputError
    from cinch_sim.policies.hand_models import with_preset_model
    from cinch_sim.policies.heuristic import DEFAULT_PARAMS
    from cinch_sim.rules import CUSTOM, STRUCTURE_NAMES, Rules

    first = {}  # the first preset of each structure, in the table's order
    for name, rules in VARIANTS.items():
        first.setdefault(rules.structure(), name)
    for name, rules in VARIANTS.items():
        by_hand = dataclasses.replace(rules, preset="standard")
        assert by_hand.preset == first[rules.structure()]
        again = make_rules(by_hand.preset, by_hand.options())
        assert dataclasses.replace(again, preset=name) == rules  # the same game
    assert first[VARIANTS["auction"].structure()] == "standard"  # bid_rounds is an option
    assert first[VARIANTS["heasly"].structure()] == "cutthroat6"  # and so is target

    widow = Rules(widow=4, robber="none")
    assert widow.to_record() == {"preset": "widow", "options": {}}
    vector = np.array(DEFAULT_PARAMS["heuristic_bid"], dtype=np.float64)
    np.testing.assert_array_equal(
        with_preset_model(vector, widow), with_preset_model(vector, make_rules("widow"))
    )
    assert not np.array_equal(
        with_preset_model(vector, widow), with_preset_model(vector, make_rules("standard"))
    )

    custom = Rules(draw=False, cards_dealt=6, robber="none")  # six dealt, no draw: no preset
    assert custom.preset == CUSTOM and custom.structure() != VARIANTS["no_draw"].structure()
    assert len(STRUCTURE_NAMES) == len(custom.structure())
    sim = api.simulate(hands=50, seed=1, rules=custom)
    assert sim.settings["rules"]["preset"] == CUSTOM
    path = tmp_path / "custom.jsonl"
    with pytest.raises(RulesError, match="no preset's game"):
        api.simulate(hands=50, seed=1, rules=custom, records=path)
    assert not path.exists()
    with pytest.raises(InputError, match="cannot be saved to resume or merge"):
        api.simulate(hands=50, seed=1, rules=custom, save=tmp_path / "run")
    assert not (tmp_path / "run").exists()

    # an option with no meaning in the game so named is refused as --rule refuses it
    with pytest.raises(RulesError, match="shortage=in_order has no meaning with a widow"):
        Rules(widow=4, robber="none", shortage="in_order")
    with pytest.raises(RulesError, match="discards_face_up=true has no meaning without a"):
        dataclasses.replace(make_rules("no_draw"), discards_face_up=True)
