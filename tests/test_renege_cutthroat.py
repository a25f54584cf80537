"""The renege penalty with three or more players (docs/rules.md §3.5): the offender scores 0
(minus his bid if he is the maker); when he is not the maker, the maker is credited
as made and scores the preset's points total; every other player scores 0.

Each case is built from a legal engine record by one swap: seat S, who followed the
led suit in trick T with card C (not the trick's winner), plays instead a plain card
D of another suit that he played in a later trick U (where D did not win and C, a
plain card of another suit than U's, cannot). Trick winners, leaders and points are
unchanged (C and D are plain cards, worth nothing), so only the score changes:

- 3 players, maker seat M with bid B, another seat reneges: score M = 14, others 0,
  e.g. [0, 14, 0] for M = 1; the maker reneges: [.., -B, ..], others 0.
- 5 and 6 players the same, one entry per seat.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cinch_sim import api
from cinch_sim.cli.main import main
from cinch_sim.records import referee_record
from cinch_sim.rules import make_rules

SAME_COLOUR = {"H": "D", "D": "H", "C": "S", "S": "C"}


def _suit(token: str, trump: str, left: str | None) -> str:
    """A card's suit in play: 'T' for a trump (the left card included)."""
    return "T" if token == left or token[-1] == trump else token[-1]


def _renege_swap(rec: dict, maker_offends: bool) -> dict | None:
    """The record with one renege swapped in (module docstring), or None."""
    rules = make_rules(rec["rules"]["preset"], rec["rules"]["options"])
    trump = rec["trump"]
    left = rules.left_rank + SAME_COLOUR[trump] if rules.left_rank else None
    tricks = rec["tricks"]
    P = len(rec["hands"])
    for t, trick in enumerate(tricks):
        order = [(trick["leader"] + k) % P for k in range(len(trick["cards"]))]
        led = _suit(trick["cards"][0], trump, left)
        if led == "T":
            continue
        for pos in range(1, len(order)):
            s = order[pos]
            if (s == rec["maker"]) != maker_offends or s == trick["winner"]:
                continue
            c = trick["cards"][pos]
            if _suit(c, trump, left) != led:
                continue
            for u in range(t + 1, len(tricks)):
                later = tricks[u]
                lorder = [(later["leader"] + k) % P for k in range(len(later["cards"]))]
                if s not in lorder or later["winner"] == s:
                    continue
                lpos = lorder.index(s)
                d = later["cards"][lpos]
                ds = _suit(d, trump, left)
                lled = _suit(later["cards"][0], trump, left)
                if ds in ("T", led) or lpos == 0 or _suit(c, trump, left) == lled:
                    continue
                out = json.loads(json.dumps(rec))
                out["tricks"][t]["cards"][pos] = d
                out["tricks"][u]["cards"][lpos] = c
                out["result"]["renege"] = {"seat": s, "trick": t}
                return out
    return None


def _expected(rec: dict, total: int) -> tuple[list[int], bool]:
    P, maker, bid = len(rec["hands"]), rec["maker"], rec["bid"]
    off = rec["result"]["renege"]["seat"]
    score = [0] * P
    if off == maker:
        score[maker] = -bid
    else:
        score[maker] = total
    return score, off != maker


@pytest.mark.parametrize("variant", ["cutthroat3", "cutthroat5", "cutthroat6", "heasly"])
@pytest.mark.parametrize("maker_offends", [False, True], ids=["defender", "maker"])
def test_a_renege_with_three_or_more_players(tmp_path, variant, maker_offends):
    path = tmp_path / "hands.jsonl"
    api.simulate(hands=300, seed=11, variant=variant, records=path)
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    found = None
    for rec in recs:
        if rec.get("maker") is None or rec["bid"] == 0:
            continue
        found = _renege_swap(rec, maker_offends)
        if found is not None:
            break
    assert found is not None, "no hand allows the swap: widen the search"
    total = make_rules(variant).total_points
    score, made = _expected(found, total)
    found["result"]["score"], found["result"]["made"] = score, made
    v = referee_record(found)
    assert v.status == "renege", (v.status, getattr(v, "field", None))
    assert v.check.result()["score"] == score  # e.g. [0, 14, 0]: not [0, 14, 14]
    # referee --write scores a record typed without its result the same way
    bad = {k: v for k, v in found.items() if k != "result"}
    src, dst = tmp_path / "r.jsonl", tmp_path / "w.jsonl"
    src.write_text(json.dumps(bad) + "\n")
    res = CliRunner().invoke(main, ["referee", str(src), "--write", str(dst)])
    written = [json.loads(line) for line in dst.read_text().splitlines()]
    assert written and written[0]["result"]["score"] == score, res.output
