"""The studies stored with the package: each replays bit for bit, answers only its own
question, and the report takes it (or plays its own where asked)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import numpy as np
import pytest

from cinch_sim.analysis.card_values import MIN_DEALS
from cinch_sim.report import stored_studies
from cinch_sim.report.build import (
    ReportSettings,
    advice_question,
    card_policies,
    card_question,
    card_study,
    value_policies,
    value_question,
)
from cinch_sim.rules import Rules, make_rules

# deals replayed per stored card study: PIMC's cost about 0.3 s each with their replays
REPLAYED = {"pimc": 4, "dd": 120}
# every study shipped, by preset: each is checked against the play of today's players
CARD_STUDIES = [
    ("pimc", "standard"),
    ("dd", "standard"),
    ("pimc", "widow"),
    ("pimc", "sancho"),
    ("pimc", "dom_pedro"),
    ("pimc", "all_hands"),
    ("pimc", "pidro"),
    ("pimc", "sancho_classic"),
    ("pimc", "dom_pedro_classic"),
    ("pimc", "cutthroat3"),
    ("pimc", "cutthroat2"),
    ("pimc", "auction"),
]
HAND_STUDIES = [p for player, p in CARD_STUDIES if player == "pimc"]
ADVICE_STUDIES = HAND_STUDIES


def _standard_first(params: list) -> list:
    """The standard game's studies replay in every run; the other presets' (about 15 s
    together) in the slow set, which CI runs before anything lands."""

    def one(p: tuple | str) -> object:
        values = p if isinstance(p, tuple) else (p,)
        return p if "standard" in values else pytest.param(*values, marks=pytest.mark.slow)

    return [one(p) for p in params]


def test_the_studies_listed_are_the_studies_shipped():
    """A study lost, or one added without its checks here, fails this."""
    shipped = {
        (kind, player, preset)
        for kind in stored_studies.KINDS
        for player in ("pimc", "dd")
        for preset in stored_studies.stored_presets(kind, player)
    }
    listed = {("card_values", player, preset) for player, preset in CARD_STUDIES}
    listed |= {("hand_values", "pimc", preset) for preset in HAND_STUDIES}
    listed |= {("advice", "pimc", preset) for preset in ADVICE_STUDIES}
    assert shipped == listed


@pytest.mark.parametrize(("player", "preset"), _standard_first(CARD_STUDIES))
def test_a_stored_card_study_replays_bit_for_bit(player, preset):
    """The study answers the report's question, and its first deals, played again now,
    give every pair exactly as stored: a change to the player's play fails here until
    the study is made again (scripts/store_studies.py)."""
    s = ReportSettings(rules=make_rules(preset))
    stored = stored_studies.card_values(player, s.rules, card_question(s, player))
    assert stored is not None, f"no stored {player} card study answers the report"
    n = REPLAYED[player]
    live = card_study(s, player, n)
    compared = 0
    for label, p in live.pairs.items():
        q = stored.pairs[label]
        first = [i for i, d in enumerate(q.deals) if d < n]
        assert p.deals == [q.deals[i] for i in first]
        assert p.bids == [q.bids[i] for i in first]
        assert p.with_card == [q.with_card[i] for i in first]
        assert p.without == [q.without[i] for i in first]
        compared += len(first)
    assert compared > 0  # the first deals held tested cards


def test_pimc_s_stored_card_values_are_a_quarter_point_wide():
    """At least 5,000 deals, and each card's interval at most +-0.25 points."""
    s = ReportSettings()
    cv = stored_studies.card_values("pimc", s.rules, card_question(s, "pimc"))
    assert cv.hands_played >= 5000
    t = cv.values()
    assert (t["deals"] >= MIN_DEALS).all()
    half = (t["hi"] - t["lo"]) / 2
    assert (half <= 0.25).all(), t[["card", "deals", "value", "lo", "hi"]]


@pytest.mark.parametrize("preset", _standard_first(HAND_STUDIES))
def test_the_stored_pimc_hand_values_hold_their_replayed_probe(preset):
    """The probe (the first seat's first hands) plays again as stored, and lies inside
    the study's counts: the study and its probe came from the same play."""
    s = ReportSettings(rules=make_rules(preset))
    found = stored_studies.stored_hand_values("pimc", s.rules, value_question(s, "pimc"))
    assert found is not None, "no stored PIMC hand-value study answers the report"
    hv, settings = found
    assert hv.hands == settings["hands"] >= 10_000
    probe = stored_studies.probe(s.rules, value_policies(s, "pimc"), s.seed, s.dealer)
    stored_probe = stored_studies.stored_probe("pimc", s.rules)
    assert np.array_equal(probe.counts, stored_probe.counts)
    assert probe.hands == stored_studies.PROBE_HANDS
    assert (hv.counts[0] >= probe.counts[0]).all()  # the first seat (eldest) holds them


def test_a_stored_study_answers_only_its_own_question():
    s = ReportSettings()
    q = card_question(s, "pimc")
    assert stored_studies.match("card_values", "pimc", s.rules, q) is not None
    other_rules = dataclasses.replace(s.rules, robber="dealer")
    asked = [
        {**q, "dealer": 0},
        {**q, "replacement": "plain"},
        {**q, "rules": other_rules.describe()},
        card_question(s, "heuristic"),
    ]
    for question in asked:
        assert stored_studies.match("card_values", "pimc", s.rules, question) is None
    assert stored_studies.match("card_values", "greedy", s.rules, q) is None  # no such file
    hq = value_question(s, "pimc")
    assert stored_studies.match("hand_values", "pimc", s.rules, {**hq, "seed": 7}) is not None
    assert stored_studies.match("hand_values", "pimc", s.rules, {**hq, "dealer": 1}) is None


def test_a_study_s_question_is_told_without_loading_its_players():
    """A stored study's question names the players' specs as loading them would, but
    loads none: a first report would otherwise compile PIMC (a minute or two) just to
    see that the stored study answers it."""
    from cinch_sim.engine.run import checked_policies

    s = ReportSettings()
    for player in ("heuristic", "pimc", "dd"):
        assert card_question(s, player)["policies"] == card_policies(s, player).describe()
        assert value_question(s, player)["policies"] == value_policies(s, player).describe()
        loaded = checked_policies(4, "heuristic", "heuristic", "heuristic", player)
        assert advice_question(s, player)["policies"] == loaded.describe()
    code = (
        "import sys\n"
        "from cinch_sim.report.build import *\n"
        "s = ReportSettings()\n"
        "for p in ('pimc', 'pimc_infer', 'dd'):\n"
        "    card_question(s, p), value_question(s, p), advice_question(s, p)\n"
        "print(sorted(m for m in sys.modules if m.startswith('cinch_sim.policies.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "'cinch_sim.policies.strategies'" in out.stdout  # the list was printed
    for module in ("pimc", "dd", "heuristic", "inference"):
        assert f"'cinch_sim.policies.{module}'" not in out.stdout


def test_a_card_study_saved_and_loaded_keeps_every_replay(tmp_path, monkeypatch):
    monkeypatch.setattr(stored_studies, "STORED", tmp_path)
    s = ReportSettings(rules=Rules(robber="dealer"))
    live = card_study(s, "heuristic", 300)
    path = stored_studies.study_path("card_values", "heuristic", s.rules)
    stored_studies.save_card_values(live, path, "a test")
    back = stored_studies.card_values("heuristic", s.rules, card_question(s, "heuristic"))
    assert back.pairs == live.pairs and back.hands_played == 300
    assert back.values().equals(live.values())
    assert back.settings["stored"]["made_by"] == "a test"
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left
    live.interrupted = True
    with pytest.raises(ValueError, match="interrupted"):
        stored_studies.save_card_values(live, path, "a test")


def test_the_report_takes_the_stored_studies_or_plays_pimc_when_asked():
    s = ReportSettings()
    assert set(s.stored_card_values()) == {"pimc", "dd"}
    assert s.card_hands()["pimc"] >= 5000 and s.card_hands()["dd"] >= 50_000
    assert "pimc" in s.stored_value_hands()
    assert not {"cards:pimc", "cards:dd", "values:pimc"} & set(s.work())  # cost nothing
    asked = ReportSettings(card_values_hands=12)
    assert set(asked.stored_card_values()) == {"dd"} and asked.card_hands()["pimc"] == 12
    assert "cards:pimc" in asked.work()
    variant = ReportSettings(rules=Rules(robber="dealer"), hands=100_000)
    assert variant.stored_card_values() == {} and variant.card_hands()["pimc"] == 20
    rows = dict(s.rows())
    assert rows["hands played for card values, PIMC"].endswith("(stored with cinch_sim)")


def test_a_study_extended_is_the_study_played_in_one_go():
    """Hands 0..n then n..m, appended, are hands 0..m: how a stored study grows
    (``scripts/store_studies.py --extend``)."""
    s = ReportSettings(rules=Rules(robber="dealer"))
    first = card_study(s, "heuristic", 170)
    first.extend(card_study(s, "heuristic", 130, start=170))
    whole = card_study(s, "heuristic", 300)
    assert first.pairs == whole.pairs and first.hands_played == 300
    assert first.values().equals(whole.values())


def test_advice_saved_and_loaded_reads_the_same(tmp_path, monkeypatch, few_example_deals):
    """The example hands' advice, stored and loaded back, gives the same counts and
    the same sentences; a question with other hands or precision finds nothing."""
    from cinch_sim.advisor.present import advice_reason
    from cinch_sim.report.build import advice_question, run_example_advice

    monkeypatch.setattr(stored_studies, "STORED", tmp_path)
    s = ReportSettings(perfect_advice_precision=0.25)
    advice = run_example_advice(s, play="dd")
    question = advice_question(s, "dd")
    path = stored_studies.study_path("advice", "dd", s.rules)
    stored_studies.save_advice(advice, question, path, "a test")
    back = stored_studies.stored_advice("dd", s.rules, question)
    assert list(back) == list(advice)
    for text, adv in advice.items():
        got = back[text]
        assert got.hands == adv.hands and np.array_equal(got.win, adv.win)
        assert np.array_equal(got.diff2, adv.diff2) and got.candidates == adv.candidates
        assert np.array_equal(got.between2, adv.between2) and got.tied_bids == adv.tied_bids
        assert advice_reason(got) == advice_reason(adv)
        assert got.query.hand == adv.query.hand and got.query.seat == adv.query.seat
    for other in ({**question, "precision": 0.1}, {**question, "hands": question["hands"][:2]}):
        assert stored_studies.stored_advice("dd", s.rules, other) is None


def test_advice_stored_without_the_pairs_of_bids_claims_no_tie(tmp_path, monkeypatch):
    """A study stored before the paired differences between bids were kept loads
    with none: the advice names no bid "as good", and says the ties are not known."""
    import dataclasses

    from cinch_sim.advisor.present import STORED_NO_TIES, advice_dict, advice_reason
    from cinch_sim.report.build import advice_question

    s = ReportSettings()
    question = advice_question(s, "pimc")
    found = stored_studies.stored_advice("pimc", s.rules, question)
    assert found is not None
    older = {text: dataclasses.replace(a, between=None, between2=None, between_n=None)
             for text, a in found.items()}  # fmt: skip
    monkeypatch.setattr(stored_studies, "STORED", tmp_path)
    path = stored_studies.study_path("advice", "pimc", s.rules)
    stored_studies.save_advice(older, question, path, "a test")
    with np.load(path) as data:
        assert not any(name.startswith("between") for name in data.files)
    back = stored_studies.stored_advice("pimc", s.rules, question)
    for adv in back.values():
        d = advice_dict(adv)
        assert adv.between is None and d["tied_bids"] is None
        assert (STORED_NO_TIES in advice_reason(adv)) == (d["best_ev_bid"] is not None)
        # against the suit's advice: where it is a bid, only pass (the ev) and the bid
        # itself are known; where it is pass, every bid (its ev)
        for suit, t in d["by_trump"].items():
            row = adv.per_suit()["CSDH".index(suit)]
            advised = row["best_ev_bid"]
            for b, e in t["bids"].items():
                known = advised is None or b in ("pass", str(advised))
                assert (e["vs_best"] is not None) == known, (suit, b)


@pytest.mark.parametrize("preset", ADVICE_STUDIES)
def test_the_report_shows_pimc_s_stored_advice_on_the_example_hands(preset):
    from cinch_sim.report.build import advice_question, example_hands

    s = ReportSettings(rules=make_rules(preset))
    found = stored_studies.stored_advice("pimc", s.rules, advice_question(s, "pimc"))
    assert found is not None, "no stored PIMC advice answers the report"
    assert list(found) == [text for text, _ in example_hands(s.rules)]
    seats = s.rules.players
    assert all(a.policies["play"] == ["pimc"] * seats and a.hands >= 100 for a in found.values())


def test_a_damaged_stored_study_is_left_out_with_a_warning(tmp_path, monkeypatch):
    monkeypatch.setattr(stored_studies, "STORED", tmp_path)
    s = ReportSettings()
    path = stored_studies.study_path("card_values", "pimc", s.rules)
    path.write_bytes(b"not a zip file")
    with pytest.warns(UserWarning, match="card_values_pimc_standard.npz cannot be read"):
        assert s.stored_card_values() == {}
        assert s.card_hands()["pimc"] == 200  # played here instead: hands / 5000, at most 200
