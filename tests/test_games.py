"""Whole games, duplicate matches, strategies and the ladder.

The end-of-game rule (docs/rules.md §1.15) is tested in test_records_game_end.py.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from cinch_sim import layout as L
from cinch_sim.analysis.intervals import ratio_interval, t_interval
from cinch_sim.cli.main import main
from cinch_sim.engine.run import PolicySet, run_games
from cinch_sim.matches.compare import compare
from cinch_sim.matches.ladder import bradley_terry, ladder
from cinch_sim.matches.play import game_records, team_policies
from cinch_sim.policies.heuristic import DEFAULT_PARAMS as HEURISTIC_DEFAULTS
from cinch_sim.policies.loading import PolicyError
from cinch_sim.policies.strategies import (
    BUILTIN,
    StrategyError,
    load_strategy_file,
    resolve_strategy,
)
from cinch_sim.rules import make_rules


def test_first_dealer_is_cut_and_shared_by_a_pair():
    rules = make_rules()
    ab, ba = (
        team_policies(rules, BUILTIN["heuristic"], BUILTIN["greedy"]),
        team_policies(rules, BUILTIN["greedy"], BUILTIN["heuristic"]),
    )
    g1, _, _ = run_games(rules, ab, 5, 0, 400)
    g2, _, _ = run_games(rules, ba, 5, 0, 400)
    assert (g1[:, L.G_FIRST_DEALER] == g2[:, L.G_FIRST_DEALER]).all()
    counts = np.bincount(g1[:, L.G_FIRST_DEALER], minlength=4)
    assert counts.min() > 60  # every seat cuts to deal, about equally
    g3, _, _ = run_games(rules, ab, 5, 0, 20, first_dealer=2)
    assert (g3[:, L.G_FIRST_DEALER] == 2).all()


# ------------------------------------------------------------------ statistics


def test_t_interval_and_ratio_interval():
    from scipy import stats

    rng = np.random.default_rng(0)
    v = rng.choice([0, 0.5, 1], 300, p=[0.3, 0.3, 0.4])
    m, lo, hi, p = t_interval(v, 0.5)
    r = stats.ttest_1samp(v, 0.5)
    assert p == pytest.approx(r.pvalue)
    ci = r.confidence_interval(0.95)
    assert (lo, hi) == pytest.approx((ci.low, ci.high))
    assert t_interval(np.full(10, 0.5), 0.5)[1:] == (0.5, 0.5, 1.0)
    # ratio estimator: equal cluster sizes reduce to the t interval of cluster means
    sums = rng.normal(1, 3, 200) * 4
    m2, lo2, hi2, p2 = ratio_interval(sums, np.full(200, 4))
    m3, lo3, hi3, p3 = t_interval(sums / 4, 0.0)
    assert (m2, lo2, hi2, p2) == pytest.approx((m3, lo3, hi3, p3))


def test_bradley_terry_orders_and_centres():
    # 0 beats 1 75%, 1 beats 2 75%, 0 beats 2 90%
    p = np.array([[0, 0.75, 0.9], [0.25, 0, 0.75], [0.1, 0.25, 0]])
    n = np.full((3, 3), 1000.0) - np.diag([1000.0] * 3)
    elo = bradley_terry(p * n, n)
    assert elo[0] > elo[1] > elo[2]
    assert elo.sum() == pytest.approx(0, abs=1e-6)
    # a 75% win rate is about 191 Elo points
    assert elo[0] - elo[1] == pytest.approx(191, abs=30)
    # a clean sweep stays finite
    sweep = bradley_terry(np.array([[0, 100.0], [0, 0]]), np.array([[0, 100.0], [100, 0]]))
    assert np.isfinite(sweep).all() and sweep[0] > sweep[1]


# ------------------------------------------------------------------ matches


def test_heuristic_beats_random():
    c = compare("heuristic", "random", games=100, seed=1)
    s = c.summary()
    assert s["games"] == 100 and s["pairs"] == 50
    assert s["win_rate_ci"][0] > 0.5
    assert s["points_per_hand_diff_ci"][0] > 0
    assert s["win_rate_p_value"] < 1e-6


def test_planted_handicap_is_detected():
    """The same strategy with its bids capped at 6 loses, the interval clear of 0.5."""
    h = BUILTIN["heuristic"]
    capped = h.with_params("bid", cap=6).renamed("capped")
    assert capped.policy("bid").params[16] == 6
    c = compare(h, capped, games=6000, seed=7)
    s = c.summary()
    assert s["win_rate_ci"][0] > 0.5, s
    assert s["b_side"]["average_bid"] <= 6
    # and against itself (shared streams) the pairs are exact draws
    same = compare(h, h, games=200, seed=7).summary()
    assert same["win_rate"] == 0.5 and same["points_per_hand_diff"] == 0


def test_random_against_itself_with_independent_streams():
    """Each strategy keeps its own random streams: the 99.9% interval holds 0.5."""
    for pairing in ("swap", "rotate"):
        c = compare(
            "random",
            "random",
            games=300,
            seed=3,
            pairing=pairing,
            rules={"min_score_loss": "60"},
        )
        s = c.summary(level=0.999)
        lo, hi = s["win_rate_ci"]
        assert lo < 0.5 < hi, s
        assert hi - lo > 0.05  # real noise, not the degenerate interval of shared streams
        plo, phi = s["points_per_hand_diff_ci"]
        assert plo < 0 < phi


@pytest.mark.parametrize("pairing", ["swap", "rotate"])
def test_duplicate_replays_the_same_deals(pairing):
    """Through the records: both games of a pair deal the same cards to the same positions."""
    rules = make_rules()
    recs = []
    compare(
        "simple",
        "greedy",
        games=24,
        seed=9,
        rules=rules,
        pairing=pairing,
        trace=True,
        on_chunk=lambda ch: recs.extend(game_records(rules, ch)),
    )
    assert len(recs) == 24
    compared = 0
    for i in range(0, 24, 2):
        g1, g2 = recs[i], recs[i + 1]
        shift = 0 if pairing == "swap" else 1
        assert g2["first_dealer"] == (g1["first_dealer"] + shift) % 4
        for h1, h2 in zip(g1["hands"], g2["hands"], strict=False):
            if (h1["dealer"] + shift) % 4 != h2["dealer"]:
                break  # (redeal_same only) the deal fell out of step
            assert h2["stock"] == h1["stock"]
            for s in range(4):
                assert h2["hands"][(s + shift) % 4] == h1["hands"][s]
            compared += 1
        if pairing == "swap":
            # the strategies swapped seats: different play on the same cards
            assert g1["hands"][0]["hands"] == g2["hands"][0]["hands"]
    assert compared >= 24


def test_odd_games_round_up_and_chunking_does_not_matter():
    a = compare("heuristic", "greedy", games=41, seed=2, chunk_pairs=5).to_dict()
    b = compare("heuristic", "greedy", games=42, seed=2, chunk_pairs=100).to_dict()
    assert a["games"] == 42
    for k in (
        "win_rate",
        "win_rate_ci",
        "points_per_hand_diff",
        "points_per_hand_diff_ci",
        "a_side",
        "b_side",
        "mean_game_length",
    ):
        assert a[k] == b[k]


def test_interrupt_keeps_finished_pairs():
    calls = []

    def progress(n):
        calls.append(n)
        if len(calls) == 2:
            raise KeyboardInterrupt

    c = compare("heuristic", "greedy", games=100, seed=2, chunk_pairs=10, progress=progress)
    assert c.interrupted and c.games == 40


def test_compare_needs_two_sides():
    class ThreeSides:
        teams = 3
        players = 3

    with pytest.raises(ValueError, match="two sides"):
        team_policies(ThreeSides(), BUILTIN["random"], BUILTIN["random"])


# ------------------------------------------------------------------ strategies


def test_builtin_bundles():
    assert {"random", "simple", "greedy", "heuristic"} <= set(BUILTIN)
    assert [BUILTIN["simple"].spec(k) for k in ("bid", "trump", "discard", "play")] == [
        "simple",
        "simple",
        "simple",
        "random",
    ]
    assert BUILTIN["greedy"].play == "greedy" and BUILTIN["greedy"].bid == "simple"


def test_toml_strategy(tmp_path):
    f = tmp_path / "bold.toml"
    f.write_text(
        'description = "bids more"\n[bid]\npolicy = "heuristic"\n'
        'params = { margin = -0.5, cap = 10 }\n[play]\npolicy = "greedy"\n'
    )
    s = load_strategy_file(f)
    assert s.name == "bold" and s.play == "greedy" and s.discard == "heuristic"
    bid = s.policy("bid")
    # named params change only their slots; the rest keep the policy's defaults
    assert bid.params[10] == -0.5 and bid.params[16] == 10
    assert bid.params[0] == HEURISTIC_DEFAULTS["heuristic_bid"][0]
    assert resolve_strategy(str(f)).name == "bold"
    g = tmp_path / "list.toml"
    g.write_text(
        'name = "listy"\nbase = "simple"\n[discard]\npolicy = "heuristic"\nparams = [3.0, 0.0]\n'
    )
    s2 = load_strategy_file(g)
    assert s2.name == "listy" and s2.bid == "simple" and s2.play == "random"
    assert s2.policy("discard").params == (3.0, 0.0)
    with pytest.raises(PolicyError, match="unknown plug point 'plya'"):
        s2.with_params("plya", lead_high=0)


@pytest.mark.parametrize(
    "text, msg",
    [
        ('[bid]\npolicy = "clever"\n', "unknown bid policy 'clever'"),
        ("[bid]\nparams = { margn = 1 }\n", "no parameter 'margn'"),
        ('[bid]\nparams = { margin = "x" }\n', "must be a number"),
        ("colour = 1\n", "unknown field 'colour'"),
        ("[bid]\npolicee = 1\n", "unknown field bid.policee"),
        ('base = "clever"\n', "unknown base 'clever'"),
        ("[bid\n", "not valid TOML"),
        ('[play]\npolicy = "random"\nparams = { x = 1 }\n', "no parameter 'x'"),
        # a list gives every value: a short one (or []) would set the rest to 0
        ("[bid]\nparams = []\n", "bid.params lists 0 values where 'heuristic' takes 24"),
        ("[discard]\nparams = [3.0]\n", "lists 1 values where 'heuristic' takes 2: a list"),
    ],
)
def test_toml_strategy_errors(tmp_path, text, msg):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    with pytest.raises(StrategyError, match=msg) as e:
        load_strategy_file(f)
    assert "\n" not in str(e.value) and "bad.toml" in str(e.value)


def test_unknown_strategy():
    with pytest.raises(StrategyError, match="unknown strategy 'nope'"):
        resolve_strategy("nope")
    # a policy's spec where a strategy goes: said so, with the file that would hold it
    with pytest.raises(StrategyError) as e:
        resolve_strategy("bot.py:play")
    assert str(e.value).startswith("'bot.py:play' is a policy, not a strategy")
    assert 'policy = "bot.py:play" under its decision' in str(e.value)


# ------------------------------------------------------------------ ladder and CLI


def test_ladder_small():
    lad = ladder(["heuristic", "greedy", "random"], games=40, seed=1, bootstrap=20)
    r = lad.ratings()
    assert list(r["strategy"])[0] == "heuristic" and list(r["strategy"])[-1] == "random"
    assert (r["rating_lo"] <= r["rating"]).all() and (r["rating"] <= r["rating_hi"]).all()
    assert len(lad.matchups()) == 3


def test_without_resamples_no_interval_is_shown_for_the_score():
    """bootstrap 0: no rating interval and no score interval either (the score's was
    shown as [70.0, 70.0], its own point)."""
    lad = ladder(["heuristic", "greedy"], games=10, seed=0, bootstrap=0)
    r = lad.ratings()
    assert r[["rating_lo", "score_lo", "score_hi"]].isna().all().all()
    res = CliRunner().invoke(main, ["ladder", "heuristic", "greedy", "--games", "10",
                                    "--bootstrap", "0"])  # fmt: skip
    score = f"{100 * r.set_index('strategy').loc['heuristic', 'score']:.1f}"
    assert res.exit_code == 0 and f"{score}%" in res.output
    assert f"[{score}, {score}]" not in res.output


def test_a_sweep_s_rating_interval_is_as_wide_as_its_match_s():
    """heuristic wins all 20 games against random: the match's win rate is 100% [73.3,
    100]. A 73.3% score is 400 log10(0.733 / 0.267) = 175 Elo, so random's difference
    from the best cannot be pinned to within a few Elo of the virtual draw's -645 (it
    was [-646, -645] when the resamples were all sweeps)."""
    lad = ladder(["heuristic", "random"], games=20, seed=0, bootstrap=400)
    lo = lad.matchups()["win_rate_lo"].iloc[0]
    r = lad.ratings().set_index("strategy").loc["random"]
    implied = 400 * np.log10(lo / (1 - lo))
    assert r["score"] == 0 and r["vs_best_hi"] > -2 * implied
    # fitted to the pool its resamples draw from, the sweep's rating is inside its interval
    assert r["rating_lo"] + 10 < r["rating"] < r["rating_hi"] - 10
    # its score (no game won) from the same resamples: [0, more than nothing]
    assert r["score_lo"] == 0 and 0 < r["score_hi"] < 1 - lo + 0.1
    res = CliRunner().invoke(main, ["ladder", "heuristic", "random", "--games", "20"])
    assert "random lost every game: such a rating rests on the one pair won and" in res.output


def test_every_rating_sits_inside_its_interval_beside_a_sweep():
    """heuristic and greedy sweep random. The sweep's zero wins had been every resample's
    least, so random's rating sat at the low end of its interval and the mean-0 scale
    pushed the others' resamples below theirs (the committed ladder read "+569 [+534,
    +571]"). Fitted to the pools the resamples draw from, each rating has resamples
    on both sides; the best's difference from itself has none."""
    lad = ladder(["heuristic", "greedy", "random"], games=40, seed=1, bootstrap=400)
    r = lad.ratings().set_index("strategy")
    assert r.loc["random", "score"] == 0
    assert ((r["rating_lo"] + 10 < r["rating"]) & (r["rating"] < r["rating_hi"] - 10)).all()
    behind = r.drop(index="heuristic")
    assert (
        (behind["vs_best_lo"] < behind["vs_best"]) & (behind["vs_best"] < behind["vs_best_hi"])
    ).all()


def test_each_side_s_make_rate_and_pedros_taken_have_wilson_intervals():
    from cinch_sim.analysis.intervals import wilson

    s = compare("heuristic", "greedy", games=40, seed=2).summary()
    for side in ("a_side", "b_side"):
        x = s[side]
        lo, hi = wilson(x["made"], x["contracts"])
        assert (x["make_rate_lo"], x["make_rate_hi"]) == (float(lo), float(hi))
        assert x["make_rate_lo"] < x["make_rate"] < x["make_rate_hi"]
        assert x["right_pedro_capture_lo"] < x["right_pedro_capture"] < x["right_pedro_capture_hi"]


def test_cli_compare_json_records_and_out(tmp_path):
    rec = tmp_path / "games.jsonl"
    out = tmp_path / "out"
    res = CliRunner().invoke(
        main,
        [
            "compare",
            "heuristic",
            "greedy",
            "--games",
            "11",
            "--seed",
            "4",
            "--format",
            "json",
            "--records",
            str(rec),
            "--out",
            str(out),
            "--rule",
            "target=42",
        ],
    )
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    for k in (
        "games",
        "win_rate",
        "win_rate_ci",
        "win_rate_p_value",
        "points_per_hand_diff",
        "points_per_hand_diff_ci",
        "points_p_value",
    ):
        assert k in d
    assert d["games"] == 12 and len(d["win_rate_ci"]) == 2
    from cinch_sim.records import load_records, referee_file

    rep = referee_file(rec)
    assert rep.ok and rep.counts()["valid"] == 12
    assert all(r["format"] == "cinch-game/1" and r["target"] == 42 for r in load_records(rec))
    for name in (
        "games.csv",
        "sides.csv",
        "win_rate.png",
        "margins.png",
        "run.json",
        "summary.json",
    ):
        assert (out / name).is_file()
    again = CliRunner().invoke(
        main, ["compare", "heuristic", "greedy", "--games", "2", "--out", str(out)]
    )
    assert again.exit_code != 0 and "--force" in again.output


def test_cli_compare_table_and_errors(tmp_path):
    res = CliRunner().invoke(main, ["compare", "heuristic", "simple", "--games", "20"])
    assert res.exit_code == 0, res.output
    assert "win rate of heuristic" in res.output and "points per hand" in res.output
    bad = CliRunner().invoke(main, ["compare", "heuristic", "nope"])
    assert bad.exit_code != 0 and "unknown strategy 'nope'" in bad.output
    assert "Traceback" not in bad.output
    f = tmp_path / "x.toml"
    f.write_text("[bid]\nparams = { nope = 1 }\n")
    bad2 = CliRunner().invoke(main, ["compare", "heuristic", str(f)])
    assert bad2.exit_code != 0 and "no parameter 'nope'" in bad2.output


def test_cli_ladder(tmp_path):
    out = tmp_path / "lad"
    res = CliRunner().invoke(
        main,
        [
            "ladder",
            "heuristic",
            "greedy",
            "simple",
            "--games",
            "20",
            "--bootstrap",
            "10",
            "--out",
            str(out),
        ],
    )
    assert res.exit_code == 0, res.output
    assert "rating" in res.output
    # what the rating's scale and the score column are, said under the tables
    assert "Elo scale: 400 = 10 to 1 odds; score: the share of its games" in res.output
    for name in ("ladder.csv", "matchups.csv", "games.csv", "ladder.png", "run.json"):
        assert (out / name).is_file()
    # every game of every matchup, each matchup's own games as compare lists them (a
    # researcher found no per-game output for several strategies)
    import pandas as pd

    games = pd.read_csv(out / "games.csv")
    matchups = pd.read_csv(out / "matchups.csv")
    assert len(games) == matchups["games"].sum()
    for m in matchups.itertuples():
        mine = games[(games["a"] == m.a) & (games["b"] == m.b)]
        assert len(mine) == m.games and mine["a_result"].mean() == pytest.approx(m.win_rate_a)
    # each matchup's points a hand with its interval, as matchups.csv holds them
    from cinch_sim import notation as N

    for m in pd.read_csv(out / "matchups.csv").itertuples():
        shown = N.number_with_interval(
            m.points_per_hand_diff, m.points_diff_lo, m.points_diff_hi, 2, signed=True
        )
        assert m.points_diff_lo <= m.points_per_hand_diff <= m.points_diff_hi
        assert shown.endswith("]") and shown in res.output, (shown, res.output)
    one = CliRunner().invoke(main, ["ladder", "heuristic"])
    assert one.exit_code != 0


def test_policies_of_a_match_sit_by_team():
    rules = make_rules()
    p = team_policies(rules, BUILTIN["heuristic"], BUILTIN["random"])
    assert isinstance(p, PolicySet)
    assert [x.spec for x in p.play] == ["heuristic", "random", "heuristic", "random"]


def test_a_rating_at_the_end_of_its_interval_is_said_to_be_open_there():
    """A reader of a cut-throat report saw "+875 [+700, +876]": a rating at an end of its
    interval. The note names the strategies whose ratings do, and none where every
    rating sits inside its interval."""
    import pandas as pd

    from cinch_sim.matches.ladder import edge_note

    table = pd.DataFrame(
        {"strategy": ["a", "b", "c"], "games": [10, 10, 10], "rating": [875.0, 10.0, -885.0],
         "rating_lo": [700.0, -50.0, -885.2], "rating_hi": [875.3, 60.0, -700.0]}
    )  # fmt: skip
    note = edge_note(table)
    assert note.startswith("The ratings of a and c sit at an end of their intervals")
    assert edge_note(table.iloc[[1]]) is None
    assert edge_note(table.iloc[[0]]).startswith("The rating of a sits at an end of its")


def test_compare_text_says_contracts_and_gives_p_three_figures():
    """A review read "bids" over each side's contracts (the files call them contracts;
    a player counts every call as a bid), and "p = 1.4e-13" beside "p = 6.49e-15"."""
    from cinch_sim.cli.commands.compare import _p_value

    res = CliRunner().invoke(main, ["compare", "heuristic", "greedy", "--games", "20"])
    head = next(x for x in res.output.splitlines() if x.startswith("strategy "))
    assert head.split()[:2] == ["strategy", "contracts"]
    assert [_p_value(p) for p in (1.4e-13, 6.49e-15, 0.5)] == [
        "p = 1.40e-13", "p = 6.49e-15", "p = 0.500"
    ]  # fmt: skip


def test_a_score_s_interval_reaches_as_far_as_its_games_do():
    """random wins 1 game of 300 here. Its score's interval was the resamples of the
    pool with the pseudo-pairs, moved to hold the estimate: it began at the estimate
    itself, "0.3% [0.3, 4.7]" (a review's), as if less were impossible, and the
    heuristic's ended just above its own 96.0%. Joined with the games' own resamples
    each reaches as far as the games do, and still holds the pool's width."""
    lad = ladder(["heuristic", "greedy", "simple", "random"], games=100, seed=0, bootstrap=1000)
    r = lad.ratings().set_index("strategy")
    assert r.loc["random", "score"] == 1 / 300
    assert r.loc["random", "score_lo"] < r.loc["random", "score"] < r.loc["random", "score_hi"]
    assert (r["score_lo"] <= r["score"]).all() and (r["score"] <= r["score_hi"]).all()
