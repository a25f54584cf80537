"""The luck of a duplicate pair and the luck-adjusted win rate (``matches.luck``,
``analysis.intervals.control_variate_interval``)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from cinch_sim import layout as L
from cinch_sim.analysis.card_values import maker_positions
from cinch_sim.analysis.intervals import control_variate_interval, t_interval
from cinch_sim.cards import parse_cards
from cinch_sim.cli.main import main
from cinch_sim.engine.run import HAND_STRIDE, game_deals, run_deals
from cinch_sim.matches.compare import compare
from cinch_sim.matches.luck import pair_luck, seat_strength
from cinch_sim.matches.pairs import PairStats
from cinch_sim.matches.play import play_pairs
from cinch_sim.policies.strategies import resolve_strategy
from cinch_sim.rules import make_rules


def _mask(text: str) -> np.uint64:
    return np.uint64(sum(1 << c for c in parse_cards(text)))


def test_a_seats_strength_is_its_best_suits_estimate():
    # weights (policies.heuristic's fitted model): 0.5 a trump held, the Right Pedro
    # +0.43, the Left +0.1, A +1.6, K +1.0. Hearts trump: 5H 0.93, 5D 0.6, AH 2.1,
    # KH 1.5, 2H 0.5 = 5.63. Diamonds: 5D 0.93, 5H 0.6, 4D 0.5 = 2.03; clubs 1.0;
    # spades 0.5. The best suit is hearts: 5.63.
    m = _mask("5H 5D AH KH 2H 9S 8C 4D 3C")
    assert seat_strength(np.array([m]))[0] == pytest.approx(5.63)
    # no card: every suit's estimate is 0
    assert seat_strength(np.array([np.uint64(0)]))[0] == 0.0


def test_game_deals_are_the_games_deals_and_turn_with_the_dealer():
    rules = make_rules()
    got = game_deals(rules, 9, np.array([3, 7]), 5)
    for i, g in enumerate((3, 7)):
        assert np.array_equal(got[i], run_deals(rules, 9, g * HAND_STRIDE, 5, dealer=0))
        for d in range(1, 4):
            turned = run_deals(rules, 9, g * HAND_STRIDE, 5, dealer=d)
            assert np.array_equal(turned, got[i][:, (np.arange(4) - d) % 4])


def _luck_from_trace(rules, chunk) -> np.ndarray:
    """pair_luck another way: each seat's cards from the kernel's own trace of the deck."""
    teams = np.array(rules.seat_teams)
    out = np.zeros(chunk.n)
    for j in range(2):
        g, h, tr = chunk.games[j], chunk.hands[j], chunk.trace[j]
        for i in range(chunk.n):
            for k in range(int(g[i, L.G_N_HANDS])):
                deck = tr[i, k, L.T_DECK : L.T_DECK + 52]
                dealer = int(h[i, k, L.H_DEALER])
                masks = [
                    np.uint64(sum(1 << int(deck[p]) for p in maker_positions(rules, dealer, s)))
                    for s in range(rules.players)
                ]
                st = seat_strength(np.array(masks))
                mine = teams == chunk.a_team[j]
                out[i] += st[mine].max() - st[~mine].max()
    return out


@pytest.mark.parametrize(
    ("variant", "pairing"), [("standard", "swap"), ("standard", "rotate"), ("cutthroat2", "swap")]
)
def test_pair_luck_agrees_with_the_traced_deals(variant, pairing):
    rules = make_rules(variant)
    a, b = resolve_strategy("heuristic"), resolve_strategy("greedy")
    chunk = play_pairs(rules, a, b, 21, 0, 40, pairing=pairing, trace=True)
    luck = pair_luck(chunk)
    assert np.allclose(luck, _luck_from_trace(rules, chunk))
    # the hands both games played cancel: a pair whose games are as long as each
    # other has no luck left (swap: the same dealer; rotate: the deal turned with B)
    same = chunk.games[0][:, L.G_N_HANDS] == chunk.games[1][:, L.G_N_HANDS]
    assert (luck[~same] != 0).any()
    if variant == "standard":  # these 40 pairs hold both kinds (cutthroat2's: none alike)
        assert same.any()
        assert np.allclose(luck[same], 0.0)


def test_pair_luck_averages_zero():
    # 3,000 pairs of random against greedy: the games' lengths differ often, so the
    # luck is rarely zero; its mean must be within 4 standard errors of zero
    rules = make_rules()
    a, b = resolve_strategy("random"), resolve_strategy("greedy")
    luck = pair_luck(play_pairs(rules, a, b, 5, 0, 3000))
    assert (luck != 0).mean() > 0.5
    se = luck.std(ddof=1) / np.sqrt(luck.size)
    assert abs(luck.mean()) < 4 * se


def test_control_variate_is_the_regression_intercept():
    # values 0, 0.5, 1, 1, 0.5 on controls -2, -1, 1, 2, 0: the least-squares line's
    # height at 0 and its standard error, computed by the normal equations
    y = np.array([0.0, 0.5, 1.0, 1.0, 0.5])
    x = np.array([-2.0, -1.0, 1.0, 2.0, 0.0])
    m, lo, hi, p, share = control_variate_interval(y, x, 0.5)
    X = np.column_stack([np.ones(5), x])
    coef, res, _, _ = np.linalg.lstsq(X, y, rcond=None)
    s2 = float(res[0]) / 3
    se = np.sqrt(s2 * np.linalg.inv(X.T @ X)[0, 0])
    assert m == pytest.approx(coef[0])
    from scipy.stats import t

    assert hi - m == pytest.approx(t.ppf(0.975, 3) * se)
    assert m - lo == pytest.approx(t.ppf(0.975, 3) * se)
    assert share == pytest.approx(np.corrcoef(x, y)[0, 1] ** 2)
    assert p == pytest.approx(2 * t.sf(abs(m - 0.5) / se, 3))


def test_a_control_that_explains_the_noise_narrows_the_interval():
    rng = np.random.default_rng(1)
    x = rng.normal(size=400)
    y = 0.6 + 0.2 * x + rng.normal(scale=0.05, size=400)
    m, lo, hi, _, share = control_variate_interval(y, x, 0.5)
    _, tlo, thi, _ = t_interval(y, 0.5)
    assert share > 0.9
    assert hi - lo < 0.3 * (thi - tlo)
    assert lo < 0.6 < hi


def test_control_variate_interval_covers_at_its_level():
    # 4,000 samples of 60 pairs whose score moves with a mean-zero control; the
    # interval should hold the true mean 95% of the time: 3 standard errors of a
    # binomial rate on 4,000 trials is 1.0 point
    rng = np.random.default_rng(7)
    hits = 0
    trials = 4000
    for _ in range(trials):
        x = rng.normal(size=60)
        y = 0.55 + 0.1 * x + rng.normal(scale=0.3, size=60)
        _, lo, hi, _, _ = control_variate_interval(y, x, 0.5)
        hits += lo <= 0.55 <= hi
    assert abs(hits / trials - 0.95) < 0.01


def test_no_interval_without_a_measured_luck():
    nan = float("nan")
    m, lo, hi, p, share = control_variate_interval([1.0, 0.5, 0.0], [nan, 1.0, 2.0], 0.5)
    assert m == 0.5 and all(np.isnan(v) for v in (lo, hi, p, share))


def test_compare_reports_the_luck_adjusted_win_rate():
    cmp = compare("heuristic", "greedy", games=200, seed=3)
    s = cmp.summary()
    lo, hi = s["win_rate_luck_adjusted_ci"]
    assert 0 <= lo <= s["win_rate_luck_adjusted"] <= hi <= 1
    assert 0 <= s["luck_variance_share"] < 1
    # the same pairs played again give the same luck (it depends on the seed alone)
    again = compare("heuristic", "greedy", games=200, seed=3, chunk_pairs=30)
    assert np.array_equal(cmp.data.cat("luck"), again.data.cat("luck"))


def test_a_chunk_file_without_luck_still_loads():
    cmp = compare("heuristic", "greedy", games=40, seed=3)
    arrays = cmp.data.to_arrays()
    old = {k: v for k, v in arrays.items() if not k.startswith("luck")}
    back = PairStats.from_arrays(old)
    assert np.isnan(back.cat("luck")).all()
    assert np.array_equal(back.cat("pair_score"), cmp.data.cat("pair_score"))
    assert np.isnan(
        type(cmp)(cmp.a, cmp.b, cmp.settings, back).summary()["win_rate_luck_adjusted_ci"][0]
    )


def test_compare_command_prints_and_writes_the_luck_adjusted_rate():
    r = CliRunner().invoke(main, ["compare", "heuristic", "greedy", "--games", "60",
                                  "--seed", "4", "--format", "json"])  # fmt: skip
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    assert {"win_rate_luck_adjusted", "win_rate_luck_adjusted_ci", "luck_variance_share"} <= set(s)
    r = CliRunner().invoke(main, ["compare", "heuristic", "greedy", "--games", "60", "--seed", "4"])
    assert r.exit_code == 0, r.output
    line = next(x for x in r.stdout.splitlines() if x.startswith("win rate, luck-adjusted"))
    assert "luck explained" in line and "%" in line
