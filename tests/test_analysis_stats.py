"""Numbers that hold: interval coverage, two seeds agreeing, shifts caught, no hand lost."""

from __future__ import annotations

import copy
import math
import re

import numpy as np
import pandas as pd
import pytest

from cinch_sim import layout as L
from cinch_sim.analysis.counts import FEATURES, AnalysisError, HandCounts, check_features
from cinch_sim.analysis.intervals import wilson
from cinch_sim.analysis.tables import (
    all_tables,
    compare_counts,
    homogeneity,
    make_rate,
    pedro_by_trick,
    pedro_capture,
    points_distribution,
    score_by_bid,
)
from cinch_sim.api import stats
from cinch_sim.rules import make_rules

ALPHA = 1e-3


@pytest.fixture(scope="module")
def run_a():
    return stats(20_000, seed=11, by=("trumps", "pedros"))


@pytest.fixture(scope="module")
def run_b():
    return stats(20_000, seed=12, by=("trumps", "pedros"))


# ------------------------------------------------------------------ coverage
def synthetic_rows(rng, probs: dict[int, float], per_bid: int) -> np.ndarray:
    """Result rows with a known make probability per bid level (the rest plausible)."""
    bids = np.repeat(np.array(list(probs), np.int32), per_bid)
    n = len(bids)
    rows = np.zeros((n, L.H_LEN), np.int32)
    rows[:, L.H_DEALER] = 3
    rows[:, L.H_MAKER] = rng.integers(0, 4, n)
    rows[:, L.H_BID] = bids
    p = np.array([probs[b] for b in bids])
    rows[:, L.H_MADE] = rng.random(n) < p
    rows[:, L.H_MAKER_TRUMPS_DEALT] = rng.integers(1, 9, n)
    rows[:, L.H_MAKER_PEDROS_DEALT] = rng.integers(0, 4, n)
    rows[:, L.H_MAKER_HONOURS_DEALT] = rng.integers(0, 32, n)
    mteam = rows[:, L.H_MAKER] % 2
    pts = np.where(rows[:, L.H_MADE] == 1, bids, 0)
    r = np.arange(n)
    rows[r, L.H_POINTS + mteam] = pts
    rows[r, L.H_POINTS + 1 - mteam] = 14 - pts
    rows[r, L.H_SCORE + mteam] = np.where(rows[:, L.H_MADE] == 1, pts, -bids)
    rows[r, L.H_SCORE + 1 - mteam] = 14 - pts
    rows[:, L.H_SLOT_TEAM : L.H_SLOT_TEAM + L.N_POINT_SLOTS] = -1
    rows[:, L.H_SLOT_HOLDER : L.H_SLOT_HOLDER + L.N_POINT_SLOTS] = -1
    return rows


def exact_wilson_coverage(n: int, p: float) -> float:
    from scipy.stats import binom

    k = np.arange(n + 1)
    lo, hi = wilson(k, np.full(n + 1, n))
    return float(binom.pmf(k, n, p)[(lo <= p) & (p <= hi)].sum())


@pytest.mark.slow  # a calibration over 150 synthetic tables: 3-5 s of one core
def test_interval_coverage_on_known_probabilities():
    """Tables' 95% intervals cover the true make rate as often as Wilson's exact coverage
    says, within a 4-sigma binomial tolerance (a false alarm about once in 15,000 runs)."""
    rng = np.random.default_rng(20240611)
    probs = {5: 0.9, 6: 0.75, 7: 0.5, 8: 0.3, 9: 0.08}
    per_bid, reps = 60, 150
    rules = make_rules()
    covered = np.zeros(len(probs))
    for _ in range(reps):
        c = HandCounts(rules)
        c.add(synthetic_rows(rng, probs, per_bid))
        t = make_rate(c, "bid").set_index("bid")
        assert t["hands"].tolist() == [per_bid] * len(probs)
        for i, (b, p) in enumerate(probs.items()):
            covered[i] += t.at[b, "make_rate_lo"] <= p <= t.at[b, "make_rate_hi"]
    exact = np.array([exact_wilson_coverage(per_bid, p) for p in probs.values()])
    assert np.all((exact > 0.92) & (exact < 0.98)), exact
    expected = reps * exact.sum()
    sd = np.sqrt(reps * np.sum(exact * (1 - exact)))
    assert abs(covered.sum() - expected) < 4 * sd, (covered / reps, exact)


@pytest.mark.slow  # 600 tests under the null: 4-8 s of one core
def test_chi_square_is_calibrated():
    """Under the null the homogeneity test rejects at its nominal rate (multinomial draws)."""
    rng = np.random.default_rng(7)
    probs = np.array([0.3, 0.25, 0.2, 0.1, 0.08, 0.05, 0.015, 0.005])
    reps, rejections = 600, 0
    for _ in range(reps):
        a = pd.DataFrame({"k": range(8), "n": rng.multinomial(400, probs)})
        b = pd.DataFrame({"k": range(8), "n": rng.multinomial(300, probs)})
        rejections += homogeneity(a, b, ["k"], ["n"])["p_value"] < 0.1
    # 0.1 * 600 = 60, sd about 7.3: a 3.8-sigma band
    assert 32 < rejections < 88, rejections


# ------------------------------------------------------------------ two runs
def test_two_seeds_agree(run_a, run_b):
    """One global test over every table (Bonferroni over tables, each a chi-square over
    all its rows): a false alarm in fewer than 1 in 1000 runs."""
    r = compare_counts(run_a.counts, run_b.counts, ("trumps", "pedros"), alpha=ALPHA)
    worst = min(r["tests"].items(), key=lambda kv: kv[1]["p_value"])
    assert r["agree"], worst
    assert len(r["tests"]) >= 10
    assert all(t["df"] >= 1 for t in r["tests"].values())


def test_a_rules_change_is_caught(run_a):
    other = stats(20_000, seed=12, by=("trumps", "pedros"), rules={"robber": "dealer"})
    r = compare_counts(run_a.counts, other.counts, ("trumps", "pedros"), alpha=ALPHA)
    assert not r["agree"]


def test_a_small_planted_shift_in_make_rate_is_caught(run_a, run_b):
    """5% of the made contracts at the commonest bid turned into sets: caught."""
    shifted = copy.deepcopy(run_b.counts)
    by_bid = make_rate(shifted, "bid")
    top = int(by_bid.loc[by_bid["hands"].idxmax(), "bid"])
    cells = np.unravel_index(np.arange(shifted.n.size), shifted.shape)[1] == top
    shifted.made[cells] = np.floor(shifted.made[cells] * 0.95).astype(np.int64)
    r = compare_counts(run_a.counts, shifted, ("trumps", "pedros"), alpha=ALPHA)
    assert not r["agree"]
    assert r["tests"]["make_rate_by_bid"]["p_value"] < r["level"]
    # and the untouched tables still agree
    assert r["tests"]["pedro_capture:right_pedro"]["p_value"] >= r["level"]


def test_a_different_bid_policy_is_caught(run_a):
    other = stats(20_000, seed=12, bid="simple")
    assert not compare_counts(run_a.counts, other.counts, ("trumps",))["agree"]


# ------------------------------------------------------------------ no hand lost
def check_sums(counts: HandCounts, by=("trumps",)):
    played = counts.played
    assert played + counts.thrown_in == counts.hands
    for name, df in all_tables(counts, by).items():
        if name.startswith("pedro"):
            for _, d in df.groupby("pedro"):
                assert d["hands"].sum() == played, name
        elif name == "points":
            assert df["bidding_side"].sum() == played
            assert df["defenders"].sum() == played
            assert (df["hands"] == played).all()
        else:
            assert df["hands"].sum() == played, name
            if "made" in df:
                assert df["made"].sum() == counts.made.sum(), name
        assert "low_n" in df.columns, name


def test_every_table_and_feature_sums_to_the_total(run_a):
    c = run_a.counts
    check_sums(c, ("trumps", "pedros"))
    for f in FEATURES:
        t = make_rate(c, f)
        assert t["hands"].sum() == c.played, f
        assert {"make_rate_lo", "make_rate_hi", "hands", "low_n"} <= set(t.columns)
    t = make_rate(c, tuple(FEATURES))
    assert t["hands"].sum() == c.played
    assert (t["low_n"] == (t["hands"] < 30)).all()
    assert t["low_n"].any()  # fine slices have small rows: kept and flagged
    sb = score_by_bid(c)
    assert sb["hands"].sum() == c.played
    pb = points_distribution(c, by_bid=True)
    assert pb["bidding_side"].sum() == c.played


def test_thrown_in_hands_are_counted_apart():
    # the simple bidder passes without a Pedro-rich suit, so all four often pass
    a = stats(3000, seed=5, rules={"all_pass": "redeal_next"}, bid="simple")
    assert a.counts.thrown_in > 0
    check_sums(a.counts)
    assert a.summary()["played"] == 3000 - a.counts.thrown_in


def test_pedro_tables_are_consistent(run_a):
    c = run_a.counts
    pc = pedro_capture(c)
    pt = pedro_by_trick(c)
    for pedro in pc["pedro"].unique():
        a = pc[pc["pedro"] == pedro].groupby(["holder", "fate"])["hands"].sum()
        b = pt[pt["pedro"] == pedro].groupby("holder")[["saved", "lost"]].sum()
        for holder in ("maker", "partner", "defender"):
            assert a[(holder, "saved")] == b.loc[holder, "saved"]
            assert a[(holder, "lost")] == b.loc[holder, "lost"]
    ok = pc["holder_hands"] > 0
    assert (
        (pc.loc[ok, "rate_lo"] <= pc.loc[ok, "rate"])
        & (pc.loc[ok, "rate"] <= pc.loc[ok, "rate_hi"])
    ).all()
    assert pt["trick"].dropna().between(1, c.hand_size).all()
    # each row's share of the hands played, with its Wilson interval around it
    from cinch_sim.analysis.intervals import wilson

    lo, hi = wilson(pt["hands"].to_numpy(), c.played)
    assert np.allclose(pt["share_lo"], lo) and np.allclose(pt["share_hi"], hi)
    assert ((pt["share_lo"] <= pt["share"]) & (pt["share"] <= pt["share_hi"])).all()


# ------------------------------------------------------------------ streaming
def test_counts_do_not_depend_on_chunks_and_merge():
    whole = stats(4000, seed=3, chunk=4000).counts
    small = stats(4000, seed=3, chunk=700).counts
    assert np.array_equal(whole.n, small.n) and np.array_equal(whole.pedro, small.pedro)
    from cinch_sim.engine.run import PolicySet, run_chunk

    rules = make_rules()
    pol = PolicySet.from_specs(4)
    a, b = HandCounts(rules), HandCounts(rules)
    a.add(run_chunk(rules, pol, 3, 0, 1500)[0])
    b.add(run_chunk(rules, pol, 3, 1500, 2500)[0])
    a.merge(b)
    assert np.array_equal(a.n, whole.n) and np.array_equal(a.made, whole.made)
    assert np.array_equal(a.points_hist, whole.points_hist)


def test_bad_feature_is_refused():
    with pytest.raises(AnalysisError, match="unknown feature 'colour'"):
        check_features(("trumps", "colour"))
    with pytest.raises(AnalysisError):
        stats(10, by="nope")


def test_hand_data_matches_the_tables(tmp_path):
    pytest.importorskip("pyarrow")
    path = tmp_path / "hands.parquet"
    a = stats(3000, seed=9, hand_data=path)
    df = pd.read_parquet(path)
    assert len(df) == 3000 and df["hand"].tolist() == list(range(3000))
    assert set(df["trump"]) == set("CDHS")  # the letters every table and record uses
    t = make_rate(a.counts, ("trumps", "bid")).set_index(["trumps", "bid"])
    g = df.groupby(["trumps", "bid"]).agg(hands=("made", "size"), made=("made", "sum"))
    assert g["hands"].to_dict() == t["hands"].to_dict()
    assert g["made"].to_dict() == t["made"].to_dict()
    # bid 0 (all passed, the dealer naming trump) has no contract: made is <NA> there, as
    # in the tables, so the rows' make rate is the headline's (it was True: 133 of 20,000)
    b = stats(4000, seed=9, bid="traditional", hand_data=tmp_path / "b.parquet")
    rows = pd.read_parquet(tmp_path / "b.parquet")
    assert (rows["bid"] == 0).sum() > 0 and rows.loc[rows["bid"] == 0, "made"].isna().all()
    by_bid = make_rate(b.counts, "bid").set_index("bid")
    contracts = by_bid.drop(index=0)
    assert rows["made"].sum() == contracts["made"].sum()
    assert rows["made"].count() == contracts["hands"].sum()
    pc = pedro_capture(a.counts).set_index(["pedro", "holder", "fate"])["hands"]
    for pedro in ("right_pedro", "left_pedro"):
        got = df.groupby([f"{pedro}_holder", f"{pedro}_fate"], observed=True).size()
        for (holder, fate), n in got.items():
            assert pc[(pedro, holder, fate)] == n
    assert not list(tmp_path.glob(".*tmp"))
    assert "sancho_dealt" not in df  # the standard game has no Sancho
    # the file says what made it: the run's settings in its metadata (a review: a
    # Parquet file copied elsewhere had no seed or policies)
    import json

    import pyarrow.parquet as pq

    from cinch_sim.analysis.hand_rows import SETTINGS_KEY

    said = json.loads(pq.read_schema(tmp_path / "b.parquet").metadata[SETTINGS_KEY])
    assert said["seed"] == 9 and said["hands"] == 4000
    assert said["policies"]["bid"] == ["traditional"] * 4
    assert said["rules"]["preset"] == "standard"


def test_hand_data_says_who_was_dealt_the_sancho(tmp_path):
    """In a Sancho game each hand says whether the maker was dealt the Sancho: more
    often than chance, as bidders like it (the bit itself is read against the traced
    deals in test_safe_bids)."""
    pytest.importorskip("pyarrow")
    path = tmp_path / "hands.parquet"
    stats(3000, seed=9, hand_data=path, variant="sancho")
    df = pd.read_parquet(path)
    assert df["sancho_dealt"].dtype == bool
    played = df[~df["thrown_in"]]
    # 9 cards of 52 hold a given card 17% of the time; makers hold their trump's Sancho
    # far more often (63% on seed 9): the heuristic bids it and names its suit
    assert 0.35 < played["sancho_dealt"].mean() < 0.95
    assert not df.loc[df["thrown_in"], "sancho_dealt"].any()


def ctrl_c_at_chunk(k: int):
    """An ``on_chunk`` hook that raises KeyboardInterrupt as it sees chunk ``k`` (1 first),
    as a notebook user's Ctrl-C lands in it."""
    seen = []

    def stop(rows, trace):
        seen.append(len(rows))
        if len(seen) == k:
            raise KeyboardInterrupt

    return stop


def test_ctrl_c_keeps_finished_chunks(tmp_path):
    pytest.importorskip("pyarrow")
    path = tmp_path / "hands.parquet"
    a = stats(5000, seed=1, chunk=1000, on_chunk=ctrl_c_at_chunk(2), hand_data=path)
    assert a.interrupted and a.hands == 2000
    check_sums(a.counts)
    assert len(pd.read_parquet(path)) == 2000


def test_a_ctrl_c_from_on_chunk_keeps_that_chunk_in_the_records_and_the_counts(tmp_path):
    from cinch_sim.api import simulate

    path = tmp_path / "hands.jsonl"
    sim = simulate(500, seed=2, chunk=200, records=path, on_chunk=ctrl_c_at_chunk(2))
    assert sim.interrupted and sim.hands == 400
    lines = path.read_text().splitlines()
    assert len(lines) == 400 and not list(tmp_path.glob(".*tmp*"))


def test_a_hand_everybody_passed_is_no_contract_made():
    # the simple bidder passes out about 1 hand in 150: the dealer names trumps at
    # contract 0, and "made" would be true of every such hand
    import cinch_sim as cs

    sim = cs.simulate(hands=4000, seed=1, bid="simple")
    by_bid = sim.table("by_bid").set_index("bid")
    passed = int(by_bid.loc[0, "hands"])
    assert passed > 0 and pd.isna(by_bid.loc[0, "made"]) and np.isnan(by_bid.loc[0, "make_rate"])
    c = sim.counts
    assert c.contracts == 4000 - passed == int(by_bid.loc[1:, "hands"].sum())
    assert c.contracts_made == int(by_bid.loc[1:, "made"].sum())
    rate = c.contracts_made / c.contracts
    shown = re.search(
        rf"made ([\d.]+)% \[([\d.]+), ([\d.]+)\] of {c.contracts:,} contracts", repr(sim)
    )
    assert shown, repr(sim)
    # the rate and its 95% Wilson interval: about 1.96 standard errors each side
    est, lo, hi = (float(x) / 100 for x in shown.groups())
    half = 1.96 * math.sqrt(rate * (1 - rate) / c.contracts)
    assert est == pytest.approx(rate, abs=5e-4) and lo <= est <= hi
    assert hi - lo == pytest.approx(2 * half, abs=2e-3)
    assert f"{passed} passed out (no contract)" in repr(sim)
    # a table by another feature counts the contracts only
    a = cs.stats(hands=4000, seed=1, bid="simple")
    by_trumps = a.table("make_rate_by_trumps")
    assert by_trumps["hands"].sum() == c.contracts and by_trumps["made"].sum() == c.contracts_made
    assert a.summary()["contracts"] == c.contracts
