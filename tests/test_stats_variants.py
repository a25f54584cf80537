"""``stats`` and ``simulate`` label their tables and charts in each variant's own words:
cut-throat's maker and average opponent, contracts only in the make rates (a passed-out
hand shown as ``simulate`` shows it), the rules' names for their Pedros (all_hands'
Left Bower), no draw where there is none, and two decks' copy played first."""

from __future__ import annotations

import dataclasses
import importlib

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from cinch_sim import api
from cinch_sim.analysis import plots
from cinch_sim.analysis.tables import (
    compare_counts,
    make_rate,
    pedro_sides,
    points_distribution,
    score_by_bid,
    to_text,
)
from cinch_sim.cli.main import main
from cinch_sim.rules import make_rules

stats_cli = importlib.import_module("cinch_sim.cli.commands.stats")  # the module
simulate_cli = importlib.import_module("cinch_sim.cli.commands.simulate")

HANDS = 3000


@pytest.fixture(scope="module")
def runs():
    """One small stats run per preset (by trumps and pedros), made once."""
    cache = {}

    def get(variant: str):
        if variant not in cache:
            cache[variant] = api.stats(HANDS, seed=3, variant=variant, by=("trumps", "pedros"))
        return cache[variant]

    return get


@pytest.fixture(scope="module")
def passed():
    """The simple bidder passes a hand out about once in 150: bid-0 hands to count."""
    a = api.stats(4000, seed=1, bid="simple", by=("trumps",))
    assert a.counts.played > a.counts.contracts
    return a


def texts(fig) -> str:
    """Every string a figure shows: titles, axis labels, ticks, legends, captions."""
    from matplotlib.text import Text

    return "\n".join(t.get_text() for t in fig.findobj(Text))


def legend_texts(ax) -> list[str]:
    return [t.get_text() for t in ax.get_legend().get_texts()]


def invoke(*args) -> str:
    r = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert r.exit_code == 0, r.output
    return r.output


# ------------------------------------------------------------------ 1. cut-throat
@pytest.mark.parametrize("variant", ["cutthroat3", "heasly"])
def test_cutthroat_tables_give_the_maker_and_the_average_opponent(runs, variant):
    a = runs(variant)
    c = a.counts
    others = c.players - 1
    sb = score_by_bid(c).set_index("bid")
    assert not [col for col in sb.columns if "defenders" in col]
    g = c.cells(("bid",)).groupby("bid").sum()
    for key, col in (("def_points", "points"), ("def_score", "score_change")):
        want = g[key] / g["hands"] / others  # the other players' total, per opponent
        got = sb[f"mean_average_opponent_{col}"]
        assert np.allclose(got.to_numpy(), want.loc[got.index].to_numpy())
        lo, hi = sb[f"average_opponent_{col}_lo"], sb[f"average_opponent_{col}_hi"]
        assert ((lo <= got) & (got <= hi)).all() and (hi <= c.total_points / others).all()
    # a split that adds up (points per hand, who took a Pedro): the other players together
    pts = points_distribution(c)
    assert {"maker", "other_players"} <= set(pts.columns)
    assert "bidding_side" not in pts and "defenders" not in pts
    assert pts["maker"].sum() == pts["other_players"].sum() == c.played
    mean = (pts["points"] * pts["other_players"]).sum() / c.played
    assert mean == pytest.approx(g["def_points"].sum() / c.played)
    sides = pedro_sides(c)
    assert set(sides["fate"]) == {"maker", "other_players", "not_in_play"}
    for _, d in sides.groupby("pedro"):
        assert d["rate"].sum() == pytest.approx(1)
    text = to_text(score_by_bid(c))
    assert "average opponent" in text and "defenders" not in text
    # the two-run test reads the cut-throat columns
    assert {"points:maker", "points:other_players"} <= set(compare_counts(c, c)["tests"])


def test_partnership_tables_keep_the_bidding_side_and_defenders(runs):
    c = runs("standard").counts
    sb = score_by_bid(c)
    assert "mean_defenders_score_change" in sb and "mean_average_opponent_points" not in sb
    g = c.cells(("bid",)).groupby("bid").sum()
    want = (g["def_score"] / g["hands"]).to_numpy()
    assert np.allclose(sb["mean_defenders_score_change"].to_numpy(), want)
    pts = points_distribution(c)
    assert list(pts.columns[:4]) == ["points", "hands", "bidding_side", "bidding_side_share"]
    assert pts["points"].tolist() == list(range(c.total_points + 1))
    assert set(pedro_sides(c)["fate"]) == {"bidding_side", "defenders", "not_in_play"}


def test_cutthroat_charts_say_maker_and_average_opponent(runs):
    a = runs("cutthroat3")
    fig = plots.points_figure(a)
    points, score = fig.axes[:2]
    assert legend_texts(points) == ["maker", "other players"]  # a split: it adds up
    assert legend_texts(score) == ["maker", "average opponent"]  # a mean: one player's
    shown = texts(fig)
    assert "defender" not in shown and "bidding side" not in shown
    assert "Other players: the 2 other players together; average opponent:" in shown
    shown = texts(plots.pedro_figure(a))
    assert "another player" in shown and "a defender" not in shown
    assert "holder's side" not in shown and "the side of the player" not in shown
    assert "saved by the holder himself or lost" in shown


def test_partnership_charts_keep_their_words(runs):
    a = runs("standard")
    fig = plots.points_figure(a)
    for ax in fig.axes:
        assert legend_texts(ax) == ["bidding side", "defenders"]
    shown = texts(plots.pedro_figure(a))
    for words in (
        "Who held each Pedro, and who took it",
        "When the Pedros fall: saved by the holder's side or lost",
        "who held the Pedro after the draw",
        "trick the Pedro fell in (1 = first)",
        "'saved': taken by the side of the player who held the Pedro after the draw.",
        "a defender",
    ):
        assert words in shown, words


def test_cutthroat_printed_tables():
    out = invoke("simulate", "--variant", "cutthroat3", "--hands", "2000", "--seed", "2")
    pedros = out[out.index("Pedro capture") :]
    assert "maker" in pedros and "other players" in pedros
    assert "defenders" not in pedros and "bidding side" not in pedros
    out = invoke("stats", "--variant", "heasly", "--hands", "2000", "--seed", "2")
    tail = out[out.index("[points]") :]
    assert "defenders" not in tail and "bidding side" not in tail
    assert "mean average opponent score change" in tail
    assert "divided by 5" in tail
    assert "the maker and the average opponent [score_by_bid]" in out


def test_partnership_printed_pedro_table_shows_each_share_with_its_interval():
    out = invoke("simulate", "--hands", "2000", "--seed", "2")
    table = out[out.index("\nPedro capture (95% Wilson intervals)\n") :].splitlines()
    assert table[2].split() == ["pedro", "bidding", "side", "defenders", "not", "in", "play"]
    csv = invoke("simulate", "--hands", "2000", "--seed", "2", "--format", "csv",
                 "--table", "pedros")  # fmt: skip
    first = csv.splitlines()[1].split(",")  # right_pedro,bidding_side,hands,count,rate,lo,hi
    shown = f"{float(first[4]):.1%} [{float(first[5]) * 100:.1f}, "
    assert table[4].startswith("Right Pedro") and shown in table[4]


# ------------------------------------------------------------------ 2. passed out
def test_make_rates_count_contracts_only(passed):
    c = passed.counts
    for by in (("trumps", "bid"), ("pedros", "bid"), ("seat", "trumps", "bid")):
        t = make_rate(c, by)
        assert (t["bid"] > 0).all(), by
        assert t["hands"].sum() == c.contracts and t["made"].sum() == c.contracts_made
    for name, t in passed.tables().items():
        if name.startswith("make_rate") and name != "make_rate_by_bid":
            assert t["hands"].sum() == c.contracts, name
    by_bid = passed.table("make_rate_by_bid").set_index("bid")
    assert by_bid["hands"].sum() == c.played  # the one table that keeps bid 0's row
    assert pd.isna(by_bid.loc[0, "made"]) and np.isnan(by_bid.loc[0, "make_rate"])


def passed_out_rows(points: list[int], bid: int = 0) -> np.ndarray:
    """Result rows of hands at ``bid`` (0: everybody passed, the dealer's side made
    ``points``, the others the rest), no Pedro in play: rows the counts can take."""
    from cinch_sim import layout as L

    n = len(points)
    rows = np.zeros((n, L.H_LEN), np.int32)
    rows[:, L.H_DEALER] = 3
    rows[:, L.H_MAKER] = 3
    rows[:, L.H_BID] = bid
    rows[:, L.H_MADE] = 0 if bid else 1
    rows[:, L.H_MAKER_TRUMPS_DEALT] = 3
    rows[:, L.H_POINTS + 1] = points
    rows[:, L.H_POINTS + 0] = 14 - np.array(points)
    rows[:, L.H_SCORE + 1] = points if not bid else -bid
    rows[:, L.H_SCORE + 0] = 14 - np.array(points)
    rows[:, L.H_SLOT_TEAM : L.H_SLOT_TEAM + L.N_POINT_SLOTS] = -1
    rows[:, L.H_SLOT_HOLDER : L.H_SLOT_HOLDER + L.N_POINT_SLOTS] = -1
    return rows


def test_a_contract_of_0_cannot_go_below_0(passed):
    from cinch_sim.analysis.counts import HandCounts
    from cinch_sim.rules import make_rules

    c = HandCounts(make_rules())
    c.add(passed_out_rows([0, 3, 8]))  # three hands passed out: a wide interval
    c.add(passed_out_rows([2, 3, 8], bid=7))  # three contracts of 7, each set
    for t in (make_rate(c, "bid"), score_by_bid(c)):
        t = t.set_index("bid")
        assert t.loc[0, "score_change_lo"] == 0 < t.loc[0, "mean_score_change"]
        assert t.loc[7, "score_change_lo"] < 0  # a set contract still goes below 0
        assert t.loc[7, "score_change_lo"] == -7  # every one set: -7, no lower (not -14)
    for t in (make_rate(passed.counts, "bid"), score_by_bid(passed.counts)):
        assert t.set_index("bid").loc[0, "score_change_lo"] >= 0


def test_charts_count_contracts_only(passed):
    fig = plots.make_rate_figure(passed)
    ax = fig.axes[0]
    assert all(x > 0 for line in ax.get_lines() for x in line.get_xdata())
    sizes = [int(s.split("n=")[1].rstrip(")").replace(",", "")) for s in legend_texts(ax)[1:]]
    t = make_rate(passed.counts, ("trumps", "bid"))
    drawn = t.groupby("trumps")["hands"].sum()
    assert sorted(sizes) == sorted(drawn.nlargest(len(sizes)).tolist())
    heat = plots.heatmap_figure(passed).axes[0]
    assert 0 not in [int(x) for x in heat.get_xticks()]
    assert "nan" not in texts(plots.heatmap_figure(passed))


def test_a_passed_out_row_is_shown_as_simulate_shows_it(passed):
    text = to_text(passed.table("make_rate_by_bid"))
    row = next(ln for ln in text.splitlines() if "passed out" in ln)
    assert row.split()[:3] == ["0", "(passed", "out)"]
    assert "<NA>" not in text and row.count("–") == 2  # made; make rate with its interval
    assert "0 (passed out)" in to_text(score_by_bid(passed.counts))
    out = invoke("stats", "--hands", "4000", "--seed", "1", "--bid-policy", "simple")
    assert "<NA>" not in out and "0 (passed out)" in out


# ------------------------------------------------------------------ 3. all_hands
def test_all_hands_names_the_left_bower(runs):
    a = runs("all_hands")
    rules = a.counts.rules
    t = a.table("make_rate_by_pedros")
    assert set(t["pedros"]) <= {"none", "right_pedro", "left_bower", "right_pedro_and_left_bower"}
    assert "left" not in set(t["pedros"])
    title = stats_cli.table_title("make_rate_by_pedros", rules)
    assert title == "Bid success by which of the Right Pedro and the Left Bower the maker was dealt"
    assert stats_cli.table_title("pedro_capture", rules) == (
        "Capture of the Right Pedro and the Left Bower by holder after the draw"
    )
    shown = texts(plots.pedro_figure(a))
    assert "Pedros" not in shown and "each Pedro" not in shown
    assert "the Right Pedro and the Left Bower" in shown
    assert "who held the card after the draw" in shown
    by_pedros = api.stats(HANDS, seed=3, variant="all_hands", by=("pedros",))
    legend = legend_texts(plots.make_rate_figure(by_pedros).axes[0])
    assert "Left Bower" in " ".join(legend) and "pedros: left" not in legend
    out = invoke("simulate", "--variant", "all_hands", "--hands", "1000", "--seed", "2")
    assert "\nCapture of the Right Pedro and the Left Bower (95% Wilson intervals)\ncard " in out


def test_the_standard_titles_are_unchanged(runs):
    rules = runs("standard").counts.rules
    for name, title in stats_cli.TABLE_TITLES.items():
        assert stats_cli.table_title(name, rules) == title.format(dealt=rules.cards_dealt)
    values = set(runs("standard").table("make_rate_by_pedros")["pedros"])
    assert values <= {"none", "right", "left", "both"}


# ------------------------------------------------------------------ 4. no draw
@pytest.mark.parametrize("variant", ["no_draw", "sancho_classic"])
def test_no_draw_no_after_the_draw(runs, variant):
    a = runs(variant)
    for name in ("pedro_capture", "pedro_by_trick"):
        assert "draw" not in stats_cli.table_title(name, a.counts.rules)
    shown = texts(plots.pedro_figure(a)).replace(f"rules: {variant}", "")  # the caption
    assert "draw" not in shown


# ------------------------------------------------------------------ 5. two decks
def test_two_decks_say_the_copy_played_first(runs):
    a = runs("two_deck")
    for name in ("pedro_capture", "pedro_by_trick"):
        assert "copy played first" in stats_cli.table_title(name, a.counts.rules)
    assert "each bar follows the copy played first" in texts(plots.pedro_figure(a))
    out = invoke("simulate", "--variant", "two_deck", "--hands", "500", "--seed", "2")
    assert "copy played first" in out
    standard = runs("standard").counts.rules
    assert "copy played first" not in stats_cli.table_title("pedro_capture", standard)


def test_a_long_points_axis_has_fewer_ticks(runs):
    ax = plots.points_figure(runs("two_deck")).axes[0]
    ticks = [int(x) for x in ax.get_xticks()]
    assert ticks == list(range(0, 29, 2))
    ax = plots.points_figure(runs("standard")).axes[0]
    assert [int(x) for x in ax.get_xticks()] == list(range(15))


# ------------------------------------------------------------------ 6. one Pedro
def test_one_pedro_and_sancho_are_not_the_mean_of_the_pedros(runs):
    """sancho_classic has one Pedro (no left card) and Sancho: the capture chart follows
    both by name; what the maker was dealt is still the Pedro's alone."""
    a = runs("sancho_classic")
    shown = texts(plots.pedro_figure(a))
    assert "not in play (mean of the 2 cards)" in shown and "mean of the Pedros" not in shown
    assert "Who held the Right Pedro and Sancho,\nand who took each" in shown
    assert "Sancho saved" in shown and "who held the card" in shown
    title = stats_cli.table_title("make_rate_by_pedros", a.counts.rules)
    assert title == "Bid success by whether the maker was dealt the Right Pedro"
    assert "mean of the Pedros" in texts(plots.pedro_figure(runs("no_draw")))
    # one card followed alone (no left card, no Sancho): said in the singular
    one = dataclasses.replace(
        make_rules("no_draw"), left_rank="", trump_order="AKQJT98765432", bid_max=9
    )
    first, second, _ = plots.pedro_titles(one)
    assert first == "Who held the Right Pedro, and who took it"
    assert second.startswith("When the Right Pedro falls:")


# ------------------------------------------------------------------ 7. one trump
def test_one_trump_is_singular():
    assert plots._class_label({"trumps": 1}, ("trumps",)) == "1 trump"
    assert plots._class_label({"trumps": 2}, ("trumps",)) == "2 trumps"


def test_a_yes_or_no_feature_reads_yes_and_no_in_the_text_and_stays_boolean_in_files():
    """``--by ace``: the text said Python's False and True."""
    st = api.stats(hands=600, seed=2, by=["ace"])
    df = st.table("make_rate_by_hand_and_bid")
    assert df["ace"].dtype == bool  # the CSV keeps it machine-readable
    rows = to_text(df).splitlines()[1:]
    assert {"no", "yes"} <= {r.split()[0] for r in rows if r.strip()}
    assert "False" not in to_text(df) and "True" not in to_text(df)


def test_sancho_and_dom_are_followed_beside_the_pedros():
    """dom_pedro: the capture tables follow the Pedros, then Sancho and Dom, and each
    card's split is what the kernel's rows say of it (its capturing side against the
    maker's), hand by hand; the titles name them."""
    from cinch_sim import layout as L
    from cinch_sim.analysis.counts import HandCounts
    from cinch_sim.engine.run import PolicySet, run_chunk

    rules = make_rules("dom_pedro")
    rows, _ = run_chunk(rules, PolicySet.from_specs(4), 5, 0, 2000, 3)
    counts = HandCounts(rules)
    counts.add(rows)
    df = pedro_sides(counts)
    assert list(dict.fromkeys(df["pedro"])) == ["right_pedro", "left_pedro", "sancho", "dom"]
    played = rows[rows[:, L.H_MAKER] >= 0]
    maker_team = np.asarray(rules.seat_teams)[played[:, L.H_MAKER]]
    for name, slot in rules.key_cards:
        took = played[:, L.H_SLOT_TEAM + slot]
        want = [(took == maker_team).sum(), ((took >= 0) & (took != maker_team)).sum()]
        want.append((took < 0).sum())
        assert df[df["pedro"] == name]["count"].tolist() == want, name
    assert stats_cli.table_title("pedro_capture", rules) == (
        "Capture of the Pedros, Sancho and Dom by holder after the draw"
    )
    assert simulate_cli._pedros_title(rules).startswith("Capture of the Pedros, Sancho and Dom (")
