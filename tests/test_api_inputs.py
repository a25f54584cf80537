"""What a notebook user of the Python API met: strict JSON from every ``to_dict``, bad
arguments refused in one line naming the argument, the ladder's JSON and table names
shared with the command line, an early-stopped match shown with its valid interval."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cinch_sim import api
from cinch_sim.advisor.query import AdvisorError, make_query, parse_bids
from cinch_sim.cards import CardError
from cinch_sim.checks import InputError
from cinch_sim.cli.main import main
from cinch_sim.views import no_nan

HAND = "AS KS 5S 5C 2S 9H 3D 7C JD"
TEXT_RULES = "rules: 'robber=dealer' is text, not a dict of options: pass {'robber': 'dealer'}"


def strict(d: dict) -> dict:
    """``d`` through strict JSON: a bare NaN or Infinity fails here, as in any parser."""
    return json.loads(json.dumps(d, allow_nan=False))


def cli(*args: str):
    return CliRunner().invoke(main, list(args))


# ------------------------------------------------------------------ strict JSON
def test_no_nan_turns_every_non_finite_number_into_none():
    d = {"a": [math.nan, 1.0], "b": (math.inf, -math.inf), "c": {"d": float("nan")}, "e": 2}
    assert no_nan(d) == {"a": [None, 1.0], "b": (None, None), "c": {"d": None}, "e": 2}


def test_a_passed_out_row_is_null_in_the_simulation_json():
    sim = api.simulate(hands=2000, seed=3, rules={"bid_min": 12})
    d = strict(sim.to_dict())
    passed = [row for row in d["by_bid"] if row["bid"] == 0]
    assert passed and passed[0]["make_rate"] is None
    res = cli("simulate", "--hands", "2000", "--seed", "3", "--rule", "bid_min=12",
              "--format", "json")  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "NaN" not in res.stdout and json.loads(res.stdout)["by_bid"] == d["by_bid"]
    # stats of a run without a contract: its make rate is None, not NaN
    assert (
        strict(api.stats(hands=1, rules={"bid_min": 12}).to_dict())["summary"]["make_rate"] is None
    )


# ---------------------------------------------------------------- bad arguments
@pytest.mark.parametrize(
    "rules, message",
    [
        ("robber=dealer", TEXT_RULES),
        ("sancho", "rules: 'sancho' is a preset: give it as variant='sancho'"),
        (5, "rules: 5 is not a dict of options or a Rules"),
    ],
)
def test_rules_that_are_not_options_are_refused_in_one_line(rules, message):
    with pytest.raises(InputError) as info:
        api.simulate(hands=10, rules=rules)
    assert str(info.value).startswith(message)
    with pytest.raises(InputError, match="^rules: "):
        api.simulate(hands=10, variant="sancho", rules=rules)


def test_a_ladder_of_one_string_shows_the_list_form():
    with pytest.raises(InputError) as info:
        api.ladder("heuristic greedy", games=2)
    assert str(info.value) == (
        "strategies: 'heuristic greedy' is one string: give a list, e.g. ['heuristic', 'greedy']"
    )
    with pytest.raises(InputError, match="^strategies: 5 is not a list of strategies"):
        api.ladder(5, games=2)


@pytest.mark.parametrize("hand", [12345, None])
def test_a_hand_that_is_no_hand_is_named(hand):
    with pytest.raises(CardError, match=rf"^hand: {hand} is not a hand: give its cards as text"):
        api.advise(hand)


def test_bids_as_a_dict_of_seats_are_the_bids_as_text():
    text = make_query(HAND, 2, 3, bids="0:8,1:9").bids
    assert make_query(HAND, 2, 3, bids={0: 8, 1: 9}).bids == text == [(0, 8), (1, 9)]
    assert parse_bids({0: "pass", 1: 9}) == parse_bids("0:pass,1:9") == [(0, -1), (1, 9)]
    assert parse_bids(["0:pass", (1, 9)]) == [(0, -1), (1, 9)]
    with pytest.raises(AdvisorError, match=r"^bids: 8 is not a \(seat, bid\) pair"):
        parse_bids([8])
    with pytest.raises(AdvisorError, match="^bids: 12 must be text like '0:8,1:9', a dict"):
        parse_bids(12)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"risk": "high"}, "risk: 'high' is not a number in (0, 1]"),
        ({"risk": 1.5}, "risk: 1.5 is not a number in (0, 1]"),
        ({"precision": None}, "precision: None is not a number in (0, 0.5)"),
        ({"known": ["x"]}, "known: 'x' must be SEAT:CARDS, e.g. 1:AH,KH"),
        ({"known": [5]}, "known: 5 must be SEAT:CARDS, e.g. 1:AH,KH"),
    ],
)
def test_advice_options_are_refused_by_their_python_names(kwargs, message):
    with pytest.raises(ValueError) as info:
        api.advise(HAND, seat=2, **kwargs)
    assert str(info.value) == message


def test_one_known_text_is_one_seat_s_cards():
    q = make_query(HAND, 2, 3, known="1:AH,KH")
    assert q.known == make_query(HAND, 2, 3, known=["1:AH,KH"]).known and list(q.known) == [1]


def test_a_trick_past_the_hand_s_last_is_refused(tmp_path):
    path = tmp_path / "hands.jsonl"
    api.simulate(hands=2, seed=1, records=path)
    with pytest.raises(InputError) as info:
        api.solve(path, from_trick=100)
    assert str(info.value).startswith("from_trick: 100 is out of range 1..6")
    assert api.solve(path, from_trick=6).hands[0]["from_trick"] == 6


def test_a_record_file_that_cannot_be_opened_is_a_value_error(tmp_path):
    from cinch_sim.records import RecordFileError

    with pytest.raises(ValueError) as info:
        api.referee(tmp_path / "nofile.jsonl")
    assert isinstance(info.value, RecordFileError) and isinstance(info.value, OSError)


# ------------------------------------------------------------------- the ladder
@pytest.fixture(scope="module")
def lad():
    return api.ladder(["greedy", "random"], games=4, seed=2, bootstrap=20)


def test_the_ladder_json_is_its_to_dict(lad):
    d = strict(lad.to_dict())
    assert [r["strategy"] for r in d["ratings"]] == lad.table()["strategy"].tolist()
    assert d["ratings"][0]["vs_best_lo"] is None  # the best against itself: no interval
    res = cli("ladder", "greedy", "random", "--games", "4", "--seed", "2", "--bootstrap", "20",
              "--format", "json")  # fmt: skip
    assert res.exit_code == 0, res.output
    shown = json.loads(res.stdout)
    assert {**shown, "seconds": 0} == {**d, "seconds": 0}


def test_the_ladder_table_has_both_names(lad):
    assert lad.table("ladder").equals(lad.table("ratings"))
    args = ["ladder", "greedy", "random", "--games", "4", "--seed", "2", "--bootstrap", "20",
            "--format", "csv", "--table"]  # fmt: skip
    assert cli(*args, "ratings").stdout == cli(*args, "ladder").stdout
    assert cli(*args, "ratings").stdout.startswith("rank,strategy,rating")


# -------------------------------------------------------------------- compare
def test_an_early_stop_shows_the_always_valid_interval():
    cmp = api.compare("heuristic", "greedy", games=1000, seed=3, until="decided")
    s = cmp.summary()
    assert s["stopped_early"] and cmp.games == 100
    shown = repr(cmp)
    from cinch_sim.matches.compare import sequence_shown

    always = sequence_shown(s["win_rate"], *s["win_rate_sequence_ci"], True)  # rounded outward
    fixed = "[{:.1f}, {:.1f}]".format(*(100 * x for x in s["win_rate_ci"]))
    assert f"win rate of heuristic {always} (always-valid: stopped early)" in shown
    assert "until='decided': stopped after 100 games" in shown and fixed not in shown


def test_games_are_rounded_up_to_whole_pairs_and_the_docs_say_so():
    assert api.compare("greedy", "random", games=1).games == 2
    assert "``games=1`` plays 2" in api.compare.__doc__


def test_the_docs_name_every_strategy():
    from cinch_sim.policies.strategies import BUILTIN

    page = (Path(api.__file__).parents[1] / "docs" / "api.md").read_text(encoding="utf-8")
    assert all(f"`{name}`" in page for name in BUILTIN)


PYTHON_ROW = re.compile(r"^\| `(\w+\([^`]*\))` \| `([^`]*)` \|$", re.M)  # two columns


def test_the_python_only_errors_of_the_docs(tmp_path, monkeypatch):
    """docs/api.md's table of mistakes only Python can make: each raises what it shows."""
    page = (Path(api.__file__).parents[1] / "docs" / "api.md").read_text(encoding="utf-8")
    rows = PYTHON_ROW.findall(page)
    assert len(rows) >= 7
    monkeypatch.chdir(tmp_path)
    api.simulate(hands=2, seed=1, records="hands.jsonl")
    for call, message in rows:
        with pytest.raises(ValueError) as info:
            eval(f"api.{call}", {"api": api, "HAND": HAND})  # the table's own text
        assert str(info.value) == message, call


@pytest.mark.parametrize("source", [42, b"hands.jsonl", {"format": "cinch-hand/1"}])
@pytest.mark.parametrize("command", ["referee", "solve"])
def test_records_come_from_a_file_name_or_an_iterable_of_dicts(command, source):
    with pytest.raises(InputError, match=r"^source: .* is not a file name or an iterable"):
        getattr(api, command)(source)


def test_the_referees_table_keeps_a_seat_a_whole_number(tmp_path):
    path = tmp_path / "hands.jsonl"
    api.simulate(hands=2, seed=1, records=path)
    good, bad = (json.loads(x) for x in path.read_text().splitlines())
    bad["draws"][0] = bad["draws"][0][::-1]  # seat 0's draw out of the stock's order
    table = api.referee([good, bad]).table()
    assert str(table["seat"].dtype) == "Int64"  # not 0.0 beside a gap (NaN)
    assert table["seat"].isna().tolist() == [True, False] and table["seat"][1] == 0
