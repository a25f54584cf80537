"""A game record's dealers: the rotation is checked before the hand is replayed, so a
wrong dealer is reported as the dealer (naming the seat that deals), not as a bid out
of turn of a hand replayed from the wrong seat."""

from __future__ import annotations

import copy
import json

import pytest
from click.testing import CliRunner
from records_cases import base_hand, rotate

from cinch_sim.cli.main import main
from cinch_sim.engine.run import PolicySet
from cinch_sim.records import referee_record
from cinch_sim.records.writer import simulate_game_record
from cinch_sim.rules import make_rules


@pytest.fixture(scope="module")
def game() -> dict:
    rules = make_rules("standard", {})
    pol = PolicySet.from_specs(4, bid="random", trump="random", discard="random", play="random")
    g = simulate_game_record(rules, pol, seed=1, first_dealer=1, max_hands=60)
    assert len(g["hands"]) > 4
    assert referee_record(g).status == "valid"
    return g


def _with_dealer(g: dict, i: int, dealer) -> dict:
    g = copy.deepcopy(g)
    g["hands"][i]["dealer"] = dealer
    return g


def test_wrong_dealer_in_a_later_hand_names_the_dealer(game):
    right = game["hands"][3]["dealer"]
    wrong = (right + 1) % 4
    v = referee_record(_with_dealer(game, 3, wrong))
    assert v.status == "invalid"
    assert v.field == "hands[3].dealer", v.describe()
    assert v.seat == right
    assert v.message == (
        f"record says seat {wrong}, seat {right} deals (the deal moves clockwise after hands[2])"
    )


def test_wrong_dealer_through_the_command(game, tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps(_with_dealer(game, 3, (game["hands"][3]["dealer"] + 2) % 4)) + "\n")
    res = CliRunner().invoke(main, ["referee", str(path), "--format", "json"])
    assert res.exit_code == 1, res.output
    first = json.loads(res.stdout)["problems"][0]
    assert first["field"] == "hands[3].dealer"
    assert "deals" in first["message"] and "out of turn" not in first["message"]


@pytest.mark.parametrize(
    ("dealer", "words"), [("2", "must be a whole number"), (7, "out of range 0..3")]
)
def test_a_dealer_that_is_not_a_seat_is_still_the_hands_problem(game, dealer, words):
    v = referee_record(_with_dealer(game, 3, dealer))
    assert v.status == "invalid" and v.field == "hands[3].dealer"
    assert words in v.message


def _hand(rec: dict) -> dict:
    rec = copy.deepcopy(rec)
    for k in ("format", "rules", "result"):
        rec.pop(k, None)
    return rec


def _game(hands: list[dict]) -> dict:
    return {
        "format": "cinch-game/1",
        "rules": {"preset": "standard", "options": {}},
        "target": 51,
        "first_dealer": hands[0]["dealer"],
        "hands": hands,
    }


def test_after_a_misdeal_the_same_dealer_deals_again():
    mis = _hand(base_hand())  # dealer 3
    mis["exposed"] = "AS"
    v = referee_record(_game([mis, _hand(base_hand())]))  # dealer 3 again: right
    assert v.status == "misdeal", v.describe()
    moved = _hand(rotate(base_hand(), 1))  # dealer 0: the deal may not move on
    v = referee_record(_game([mis, moved]))
    assert v.status == "invalid" and v.field == "hands[1].dealer", v.describe()
    assert v.seat == 3
    assert "seat 3 deals (a misdeal in hands[0]: the same dealer deals again)" in v.message
