"""``cinch-sim show`` and the referee's words across the presets: only the steps a
preset has (no discard and draw without a draw), its own names (the Left Bower of
all_hands), seats for sides in cut-throat, and trick columns that stay aligned."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from cinch_sim.cards import SUITS
from cinch_sim.cli.main import main
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.records import referee_record, simulate_game_record
from cinch_sim.records.writer import iter_hand_records
from cinch_sim.rules import make_rules


def hand_records(preset: str, n: int = 12, seed: int = 5) -> list[dict]:
    """``n`` hands the kernel played under ``preset``, as records."""
    rules = make_rules(preset)
    pol = PolicySet.from_specs(rules.players)
    out, tr = run_chunk(rules, pol, seed, 0, n, dealer=rules.players - 1, trace=True)
    return list(iter_hand_records(rules, out, tr))


def played(preset: str, **kw) -> list[dict]:
    """The hands of ``hand_records`` that were played (not thrown in)."""
    return [r for r in hand_records(preset, **kw) if r["maker"] is not None]


def show(tmp_path, records: list[dict], line: int = 1) -> str:
    """What ``cinch-sim show`` prints for line ``line`` of a file of ``records``."""
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    res = CliRunner().invoke(main, ["show", str(path), "--line", str(line)])
    assert res.exit_code == 0, res.output
    return res.output


@pytest.mark.parametrize("preset", ["sancho_classic", "dom_pedro_classic", "no_draw"])
def test_no_draw_shows_no_discard_and_draw(tmp_path, preset):
    text = show(tmp_path, played(preset)[:1])
    assert "Discard and draw" not in text and "draws —" not in text, text
    assert "After the draw" not in text and "stock" not in text, text
    assert "undealt " in text  # the cards nobody was dealt: nobody draws them
    if make_rules(preset).left_rank:  # no_draw: the Left Pedro is still a trump
        assert "At the start of play (the Left Pedro shown with the trumps):" in text
    else:
        assert "Left" not in text and "At the start of play" not in text, text


def test_all_hands_calls_its_left_card_the_left_bower(tmp_path):
    recs = played("all_hands")
    text = show(tmp_path, recs[:1])
    assert "After the draw (the Left Bower shown with the trumps):" in text
    assert "Pedro" not in text.replace("right pedro", ""), text
    # the referee names it too: a wrong winner of a trick the Left Bower won
    for rec in recs:
        left = {"H": "JD", "D": "JH", "S": "JC", "C": "JS"}[rec["trump"]]
        for trick in rec["tricks"]:
            seats = [(trick["leader"] + k) % 4 for k in range(len(trick["cards"]))]
            if left in trick["cards"] and seats[trick["cards"].index(left)] == trick["winner"]:
                trick["winner"] = (trick["winner"] + 1) % 4
                v = referee_record(rec)
                assert v.message.endswith(f"wins with {left} (the Left Bower)"), v.message
                return
    pytest.fail("no trick won by the Left Bower in these hands")


def test_cutthroat_names_each_side_by_its_seat(tmp_path):
    text = show(tmp_path, played("cutthroat5")[:1])
    assert "team" not in text, text
    assert re.search(r"^  taken: seat 0 -?\d+, seat 1 -?\d+, .*seat 4 -?\d+$", text, re.M), text
    assert re.search(r"^Bid \d+: (made|set)\.  Score: seat 0 [+-]\d+, ", text, re.M), text
    points = [ln for ln in text.splitlines() if re.match(r"  (high|low|jack|game) ", ln)]
    assert points and all("not in play" in ln or " to seat " in ln for ln in points), points


def test_cutthroat_game_winner_is_a_seat(tmp_path):
    rules = make_rules("cutthroat3")
    game = simulate_game_record(rules, PolicySet.from_specs(3), seed=1, max_hands=60)
    assert game["winner"] is not None
    text = show(tmp_path, [game])
    assert text.splitlines()[-1] == f"Winner: seat {game['winner']} ({game['reason']})"
    partners = simulate_game_record(make_rules("standard"), PolicySet.from_specs(4), seed=1)
    assert show(tmp_path, [partners]).splitlines()[-1].startswith("Winner: team ")


def test_two_deck_points_name_a_side_once(tmp_path):
    """Both copies to one side read ``2 to team 1 (both copies)``; a copy each, ``1 each
    to team 0 and team 1``."""
    recs = played("two_deck")
    values = {"high": 1, "low": 1, "jack": 1, "game": 1, "right_pedro": 5, "left_pedro": 5}
    seen = set()
    for i, rec in enumerate(recs):
        text = show(tmp_path, recs, i + 1)
        assert not re.search(r"(team \d) and \1", text), text
        for name, teams in rec["result"]["captured"].items():
            label = name.replace("_", " ")
            line = next(ln for ln in text.splitlines() if ln.startswith(f"  {label} "))
            if len(teams) == 2 and teams[0] == teams[1]:
                assert line.endswith(f" {2 * values[name]} to team {teams[0]} (both copies)")
                seen.add("same")
            elif len(teams) == 2:
                assert line.endswith(f" {values[name]} each to team 0 and team 1 (a copy each)")
                seen.add("split")
    assert seen == {"same", "split"}


@pytest.mark.parametrize("preset", ["two_deck", "pidro"])
def test_trick_columns_stay_aligned(tmp_path, preset):
    """Past trick 9 (two_deck's twelve tricks), and when seats without a trump sit a
    trick out (pidro), every play and ``won by`` keep their columns."""
    recs = played(preset)
    if preset == "pidro":  # a hand in which some trick has fewer cards than seats
        recs = [r for r in recs if min(len(t["cards"]) for t in r["tricks"]) < 4]
    text = show(tmp_path, recs[:1])
    tricks = [ln for ln in text.splitlines() if re.match(r"^ +\d+\. ", ln)]
    n = len(recs[0]["tricks"])
    assert [int(ln.split(".")[0]) for ln in tricks] == list(range(1, n + 1))
    for ln in tricks:
        assert re.search(r"\d:\S", ln) is None, ln  # "0: 10♠", never "0:10♠"
    # every seat's play, and "won by", starts in the same column on every line
    starts = [[m.start() for m in re.finditer(r"\d: ", ln)] for ln in tricks]
    assert all(s == starts[0][: len(s)] for s in starts), "\n".join(tricks)
    assert len({ln.index("won by") for ln in tricks}) == 1, "\n".join(tricks)


def test_cutthroat_referee_messages_name_seats():
    """The renege penalty and a hand after the game's end name the side by its seat."""
    rec = _a_renege(played("cutthroat5", n=30))
    v = referee_record(rec)
    assert v.status == "renege", v.describe()
    assert re.search(r"penalty \(docs/rules\.md §1\.16\): score seat 0 [+-]\d+, seat 1 ", v.message)
    assert "team" not in v.message, v.message
    game = simulate_game_record(make_rules("cutthroat3"), PolicySet.from_specs(3), seed=1)
    last = len(game["hands"]) - 1
    game["hands"].append(game["hands"][-1])
    for k in ("totals", "winner", "reason"):
        del game[k]
    v = referee_record(game)
    assert v.message == (
        f"the game was over after hands[{last}] (seat {game_winner(game)} won, target)"
    ), v.message


def game_winner(game: dict) -> int:
    """The winner of ``game`` as refereed without its extra last hand."""
    return referee_record({**game, "hands": game["hands"][:-1]}).check.winner


def _a_renege(recs: list[dict]) -> dict:
    """A record in which a seat that followed the led plain suit plays instead a plain
    card of another suit he played later (the two swapped): a renege. Neither card won
    its trick, nor can it win the other, so every trick keeps its winner."""
    for rec in recs:
        hc = referee_record(rec).check
        tricks = rec["tricks"]
        P = hc.rules.players
        for t, trick in enumerate(tricks):
            led = trick["cards"][0][-1]
            for k, c in enumerate(trick["cards"][1:], 1):
                if c[-1] != led or not _loses(hc, c, trick, k):
                    continue
                seat = (trick["leader"] + k) % P
                for later in tricks[t + 1 :]:
                    j = (seat - later["leader"]) % P
                    d = later["cards"][j]
                    if d[-1] != led != later["cards"][0][-1] and _loses(hc, d, later, j):
                        trick["cards"][k], later["cards"][j] = d, c
                        rec.pop("result", None)
                        return rec
    pytest.fail("no hand to make a renege of")


def _loses(hc, card: str, trick: dict, at: int) -> bool:
    """Whether ``card``, played ``at``-th in ``trick``, is a plain card that did not win
    it (and so cannot win any trick whose led suit is not its own)."""
    won = (trick["winner"] - trick["leader"]) % hc.rules.players
    plain = card[-1] != SUITS[hc.trump] and not _is_left(card, hc)
    return at != won and plain


def _is_left(card: str, hc) -> bool:
    """Whether ``card`` is the hand's left card (a trump, whatever its suit)."""
    from cinch_sim.cards import parse_card
    from cinch_sim.records.referee import trump_suit

    return parse_card(card) == trump_suit(hc.rules, hc.trump).left
