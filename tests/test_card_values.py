"""Card values by paired replays: hand-built deals worked out by hand, the paired
intervals, the stand-ins, the API's tables and ``stats --card-values``."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from cinch_sim import layout as L
from cinch_sim.analysis.card_values import (
    CardValues,
    Pairs,
    Replay,
    maker_positions,
    replacements,
    replay,
    swapped,
)
from cinch_sim.analysis.card_values import tested_cards as cards_valued
from cinch_sim.cards import parse_card, parse_cards
from cinch_sim.cli.main import main
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.records.writer import hand_record
from cinch_sim.rules import VARIANTS, Rules

SPADES = 1
# no draw and six cards each: what the maker is dealt is what he plays
NO_DRAW = Rules(draw=False, robber="none", cards_dealt=6, hand_size=6)


def built_deck(rules: Rules, dealer: int, maker: int, maker_cards: list[int], stock: list[int]):
    """A deck dealing ``maker_cards`` to the maker, every card of ``stock`` undealt
    (after the 24 dealt cards) and the rest to the other seats."""
    deck = [-1] * 52
    for pos, c in zip(maker_positions(rules, dealer, maker), maker_cards, strict=True):
        deck[pos] = c
    rest = [c for c in range(52) if c not in maker_cards and c not in stock]
    dealt = rules.players * rules.cards_dealt
    free = [i for i in range(dealt) if deck[i] < 0]
    for i, c in zip(free, rest, strict=False):
        deck[i] = c
    deck[dealt:] = rest[len(free) :] + stock
    assert sorted(deck) == list(range(52))
    return deck


@pytest.fixture(scope="module")
def policies() -> PolicySet:
    return PolicySet.from_specs(4)


def test_the_right_pedro_for_the_two_is_worth_its_five_points(policies):
    # The maker (seat 0) holds A K Q J T 5 of spades; every other trump but the 2 is
    # undealt, the 2 too. He leads every trick with a trump nobody can follow, so he
    # takes High, Low (the 5 is the lowest trump in play), Jack, Game and the Right
    # Pedro: 9. With the 5 and the 2 traded he holds A K Q J T 2 and takes High, Low
    # (the 2), Jack and Game: 4; the Pedro lies undealt. The Pedro is worth 5.
    held = parse_cards("AS KS QS JS TS 5S")
    stock = parse_cards("9S 8S 7S 6S 4S 3S 2S 5C")
    deck = built_deck(NO_DRAW, 3, 0, held, stock)
    dealt = set(held)
    (two,) = replacements(NO_DRAW, SPADES, dealt, 1)
    assert two == parse_card("2S")  # the lowest trump not dealt that scores nothing itself
    alt = swapped(deck, [parse_card("5S")], [two])
    a = replay(NO_DRAW, policies, 0, 7, 3, deck, 0, SPADES, 7)
    b = replay(NO_DRAW, policies, 0, 7, 3, alt, 0, SPADES, 7)
    assert (a.points, b.points) == (9, 4)
    assert (a.made, b.made) == (1, 0)  # a contract of 7
    assert (a.score, b.score) == (9, -7)  # set back by the bid


def test_a_card_swapped_for_itself_changes_nothing(policies):
    rows, tr = run_chunk(Rules(), policies, 11, 0, 40, 3, trace=True)
    for i in range(40):
        row = rows[i]
        if row[L.H_MAKER] < 0:
            continue
        deck = [int(c) for c in tr[i, :52]]
        c = deck[maker_positions(Rules(), 3, int(row[L.H_MAKER]))[0]]
        assert swapped(deck, [c], [c]) == deck
        args = (int(row[L.H_MAKER]), int(row[L.H_TRUMP]), int(row[L.H_BID]))
        a = replay(Rules(), policies, 11, i, 3, deck, *args)
        b = replay(Rules(), policies, 11, i, 3, swapped(deck, [c], [c]), *args)
        assert a == b


def test_maker_positions_are_the_cards_the_records_deal(policies):
    rules = Rules()
    rows, tr = run_chunk(rules, policies, 5, 0, 8, 2, trace=True)
    for i in range(8):
        rec = hand_record(rules, rows[i], tr[i])
        for seat in range(4):
            cards = {int(tr[i, p]) for p in maker_positions(rules, 2, seat)}
            assert cards == set(parse_cards(rec["hands"][seat]))


def test_stand_ins_and_tested_cards_follow_the_rules():
    labels = [t.label for t in cards_valued(Rules())]
    assert labels == [
        "Ace of trumps", "King of trumps", "Queen of trumps", "Jack of trumps",
        "Ten of trumps (Game)", "Right Pedro", "Left Pedro", "both Pedros",
    ]  # fmt: skip
    # the Bowers' pair reads as the Pedros' does; the Sancho and the Dom by their names
    bowers = [t.label for t in cards_valued(VARIANTS["all_hands"])]
    assert bowers[3] == "Right Bower" and bowers[-1] == "both Bowers"
    dom = [t.label for t in cards_valued(VARIANTS["dom_pedro"])]
    assert "Sancho" in dom and "Dom" in dom
    no_left = [
        t.label for t in cards_valued(Rules(left_rank="", trump_order="AKQJT98765432", bid_max=9))
    ]
    assert "Left Pedro" not in no_left and "both Pedros" not in no_left
    dealt = set(parse_cards("5S 5C 2S 3S AH"))
    # the two lowest trumps he lacks that are no point card: the 4 and the 6
    assert replacements(Rules(), SPADES, dealt, 2) == parse_cards("4S 6S")
    # plain: the lowest non-trump he lacks (not the 5 of clubs, a trump)
    assert replacements(Rules(), SPADES, dealt, 1, "plain") == parse_cards("2C")
    every_low = set(parse_cards("2S 3S 4S 6S 7S 8S 9S QS KS AS"))
    assert replacements(Rules(), SPADES, every_low, 1) is None


def test_paired_interval_worked_by_hand():
    # with the card 10, 12, 9 points; without 7, 9, 8: differences 3, 3, 1, mean 7/3.
    # The interval adds one pseudo-difference at each end of [-14, 14] (statistics.md):
    # 3, 3, 1, -14, 14: k 5, centre 7/5 = 1.4, squares 9 + 9 + 1 + 196 + 196 = 411,
    # ss 411 - 5 * 1.96 = 401.2, se sqrt(401.2 / 4 / 5) = 4.47884, t(0.975, 4) = 2.776445:
    # 1.4 -+ 12.43520 = [-11.0352, 13.8352] (a plain t gave [-0.535, 5.202]: 3 deals
    # say little)
    p = Pairs(
        bids=[7, 7, 7],
        with_card=[Replay(10, 7, 1), Replay(12, 7, 1), Replay(9, 7, 1)],
        without=[Replay(7, -7, 0), Replay(9, 7, 1), Replay(8, 7, 1)],
    )
    pairs = {t.label: Pairs() for t in cards_valued(Rules())} | {"Right Pedro": p}
    cv = CardValues({"seed": 0, "replacement": "trump", "policies": {"play": ["x"]}},
                    Rules(), pairs, 3)  # fmt: skip
    row = cv.table().set_index("card").loc["Right Pedro"]
    half = 2.776445 * (401.2 / 20) ** 0.5
    assert row["deals"] == 3
    assert row["value"] == pytest.approx(7 / 3)
    assert (row["lo"], row["hi"]) == pytest.approx((1.4 - half, 1.4 + half), abs=1e-5)
    assert row["lo"] == pytest.approx(-11.0352, abs=1e-4)
    assert row["made_diff"] == pytest.approx(1 / 3)
    assert row["made_hi"] == 1.0  # a difference of rates is kept within [-1, 1]
    assert row["score_diff"] == pytest.approx(14 / 3)
    by_bid = cv.table("card_values_by_bid").set_index(["card", "bid"])
    # at 8 the pairs make (1, 0), (1, 1), (1, 1); at 10 (1, 0), (1, 0), (0, 0)
    assert by_bid.loc[("Right Pedro", 8), "made_diff"] == pytest.approx(1 / 3)
    assert by_bid.loc[("Right Pedro", 10), "made_diff"] == pytest.approx(2 / 3)
    assert np.isnan(cv.table().set_index("card").loc["Jack of trumps", "value"])  # no deals


def test_api_card_values():
    import cinch_sim

    cv = cinch_sim.card_values(hands=400, seed=2)
    t = cv.table()
    assert list(t["card"]) == [c.label for c in cards_valued(Rules())]
    assert (t["lo"] <= t["value"]).all() and (t["value"] <= t["hi"]).all()
    for p in cv.pairs.values():
        assert len(p.with_card) == len(p.without) == len(p.bids)
    ace = t.set_index("card").loc["Ace of trumps"]
    assert ace["lo"] > 0  # seed 2: the ace is worth about 3 points to the heuristic
    assert cv.to_dict()["card_values"][0]["card"] == "Ace of trumps"
    with pytest.raises(ValueError, match="replacement: 'x' is not one of trump, plain"):
        cinch_sim.card_values(hands=10, replacement="x")
    assert "the maker's side takes 2 points more" in cv.method_for_players()
    # cut-throat: the maker is a side of his own
    alone = cinch_sim.card_values(hands=100, seed=2, variant="cutthroat3")
    words = alone.method() + alone.method_for_players()
    assert "the maker takes 2 points more" in words and "side" not in words


def run(*args):
    return CliRunner().invoke(main, ["stats", *args], catch_exceptions=False)


def test_stats_card_values_json_table_and_csv():
    r = run("--hands", "300", "--seed", "3", "--card-values", "--format", "json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    rows = d["card_values"]
    assert [row["card"] for row in rows][:2] == ["Ace of trumps", "King of trumps"]
    assert {"card", "value", "lo", "hi", "deals"} <= set(rows[0])
    assert d["card_values_by_bid"][0]["bid"] == 1
    assert d["card_values_settings"]["replacement"] == "trump"
    r = run("--hands", "300", "--seed", "3", "--card-values", "--table", "card_values")
    assert r.exit_code == 0 and "[card_values]" in r.output and "Right Pedro" in r.output
    assert "paired 95% t interval" in r.output  # the method, said under the table
    r = run("--hands", "300", "--card-values", "--replacement", "plain", "--format", "csv",
            "--table", "card_values")  # fmt: skip
    assert r.exit_code == 0
    assert r.output.splitlines()[0].startswith("card,cards,deals,skipped,points_with")


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (["--table", "card_values"], "card_values needs --card-values"),
        (["--card-values-hands", "10"], "'--card-values-hands': needs --card-values"),
        (["--card-values", "--card-values-hands", "0"], "--card-values-hands"),
        (["--replacement", "plain"], "'--replacement': needs --card-values"),
    ],
)
def test_stats_card_values_usage_errors(args, text):
    r = run("--hands", "100", *args)
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.startswith("Error:")]
    assert len(lines) == 1 and text in lines[0], r.output


def test_the_command_line_names_the_analysis_choices():
    import importlib

    from cinch_sim.analysis import card_values

    stats = importlib.import_module("cinch_sim.cli.commands.stats")
    assert stats.REPLACEMENTS == card_values.REPLACEMENTS
    assert set(stats.CARD_TITLES) == set(card_values.CardValues.table_names(None))


def test_the_threads_change_no_number():
    import cinch_sim
    from cinch_sim.engine.threads import max_threads

    one = cinch_sim.card_values(hands=300, seed=6, threads=1).table()
    many = cinch_sim.card_values(hands=300, seed=6, threads=min(2, max_threads())).table()
    assert one.equals(many)


def test_a_replayer_plays_as_run_chunk_with_the_deck_given():
    """``Replayer`` (the experiment's fast path) gives the rows of ``run_chunk`` with a
    given deck and forced contract, bit for bit, for PIMC, dd and the heuristic."""
    import numpy as np

    from cinch_sim.engine.run import Conditions, PolicySet, Replayer, run_chunk
    from cinch_sim.rules import Rules

    rules = Rules()
    gen = np.random.default_rng(3)
    for play in ("heuristic", "dd", "pimc"):
        ps = PolicySet.from_specs(4, play=play)
        rep = Replayer(rules, ps, 9, 3)
        for index in range(3 if play == "pimc" else 10):
            deck = [int(c) for c in gen.permutation(52)]
            cond = Conditions(deck=deck, force_maker=index % 4, force_trump=index % 4, force_bid=7)
            want, _ = run_chunk(rules, ps, 9, index, 1, 3, cond)
            assert (rep.play(index, deck, index % 4, index % 4, 7) == want[0]).all()
