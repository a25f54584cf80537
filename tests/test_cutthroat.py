"""Cut-throat matches (more than two sides): the rotation, its shares and intervals, the
Luce ladder, the command line."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from scipy.special import stdtr, stdtrit

from cinch_sim import layout as L
from cinch_sim.analysis.intervals import bounded_mean
from cinch_sim.cli.main import main
from cinch_sim.matches.compare import Comparison, compare
from cinch_sim.matches.cutthroat import CutThroatComparison, share_p_value
from cinch_sim.matches.ladder import bradley_terry, ladder, luce
from cinch_sim.matches.rotation import RotationStats, play_rotations, rotation_streams
from cinch_sim.policies.strategies import resolve_strategy
from cinch_sim.rules import make_rules, seat_name

CT3 = make_rules("cutthroat3")


def _synthetic(shares: list[float], players: int = 3) -> CutThroatComparison:
    """A match whose rotations had the given shares of A's wins (no game played)."""
    d = RotationStats(players)
    d.share.append(np.asarray(shares, float))
    rules = make_rules({3: "cutthroat3", 5: "cutthroat5"}[players])
    a = resolve_strategy("greedy")
    return CutThroatComparison(a, resolve_strategy("random"), {"seed": 0}, d, rules)


def test_a_sweep_by_hand():
    """Ten rotations all won by A: share 1; the interval is t over 10 + 2 pseudo-rotations
    (mean 11/12, standard error 1/12), so its low end is (11 - t_11) / 12; p is the one
    it inverts, t = (11/12 - 1/3) / (1/12) = 7 on 11 df; B's share per seat is 0, its
    interval A's mapped."""
    s = _synthetic([1.0] * 10).summary()
    t = stdtrit(11, 0.975)
    assert s["a_share"] == 1.0 and s["fair_share"] == pytest.approx(1 / 3)
    assert s["a_share_ci"] == pytest.approx([(11 - t) / 12, 1.0])
    assert s["a_share_p_value"] == pytest.approx(2 * stdtr(11, -7))
    assert s["b_share_per_seat"] == 0.0
    assert s["b_share_per_seat_ci"] == pytest.approx([0.0, (1 - (11 - t) / 12) / 2])


def test_shares_by_hand_and_their_p_value():
    """Shares 1/3, 2/3, 0, 1/3 (4 rotations of 3): the mean is 1/3, the fair share, so
    p is 1. Six lost: with the pseudo-rotations the mean is 1/8, the standard error
    sqrt((1 - 8/64) / 7 / 8) = 1/8, so t = (1/3 - 1/8) / (1/8) = 5/3 on 7 df; six won
    against 1/2: t = (7/8 - 1/2) / (1/8) = 3."""
    s = _synthetic([1 / 3, 2 / 3, 0, 1 / 3]).summary()
    assert s["a_share"] == pytest.approx(1 / 3)
    assert s["a_share_p_value"] == pytest.approx(1.0)
    assert s["a_share_ci"][0] < 1 / 3 < s["a_share_ci"][1]
    assert share_p_value(np.zeros(6), 1 / 3) == pytest.approx(2 * stdtr(7, -5 / 3))
    assert share_p_value(np.ones(6), 1 / 2) == pytest.approx(2 * stdtr(7, -3))


def test_a_strategy_against_itself_wins_exactly_its_fair_share():
    """Every rotation of a strategy against itself gives it one game in three: a share
    of exactly 1/3 but for rounding, so p is 1. The t-test of the rounding noise
    (standard deviation 6e-17) said p = 0.000338 in a 60-game match."""
    third = np.full(20, 1.0) / 3 + np.tile([0.0, 5.551115123125783e-17], 10)
    assert np.std(third) > 0  # the noise the t-test used to see
    assert share_p_value(third, 1 / 3) == 1.0
    # another mean: p as the interval says (0.3 is inside it, so not under 0.05)
    _, lo, hi = bounded_mean(third, 0.0, 1.0)
    assert lo <= 0.3 <= hi and share_p_value(third, 0.3) > 0.05
    res = CliRunner().invoke(
        main, ["compare", "heuristic", "heuristic", "--variant", "cutthroat3", "--games", "60",
               "--format", "json"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["a_share_p_value"] == 1.0


def test_the_rotation_seats_a_once_in_each_seat_over_the_same_deals():
    """Game k of a rotation has A at seat k; the deals are the game index's, so the
    first dealer (the game's own cut) is the same in every game of a rotation; A's
    result per game is read from the kernel's winner, by hand."""
    a, b = resolve_strategy("greedy"), resolve_strategy("random")
    ch = play_rotations(CT3, a, b, seed=5, start=0, n=8)
    assert len(ch.games) == 3
    dealers = np.stack([g[:, L.G_FIRST_DEALER] for g in ch.games])
    assert (dealers == dealers[0]).all()
    d = RotationStats(3)
    d.add(ch)
    by_hand = [
        sum(1.0 if g[i, L.G_WINNER] == k else 0.0 if g[i, L.G_WINNER] >= 0 else 1 / 3
            for k, g in enumerate(ch.games)) / 3
        for i in range(8)
    ]  # fmt: skip
    assert d.cat("share") == pytest.approx(by_hand)
    assert rotation_streams(3, 2) == [2, 3, 1]  # A keeps stream 1 wherever it sits


def test_a_strong_strategy_sweeps_and_the_summary_counts_its_games():
    c = compare("greedy", "random", games=30, seed=1, rules=CT3)
    s = c.summary()
    assert isinstance(c, CutThroatComparison) and c.rotations == 10 and s["games"] == 30
    assert s["a_wins"] == 30 and s["b_wins"] == 0  # greedy wins every game here
    assert s["a_share"] == 1.0 and s["a_share_p_value"] == pytest.approx(2 * stdtr(11, -7))
    g = c.table("games")
    assert len(g) == 30 and list(g["a_seat"][:3]) == [0, 1, 2]
    assert (g["winner_seat"] == g["a_seat"]).all()
    assert s["points_per_hand_diff_ci"][0] > 0


def test_a_mirror_match_has_the_fair_share():
    """A deterministic strategy against itself plays the same game in every seat, so each
    rotation's share is exactly 1/players and the points difference is 0; a randomised
    one against itself is within its interval of the fair share."""
    s = compare("heuristic", "heuristic", games=30, seed=2, rules=CT3).summary()
    assert s["a_share"] == pytest.approx(1 / 3)
    assert s["points_per_hand_diff"] == pytest.approx(0.0)
    r = compare("random", "random", games=300, seed=2, rules=make_rules("cutthroat5")).summary()
    # its 95% interval misses 1 time in 20 (seed 2: p = 0.003; seeds 3-6, 600 games
    # each: shares 0.186-0.234, mean 0.207), so the test is at 1e-3
    assert r["a_share_p_value"] > 1e-3, r["a_share"]


def test_one_and_two_threads_give_the_same_numbers():
    one = compare("heuristic", "greedy", games=60, seed=4, rules=CT3, threads=1)
    two = compare("heuristic", "greedy", games=60, seed=4, rules=CT3, threads=2)
    assert one.summary() == two.summary()
    assert one.table("games").equals(two.table("games"))
    l1 = ladder(["greedy", "random", "simple"], games=12, seed=1, rules=CT3, threads=1,
                bootstrap=50)  # fmt: skip
    l2 = ladder(["greedy", "random", "simple"], games=12, seed=1, rules=CT3, threads=2,
                bootstrap=50)  # fmt: skip
    assert l1.table().equals(l2.table()) and l1.table("matchups").equals(l2.table("matchups"))


def test_two_players_are_a_two_side_match():
    c = compare("greedy", "random", games=10, seed=1, rules=make_rules("cutthroat2"))
    assert isinstance(c, Comparison) and c.pairs == 5


def test_luce_is_bradley_terry_with_a_field_of_one_and_solves_a_share_by_hand():
    rng = np.random.default_rng(1)
    alone = np.triu(rng.integers(1, 50, (4, 4)), 1).astype(float)
    won = np.triu(rng.random((4, 4)), 1) * alone
    wins = won + (alone - won).T
    assert luce(wins, alone, 1) == pytest.approx(bradley_terry(wins, alone + alone.T))
    # A alone wins half of 60 games against two B seats: gamma_A / gamma_B = 2 s / (1 - s)
    r = luce(np.array([[0.0, 30], [30, 0]]), np.array([[0.0, 60], [0, 0]]), 2, prior=0)
    assert r[0] - r[1] == pytest.approx(400 * np.log10(2))


def test_the_ladder_plays_every_pair_both_ways_round():
    lad = ladder(["greedy", "random"], games=9, seed=1, rules=CT3, bootstrap=20)
    mu = lad.table("matchups")
    assert list(zip(mu["a"], mu["b"], strict=True)) == [("greedy", "random"), ("random", "greedy")]
    assert list(mu["games"]) == [9, 9] and list(mu["fair_share"]) == pytest.approx([1 / 3] * 2)
    r = lad.table().set_index("strategy")
    assert r.loc["greedy", "rating"] > r.loc["random", "rating"]
    assert r.loc["greedy", "games"] == 18


def test_seat_names_at_every_table():
    assert [seat_name(s, 2, 3) for s in range(3)] == ["eldest", "second", "dealer"]
    assert [seat_name(s, 0, 5) for s in range(5)] == ["dealer", "eldest", "second", "third",
                                                      "fourth"]  # fmt: skip


def test_the_command_line_names_what_it_shows():
    run = CliRunner().invoke
    res = run(main, ["compare", "greedy", "random", "--variant", "cutthroat3", "--games", "6"])
    assert res.exit_code == 0, res.output
    assert "share of the wins, greedy (one seat)" in res.output and "fair share 33.3%" in res.output
    res = run(main, ["compare", "greedy", "random", "--variant", "all_hands", "--games", "4",
                     "--format", "csv", "--table", "sides"])  # fmt: skip
    assert res.exit_code == 0 and "left_bower_capture" in res.output.splitlines()[0]
    assert "left_pedro" not in res.output
    res = run(main, ["compare", "greedy", "random", "--variant", "cutthroat3", "--games", "6",
                     "--format", "json"])  # fmt: skip
    d = json.loads(res.output)
    assert d["fair_share"] == pytest.approx(1 / 3) and d["rotations"] == 2
    assert d["b_side"]["seats"] == 2


@pytest.mark.parametrize("command", ["compare", "ladder"])
def test_a_two_side_pairing_is_refused_in_one_line(command):
    res = CliRunner().invoke(
        main, [command, "greedy", "random", "--variant", "heasly", "--pairing", "rotate"]
    )
    assert res.exit_code == 2
    error = [x for x in res.output.splitlines() if x.startswith("Error")]
    assert error == [
        "Error: Invalid value for '--pairing': rotate is for two sides; heasly has 6, and its "
        "match rotates strategy A through every seat (leave pairing out)"
    ]
    assert "Traceback" not in res.output
