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

import numpy as np
import pytest
from click.testing import CliRunner

from cinch_sim import api
from cinch_sim.analysis.intervals import confidence_sequence
from cinch_sim.checks import InputError
from cinch_sim.cli.main import main
from cinch_sim.matches.compare import UNTIL_LOOK_PAIRS
from cinch_sim.runs.driver import Ordered


def _crossings(mean: float, probs: list[float], paths: int, looks: int, rng) -> np.ndarray:
    """For each simulated match of pair scores 0, 1/2, 1 (``probs``), the first look
    (every UNTIL_LOOK_PAIRS pairs) at which the sequence leaves out 50%, or -1."""
    x = rng.choice([0.0, 0.5, 1.0], size=(paths, looks * UNTIL_LOOK_PAIRS), p=probs)
    sums = np.cumsum(x, axis=1)[:, UNTIL_LOOK_PAIRS - 1 :: UNTIL_LOOK_PAIRS]
    first = np.full(paths, -1)
    for k in range(looks):
        n = (k + 1) * UNTIL_LOOK_PAIRS
        _, lo, hi = confidence_sequence(0.0, n)  # the radius: the same for every path
        radius = hi
        hit = (np.abs(sums[:, k] / n - 0.5) > radius) & (first < 0)
        first[hit] = k
    return first


def test_under_no_difference_it_stops_wrongly_on_at_most_five_percent():
    """4,000 matches of 2,000 pairs with no difference (half the pairs split, the rest
    won or lost alike), looked at 40 times each: the share that ever leave out 50%
    is at most 5% (it is far less: the boundary is conservative); binomial 99.9%
    upper bound below 0.05 is the test."""
    rng = np.random.default_rng(20261202)
    first = _crossings(0.5, [0.25, 0.5, 0.25], 4000, 40, rng)
    wrong = (first >= 0).sum()
    upper = (wrong + 3.29 * np.sqrt(wrong + 1)) / 4000
    assert upper < 0.05, wrong


def test_a_clear_difference_stops_early():
    """A strategy winning 75% of pairs' points is found within 200 pairs in nearly
    every match; one winning 55% mostly needs more than the first look."""
    rng = np.random.default_rng(7)
    clear = _crossings(0.75, [0.05, 0.4, 0.55], 500, 40, rng)
    assert (clear >= 0).all() and np.quantile(clear, 0.95) < 4
    slight = _crossings(0.55, [0.25, 0.4, 0.35], 500, 40, rng)
    assert (slight == 0).mean() < 0.05


def test_the_interval_is_the_normal_mixture_boundary():
    # by hand: n = 100, sigma^2 n = 25, rho = 25: sqrt(50 log(50 / (25 * 0.05^2))) / 100
    mean, lo, hi = confidence_sequence(60.0, 100)
    radius = np.sqrt(50 * np.log(50 / (25 * 0.0025))) / 100
    assert mean == 0.6 and hi - mean == pytest.approx(radius) and mean - lo == pytest.approx(radius)
    assert np.isnan(confidence_sequence(0.0, 0)[0])


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


def test_what_the_stop_cannot_do_is_refused_in_one_line(tmp_path):
    with pytest.raises(InputError, match="until: 'soon' is not one of: decided"):
        api.compare("heuristic", "greedy", games=20, until="soon")
    with pytest.raises(InputError, match="until: a sequential stop is for two sides"):
        api.compare("heuristic", "greedy", games=30, until="decided", variant="cutthroat3")
    with pytest.raises(InputError, match="chunk: with until the chunks are its looks"):
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
    js = runner.invoke(main, ["compare", "heuristic", "greedy", "--games", "4000", "--seed", "3",
                              "--until", "decided", "--format", "json"])  # fmt: skip
    d = json.loads(js.output)
    assert d["stopped_early"] is True and d["until"] == "decided" and d["games"] == 100
    bad = runner.invoke(main, ["compare", "heuristic", "greedy", "--until", "decided",
                               "--chunk", "10"])  # fmt: skip
    assert bad.exit_code == 2 and "Invalid value for '--chunk'" in bad.output
