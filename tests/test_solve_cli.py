"""``cinch-sim solve`` and ``api.solve``: recorded hands against double-dummy play.

The per-card values are the solver's (tested against a plain minimax in
test_solver.py); here: that a record becomes the right position and line, that
the values along a line add up (what the maker's side took is its start value,
less what its own cards gave away, plus what the other side's gave), and the
command's outputs and exit codes.
"""

from __future__ import annotations

import json
import re
from inspect import signature

import numpy as np
import pytest
from click.testing import CliRunner
from records_cases import base_hand, thrown_in

from cinch_sim import api
from cinch_sim.cards import parse_cards
from cinch_sim.checks import InputError
from cinch_sim.cli.main import main
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.records.writer import hand_record
from cinch_sim.rules import Rules, make_rules
from cinch_sim.solver import position as Q
from cinch_sim.solver.moves import play
from cinch_sim.solver.review import Solver
from cinch_sim.solver.search import new_workspace, solve

_APART = {"mix_stderr": False} if "mix_stderr" in signature(CliRunner).parameters else {}

# the base hand's cards after the draw (records_cases.py): trump hearts, seat 2 the maker
AFTER_DRAW = ["QH 9H 7S 8S 8H 4C", "TH 3H 5D 2D KS 7H", "AH KH JH 2H AC 6D", "6H 5H 4H AD KD 3C"]


def invoke(*args: str):
    return CliRunner(**_APART).invoke(main, list(args))


def accounts(h: dict) -> bool:
    """Points taken = start value - maker's side's losses + the other sides' losses."""
    m = h["maker_team"]
    return h["points"] == h["dd_start"] - h["lost"][m] + sum(h["lost"]) - h["lost"][m]


@pytest.fixture(scope="module")
def kernel_file(tmp_path_factory):
    """60 hands the kernel played (its records), with their result and trace rows."""
    rules = Rules()
    out, tr = run_chunk(rules, PolicySet.from_specs(4), 21, 0, 60, trace=True)
    path = tmp_path_factory.mktemp("solve") / "hands.jsonl"
    path.write_text(
        "".join(json.dumps(hand_record(rules, out[i], tr[i])) + "\n" for i in range(60))
    )
    return path, out, tr


def test_a_record_becomes_its_start_position_and_line():
    rec = base_hand()
    h = api.solve([rec]).hands[0]
    rules = Rules()
    pos = Q.start_position(rules, [parse_cards(x) for x in AFTER_DRAW], trump=3, maker=2)
    assert h["dd_start"] == solve(pos, rules.to_array(), new_workspace())
    assert h["points"] == rec["result"]["points"][0] == 9
    assert accounts(h)
    assert [t["leader"] for t in h["tricks"]] == [t["leader"] for t in rec["tricks"]]
    assert [[p["card"] for p in t["plays"]] for t in h["tricks"]] == [
        t["cards"] for t in rec["tricks"]
    ]
    # each trick starts where the last card of the one before left the value
    for a, b in zip(h["tricks"], h["tricks"][1:], strict=False):
        assert b["dd_start"] == a["plays"][-1]["after"]
        assert all(p["lost"] >= 0 for p in a["plays"])


def test_the_kernels_hands_add_up_and_match_the_trace(kernel_file):
    """The records route (referee, after-draw hands) and the trace route give the same
    start value; every hand's losses account for its points; each card's 'before'
    is the solver's value of the position it was played in."""
    path, out, tr = kernel_file
    rules = Rules()
    rep = api.solve(path)
    assert len(rep.hands) == 60
    solver = Solver(rules)
    for i, h in enumerate(rep.hands):
        if h["status"] == "thrown_in":
            continue
        assert h["status"] == "valid" and accounts(h)
        pos, plays = Q.from_trace(rules, out[i], tr[i])
        assert h["dd_start"] == solver.value(pos)
        review = solver.review(pos, plays)
        assert [c.before for c in review.cards] == [
            p["before"] for t in h["tricks"] for p in t["plays"]
        ]
        if i < 8:  # the values themselves, position by position
            p = pos.copy()
            for card, (_, c) in zip(review.cards, plays, strict=True):
                assert card.before == solver.value(p)
                assert card.after == solver.card_values(p)[c]
                assert play(p, solver.vector, c)
    m = rep.means()
    assert m["points"] == pytest.approx(np.mean([h["points"] for h in rep.solved()]))
    assert set(rep.table("hands").columns) >= {"line", "dd_start", "lost_team0", "lost_team1"}
    cards = rep.table("cards")
    assert len(cards) == sum(len(t["plays"]) for h in rep.solved() for t in h["tricks"])


def test_solve_json_is_one_object_per_record(kernel_file):
    path = kernel_file[0]
    res = invoke("solve", str(path), "--format", "json")
    assert res.exit_code == 0, res.output
    objs = [json.loads(ln) for ln in res.stdout.splitlines()]
    assert [o["line"] for o in objs] == list(range(1, 61))
    for o in objs:
        assert {"line", "dd_start", "lost"} <= set(o)
        if o["status"] == "valid":
            assert len(o["lost"]) == 2 and accounts(o)
    one = invoke("solve", str(path), "--line", "7", "--format", "json")
    assert [json.loads(ln) for ln in one.stdout.splitlines()] == [objs[6]]


def test_solve_table_lists_hands_and_shows_one_in_full(kernel_file):
    path = kernel_file[0]
    res = invoke("solve", str(path))
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0].split()[:3] == ["line", "hand", "maker"]
    assert lines[1].split()[0] == "1" and lines[60].split()[0] == "60"
    assert "a hand double-dummy" in lines[-2]
    assert lines[-1].startswith("(maker: his seat (his side); dd start: the points")  # legend
    full = invoke("solve", str(path), "--line", "3")
    assert full.exit_code == 0
    text = full.stdout
    assert "Line 3: seat" in text and "Given away against double-dummy play: team 0" in text
    tricks = [ln.split()[0] for ln in text.splitlines() if ln[:5].strip().isdigit()]
    assert tricks == ["1", "2", "3", "4", "5", "6"]


def _raised_to(bid: int) -> dict:
    """The base hand with seat 2's bid raised to ``bid`` (its 9 points then set it)."""
    rec = base_hand(result=False)
    rec["bids"][2] = [2, bid]
    rec["bid"] = bid
    return rec


def test_one_hand_says_what_was_named_and_whether_it_was_made(tmp_path):
    """'made trumps' read as 'made the bid' even for a hand that was set: the text says
    which suit was named at what bid, and made or set, as the referee scores it."""
    path = tmp_path / "two.jsonl"
    path.write_text(json.dumps(base_hand()) + "\n" + json.dumps(_raised_to(10)) + "\n")
    made = invoke("solve", str(path), "--line", "1").stdout.splitlines()[0]
    assert made.startswith("Line 1: seat 2 (team 0) named hearts at 7 and made it; it took 9."), (
        made
    )
    set_ = invoke("solve", str(path), "--line", "2").stdout.splitlines()[0]
    assert set_.startswith("Line 2: seat 2 (team 0) named hearts at 10 and was set; it took 9.")
    assert "made trumps" not in made + set_


def test_cutthroat_hands_name_sides_by_seat(tmp_path):
    """Each player a side of his own: ``seat 2``, not ``seat 2 (team 2)`` nor ``team 2``."""
    rules = make_rules("cutthroat3")
    out, tr = run_chunk(rules, PolicySet.from_specs(3), 4, 0, 6, dealer=2, trace=True)
    path = tmp_path / "cut.jsonl"
    path.write_text("".join(json.dumps(hand_record(rules, out[i], tr[i])) + "\n" for i in range(6)))
    line = next(h["line"] for h in api.solve(path).hands if h["status"] == "valid")
    text = invoke("solve", str(path), "--line", str(line)).stdout
    assert "team" not in text, text
    assert re.match(rf"Line {line}: seat \d named \w+ at \d+ and (made it|was set); ", text), text
    assert "Given away against double-dummy play: seat 0 " in text and ", seat 2 " in text


def test_nothing_solved_counts_lines_in_words_and_says_what_they_were(tmp_path):
    path = tmp_path / "thrown.jsonl"
    path.write_text(json.dumps(thrown_in()) + "\n")
    assert invoke("solve", str(path)).stdout.splitlines()[-1] == (
        "1 line, none solved (1 thrown in)"
    )
    path.write_text(json.dumps(thrown_in()) + "\n" + json.dumps(thrown_in()) + "\nhello\n")
    res = invoke("solve", str(path))
    assert res.stdout.splitlines()[-1] == "3 lines, none solved (1 invalid and 2 thrown in)"
    assert "(maker:" not in res.stdout  # no table: no legend
    # from Python: no mean of nothing (it was 0.0), and tables with their columns
    rep = api.solve(path)
    assert set(rep.means().values()) == {None}
    assert "card" in rep.table("cards") and len(rep.table("cards")) == 0
    assert str(rep.table("hands")["bid"].dtype) == "Int64"  # whole, though none has one


def test_an_empty_file_says_so_in_a_line(tmp_path):
    """An empty or blank file is no records, not a traceback (it indexed an empty list)."""
    for text in ("", "\n\n"):
        path = tmp_path / "empty.jsonl"
        path.write_text(text)
        res = invoke("solve", str(path))
        assert res.exit_code == 0, res.output
        assert res.stdout.splitlines()[-1].startswith("no records to solve")
        assert invoke("solve", str(path), "--format", "json").stdout == ""
        assert api.solve(path).headline().startswith("Solve: no records to solve")


def test_records_that_cannot_be_solved_say_why(tmp_path):
    bad = base_hand()
    bad["tricks"][0]["cards"][1] = "2S"  # seat 3 does not hold it
    path = tmp_path / "mixed.jsonl"
    path.write_text(
        "\n".join(json.dumps(r) for r in (base_hand(), bad, thrown_in())) + "\nnot json\n"
    )
    res = invoke("solve", str(path), "--format", "json")
    assert res.exit_code == 1  # an invalid record is a result, not a usage error
    objs = [json.loads(ln) for ln in res.stdout.splitlines()]
    assert [o["status"] for o in objs] == ["valid", "invalid", "thrown_in", "invalid"]
    assert [o["dd_start"] is None for o in objs] == [False, True, True, True]
    # where the record is wrong, as the referee says it (field, seat, trick)
    assert objs[1]["message"].startswith("tricks[0].cards[1], seat 3, trick 1: ")
    # and its parts apart, for a page to word (trick counted from 1, as people do)
    where = {k: objs[1][k] for k in ("field", "seat", "trick")}
    assert where == {"field": "tricks[0].cards[1]", "seat": 3, "trick": 1}
    assert objs[1]["message"].endswith(": " + objs[1]["problem"]) and "2S" in objs[1]["problem"]
    assert "problem" not in objs[3]  # not JSON: no referee's verdict to take apart
    table = invoke("solve", str(path))
    assert "thrown in: no play" in table.stdout and "invalid: tricks[0].cards[1]" in table.stdout


def test_a_game_record_is_solved_hand_by_hand(tmp_path):
    games = tmp_path / "games.jsonl"
    assert (
        invoke("compare", "greedy", "simple", "--games", "2", "--records", str(games)).exit_code
        == 0
    )
    rep = api.solve(games, line=1)
    assert [h["hand"] for h in rep.hands] == list(range(1, len(rep.hands) + 1))
    assert all(h["line"] == 1 for h in rep.hands)
    assert all(accounts(h) for h in rep.solved())


def test_api_solve_checks_its_arguments(kernel_file):
    with pytest.raises(InputError, match="line: 0 is not a positive whole number"):
        api.solve(kernel_file[0], line=0)
    with pytest.raises(InputError, match="line: line 99 of .* holds no record"):
        api.solve(kernel_file[0], line=99)
    with pytest.raises(OSError, match="cannot open"):
        api.solve("/nonexistent/hands.jsonl")
    head = repr(api.solve(kernel_file[0]))
    assert head.startswith("Solve: ") and "a hand double-dummy" in head


def test_from_trick_values_the_later_cards_as_the_whole_review_does(kernel_file):
    """Reviewing from trick 3 gives the same value for every later card as reviewing the
    whole hand (the solver's values do not depend on where the line started), no
    value for the earlier cards, and losses summed over the later cards only."""
    path = kernel_file[0]
    whole = api.solve(path).solved()
    late = api.solve(path, from_trick=3).solved()
    assert [h["line"] for h in late] == [h["line"] for h in whole] and late
    for w, h in zip(whole, late, strict=True):
        assert h["from_trick"] == 3 and h["dd_start"] == w["tricks"][2]["dd_start"]
        assert h["points"] == w["points"]
        for tw, th in zip(w["tricks"], h["tricks"], strict=True):
            if th["trick"] < 3:
                assert th["dd_start"] is None and all(p["before"] is None for p in th["plays"])
                assert [p["card"] for p in th["plays"]] == [p["card"] for p in tw["plays"]]
            else:
                assert th == tw
        lost = [sum(t["lost"][k] for t in w["tricks"][2:]) for k in range(2)]
        assert h["lost"] == lost and accounts(h)
    quick = api.solve(path, from_trick="quick").solved()  # four seats, one deck: whole
    assert quick == whole


def test_from_trick_in_the_command_and_its_bad_values(kernel_file):
    path = str(kernel_file[0])
    one = invoke("solve", path, "--line", "4", "--from-trick", "5")
    assert one.exit_code == 0, one.output
    assert "at the start of trick 5 (the first solved)" in one.stdout
    rows = [ln.split() for ln in one.stdout.splitlines() if ln[:5].strip().isdigit()]
    assert [r[2] for r in rows[:4]] == ["-"] * 4 and rows[4][2].isdigit()
    table = invoke("solve", path, "--from-trick", "5")  # the hands' column says from where
    assert "dd start: the value at the first trick solved (5)" in table.stdout
    assert "first trick solved" not in invoke("solve", path).stdout
    for bad in ("0", "x", "-1"):
        res = invoke("solve", path, "--from-trick", bad)
        assert res.exit_code == 2 and "--from-trick" in res.stderr, res.output
    # past the hand's last trick: refused, not read as its last trick
    past = invoke("solve", path, "--from-trick", "100")
    assert past.exit_code == 2 and "Traceback" not in past.output
    assert "'--from-trick': 100 is out of range 1..6" in past.stderr
    with pytest.raises(InputError, match="from_trick"):
        api.solve(path, from_trick=0)


def test_the_points_given_away_carry_their_interval(tmp_path):
    """A researcher measuring a player against perfect play needs the spread: the means
    of what each side gave away come with Student's t intervals over the hands (by
    hand below from the per-hand values), cut at 0, and the headline shows them."""
    from scipy import stats as sst

    path = tmp_path / "hands.jsonl"
    api.simulate(hands=40, seed=8, records=path)
    rep = api.solve(path)
    m = rep.means()
    done = rep.solved()
    maker = np.array([h["lost"][h["maker_team"]] for h in done], float)
    half = sst.t.ppf(0.975, len(maker) - 1) * maker.std(ddof=1) / np.sqrt(len(maker))
    assert m["lost_maker"] == pytest.approx(maker.mean())
    assert m["lost_maker_lo"] == pytest.approx(max(maker.mean() - half, 0.0))
    assert m["lost_maker_hi"] == pytest.approx(maker.mean() + half)
    assert 0.0 <= m["lost_defenders_lo"] <= m["lost_defenders"] <= m["lost_defenders_hi"]
    assert f"maker's side {m['lost_maker']:.2f} [" in rep.headline()


def test_the_strength_script_compares_players_hand_by_hand():
    """scripts/strength.py's paired difference: on the hands both played (a hand thrown
    in is in neither), the mean difference with Student's t interval, worked out by
    hand here: differences 1, 0, 2 (hand 3 only one played) have mean 1, standard
    deviation 1, half-width t(0.975, 2) / sqrt(3)."""
    import sys

    from helpers import SCRIPTS, load_script
    from scipy import stats as sst

    sys.path.insert(0, str(SCRIPTS))  # its own import of scripts/outdir.py
    try:
        strength = load_script("strength")
    finally:
        sys.path.remove(str(SCRIPTS))
    base = {"_per_hand": {0: 1.0, 1: 2.0, 2: 0.0, 3: 5.0}}
    row = {"_per_hand": {0: 2.0, 1: 2.0, 2: 2.0, 4: 9.0}}
    m, lo, hi = strength.paired(row, base)
    half = sst.t.ppf(0.975, 2) / np.sqrt(3)
    assert m == pytest.approx(1.0) and (lo, hi) == pytest.approx((1 - half, 1 + half))
