"""The referee reads exactly what docs/records.md says, and nothing looser.

Option values are not coerced (``"7"`` is not 7, ``"DEALER"`` is not ``dealer``),
the trump is a suit letter, ``exposed`` is a card, a ``result`` that is given is
whole, a game's totals, winner and reason come together, and an unreported
renege is named at ``result.renege``. Each case corrupts one field of a good
record (one the simulator wrote, or records_cases' hand-built ones).
"""

from __future__ import annotations

import copy
import json

import pytest
from click.testing import CliRunner
from records_cases import RESULT, base_hand, bidders_renege, defenders_renege, rotate, thrown_in

from cinch_sim.cli.main import main
from cinch_sim.records import referee_record
from cinch_sim.records.parse import _OPTION_TYPES, option_value_problem
from cinch_sim.rules import CHOICES, OPTION_NAMES

# Line 1 of `cinch-sim simulate --hands 5 --seed 3 --records x.jsonl`: trump clubs,
# seat 3 bids 8, robs, and takes every trick.
SIM_HAND_LINE = (
    '{"format": "cinch-hand/1", "rules": {"preset": "standard", "options": {}}, "dealer": 3, '
    '"hands": [["AS", "JH", "2D", "TC", "9C", "3D", "AD", "TH", "5D"], ["5H", "2C", "7S", '
    '"QD", "2H", "6D", "7C", "9D", "KS"], ["TS", "8H", "QC", "4S", "3H", "5C", "KH", "3C", '
    '"8D"], ["6H", "AC", "KC", "JC", "7D", "3S", "AH", "2S", "4C"]], "stock": ["9S", "9H", '
    '"8C", "4D", "JS", "KD", "4H", "QS", "5S", "7H", "JD", "QH", "6C", "6S", "TD", "8S"], '
    '"bids": [[0, 7], [1, null], [2, null], [3, 8]], "maker": 3, "bid": 8, "trump": "C", '
    '"discards": [["AS", "JH", "2D", "3D", "AD", "TH", "5D"], ["5H", "7S", "QD", "2H", "6D", '
    '"9D", "KS"], ["TS", "8H", "4S", "3H", "KH", "8D"], []], "draws": [["9S", "9H", "8C", '
    '"4D"], ["JS", "KD", "4H", "QS"], ["5S", "7H", "JD"], ["QH", "6C", "6S", "TD", "8S"]], '
    '"robber_discards": ["6H", "7D", "3S", "2S", "QH", "6S", "TD", "8S"], "tricks": '
    '[{"leader": 3, "cards": ["AC", "8C", "2C", "3C"], "winner": 3}, {"leader": 3, "cards": '
    '["KC", "9C", "7C", "QC"], "winner": 3}, {"leader": 3, "cards": ["JC", "TC", "KD", "5S"],'
    ' "winner": 3}, {"leader": 3, "cards": ["6C", "4D", "QS", "5C"], "winner": 3}, {"leader":'
    ' 3, "cards": ["AH", "9H", "4H", "7H"], "winner": 3}, {"leader": 3, "cards": ["4C", "9S",'
    ' "JS", "JD"], "winner": 3}], "result": {"points": [0, 14], "captured": {"high": 1, '
    '"low": 1, "jack": 1, "game": 1, "right_pedro": 1, "left_pedro": 1}, "made": true, '
    '"score": [0, 14], "renege": null}}'
)
RESULT_KEYS = ("points", "captured", "made", "score", "renege")


def sim_hand() -> dict:
    return json.loads(SIM_HAND_LINE)


def verdict(rec):
    """The verdict on ``rec`` after a JSON round trip (as the file would hold it)."""
    return referee_record(json.loads(json.dumps(rec)), 1)


def test_the_simulated_record_is_valid():
    assert verdict(sim_hand()).status == "valid"


# ------------------------------------------------------------ option values
# Each value is what the CLI's --rule would accept as text, but a record holds
# JSON values: a whole number, true/false, null, or one of the option's words.
COERCED = [
    ("bid_min", "7"),
    ("bid_min", "1"),  # the default, but as text
    ("bid_max", " 14"),
    ("target", "51"),
    ("target", 51.0),
    ("min_score_loss", "off"),
    ("min_score_loss", "none"),
    ("min_score_loss", "5"),
    ("min_score_loss", False),
    ("left_bower_points", "5"),
    ("robber", "DEALER"),
    ("robber", "MAKER"),  # the default, in capitals
    ("robber", " maker"),
    ("robber", 0),
    ("all_pass", "Dealer_No_Contract"),
    ("follow_rule", None),
    ("must_discard_nontrumps", "yes"),
    ("must_discard_nontrumps", "no"),
    ("must_discard_nontrumps", "false"),
    ("must_discard_nontrumps", 0),
    ("must_discard_nontrumps", 1),
    ("must_discard_nontrumps", None),
    ("discards_face_up", "off"),
    ("discards_face_up", 0),
]


@pytest.mark.parametrize(("name", "value"), COERCED, ids=[f"{n}={v!r}" for n, v in COERCED])
def test_option_values_are_not_coerced(name, value):
    rec = sim_hand()
    rec["rules"]["options"][name] = value
    v = verdict(rec)
    assert v.status == "invalid", v.describe()
    assert v.field == f"rules.options.{name}", v.describe()
    assert name in v.message, v.describe()


def test_every_option_has_a_json_type_the_reader_checks():
    """A new option whose type the reader does not know would be coerced again."""
    for name in OPTION_NAMES:
        assert name in CHOICES or _OPTION_TYPES[name] in ("bool", "int", "int | None"), name
        assert option_value_problem(name, "text") is not None, name


def test_options_null_is_not_an_empty_object():
    rec = sim_hand()
    rec["rules"]["options"] = None
    v = verdict(rec)
    assert v.status == "invalid" and v.field == "rules.options", v.describe()


def test_options_in_their_json_form_still_read():
    rec = sim_hand()
    rec["rules"]["options"] = {
        "robber": "maker",
        "must_discard_nontrumps": False,
        "min_score_loss": None,
        "target": 51,
        "bid_min": 1,
    }
    assert verdict(rec).status == "valid", verdict(rec).describe()
    v = verdict(base_hand({"must_discard_nontrumps": True}))
    assert v.field == "discards[0]" and "must_discard_nontrumps" in v.message


# ------------------------------------------------------------ trump and exposed
NOT_SUIT_LETTERS = ["clubs", "Clubs", "CLUBS", "c", "♣", "♣️", " C", "CC", "CS", "", 2]


@pytest.mark.parametrize("trump", NOT_SUIT_LETTERS)
def test_trump_is_a_suit_letter(trump):
    rec = sim_hand()
    rec["trump"] = trump
    v = verdict(rec)
    assert v.status == "invalid" and v.field == "trump", v.describe()


@pytest.mark.parametrize("exposed", [None, [], ["AS"], 7, "", "spades"])
def test_exposed_is_one_card(exposed):
    rec = sim_hand()
    rec["exposed"] = exposed
    v = verdict(rec)
    assert v.status == "invalid" and v.field == "exposed", v.describe()


def test_an_exposed_card_is_a_misdeal():
    rec = sim_hand()
    rec["exposed"] = "AS"
    assert verdict(rec).status == "misdeal"


# ------------------------------------------------------------ fields left null
def test_left_out_is_not_null():
    """A table may leave out a trick's winner or the whole result; null is neither."""
    rec = sim_hand()
    rec["tricks"][2]["winner"] = None
    v = verdict(rec)
    assert v.status == "invalid" and v.field == "tricks[2].winner", v.describe()
    rec = sim_hand()
    rec["result"] = None
    v = verdict(rec)
    assert v.status == "invalid" and v.field == "result", v.describe()
    rec = sim_hand()
    del rec["result"]
    for t in rec["tricks"]:
        del t["winner"]
    assert verdict(rec).status == "valid"


# ------------------------------------------------------------ a whole result
@pytest.mark.parametrize("key", RESULT_KEYS)
def test_a_given_result_is_whole(key):
    for rec in (sim_hand(), base_hand()):
        del rec["result"][key]
        v = verdict(rec)
        assert v.status == "invalid", v.describe()
        assert v.field == f"result.{key}", v.describe()
        assert f"missing field {json.dumps(key)}" in v.message, v.describe()


def test_a_result_missing_several_keys_names_the_first_in_format_order():
    rec = base_hand()
    for key in ("renege", "score", "captured"):
        del rec["result"][key]
    v = verdict(rec)
    assert v.status == "invalid" and v.field == "result.captured", v.describe()


@pytest.mark.parametrize("name", list(RESULT["captured"]))
def test_every_point_is_in_captured(name):
    rec = base_hand()
    del rec["result"]["captured"][name]
    v = verdict(rec)
    assert v.status == "invalid", v.describe()
    assert v.field == f"result.captured.{name}", v.describe()
    assert f"missing field {json.dumps(name)}" in v.message, v.describe()


def test_a_played_hand_is_not_thrown_in():
    rec = sim_hand()
    rec["result"]["thrown_in"] = False  # the format has no such key for a played hand
    v = verdict(rec)
    assert v.status == "invalid" and v.field and v.field.startswith("result"), v.describe()


def _thrown_in_with_result() -> dict:
    rec = thrown_in()
    rec["result"] = {"thrown_in": True, "points": [0, 0], "score": [0, 0], "made": None}
    return rec


@pytest.mark.parametrize("key", ["thrown_in", "points", "score", "made"])
def test_a_thrown_in_result_is_whole(key):
    rec = _thrown_in_with_result()
    assert verdict(rec).status == "valid"
    del rec["result"][key]
    v = verdict(rec)
    assert v.status == "invalid", v.describe()
    assert v.field == f"result.{key}", v.describe()


def test_a_thrown_in_result_says_thrown_in_true():
    rec = _thrown_in_with_result()
    rec["result"]["thrown_in"] = False
    v = verdict(rec)
    assert v.status == "invalid" and v.field == "result.thrown_in", v.describe()


# ------------------------------------------------------------ a whole game
def _game_hand(rec: dict) -> dict:
    rec = copy.deepcopy(rec)
    for k in ("format", "rules", "result"):
        rec.pop(k, None)
    return rec


def _game() -> dict:
    """Target 10: team 0 makes 9 to [9, 5], then team 1 bids 7 and both reach 14;
    the bidders, team 1, win (see test_records_table)."""
    return {
        "format": "cinch-game/1",
        "rules": {"preset": "standard", "options": {"target": 10}},
        "target": 10,
        "first_dealer": 3,
        "hands": [_game_hand(base_hand()), _game_hand(rotate(base_hand(), 1))],
        "totals": [[9, 5], [14, 14]],
        "winner": 1,
        "reason": "target",
    }


def test_a_game_given_whole_or_without_its_computed_fields_is_valid():
    assert verdict(_game()).status == "valid"
    rec = _game()
    for key in ("totals", "winner", "reason"):
        del rec[key]
    v = verdict(rec)
    assert v.status == "valid", v.describe()
    assert v.record["totals"] == [[9, 5], [14, 14]]


@pytest.mark.parametrize("key", ["totals", "winner", "reason"])
def test_a_game_missing_one_of_totals_winner_reason_is_invalid(key):
    rec = _game()
    del rec[key]
    v = verdict(rec)
    assert v.status == "invalid", v.describe()
    assert v.field == key, v.describe()
    assert f"missing field {json.dumps(key)}" in v.message, v.describe()


@pytest.mark.parametrize("keep", ["totals", "winner", "reason"])
def test_a_game_with_only_one_of_totals_winner_reason_is_invalid(keep):
    rec = _game()
    for key in ("totals", "winner", "reason"):
        if key != keep:
            del rec[key]
    v = verdict(rec)
    assert v.status == "invalid", v.describe()
    assert v.field in ("totals", "winner", "reason") and v.field != keep, v.describe()


@pytest.mark.parametrize("key", ["totals", "reason"])
def test_a_game_field_null_is_not_left_out(key):
    rec = _game()
    rec[key] = None
    v = verdict(rec)
    assert v.status == "invalid" and v.field == key, v.describe()


def test_an_unfinished_game_has_winner_null():
    rec = _game()
    rec["rules"]["options"] = {}
    rec["target"] = 51
    rec.update(totals=[[9, 5], [14, 14]], winner=None, reason="unfinished")
    assert verdict(rec).status == "valid", verdict(rec).describe()
    rec["winner"] = 0
    assert verdict(rec).field == "winner"


# ------------------------------------------------------------ an unreported renege
def _unreported(rec: dict, renege) -> dict:
    """The renege hand with the result a table would write if nobody saw the renege
    (points 9/5, bid 7 made, no penalty)."""
    rec = copy.deepcopy(rec)
    rec["result"] = copy.deepcopy(RESULT)
    rec["result"]["renege"] = renege
    return rec


@pytest.mark.parametrize(
    ("case", "seat", "trick"),
    [(defenders_renege, 3, 2), (bidders_renege, 2, 3)],
    ids=["defenders (score differs)", "bidders (made differs)"],
)
@pytest.mark.parametrize("renege", [None, False, {}], ids=["null", "false", "empty"])
def test_an_unreported_renege_is_named_at_result_renege(case, seat, trick, renege):
    v = verdict(_unreported(case(), renege))
    assert v.status == "invalid", v.describe()
    assert v.field == "result.renege", v.describe()
    assert (v.seat, v.trick) == (seat, trick), v.describe()
    assert f"seat {seat} plays" in v.message, v.describe()


def test_a_reported_renege_with_a_wrong_score_is_named_at_the_score():
    rec = defenders_renege()
    rec["result"] = copy.deepcopy(RESULT)
    rec["result"]["renege"] = {"seat": 3, "trick": 2}
    rec["result"]["made"] = True
    v = verdict(rec)  # made is right (the defenders reneged), score is not [14, 0]
    assert v.status == "invalid" and v.field == "result.score", v.describe()
    rec["result"]["score"] = [14, 0]
    assert verdict(rec).status == "renege"


def test_wrong_points_come_before_an_unreported_renege():
    rec = _unreported(defenders_renege(), None)
    rec["result"]["points"] = [8, 6]
    v = verdict(rec)
    assert v.status == "invalid" and v.field == "result.points", v.describe()


def test_cli_names_the_unreported_renege(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(_unreported(bidders_renege(), None)) + "\n")
    res = CliRunner().invoke(main, ["referee", str(path)])
    assert res.exit_code == 1, res.output
    assert res.output.startswith("line 1: invalid: result.renege, seat 2, trick 4: "), res.output
