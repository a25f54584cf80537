"""Hand-written records of real-table situations, with verdicts worked out by hand
(records_cases.py explains the base hand trick by trick)."""

from __future__ import annotations

import copy
import json

import pytest
from click.testing import CliRunner
from records_cases import (
    RESULT,
    base_hand,
    bidders_renege,
    defenders_renege,
    rotate,
    set_play,
    thrown_in,
)

from cinch_sim.cli.main import main
from cinch_sim.records import referee_record, referee_records


def test_base_hand_clean_with_left_pedro_on_its_natural_suit():
    v = referee_record(base_hand())
    assert v.status == "valid", v.describe()
    hc = v.check
    assert hc.result() == RESULT
    assert [t.winner for t in hc.tricks] == [2, 2, 1, 0, 2, 2]
    # the Left Pedro (5D) won trick 2 as a trump on a diamond lead
    five_d = 2 * 13 + 3  # diamonds are suit 2, the 5 is rank 3
    assert hc.tricks[2].cards[3] == five_d
    assert hc.point_cards["left_pedro"] == five_d


def test_table_record_may_leave_winners_and_result_out():
    v = referee_record(base_hand(result=False, winners=False))
    assert v.status == "valid"
    rec = v.record
    assert rec["result"] == RESULT
    assert [t["winner"] for t in rec["tricks"]] == [2, 2, 1, 0, 2, 2]
    assert rec == base_hand()  # filled in exactly as the writer would


def test_left_pedro_on_natural_suit_is_a_renege_under_strict():
    v = referee_record(base_hand({"follow_rule": "strict"}, result=False))
    assert v.status == "renege"
    assert (v.seat, v.trick) == (1, 2)
    assert "5D" in v.message and "2D" in v.message
    r = v.check.result()
    # defenders (team 1) offend: bidders score 14, offenders 0, made true
    assert r["points"] == [9, 5] and r["made"] is True and r["score"] == [14, 0]
    assert r["renege"] == {"seat": 1, "trick": 2}


def test_left_pedro_does_not_count_as_its_natural_suit():
    from cinch_sim.cards import parse_card
    from cinch_sim.records.referee import _renege, trump_suit
    from cinch_sim.rules import make_rules

    hearts, diamonds = 3, 2
    for rule in ("may_trump", "strict"):
        ts = trump_suit(make_rules("standard", {"follow_rule": rule}), hearts)
        strict = rule == "strict"
        hand = {parse_card("5D"), parse_card("7S")}
        # holding the LP but no other diamond, a player is void in diamonds
        assert _renege(ts, hand, parse_card("7S"), diamonds, strict) is None
        assert _renege(ts, hand, parse_card("5D"), diamonds, strict) is None
        # ... and the LP is a trump: on a trump lead it must be played
        assert "trump" in _renege(ts, hand, parse_card("7S"), hearts, strict)
        # it cannot be used to follow diamonds under strict
        hand = {parse_card("5D"), parse_card("2D")}
        got = _renege(ts, hand, parse_card("5D"), diamonds, strict)
        assert (got is not None) == strict


def test_renege_by_defenders():
    v = referee_record(defenders_renege())
    assert v.status == "renege"
    assert (v.seat, v.trick) == (3, 2)
    r = v.check.result()
    assert r["points"] == [9, 5]  # what was actually taken
    assert r["captured"] == RESULT["captured"]
    assert r["made"] is True
    assert r["score"] == [14, 0]
    assert r["renege"] == {"seat": 3, "trick": 2}


def test_renege_by_bidders():
    v = referee_record(bidders_renege())
    assert v.status == "renege"
    assert (v.seat, v.trick) == (2, 3)
    r = v.check.result()
    assert r["points"] == [9, 5]
    assert r["made"] is False
    assert r["score"] == [-7, 14]
    assert r["renege"] == {"seat": 2, "trick": 3}


def test_renege_penalty_same_under_difference_scoring():
    rec = bidders_renege()
    rec["rules"]["options"] = {"scoring": "difference"}
    assert referee_record(rec).check.result()["score"] == [-7, 14]
    rec = defenders_renege()
    rec["rules"]["options"] = {"scoring": "difference"}
    assert referee_record(rec).check.result()["score"] == [14, 0]


def test_renege_record_with_its_result_given_agrees():
    rec = bidders_renege()
    rec["result"] = {
        "points": [9, 5],
        "captured": RESULT["captured"],
        "made": False,
        "score": [-7, 14],
        "renege": {"seat": 2, "trick": 3},
    }
    assert referee_record(rec).status == "renege"
    rec["result"]["score"] = [9, 5]  # the unpenalised score is wrong
    v = referee_record(rec)
    assert v.status == "invalid" and v.field == "result.score"


def test_only_the_first_renege_counts():
    rec = bidders_renege()  # seat 2 reneges in trick 3
    set_play(rec, 2, 1, "3C")  # and seat 3 earlier, in trick 2
    set_play(rec, 4, 3, "KD")
    v = referee_record(rec)
    assert (v.seat, v.trick) == (3, 2)
    assert v.check.result()["score"] == [14, 0]


def test_misdeal_wrong_count():
    rec = base_hand()
    rec["hands"][0].append(rec["hands"][1].pop())  # seat 0 gets 10, seat 1 gets 8
    v = referee_record(rec)
    assert v.status == "misdeal"
    assert "seat 0 was dealt 10 cards" in v.message


def test_misdeal_exposed_card_needs_no_later_fields():
    rec = {
        k: v for k, v in base_hand().items() if k in ("format", "rules", "dealer", "hands", "stock")
    }
    rec["exposed"] = "Q♥"
    v = referee_record(rec)
    assert v.status == "misdeal"
    assert "QH exposed" in v.message


def test_misdeal_needs_52_distinct_cards():
    rec = base_hand()
    rec["hands"][0].append(rec["stock"].pop())
    assert referee_record(rec).status == "misdeal"
    rec["stock"].pop()  # now only 51 cards: invalid, not a misdeal
    v = referee_record(rec)
    assert v.status == "invalid" and "missing" in v.message


@pytest.mark.parametrize("all_pass", ["redeal_next", "redeal_same"])
def test_thrown_in_hand(all_pass):
    v = referee_record(thrown_in(all_pass=all_pass))
    assert v.status == "valid"
    assert v.record["result"] == {
        "thrown_in": True,
        "points": [0, 0],
        "score": [0, 0],
        "made": None,
    }
    assert "discards" not in v.record
    bad = thrown_in(all_pass=all_pass)
    bad["tricks"] = []
    assert referee_record(bad).status == "invalid"
    bad = thrown_in(all_pass=all_pass)
    bad["maker"] = 3
    assert referee_record(bad).field == "maker"


def test_all_pass_default_dealer_names_trumps_at_zero():
    rec = thrown_in(all_pass="dealer_no_contract")
    assert referee_record(rec).status == "invalid"  # the dealer must be the maker
    # The same deal with the dealer (seat 3) the maker at 0: points can't set him.
    rec = base_hand(result=False)
    rec["bids"] = [[0, None], [1, None], [2, None], [3, None]]
    rec["maker"], rec["bid"] = 3, 0
    v = referee_record(rec)
    # now seat 3 robs, and seat 2 is a drawer who discarded nothing
    assert v.status == "invalid" and v.field == "discards[2]" and "keeps 9 cards" in v.message


def test_forced_dealer_bid():
    rec = thrown_in(all_pass="dealer_forced_min")
    v = referee_record(rec)
    assert v.status == "invalid" and v.field == "bids[3]" and "must bid 1" in v.message
    rec = thrown_in(all_pass="dealer_forced_any")
    v = referee_record(rec)
    assert v.status == "invalid" and v.field == "bids[3]" and "may not pass" in v.message


def test_rotated_hand_keeps_its_verdict():
    for k in range(4):
        v = referee_record(rotate(base_hand(), k))
        assert v.status == "valid", v.describe()
        expect = [9, 5] if k % 2 == 0 else [5, 9]
        assert v.check.result()["score"] == expect


def test_card_notations_accepted():
    rec = base_hand()
    rec["hands"][0] = ["Q♥", "9♥️", "7s", "8♠", "2S", "3S", "4S", "5S", "6S"]
    rec["tricks"][3]["cards"][0] = "10H"
    assert referee_record(rec).status == "valid"


# ------------------------------------------------------------------ games
def _game(hands, options=None, **fields):
    rec = {
        "format": "cinch-game/1",
        "rules": {"preset": "standard", "options": dict(options or {})},
        "target": (options or {}).get("target", 51),
        "first_dealer": hands[0]["dealer"],
        "hands": hands,
    }
    rec.update(fields)
    return rec


def _hand(rec):
    rec = copy.deepcopy(rec)
    rec.pop("format", None)
    rec.pop("rules", None)
    rec.pop("result", None)
    return rec


def test_game_bidders_first_when_both_reach_target():
    # target 10: hand 0 (dealer 3) team 0 makes 9, team 1 takes 5 -> [9, 5];
    # hand 1 (dealer 0, the hand rotated: seat 3 bids 7 for team 1 and makes 9,
    # team 0 takes 5) -> [14, 14]: both reach 10, the bidders (team 1) win.
    hands = [_hand(base_hand()), _hand(rotate(base_hand(), 1))]
    v = referee_record(_game(hands, {"target": 10}))
    assert v.status == "valid", v.describe()
    g = v.record
    assert g["totals"] == [[9, 5], [14, 14]]
    assert (g["winner"], g["reason"]) == (1, "target")


def test_game_hands_after_the_end_are_invalid():
    hands = [_hand(base_hand()), _hand(rotate(base_hand(), 1)), _hand(rotate(base_hand(), 2))]
    v = referee_record(_game(hands, {"target": 10}))
    assert v.status == "invalid" and v.field == "hands[2]"


def test_game_dealer_moves_clockwise():
    hands = [_hand(base_hand()), _hand(base_hand())]  # dealer 3 twice: wrong
    v = referee_record(_game(hands))
    assert v.status == "invalid" and v.field == "hands[1].dealer"
    assert "seat 0 deals" in v.message


def test_game_misdeal_same_dealer_deals_again():
    mis = _hand(base_hand())
    mis["exposed"] = "AS"
    hands = [mis, _hand(base_hand()), _hand(rotate(base_hand(), 1))]
    v = referee_record(_game(hands))
    assert v.status == "misdeal", v.describe()
    assert v.record["totals"] == [[0, 0], [9, 5], [14, 14]]
    assert v.record["reason"] == "unfinished" and v.record["winner"] is None


@pytest.mark.parametrize(("all_pass", "next_dealer"), [("redeal_same", 3), ("redeal_next", 0)])
def test_game_thrown_in_dealer(all_pass, next_dealer):
    first = _hand(thrown_in(all_pass=all_pass))
    second = _hand(rotate(base_hand(), next_dealer - 3))
    v = referee_record(_game([first, second], {"all_pass": all_pass}))
    assert v.status == "valid", v.describe()
    wrong = _hand(rotate(base_hand(), (next_dealer + 1) % 4 - 3))
    v = referee_record(_game([first, wrong], {"all_pass": all_pass}))
    assert v.status == "invalid" and v.field == "hands[1].dealer"


def test_game_negative_limit_and_renege():
    # the bidders renege: team 0 -7 <= -5 -> team 0 loses on the negative limit
    hands = [_hand(bidders_renege())]
    v = referee_record(_game(hands, {"min_score_loss": 5}))
    assert v.status == "renege"
    assert v.record["totals"] == [[-7, 14]]
    assert (v.record["winner"], v.record["reason"]) == (1, "negative_limit")
    # the target check comes first: team 1 reaches 14 >= 12 on the same hand
    v = referee_record(_game(hands, {"min_score_loss": 5, "target": 12}))
    assert (v.record["winner"], v.record["reason"]) == (1, "target")


def test_game_negative_totals_continue_without_limit():
    hands = [_hand(bidders_renege())]
    v = referee_record(_game(hands))
    assert v.record["reason"] == "unfinished" and v.record["totals"] == [[-7, 14]]


def test_game_given_fields_must_agree():
    hands = [_hand(base_hand()), _hand(rotate(base_hand(), 1))]
    good = _game(hands, {"target": 10}, totals=[[9, 5], [14, 14]], winner=1, reason="target")
    assert referee_record(good).status == "valid"
    for key, val in (("totals", [[9, 5], [14, 15]]), ("winner", 0), ("reason", "unfinished")):
        bad = copy.deepcopy(good)
        bad[key] = val
        v = referee_record(bad)
        assert v.status == "invalid" and v.field.startswith(key), v.describe()
    bad = copy.deepcopy(good)
    bad["target"] = 51  # the options say 10
    assert referee_record(bad).field == "target"


def test_cli_referee_table_file(tmp_path):
    recs = [base_hand(), defenders_renege(), bidders_renege(), thrown_in()]
    mis = base_hand()
    mis["exposed"] = "AS"
    recs.append(mis)
    path = tmp_path / "table.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in recs) + "\n")
    out = tmp_path / "filled.jsonl"
    res = CliRunner().invoke(main, ["referee", str(path), "--write", str(out)])
    assert res.exit_code == 0, res.output
    lines = res.output.strip().splitlines()
    assert lines[-1] == "2 valid, 2 renege, 1 misdeal, 0 invalid"
    assert lines[0].startswith("line 2: renege: seat 3, trick 3:")  # tricks[2]
    assert lines[1].startswith("line 3: renege: seat 2, trick 4:")
    assert lines[2].startswith("line 5: misdeal:")
    written = [json.loads(x) for x in out.read_text().splitlines()]
    assert written[1]["result"]["score"] == [14, 0]
    assert written[2]["result"]["renege"] == {"seat": 2, "trick": 3}
    assert [v.status for v in referee_records(written)] == [
        "valid", "renege", "renege", "valid", "misdeal",
    ]  # fmt: skip


def test_cli_show(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(base_hand()) + "\n" + json.dumps(bidders_renege()) + "\n")
    res = CliRunner().invoke(main, ["show", str(path)])
    assert res.exit_code == 0, res.output
    out = res.output
    assert "♥" in out and "Trump: ♥" in out
    assert "won by seat 1" in out
    assert "left pedro" in out and "5♦" in out
    # after the draw the Left Pedro is listed with the trumps, not under diamonds
    assert "♥ 10 7 3 +5♦  ♦ 2" in out
    assert "Score: team 0 +9, team 1 +5" in out
    res = CliRunner().invoke(main, ["show", str(path), "--line", "2"])
    assert "renege by seat 2" in res.output and "team 0 -7" in res.output
    res = CliRunner().invoke(main, ["show", str(path), "--line", "9"])
    assert res.exit_code == 2 and "no record" in res.output  # a usage error


def test_dealer_robs_under_robber_dealer():
    from records_cases import dealer_robs

    v = referee_record(dealer_robs())
    assert v.status == "valid", v.describe()
    assert v.check.robber == 2 and v.check.result()["score"] == [9, 5]
    # with robber=none seat 2 must discard and draw like everyone else
    rec = dealer_robs()
    rec["rules"]["options"] = {"robber": "none"}
    v = referee_record(rec)
    assert v.status == "invalid" and v.field == "discards[2]"


def test_python_api_frames(tmp_path):
    from cinch_sim import records

    recs = [base_hand(), defenders_renege(), thrown_in()]
    path = tmp_path / "api.jsonl"
    assert records.write_records(path, recs) == 3
    rep = records.referee_file(path)
    assert rep.summary() == "2 valid, 1 renege, 0 misdeal, 0 invalid" and rep.ok
    df = rep.to_frame()
    assert list(df["status"]) == ["valid", "renege", "valid"]
    assert list(df["score_0"]) == [9, 14, 0]
    assert df.loc[0, "captured_left_pedro"] == 1 and df.loc[0, "trump"] == "H"
    assert records.hands_frame(path).shape[0] == 3
    assert records.hands_frame(recs)["line"].tolist() == [1, 2, 3]
    assert records.load_records(path) == json.loads(json.dumps(recs))
    hc = records.check_hand(base_hand(result=False))
    assert hc.result() == RESULT


def test_cli_show_game(tmp_path):
    hands = [_hand(base_hand()), _hand(rotate(base_hand(), 1))]
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps(_game(hands, {"target": 10}), ensure_ascii=False) + "\n")
    res = CliRunner().invoke(main, ["show", str(path), "--hand", "1"])
    assert res.exit_code == 0, res.output
    assert "Winner: team 1 (target)" in res.output and "Hand 1:" in res.output
    # the hands as a table under ruled headers: each side's change, then the totals
    lines = res.output.splitlines()
    assert lines[1].split() == "hand dealer maker bid trump result team 0 team 1 totals".split()
    assert set(lines[2]) == {"-", " "}
    from cinch_sim.records.referee import check_game

    gc = check_game(json.loads(path.read_text()))
    for row, h, tot in zip(lines[3:5], gc.hands, gc.totals, strict=True):
        cells = row.split()
        assert cells[-len(tot) - 2 : -len(tot)] == [f"{x:+d}" for x in h.score]
        assert " ".join(cells[-len(tot) :]) == ", ".join(map(str, tot))
    res = CliRunner().invoke(main, ["referee", str(path)])
    assert res.exit_code == 0 and res.output == "1 valid, 0 renege, 0 misdeal, 0 invalid\n"
