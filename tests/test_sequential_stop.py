"""compare's sequential stop (issue 31, part 4): ``until="decided"`` ends a match at the
first look where the win rate's always-valid confidence sequence leaves out 50%.

The sequence is checked as a statistical claim (under no difference it wrongly
leaves out 50% on at most 5% of matches, however often it is looked at; with a
clear difference it stops early), and the stop as a mechanism: where it stops
depends on the seed only, not on threads, completion order or a resume, and
what it cannot do is refused in one line.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from cinch_sim import api
from cinch_sim.analysis.intervals import confidence_sequence, confidence_sequences
from cinch_sim.checks import InputError
from cinch_sim.cli.main import main
from cinch_sim.matches.compare import UNTIL_LOOK_PAIRS
from cinch_sim.runs.driver import Ordered


def _first_stops(probs: list[float], paths: int, looks: int, rng) -> np.ndarray:
    """For each simulated match of pair scores 0, 1/2, 1 (``probs``), the first look
    (every UNTIL_LOOK_PAIRS pairs) at which the sequence leaves out 50%, or -1."""
    at = np.arange(1, looks + 1) * UNTIL_LOOK_PAIRS - 1
    first = np.full(paths, -1)
    for k in range(paths):
        x = rng.choice([0.0, 0.5, 1.0], size=looks * UNTIL_LOOK_PAIRS, p=probs)
        lo, hi = confidence_sequences(x)
        hit = np.nonzero((lo[at] > 0.5) | (hi[at] < 0.5))[0]
        first[k] = hit[0] if hit.size else -1
    return first


def test_under_no_difference_it_stops_wrongly_on_at_most_five_percent():
    """2,000 matches of 2,000 pairs with no difference (a third of the pairs split,
    the rest won or lost alike), looked at 40 times each: the share that ever leave
    out 50% is at most 5% (it is far less); the test is that a 99.9% upper bound of
    that share is below 0.05."""
    rng = np.random.default_rng(20261202)
    first = _first_stops([1 / 3, 1 / 3, 1 / 3], 2000, 40, rng)
    wrong = int((first >= 0).sum())
    upper = (wrong + 3.29 * np.sqrt(wrong + 1)) / 2000
    assert upper < 0.05, wrong


def test_a_clear_difference_stops_early():
    """A strategy with a 75% pair score is found within 100 pairs in nearly every
    match; one at 55% is rarely found at the first look."""
    rng = np.random.default_rng(7)
    clear = _first_stops([0.05, 0.4, 0.55], 300, 40, rng)
    assert (clear >= 0).all() and np.quantile(clear, 0.95) <= 1
    slight = _first_stops([0.25, 0.4, 0.35], 300, 40, rng)
    assert (slight == 0).mean() < 0.05


def test_the_interval_worked_by_hand():
    """Two values, 1 then 0 (level 95%: ln(2 / 0.05) = 3.689). Both weights hit the cap
    1/2 (the first: sqrt(2 * 3.689 / (0.25 * 1 * ln 2)) = 6.5); psi(1/2) = (ln 2 - 1/2)
    / 4 = 0.04829; v = 4 (1 - 0.5)^2 = 1, then 4 (0 - 0.75)^2 = 2.25 (the running mean
    after the 1 is (0.5 + 1) / 2). Centre (0.5 * 1 + 0.5 * 0) / 1 = 0.5, radius 3.689 +
    3.25 * 0.04829 = 3.846: the whole of [0, 1]. After 400 values alternating 0 and 1
    the interval holds 1/2 and is far narrower."""
    lo, hi = confidence_sequences([1.0, 0.0])
    assert (lo[-1], hi[-1]) == (0.0, 1.0)
    mean, lo2, hi2 = confidence_sequence([1.0, 0.0] * 200)
    assert mean == 0.5 and 0.3 < lo2 < 0.5 < hi2 < 0.7
    assert np.isnan(confidence_sequence([])[0])


def test_splits_narrow_it():
    """Pair scores that are often splits (1/2) have a smaller spread, and the sequence
    narrows with it: the same mean, a narrower interval."""
    rng = np.random.default_rng(3)
    wide = rng.choice([0.0, 1.0], size=600)
    narrow = rng.choice([0.0, 0.5, 1.0], size=600, p=[0.1, 0.8, 0.1])
    _, a, b = confidence_sequence(wide)
    _, c, d = confidence_sequence(narrow)
    assert d - c < 0.7 * (b - a)


class _Sums:
    """A kind whose aggregate is a list of chunk values, merged in key order."""

    order_free = False

    @staticmethod
    def empty():
        return []

    @staticmethod
    def merge(a, b):
        return a + b


@pytest.mark.parametrize("order", [[0, 1, 2, 3, 4], [4, 2, 3, 1, 0], [1, 0, 4, 3, 2]])
def test_the_stop_depends_on_key_order_not_on_arrival_order(order):
    keys = [(i,) for i in range(5)]
    merged = Ordered(_Sums, keys, stop=lambda agg: sum(agg) >= 3)
    for i in order:
        merged.add(keys[i], [i])
    assert merged.stopped and merged.result() == [0, 1, 2]  # 0 + 1 + 2 reaches 3


def test_a_match_stops_at_the_same_look_whatever_the_threads_or_a_resume(tmp_path):
    one = api.compare("heuristic", "greedy", games=2000, seed=3, until="decided", threads=1)
    two = api.compare("heuristic", "greedy", games=2000, seed=3, until="decided", threads=2)
    s1, s2 = one.summary(), two.summary()
    assert one.games < 2000 and one.games % (2 * UNTIL_LOOK_PAIRS) == 0
    assert s1["stopped_early"] and s1 == {**s2, "games": s1["games"]} and s1["games"] == s2["games"]
    lo, hi = s1["win_rate_sequence_ci"]
    assert lo > 0.5 and lo <= s1["win_rate"] <= hi <= 1.0
    # the same match without the stop plays every game, and its first pairs are these
    full = api.compare("heuristic", "greedy", games=2000, seed=3)
    head = full.unit_scores()[: one.pairs]
    assert np.array_equal(head, one.unit_scores()) and "until" not in full.summary()
    saved = api.compare("heuristic", "greedy", games=2000, seed=3, until="decided",
                        save=tmp_path / "run")  # fmt: skip
    again = api.compare("heuristic", "greedy", games=2000, seed=3, until="decided",
                        resume=tmp_path / "run")  # fmt: skip
    assert saved.summary() == s1 and again.summary() == s1
    # the records hold the games of the stopped match, no more (chunks play in order)
    rec = tmp_path / "games.jsonl"
    api.compare("heuristic", "greedy", games=2000, seed=3, until="decided", records=rec)
    assert len(rec.read_text().splitlines()) == one.games


def test_what_the_stop_cannot_do_is_refused_in_one_line(tmp_path):
    with pytest.raises(InputError, match="until: 'soon' is not one of: decided"):
        api.compare("heuristic", "greedy", games=20, until="soon")
    with pytest.raises(InputError, match="until: a sequential stop is for two sides"):
        api.compare("heuristic", "greedy", games=30, until="decided", variant="cutthroat3")
    with pytest.raises(InputError, match="chunk: cannot be set with until"):
        api.compare("heuristic", "greedy", games=20, until="decided", chunk=10)
    api.compare("heuristic", "greedy", games=200, seed=1, until="decided", save=tmp_path / "a")
    api.compare("heuristic", "greedy", games=200, seed=2, until="decided", save=tmp_path / "b")
    with pytest.raises(InputError, match="ran with --until"):
        api.merge([tmp_path / "a", tmp_path / "b"])


def test_the_command_says_where_it_stopped():
    runner = CliRunner()
    res = runner.invoke(main, ["compare", "heuristic", "greedy", "--games", "4000", "--seed",
                               "3", "--until", "decided"])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert (
        "--until decided: stopped after 100 games" in res.output and "leaves out 50%" in res.output
    )
    # the headline's win rate is the always-valid interval, with no fixed-size p-value;
    # the other intervals say they are too narrow after the stop
    lo, hi = json.loads(runner.invoke(main, ["compare", "heuristic", "greedy", "--games",
        "4000", "--seed", "3", "--until", "decided", "--format", "json"]).output
    )["win_rate_sequence_ci"]  # fmt: skip
    win = next(ln for ln in res.output.splitlines() if ln.startswith("win rate of"))
    assert f"[{math.floor(lo * 1000) / 10:.1f}, " in win and "always-valid" in win
    assert "p =" not in win
    assert sum("too narrow after the early stop" in ln for ln in res.output.splitlines()) == 2
    js = runner.invoke(main, ["compare", "heuristic", "greedy", "--games", "4000", "--seed", "3",
                              "--until", "decided", "--format", "json"])  # fmt: skip
    d = json.loads(js.output)
    assert d["stopped_early"] is True and d["until"] == "decided" and d["games"] == 100
    # not decided in its games (a mirror match never is): which of the two intervals to
    # read, said beside them
    close = runner.invoke(main, ["compare", "heuristic", "heuristic", "--games", "200",
                                 "--seed", "3", "--until", "decided"])  # fmt: skip
    assert close.exit_code == 0, close.output
    assert "--until decided: not decided in 200 games" in close.output
    assert "the one to read when the match could stop early" in close.output
    bad = runner.invoke(main, ["compare", "heuristic", "greedy", "--until", "decided",
                               "--chunk", "10"])  # fmt: skip
    assert bad.exit_code == 2 and "Invalid value for '--chunk'" in bad.output


def test_a_decided_sequence_is_shown_leaving_out_half_and_no_p_is_zero():
    from cinch_sim.cli.commands.compare import _p_value
    from cinch_sim.matches.compare import sequence_shown

    # a lower end of 0.5006 rounds down to 50.0 at one decimal: shown with two
    assert sequence_shown(0.69, 0.5006, 0.88, True) == "69.00% [50.06, 88.00]"
    assert sequence_shown(0.69, 0.52, 0.88, True) == "69.0% [52.0, 88.0]"
    assert sequence_shown(0.6, 0.4999, 0.7, False) == "60.0% [49.9, 70.0]"  # undecided
    assert _p_value(0.0) == "p < 1e-15" and _p_value(0.0192) == "p = 0.0192"
    assert _p_value(1.97e-277) == "p < 1e-15" and _p_value(2e-15) == "p = 2.00e-15"
    assert _p_value(float("nan")) == "p = –"
