"""``cinch-sim advise``: output formats, plot, and one-line errors for bad input."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from cinch_sim.cli.main import main

HAND = "AS KS 5S 5C 2S 9H 3D 7C JD"
FAST = ["--precision", "0.05"]


def run(*args):
    return CliRunner().invoke(main, ["advise", *args])


def test_table_output():
    res = run(HAND, "--seat", "2", "--dealer", "3", *FAST)
    assert res.exit_code == 0, res.output
    out = res.output
    assert "P(you win the auction) / P(make | you are the maker)" in out
    assert "Advice: " in out and "in spades" in out
    assert "risk: the make rate you insist on" in out
    assert out.count("\n") > 20


def test_json_output_has_the_promised_fields():
    res = run(HAND, "--seat", "2", "--dealer", "3", "--format", "json", *FAST)
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    for key in (
        "best_trump",
        "safe_bid",
        "best_ev_bid",
        "advice",
        "risk",
        "precision",
        "hands",
        "by_trump",
    ):
        assert key in d
    assert d["best_trump"] == "S"
    assert isinstance(d["best_ev_bid"], int)
    assert d["precision"] <= 0.05
    assert set(d["by_trump"]) == set("CSDH")
    bid9 = d["by_trump"]["S"]["bids"]["9"]
    assert bid9["p_make_lo"] <= bid9["p_make"] <= bid9["p_make_hi"]
    assert 0 <= bid9["p_win_auction"] <= 1 and isinstance(bid9["ev"], float)
    assert len(d["by_trump"]["S"]["bids"]) == 15  # pass and 14 bids
    assert d["by_trump"]["S"]["bids"]["pass"]["p_make"] is None
    assert set(d["by_trump"]["H"]["pedros"]) == {"right_pedro", "left_pedro"}
    assert sum(d["by_trump"]["C"]["points_dist"]) == pytest.approx(1)


def test_notations_give_the_same_answer():
    outs = set()
    for hand in ([HAND], [HAND.lower()], ["A♠ K♠ 5♠ 5♣ 2♠ 9♥ 3♦ 7♣ J♦"], HAND.split()):
        res = run(*hand, "--seat", "2", "--format", "json", *FAST)  # quoted, or not
        assert res.exit_code == 0, res.output
        d = json.loads(res.output)
        outs.add(json.dumps([d["by_trump"], d["best_ev_bid"]]))
    assert len(outs) == 1
    res = run("10S 9S 8S 7S 6S 4S 3S 2S AH", "--seat", "0", *FAST)
    assert res.exit_code == 0, res.output


def test_bids_risk_and_pass():
    res = run(
        HAND,
        "--seat",
        "2",
        "--bids",
        "0:8,1:12",
        "--format",
        "json",
        "--precision",
        "0.1",
        "--risk",
        "0.99",
    )
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert d["legal_bids"] == [13, 14]
    assert d["safe_bid"] is None  # nothing makes 13 at 99% with 95% confidence
    assert "no bid is made at least 99%" in d["advice"]
    # 1 whole deal in 8,000 fits a 12 after an 8: the deals come from pools of hands
    assert d["acceptance_rate"] is None and d["pools"].startswith("seat 0: ")


def test_bid_model():
    res = run(HAND, "--seat", "3", "--bids", "0:6,1:pass,2:7", "--bid-model", "traditional")
    assert res.exit_code != 0 and "impossible or too rare" in res.output
    res = run(HAND, "--seat", "2", "--bid-model", "simple", "--bid-policy", "heuristic")
    assert res.exit_code == 2 and "not both" in res.output


def test_plot(tmp_path):
    """The chart names the question it answers, in its title and in the file: a chart of
    sancho after a pass looked like one of the standard game with no bid before."""
    from PIL import Image

    path = tmp_path / "pmake.png"
    res = run(HAND, "--seat", "2", "--plot", str(path), *FAST)
    assert res.exit_code == 0, res.output
    assert path.stat().st_size > 1000
    other = tmp_path / "sancho.png"
    res = run(HAND, "--seat", "1", "--bids", "0:pass", "--variant", "sancho", "--plot",
              str(other), *FAST)  # fmt: skip
    assert res.exit_code == 0, res.output
    said = Image.open(other).info["Description"]
    assert "rules: sancho" in said and "bids before: seat 0 pass" in said
    assert "play=heuristic" in said and "seed 0" in said
    assert "rules: standard" in Image.open(path).info["Description"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["AS KS 5S 5C 2S 9H 3D 7C", "--seat", "2"], "a hand needs 9 cards, got 8"),
        (["AS KS 5S 5C 2S 9H 3D 7C JD QD", "--seat", "2"], "a hand needs 9 cards, got 10"),
        (["AS KS 5S 5C 2S 9H 3D 7C AS", "--seat", "2"], "duplicate card AS"),
        ([*"AS KS 5S 5C 2S 9H 3D 7C AS".split(), "--seat", "2"], "duplicate card AS"),
        ([*"AS KS 5S 5C".split(), "--seat", "2"], "a hand needs 9 cards, got 4"),
        (["AS KS 5S 5C 2S 9H 3D 7C 1S", "--seat", "2"], "unknown card '1S'"),
        ([HAND, "--seat", "4"], "seat 4 is out of range 0..3"),
        # the hand's own error first, before a bad seat or one left out
        (["AS KS 5S", "--seat", "4"], "'HAND': a hand needs 9 cards, got 3"),
        (["AS KS 5S"], "'HAND': a hand needs 9 cards, got 3"),
        ([HAND, "--seat", "2", "--dealer", "7"], "'--dealer': seat 7 is out of range 0..3"),
        ([HAND, "--seat", "2", "--bids", "0:9,1:9"], "does not beat the earlier bid 9"),
        ([HAND, "--seat", "2", "--bids", "0:pass,3:9"], "seat 3 bids after you"),
        ([HAND, "--seat", "2", "--bids", "0:20"], "bid 20 is impossible"),
        ([HAND, "--seat", "2", "--known", "1:AS"], "AS is already in your hand"),
        ([HAND, "--seat", "2", "--known", "1 AH"], "must be SEAT:CARDS"),
        ([HAND, "--seat", "2", "--bid-policy", "nosuch"], "unknown bid policy 'nosuch'"),
    ],
)
def test_bad_input_is_one_line(args, message):
    res = run(*args)
    assert res.exit_code == 2  # a usage error: click's usage lines, then one Error line
    errors = [ln for ln in res.output.splitlines() if ln.startswith("Error:")]
    assert len(errors) == 1 and message in errors[0], res.output


def test_impossible_bids_error_is_one_line():
    res = run("5S 5C 5H 5D 2S 3S 4S 6S 7S", "--seat", "1", "--bids", "0:13")
    assert res.exit_code != 0
    assert "impossible or too rare" in res.output
    assert res.output.strip().count("\n") == 0


def test_advise_needs_only_the_hand():
    res = run(HAND, "--precision", "0.1")
    assert res.exit_code == 0, res.output
    assert "seat 0 (eldest), dealer seat 3 (no seat given: the eldest hand assumed" in res.output
    d = json.loads(run(HAND, "--precision", "0.1", "--dealer", "1", "--format", "json").output)
    assert d["seat"] == 2 and d["seat_assumed"] is True
    assert d["call"] == d["best_ev_bid"] or (d["call"] == "pass" and d["pass_reason"])


def test_an_interrupted_advice_is_printed_with_what_was_kept(monkeypatch):
    """An advice that Ctrl-C stopped (the signal itself: tests/test_advisor.py and the
    slow test below) is printed as JSON with ``interrupted`` true, the last stderr
    line says what was kept, and the exit status is 130."""
    import cinch_sim.api
    from cinch_sim.advisor import advise

    stopped = advise("AS KS 5S 5C 2S 9H 3D 7C JD", precision=0.1)
    stopped.interrupted = True
    monkeypatch.setattr(cinch_sim.api, "advise", lambda *a, **k: stopped)
    res = CliRunner().invoke(main, ["advise", "AS KS 5S 5C 2S 9H 3D 7C JD", "--format", "json"])
    assert res.exit_code == 130
    out = json.loads(res.stdout)
    assert out["interrupted"] is True and out["hands"] == stopped.hands > 0
    last = res.stderr.strip().splitlines()[-1]
    assert last == f"interrupted: kept the advice on the {stopped.hands:,} finished deals"


@pytest.mark.slow  # waits for a whole 65,536-deal chunk on one thread: 7 s
def test_ctrl_c_prints_the_advice_on_the_finished_deals():
    """SIGINT during a long advice: exit 130, the advice on the deals finished is
    printed (JSON: ``interrupted`` true) and the last line says what was kept."""
    import json
    import signal
    import subprocess
    import sys
    import time

    cmd = [sys.executable, "-c", "from cinch_sim.cli.main import main; main()", "advise",
           "AS KS 5S 5C 2S 9H 3D 7C JD", "--precision", "0.001", "--threads", "1",
           "--format", "json"]  # fmt: skip
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(3.0)  # the first chunk (65,536 deals) is under way: it is finished, then kept
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=120)
    assert p.returncode == 130, stderr
    out = json.loads(stdout)
    assert out["interrupted"] is True and 0 < out["hands"] < 960_400
    last = stderr.strip().splitlines()[-1]
    assert last == f"interrupted: kept the advice on the {out['hands']:,} finished deals"
    assert "Traceback" not in stderr


def test_a_stuck_dealer_is_advised_a_bid_never_a_pass():
    """Under all_pass=dealer_forced_any the dealer may not pass once the others have:
    the pass row is marked not allowed, no deal stands as its baseline, and the
    advice is a bid, ranked by its own margin, with the reason said."""
    stuck = ["--seat", "3", "--bids", "0:pass,1:pass,2:pass", "--rule", "bid_min=7"]
    rule = ["--rule", "all_pass=dealer_forced_any", "--precision", "0.05"]
    res = run("9S 8C 6D 4D 3S 7H 6H 2C 8S", *stuck, *rule, "--format", "json")
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert d["call"] in range(7, 15) and d["pass_reason"] is None
    assert "may not pass" in d["reason"]
    assert d["by_trump"]["S"]["bids"]["pass"]["deals"] == 0
    # no pass to compare with: the bids as good as the best come from the pairs of bids
    bids = d["by_trump"][d["best_trump"]]["bids"]
    assert isinstance(d["tied_bids"], list) and bids[str(d["call"])]["vs_best"] == 0
    for b, e in bids.items():
        if b not in ("pass", str(d["call"])) and e["judged"]:
            assert (int(b) in d["tied_bids"]) == (e["vs_best_hi"] >= 0), b
    text = run("9S 8C 6D 4D 3S 7H 6H 2C 8S", *stuck, *rule).output
    assert "not allowed" in text and "may not pass" in text
    # each bid's own margin, with its interval: in the JSON, the table and the sentence
    best = bids[str(d["call"])]
    assert best["ev"] is None and best["margin_lo"] <= best["margin"] <= best["margin_hi"]
    assert "/ expected margin (own - opp; no pass to compare with)" in text
    # the footnote says the same: each bid's own margin, not one against passing
    assert "of each bid on its own" in text and "against passing" not in text
    assert "of each bid on its own" in d["score_change"]
    assert re.search(r"expected margin [-+]\d+\.\d\d \[[-+]\d+\.\d+, [-+]\d+\.\d+\]", text)
