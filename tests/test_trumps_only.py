"""follow_rule=trumps_only (Finnish Pidro, docs/rules.md): only trumps are played, a
seat without one sits the hand out, and the hand ends when no trump is left.

The records are the base hand of records_cases.py (hearts trump, seat 2 the maker at
7) under the option. After the draw the seats hold these trumps:
seat 0 QH 9H 8H; seat 1 TH 3H 5D (the Left Pedro) 7H; seat 2 AH KH JH 2H;
seat 3 6H 5H (the Right Pedro) 4H. Tricks 0 and 1 are the base hand's (all trumps).
"""

from __future__ import annotations

import json

import pytest
from records_cases import base_hand

from cinch_sim import api
from cinch_sim.records import referee_record

OPTION = {"follow_rule": "trumps_only"}


def _record(tricks: list[tuple[int, list[str], int]]) -> dict:
    rec = base_hand(OPTION, result=False)
    rec["tricks"] = [
        {"leader": 2, "cards": ["AH", "4H", "8H", "3H"], "winner": 2},
        {"leader": 2, "cards": ["KH", "6H", "9H", "7H"], "winner": 2},
        *({"leader": ld, "cards": cards, "winner": w} for ld, cards, w in tricks),
    ]
    return rec


def test_a_trumps_only_hand_ends_when_no_trump_is_left():
    # Trick 2: seat 2 JH, seat 3 5H, seat 0 QH, seat 1 TH -> QH: seat 0.
    # Trick 3: seat 0 holds no trump (its 7S 8S 4C are dead), so seat 1 leads the 5D;
    # seat 2 2H; seat 3 is out -> 5D beats 2H: seat 1. Nobody holds a trump: over.
    # Points: High AH (trick 0) team 0; Jack JH, Game TH, Right Pedro 5H (trick 2, seat
    # 0) team 0; Low 2H and Left Pedro 5D (trick 3, seat 1) team 1.
    # Team 0: 1 + 1 + 1 + 5 = 8 >= 7, made; team 1: 1 + 5 = 6.  Score [8, 6].
    rec = _record([(2, ["JH", "5H", "QH", "TH"], 0), (1, ["5D", "2H"], 1)])
    v = referee_record(rec)
    assert v.status == "valid", v.describe()
    r = v.record["result"]
    assert r["points"] == [8, 6] and r["made"] is True and r["score"] == [8, 6]
    assert r["captured"]["low"] == 1 and r["captured"]["left_pedro"] == 1


def test_a_plain_card_played_while_holding_a_trump_is_a_renege():
    # Trick 2: seat 3 plays 3C holding the 5H (a renege); QH still wins, seat 0.
    # Trick 3: seat 1 leads 5D, seat 2 2H, seat 3 5H -> the Right Pedro wins: seat 3.
    # The defenders reneged (docs/rules.md, renege): the bidders score 14, they 0.
    rec = _record([(2, ["JH", "3C", "QH", "TH"], 0), (1, ["5D", "2H", "5H"], 3)])
    v = referee_record(rec)
    assert v.status == "renege", v.describe()
    assert "while holding a trump (follow_rule=trumps_only)" in v.message
    assert v.record["result"]["score"] == [14, 0]


def test_a_seat_that_is_out_may_not_play():
    # trick 3 as in the first test, where only seats 1 and 2 still hold a trump, with
    # seat 3 (out since it played its last trump, 5H, in trick 2) adding a dead card
    rec = _record([(2, ["JH", "5H", "QH", "TH"], 0), (1, ["5D", "2H", "AD"], 1)])
    v = referee_record(rec)
    assert v.status == "invalid"
    assert "2 seats hold trumps (1, 2) and each plays one; record has 3 cards" in v.message


@pytest.mark.parametrize("play", ["heuristic", "dd", "pimc"])
def test_every_player_plays_trumps_only_hands_the_referee_accepts(play, tmp_path):
    """Simulated hands under the option, PIMC's deals of the unseen trumps and the
    double-dummy play included, referee clean, plain cards never played."""
    path = tmp_path / "hands.jsonl"
    hands = 40 if play == "heuristic" else 8
    sim = api.simulate(hands=hands, seed=3, rules=OPTION, play=play, records=path, threads=1)
    assert sim.counts.hands == hands
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        v = referee_record(rec)
        assert v.status == "valid", v.describe()
        trump = "CSDH".index(rec["trump"])
        left = "CSDH"[trump ^ 1]
        for t in rec["tricks"]:
            assert all(c[-1] == rec["trump"] or c == "5" + left for c in t["cards"])


def test_the_solver_values_a_trumps_only_record_without_its_dead_cards():
    """The record's line solved from the start: the dead plain cards are not moves."""
    from cinch_sim.records.review import Reviewer

    rec = _record([(2, ["JH", "5H", "QH", "TH"], 0), (1, ["5D", "2H"], 1)])
    v = referee_record(rec)
    summary = Reviewer().summary(v.check, 1)
    assert summary["status"] == "valid" and summary["points"] == 8
    assert len(summary["tricks"]) == 4
    assert 0 <= summary["dd_start"] <= 14
