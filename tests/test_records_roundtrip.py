"""Round trip: records of simulated hands under every rule option referee clean.

The referee is an independent pure-Python reading of docs/rules.md, so agreement
here checks the kernel as much as the writer.
"""

from __future__ import annotations

import json

import pytest

from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.records import (
    RecordWriter,
    game_record,
    hand_record,
    iter_hand_records,
    read_records,
    referee_file,
    referee_record,
    write_records,
)
from cinch_sim.records.writer import _Ctx, _line, _record, simulate_game_record
from cinch_sim.rules import CHOICES, make_rules

# Every value of every §2 option (one at a time), plus combinations that interact.
OPTION_SETS: list[dict] = [{}]
for _name, _values in CHOICES.items():
    OPTION_SETS += [{_name: v} for v in _values[1:]]
OPTION_SETS += [
    {"must_discard_nontrumps": True},
    {"discards_face_up": True},
    {"bid_min": 6, "bid_max": 10},
    {"target": 42, "min_score_loss": 30},
    {"must_discard_nontrumps": True, "shortage": "in_order"},
    {"must_discard_nontrumps": True, "shortage": "limit_discards"},
    {"must_discard_nontrumps": True, "robber": "none"},
    {"robber": "none", "shortage": "in_order", "must_discard_nontrumps": True},
    {"robber": "dealer", "all_pass": "dealer_forced_min", "bid_min": 6},
    {"all_pass": "dealer_forced_any", "bid_min": 7},
    {"follow_rule": "trumps_only"},
    {"bid_rounds": "auction"},  # a word in a record's options, not Rules' number
    {
        "follow_rule": "trumps_only",
        "must_discard_nontrumps": True,
        "robber": "dealer",
        "low_rule": "deuce_only",
        "low_to": "player",
    },  # fmt: skip
]


def _ids(o: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in o.items()) or "defaults"


def _params(n_default: int, marks=()):
    return [pytest.param(o, n_default, marks=list(marks), id=_ids(o)) for o in OPTION_SETS]


POLICY_MIXES = [
    dict(bid="random", trump="random", discard="random", play="random"),
    dict(bid="simple", trump="simple", discard="simple", play="greedy"),
]


def _roundtrip(options: dict, n: int, tmp_path) -> None:
    rules = make_rules("standard", options)
    path = tmp_path / "hands.jsonl"
    total = 0
    with RecordWriter(path, rules) as w:
        for k, mix in enumerate(POLICY_MIXES):
            pol = PolicySet.from_specs(4, **mix)
            for dealer in (3, 0):
                out, tr = run_chunk(rules, pol, 11 + k, 0, n // 4, dealer, trace=True)
                total += w.write_chunk(out, tr, dealer)
    rep = referee_file(path)
    bad = [v.describe() for v in rep.verdicts if v.status != "valid"]
    assert not bad, f"{len(bad)} of {total}: {bad[:3]}"
    assert len(rep.verdicts) == total


@pytest.mark.parametrize(("options", "n"), _params(400))  # 10,000 each in the slow set
def test_roundtrip_every_option(options, n, tmp_path):
    _roundtrip(options, n, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize(("options", "n"), _params(10000))
def test_roundtrip_every_option_10000(options, n, tmp_path):
    _roundtrip(options, n, tmp_path)


def test_fast_writer_matches_dict_writer():
    pol = PolicySet.from_specs(4, bid="random", trump="random", discard="random", play="random")
    for opts in ({}, {"all_pass": "redeal_same"}, {"robber": "none"}, {"robber": "dealer"}):
        rules = make_rules("standard", opts)
        out, tr = run_chunk(rules, pol, 5, 0, 400, 1, trace=True)
        ctx = _Ctx(rules)
        for a, b in zip(out.tolist(), tr.tolist(), strict=True):
            assert _line(ctx, a, b) == json.dumps(_record(ctx, a, b))


def test_record_form_and_key_order():
    rules = make_rules("standard", {"robber": "dealer"})
    pol = PolicySet.from_specs(4, bid="simple", trump="simple", discard="simple", play="greedy")
    out, tr = run_chunk(rules, pol, 1, 0, 50, 3, trace=True)
    recs = list(iter_hand_records(rules, out, tr))
    assert recs[0] == hand_record(rules, out[0], tr[0])
    played = [r for r in recs if "tricks" in r][0]
    assert list(played) == [
        "format", "rules", "dealer", "hands", "stock", "bids", "maker", "bid", "trump",
        "discards", "draws", "robber_discards", "tricks", "result",
    ]  # fmt: skip
    assert list(played["result"]) == ["points", "captured", "made", "score", "renege"]
    assert list(played["result"]["captured"]) == [
        "high", "low", "jack", "game", "right_pedro", "left_pedro",
    ]  # fmt: skip
    assert played["rules"] == {"preset": "standard", "options": {"robber": "dealer"}}
    assert all(len(h) == 9 for h in played["hands"]) and len(played["stock"]) == 16
    tokens = [c for h in played["hands"] for c in h] + played["stock"]
    assert all(len(t) == 2 and t[0] in "23456789TJQKA" and t[1] in "SHDC" for t in tokens)
    assert played["discards"][played["dealer"]] == []  # the dealer robs: no discard


def test_thrown_in_record_exact():
    rules = make_rules("standard", {"all_pass": "redeal_next", "bid_min": 14})
    pol = PolicySet.from_specs(4, bid="simple", trump="simple", discard="simple", play="greedy")
    out, tr = run_chunk(rules, pol, 1, 0, 200, 3, trace=True)
    thrown = [r for r in iter_hand_records(rules, out, tr) if r["maker"] is None]
    assert thrown
    r = thrown[0]
    assert list(r) == ["format", "rules", "dealer", "hands", "stock", "bids", "maker", "bid",
                       "trump", "result"]  # fmt: skip
    assert r["result"] == {"thrown_in": True, "points": [0, 0], "score": [0, 0], "made": None}
    assert referee_record(r).status == "valid"


def test_writer_is_atomic(tmp_path):
    rules = make_rules()
    path = tmp_path / "out.jsonl"
    pol = PolicySet.from_specs(4, bid="random", trump="random", discard="random", play="random")
    out, tr = run_chunk(rules, pol, 1, 0, 10, 3, trace=True)
    with pytest.raises(RuntimeError):
        with RecordWriter(path, rules) as w:
            w.write_chunk(out, tr)
            raise RuntimeError("stop")
    assert not path.exists()
    assert list(tmp_path.iterdir()) == []
    with RecordWriter(path, rules) as w:
        w.write_chunk(out, tr)
        assert not path.exists()  # nothing half-written at the final name
    assert len(path.read_text().splitlines()) == 10


def test_writer_open_ended_use(tmp_path):
    """The way `simulate --records` uses it: construct, write chunks, close."""
    from cinch_sim.engine.run import iter_chunks

    rules = make_rules("standard", {"robber": "dealer"})
    pol = PolicySet.from_specs(4, bid="simple", trump="simple", discard="simple", play="greedy")
    path = tmp_path / "sim.jsonl"
    w = RecordWriter(path, rules, 2)
    for out, tr in iter_chunks(rules, pol, 700, 9, 2, chunk=256, trace=True):
        w.write_chunk(out, tr)
    assert not path.exists()
    w.close()
    w.close()  # idempotent
    assert w.count == 700
    rep = referee_file(path)
    assert rep.summary() == "700 valid, 0 renege, 0 misdeal, 0 invalid"
    assert {v.check.dealer for v in rep.verdicts} == {2}
    w = RecordWriter(tmp_path / "dropped.jsonl", rules)
    w.write_chunk(out, tr)
    w.abort()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sim.jsonl"]


def test_writer_needs_trace(tmp_path):
    rules = make_rules()
    pol = PolicySet.from_specs(4, bid="random", trump="random", discard="random", play="random")
    out, tr = run_chunk(rules, pol, 1, 0, 10, 3, trace=False)
    with pytest.raises(ValueError, match="trace=True"):
        with RecordWriter(tmp_path / "x.jsonl", rules) as w:
            w.write_chunk(out, tr)


def test_write_records_and_read_back(tmp_path):
    rules = make_rules()
    pol = PolicySet.from_specs(4, bid="random", trump="random", discard="random", play="random")
    out, tr = run_chunk(rules, pol, 2, 0, 30, 2, trace=True)
    recs = list(iter_hand_records(rules, out, tr))
    p = tmp_path / "r.jsonl"
    assert write_records(p, recs) == 30
    back = [ln.data for ln in read_records(p)]
    assert back == json.loads(json.dumps(recs))


@pytest.mark.parametrize(
    "opts",
    [{}, {"all_pass": "redeal_same"}, {"all_pass": "redeal_next"}, {"min_score_loss": 10}],
    ids=_ids,
)
def test_simulated_games_referee_clean(opts):
    rules = make_rules("standard", opts)
    pol = PolicySet.from_specs(4, bid="random", trump="random", discard="random", play="random")
    for seed in range(3):
        g = simulate_game_record(rules, pol, seed=seed, first_dealer=seed % 4, max_hands=60)
        v = referee_record(json.loads(json.dumps(g)))
        assert v.status == "valid", v.describe()
        assert g["reason"] in ("target", "negative_limit", "unfinished")
        # the writer's game equals the referee's recomputation of it
        assert v.record == g
        assert game_record(rules, g["hands"], g["first_dealer"]) == g


@pytest.mark.parametrize(("preset", "word"), [("standard", "auction"), ("auction", "one")])
def test_bid_rounds_is_a_word_in_a_records_options(preset, word):
    """docs/records.md: ``rules.options`` holds ``bid_rounds`` as "one" or "auction".
    Records written so are valid (they were refused as "must be a whole number"), and
    the number Rules keeps inside is refused in a record."""
    rules = make_rules(preset, {"bid_rounds": word})
    out, tr = run_chunk(rules, PolicySet.from_specs(4), 5, 0, 20, 3, trace=True)
    recs = [_record(_Ctx(rules), o.tolist(), t.tolist()) for o, t in zip(out, tr, strict=True)]
    assert recs[0]["rules"]["options"] == {"bid_rounds": word}
    assert {referee_record(r).status for r in recs} == {"valid"}
    recs[0]["rules"]["options"]["bid_rounds"] = rules.bid_rounds
    v = referee_record(recs[0])
    assert (v.status, v.field) == ("invalid", "rules.options.bid_rounds")
    assert "must be one of one, auction" in v.message
